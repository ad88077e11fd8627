"""What autocomplete offers in each option of a Cave Troll command, worded for the
reader: the places, pieces, artifacts and paths of the legal actions of that kind
(`cave_troll.legal_actions`), narrowed by what was typed in the other options.

The values are notation (what the command takes, in every language: `knight@A1`,
`A4>A7`, `helm`); the labels beside them are in the reader's language ("Blue Knight in
A1", "Helm of Mind Control", "A5 · a room of 4 gold"). Autocomplete offers at most 25,
filtered by what was typed, and nothing to a user without a seat or not awaited.
Whatever is typed reaches the command unchanged: the engine validates it and refuses
with a sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass

import discord
from discord import app_commands

from bot.cave_troll.seated import seated
from bot.cave_troll.words import piece
from bot.client import MountainBot, reader
from bot.i18n.catalogue import Messages
from bot.offers import Choice, offer
from bot.service import ServiceError
from cave_troll.actions import (
    ARTIFACT_OF,
    Action,
    Flee,
    Kill,
    Move,
    Place,
    PlayChalice,
    PlayCloak,
    PlayEldarra,
    PlayHelm,
    PlaySword,
    PlayWand,
    Push,
    Ref,
    Send,
)
from cave_troll.board import load_board
from cave_troll.errors import CaveTrollError
from cave_troll.legal import legal_actions
from cave_troll.state import State
from cave_troll.turns import to_act
from render.cave_troll.words import artifact_name


@dataclass(frozen=True)
class Asking:
    """The position an option is asked in: the state, the asking seat, its colour and
    what was typed in the command's other options."""

    state: State
    seat: int
    typed: Mapping[str, str]

    @property
    def colour(self) -> str:
        return self.state.colour(self.seat)

    def actions(self, kind: type | tuple[type, ...]) -> Iterator[Action]:
        return (a for a in legal_actions(self.state, self.seat) if isinstance(a, kind))


Source = Callable[[Asking, Messages], Iterable[tuple[str, str]]]


class Legal(app_commands.Transformer[MountainBot]):
    """A text option whose autocomplete offers what `source` finds legal."""

    def __init__(self, source: Source) -> None:
        self.source = source

    async def transform(self, interaction: discord.Interaction[MountainBot], value: str, /) -> str:
        return value  # the engine validates what was typed

    async def autocomplete(
        self, interaction: discord.Interaction[MountainBot], value: int | float | str, /
    ) -> list[Choice]:
        try:
            _, state, seat = await seated(interaction.client, interaction)
        except (ServiceError, CaveTrollError):
            return []
        if seat not in to_act(state):
            return []
        typed = {n: str(v) for n, v in interaction.namespace if v is not None}
        return offer(self.source(Asking(state, seat, typed), reader(interaction)), str(value))


# --- labels ------------------------------------------------------------------------------


def place_label(place: str, m: Messages) -> str:
    """ "A5 · a room of 4 gold", "NW · an entrance", "pit · the pit"."""
    board = load_board()
    if board.is_room(place):
        value = board.value[place]
        return m.ngettext(
            "{place} · a room of {count} gold",
            "{place} · a room of {count} gold",
            value,
            place=place,
            count=value,
        )
    if board.is_entrance(place):
        return m.gettext("{place} · an entrance", place=place)
    return m.gettext("{place} · the pit", place=place)


def ref_label(ref: Ref, asking: Asking, m: Messages) -> str:
    """ "knight@A1 · Blue Knight in A1"."""
    name = piece(ref.colour or asking.colour, ref.kind, m)
    return m.gettext("{ref} · {piece} in {place}", ref=str(ref), piece=name, place=ref.at)


def _places(places: Iterable[str], m: Messages) -> Iterator[tuple[str, str]]:
    for place in dict.fromkeys(places):
        yield place, place_label(place, m) if ">" not in place else place


def _refs(refs: Iterable[Ref], asking: Asking, m: Messages) -> Iterator[tuple[str, str]]:
    for ref in dict.fromkeys(refs):
        yield str(ref), ref_label(ref, asking, m)


def _typed(asking: Asking, option: str, value: object) -> bool:
    """Whether `value` fits what was typed in `option` (anything when nothing was)."""
    typed = asking.typed.get(option)
    return typed is None or str(value) == typed


# --- sources: the legal actions' values, labelled ------------------------------------------


def any_action(asking: Asking, m: Messages) -> Iterator[tuple[str, str]]:
    for action in legal_actions(asking.state, asking.seat):
        yield str(action), str(action)


def places(asking: Asking, m: Messages) -> Iterator[tuple[str, str]]:
    return _places((a.at for a in asking.actions(Place) if isinstance(a, Place)), m)


def move_paths(asking: Asking, m: Messages) -> Iterator[tuple[str, str]]:
    paths = (
        ">".join(a.path)
        for a in asking.actions(Move)
        if isinstance(a, Move) and _typed(asking, "piece", a.piece)
    )
    return _places(paths, m)


PLAYS = (PlayHelm, PlayChalice, PlayEldarra, PlayWand, PlayCloak, PlaySword)


def artifacts(asking: Asking, m: Messages) -> Iterator[tuple[str, str]]:
    for name in dict.fromkeys(ARTIFACT_OF[type(a)] for a in asking.actions(PLAYS)):
        yield name, artifact_name(name, m)


def _plays(asking: Asking) -> Iterator[Action]:
    return (a for a in asking.actions(PLAYS) if _typed(asking, "artifact", ARTIFACT_OF[type(a)]))


def play_targets(asking: Asking, m: Messages) -> Iterator[tuple[str, str]]:
    """The artifact's targets: a piece (the Helm, the Cloak) or a place (the others)."""
    for action in _plays(asking):
        if isinstance(action, PlayHelm):
            yield str(action.target), ref_label(action.target, asking, m)
        elif isinstance(action, PlayCloak):
            yield str(action.piece), ref_label(action.piece, asking, m)
        elif isinstance(action, PlayChalice):
            yield action.at, place_label(action.at, m)
        elif isinstance(action, PlayEldarra | PlayWand | PlaySword):
            yield action.room, place_label(action.room, m)


def helm_paths(asking: Asking, m: Messages) -> Iterator[tuple[str, str]]:
    """The Helm's paths for the piece typed as its target."""
    for action in _plays(asking):
        if isinstance(action, PlayHelm) and _typed(asking, "target", action.target):
            path = ">".join(action.path)
            yield path, path


def pieces_of(kind: type[Action], field: str) -> Source:
    """The pieces `kind`'s legal actions name in `field`, labelled."""

    def source(asking: Asking, m: Messages) -> Iterator[tuple[str, str]]:
        return _refs((getattr(a, field) for a in asking.actions(kind)), asking, m)

    return source


def destinations_of(kind: type[Push | Send | Flee], piece: str) -> Source:
    """Where `kind`'s legal actions take the piece typed in its `piece` option."""

    def source(asking: Asking, m: Messages) -> Iterator[tuple[str, str]]:
        to = (
            a.to
            for a in asking.actions(kind)
            if isinstance(a, Push | Send | Flee) and _typed(asking, piece, getattr(a, piece))
        )
        return _places(to, m)

    return source


movers = pieces_of(Move, "piece")
push_targets, push_places = pieces_of(Push, "target"), destinations_of(Push, "target")
kill_targets = pieces_of(Kill, "target")
senders, send_places = pieces_of(Send, "piece"), destinations_of(Send, "piece")
fleeing, flee_places = pieces_of(Flee, "piece"), destinations_of(Flee, "piece")


# --- option types (annotations of the commands' parameters) -----------------------------

AnyAction = app_commands.Transform[str, Legal(any_action)]
Where = app_commands.Transform[str, Legal(places)]
Mover = app_commands.Transform[str, Legal(movers)]
MovePath = app_commands.Transform[str, Legal(move_paths)]
PushTarget = app_commands.Transform[str, Legal(push_targets)]
PushPlace = app_commands.Transform[str, Legal(push_places)]
KillTarget = app_commands.Transform[str, Legal(kill_targets)]
Sender = app_commands.Transform[str, Legal(senders)]
SendPlace = app_commands.Transform[str, Legal(send_places)]
Fleeing = app_commands.Transform[str, Legal(fleeing)]
FleePlace = app_commands.Transform[str, Legal(flee_places)]
Artifact = app_commands.Transform[str, Legal(artifacts)]
PlayTarget = app_commands.Transform[str, Legal(play_targets)]
HelmPath = app_commands.Transform[str, Legal(helm_paths)]
