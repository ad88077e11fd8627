"""Legal action generation, in a stable order, for every decision.

`legal_moves(state, seat)` is a live view of a player's legal actions (python-chess's
`LegalMoveGenerator` is the model): it answers `in`, `bool()` and a count without
building a list. `legal_actions(state, seat)` lists them (default payments);
`legal_kinds` says which kinds of action are available, so a caller (the random player,
autocomplete) can enumerate only the kind it needs. Which kinds the phase and the turn
allow comes from `rules.steps`; what is possible within a kind, from the module of its
rule.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement

from rules import engine, halls, horde, statues, steps, tunnels, workshops
from rules.actions import (
    PYRAMID_ROWS,
    Action,
    Cast,
    EndTurn,
    Keep,
    MoveStatue,
    PlaceGate,
    Trade,
    UseWorkshop,
    action_kind,
)
from rules.content import load_content
from rules.errors import RulesError
from rules.mountain import geo
from rules.payment import available_tokens, owned_counts
from rules.resources import RESOURCES, Clan, Resource
from rules.spell_effects import effect_rule
from rules.spells import NONE
from rules.state import State

KINDS = steps.KINDS


class LegalActions:
    """The legal actions of `seat` (default: the seat to move; in the draft, the first
    player still drafting), optionally only of one kind, as a live view of the state.

    Iterating lists each legal action once, with the default payment, in `KINDS` order
    then each kind's stable order; `bool()` stops at the first one; `len()` (or
    `count()`) counts them without keeping them. `action in legal` asks the engine
    itself, on a copy of the state, so it is true exactly when `engine.apply` would
    accept the action as given (an explicit payment, or a choice the listing leaves
    out such as unburdening fewer resources than the spell allows).
    """

    __slots__ = ("kind", "seat", "state")

    def __init__(self, state: State, seat: int | None = None, kind: str | None = None) -> None:
        if kind is not None and kind not in _GENERATORS:
            raise KeyError(kind)
        self.state = state
        self.seat = seat
        self.kind = kind

    def _who(self) -> int | None:
        if self.seat is not None:
            return self.seat
        waiting = steps.seats_to_act(self.state)
        return waiting[0] if waiting else None

    def _kinds(self) -> tuple[str, ...]:
        return KINDS if self.kind is None else (self.kind,)

    def __iter__(self) -> Iterator[Action]:
        seat = self._who()
        if seat is None:
            return
        for k in self._kinds():
            yield from _GENERATORS[k](self.state, seat)

    def __bool__(self) -> bool:
        seat = self._who()
        return seat is not None and any(kind_available(self.state, seat, k) for k in self._kinds())

    def count(self) -> int:
        return sum(1 for _ in self)

    def __len__(self) -> int:
        return self.count()

    def __contains__(self, action: object) -> bool:
        seat = self._who()
        if seat is None or not isinstance(action, Action):
            return False
        kind = action_kind(action)
        state = self.state
        if kind not in self._kinds() or not 0 <= seat < len(state.players):
            return False
        if not steps.allows(state, seat, kind):  # the engine's first check, cheaply
            return False
        try:
            engine.apply(state.clone(), seat, action)
        except RulesError:
            return False
        return True

    def __repr__(self) -> str:
        of = "" if self.kind is None else f" of kind {self.kind!r}"
        return f"<LegalActions{of} for seat {self._who()}>"


def legal_moves(state: State, seat: int | None = None, kind: str | None = None) -> LegalActions:
    """The legal actions of `seat` now as a `LegalActions` view (see there)."""
    return LegalActions(state, seat, kind)


def legal_actions(state: State, seat: int | None = None, kind: str | None = None) -> list[Action]:
    """Every legal action for `seat` (default: the seat to move; in the draft, the first
    player still drafting), optionally only of one kind, as a list."""
    return list(LegalActions(state, seat, kind))


def iter_legal_actions(state: State, seat: int, kind: str) -> Iterator[Action]:
    """The legal actions of one kind for `seat`, lazily, in the order of `legal_actions`."""
    return _GENERATORS[kind](state, seat)


def may_act(state: State, seat: int) -> bool:
    """Whether `seat` is one of the seats to act now (its turn, or still drafting)."""
    return seat in steps.seats_to_act(state)


def legal_kinds(state: State, seat: int) -> list[str]:
    """The kinds of action `seat` could take now, in `KINDS` order."""
    return [k for k in KINDS if kind_available(state, seat, k)]


def kind_available(state: State, seat: int, kind: str) -> bool:
    return next(iter(_GENERATORS[kind](state, seat)), None) is not None


def keep_actions(state: State, seat: int) -> Iterator[Action]:
    if not steps.allows(state, seat, "keep"):
        return
    player = state.players[seat]
    for card in player.draft_hand:
        for slot in PYRAMID_ROWS[0]:
            if slot not in player.pyramid:
                yield Keep(card, slot)


def gate_actions(state: State, seat: int) -> Iterator[Action]:
    if not steps.allows(state, seat, "gate"):
        return
    side = load_content().board(state.config.board_side)
    allowed = engine.allowed_gate_counts(state)
    taken = {p.cell for p in side.start_points if p.id in state.board.gates}
    for point in side.start_points:
        if allowed & set(point.players) and point.cell not in taken:
            yield PlaceGate(point.id)


def cast_actions(state: State, seat: int) -> Iterator[Action]:
    if not steps.allows(state, seat, "cast"):
        return
    counts = owned_counts(state, seat)
    if counts[Resource.RUNE] < 1:
        return
    for slot in state.spellbook:
        yield from cast_actions_for(state, seat, slot.spell, counts)


def spell_casts(state: State, seat: int, spell_id: str) -> Iterator[Action]:
    """The legal casts of one spell now, as `cast_actions` lists them (nothing if the
    spell is not in the spellbook or `seat` may not cast now)."""
    if steps.allows(state, seat, "cast") and any(s.spell == spell_id for s in state.spellbook):
        yield from cast_actions_for(state, seat, spell_id)


def cast_actions_for(
    state: State, seat: int, spell_id: str, counts: dict[Resource, int] | None = None
) -> Iterator[Action]:
    """The legal ways to cast one spell of the spellbook (`none` last)."""
    if counts is None:
        counts = owned_counts(state, seat)
    if counts[Resource.RUNE] < 1:
        return
    spell = load_content().spell(spell_id)
    for args in effect_rule(spell.effect).choices(state, seat, spell.effect, counts):
        yield Cast(spell.id, args)
    yield Cast(spell.id, (NONE,))


def use_actions(state: State, seat: int) -> Iterator[Action]:
    if not steps.allows(state, seat, "use"):
        return
    turn = state.turn
    assert turn is not None
    content = load_content()
    counts = owned_counts(state, seat)
    held = sorted(
        {t for t in available_tokens(state, seat, held=True) if t.source != "store"}, key=str
    )
    wild_carts = sum(
        1
        for t in available_tokens(state, seat, wild_carts_only=True)
        if t.resource == Resource.CART
    )
    for site, workshop_id in sorted(state.board.workshops.items()):
        if turn.workshop not in (None, site):
            continue
        if turn.workshop_uses >= workshops.workshop_uses(state, seat, site):
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
    if not steps.allows(state, seat, "trade"):
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
    if steps.allows(state, seat, "recruit"):
        yield from horde.recruit_actions(state, seat)


def dig_actions(state: State, seat: int) -> Iterator[Action]:
    if steps.allows(state, seat, "dig"):
        yield from tunnels.dig_actions(state, seat)


@dataclass(frozen=True, slots=True)
class DigChoice:
    """A tunnel placement the player may dig now (step 2), with the minerals that pay
    for it; each of them, with or without one of `dig_pedestals` and one of
    `dig_workshops`, is a legal dig."""

    placement: tunnels.Placement
    minerals: tuple[Resource, ...]
    hammers: int  # what its rubble costs on top of the minerals


def dig_choices(state: State, seat: int, *, by_spell: bool = False) -> Iterator[DigChoice]:
    """Every placement `dig_actions` would list (those the player can pay for), in
    the same order, without enumerating pedestals and workshops. `by_spell`: the
    placements a dig spell may take (any time it may be cast: see `spell_casts`)."""
    if not by_spell and not steps.allows(state, seat, "dig"):
        return
    if not tunnels.has_minerals_for_a_tunnel(state, seat):
        return
    counts = owned_counts(state, seat)
    for p in tunnels.placements(state, seat):
        minerals = tunnels.affordable(state, seat, p, counts)
        if minerals:
            yield DigChoice(p, tuple(minerals), dig_hammers(state, p))


def dig_hammers(state: State, p: tunnels.Placement) -> int:
    """The hammers a placement's rubble costs now (none under Free Rubble's flag)."""
    return 0 if tunnels.FLAG_FREE_RUBBLE in state.turn_flags() else p.rubble


def dig_pedestals(state: State, seat: int, p: tunnels.Placement) -> tuple[Clan, ...]:
    """The pedestals a dig at `p` may put on its anchor (as `tunnels.dig_options`)."""
    return tunnels.dig_pedestals(state, seat, p.anchor)


def dig_workshops(state: State, p: tunnels.Placement) -> tuple[tuple[str, str], ...]:
    """Each (site, workshop) a dig at `p` may establish alone (as `tunnels.dig_options`)."""
    return tunnels.dig_workshops(state, p.mask)


def dig_finds(state: State, p: tunnels.Placement) -> list[Resource]:
    """The buried resources a dig at `p` uncovers (in reading order)."""
    g = geo(state)
    return [res for b, res in sorted(g.buried.items()) if p.mask >> b & 1]


def hall_actions(state: State, seat: int) -> Iterator[Action]:
    if steps.allows(state, seat, "hall"):
        yield from halls.hall_placements(state, seat)


def move_actions(state: State, seat: int) -> Iterator[Action]:
    if not steps.allows(state, seat, "move"):
        return
    for origin in statues.movable_statues(state, seat):
        clan = state.board.statues[origin]
        if not statues.cart_tokens(state, seat, clan):
            continue
        for target in statues.statue_moves(state, seat, origin):
            yield MoveStatue(origin, target)


def end_actions(state: State, seat: int) -> Iterator[Action]:
    if steps.allows(state, seat, "end"):
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
