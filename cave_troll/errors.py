"""The refusals of the Cave Troll engine: one base class, `CaveTrollError`, a
`ValueError` with a short machine `code` and a sentence a player understands.

The sentence is a template with named `{fields}` and the values that fill them
(`params`), as in `rules.errors`: `str(error)` is the English sentence, and a bot can
tell the same refusal in another language from the template and the values. A value
that is a word of the game (a piece, an artifact, a colour) is given as `Named`, so it
can be named in the reader's language; a list as `Listed`.

    >>> error = IllegalActionError("{room} is full.", "full", room="A7")
    >>> str(error), error.code, error.template, error.params
    ('A7 is full.', 'full', '{room} is full.', {'room': 'A7'})

What a player typed is quoted back with `echo`, at most `ECHO_LIMIT` characters.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

# the longest a player's own words are quoted back in a refusal, quotes and "…" included
ECHO_LIMIT = 60


def echo(text: object) -> str:
    """What a player typed, quoted back: in quotes (unprintable characters escaped), at
    most `ECHO_LIMIT` characters, a longer text cut where "…" stands.

    >>> echo("Z9"), len(echo("x" * 300)), echo("x" * 300)[-3:]
    ("'Z9'", 60, "x…'")
    """
    quoted = repr(str(text))
    if len(quoted) <= ECHO_LIMIT:
        return quoted
    return quoted[: ECHO_LIMIT - 2] + "…" + quoted[-1]


@dataclass(frozen=True, slots=True)
class Named:
    """A word of the game by its id: a `piece` kind, an `artifact`, a `colour`, a
    `token`. `english` is how the English sentence says it."""

    kind: str
    id: str
    english: str

    def __str__(self) -> str:
        return self.english


@dataclass(frozen=True, slots=True)
class Listed:
    """Items in a sentence: "a, b and c" ("or": "a, b or c")."""

    items: tuple[object, ...]
    conjunction: Literal["and", "or"] = "and"

    def __str__(self) -> str:
        words = [str(i) for i in self.items]
        if len(words) <= 1:
            return "".join(words)
        return ", ".join(words[:-1]) + f" {self.conjunction} " + words[-1]


def filled(template: str, params: Mapping[str, object]) -> str:
    """The template with its fields filled in English."""
    return template.format(**{k: str(v) for k, v in params.items()}) if params else template


class CaveTrollError(ValueError):
    """Base class: something asked of the engine cannot be done."""

    code = "rules"

    def __init__(self, message: str, code: str | None = None, /, **params: object) -> None:
        text = filled(message, params)
        super().__init__(text[:1].upper() + text[1:])
        if code is not None:
            self.code = code
        self.template = message
        self.params: dict[str, object] = params

    @property
    def message(self) -> str:
        return str(self.args[0])


class NotationError(CaveTrollError):
    """A text action (or a record) could not be read."""

    code = "notation"


class ConfigError(CaveTrollError):
    """Game options that do not make a valid game."""

    code = "config"


class IllegalActionError(CaveTrollError):
    """A well-formed action the rules do not allow now."""

    code = "illegal"


class NotYourTurnError(IllegalActionError):
    code = "not_your_turn"


class GameOverError(IllegalActionError):
    code = "game_over"


class UndoError(CaveTrollError):
    code = "undo"


@dataclass(frozen=True, slots=True)
class Refusal:
    """A refusal not yet raised: what a check returns (cheap to make when the legal
    listing checks many possibilities); `error()` is the exception to raise."""

    template: str
    code: str
    params: Mapping[str, object]
    of: type[CaveTrollError]

    def error(self) -> CaveTrollError:
        return self.of(self.template, self.code, **self.params)

    def __str__(self) -> str:
        return str(self.error())


def refuse(
    template: str, code: str, /, of: type[CaveTrollError] | None = None, **params: object
) -> Refusal:
    """A `Refusal` (an `IllegalActionError` unless `of` says otherwise)."""
    return Refusal(template, code, params, of or IllegalActionError)


class RecordError(NotationError):
    """A game record that is too large, not JSON or not of the expected shape."""

    code = "record"


# the refusals a player reads: the first argument of each of these calls is a template
# of the message catalogue (`python -m bot.catalogue extract` finds them by name)
TOLD_TO_PLAYERS = (
    "CaveTrollError",
    "NotationError",
    "ConfigError",
    "IllegalActionError",
    "NotYourTurnError",
    "GameOverError",
    "UndoError",
    "RecordError",
    "refuse",
)
