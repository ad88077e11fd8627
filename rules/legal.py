"""Legal action generation, in a stable order, for every decision.

`legal_actions(state, seat)` lists every legal action of a player (default payments);
`legal_kinds` says which kinds of action are available, so a caller (the random player,
autocomplete) can enumerate only the kind it needs.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement

from rules import board, engine, workshops
from rules.actions import (
    PYRAMID_ROWS,
    Action,
    Cast,
    EndTurn,
    Keep,
    MoveStatue,
    PlaceGate,
    Recruit,
    Trade,
    UseWorkshop,
)
from rules.content import (
    AwakenEffect,
    DedicateEffect,
    DigEffect,
    ExaltEffect,
    GainChoiceEffect,
    MoveStatueEffect,
    TakePedestalEffect,
    TransmuteEffect,
    TributeEffect,
    TurnFlagEffect,
    UnburdenEffect,
    load_content,
)
from rules.errors import RulesError
from rules.horde import bribe_need, slot_at
from rules.mountain import geo
from rules.payment import available_tokens, owned_counts
from rules.pyramid import ALL_HORDE_SLOTS, open_slots
from rules.resources import MINERALS, RESOURCES, STATUE_CLANS, Clan, Resource
from rules.spells import NONE, bundle_arg, neighbour_minerals
from rules.state import State

KINDS = ("keep", "gate", "cast", "use", "trade", "recruit", "dig", "hall", "move", "end")


def legal_actions(state: State, seat: int | None = None, kind: str | None = None) -> list[Action]:
    """Every legal action for `seat` (default: the seat to move; in the draft, the first
    player still drafting), optionally only of one kind."""
    if seat is None:
        waiting = engine.seats_to_act(state)
        if not waiting:
            return []
        seat = waiting[0]
    kinds = (kind,) if kind is not None else KINDS
    out: list[Action] = []
    for k in kinds:
        out.extend(_GENERATORS[k](state, seat))
    return out


def iter_legal_actions(state: State, seat: int, kind: str) -> Iterator[Action]:
    """The legal actions of one kind for `seat`, lazily, in the order of `legal_actions`."""
    return _GENERATORS[kind](state, seat)


def may_act(state: State, seat: int) -> bool:
    """Whether `seat` is one of the seats to act now (its turn, or still drafting)."""
    return seat in engine.seats_to_act(state)


def legal_kinds(state: State, seat: int) -> list[str]:
    """The kinds of action `seat` could take now, in `KINDS` order."""
    return [k for k in KINDS if kind_available(state, seat, k)]


def kind_available(state: State, seat: int, kind: str) -> bool:
    return next(iter(_GENERATORS[kind](state, seat)), None) is not None


def keep_actions(state: State, seat: int) -> Iterator[Action]:
    if state.phase != "draft":
        return
    player = state.players[seat]
    if len(player.pyramid) >= load_content().pieces.starting_draft_keeps:
        return
    for card in player.draft_hand:
        for slot in PYRAMID_ROWS[0]:
            if slot not in player.pyramid:
                yield Keep(card, slot)


def gate_actions(state: State, seat: int) -> Iterator[Action]:
    if state.phase != "gates" or state.gate_seat != seat:
        return
    side = load_content().board(state.config.board_side)
    allowed = engine.allowed_gate_counts(state)
    taken = {p.cell for p in side.start_points if p.id in state.board.gates}
    for point in side.start_points:
        if allowed & set(point.players) and point.cell not in taken:
            yield PlaceGate(point.id)


def _in_turn(state: State, seat: int) -> bool:
    return state.phase == "play" and state.turn is not None and state.turn.seat == seat


def cast_actions(state: State, seat: int) -> Iterator[Action]:
    if not _may_cast(state, seat):
        return
    counts = owned_counts(state, seat)
    if counts[Resource.RUNE] < 1:
        return
    for slot in state.spellbook:
        yield from cast_actions_for(state, seat, slot.spell, counts)


def spell_casts(state: State, seat: int, spell_id: str) -> Iterator[Action]:
    """The legal casts of one spell now, as `cast_actions` lists them (nothing if the
    spell is not in the spellbook or `seat` may not cast now)."""
    if _may_cast(state, seat) and any(s.spell == spell_id for s in state.spellbook):
        yield from cast_actions_for(state, seat, spell_id)


def _may_cast(state: State, seat: int) -> bool:
    turn = state.turn
    return _in_turn(state, seat) and turn is not None and turn.step <= 1 and not turn.spell_cast


def cast_actions_for(
    state: State, seat: int, spell_id: str, counts: dict[Resource, int] | None = None
) -> Iterator[Action]:
    """The legal ways to cast one spell of the spellbook (`none` last)."""
    if counts is None:
        counts = owned_counts(state, seat)
    if counts[Resource.RUNE] < 1:
        return
    spell = load_content().spell(spell_id)
    for args in _spell_args(state, seat, spell.effect, counts):
        yield Cast(spell.id, args)
    yield Cast(spell.id, (NONE,))


def _spell_args(
    state: State, seat: int, effect: object, counts: dict[Resource, int]
) -> Iterator[tuple[str, ...]]:
    player = state.players[seat]
    content = load_content()
    if isinstance(effect, GainChoiceEffect):
        for option in effect.options:
            yield (bundle_arg(option),)
    elif isinstance(effect, TurnFlagEffect):
        turn = state.turn
        if turn is not None and effect.flag not in turn.flags:
            yield ()
    elif isinstance(effect, TransmuteEffect):
        for src in MINERALS:
            for dst in MINERALS:
                if src == dst or (effect.neighbours_only and not neighbour_minerals(src, dst)):
                    continue
                for n in range(1, min(effect.max, counts[src]) + 1):
                    yield (f"{n if n > 1 else ''}{src.value}>{dst.value}",)
    elif isinstance(effect, AwakenEffect):
        for slot in sorted(player.pyramid):
            yield (slot,)
    elif isinstance(effect, UnburdenEffect):
        held = [t for t in available_tokens(state, seat) if t.source != "store"]
        runes = counts[Resource.RUNE]
        seen: set[tuple[str, ...]] = set()
        for size in range(min(effect.max, len(held)), 0, -1):
            for combo in combinations(sorted(held, key=str), size):
                # a rune must remain to pay for the spell itself
                if runes - sum(1 for t in combo if t.resource == Resource.RUNE) < 1:
                    continue
                text = tuple(str(t) for t in combo)
                if text not in seen:
                    seen.add(text)
                    yield text
            if seen:
                break
    elif isinstance(effect, TributeEffect):
        for hs in ALL_HORDE_SLOTS:
            if slot_at(state, hs).bribes:
                yield (hs,)
    elif isinstance(effect, TakePedestalEffect):
        for clan in sorted(set(state.bag)):
            yield (clan,)
    elif isinstance(effect, ExaltEffect):
        for slot in sorted(player.pyramid):
            if content.trolls[player.pyramid[slot].card].level != 2:
                continue
            for hs in ALL_HORDE_SLOTS[9:]:
                card = slot_at(state, hs).card
                if card is not None and content.trolls[card].level == 3:
                    yield (slot, hs)
    elif isinstance(effect, DigEffect):
        for dig in board.dig_actions(state, seat):
            yield tuple(dig.words())
    elif isinstance(effect, DedicateEffect):
        for cell in board.movable_statues(state, seat):
            try:
                board.dedication_value(state, seat, cell, effect.forbidden_tiers)
            except RulesError:
                continue
            yield (cell,)
    elif isinstance(effect, MoveStatueEffect):
        yield from _statue_paths(state, seat, effect.moves)


def _statue_paths(state: State, seat: int, max_moves: int) -> Iterator[tuple[str, ...]]:
    """Free statue moves (Mountain Path): one statue, 1 to `max_moves` steps."""
    statues = state.board.statues

    def walk(cell: str, path: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
        for target in board.statue_moves(state, seat, cell):
            step = (*path, f"{cell}>{target}")
            yield step
            if len(step) < max_moves:
                clan = statues.pop(cell)
                statues[target] = clan
                try:
                    yield from walk(target, step)
                finally:
                    del statues[target]
                    statues[cell] = clan

    for origin in board.movable_statues(state, seat):
        yield from walk(origin, ())


def use_actions(state: State, seat: int) -> Iterator[Action]:
    if not _in_turn(state, seat):
        return
    turn = state.turn
    assert turn is not None
    if turn.step > 1:
        return
    content = load_content()
    counts = owned_counts(state, seat)
    held = sorted({t for t in available_tokens(state, seat) if t.source != "store"}, key=str)
    wild_carts = sum(
        1
        for t in available_tokens(state, seat, wild_carts_only=True)
        if t.resource == Resource.CART
    )
    for site, workshop_id in sorted(state.board.workshops.items()):
        if turn.workshop not in (None, site):
            continue
        if turn.workshop_uses >= board.workshop_uses(state, seat, site):
            continue
        for conv in content.workshop(workshop_id).conversions:
            give, get = workshops.conversion_bundles(conv)
            if conv.move_from_troll:
                for tok in held:
                    yield UseWorkshop(site, move=tok)
            elif conv.give_any:
                for combo in combinations_with_replacement(RESOURCES, conv.give_any):
                    if all(counts[r] >= combo.count(r) for r in combo):
                        yield UseWorkshop(site, combo, get)
            else:
                have = dict(counts)
                if conv.wild_carts_only:
                    have[Resource.CART] = wild_carts
                if all(have.get(r, 0) >= give.count(r) for r in give):
                    yield UseWorkshop(site, give, get)


def trade_actions(state: State, seat: int) -> Iterator[Action]:
    if not _in_turn(state, seat):
        return
    counts = owned_counts(state, seat)
    if sum(counts.values()) < load_content().pieces.trade_rate:
        return
    for needs, trades in _all_trades():
        if all(counts[r] >= n for r, n in needs):
            yield from trades


@cache
def _all_trades() -> list[tuple[tuple[tuple[Resource, int], ...], tuple[Trade, ...]]]:
    """Every possible trade (built once): what it needs, and the trades themselves."""
    rate = load_content().pieces.trade_rate
    out = []
    for combo in combinations_with_replacement(RESOURCES, rate):
        needs = tuple((r, combo.count(r)) for r in RESOURCES if r in combo)
        out.append((needs, tuple(Trade(combo, get) for get in RESOURCES)))
    return out


def recruit_actions(state: State, seat: int) -> Iterator[Action]:
    if not _in_turn(state, seat):
        return
    turn = state.turn
    assert turn is not None
    content = load_content()
    player = state.players[seat]
    if turn.main_done or turn.step > 2 or len(player.pyramid) >= content.pieces.pyramid_size:
        return
    slots = open_slots(player)
    if not slots:
        return
    counts = owned_counts(state, seat)
    total = sum(counts.values())
    for hs in ALL_HORDE_SLOTS:
        if slot_at(state, hs).card is None:
            continue
        need = bribe_need(state, hs, turn.flags)
        coins = sum(1 for r in need if r is not None)
        if counts[Resource.COIN] < coins or total < len(need):
            continue
        pedestals: list[Clan | None] = [None]
        if hs.startswith("3.") and state.bag:
            pedestals = [Clan(c) for c in sorted(set(state.bag))]
        for slot in slots:
            for ped in pedestals:
                yield Recruit(hs, slot, ped)


def _main_step(state: State, seat: int) -> bool:
    turn = state.turn
    return turn is not None and not turn.main_done and turn.step <= 2


def _after_step2(state: State, seat: int, max_step: int) -> bool:
    turn = state.turn
    if turn is None or turn.step > max_step:
        return False
    return turn.main_done or not engine.must_recruit_or_dig(state, seat)


def dig_actions(state: State, seat: int) -> Iterator[Action]:
    if dig_allowed(state, seat):
        yield from board.dig_actions(state, seat)


@dataclass(frozen=True, slots=True)
class DigChoice:
    """A tunnel placement the player may dig now (step 2), with the minerals that pay
    for it; each of them, with or without one of `dig_pedestals` and one of
    `dig_workshops`, is a legal dig."""

    placement: board.Placement
    minerals: tuple[Resource, ...]
    hammers: int  # what its rubble costs on top of the minerals


def dig_choices(state: State, seat: int, *, by_spell: bool = False) -> Iterator[DigChoice]:
    """Every placement `dig_actions` would list (those the player can pay for), in
    the same order, without enumerating pedestals and workshops. `by_spell`: the
    placements a dig spell may take (any time it may be cast: see `spell_casts`)."""
    if not by_spell and not dig_allowed(state, seat):
        return
    if not board.has_minerals_for_a_tunnel(state, seat):
        return
    counts = owned_counts(state, seat)
    for p in board.placements(state, seat):
        minerals = board.affordable(state, seat, p, counts)
        if minerals:
            yield DigChoice(p, tuple(minerals), dig_hammers(state, p))


def dig_allowed(state: State, seat: int) -> bool:
    """Whether a step-2 dig is open to `seat` now (whatever it can pay)."""
    return _in_turn(state, seat) and _main_step(state, seat)


def dig_hammers(state: State, p: board.Placement) -> int:
    """The hammers a placement's rubble costs now (none under Free Rubble's flag)."""
    turn = state.turn
    free = turn is not None and board.FLAG_FREE_RUBBLE in turn.flags
    return 0 if free else p.rubble


def dig_pedestals(state: State, seat: int, p: board.Placement) -> tuple[Clan, ...]:
    """The pedestals a dig at `p` may put on its anchor (as `board.dig_options`)."""
    if p.anchor is None:
        return ()
    tier = geo(state).tier(p.anchor)
    account = state.account_of(seat)
    return tuple(
        clan
        for clan in STATUE_CLANS
        if account.pedestals.get(clan.value, 0) > 0
        and state.pedestal_track.get(f"{tier}:{clan.value}") is not None
    )


def dig_workshops(state: State, p: board.Placement) -> tuple[tuple[str, str], ...]:
    """Each (site, workshop) a dig at `p` may establish alone (as `board.dig_options`)."""
    supply = sorted(set(state.workshop_supply))
    return tuple((site, w) for site in board.workshop_choices(state, p.mask) for w in supply)


def dig_finds(state: State, p: board.Placement) -> list[Resource]:
    """The buried resources a dig at `p` uncovers (in reading order)."""
    g = geo(state)
    return [res for b, res in sorted(g.buried.items()) if p.mask >> b & 1]


def hall_actions(state: State, seat: int) -> Iterator[Action]:
    if _in_turn(state, seat) and _after_step2(state, seat, 3):
        yield from board.hall_placements(state, seat)


def move_actions(state: State, seat: int) -> Iterator[Action]:
    if not (_in_turn(state, seat) and _after_step2(state, seat, 4)):
        return
    for origin in board.movable_statues(state, seat):
        clan = state.board.statues[origin]
        if not board.cart_tokens(state, seat, clan):
            continue
        for target in board.statue_moves(state, seat, origin):
            yield MoveStatue(origin, target)


def end_actions(state: State, seat: int) -> Iterator[Action]:
    if _in_turn(state, seat) and not engine.must_recruit_or_dig(state, seat):
        yield EndTurn()


_GENERATORS = {
    "keep": keep_actions,
    "gate": gate_actions,
    "cast": cast_actions,
    "use": use_actions,
    "trade": trade_actions,
    "recruit": recruit_actions,
    "dig": dig_actions,
    "hall": hall_actions,
    "move": move_actions,
    "end": end_actions,
}
