"""Actions: one small immutable value per decision, each with one text notation.

`str(action)` is its notation and `parse_action(text)` reads it back, so
`parse_action(str(a)) == a`. A piece is named by its kind and where it stands,
`knight@A1`; another player's piece with its colour first, `blue-knight@A1`; the one
wearing the Cloak of Invisibility this turn with a star, `explorer*@A1`. Locations are
rooms `A1`..`D7`, the entrances `NW NE SE SW` and the `pit`.

    draw                            draw a token from your stack (1 action)
    place NW                        put the token drawn on an entrance or in a room
    move knight@A1 A4               move one of your pieces (1 action)
    move explorer*@A1 A4>A7         ... the cloaked one two steps at once
    push blue-explorer@A3 A2        your Wraith pushes an adventurer out (1 action)
    kill blue-explorer@A3           your Orc discards an adventurer (1 action)
    play helm blue-orc@A7 A4>A1     play an artifact (1 action): the Helm moves an
    play chalice A1                     opponent's piece up to 3 steps; the Chalice
    send explorer@A1 C3                 sends each of your adventurers from a space
    play eldarra A5                     (one `send` each); the Mark closes a room;
    play wand A5                        the Wand counts the loot of one room; the
    play cloak explorer@A1              Cloak; the Sword discards the Orcs of a room
    play sword A5
    flee knight@A5 A4               Troll flight: one of your pieces leaves its room
    stay                            Troll flight: the rest of your pieces stay there
    end                             end your turn
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TypeAlias

from cave_troll.board import load_board
from cave_troll.content import ARTIFACTS, PIECE_KINDS, load_content
from cave_troll.errors import Listed, NotationError, echo

# the longest action a game produces is under 60 characters
MAX_ACTION_LENGTH = 200
_REF = re.compile(r"^(?:([a-z]+)-)?([a-z]+)(\*?)@([A-Za-z0-9]+)$")
_WORD = re.compile(r"^[A-Za-z0-9*@>-]+$")


@dataclass(frozen=True, slots=True)
class Ref:
    """A piece by its kind and location (`knight@A1`): one of yours, or with its
    colour (`blue-knight@A1`) any player's. `cloaked` names the piece wearing the
    Cloak of Invisibility this turn (`explorer*@A1`). Pieces alike in all of this are
    alike in the game, so any of them is the one named."""

    kind: str
    at: str
    cloaked: bool = False
    colour: str | None = None

    def __str__(self) -> str:
        colour = f"{self.colour}-" if self.colour is not None else ""
        return f"{colour}{self.kind}{'*' if self.cloaked else ''}@{self.at}"


def _path(path: tuple[str, ...]) -> str:
    return ">".join(path)


@dataclass(frozen=True, slots=True)
class Draw:
    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Place:
    """Put the token just drawn: an adventurer on an entrance, the Cave Troll or a
    Treasure in a room."""

    at: str

    def __str__(self) -> str:
        return f"place {self.at}"


@dataclass(frozen=True, slots=True)
class Move:
    """Move one of your pieces: one step (`path` of one location), the Thief anywhere,
    the cloaked adventurer up to two steps (`A4>A7`)."""

    piece: Ref
    path: tuple[str, ...]

    def __str__(self) -> str:
        return f"move {self.piece} {_path(self.path)}"


@dataclass(frozen=True, slots=True)
class Push:
    """Your Wraith pushes an adventurer sharing its space through a door."""

    target: Ref
    to: str

    def __str__(self) -> str:
        return f"push {self.target} {self.to}"


@dataclass(frozen=True, slots=True)
class Kill:
    """Your Orc discards an adventurer sharing its space."""

    target: Ref

    def __str__(self) -> str:
        return f"kill {self.target}"


@dataclass(frozen=True, slots=True)
class PlayHelm:
    """Helm of Mind Control: move an opponent's piece (not a Cave Troll) up to three
    steps."""

    target: Ref
    path: tuple[str, ...]

    def __str__(self) -> str:
        return f"play helm {self.target} {_path(self.path)}"


@dataclass(frozen=True, slots=True)
class PlayChalice:
    """Chalice of Teleportation: every adventurer of yours in `at` is then sent
    elsewhere, one `send` each."""

    at: str

    def __str__(self) -> str:
        return f"play chalice {self.at}"


@dataclass(frozen=True, slots=True)
class Send:
    """Send one adventurer away under the Chalice (costs no action)."""

    piece: Ref
    to: str

    def __str__(self) -> str:
        return f"send {self.piece} {self.to}"


@dataclass(frozen=True, slots=True)
class PlayEldarra:
    """Mark of El'darra: closes an empty room for good, and it scores for you."""

    room: str

    def __str__(self) -> str:
        return f"play eldarra {self.room}"


@dataclass(frozen=True, slots=True)
class PlayWand:
    """Wand of Speed: count the loot of one room."""

    room: str

    def __str__(self) -> str:
        return f"play wand {self.room}"


@dataclass(frozen=True, slots=True)
class PlayCloak:
    """Cloak of Invisibility: one of your adventurers, until the end of the turn."""

    piece: Ref

    def __str__(self) -> str:
        return f"play cloak {self.piece}"


@dataclass(frozen=True, slots=True)
class PlaySword:
    """Sword of Death: every Orc in a room where you have an adventurer is discarded."""

    room: str

    def __str__(self) -> str:
        return f"play sword {self.room}"


@dataclass(frozen=True, slots=True)
class Flee:
    """Troll flight: one of your pieces leaves the Cave Troll's room by a door."""

    piece: Ref
    to: str

    def __str__(self) -> str:
        return f"flee {self.piece} {self.to}"


@dataclass(frozen=True, slots=True)
class Stay:
    """Troll flight: your pieces still in the room stay there (and are discarded)."""

    def __str__(self) -> str:
        return "stay"


@dataclass(frozen=True, slots=True)
class EndTurn:
    def __str__(self) -> str:
        return "end"


Play: TypeAlias = PlayHelm | PlayChalice | PlayEldarra | PlayWand | PlayCloak | PlaySword
Action: TypeAlias = Draw | Place | Move | Push | Kill | Play | Send | Flee | Stay | EndTurn

ACTION_KINDS: dict[type, str] = {
    Draw: "draw",
    Place: "place",
    Move: "move",
    Push: "push",
    Kill: "kill",
    PlayHelm: "play",
    PlayChalice: "play",
    PlayEldarra: "play",
    PlayWand: "play",
    PlayCloak: "play",
    PlaySword: "play",
    Send: "send",
    Flee: "flee",
    Stay: "stay",
    EndTurn: "end",
}
# every kind, in the order legal actions are listed
KINDS = ("place", "send", "flee", "stay", "draw", "move", "push", "kill", "play", "end")
ARTIFACT_OF: dict[type, str] = {
    PlayHelm: "helm",
    PlayChalice: "chalice",
    PlayEldarra: "eldarra",
    PlayWand: "wand",
    PlayCloak: "cloak",
    PlaySword: "sword",
}


def action_kind(action: Action) -> str:
    return ACTION_KINDS[type(action)]


def format_action(action: Action) -> str:
    return str(action)


def verb_kind(text: object) -> str | None:
    """The kind of action the first word of `text` names, if it names one."""
    if not isinstance(text, str):
        return None
    verb = text[:8].partition(" ")[0]
    return verb if verb in KINDS else None


def parse_action(text: str) -> Action:
    """Read one action in notation; raises `NotationError` with a sentence that says
    what was expected."""
    if not isinstance(text, str):
        raise NotationError("An action must be text.")
    if len(text) > MAX_ACTION_LENGTH:
        raise NotationError(
            "An action is at most {limit} characters; this one has {length}.",
            "too_long",
            limit=MAX_ACTION_LENGTH,
            length=len(text),
        )
    words = text.split()
    if not words:
        raise NotationError("Empty action.", "empty")
    if " ".join(words) != text:
        raise NotationError("Separate the words of an action with single spaces.", "spaces")
    for word in words:
        if not _WORD.match(word):
            raise NotationError("Unexpected characters in {word}.", "characters", word=echo(word))
    verb, rest = words[0], words[1:]
    if verb in ("draw", "stay", "end"):
        _expect(rest, 0, verb)
        return Draw() if verb == "draw" else Stay() if verb == "stay" else EndTurn()
    if verb == "place":
        _expect(rest, 1, "place <entrance or room>, e.g. place NW")
        return Place(_location(rest[0]))
    if verb == "move":
        _expect(rest, 2, "move <piece> <where>, e.g. move knight@A1 A4")
        return Move(_own(rest[0]), _path_of(rest[1], load_content().text.cloak_steps))
    if verb == "push":
        _expect(rest, 2, "push <colour-piece> <where>, e.g. push blue-explorer@A3 A2")
        return Push(_anyones(rest[0]), _location(rest[1]))
    if verb == "kill":
        _expect(rest, 1, "kill <colour-piece>, e.g. kill blue-explorer@A3")
        return Kill(_anyones(rest[0]))
    if verb == "send":
        _expect(rest, 2, "send <piece> <where>, e.g. send explorer@A1 C3")
        return Send(_own(rest[0]), _location(rest[1]))
    if verb == "flee":
        _expect(rest, 2, "flee <piece> <where>, e.g. flee knight@A5 A4")
        return Flee(_own(rest[0]), _location(rest[1]))
    if verb == "play":
        return _parse_play(rest)
    raise unknown_verb(verb)


def unknown_verb(verb: str) -> NotationError:
    """The refusal of a word that names no kind of action."""
    return NotationError(
        "Unknown action {verb}; expected one of {verbs}.",
        "unknown_verb",
        verb=echo(verb),
        verbs=Listed(tuple(KINDS), "or"),
    )


def _parse_play(rest: list[str]) -> Play:
    if not rest or rest[0] not in ARTIFACTS:
        raise NotationError(
            "Name the artifact you play: {artifacts}.",
            "no_artifact",
            artifacts=Listed(ARTIFACTS, "or"),
        )
    artifact, args = rest[0], rest[1:]
    if artifact == "helm":
        _expect(args, 2, "play helm <colour-piece> <steps>, e.g. play helm blue-orc@A7 A4>A1")
        return PlayHelm(_anyones(args[0]), _path_of(args[1], load_content().text.helm_steps))
    if artifact == "cloak":
        _expect(args, 1, "play cloak <piece>, e.g. play cloak explorer@A1")
        return PlayCloak(_own(args[0]))
    if artifact == "chalice":
        _expect(args, 1, "play chalice <entrance or room>, e.g. play chalice A1")
        return PlayChalice(_location(args[0]))
    _expect(args, 1, f"play {artifact} <room>, e.g. play {artifact} A5")
    room = _room(args[0])
    if artifact == "eldarra":
        return PlayEldarra(room)
    if artifact == "wand":
        return PlayWand(room)
    return PlaySword(room)


def _expect(words: list[str], n: int, usage: str) -> None:
    if len(words) != n:
        raise NotationError("Expected: {usage}", "usage", usage=usage)


def _location(text: str) -> str:
    board = load_board()
    if text not in board.order:
        raise NotationError(
            "There is no place {place} in the cave: rooms are {first} to {last}, the"
            " entrances {entrances}, and the {pit}.",
            "no_such_place",
            place=echo(text),
            first=board.rooms[0],
            last=board.rooms[-1],
            entrances=Listed(board.entrances),
            pit=board.pit,
        )
    return text


def _room(text: str) -> str:
    board = load_board()
    if not board.is_room(_location(text)):
        raise NotationError("{place} is not a room.", "not_a_room", place=text)
    return text


def _path_of(text: str, longest: int) -> tuple[str, ...]:
    parts = text.split(">")
    if len(parts) > longest:
        raise NotationError("A move here takes at most {steps} steps.", "long_path", steps=longest)
    return tuple(_location(p) for p in parts)


def _ref(text: str) -> Ref:
    m = _REF.match(text)
    if m is None:
        raise NotationError(
            "Name a piece by its kind and place, e.g. knight@A1 (blue-knight@A1 for a"
            " blue one), not {text}.",
            "bad_piece",
            text=echo(text),
        )
    colour, kind, star, at = m.groups()
    if kind not in PIECE_KINDS:
        raise NotationError(
            "{kind} is not a piece: {kinds}.",
            "no_such_kind",
            kind=echo(kind),
            kinds=Listed(PIECE_KINDS, "or"),
        )
    colours = load_content().mix.colours
    if colour is not None and colour not in colours:
        raise NotationError(
            "{colour} is not a colour: {colours}.",
            "no_such_colour",
            colour=echo(colour),
            colours=Listed(colours, "or"),
        )
    return Ref(kind, _location(at), bool(star), colour)


def _own(text: str) -> Ref:
    ref = _ref(text)
    if ref.colour is not None:
        raise NotationError(
            "Name your own piece without a colour: {fixed}.",
            "own_piece",
            fixed=str(Ref(ref.kind, ref.at, ref.cloaked)),
        )
    return ref


def _anyones(text: str) -> Ref:
    ref = _ref(text)
    if ref.colour is None:
        raise NotationError(
            "Name the piece with its colour, e.g. blue-{piece}.", "whose_piece", piece=text
        )
    return ref
