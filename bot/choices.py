"""What a player may type in each option of a turn command, and what autocomplete
offers there.

One transformer, `Legal`, serves every option: it is made with the kind of action the
option belongs to and a source that turns the asking player's position (and what they
typed in the other options) into (value, label) pairs. Autocomplete offers at most 25
of them, filtered by what was typed, and nothing to a user without a seat. Whatever is
typed reaches the command unchanged: the engine validates it and refuses with a
sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property

import discord
from discord import app_commands

from bot.client import MountainBot
from bot.service import ServiceError
from rules import board as board_rules
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
    parse_cells,
)
from rules.content import load_content
from rules.errors import RulesError
from rules.legal import legal_actions
from rules.mountain import geo
from rules.pyramid import horde_position
from rules.shapes import tunnel_size
from rules.state import State

MAX_CHOICES = 25
Choice = app_commands.Choice[int | float | str]


@dataclass
class Asking:
    """The position of the player asking for choices, and the options typed so far."""

    state: State
    seat: int
    kind: str | None
    namespace: app_commands.Namespace

    @cached_property
    def actions(self) -> list[Action]:
        """The seat's legal actions of the option's kind (all kinds for None)."""
        return legal_actions(self.state, self.seat, self.kind)

    def typed(self, option: str) -> str | None:
        """What was typed in another option of the command (None if nothing)."""
        value = getattr(self.namespace, option, None)
        return None if value is None else str(value)


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
        asking = Asking(state, seat, self.kind, interaction.namespace)
        return offer(self.source(asking), str(value))


def offer(pairs: Iterable[tuple[str, str]], current: str) -> list[Choice]:
    """At most 25 choices whose value or label contains what was typed."""
    needle = current.lower().strip()
    out: list[Choice] = []
    seen: set[str] = set()
    for value, label in pairs:
        if value in seen or (
            needle and needle not in value.lower() and needle not in label.lower()
        ):
            continue
        seen.add(value)
        out.append(app_commands.Choice(name=label[:100], value=value[:100]))
        if len(out) == MAX_CHOICES:
            break
    return out


# --- sources ---------------------------------------------------------------------------


def any_action(asking: Asking) -> Iterable[tuple[str, str]]:
    return ((str(a), str(a)) for a in asking.actions)


def start_points(asking: Asking) -> Iterable[tuple[str, str]]:
    side = load_content().board(asking.state.config.board_side)
    cells = {p.id: p.cell for p in side.start_points}
    for a in asking.actions:
        if isinstance(a, PlaceGate):
            yield a.point, f"{a.point} ({cells.get(a.point, '?')})"


def horde_slots(asking: Asking) -> Iterable[tuple[str, str]]:
    slots = sorted({a.horde for a in asking.actions if isinstance(a, Recruit)})
    return ((s, _horde_label(asking.state, s)) for s in slots)


def pyramid_slots(asking: Asking) -> Iterable[tuple[str, str]]:
    troll = asking.typed("troll")
    slots = {a.slot for a in asking.actions if isinstance(a, Recruit) and a.horde == troll}
    return ((s, s) for s in sorted(slots))


def recruit_pedestals(asking: Asking) -> Iterable[tuple[str, str]]:
    troll = asking.typed("troll")
    clans = {
        a.pedestal.value
        for a in asking.actions
        if isinstance(a, Recruit) and a.pedestal and a.horde == troll
    }
    return ((c, c) for c in sorted(clans))


def tile_shapes(asking: Asking) -> Iterable[tuple[str, str]]:
    placements = board_rules.placements(asking.state, asking.seat)
    order = [t.id for t in load_content().tunnels]
    shapes = sorted({p.shape for p in placements}, key=order.index)
    return ((s, f"{s} ({tunnel_size(s)} cells)") for s in shapes)


def tile_cells(asking: Asking) -> Iterable[tuple[str, str]]:
    tile = asking.typed("tile")
    if not tile:
        return
    for p in board_rules.placements(asking.state, asking.seat):
        if p.shape == tile:
            text = format_cells(p.cells, p.anchor)
            yield text, text


def workshops_to_establish(asking: Asking) -> Iterable[tuple[str, str]]:
    state = asking.state
    typed = asking.typed("cells")
    if not typed:
        return []
    try:
        cells, _ = parse_cells(typed)
        sites = board_rules.workshop_choices(state, geo(state).mask(cells))
    except (KeyError, ValueError):
        return []
    names = sorted(set(state.workshop_supply))
    return ((f"{s}={w}", f"{s} = {w}") for s in sites for w in names)


def spells(asking: Asking) -> Iterable[tuple[str, str]]:
    ids = sorted({a.spell for a in asking.actions if isinstance(a, Cast)})
    return ((s, load_content().spell(s).name) for s in ids)


def spell_choices(asking: Asking) -> Iterable[tuple[str, str]]:
    spell = asking.typed("spell")
    for a in asking.actions:
        if isinstance(a, Cast) and a.spell == spell and a.args:
            text = " ".join(a.args)
            yield text, text


def workshop_sites(asking: Asking) -> Iterable[tuple[str, str]]:
    content = load_content()
    sites = sorted({a.site for a in asking.actions if isinstance(a, UseWorkshop)})
    workshops = asking.state.board.workshops
    return ((s, f"{s} {content.workshop(workshops[s]).name}") for s in sites)


def conversions(asking: Asking) -> Iterable[tuple[str, str]]:
    site = asking.typed("site")
    for a in asking.actions:
        if isinstance(a, UseWorkshop) and a.site == site:
            # `/mk use` puts the site back in front of it
            text = str(a).removeprefix(f"use {a.site} ")
            yield text, text


def trade_gives(asking: Asking) -> Iterable[tuple[str, str]]:
    gives = sorted({format_bundle(a.give) for a in asking.actions if isinstance(a, Trade)})
    return ((g, g) for g in gives)


def halls(asking: Asking) -> Iterable[tuple[str, str]]:
    names = {h.id: h.name for h in load_content().halls}
    ids = sorted({a.hall for a in asking.actions if isinstance(a, DedicateHall)})
    return ((i, names[i]) for i in ids)


def hall_cells(asking: Asking) -> Iterable[tuple[str, str]]:
    hall = asking.typed("hall")
    for a in asking.actions:
        if isinstance(a, DedicateHall) and a.hall == hall:
            text = format_cells(a.cells, a.altar)
            yield text, text


def statues(asking: Asking) -> Iterable[tuple[str, str]]:
    cells = sorted({a.origin for a in asking.actions if isinstance(a, MoveStatue)})
    on_board = asking.state.board.statues
    return ((c, f"{c} {on_board.get(c, '')} statue") for c in cells)


def statue_targets(asking: Asking) -> Iterable[tuple[str, str]]:
    origin = asking.typed("statue")
    targets = {a.target for a in asking.actions if isinstance(a, MoveStatue) and a.origin == origin}
    return ((c, c) for c in sorted(targets))


# --- option types (annotations of the commands' parameters) -------------------------

AnyAction = app_commands.Transform[str, Legal(None, any_action)]
StartPoint = app_commands.Transform[str, Legal("gate", start_points)]
HordeSlot = app_commands.Transform[str, Legal("recruit", horde_slots)]
PyramidSlot = app_commands.Transform[str, Legal("recruit", pyramid_slots)]
RecruitPedestal = app_commands.Transform[str, Legal("recruit", recruit_pedestals)]
TileShape = app_commands.Transform[str, Legal("dig", tile_shapes)]
TileCells = app_commands.Transform[str, Legal("dig", tile_cells)]
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


def _horde_label(state: State, slot: str) -> str:
    row, j = horde_position(slot)
    card_id = state.horde[row][j].card
    if card_id is None:
        return slot
    card = load_content().trolls[card_id]
    produce = ", ".join(r.value if c is None else f"{c.value}-cart" for r, c in card.produce)
    cost = {0: "free", 1: "2 bribes", 2: "5 bribes"}[row]
    return f"{slot} · level-{card.level} {card.clan.value} ({produce}) · {cost}"


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
        for seat in game.seats:
            if seat.ai:
                who = "AI"
            elif seat.controller_id is None:
                who = "nobody: the AI plays it"
            else:
                who = seat.name or f"player {seat.seat + 1}"
            pairs.append((seat.label, f"{seat.label} ({who})"))
        return offer(pairs, str(value))


SeatColour = app_commands.Transform[str, SeatOfGame]
