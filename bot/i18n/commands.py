"""The slash commands in the players' languages: Discord shows each command, option and
choice under the name and description of the client's language, when the bot syncs
them with localizations. discord.py asks the tree's `app_commands.Translator` for each
string in each Discord locale; this one answers from the message catalogue.

Each kind of string has its own context in the catalogue ("command name", "option
description"...), so a name never shares a translation with a sentence, and a
translator sees that a name must stay one lower-case word.
"""

from __future__ import annotations

import logging
import unicodedata

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n.catalogue import language_of, translator_for

log = logging.getLogger(__name__)

# the catalogue's context of each place a command's text stands
CONTEXTS: dict[Where, str] = {
    Where.command_name: "command name",
    Where.group_name: "command name",
    Where.command_description: "command description",
    Where.group_description: "command description",
    Where.parameter_name: "option name",
    Where.parameter_description: "option description",
    Where.choice_name: "choice",
}
NAMES = frozenset({"command name", "option name"})
# Discord's limits for command and option names, descriptions and choice names
NAME_LIMIT = 32
DESCRIPTION_LIMIT = 100
CHOICE_LIMIT = 100
# the Discord locales whose clients get the translations, by catalogue language
LOCALES: dict[str, tuple[discord.Locale, ...]] = {
    "pl": (discord.Locale.polish,),
    "es": (discord.Locale.spain_spanish, discord.Locale.latin_american_spanish),
}


def valid_name(name: str) -> bool:
    """Whether Discord takes this as a command or option name: 1-32 characters, each a
    letter, a digit, `-` or `_` (Devanagari and Thai marks too), in lower case where
    the letter has a case (`^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`).

    >>> valid_name("cokół"), valid_name("reminder_hours"), valid_name("Mk"), valid_name("a b")
    (True, True, False, False)
    """
    return 0 < len(name) <= NAME_LIMIT and name == name.lower() and all(map(_name_char, name))


class CommandTranslator(app_commands.Translator):
    """Command names, descriptions and choices from the message catalogue, for the
    Polish and Spanish clients (English is the commands' own text)."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = language_of(locale)
        if locale not in LOCALES.get(language, ()):
            return None
        where = CONTEXTS.get(context.location)
        if where is None:
            return None
        text = translator_for(language).lookup(string.message, where)
        if text is not None and where in NAMES and not valid_name(text):
            # Discord would refuse the whole sync: keep the English name instead
            log.error("the %s name %r is not a valid command name: %r", language, string, text)
            return None
        return text


def _name_char(char: str) -> bool:
    if char in "-_":
        return True
    if unicodedata.category(char)[0] in "LN":
        return True
    name = unicodedata.name(char, "")
    return name.startswith(("DEVANAGARI", "THAI"))
