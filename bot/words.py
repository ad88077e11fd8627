"""The table's words in the reader's language: lists ("a, b and c", "a, b or c") and a
seat's colour by name. Every game's texts use them. The game's words are its one
vocabulary (`render.words`); a seat's colour is that vocabulary's `colour_name`, named
here for the table.

A leaf: plain values in, text out.

    >>> listed_in(["a", "b", "c"]), colour_name("blue")
    ('a, b and c', 'Blue')
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n.catalogue import ENGLISH, Messages
from render.words import colour_name as colour_name


def listed_in(items: Sequence[str], messages: Messages = ENGLISH) -> str:
    """ "a, b and c" in the reader's language."""
    if len(items) <= 1:
        return "".join(items)
    # TRANSLATORS: the end of a list: "{items}" is "a, b", "{last}" is "c"
    return messages.gettext("{items} and {last}", items=", ".join(items[:-1]), last=items[-1])


def either_in(items: Sequence[str], messages: Messages = ENGLISH) -> str:
    """ "a, b or c" in the reader's language."""
    if len(items) <= 1:
        return "".join(items)
    # TRANSLATORS: the end of a list of choices: "{items}" is "a, b", "{last}" is "c"
    return messages.gettext("{items} or {last}", items=", ".join(items[:-1]), last=items[-1])
