"""Legal action generation, in a stable order, for every decision.

`legal_moves(state, seat)` is a live view of a player's legal actions (python-chess's
`LegalMoveGenerator` is the model): it answers `in`, `bool()` and a count without
building a list. `legal_actions(state, seat)` lists them (default payments);
`legal_kinds` says which kinds of action are available, so a caller (the random player,
autocomplete) can enumerate only the kind it needs; `AvailableKinds` answers kind by
kind without listing any action, remembering what the kinds share for one decision.
Which kinds the phase and the turn allow comes from `rules.steps`; what is possible
within a kind, from the module of its rule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from typing import Literal

from rules import engine, halls, horde, statues, steps, tunnels, workshops
from rules.actions import (
    PYRAMID_ROWS,
    Action,
    Cast,
    EndTurn,
    Keep,
    PlaceGate,
    Trade,
    action_kind,
)
from rules.content import load_content
from rules.errors import RulesError
from rules.indexed import Bundles, Chained, Indexed, bits
from rules.mountain import geo
from rules.payment import owned_counts
from rules.resources import RESOURCES, RUNE, Clan, Resource
from rules.spell_effects import effect_rule
from rules.spells import NONE, spell_info
from rules.state import State

KINDS = steps.KINDS
_EVERY_KIND = frozenset(KINDS)


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
        if seat is None:
            return False
        available = AvailableKinds(self.state, seat)
        return any(k in available for k in self._kinds())

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
    # `list(view)` would count the view first (`len`), enumerating everything twice
    return list(iter(LegalActions(state, seat, kind)))


def iter_legal_actions(state: State, seat: int, kind: str) -> Iterator[Action]:
    """The legal actions of one kind for `seat`, lazily, in the order of `legal_actions`."""
    return _GENERATORS[kind](state, seat)


def may_act(state: State, seat: int) -> bool:
    """Whether `seat` is one of the seats to act now (its turn, or still drafting)."""
    return seat in steps.seats_to_act(state)


def legal_kinds(state: State, seat: int) -> list[str]:
    """The kinds of action `seat` could take now, in `KINDS` order."""
    available = AvailableKinds(state, seat)
    return [k for k in KINDS if k in available]


def kind_available(state: State, seat: int, kind: str) -> bool:
    """Whether `seat` has a legal action of `kind` now (`legal_actions` would list
    one), without listing any."""
    return kind in AvailableKinds(state, seat)


class AvailableKinds:
    """Which kinds of action `seat` may take in `state`, answered kind by kind (`kind in
    available`) and remembered: what the kinds share (the player's resources; whether
    a recruit or a dig is possible, which also decides whether the turn still owes
    one) is worked out once. A view of one decision: build a new one once the state
    has changed.

    `options(kind)` gives the legal actions of a kind in the order of `legal_actions`
    as a sequence that counts them and makes only the ones asked for (the ones worked
    out to answer `in` are kept for it), without asking the turn's steps again.
    """

    __slots__ = (
        "_counts",
        "_known",
        "_listed",
        "_placements",
        "_possible",
        "_turn_kinds",
        "seat",
        "state",
    )

    def __init__(self, state: State, seat: int) -> None:
        self.state = state
        self.seat = seat
        self._known: dict[str, bool] = {}
        self._possible: dict[str, bool] = {}
        self._listed: dict[str, Indexed[Action]] = {}
        self._counts: Counter[Resource] | None = None
        self._placements: tunnels.PayablePlacements | None = None
        self._turn_kinds: steps.TurnKinds | Literal[False] | None = False  # False: not yet

    def __contains__(self, kind: object) -> bool:
        if not isinstance(kind, str):
            return False
        known = self._known.get(kind)
        if known is None:
            if kind not in _POSSIBLE:
                raise KeyError(kind)
            known = self._known[kind] = self._allowed(kind) and self.possible(kind)
        return known

    def maybe(self) -> frozenset[str]:
        """The kinds the turn's steps may allow now (every kind outside a turn): a
        kind not among them is not available, and needs no asking."""
        kinds = self._turn_kinds
        if kinds is False:
            kinds = self._turn_kinds = steps.turn_kinds(self.state, self.seat)
        return _EVERY_KIND if kinds is None else kinds[0] | kinds[1]

    def _allowed(self, kind: str) -> bool:
        """`steps.allows`, from the kinds a turn's steps allow (`steps.turn_kinds`)."""
        kinds = self._turn_kinds
        if kinds is False:
            kinds = self._turn_kinds = steps.turn_kinds(self.state, self.seat)
        if kinds is None:
            return steps.allows(self.state, self.seat, kind, self.possible)
        sure, unless_due = kinds
        if kind in sure:
            return True
        return kind in unless_due and not steps.main_due(self.state, self.seat, self.possible)

    def possible(self, kind: str) -> bool:
        """Whether an action of `kind` is possible, the turn's steps aside (what
        `steps.main_due` asks of recruits and digs)."""
        can = self._possible.get(kind)
        if can is None:
            can = self._possible[kind] = _POSSIBLE[kind](self)
        return can

    def counts(self) -> Counter[Resource]:
        """What the player may spend (`owned_counts`), worked out once."""
        if self._counts is None:
            self._counts = owned_counts(self.state, self.seat)
        return self._counts

    def placements(self) -> tunnels.PayablePlacements:
        """The tunnel placements the player can pay for (the turn's steps aside),
        worked out once."""
        if self._placements is None:
            self._placements = tunnels.PayablePlacements(self.state, self.seat, self.counts())
        return self._placements

    def options(self, kind: str) -> Indexed[Action]:
        """The legal actions of `kind` (none if it is not available), in the order of
        `legal_actions`, as a sequence (`len`, `[k]`, iteration)."""
        if kind not in self:
            return ()
        return self.listing(kind)

    def listing(self, kind: str) -> Indexed[Action]:
        """The actions of `kind` the player could take if the turn's steps allowed it
        (`options` once they do), worked out once."""
        listed = self._listed.get(kind)
        if listed is None:
            listed = self._listed[kind] = _LISTINGS[kind](self)
        return listed

    def actions(self, kind: str) -> list[Action]:
        """The legal actions of `kind` (none if it is not available), in the order of
        `legal_actions`, as a list."""
        return list(self.options(kind))


# --- each kind: its legal actions (the turn's steps asked first), its options (the turn's
# --- steps aside) and whether one is possible (for `AvailableKinds`)


def keep_actions(state: State, seat: int) -> Iterator[Action]:
    if steps.allows(state, seat, "keep"):
        yield from _keep_options(state, seat)


def _keep_options(state: State, seat: int) -> Iterator[Action]:
    player = state.players[seat]
    for card in player.draft_hand:
        for slot in PYRAMID_ROWS[0]:
            if slot not in player.pyramid:
                yield Keep(card, slot)


def gate_actions(state: State, seat: int) -> Iterator[Action]:
    if steps.allows(state, seat, "gate"):
        yield from _gate_options(state, seat)


def _gate_options(state: State, seat: int) -> Iterator[Action]:
    for point in load_content().board(state.config.board_side).start_points:
        if engine.gate_refusal(state, seat, point.id) is None:
            yield PlaceGate(point.id)


def cast_actions(state: State, seat: int) -> Iterator[Action]:
    if steps.allows(state, seat, "cast"):
        yield from _cast_options(state, seat)


def _cast_options(state: State, seat: int) -> Iterator[Action]:
    counts = owned_counts(state, seat)
    if counts[RUNE] < 1:
        return
    for slot in state.spellbook:
        yield from cast_actions_for(state, seat, slot.spell, counts)


def _can_cast(kinds: AvailableKinds) -> bool:
    # with a rune every spell of the spellbook can be cast for nothing (`none`)
    return bool(kinds.state.spellbook) and kinds.counts()[RUNE] >= 1


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
    if counts[RUNE] < 1:
        return
    spell = spell_info(spell_id)
    for args in effect_rule(spell.effect).choices(state, seat, spell.effect, counts):
        yield Cast(spell.id, args)
    yield Cast(spell.id, (NONE,))


class CastOptions:
    """The legal casts of one spell (`cast_actions_for`, in its order: each choice of
    its effect, then `none`) as a sequence that makes only the casts asked for, for
    the effects that count their choices without making them (`EffectRule.options`)."""

    __slots__ = ("args", "spell")

    def __init__(self, spell: str, args: Indexed[tuple[str, ...]] | None) -> None:
        self.spell = spell
        self.args = args  # None: the spell cannot be cast

    def __len__(self) -> int:
        return 0 if self.args is None else len(self.args) + 1

    def __getitem__(self, k: int) -> Cast:
        if not 0 <= k < len(self):
            raise IndexError(k)
        assert self.args is not None
        return Cast(self.spell, self.args[k] if k < len(self.args) else (NONE,))

    def __iter__(self) -> Iterator[Cast]:
        for k in range(len(self)):
            yield self[k]


def cast_options(
    state: State, seat: int, spell_id: str, counts: dict[Resource, int] | None = None
) -> CastOptions:
    """The legal ways to cast one spell of the spellbook, as `CastOptions`."""
    if counts is None:
        counts = owned_counts(state, seat)
    if counts[RUNE] < 1:
        return CastOptions(spell_id, None)
    spell = spell_info(spell_id)
    return CastOptions(
        spell.id, effect_rule(spell.effect).options(state, seat, spell.effect, counts)
    )


def use_actions(state: State, seat: int) -> Iterator[Action]:
    if steps.allows(state, seat, "use"):
        yield from _use_options(state, seat)


def _use_options(
    state: State, seat: int, counts: Counter[Resource] | None = None
) -> Iterator[Action]:
    yield from workshops.UseOptions(state, seat, counts)


def trade_actions(state: State, seat: int) -> Iterator[Action]:
    if steps.allows(state, seat, "trade"):
        yield from _trade_options(state, seat)


def _trade_options(state: State, seat: int) -> Iterator[Action]:
    yield from trade_options(state, seat)


class TradeOptions:
    """The trades a purse can pay for, in the order of `trade_actions` (what they give
    in the order of `combinations_with_replacement` of `RESOURCES`, then what they
    get), as a sequence that makes only the trades asked for: `len` counts them and
    `options[k]` works out the k-th without the ones before it."""

    __slots__ = ("_gives",)

    def __init__(self, have: list[int], size: int) -> None:
        self._gives = Bundles(have, size)

    def __len__(self) -> int:
        return len(self._gives) * len(RESOURCES)

    def __getitem__(self, k: int) -> Trade:
        if not 0 <= k < len(self):
            raise IndexError(k)
        give, get = divmod(k, len(RESOURCES))
        return _all_trades()[self._gives[give]][get]

    def __iter__(self) -> Iterator[Trade]:
        trades = _all_trades()
        for give in self._gives:
            yield from trades[give]


def trade_options(state: State, seat: int, counts: Counter[Resource] | None = None) -> TradeOptions:
    """The trades the player can pay for (the turn's steps aside), in the order of
    `trade_actions`, as a `TradeOptions` sequence."""
    if counts is None:
        counts = owned_counts(state, seat)
    return TradeOptions([counts[r] for r in RESOURCES], load_content().pieces.trade_rate)


def _can_trade(kinds: AvailableKinds) -> bool:
    # any four resources make a trade
    return sum(kinds.counts().values()) >= load_content().pieces.trade_rate


@cache
def _all_trades() -> dict[tuple[int, ...], tuple[Trade, ...]]:
    """Every possible trade (built once), by what it gives (indices into `RESOURCES`)."""
    rate = load_content().pieces.trade_rate
    return {
        give: tuple(Trade(tuple(RESOURCES[i] for i in give), get) for get in RESOURCES)
        for give in combinations_with_replacement(range(len(RESOURCES)), rate)
    }


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


def dig_choices(
    state: State, seat: int, *, by_spell: bool = False, shape: str | None = None
) -> Iterator[DigChoice]:
    """Every placement `dig_actions` would list (those the player can pay for), in
    the same order, without enumerating pedestals and workshops. `by_spell`: the
    placements a dig spell may take (any time it may be cast: see `spell_casts`).
    `shape`: only the placements of that tile, the others not even made (what
    autocomplete asks once a dig's tile is typed)."""
    if not by_spell and not steps.allows(state, seat, "dig"):
        return
    counts = owned_counts(state, seat)
    if not tunnels.has_minerals_for_a_tunnel(state, seat, counts):
        return
    # the placements with an affordable mineral, made without the others
    payable: Iterable[tunnels.Placement]
    if shape is None:
        payable = tunnels.PayablePlacements(state, seat, counts)
    else:
        payable = _payable_of_shape(state, seat, counts, shape)
    for p in payable:
        minerals = tunnels.affordable(state, seat, p, counts)
        yield DigChoice(p, tuple(minerals), dig_hammers(state, p))


def _payable_of_shape(
    state: State, seat: int, counts: Counter[Resource], shape: str
) -> Iterator[tunnels.Placement]:
    """The placements of one tile among `tunnels.PayablePlacements`, in its order (that
    of `tunnels.payable_hits`), the other tiles' orientations skipped unmade."""
    g = geo(state)
    for tile, variant, offs, origins in tunnels.payable_hits(state, seat, counts):
        if tile == shape:
            for origin in bits(origins):
                yield tunnels.make_placement(g, tile, variant, offs, origin)


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
    if steps.allows(state, seat, "move"):
        yield from _move_options(state, seat)


def _move_options(state: State, seat: int) -> Iterator[Action]:
    yield from statues.MoveOptions(state, seat)


def end_actions(state: State, seat: int) -> Iterator[Action]:
    if steps.allows(state, seat, "end"):
        yield EndTurn()


Options = Callable[[State, int], Iterator[Action]]

_GENERATORS: dict[str, Options] = {
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

# every action of a kind the turn's steps would allow, as a sequence
_LISTINGS: dict[str, Callable[[AvailableKinds], Indexed[Action]]] = {
    "keep": lambda k: list(_keep_options(k.state, k.seat)),
    "gate": lambda k: list(_gate_options(k.state, k.seat)),
    "cast": lambda k: list(_cast_options(k.state, k.seat)),
    "use": lambda k: workshops.UseOptions(k.state, k.seat, k.counts()),
    "trade": lambda k: trade_options(k.state, k.seat, k.counts()),
    "recruit": lambda k: horde.recruit_options(k.state, k.seat, k.counts()),
    "dig": lambda k: Chained(
        [tunnels.dig_options_at(k.state, k.seat, p, k.counts()) for p in k.placements()]
    ),
    "hall": lambda k: halls.HallOptions(k.state, k.seat),
    "move": lambda k: statues.MoveOptions(k.state, k.seat),
    "end": lambda k: [EndTurn()],
}


def _listed(kind: str) -> Callable[[AvailableKinds], bool]:
    """Whether a kind is possible, from its listing (kept for `options`)."""
    return lambda k: bool(k.listing(kind))


def _can_recruit(k: AvailableKinds) -> bool:
    # from the recruits if they are listed, else stopping at the first: `steps.main_due`
    # asks often, and a recruit that is possible is not always the action taken
    listed = k._listed.get("recruit")
    return horde.can_recruit(k.state, k.seat, k.counts()) if listed is None else bool(listed)


def _can_dig(k: AvailableKinds) -> bool:
    # from the payable placements: finding the first costs about as much as all
    return bool(k.placements())


# whether a kind's listing would hold anything, answered without it where that is cheaper
_POSSIBLE: dict[str, Callable[[AvailableKinds], bool]] = {
    "keep": _listed("keep"),
    "gate": _listed("gate"),
    "cast": _can_cast,
    "use": _listed("use"),
    "trade": _can_trade,
    "recruit": _can_recruit,
    "dig": _can_dig,
    "hall": _listed("hall"),
    "move": _listed("move"),
    "end": lambda k: True,
}
