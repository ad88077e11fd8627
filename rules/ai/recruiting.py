"""Pricing every recruit for the heuristic player: the cascade (the new troll and every
troll beneath it fill their empty symbols), bribes paid and collected, the pedestal
that comes with a level-2 or level-3 troll, the new troll's future activations and
the coronation token for capping the pyramid."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rules.actions import Pay, Recruit
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
from rules.payment import available_tokens
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


def _pay_bribes(
    counts: Counts, need: int, any_kind: bool, valuer: Valuer, pedestals: Pedestals
) -> list[Resource] | None:
    """What the bribes cost, or None if unaffordable: coins, or under Golden Mask
    ("bribes may be any mix of resources") each bribe in whatever costs least to give
    up at that moment, coins included (or the engine's coins-first order when that
    costs less in all)."""
    if not any_kind:
        i = RESOURCES.index(Resource.COIN)
        return [Resource.COIN] * need if counts[i] >= need else None
    if sum(counts) < need:
        return None
    greedy: list[Resource] = []
    left = counts
    for _ in range(need):
        res = min(
            (r for r, n in zip(RESOURCES, left, strict=True) if n > 0),
            key=lambda r: valuer.loss_of(r, left, pedestals),
        )
        greedy.append(res)
        left = add(left, [res], -1)
    # the valuation is not additive (sets, tunnels' minerals): greedy can lose to the
    # engine's own order (coins first, then what is held most), so take the better
    have = dict(zip(RESOURCES, counts, strict=True))
    order = sorted(RESOURCES, key=lambda r: (r != Resource.COIN, -have[r]))
    default = [r for r in order for _ in range(have[r])][:need]
    return min((greedy, default), key=lambda paid: -valuer.value(add(counts, paid, -1), pedestals))


def _tokens_for(pool: list[Pay], paid: list[Resource]) -> tuple[Pay, ...]:
    """The payment naming `paid`: for each resource its first token in the default
    spending order (trolls before storage)."""
    spare = list(pool)
    out: list[Pay] = []
    for res in paid:
        tok = next(t for t in spare if t.resource == res)
        spare.remove(tok)
        out.append(tok)
    return tuple(out)


def recruit_choices(
    state: State,
    seat: int,
    valuer: Valuer,
    hz: Horizon,
    counts: Counts,
    pedestals: Pedestals,
) -> Iterator[RecruitChoice]:
    for value, hs, ps, ped, pay, carts in _recruit_options(
        state, seat, valuer, hz, counts, pedestals
    ):
        yield RecruitChoice(value, Recruit(hs, ps, ped, pay), carts)


def best_recruit_value(
    state: State,
    seat: int,
    valuer: Valuer,
    hz: Horizon,
    counts: Counts,
    pedestals: Pedestals,
) -> float | None:
    """The value of the best of `recruit_choices` (None if there is none), without
    making their actions."""
    return max(
        (option[0] for option in _recruit_options(state, seat, valuer, hz, counts, pedestals)),
        default=None,
    )


# a recruit as `_recruit_options` gives it: value, horde slot, pyramid slot, pedestal
# clan, payment (under Golden Mask), carts the cascade brings
_Option = tuple[float, str, str, Clan | None, tuple[Pay, ...] | None, int]


def _recruit_options(
    state: State,
    seat: int,
    valuer: Valuer,
    hz: Horizon,
    counts: Counts,
    pedestals: Pedestals,
) -> Iterator[_Option]:
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
    any_kind = FLAG_ANY_BRIBES in flags
    pool = available_tokens(state, seat) if any_kind else []
    # per open slot: what recruiting there reactivates below it (its cascade) and how
    # often it will activate later, the same whichever troll is recruited
    cascades: list[tuple[str, list[Resource], int, int]] = []
    for ps in slots:
        freed: list[Resource] = []
        freed_carts = 0
        for s in cascade_slots(ps)[1:]:
            troll = player.pyramid[s]
            produce = content.trolls[troll.card].produce
            for (res, _), held in zip(produce, troll.held, strict=True):
                if not held:
                    freed.append(res)
                    freed_carts += res == Resource.CART
        later = future_activations(filled | {ps}, ps, hz.future_recruits - 1)
        cascades.append((ps, freed, freed_carts, later))
    for hs in ALL_HORDE_SLOTS:
        source = slot_at(state, hs)
        if source.card is None:
            continue
        need = bribe_need(state, hs, flags)
        paid = _pay_bribes(counts, len(need), any_kind, valuer, pedestals)
        if paid is None:
            continue
        # under Golden Mask the payment is named: the engine's default spends coins first
        pay = _tokens_for(pool, paid) if any_kind and paid else None
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
        produced = [res for res, _ in card.produce]
        produced_carts = sum(1 for r in produced if r == Resource.CART)
        for ps, freed, freed_carts, later in cascades:
            gains = produced + freed
            carts = produced_carts + freed_carts
            after = add(base_counts, gains)
            future = flow * later * FUTURE_WEIGHT * hz.blend
            for ped, peds in ped_options:
                value = valuer.value(after, peds) + future + crown
                yield value, hs, ps, ped, pay, carts


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
