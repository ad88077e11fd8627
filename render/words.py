"""The words on the images, in the game's language.

render/ does not read the message catalogue itself (it imports nothing of the bot):
each image function takes the texts of a language, any object with gettext,
ngettext and pgettext (`bot.i18n.Messages` is one), and draws English without one.
Every word drawn comes from those three calls, so `python -m bot.catalogue extract` finds
the messages here (render/ is one of its sources) and the game's content (clan,
workshop, spell and great hall names, spell texts, tier names) in `rules/data`.

The letters that mark players and clans on the board are translated too (each
language picks the initials of its own colour and clan words, all different); the
resource letters (S, I, H...) are symbols on the icons and stay as they are.

    >>> workshop_name(ENGLISH, "toolforge"), player_letter(ENGLISH, "white")
    ('Toolforge', 'W')
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Protocol

from rules.content import load_content
from rules.mountain import TIER_NAMES

# the catalogue's context of each kind of name the game's content gives
CLAN = "clan"
WORKSHOP = "workshop"
SPELL = "spell"
SPELL_TEXT = "spell text"
GREAT_HALL = "great hall"
TIER = "tier"
# where each kind comes from: the catalogue's extraction reads these
CONTENT_CONTEXTS = (CLAN, WORKSHOP, SPELL, SPELL_TEXT, GREAT_HALL, TIER)


class Translator(Hashable, Protocol):
    """The texts of one language: the message, filled with its `{named}` fields (and
    hashable: the images cache what they draw by language)."""

    def gettext(self, message: str, /, **params: object) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str: ...

    def pgettext(self, context: str, message: str, /, **params: object) -> str: ...


class English:
    """The messages as written (the source language needs no catalogue)."""

    def gettext(self, message: str, /, **params: object) -> str:
        return message.format(**params) if params else message

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        return self.gettext(singular if n == 1 else plural, **params)

    def pgettext(self, context: str, message: str, /, **params: object) -> str:
        return self.gettext(message, **params)


ENGLISH: Translator = English()


def C_(context: str, message: str) -> tuple[str, str]:
    """Mark a message and its context for the catalogue (`python -m bot.catalogue extract`
    knows this marker); it is translated where it is drawn or told: `t.pgettext(*marked)`.
    The bot's texts have their own under the same name (`bot.i18n.catalogue.C_`)."""
    return context, message


# the players' colours as words (the same entries as the bot's texts)
COLOURS = {
    "blue": C_("colour", "Blue"),
    "orange": C_("colour", "Orange"),
    "green": C_("colour", "Green"),
    "magenta": C_("colour", "Magenta"),
    "white": C_("colour", "White"),
}
PLAYER_LETTERS = {
    # TRANSLATORS: one capital letter marks each player on the board (gates, tunnels,
    # chips): the initial of the colour's word where it can be; the five must differ
    "blue": C_("player letter", "B"),
    "orange": C_("player letter", "O"),
    "green": C_("player letter", "G"),
    "magenta": C_("player letter", "M"),
    "white": C_("player letter", "W"),
}
CLAN_LETTERS = {
    # TRANSLATORS: one capital letter marks each clan's statues, pedestals and clan
    # carts: the initial of the clan's name where it can be; the four must differ
    "mud": C_("clan letter", "U"),
    "fire": C_("clan letter", "F"),
    "ice": C_("clan letter", "I"),
    "moon": C_("clan letter", "M"),
}
WORKSHOP_SHORT = {
    # TRANSLATORS: a workshop's name cut to about 4 letters, on a board cell 56 px wide
    # (the footer under the board gives the full names)
    "cartwright": C_("workshop on the board", "Cart"),
    "charmcrafter": C_("workshop on the board", "Chrm"),
    "coinpress": C_("workshop on the board", "Coin"),
    "metalworks": C_("workshop on the board", "Metl"),
    "pickforge": C_("workshop on the board", "Pick"),
    "quartermaster": C_("workshop on the board", "Qtr"),
    "runesmithy": C_("workshop on the board", "Rune"),
    "stonegrinder": C_("workshop on the board", "Grnd"),
    "stonemill": C_("workshop on the board", "Mill"),
    "toolforge": C_("workshop on the board", "Tool"),
    "wheeljack": C_("workshop on the board", "Whl"),
}
HALL_SHORT = {
    # TRANSLATORS: a great hall's initials (up to 3 letters) on its cell of the board;
    # the six must differ
    "shamans-lodge": C_("great hall on the board", "SL"),
    "crucible": C_("great hall on the board", "C"),
    "rift": C_("great hall on the board", "R"),
    "trove": C_("great hall on the board", "T"),
    "stonemasons-house": C_("great hall on the board", "SH"),
    "great-forge": C_("great hall on the board", "GF"),
}


def colour_name(t: Translator, colour: str) -> str:
    """A player's colour as a word: "Blue"."""
    return t.pgettext(*COLOURS[colour])


def player_letter(t: Translator, colour: str) -> str:
    """The letter that marks a player's gates, tunnels and chip."""
    return t.pgettext(*PLAYER_LETTERS[colour])


def clan_letter(t: Translator, clan: str) -> str:
    """The letter on a clan's statues, pedestals and clan carts."""
    return t.pgettext(*CLAN_LETTERS[clan])


def clan_name(t: Translator, clan: str) -> str:
    return t.pgettext(CLAN, _content_name(CLAN, clan))


def workshop_name(t: Translator, workshop: str) -> str:
    return t.pgettext(WORKSHOP, load_content().workshop(workshop).name)


def workshop_short(t: Translator, workshop: str) -> str:
    """A workshop's name cut to fit its plate on a board cell."""
    return t.pgettext(*WORKSHOP_SHORT[workshop]) if workshop in WORKSHOP_SHORT else "?"


def spell_name(t: Translator, spell: str) -> str:
    return t.pgettext(SPELL, load_content().spell(spell).name)


def spell_text(t: Translator, spell: str) -> str:
    return t.pgettext(SPELL_TEXT, load_content().spell(spell).text)


def hall_name(t: Translator, hall: str) -> str:
    return t.pgettext(GREAT_HALL, _content_name(GREAT_HALL, hall))


def hall_short(t: Translator, hall: str) -> str:
    """A great hall's initials, on one of its cells."""
    return t.pgettext(*HALL_SHORT[hall]) if hall in HALL_SHORT else "?"


def tier_name(t: Translator, tier: int) -> str:
    """The rulebook's name of tier 1-5 (its colour: "dark gray"... "yellow")."""
    return t.pgettext(TIER, TIER_NAMES[tier - 1])


def content_names() -> dict[str, list[str]]:
    """Every name and text of the game's content an image may show, by the context
    it is translated in (what `python -m bot.catalogue extract` puts in the catalogue)."""
    content = load_content()
    return {
        CLAN: [c.name for c in content.clans],
        WORKSHOP: [w.name for w in content.workshops],
        SPELL: [s.name for s in content.spells],
        SPELL_TEXT: [s.text for s in content.spells],
        GREAT_HALL: [h.name for h in content.halls],
        TIER: list(TIER_NAMES),
    }


def _content_name(kind: str, key: str) -> str:
    content = load_content()
    if kind == CLAN:
        return next(c.name for c in content.clans if c.id == key)
    return next(h.name for h in content.halls if h.id == key)
