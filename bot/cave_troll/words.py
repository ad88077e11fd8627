"""Cave Troll's words put into sentences, in the reader's language: a piece of a colour
("Blue Knight"), a token, an artifact, gold, and an engine's sentence (a refusal's
template and the values of its fields) told with every word of the game named.

The words themselves are the game's vocabulary, `render.cave_troll.words` (a post and
its picture name them alike); the colours and lists are the table's (`bot.words`). A
leaf: plain values in, text out.

    >>> piece("blue", "knight"), told("{piece} is here.", {"piece": "x"})
    ('Blue Knight', 'x is here.')
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n.catalogue import ENGLISH, Messages
from bot.words import colour_name, either_in, listed_in
from cave_troll.content import ARTIFACTS
from cave_troll.errors import Listed, Named
from render.cave_troll.words import artifact_name, gold, kind_name
from render.words import C_

# TRANSLATORS: a Cave Troll piece of a player's colour, "Blue Knight" (Polish may write
# "Rycerz (niebieski)")
PIECE_OF = C_("cave troll piece of a colour", "{colour} {piece}")


def piece(colour: str, kind: str, messages: Messages = ENGLISH) -> str:
    """A piece of a colour: "Blue Knight" (a Mark of El'darra on the board too)."""
    name = artifact_name(kind, messages) if kind in ARTIFACTS else kind_name(kind, messages)
    return messages.pgettext(*PIECE_OF, colour=colour_name(colour, messages), piece=name)


def gained(colour: str, amount: int, messages: Messages = ENGLISH) -> str:
    """ "Blue +7 gold"."""
    # TRANSLATORS: what a colour gained at a count of the loot: "Blue +7 gold"
    return messages.pgettext(
        "cave troll",
        "{colour} +{gold}",
        colour=colour_name(colour, messages),
        gold=gold(amount, messages),
    )


def said(value: object, messages: Messages = ENGLISH) -> str:
    """A value that fills a field of an engine's sentence, in the reader's language:
    the game's words by the catalogue, places and notation as they are."""
    if isinstance(value, Named):
        if value.kind == "artifact":
            return artifact_name(value.id, messages)
        if value.kind == "colour":
            return colour_name(value.id, messages)
        return kind_name(value.id, messages)
    if isinstance(value, Listed):
        items = [said(i, messages) for i in value.items]
        if value.conjunction == "or":
            return either_in(items, messages)
        return listed_in(items, messages)
    return str(value)


def told(template: str, params: Mapping[str, object], messages: Messages = ENGLISH) -> str:
    """An engine's sentence (a template and the values of its fields) in the reader's
    language; English where the catalogue lacks it."""
    return messages.gettext(template, **{k: said(v, messages) for k, v in params.items()})
