"""The errors the engine raises. All of them are `ValueError`s with a sentence a player
understands and a short machine `code` the bot and tests can match on.

The sentence is a template with named `{fields}` and the values that fill them
(`params`), like a message of a gettext catalogue: `str(error)` is the English sentence,
and the bot tells the same refusal in the reader's language from the template and the
values (`bot.refusals`). So a template is always a plain string literal at the place it
is raised (the bot's catalogue finds it there), never an f-string.

A value that is a word of the game, not a literal (a clan, a resource, a tier, a
spell's name), is given as what it is (`Resource`, `Clan`, `Named`), so the bot can
name it in the reader's language; a list as `Listed`, resources counted as `Amounts`,
and a part of a sentence with its own words as a `Phrase`.

    >>> error = IllegalActionError("{cell} is already dug.", "occupied", "F7")
    >>> str(error), error.template, error.params
    ('F7 is already dug.', '{cell} is already dug.', {'cell': 'F7'})

What a player typed is quoted back with `echo`, the one place that cuts it short (the
bot's refusals use it too), and a refusal told inside another sentence (after a colon,
in brackets) begins in lower case (`clause`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

# the longest a player's own words are quoted back in a refusal, quotes and "…" included
ECHO_LIMIT = 60


def echo(text: object) -> str:
    """What a player typed, quoted back in a refusal: in quotes (unprintable characters
    escaped), and at most `ECHO_LIMIT` characters, a longer text cut where "…" stands.

    >>> echo("Z99"), echo("x" * 300)[-4:], len(echo("x" * 300))
    ("'Z99'", "xx…'", 60)
    """
    quoted = repr(str(text))
    if len(quoted) <= ECHO_LIMIT:
        return quoted
    return quoted[: ECHO_LIMIT - 2] + "…" + quoted[-1]


# a sentence's first word, letters only, where it is a whole word (not the F of F7)
_FIRST_WORD = re.compile(r"[^\W\d_]+(?![\w{])")


def clause(template: str, text: str) -> str:
    """`text`, a sentence made from `template`, told inside another sentence (after a
    colon): its first letter in lower case when the template begins with an ordinary
    word. A template that begins with a field or a name of the game ("{spell} is ...",
    "F7 is ...") is left as it is.

    >>> clause("There is no tunnel tile {shape}.", "There is no tunnel tile 'X9'.")
    "there is no tunnel tile 'X9'."
    >>> clause("Expected: {usage}", "Expected: dig <tile>")
    'expected: dig <tile>'
    >>> clause("{cell} is already dug.", "F7 is already dug.")
    'F7 is already dug.'
    >>> clause("F7 is {what}.", "F7 is dug.")
    'F7 is dug.'
    """
    word = _FIRST_WORD.match(template)
    if word is None or not word[0][:1].isupper() or word[0][1:] != word[0][1:].lower():
        return text
    return text[:1].lower() + text[1:]


@dataclass(frozen=True, slots=True)
class Named:
    """A word of the game by its id, named in the reader's language by the bot: a
    `tier` (1-5), a `spell`, `workshop`, `hall` or `side` (by id), a seat's `colour`,
    a `piece` on the board, a produce `symbol` (`fire-cart`). `english` is how the
    English sentence says it."""

    kind: str
    id: str
    english: str

    def __str__(self) -> str:
        return self.english


@dataclass(frozen=True, slots=True)
class Listed:
    """Items in a sentence: "a, b and c" ("or": "a, b or c"; ",": "a, b, c")."""

    items: tuple[object, ...]
    conjunction: Literal["and", "or", ","] = "and"

    def __str__(self) -> str:
        words = [str(i) for i in self.items]
        if self.conjunction == "," or len(words) <= 1:
            return ", ".join(words)
        return ", ".join(words[:-1]) + f" {self.conjunction} " + words[-1]


@dataclass(frozen=True, slots=True)
class Amounts:
    """Resources with a count each, in order: (resource id, count); the id None is
    any resource. English: "2 stone, 1 resource, 22 resources" (stone, iron and
    heartstone are masses; the others are counted)."""

    counts: tuple[tuple[str | None, int], ...]

    def __str__(self) -> str:
        return ", ".join(_english_amount(name or "resource", n) for name, n in self.counts)


def _english_amount(name: str, count: int) -> str:
    mass = name in ("stone", "iron", "heartstone")
    return f"{count} {name}" if mass or count == 1 else f"{count} {name}s"


@dataclass(frozen=True, slots=True)
class Phrase:
    """A part of a sentence told from its own template: what a payment is for ("the
    trade"), why a spell's choice is refused. Its template is marked where it is
    written, as a refusal's is. `inner`: a whole refusal told inside another sentence
    (`rules.spell_effects.refused`), in lower case and without its full stop."""

    template: str
    params: Mapping[str, object] = field(default_factory=dict)
    inner: bool = False

    def __str__(self) -> str:
        return self.told(filled(self.template, self.params), self.template)

    def told(self, text: str, template: str) -> str:
        """`text`, this phrase filled from `template` (in any language), as it stands
        in the sentence that holds it."""
        return clause(template, text).removesuffix(".") if self.inner else text


def filled(template: str, params: Mapping[str, object]) -> str:
    """The template with its fields filled in English."""
    return template.format(**{k: str(v) for k, v in params.items()}) if params else template


class RulesError(ValueError):
    """Base class: something asked of the engine cannot be done. `template` and
    `params` make the sentence (see the module's docstring); `cell` is the board cell
    the problem is at, when there is one (a `{cell}` of the template, if not given)."""

    code = "rules"
    cell: str | None = None  # the board cell the problem is at, when there is one

    def __init__(
        self, message: str, code: str | None = None, cell: str | None = None, /, **params: object
    ) -> None:
        if cell is not None:
            params.setdefault("cell", cell)
        text = filled(message, params)
        # a sentence starts with a capital, whatever fills its first field ("the trade")
        super().__init__(text[:1].upper() + text[1:])
        if code is not None:
            self.code = code
        self.cell = cell
        self.template = message
        self.params: dict[str, object] = params

    @property
    def message(self) -> str:
        return str(self.args[0])


class NotationError(RulesError):
    """A text action (or record) could not be parsed."""

    code = "notation"


class ConfigError(RulesError):
    """Game options that do not make a valid game."""

    code = "config"


class IllegalActionError(RulesError):
    """A well-formed action the rules do not allow now."""

    code = "illegal"


class NotYourTurnError(IllegalActionError):
    code = "not_your_turn"


class GameOverError(IllegalActionError):
    code = "game_over"


class UndoError(RulesError):
    code = "undo"


class RecordError(NotationError):
    """A game record (file or JSON) that is too large, too deep, not UTF-8 or not of
    the expected shape (told to whoever loads it: the host, not a player)."""

    code = "record"


# the classes whose first argument is a template of the bot's catalogue
TOLD_TO_PLAYERS = (
    "RulesError",
    "NotationError",
    "ConfigError",
    "IllegalActionError",
    "NotYourTurnError",
    "GameOverError",
    "UndoError",
    "Refusal",
    "Phrase",
)
