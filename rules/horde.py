"""The horde: recruiting trolls, bribes, refills, pedestals and retirement."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from rules.actions import Recruit
from rules.content import load_content
from rules.errors import IllegalActionError, Listed, Phrase
from rules.payment import ANY, owned_counts, resolve_payment, spend
from rules.pyramid import (
    ALL_HORDE_SLOTS,
    HORDE_SLOTS,
    bribe_targets,
    cascade,
    horde_position,
    new_troll,
    open_slots,
)
from rules.resources import CLAN_BY_NAME, COIN, NAME, Clan, Resource
from rules.state import HordeSlot, State

FLAG_ANY_BRIBES = "any_bribes"
FLAG_NO_LEVEL1_BRIBES = "no_level1_bribes"


def slot_at(state: State, slot: str) -> HordeSlot:
    row, j = horde_position(slot)
    return state.horde[row][j]


def bribed_slots(state: State, slot: str, flags: list[str]) -> list[str]:
    """The horde slots that receive a bribe when `slot` is recruited (empty slots, and
    level-1 slots under Horde's Favour, are skipped)."""
    taking = _taking_bribes(_filled(state), flags)
    return [ALL_HORDE_SLOTS[t] for t in _targets(slot) if taking[t]]


def _filled(state: State) -> list[bool]:
    """Per horde slot (`ALL_HORDE_SLOTS` order), whether it holds a troll."""
    return [hs.card is not None for row in state.horde for hs in row]


def _taking_bribes(filled: list[bool], flags: list[str]) -> list[bool]:
    """Per horde slot, whether it takes a bribe when a troll above it is recruited: it
    holds a troll (`filled`), and is not level 1 under Horde's Favour."""
    if FLAG_NO_LEVEL1_BRIBES not in flags:
        return filled
    level1 = len(HORDE_SLOTS[0])
    return [False] * level1 + filled[level1:]


@cache
def _targets(slot: str) -> tuple[int, ...]:
    """`bribe_targets` as places in `ALL_HORDE_SLOTS`."""
    return tuple(ALL_HORDE_SLOTS.index(target) for target in bribe_targets(slot))


def bribe_need(state: State, slot: str, flags: list[str]) -> list[Resource | None]:
    return [bribe_kind(flags)] * len(bribed_slots(state, slot, flags))


def bribe_kind(flags: list[str]) -> Resource | None:
    """What each bribe is paid with: a coin, or any resource under Golden Mask."""
    return ANY if FLAG_ANY_BRIBES in flags else COIN


def recruit(state: State, seat: int, action: Recruit) -> None:
    """Carry out a recruit (the caller has checked the turn and step)."""
    content = load_content()
    player = state.players[seat]
    flags = state.turn.flags if state.turn else []
    if len(player.pyramid) >= content.pieces.pyramid_size:
        raise IllegalActionError("Your pyramid is complete: you must dig instead.", "pyramid_full")
    if action.horde not in ALL_HORDE_SLOTS:
        raise IllegalActionError(
            "There is no horde slot {horde}.", "no_such_slot", horde=action.horde
        )
    source = slot_at(state, action.horde)
    if source.card is None:
        raise IllegalActionError("Horde slot {horde} is empty.", "empty_slot", horde=action.horde)
    if action.slot not in open_slots(player):
        slots = open_slots(player)
        if not slots:
            raise IllegalActionError(
                "A recruit must stand on two trolls in an empty slot; {slot} is not one"
                " (none is open).",
                "bad_slot",
                slot=action.slot,
            )
        raise IllegalActionError(
            "A recruit must stand on two trolls in an empty slot; {slot} is not one"
            " (open: {open}).",
            "bad_slot",
            slot=action.slot,
            open=Listed(tuple(slots), ","),
        )
    is_top = action.horde.startswith("3.")
    # "If it was a Level-3 troll you *may* ... take a remaining pedestal of your
    # choice": naming none declines it
    if is_top and state.bag:
        if action.pedestal is not None and action.pedestal.value not in state.bag:
            raise IllegalActionError(
                "There is no {clan} pedestal left in the bag.", "no_pedestal", clan=action.pedestal
            )
    elif action.pedestal is not None:
        if is_top:
            raise IllegalActionError(
                "Only a level-3 recruit lets you choose a pedestal (and the bag is empty).",
                "no_pedestal_choice",
            )
        raise IllegalActionError(
            "Only a level-3 recruit lets you choose a pedestal.", "no_pedestal_choice"
        )
    targets = bribed_slots(state, action.horde, flags)
    tokens = resolve_payment(
        state,
        seat,
        bribe_need(state, action.horde, flags),
        action.pay,
        what=Phrase("the bribes for {horde}", {"horde": action.horde}),
    )

    # -- everything is checked: carry it out ----------------------------------------
    spend(state, seat, tokens)
    for target, tok in zip(targets, tokens, strict=True):
        slot_at(state, target).bribes.append(NAME[tok.resource])
    account = state.account_of(seat)
    card = source.card
    for bribe in source.bribes:
        account.storage[bribe] += 1
    source.bribes = []
    if source.pedestal is not None:
        account.pedestals[source.pedestal] += 1
        source.pedestal = None
    if is_top and action.pedestal is not None:
        state.bag.remove(action.pedestal.value)
        account.pedestals[action.pedestal.value] += 1
    refill(state, action.horde)
    retire(state)

    player.pyramid[action.slot] = new_troll(card)
    player.recruited_levels += content.trolls[card].level
    cascade(player, action.slot)


@dataclass(frozen=True, slots=True)
class RecruitOptions:
    """Every recruit `recruit_actions` lists, in its order, as a sequence that makes only
    the recruits asked for (so a random one is picked without making the others)."""

    trolls: tuple[tuple[str, tuple[Clan | None, ...]], ...]  # horde slot, its pedestal choices
    slots: tuple[str, ...]  # the open slots of the pyramid

    def __len__(self) -> int:
        return sum(len(pedestals) for _, pedestals in self.trolls) * len(self.slots)

    def __getitem__(self, i: int) -> Recruit:
        if i >= 0:
            for hs, pedestals in self.trolls:
                n = len(self.slots) * len(pedestals)
                if i < n:
                    slot, ped = divmod(i, len(pedestals))
                    return Recruit(hs, self.slots[slot], pedestals[ped])
                i -= n
        raise IndexError(i)

    def __iter__(self) -> Iterator[Recruit]:
        for hs, pedestals in self.trolls:
            for slot in self.slots:
                for ped in pedestals:
                    yield Recruit(hs, slot, ped)


def recruit_options(
    state: State, seat: int, counts: Counter[Resource] | None = None
) -> RecruitOptions:
    """Every recruit the purse and the horde allow (turn and step are the caller's
    business): each horde troll whose bribes the player can pay, into each open slot
    of the pyramid; a level-3 troll with each pedestal clan left in the bag, or none
    (last). `counts`: what the player owns (`owned_counts`), if the caller has it."""
    slots = _open_slots(state, seat)
    if not slots:
        return RecruitOptions((), ())
    return RecruitOptions(tuple(_recruitable(state, seat, counts)), tuple(slots))


def _open_slots(state: State, seat: int) -> list[str]:
    player = state.players[seat]
    if len(player.pyramid) >= load_content().pieces.pyramid_size:
        return []
    return open_slots(player)


def _recruitable(
    state: State, seat: int, counts: Counter[Resource] | None
) -> Iterator[tuple[str, tuple[Clan | None, ...]]]:
    """Each horde troll whose bribes the player can pay, with its pedestal choices."""
    flags = state.turn_flags()
    if counts is None:
        counts = owned_counts(state, seat)
    total = sum(counts.values())
    # what pays a bribe (`bribe_need`): coins, or anything
    coins = counts[COIN] if bribe_kind(flags) is COIN else total
    filled = _filled(state)
    taking = _taking_bribes(filled, flags)  # `bribed_slots` of every slot at once
    for hs, has_troll in zip(ALL_HORDE_SLOTS, filled, strict=True):
        if not has_troll:
            continue
        bribes = 0
        for t in _targets(hs):
            bribes += taking[t]
        if coins < bribes or total < bribes:
            continue
        pedestals: tuple[Clan | None, ...] = (None,)
        if hs.startswith("3.") and state.bag:
            # a level-3 recruit may take a pedestal from the bag, or decline (last)
            pedestals = (*(CLAN_BY_NAME[c] for c in sorted(set(state.bag))), None)
        yield hs, pedestals


def recruit_actions(
    state: State, seat: int, counts: Counter[Resource] | None = None
) -> Iterator[Recruit]:
    """The recruits of `recruit_options`, one by one."""
    yield from recruit_options(state, seat, counts)


def can_recruit(state: State, seat: int, counts: Counter[Resource] | None = None) -> bool:
    """Whether the player can pay for some recruit now (turn and step aside)."""
    if not _open_slots(state, seat):
        return False
    return next(_recruitable(state, seat, counts), None) is not None


def refill(state: State, slot: str) -> None:
    """Deal a fresh troll onto an emptied horde slot: from the same level's deck, else the
    next higher, else the next lower. A fresh level-2 troll gets a pedestal from the bag
    unless its slot still has one."""
    row, j = horde_position(slot)
    hs = state.horde[row][j]
    hs.card = None
    for deck_row in _deck_order(row):
        if state.decks[deck_row]:
            hs.card = state.decks[deck_row].pop(0)
            break
    if row == 1 and hs.card is not None and hs.pedestal is None and state.bag:
        hs.pedestal = state.bag.pop(0)


def retire(state: State) -> None:
    """Every horde troll holding the retirement number of bribes (4) retires: to the
    bottom of its deck, bribes back to the supply, a fresh troll in its place (a level-2
    slot keeps its pedestal)."""
    content = load_content()
    limit = content.pieces.retire_bribes
    for slots, row in zip(HORDE_SLOTS, state.horde, strict=True):
        for slot, hs in zip(slots, row, strict=True):
            if hs.card is not None and len(hs.bribes) >= limit:
                card = hs.card
                hs.bribes = []
                refill(state, slot)
                state.decks[content.trolls[card].level - 1].append(card)


def _deck_order(row: int) -> list[int]:
    # the same level, then higher levels, then lower ones
    return [row, *range(row + 1, 3), *range(row - 1, -1, -1)]
