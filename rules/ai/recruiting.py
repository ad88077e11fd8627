"""Pricing every recruit for the heuristic player: the cascade (the new troll and every
troll beneath it fill their empty symbols), bribes paid and collected, the pedestal
that comes with a level-2 or level-3 troll, the new troll's future activations and
the coronation token for capping the pyramid."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from rules.actions import Recruit
from rules.ai.values import (
    Counts,
    Horizon,
    Pedestals,
    Valuer,
    add,
    bump,
    future_activations,
    troll_flow,
)
from rules.content import load_content
from rules.horde import FLAG_ANY_BRIBES, bribe_need, slot_at
from rules.pyramid import ALL_HORDE_SLOTS, cascade_slots, open_slots
from rules.resources import RESOURCES, STATUE_CLANS, Clan, Resource
from rules.scoring import current_scores
from rules.state import State

FUTURE_WEIGHT = 0.8  # the new troll's future activations, as a share of their value
LEAD_FOR_ENDING = 8  # ending the game (second coronation) pays when this far ahead


@dataclass(frozen=True)
class RecruitChoice:
    value: float
    action: Recruit
    carts: int  # carts the cascade brings (for statue moves this turn)


def _pay_bribes(counts: Counts, need: int, any_kind: bool) -> list[Resource] | None:
    """What the default payment spends on `need` bribes (coins first; with Golden
    Mask then whatever is held most), or None if unaffordable."""
    have = Counter(dict(zip(RESOURCES, counts, strict=True)))
    if not any_kind:
        return [Resource.COIN] * need if have[Resource.COIN] >= need else None
    if sum(have.values()) < need:
        return None
    paid: list[Resource] = []
    order = sorted(RESOURCES, key=lambda r: (r != Resource.COIN, -have[r]))
    for res in order:
        while len(paid) < need and have[res] > 0:
            have[res] -= 1
            paid.append(res)
    return paid


def recruit_choices(
    state: State,
    seat: int,
    valuer: Valuer,
    hz: Horizon,
    counts: Counts,
    pedestals: Pedestals,
) -> Iterator[RecruitChoice]:
    content = load_content()
    player = state.players[seat]
    size = content.pieces.pyramid_size
    if len(player.pyramid) >= size:
        return
    slots = open_slots(player)
    if not slots:
        return
    flags = state.turn_flags()
    capping = len(player.pyramid) + 1 == size and bool(state.coronation_left)
    crown = 0.0
    if capping:
        crown = state.coronation_left[0]
        if len(state.coronation_left) == 1:
            crown += _ending_value(state, seat)
    filled = set(player.pyramid)
    clans = [c.value for c in STATUE_CLANS]
    for hs in ALL_HORDE_SLOTS:
        source = slot_at(state, hs)
        if source.card is None:
            continue
        need = bribe_need(state, hs, flags)
        paid = _pay_bribes(counts, len(need), FLAG_ANY_BRIBES in flags)
        if paid is None:
            continue
        card = content.trolls[source.card]
        base_counts = add(counts, paid, -1)
        base_counts = add(base_counts, [Resource(b) for b in source.bribes])
        ped_options: list[tuple[Clan | None, Pedestals]] = [(None, pedestals)]
        if source.pedestal is not None:
            i = clans.index(source.pedestal)
            ped_options = [(None, bump(pedestals, i, 1))]
        elif hs.startswith("3.") and state.bag:
            ped_options = []
            for clan in sorted(set(state.bag)):
                i = clans.index(clan)
                ped_options.append((Clan(clan), bump(pedestals, i, 1)))
        flow = troll_flow(source.card)
        for ps in slots:
            gains = [res for res, _ in card.produce]
            carts = sum(1 for r in gains if r == Resource.CART)
            for s in cascade_slots(ps)[1:]:
                troll = player.pyramid[s]
                produce = content.trolls[troll.card].produce
                for (res, _), held in zip(produce, troll.held, strict=True):
                    if not held:
                        gains.append(res)
                        carts += res == Resource.CART
            after = add(base_counts, gains)
            later = future_activations(filled | {ps}, ps, hz.future_recruits - 1)
            future = flow * later * FUTURE_WEIGHT * hz.blend
            for ped, peds in ped_options:
                value = valuer.value(after, peds) + future + crown
                yield RecruitChoice(value, Recruit(hs, ps, ped), carts)


def _ending_value(state: State, seat: int) -> float:
    """Taking the last coronation token ends the game soon: good when ahead."""
    scores = current_scores(state)
    mine = scores[state.players[seat].account]
    others = [s for i, s in enumerate(scores) if i != state.players[seat].account]
    lead = mine - max(others, default=0)
    if lead >= LEAD_FOR_ENDING:
        return 2.0
    if lead >= 0:
        return 0.0
    return max(-8.0, lead * 0.4)
