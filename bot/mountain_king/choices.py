"""What autocomplete offers in each option of a turn command, worded for the reader.

One transformer, `Legal`, serves every option: it is made with the kind of action the
option belongs to and a source that turns the asking player's position (and what they
typed in the other options) into (value, label) pairs. Autocomplete offers at most 25
of them, filtered by what was typed, and nothing to a user without a seat or whose turn
it is not. Whatever is typed reaches the command unchanged: the engine validates it and
refuses with a sentence.

Which values an option may take, and the facts beside each (a dig's cost, honor and
finds; a recruit's troll and bribes), are the rules' (`rules.options`: every value
offered completes to a legal action); this module words them. The values are notation
(what the command takes, in every language); the labels beside them are in the reader's
language.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping

import discord
from discord import app_commands

from bot.client import MountainBot, reader
from bot.i18n.catalogue import ENGLISH, Messages
from bot.mountain_king.seated import Position, seated_state
from bot.offers import Choice, offer
from bot.service import ServiceError
from bot.words import either_in, listed_in
from render.words import (
    amount,
    clan_of,
    hall_name,
    on_tier,
    resource_name,
    spell_name,
    symbol_name,
    workshop_name,
)
from rules import options
from rules.errors import RulesError
from rules.legal import may_act
from rules.options import Asking, DigCost, DigOffer, Digs, HordeOffer
from rules.resources import Clan, Resource

# an option's values with their labels, for a position and the reader's language
Source = Callable[[Asking, Messages], Iterable[tuple[str, str]]]


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
            found = await seated_state(interaction.client, interaction)
        except (ServiceError, RulesError):
            return []
        if found is None or not may_act(found.state, found.seat):
            return []
        table = interaction.client.service
        known = None
        if self.kind == "dig":  # found once a position
            known = KEPT_DIGS.digs(table, found)
        elif self.kind is None:  # any action: those found, else the few it shows are made
            known = KEPT_DIGS.peek(table, found)
        typed = typed_options(interaction.namespace)
        asking = Asking(found.state, found.seat, self.kind, typed, str(value), known)
        return offer(self.source(asking, reader(interaction)), str(value))


# a game, its version and a seat
DigsKey = tuple[int, int, int]


class KeptDigs:
    """The digs of the positions autocomplete answered last (`size` at most), per
    table (its game ids are its own), under the game, its version and the seat
    (`Position`): a player types an option key by key and fills a command's options
    one by one, and every answer after the first at one position takes the placements
    found for it. Safe from several tasks and threads: a lookup and an update hold a
    lock; the digs are found outside it (two askers may both find them)."""

    def __init__(self, size: int = 16) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._tables: weakref.WeakKeyDictionary[object, OrderedDict[DigsKey, Digs]] = (
            weakref.WeakKeyDictionary()
        )

    def peek(self, table: object, at: Position) -> Digs | None:
        """The digs kept for the position, if any."""
        key = (at.game_id, at.version, at.seat)
        with self._lock:
            kept = self._tables.get(table)
            digs = None if kept is None else kept.get(key)
            if kept is not None and digs is not None:
                kept.move_to_end(key)
            return digs

    def digs(self, table: object, at: Position) -> Digs:
        """The digs of the position: those kept, else found now and kept."""
        digs = self.peek(table, at)
        if digs is not None:
            return digs
        digs = Digs.at(at.state, at.seat)
        with self._lock:
            kept = self._tables.setdefault(table, OrderedDict())
            kept[(at.game_id, at.version, at.seat)] = digs
            while len(kept) > self.size:
                kept.popitem(last=False)
        return digs


KEPT_DIGS = KeptDigs()


def typed_options(namespace: app_commands.Namespace) -> Mapping[str, str]:
    """What was typed in the command's options so far, as text."""
    return {name: str(value) for name, value in namespace if value is not None}


# --- sources: the rules' values, labelled -----------------------------------------------


def any_action(asking: Asking, m: Messages) -> Iterator[tuple[str, str]]:
    """Legal actions, one of each kind in turn, lazily (`offer` stops after 25 that
    match); a dig with the honor it scores."""
    for item in options.any_action(asking):
        if isinstance(item, DigOffer):
            text = item.notation
            yield text, f"{text} · {_honor(item.honor, m)}"
        else:
            text = str(item)
            yield text, text


def start_points(asking: Asking, m: Messages) -> Iterator[tuple[str, str]]:
    for start in options.start_points(asking):
        yield start.point, f"{start.point} ({start.cell or '?'})"


def horde_slots(asking: Asking, m: Messages) -> Iterator[tuple[str, str]]:
    for horde in options.horde_slots(asking):
        yield horde.slot, _horde_label(horde, m)


def pyramid_slots(asking: Asking, m: Messages) -> Iterator[tuple[str, str]]:
    return ((s, s) for s in options.pyramid_slots(asking))


def recruit_pedestals(asking: Asking, m: Messages) -> Iterator[tuple[str, str]]:
    return ((c.value, _pedestal(c, m)) for c in options.recruit_pedestals(asking))


def tile_shapes(asking: Asking, m: Messages) -> Iterator[tuple[str, str]]:
    for tile in options.tile_shapes(asking):
        parts = [
            tile.shape,
            m.ngettext("{count} cell", "{count} cells", tile.size, count=tile.size),
            m.gettext(
                "pay with {minerals}",
                minerals=either_in([resource_name(r, m) for r in tile.minerals], m),
            ),
            m.ngettext(
                "{count} placement", "{count} placements", tile.placements, count=tile.placements
            ),
        ]
        yield tile.shape, " · ".join(parts)


def tile_cells(asking: Asking, m: Messages) -> Iterator[tuple[str, str]]:
    shape_known = asking.typed("tile") is not None
    for place in options.tile_cells(asking):
        label = f"{place.cells} · {dig_cost(place.cost, m)}"
        yield place.cells, label if shape_known else f"{place.shape} {label}"


def dig_minerals(asking: Asking, m: Messages) -> Iterator[tuple[str, str]]:
    for offered in options.dig_minerals(asking):
        label = resource_name(offered.mineral, m)
        if offered.cost is not None:
            label += " · " + dig_cost(offered.cost, m)
        yield offered.mineral.value, label


def dig_pedestals_offered(asking: Asking, m: Messages) -> Iterator[tuple[str, str]]:
    for pedestal in options.dig_pedestals_offered(asking):
        label = _pedestal(pedestal.clan, m)
        if pedestal.anchor is not None and pedestal.tier is not None:
            label = m.gettext(
                "{pedestal} on the anchor {anchor}, on the {tier} tier",
                pedestal=label,
                anchor=pedestal.anchor,
                tier=on_tier(pedestal.tier, m),
            )
        yield pedestal.clan.value, label


def workshops_to_establish(asking: Asking, m: Messages) -> Iterator[tuple[str, str]]:
    for w in options.workshops_to_establish(asking):
        yield w.value, f"{w.site} = {workshop_name(w.workshop, m)}"


def spells(asking: Asking, m: Messages) -> Iterator[tuple[str, str]]:
    return ((s, spell_name(s, m)) for s in options.spells(asking))


def spell_choices(asking: Asking, m: Messages) -> Iterator[tuple[str, str]]:
    """The typed spell's choices; for a dig spell, its digs as `/mk dig` offers them
    (with what each costs and scores), then `none`."""
    for choice in options.spell_choices(asking):
        if choice.dig is not None:
            yield choice.value, f"{choice.value} · {dig_cost(choice.dig.cost(), m)}"
        elif choice.dig_spell:
            yield choice.value, m.gettext("none: cast it for its rune only")
        else:
            yield choice.value, choice.value


def workshop_sites(asking: Asking, m: Messages) -> Iterator[tuple[str, str]]:
    for s in options.workshop_sites(asking):
        yield s.site, f"{s.site} {workshop_name(s.workshop, m)}"


def conversions(asking: Asking, m: Messages) -> Iterator[tuple[str, str]]:
    return ((c, c) for c in options.conversions(asking))


def trade_gives(asking: Asking, m: Messages) -> Iterator[tuple[str, str]]:
    return ((g, g) for g in options.trade_gives(asking))


def halls(asking: Asking, m: Messages) -> Iterator[tuple[str, str]]:
    return ((i, hall_name(i, m)) for i in options.halls(asking))


def hall_cells(asking: Asking, m: Messages) -> Iterator[tuple[str, str]]:
    return ((c, c) for c in options.hall_cells(asking))


def statues(asking: Asking, m: Messages) -> Iterator[tuple[str, str]]:
    for s in options.statues(asking):
        if s.clan is None:
            yield s.cell, s.cell
        else:
            yield s.cell, m.gettext("{cell}: {clan} statue", cell=s.cell, clan=clan_of(s.clan, m))


def statue_targets(asking: Asking, m: Messages) -> Iterator[tuple[str, str]]:
    return ((c, c) for c in options.statue_targets(asking))


# --- labels ----------------------------------------------------------------------------


def dig_cost(cost: DigCost, m: Messages = ENGLISH) -> str:
    """What a dig costs and scores with each of its minerals, and what it uncovers:
    `3 stone or 3 iron, 1 hammer · +4 or +6 honor · finds coin`."""
    text = either_in([amount(p.mineral, p.amount, m) for p in cost.paying], m)
    if cost.hammers:
        text += ", " + amount(Resource.HAMMER, cost.hammers, m)
    scores = [p.honor for p in cost.paying]
    honor = m.ngettext(
        "{values} honor",
        "{values} honor",
        scores[-1],
        values=either_in([f"+{n}" for n in scores], m),
    )
    parts = [text, honor]
    if cost.finds:
        found = listed_in([resource_name(r, m) for r in cost.finds], m)
        parts.append(m.gettext("finds {resources}", resources=found))
    return " · ".join(parts)


def _honor(honor: int, m: Messages) -> str:
    return m.ngettext("+{count} honor", "+{count} honor", honor, count=honor)


def _pedestal(clan: Clan, m: Messages) -> str:
    # TRANSLATORS: a pedestal of a clan, offered by autocomplete
    return m.gettext("{clan} pedestal", clan=clan_of(clan, m))


def _horde_label(horde: HordeOffer, m: Messages = ENGLISH) -> str:
    """A horde slot as autocomplete offers it: "2.3 · level 2, Fire (iron, Fire cart) ·
    2 bribes"."""
    troll = horde.troll
    if troll is None:
        return horde.slot
    makes = ", ".join(symbol_name(s, m) for s in troll.makes)
    card = m.gettext(
        "level {level}, {clan} ({makes})",
        level=troll.level,
        clan=clan_of(troll.clan, m),
        makes=makes,
    )
    cost = (
        m.ngettext("{count} bribe", "{count} bribes", horde.bribes, count=horde.bribes)
        if horde.bribes
        else m.gettext("free")
    )
    return f"{horde.slot} · {card} · {cost}"


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
