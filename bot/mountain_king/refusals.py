"""The Mountain King's refusals: the table's (`bot.refusals`) with the game's words
named in the reader's language (a clan, a resource, a tier, a spell: `words.told`)."""

from __future__ import annotations

from bot import refusals
from bot.i18n.catalogue import ENGLISH, Messages
from bot.mountain_king.words import told


def refusal_text(error: Exception, messages: Messages = ENGLISH) -> str:
    """What a refused player reads, in the reader's language (`bot.refusals`)."""
    return refusals.refusal_text(error, messages, told)


def refusal_clause(error: Exception, messages: Messages = ENGLISH) -> str:
    """The refusal told after a colon in another sentence (`bot.refusals`)."""
    return refusals.refusal_clause(error, messages, told)
