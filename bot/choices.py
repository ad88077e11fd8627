"""What a player may type in each option of a turn command, and what autocomplete
offers there.

One transformer, `Legal`, serves every option: it is made with the kind of action the
option belongs to and a source that turns the asking player's position (and what they
typed in the other options) into (value, label) pairs. Autocomplete offers at most 25
of them, filtered by what was typed, and nothing to a user without a seat or whose turn
it is not. Whatever is typed reaches the command unchanged: the engine validates it and
refuses with a sentence.

Every value offered completes to at least one legal action: each source looks at the
legal actions of its command (a dig's placements with what pays for them), keeps those
that agree with what was typed in the command's other options, and offers the values
its option takes in them. When nothing agrees because of an option further along the
command (typed earlier, then an earlier option changed), the options before this one
decide alone, so the player sees what they may switch to.

The values are notation (what the command takes, in every language); the labels beside
them are in the reader's language (`Asking.messages`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import islice
from typing import Protocol, TypeVar

import discord
from discord import app_commands

from bot.client import MountainBot, reader
from bot.i18n.catalogue import ENGLISH, Messages
from bot.service import ServiceError
from bot.texts import called_in
from bot.words import (
    amount,
    clan_of,
    colour_name,
    either_in,
    hall_name,
    listed_in,
    resource_name,
    spell_name,
    symbol_name,
    tier_name,
    workshop_name,
)
from rules import tunnels
from rules.actions import (
    Action,
    Cast,
    DedicateHall,
    MoveStatue,
    PlaceGate,
    Recruit,
    Trade,
    UseWorkshop,
    format_bundle,
    format_cells,
)
from rules.content import DigEffect, load_content
from rules.errors import RulesError
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
    may_act,
    spell_casts,
)
from rules.mountain import geo
from rules.pyramid import horde_position
from rules.resources import MINERALS, Clan, Resource
from rules.resources import symbol_name as symbol
from rules.shapes import tunnel_size
from rules.spells import NONE
from rules.state import State

MAX_CHOICES = 25
MAX_TEXT = 100  # Discord's limit on a choice's name and on its value
# At most this many candidates are looked at for one answer: a rich position has some
# 20,000 legal digs, and what was typed may match none of them.
MAX_SCAN = 3000
Choice = app_commands.Choice[int | float | str]


@dataclass
class Asking:
    """The position of the player asking for choices, the options typed so far and
    what is typed in the option being completed."""

    state: State
    seat: int
    kind: str | None
    namespace: app_commands.Namespace
    current: str = ""
    # the reader's language, for the labels
    messages: Messages = ENGLISH

    @cached_property
    def actions(self) -> list[Action]:
        """The seat's legal actions of the option's kind (all kinds for None)."""
        return legal_actions(self.state, self.seat, self.kind)

    @cached_property
    def digs(self) -> list[DigChoice]:
        """The placements the seat may dig now and pay for."""
        return list(dig_choices(self.state, self.seat))

    def typed(self, option: str) -> str | None:
        """What was typed in another option of the command (None if nothing)."""
        value = getattr(self.namespace, option, None)
        if value is None or not str(value).strip():
            return None
        return str(value)


Source = Callable[[Asking], Iterable[tuple[str, str]]]


class Legal(app_commands.Transformer[MountainBot]):
    """A text option whose autocomplete offers what `source` finds legal."""

    def __init__(self, kind: str | None, source: Source) -> None:
        self.kind = kind
        self.source = source

    async def transform(self, interaction: discord.Interaction[MountainBot], value: str, /) -> str:
        return value  # the engine validates what was typed

    async def autocomplete(
        self, interaction: discord.Interaction[MountainBot], value: int | float | str, /
    ) -> list[Choice]:
        try:
            _, state, seat = await interaction.client.seated(interaction)
        except (ServiceError, RulesError):
            return []
        if not may_act(state, seat):
            return []
        asking = Asking(
            state, seat, self.kind, interaction.namespace, str(value), reader(interaction)
        )
        return offer(self.source(asking), str(value))


def offer(pairs: Iterable[tuple[str, str]], current: str) -> list[Choice]:
    """At most 25 choices whose value or label contains what was typed, among the
    first `MAX_SCAN` pairs. A value longer than Discord allows is left out (cut, it
    would be another action); a long label is shortened."""
    needle = current.lower().strip()
    out: list[Choice] = []
    seen: set[str] = set()
    for value, label in islice(pairs, MAX_SCAN):
        if (
            value in seen
            or len(value) > MAX_TEXT
            or (needle and needle not in value.lower() and needle not in label.lower())
        ):
            continue
        seen.add(value)
        out.append(app_commands.Choice(name=_shorten(label), value=value))
        if len(out) == MAX_CHOICES:
            break
    return out


def _shorten(label: str) -> str:
    return label if len(label) <= MAX_TEXT else label[: MAX_TEXT - 1] + "…"


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


# --- sources ---------------------------------------------------------------------------


def any_action(asking: Asking) -> Iterator[tuple[str, str]]:
    """Legal actions, one of each kind in turn (only one kind when its verb is typed
    in full), produced lazily: `offer` stops after 25 that match. Digs come as
    `/mk dig` offers them, each placement with each mineral before any pedestal or
    workshop (the many combinations of those are left to `/mk dig`)."""
    words = asking.current.lower().split()
    kinds = [k for k in KINDS if words and k == words[0]] or list(KINDS)
    streams = [_kind_stream(asking, k) for k in kinds]
    while streams:
        for stream in list(streams):
            pair = next(stream, None)
            if pair is None:
                streams.remove(stream)
                continue
            yield pair


def _kind_stream(asking: Asking, kind: str) -> Iterator[tuple[str, str]]:
    if kind == "dig":
        rows = [DigRow(asking.state, asking.seat, c) for c in asking.digs]
        for words, row, mineral in dig_words(rows):
            honor = _honor(asking.state, row, mineral, asking.messages)
            yield f"dig {words}", f"dig {words} · {honor}"
        return
    for action in iter_legal_actions(asking.state, asking.seat, kind):
        text = str(action)
        yield text, text


def start_points(asking: Asking) -> Iterable[tuple[str, str]]:
    side = load_content().board(asking.state.config.board_side)
    cells = {p.id: p.cell for p in side.start_points}
    for a in asking.actions:
        if isinstance(a, PlaceGate):
            yield a.point, f"{a.point} ({cells.get(a.point, '?')})"


RECRUIT = ("troll", "slot", "pedestal")


def _recruits(asking: Asking, option: str) -> list[Row]:
    rows = (
        Row(troll=a.horde, slot=a.slot, pedestal=None if a.pedestal is None else a.pedestal.value)
        for a in asking.actions
        if isinstance(a, Recruit)
    )
    return consistent(asking, option, RECRUIT, rows)


def horde_slots(asking: Asking) -> Iterable[tuple[str, str]]:
    slots = _values(_recruits(asking, "troll"), "troll")
    return ((s, _horde_label(asking.state, s, asking.messages)) for s in slots)


def pyramid_slots(asking: Asking) -> Iterable[tuple[str, str]]:
    return ((s, s) for s in _values(_recruits(asking, "slot"), "slot"))


def recruit_pedestals(asking: Asking) -> Iterable[tuple[str, str]]:
    clans = _values(_recruits(asking, "pedestal"), "pedestal")
    return ((c, _pedestal(c, asking.messages)) for c in clans)


def _pedestal(clan: str, m: Messages) -> str:
    # TRANSLATORS: a pedestal of a clan, offered by autocomplete
    return m.gettext("{clan} pedestal", clan=clan_of(Clan(clan), m))


# --- digging -------------------------------------------------------------------------

DIG = ("tile", "cells", "mineral", "pedestal", "workshop")


class DigRow:
    """A placement the player can pay for, as `/mk dig`'s options see it: any of its
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
    def pedestals(self) -> tuple[str, ...]:
        return tuple(c.value for c in dig_pedestals(self.state, self.seat, self.placement))

    @cached_property
    def workshops(self) -> tuple[str, ...]:
        return tuple(f"{s}={w}" for s, w in dig_workshops(self.state, self.placement))

    def has(self, option: str, value: str) -> bool:
        if option == "tile":
            return self.placement.shape == value
        if option == "cells":
            return self.cells == value
        if option == "mineral":
            return any(m.value == value for m in self.choice.minerals)
        if option == "pedestal":
            return value in self.pedestals
        return value in self.workshops

    def minerals(self, typed: str | None) -> tuple[Resource, ...]:
        """Its minerals; only the typed one if it is among them."""
        chosen = tuple(m for m in self.choice.minerals if m.value == typed)
        return chosen or self.choice.minerals


def _digs(asking: Asking, option: str) -> list[DigRow]:
    rows = (DigRow(asking.state, asking.seat, c) for c in asking.digs)
    return consistent(asking, option, DIG, rows)


def tile_shapes(asking: Asking) -> Iterable[tuple[str, str]]:
    typed = asking.typed("mineral")
    places: dict[str, int] = {}
    pays: dict[str, set[Resource]] = {}
    for row in _digs(asking, "tile"):
        shape = row.placement.shape
        places[shape] = places.get(shape, 0) + 1
        pays.setdefault(shape, set()).update(row.minerals(typed))
    m = asking.messages
    for shape, count in places.items():
        minerals = [r for r in MINERALS if r in pays[shape]]
        size = tunnel_size(shape)
        parts = [
            shape,
            m.ngettext("{count} cell", "{count} cells", size, count=size),
            m.gettext(
                "pay with {minerals}",
                minerals=either_in([resource_name(r, m) for r in minerals], m),
            ),
            m.ngettext("{count} placement", "{count} placements", count, count=count),
        ]
        yield shape, " · ".join(parts)


def tile_cells(asking: Asking) -> Iterable[tuple[str, str]]:
    typed = asking.typed("mineral")
    shape_known = asking.typed("tile") is not None
    for row in _digs(asking, "cells"):
        cost = dig_cost(asking.state, row, row.minerals(typed), asking.messages)
        label = f"{row.cells} · {cost}"
        yield row.cells, label if shape_known else f"{row.placement.shape} {label}"


def dig_minerals(asking: Asking) -> Iterable[tuple[str, str]]:
    rows = _digs(asking, "mineral")
    for mineral in MINERALS:
        payers = [r for r in rows if mineral in r.choice.minerals]
        if not payers:
            continue
        label = resource_name(mineral, asking.messages)
        if len(rows) == 1:
            label += " · " + dig_cost(asking.state, rows[0], (mineral,), asking.messages)
        yield mineral.value, label


def dig_pedestals_offered(asking: Asking) -> Iterable[tuple[str, str]]:
    rows = _digs(asking, "pedestal")
    clans = {c for r in rows for c in r.pedestals}
    m = asking.messages
    for clan in sorted(clans):
        label = _pedestal(clan, m)
        anchor = rows[0].placement.anchor if len(rows) == 1 else None
        if anchor is not None:
            tier = tier_name(geo(asking.state).tier(anchor), m)
            label = m.gettext(
                "{pedestal} on the anchor {anchor}, on the {tier} tier",
                pedestal=label,
                anchor=anchor,
                tier=tier,
            )
        yield clan, label


def workshops_to_establish(asking: Asking) -> Iterable[tuple[str, str]]:
    pairs = sorted({w for r in _digs(asking, "workshop") for w in r.workshops})
    for pair in pairs:
        site, _, workshop = pair.partition("=")
        yield pair, f"{site} = {workshop_name(workshop, asking.messages)}"


def dig_words(rows: Sequence[DigRow]) -> Iterator[tuple[str, DigRow, Resource]]:
    """Legal digs in notation (without `dig`), the plainest first: each placement with
    each mineral, then with each pedestal, then establishing each one workshop."""
    for row in rows:
        for m in row.choice.minerals:
            yield f"{row.placement.shape} {row.cells} {m.value}", row, m
    for row in rows:
        for m in row.choice.minerals:
            for clan in row.pedestals:
                yield f"{row.placement.shape} {row.cells} {m.value} pedestal {clan}", row, m
    for row in rows:
        for m in row.choice.minerals:
            for workshop in row.workshops:
                yield f"{row.placement.shape} {row.cells} {m.value} workshop {workshop}", row, m


def _honor(state: State, row: DigRow, mineral: Resource, m: Messages = ENGLISH) -> str:
    honor = tunnels.tunnel_score(state, row.placement.size, mineral)
    return m.ngettext("+{count} honor", "+{count} honor", honor, count=honor)


def dig_cost(state: State, row: DigRow, minerals: Sequence[Resource], m: Messages = ENGLISH) -> str:
    """What a dig costs and scores with each of `minerals`, and what it uncovers:
    `3 stone or 3 iron, 1 hammer · +4 or +6 honor · finds coin`."""
    p = row.placement
    cost = either_in([amount(r, p.size, m) for r in minerals], m)
    hammers = row.choice.hammers
    if hammers:
        cost += ", " + amount(Resource.HAMMER, hammers, m)
    scores = [tunnels.tunnel_score(state, p.size, r) for r in minerals]
    honor = m.ngettext(
        "{values} honor",
        "{values} honor",
        scores[-1],
        values=either_in([f"+{n}" for n in scores], m),
    )
    parts = [cost, honor]
    finds = dig_finds(state, p)
    if finds:
        found = listed_in([resource_name(r, m) for r in finds], m)
        parts.append(m.gettext("finds {resources}", resources=found))
    return " · ".join(parts)


# --- spells, workshops, trades, halls, statues ----------------------------------------

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


def spells(asking: Asking) -> Iterable[tuple[str, str]]:
    ids = dict.fromkeys(s.spell for s in asking.state.spellbook)
    rows = [SpellRow(asking.state, asking.seat, s) for s in ids]
    for row in consistent(asking, "spell", CAST, rows):
        if next(row.casts(), None) is not None:
            yield row.spell, spell_name(row.spell, asking.messages)


def spell_choices(asking: Asking) -> Iterator[tuple[str, str]]:
    """The typed spell's choices; for a dig spell, its digs as `/mk dig` offers them
    (with what each costs and scores), then `none`."""
    spell = asking.typed("spell")
    if spell is None:
        return
    casts = SpellRow(asking.state, asking.seat, spell).casts()
    if _is_dig_spell(spell):
        if next(casts, None) is None:
            return
        state = asking.state
        choices = dig_choices(state, asking.seat, by_spell=True)
        rows = [DigRow(state, asking.seat, c) for c in choices]
        for words, row, mineral in dig_words(rows):
            yield words, f"{words} · {dig_cost(state, row, (mineral,), asking.messages)}"
        yield NONE, asking.messages.gettext("none: cast it for its rune only")
        return
    for a in casts:
        if a.args:
            text = " ".join(a.args)
            yield text, text


def _is_dig_spell(spell: str) -> bool:
    try:
        return isinstance(load_content().spell(spell).effect, DigEffect)
    except KeyError:
        return False


USE = ("site", "conversion")


def _uses(asking: Asking, option: str) -> list[Row]:
    rows = (
        # `/mk use` puts the site back in front of the conversion
        Row(site=a.site, conversion=str(a).removeprefix(f"use {a.site} "))
        for a in asking.actions
        if isinstance(a, UseWorkshop)
    )
    return consistent(asking, option, USE, rows)


def workshop_sites(asking: Asking) -> Iterable[tuple[str, str]]:
    workshops = asking.state.board.workshops
    sites = _values(_uses(asking, "site"), "site")
    return ((s, f"{s} {workshop_name(workshops[s], asking.messages)}") for s in sites)


def conversions(asking: Asking) -> Iterable[tuple[str, str]]:
    for row in _uses(asking, "conversion"):
        text = row["conversion"]
        assert text is not None
        yield text, text


TRADE = ("give", "get")


def trade_gives(asking: Asking) -> Iterable[tuple[str, str]]:
    rows = (
        Row(give=format_bundle(a.give), get=a.get.value)
        for a in asking.actions
        if isinstance(a, Trade)
    )
    gives = dict.fromkeys(r["give"] for r in consistent(asking, "give", TRADE, rows))
    return ((g, g) for g in gives if g is not None)


HALL = ("hall", "cells")


def _halls(asking: Asking, option: str) -> list[Row]:
    rows = (
        Row(hall=a.hall, cells=format_cells(a.cells, a.altar))
        for a in asking.actions
        if isinstance(a, DedicateHall)
    )
    return consistent(asking, option, HALL, rows)


def halls(asking: Asking) -> Iterable[tuple[str, str]]:
    return ((i, hall_name(i, asking.messages)) for i in _values(_halls(asking, "hall"), "hall"))


def hall_cells(asking: Asking) -> Iterable[tuple[str, str]]:
    for row in _halls(asking, "cells"):
        text = row["cells"]
        assert text is not None
        yield text, text


MOVE = ("statue", "to")


def _moves(asking: Asking, option: str) -> list[Row]:
    rows = (Row(statue=a.origin, to=a.target) for a in asking.actions if isinstance(a, MoveStatue))
    return consistent(asking, option, MOVE, rows)


def statues(asking: Asking) -> Iterable[tuple[str, str]]:
    on_board = asking.state.board.statues
    cells = _values(_moves(asking, "statue"), "statue")
    m = asking.messages
    for cell in cells:
        clan = on_board.get(cell)
        if clan is None:
            yield cell, cell
        else:
            yield cell, m.gettext("{cell}: {clan} statue", cell=cell, clan=clan_of(Clan(clan), m))


def statue_targets(asking: Asking) -> Iterable[tuple[str, str]]:
    return ((c, c) for c in _values(_moves(asking, "to"), "to"))


# --- option types (annotations of the commands' parameters) -------------------------

AnyAction = app_commands.Transform[str, Legal(None, any_action)]
StartPoint = app_commands.Transform[str, Legal("gate", start_points)]
HordeSlot = app_commands.Transform[str, Legal("recruit", horde_slots)]
PyramidSlot = app_commands.Transform[str, Legal("recruit", pyramid_slots)]
RecruitPedestal = app_commands.Transform[str, Legal("recruit", recruit_pedestals)]
TileShape = app_commands.Transform[str, Legal("dig", tile_shapes)]
TileCells = app_commands.Transform[str, Legal("dig", tile_cells)]
DigMineral = app_commands.Transform[str, Legal("dig", dig_minerals)]
DigPedestal = app_commands.Transform[str, Legal("dig", dig_pedestals_offered)]
NewWorkshop = app_commands.Transform[str, Legal("dig", workshops_to_establish)]
Spell = app_commands.Transform[str, Legal("cast", spells)]
SpellChoice = app_commands.Transform[str, Legal("cast", spell_choices)]
WorkshopSite = app_commands.Transform[str, Legal("use", workshop_sites)]
Conversion = app_commands.Transform[str, Legal("use", conversions)]
TradeGive = app_commands.Transform[str, Legal("trade", trade_gives)]
Hall = app_commands.Transform[str, Legal("hall", halls)]
HallCells = app_commands.Transform[str, Legal("hall", hall_cells)]
Statue = app_commands.Transform[str, Legal("move", statues)]
StatueTarget = app_commands.Transform[str, Legal("move", statue_targets)]


def _horde_label(state: State, slot: str, m: Messages = ENGLISH) -> str:
    """A horde slot as autocomplete offers it: "2.3 · level 2, Fire (iron, Fire cart) ·
    2 bribes"."""
    row, j = horde_position(slot)
    card_id = state.horde[row][j].card
    if card_id is None:
        return slot
    card = load_content().trolls[card_id]
    makes = ", ".join(symbol_name(symbol(r, c), m) for r, c in card.produce)
    troll = m.gettext(
        "level {level}, {clan} ({makes})", level=card.level, clan=clan_of(card.clan, m), makes=makes
    )
    bribes = len(bribed_slots(state, slot, state.turn.flags if state.turn else []))
    cost = (
        m.ngettext("{count} bribe", "{count} bribes", bribes, count=bribes)
        if bribes
        else m.gettext("free")
    )
    return f"{slot} · {troll} · {cost}"


class SeatOfGame(app_commands.Transformer[MountainBot]):
    """A seat of the game here, named by its colour; autocomplete lists every seat with
    who plays it now (for the game's admin, who need not hold a seat)."""

    async def transform(self, interaction: discord.Interaction[MountainBot], value: str, /) -> str:
        return value.strip().lower()

    async def autocomplete(
        self, interaction: discord.Interaction[MountainBot], value: int | float | str, /
    ) -> list[Choice]:
        game = await interaction.client.game_here(interaction)
        if game is None:
            return []
        pairs = []
        m = reader(interaction)
        for seat in game.seats:
            if seat.controller_id is None and not seat.ai:
                label = m.gettext(
                    "{colour} (nobody: the AI plays it)", colour=colour_name(seat.label, m)
                )
            else:
                label = called_in(seat.label, seat.name, seat.ai, m)
            pairs.append((seat.label, label))
        return offer(pairs, str(value))


SeatColour = app_commands.Transform[str, SeatOfGame]
