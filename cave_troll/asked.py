"""Actions as a command's options ask for them: one builder per kind of action, taking
each option as the text of its field and returning the action's value.

The bot's commands (`/cave move piece:knight@A1 to:A4`) build their action here rather
than writing notation to be read back: each field is read by the rule `parse_action`
reads it with (`cave_troll.actions`), a field that is one word of the notation must be
one word (an option cannot slip another word in), and the action's notation reads back
to the same value, `parse_action(str(a)) == a`.

    >>> move("knight@A1", "A4")
    Move(piece=Ref(kind='knight', at='A1', cloaked=False, colour=None), path=('A4',))
    >>> str(play("helm", "blue-orc@A7", "A4>A1"))
    'play helm blue-orc@A7 A4>A1'

A builder refuses a field it cannot read (`NotationError`); what the game's moment
refuses to an action of its kind comes first, so a command builds its action only once
the moment is checked (`cave_troll.engine.check_moment`; the bot hands the service the
kind and the builder together).
"""

from __future__ import annotations

from cave_troll.actions import (
    _WORD,
    MAX_ACTION_LENGTH,
    Draw,
    EndTurn,
    Flee,
    Kill,
    Move,
    Place,
    Play,
    PlayChalice,
    PlayCloak,
    PlayEldarra,
    PlayHelm,
    PlaySword,
    PlayWand,
    Push,
    Send,
    Stay,
    _anyones,
    _location,
    _own,
    _path_of,
    _room,
)
from cave_troll.content import ARTIFACTS, load_content
from cave_troll.errors import Listed, NotationError, echo


def word(text: str) -> str:
    """A field of one word of the notation (a place, a piece, a path, an artifact)."""
    if not isinstance(text, str):
        raise NotationError("An action must be text.")
    if len(text) > MAX_ACTION_LENGTH:
        raise NotationError(
            "An action is at most {limit} characters; this one has {length}.",
            "too_long",
            limit=MAX_ACTION_LENGTH,
            length=len(text),
        )
    if not text:
        raise NotationError("Empty action.", "empty")
    if not _WORD.match(text):
        raise NotationError("Unexpected characters in {word}.", "characters", word=echo(text))
    return text


def draw() -> Draw:
    return Draw()


def place(where: str) -> Place:
    """The token just drawn, on an entrance or in a room."""
    return Place(_location(word(where)))


def move(piece: str, to: str) -> Move:
    """One of your pieces (`knight@A1`) to a place, or the cloaked one along a path
    (`A4>A7`)."""
    return Move(_own(word(piece)), _path_of(word(to), load_content().text.cloak_steps))


def push(target: str, to: str) -> Push:
    """Your Wraith pushes `target` (`blue-explorer@A3`) out to `to`."""
    return Push(_anyones(word(target)), _location(word(to)))


def kill(target: str) -> Kill:
    """Your Orc discards `target` (`blue-explorer@A3`)."""
    return Kill(_anyones(word(target)))


def send(piece: str, to: str) -> Send:
    """One of your adventurers sent away by the Chalice."""
    return Send(_own(word(piece)), _location(word(to)))


def flee(piece: str, to: str) -> Flee:
    """One of your pieces flees a Cave Troll's room through a door."""
    return Flee(_own(word(piece)), _location(word(to)))


def stay() -> Stay:
    return Stay()


def end() -> EndTurn:
    return EndTurn()


def play(artifact: str, target: str | None = None, to: str | None = None) -> Play:
    """An artifact played on its target: the Helm on an opponent's piece with its path
    (`to`), the Cloak on one of your adventurers, the Chalice on a place, the Mark, the
    Wand and the Sword on a room."""
    name = word(artifact)
    if name not in ARTIFACTS:
        raise NotationError(
            "Name the artifact you play: {artifacts}.",
            "no_artifact",
            artifacts=Listed(ARTIFACTS, "or"),
        )
    if target is None:
        raise NotationError("Expected: {usage}", "usage", usage=USAGE[name])
    aim = word(target)
    if name == "helm":
        if to is None:
            raise NotationError("Expected: {usage}", "usage", usage=USAGE[name])
        return PlayHelm(_anyones(aim), _path_of(word(to), load_content().text.helm_steps))
    if name == "cloak":
        return PlayCloak(_own(aim))
    if name == "chalice":
        return PlayChalice(_location(aim))
    room = _room(aim)
    if name == "eldarra":
        return PlayEldarra(room)
    if name == "wand":
        return PlayWand(room)
    return PlaySword(room)


# what each artifact is played on, as `parse_action` asks for it
USAGE = {
    "helm": "play helm <colour-piece> <steps>, e.g. play helm blue-orc@A7 A4>A1",
    "cloak": "play cloak <piece>, e.g. play cloak explorer@A1",
    "chalice": "play chalice <entrance or room>, e.g. play chalice A1",
    "eldarra": "play eldarra <room>, e.g. play eldarra A5",
    "wand": "play wand <room>, e.g. play wand A5",
    "sword": "play sword <room>, e.g. play sword A5",
}
