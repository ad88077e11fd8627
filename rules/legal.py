"""Legal action generation, in a stable order, for every decision.

`legal_actions(state, seat)` lists every legal action of a player (default payments);
`legal_kinds` says which kinds of action are available, so a caller (the random player,
autocomplete) can enumerate only the kind it needs.
"""

from __future__ import annotations

from collections.abc import Iterator
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
from rules.payment import available_tokens, owned_counts
from rules.pyramid import ALL_HORDE_SLOTS, open_slots
from rules.resources import MINERALS, RESOURCES, Clan, Resource
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
    if not _in_turn(state, seat):
        return
    turn = state.turn
    assert turn is not None
    if turn.step > 1 or turn.spell_cast:
        return
    counts = owned_counts(state, seat)
    if counts[Resource.RUNE] < 1:
        return
    for slot in state.spellbook:
        yield from cast_actions_for(state, seat, slot.spell, counts)


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
    if _in_turn(state, seat) and _main_step(state, seat):
        yield from board.dig_actions(state, seat)


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
