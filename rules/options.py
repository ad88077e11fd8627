"""What a player may put in each option of a turn command, with the facts a player
weighs beside each value (what a dig costs, scores and uncovers; the troll a recruit
takes and the bribes it leaves): autocomplete's half that knows the rules.

A command's options are named as the bot's commands name them (`/mk dig` has `tile`,
`cells`, `mineral`, `pedestal` and `workshop`). `Asking` is the question: a seat's
position, the kind of action the command plays and what was typed in its options so
far. Each source below answers it for one option with the values that complete to at
least one legal action: it looks at the legal actions of its command (a dig's
placements with what pays for them), keeps those that agree with what was typed in the
command's other options (`consistent`) and gives the values its option takes in them.
When nothing agrees because of an option further along the command (typed earlier,
then an earlier option changed), the options before this one decide alone, so the
player sees what they may switch to.

Values are notation, the same in every language; the facts are data (resources, clans,
numbers) for the bot to word in the reader's language.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import NamedTuple, Protocol, TypeVar

from rules import tunnels
from rules.actions import (
    Action,
    Cast,
    DedicateHall,
    Dig,
    MoveStatue,
    PlaceGate,
    Recruit,
    Trade,
    UseWorkshop,
    format_bundle,
    format_cells,
)
from rules.content import DigEffect, load_content
from rules.horde import bribed_slots
from rules.legal import (
    KINDS,
    DigChoice,
    dig_choices,
    dig_finds,
    dig_pedestals,
    dig_workshops,
    iter_legal_actions,
    legal_actions,
    spell_casts,
)
from rules.mountain import geo
from rules.pyramid import horde_position
from rules.resources import MINERALS, NAME, Clan, Resource, symbol_name
from rules.spells import NONE
from rules.state import State


@dataclass(frozen=True, eq=False)
class Asking:
    """A seat asking what it may put in an option of a command: its position, the kind
    of action the command plays (None: any) and what was typed in the command's
    options (option name -> text; an option left empty may be missing)."""

    state: State
    seat: int
    kind: str | None
    options: Mapping[str, str] = field(default_factory=dict)
    # what is typed in the option being completed
    current: str = ""
    # the seat's digs at this very position, if the caller kept them from an earlier
    # question (autocomplete asks again at each key typed)
    known: Digs | None = None

    @cached_property
    def actions(self) -> list[Action]:
        """The seat's legal actions of the command's kind (all kinds for None)."""
        return legal_actions(self.state, self.seat, self.kind)

    @cached_property
    def digs(self) -> Sequence[DigChoice]:
        """The placements the seat may dig now and pay for."""
        if self.known is not None:
            return self.known.every
        return list(dig_choices(self.state, self.seat))

    def digs_of(self, shape: str | None) -> Iterable[DigChoice]:
        """`digs`, or only those of one tile (the others not made)."""
        if self.known is not None:
            return self.known.of(shape)
        if shape is None:
            return self.digs
        return dig_choices(self.state, self.seat, shape=shape)

    def dig_stream(self) -> Iterable[DigChoice]:
        """`digs`, made as they are taken (none made twice) unless they are known."""
        if self.known is not None:
            return self.known.every
        return dig_choices(self.state, self.seat)

    def typed(self, option: str) -> str | None:
        """What was typed in an option of the command (None if nothing)."""
        value = self.options.get(option)
        if value is None or not value.strip():
            return None
        return value


class Digs:
    """The placements a seat may dig at one position (`dig_choices`, in its order),
    every one and by tile, for a caller that asks again at the same position (it must
    never hand them to an `Asking` of another position or seat)."""

    __slots__ = ("_by_shape", "every")

    def __init__(self, choices: Iterable[DigChoice]) -> None:
        self.every = tuple(choices)
        by_shape: dict[str, list[DigChoice]] = {}
        for c in self.every:
            by_shape.setdefault(c.placement.shape, []).append(c)
        self._by_shape = {shape: tuple(of) for shape, of in by_shape.items()}

    @classmethod
    def at(cls, state: State, seat: int) -> Digs:
        """The seat's digs now."""
        return cls(dig_choices(state, seat))

    def of(self, shape: str | None) -> tuple[DigChoice, ...]:
        """Every one, or those of one tile."""
        return self.every if shape is None else self._by_shape.get(shape, ())


# --- agreeing with the other options ---------------------------------------------------


class Candidate(Protocol):
    """A legal action (or a family of them) as its command's options see it."""

    def has(self, option: str, value: str) -> bool:
        """Whether `value` in `option` is one of this candidate's."""
        ...


C = TypeVar("C", bound=Candidate)


class Row:
    """One legal action: the value of each option of its command (None for an optional
    option it leaves out)."""

    def __init__(self, **values: str | None) -> None:
        self.values = values

    def __getitem__(self, option: str) -> str | None:
        return self.values[option]

    def has(self, option: str, value: str) -> bool:
        return self.values.get(option) == value


def consistent(
    asking: Asking, option: str, options: Sequence[str], candidates: Iterable[C]
) -> list[C]:
    """The candidates that agree with what was typed in the command's other options;
    if none does and an option after `option` was typed, those that agree with the
    options before it."""
    rows = list(candidates)
    at = options.index(option)
    typed = {o: asking.typed(o) for o in options if o != option}

    def agree(row: C, names: Iterable[str]) -> bool:
        for name in names:
            value = typed[name]
            if value is not None and not row.has(name, value):
                return False
        return True

    strict = [r for r in rows if agree(r, typed)]
    if strict or all(typed[o] is None for o in options[at + 1 :]):
        return strict
    return [r for r in rows if agree(r, options[:at])]


def _values(rows: Iterable[Row], option: str) -> list[str]:
    """The distinct values of an option among rows, sorted (left-out options skipped)."""
    return sorted({v for r in rows if (v := r[option]) is not None})


# --- any action ------------------------------------------------------------------------


def any_action(asking: Asking) -> Iterator[Action | DigOffer]:
    """Legal actions, one of each kind in turn (only one kind when its verb is typed
    in full as `current`'s first word), lazily: the caller stops when it has enough.
    Digs come as `dig_offers` gives them, each placement with each mineral before any
    pedestal or workshop."""
    words = asking.current.lower().split()
    kinds = [k for k in KINDS if words and k == words[0]] or list(KINDS)
    streams = [_kind_stream(asking, k) for k in kinds]
    while streams:
        for stream in list(streams):
            item = next(stream, None)
            if item is None:
                streams.remove(stream)
                continue
            yield item


def _kind_stream(asking: Asking, kind: str) -> Iterator[Action | DigOffer]:
    if kind == "dig":
        # lazily: the caller takes a few of thousands
        choices = asking.dig_stream()
        yield from dig_offers(DigPlace(asking.state, asking.seat, c) for c in choices)
        return
    yield from iter_legal_actions(asking.state, asking.seat, kind)


# --- gates -----------------------------------------------------------------------------


class StartOffer(NamedTuple):
    """A start point a gate may be placed on, and the cell it stands for."""

    point: str
    cell: str | None  # None: the board names no such point


def start_points(asking: Asking) -> Iterator[StartOffer]:
    side = load_content().board(asking.state.config.board_side)
    cells = {p.id: p.cell for p in side.start_points}
    for a in asking.actions:
        if isinstance(a, PlaceGate):
            yield StartOffer(a.point, cells.get(a.point))


# --- recruiting ------------------------------------------------------------------------

RECRUIT = ("troll", "slot", "pedestal")


class TrollFacts(NamedTuple):
    """A troll card as a recruit shows it: its level, clan and the symbols it makes
    (`rules.resources.symbol_name`: "coin", "fire-cart")."""

    card: str
    level: int
    clan: Clan
    makes: tuple[str, ...]


class HordeOffer(NamedTuple):
    """A horde slot that may be recruited from: its troll (None if no card lies there)
    and the bribes recruiting it leaves on the slots it passes."""

    slot: str
    troll: TrollFacts | None
    bribes: int


def _recruits(asking: Asking, option: str) -> list[Row]:
    rows = (
        Row(troll=a.horde, slot=a.slot, pedestal=None if a.pedestal is None else a.pedestal.value)
        for a in asking.actions
        if isinstance(a, Recruit)
    )
    return consistent(asking, option, RECRUIT, rows)


def horde_slots(asking: Asking) -> Iterator[HordeOffer]:
    for slot in _values(_recruits(asking, "troll"), "troll"):
        yield horde_offer(asking.state, slot)


def horde_offer(state: State, slot: str) -> HordeOffer:
    """The troll on a horde slot and the bribes recruiting it leaves."""
    row, j = horde_position(slot)
    card_id = state.horde[row][j].card
    if card_id is None:
        return HordeOffer(slot, None, 0)
    card = load_content().trolls[card_id]
    makes = tuple(symbol_name(r, c) for r, c in card.produce)
    troll = TrollFacts(card_id, card.level, card.clan, makes)
    bribes = len(bribed_slots(state, slot, state.turn_flags()))
    return HordeOffer(slot, troll, bribes)


def pyramid_slots(asking: Asking) -> list[str]:
    return _values(_recruits(asking, "slot"), "slot")


def recruit_pedestals(asking: Asking) -> list[Clan]:
    return [Clan(c) for c in _values(_recruits(asking, "pedestal"), "pedestal")]


# --- digging ---------------------------------------------------------------------------

DIG = ("tile", "cells", "mineral", "pedestal", "workshop")


class Paying(NamedTuple):
    """One way to pay for a dig: the mineral, how many of it, and the honor the tunnel
    scores paid with it."""

    mineral: Resource
    amount: int
    honor: int


@dataclass(frozen=True, slots=True)
class DigCost:
    """What a dig at one placement costs and scores with each mineral considered, and
    what it uncovers."""

    paying: tuple[Paying, ...]
    hammers: int  # on top of the mineral, for the rubble it covers
    finds: tuple[Resource, ...]  # the buried resources it uncovers, in reading order


class WorkshopOffer(NamedTuple):
    """A workshop a dig may establish on an empty site next to its tunnel."""

    site: str
    workshop: str

    @property
    def value(self) -> str:
        return f"{self.site}={self.workshop}"


class DigPlace:
    """A placement the seat can pay for, as `/mk dig`'s options see it: any of its
    minerals, with or without any of its pedestals and any one of its workshops."""

    def __init__(self, state: State, seat: int, choice: DigChoice) -> None:
        self.state = state
        self.seat = seat
        self.choice = choice
        self.placement = choice.placement

    @cached_property
    def cells(self) -> str:
        return format_cells(self.placement.cells, self.placement.anchor)

    @cached_property
    def pedestals(self) -> tuple[Clan, ...]:
        return dig_pedestals(self.state, self.seat, self.placement)

    @cached_property
    def workshops(self) -> tuple[WorkshopOffer, ...]:
        return tuple(WorkshopOffer(s, w) for s, w in dig_workshops(self.state, self.placement))

    @cached_property
    def finds(self) -> tuple[Resource, ...]:
        return tuple(dig_finds(self.state, self.placement))

    def has(self, option: str, value: str) -> bool:
        if option == "tile":
            return self.placement.shape == value
        if option == "cells":
            return self.cells == value
        if option == "mineral":
            return any(m.value == value for m in self.choice.minerals)
        if option == "pedestal":
            return any(c.value == value for c in self.pedestals)
        return any(w.value == value for w in self.workshops)

    def minerals(self, typed: str | None) -> tuple[Resource, ...]:
        """Its minerals; only the typed one if it is among them."""
        chosen = tuple(m for m in self.choice.minerals if m.value == typed)
        return chosen or self.choice.minerals

    def honor(self, mineral: Resource) -> int:
        """The honor its tunnel scores paid with `mineral`."""
        return tunnels.tunnel_score(self.state, self.placement.size, mineral)

    def cost(self, minerals: Sequence[Resource]) -> DigCost:
        """What digging here costs and scores with each of `minerals`."""
        size = self.placement.size
        paying = tuple(Paying(m, size, self.honor(m)) for m in minerals)
        return DigCost(paying, self.choice.hammers, self.finds)


def dig_places(asking: Asking, option: str) -> list[DigPlace]:
    """The placements that agree with what was typed in `/mk dig`'s other options."""
    # `consistent` keeps only placements of the typed tile, for every option after the
    # tile, and of the typed cells for every option after the cells (agreeing with all
    # the others or only with those before): the others are not even made
    at = DIG.index(option)
    shape = asking.typed("tile") if at > DIG.index("tile") else None
    cells = asking.typed("cells") if at > DIG.index("cells") else None
    places: Iterable[DigPlace] = (
        DigPlace(asking.state, asking.seat, c) for c in asking.digs_of(shape)
    )
    if cells is not None:
        places = (p for p in places if p.cells == cells)
    return consistent(asking, option, DIG, places)


class TileOffer(NamedTuple):
    """A tile shape that may be dug: its size, the minerals that pay for it (only the
    typed one if it does) and at how many placements."""

    shape: str
    size: int
    minerals: tuple[Resource, ...]
    placements: int


def tile_shapes(asking: Asking) -> Iterator[TileOffer]:
    typed = asking.typed("mineral")
    places: dict[str, int] = {}
    pays: dict[str, set[Resource]] = {}
    sizes: dict[str, int] = {}
    for place in dig_places(asking, "tile"):
        shape = place.placement.shape
        places[shape] = places.get(shape, 0) + 1
        pays.setdefault(shape, set()).update(place.minerals(typed))
        sizes[shape] = place.placement.size
    for shape, count in places.items():
        minerals = tuple(r for r in MINERALS if r in pays[shape])
        yield TileOffer(shape, sizes[shape], minerals, count)


class CellsOffer(NamedTuple):
    """A placement's cells (its anchor marked), its shape and what it costs with the
    minerals that may pay (only the typed one if it does)."""

    cells: str
    shape: str
    cost: DigCost


def tile_cells(asking: Asking) -> Iterator[CellsOffer]:
    typed = asking.typed("mineral")
    for place in dig_places(asking, "cells"):
        cost = place.cost(place.minerals(typed))
        yield CellsOffer(place.cells, place.placement.shape, cost)


class MineralOffer(NamedTuple):
    """A mineral that pays for a dig; its cost when one placement is left."""

    mineral: Resource
    cost: DigCost | None


def dig_minerals(asking: Asking) -> Iterator[MineralOffer]:
    places = dig_places(asking, "mineral")
    for mineral in MINERALS:
        if not any(mineral in p.choice.minerals for p in places):
            continue
        cost = places[0].cost((mineral,)) if len(places) == 1 else None
        yield MineralOffer(mineral, cost)


class PedestalOffer(NamedTuple):
    """A pedestal a dig may put on its anchor; the anchor and its tier (1 outside to 5)
    when one placement is left."""

    clan: Clan
    anchor: str | None
    tier: int | None


def dig_pedestals_offered(asking: Asking) -> Iterator[PedestalOffer]:
    places = dig_places(asking, "pedestal")
    clans = sorted({c for p in places for c in p.pedestals})
    anchor = places[0].placement.anchor if len(places) == 1 else None
    tier = None if anchor is None else geo(asking.state).tier(anchor)
    for clan in clans:
        yield PedestalOffer(clan, anchor, tier)


def workshops_to_establish(asking: Asking) -> list[WorkshopOffer]:
    found = {w for p in dig_places(asking, "workshop") for w in p.workshops}
    return sorted(found, key=lambda w: w.value)


class DigOffer(NamedTuple):
    """One legal dig: a placement with one of its minerals and at most one pedestal or
    one workshop."""

    place: DigPlace
    mineral: Resource
    pedestal: Clan | None = None
    workshop: WorkshopOffer | None = None

    @property
    def action(self) -> Dig:
        p = self.place.placement
        workshops = () if self.workshop is None else (self.workshop,)
        return Dig(p.shape, p.cells, p.anchor, self.mineral, self.pedestal, workshops)

    @property
    def words(self) -> str:
        """The dig in notation without its verb, as a dig spell's choice: `str(action)`
        without `dig `, put together from what the placement already wrote (autocomplete
        writes thousands)."""
        out = [self.place.placement.shape, self.place.cells, NAME[self.mineral]]
        if self.pedestal is not None:
            out += ["pedestal", self.pedestal.value]
        if self.workshop is not None:
            out += ["workshop", self.workshop.value]
        return " ".join(out)

    @property
    def notation(self) -> str:
        """The dig in notation: `str(action)`."""
        return "dig " + self.words

    @property
    def honor(self) -> int:
        return self.place.honor(self.mineral)

    def cost(self) -> DigCost:
        return self.place.cost((self.mineral,))


def dig_offers(places: Iterable[DigPlace]) -> Iterator[DigOffer]:
    """Legal digs, the plainest first: each placement with each mineral, then with each
    pedestal, then establishing each one workshop. The placements are taken as the
    plain digs reach them (a caller that wants a few digs makes a few placements)."""
    taken: list[DigPlace] = []
    for place in places:
        taken.append(place)
        for m in place.choice.minerals:
            yield DigOffer(place, m)
    for place in taken:
        for m in place.choice.minerals:
            for clan in place.pedestals:
                yield DigOffer(place, m, pedestal=clan)
    for place in taken:
        for m in place.choice.minerals:
            for workshop in place.workshops:
                yield DigOffer(place, m, workshop=workshop)


# --- spells ----------------------------------------------------------------------------

CAST = ("spell", "choice")


class SpellRow:
    """A spell of the spellbook and its legal casts now (found lazily: a dig spell has
    thousands)."""

    def __init__(self, state: State, seat: int, spell: str) -> None:
        self.state = state
        self.seat = seat
        self.spell = spell

    def casts(self) -> Iterator[Cast]:
        for a in spell_casts(self.state, self.seat, self.spell):
            assert isinstance(a, Cast)
            yield a

    def has(self, option: str, value: str) -> bool:
        if option == "spell":
            return self.spell == value
        return any(" ".join(a.args) == value for a in self.casts())


def spells(asking: Asking) -> Iterator[str]:
    """The spells of the spellbook the seat may cast now."""
    ids = dict.fromkeys(s.spell for s in asking.state.spellbook)
    rows = [SpellRow(asking.state, asking.seat, s) for s in ids]
    for row in consistent(asking, "spell", CAST, rows):
        if next(row.casts(), None) is not None:
            yield row.spell


class CastChoice(NamedTuple):
    """A choice of the typed spell: its words; for a dig spell, the dig (None for its
    `none`, cast for the rune only)."""

    value: str
    dig: DigOffer | None = None
    dig_spell: bool = False


def spell_choices(asking: Asking) -> Iterator[CastChoice]:
    """The typed spell's choices; for a dig spell, its digs as `dig_offers` gives them,
    then `none`."""
    spell = asking.typed("spell")
    if spell is None:
        return
    casts = SpellRow(asking.state, asking.seat, spell).casts()
    if is_dig_spell(spell):
        if next(casts, None) is None:
            return
        state = asking.state
        choices = dig_choices(state, asking.seat, by_spell=True)
        for dig in dig_offers(DigPlace(state, asking.seat, c) for c in choices):
            yield CastChoice(dig.words, dig, dig_spell=True)
        yield CastChoice(NONE, None, dig_spell=True)
        return
    for a in casts:
        if a.args:
            yield CastChoice(" ".join(a.args))


def is_dig_spell(spell: str) -> bool:
    """Whether a spell digs a tunnel (unknown spells do not)."""
    try:
        return isinstance(load_content().spell(spell).effect, DigEffect)
    except KeyError:
        return False


# --- workshops, trades, halls, statues -------------------------------------------------

USE = ("site", "conversion")


class SiteOffer(NamedTuple):
    """A workshop site that may be used, and the workshop on it."""

    site: str
    workshop: str


def _uses(asking: Asking, option: str) -> list[Row]:
    rows = (
        # `/mk use` puts the site back in front of the conversion
        Row(site=a.site, conversion=str(a).removeprefix(f"use {a.site} "))
        for a in asking.actions
        if isinstance(a, UseWorkshop)
    )
    return consistent(asking, option, USE, rows)


def workshop_sites(asking: Asking) -> Iterator[SiteOffer]:
    workshops = asking.state.board.workshops
    for site in _values(_uses(asking, "site"), "site"):
        yield SiteOffer(site, workshops[site])


def conversions(asking: Asking) -> Iterator[str]:
    for row in _uses(asking, "conversion"):
        text = row["conversion"]
        assert text is not None
        yield text


TRADE = ("give", "get")


def trade_gives(asking: Asking) -> Iterator[str]:
    rows = (
        Row(give=_bundle_text(a.give), get=a.get.value)
        for a in asking.actions
        if isinstance(a, Trade)
    )
    gives = dict.fromkeys(r["give"] for r in consistent(asking, "give", TRADE, rows))
    return (g for g in gives if g is not None)


@lru_cache(maxsize=4096)
def _bundle_text(give: tuple[Resource, ...]) -> str:
    """`format_bundle`, written once for each of the few hundred bundles a trade may
    give (the trades' listing repeats each for every resource it may get)."""
    return format_bundle(give)


HALL = ("hall", "cells")


def _halls(asking: Asking, option: str) -> list[Row]:
    rows = (
        Row(hall=a.hall, cells=format_cells(a.cells, a.altar))
        for a in asking.actions
        if isinstance(a, DedicateHall)
    )
    return consistent(asking, option, HALL, rows)


def halls(asking: Asking) -> list[str]:
    return _values(_halls(asking, "hall"), "hall")


def hall_cells(asking: Asking) -> Iterator[str]:
    for row in _halls(asking, "cells"):
        text = row["cells"]
        assert text is not None
        yield text


MOVE = ("statue", "to")


class StatueOffer(NamedTuple):
    """A cell a statue may be moved from, and the clan of the statue there (None if
    the board shows none)."""

    cell: str
    clan: Clan | None


def _moves(asking: Asking, option: str) -> list[Row]:
    rows = (Row(statue=a.origin, to=a.target) for a in asking.actions if isinstance(a, MoveStatue))
    return consistent(asking, option, MOVE, rows)


def statues(asking: Asking) -> Iterator[StatueOffer]:
    on_board = asking.state.board.statues
    for cell in _values(_moves(asking, "statue"), "statue"):
        clan = on_board.get(cell)
        yield StatueOffer(cell, None if clan is None else Clan(clan))


def statue_targets(asking: Asking) -> list[str]:
    return _values(_moves(asking, "to"), "to")
