"""The game's words in the reader's language: the one vocabulary of the Mountain King,
for its images (render/) and its face in the bot (`bot.mountain_king`) alike. A post
and its picture name a colour, a clan, a workshop, a spell, a great hall or a tier
with the same entry of the catalogue.

Every function takes the value first and the texts of a language second,
`(value, messages)`: any object with gettext, ngettext, pgettext and npgettext
(`Translator`; `bot.i18n.Messages` is one), English without one. Each word in each
grammatical use is its own message of the catalogue (a context says which), so a
language with cases or genders writes each as it must: a resource named ("stone"),
counted ("2 stone") or counted as the object of a verb (Polish "1 monetę"), the mineral
a tunnel is dug with (Polish "z kamienia"), a clan on a troll card ("Fire") or as in "a
Fire troll" (Polish "troll Ognia"), a tier named alone ("dark gray", the legend) or as
in "on the orange tier" (Polish "na obszarze pomarańczowym"). Counts go through the
catalogue's plural forms (three in Polish).

Here too is the one marker of a message with its context, `C_` (and `NC_`, counted):
render/ may import nothing of the bot, and the bot's catalogue (`bot.i18n`) nothing of
the project, so the marker lives with the words that use it, and the bot's face imports
it from here (`python -m bot.catalogue extract` knows the marker by its name). The
game's content (clan, workshop, spell and great hall names, spell and workshop texts,
the tiers' colours of `rules.mountain.TIER_NAMES`) is written in `rules/`:
`content_names` lists it for the catalogue's extraction.

The letters that mark players and clans on the board are translated too (each
language picks the initials of its own colour and clan words, all different); the
resource letters (S, I, H...) are symbols on the icons and stay as they are.

    >>> workshop_name("toolforge"), player_letter("white"), amount(Resource.COIN, 3)
    ('Toolforge', 'W', '3 coins')
    >>> clan_of(Clan.FIRE), a_clan(Clan.ICE), tier_name(1), colour_name("blue")
    ('Fire', 'an Ice', 'dark gray', 'Blue')
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import cache
from typing import Protocol

from rules.content import load_content
from rules.errors import Named
from rules.mountain import TIER_NAMES
from rules.resources import Clan, Resource, parse_symbol

# a message with its context, and one with its plural form too (`C_`, `NC_`)
InContext = tuple[str, str]
Counted = tuple[str, str, str]


def C_(context: str, message: str) -> InContext:
    """Mark a message with its context for the catalogue (one word in one grammatical
    use, one sentence in one voice), translated where it is drawn or told:
    `messages.pgettext(*marked)`."""
    return (context, message)


def NC_(context: str, singular: str, plural: str) -> Counted:
    """Mark a counted message with its context for the catalogue, translated where it
    is told: `messages.npgettext(*marked, n)`."""
    return (context, singular, plural)


class Translator(Hashable, Protocol):
    """The texts of one language: the message, filled with its `{named}` fields (and
    hashable: the images cache what they draw by language)."""

    def gettext(self, message: str, /, **params: object) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str: ...

    def pgettext(self, context: str, message: str, /, **params: object) -> str: ...

    def npgettext(
        self, context: str, singular: str, plural: str, n: int, /, **params: object
    ) -> str: ...


class English:
    """The messages as written (the source language needs no catalogue)."""

    def gettext(self, message: str, /, **params: object) -> str:
        return message.format(**params) if params else message

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        return self.gettext(singular if n == 1 else plural, **params)

    def pgettext(self, context: str, message: str, /, **params: object) -> str:
        return self.gettext(message, **params)

    def npgettext(
        self, context: str, singular: str, plural: str, n: int, /, **params: object
    ) -> str:
        return self.ngettext(singular, plural, n, **params)


ENGLISH: Translator = English()

# the catalogue's context of each kind of name and text the game's content gives
CLAN = "clan"
WORKSHOP = "workshop"
WORKSHOP_TEXT = "workshop text"
SPELL = "spell"
SPELL_TEXT = "spell text"
GREAT_HALL = "great hall"
TIER = "tier"
TIER_IN_SENTENCE = "tier, as in on the orange tier"


# --- the players' colours and the board's letters ------------------------------------

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


def colour_name(colour: str, messages: Translator = ENGLISH) -> str:
    """A seat's colour as a word, capitalised: "Blue" (a label that is no colour of the
    game as it is, capitalised: the colour stays the seat's label in commands and
    notation)."""
    marked = COLOURS.get(colour.lower())
    return messages.pgettext(*marked) if marked else colour[:1].upper() + colour[1:]


def player_letter(colour: str, messages: Translator = ENGLISH) -> str:
    """The letter that marks a player's gates, tunnels and chip."""
    return messages.pgettext(*PLAYER_LETTERS[colour])


def clan_letter(clan: str, messages: Translator = ENGLISH) -> str:
    """The letter on a clan's statues, pedestals and clan carts."""
    return messages.pgettext(*CLAN_LETTERS[clan])


# --- resources -----------------------------------------------------------------------

# TRANSLATORS: a resource named alone, as a list of what a troll makes shows it
_NAMES: dict[Resource, InContext] = {
    Resource.STONE: C_("resource", "stone"),
    Resource.IRON: C_("resource", "iron"),
    Resource.HEARTSTONE: C_("resource", "heartstone"),
    Resource.COIN: C_("resource", "coin"),
    Resource.CART: C_("resource", "cart"),
    Resource.HAMMER: C_("resource", "hammer"),
    Resource.RUNE: C_("resource", "rune"),
}

# TRANSLATORS: a number of a resource, as the subject of a sentence or after a colon
# ("it needs: 2 stone"). English counts stone, iron and heartstone as masses; give
# every plural form your language has, as it counts pieces (Polish "1 kamień, 2
# kamienie, 5 kamieni", "1 żelazo, 2 żelaza, 5 żelaz"; Spanish "1 piedra, 2 piedras")
_AMOUNTS: dict[Resource | None, Counted] = {
    Resource.STONE: NC_("amount", "{count} stone", "{count} stone"),
    Resource.IRON: NC_("amount", "{count} iron", "{count} iron"),
    Resource.HEARTSTONE: NC_("amount", "{count} heartstone", "{count} heartstone"),
    Resource.COIN: NC_("amount", "{count} coin", "{count} coins"),
    Resource.CART: NC_("amount", "{count} cart", "{count} carts"),
    Resource.HAMMER: NC_("amount", "{count} hammer", "{count} hammers"),
    Resource.RUNE: NC_("amount", "{count} rune", "{count} runes"),
    None: NC_("amount", "{count} resource", "{count} resources"),
}
# TRANSLATORS: a number of a resource as the object of a verb ("traded 4 stone for 1
# coin", Polish accusative: "1 monetę", "1 runę", "4 kamienie"), every plural form
_OBJECTS: dict[Resource, Counted] = {
    Resource.STONE: NC_("amount, as an object", "{count} stone", "{count} stone"),
    Resource.IRON: NC_("amount, as an object", "{count} iron", "{count} iron"),
    Resource.HEARTSTONE: NC_("amount, as an object", "{count} heartstone", "{count} heartstone"),
    Resource.COIN: NC_("amount, as an object", "{count} coin", "{count} coins"),
    Resource.CART: NC_("amount, as an object", "{count} cart", "{count} carts"),
    Resource.HAMMER: NC_("amount, as an object", "{count} hammer", "{count} hammers"),
    Resource.RUNE: NC_("amount, as an object", "{count} rune", "{count} runes"),
}
# TRANSLATORS: the mineral a tunnel is dug with, with English's article: "a stone N5
# tunnel", "an iron I2 tunnel" (Polish "tunel N5 z kamienia", Spanish "un túnel N5 de
# piedra": the article, if your language has one, is in the sentence)
_MINERALS: dict[Resource, InContext] = {
    Resource.STONE: C_("mineral of a tunnel", "a stone"),
    Resource.IRON: C_("mineral of a tunnel", "an iron"),
    Resource.HEARTSTONE: C_("mineral of a tunnel", "a heartstone"),
}


def resource_name(resource: Resource, messages: Translator = ENGLISH) -> str:
    return messages.pgettext(*_NAMES[resource])


def amount(resource: Resource | None, count: int, messages: Translator = ENGLISH) -> str:
    """ "2 stone", "3 coins" (None: any resource, "2 resources")."""
    return messages.npgettext(*_AMOUNTS[resource], count, count=count)


def amount_object(resource: Resource, count: int, messages: Translator = ENGLISH) -> str:
    """ "1 coin" as the object of a verb (Polish "1 monetę")."""
    return messages.npgettext(*_OBJECTS[resource], count, count=count)


def mineral_of(mineral: Resource, messages: Translator = ENGLISH) -> str:
    if mineral not in _MINERALS:
        return resource_name(mineral, messages)
    return messages.pgettext(*_MINERALS[mineral])


def symbol_name(symbol: str, messages: Translator = ENGLISH) -> str:
    """A produce symbol named alone: "coin", "Fire cart"."""
    resource, clan = parse_symbol(symbol)
    if clan is None:
        return resource_name(resource, messages)
    # TRANSLATORS: a clan cart, held on a troll of that clan: "Fire cart"
    return messages.gettext("{clan} cart", clan=clan_of(clan, messages))


# --- clans ---------------------------------------------------------------------------

# TRANSLATORS: a clan as in "a Fire troll", "a Fire statue", "a Fire pedestal" (Polish
# "troll Ognia": the genitive; Spanish "un trol de Fuego": the name after "de")
_CLANS: dict[Clan, InContext] = {
    Clan.MUD: C_("clan, as in a Fire troll", "Mud"),
    Clan.FIRE: C_("clan, as in a Fire troll", "Fire"),
    Clan.ICE: C_("clan, as in a Fire troll", "Ice"),
    Clan.MOON: C_("clan, as in a Fire troll", "Moon"),
}


# TRANSLATORS: a clan with English's indefinite article, as in "an Ice troll", "a Fire
# statue" (translate as the clan above: the article, if your language has one, is in
# the sentence)
_A_CLANS: dict[Clan, InContext] = {
    Clan.MUD: C_("clan with a or an, as in an Ice troll", "a Mud"),
    Clan.FIRE: C_("clan with a or an, as in an Ice troll", "a Fire"),
    Clan.ICE: C_("clan with a or an, as in an Ice troll", "an Ice"),
    Clan.MOON: C_("clan with a or an, as in an Ice troll", "a Moon"),
}


def clan_name(clan: str, messages: Translator = ENGLISH) -> str:
    """A clan's name alone, as a troll card of the images shows it: "Fire"."""
    return _content_word(CLAN, clan, messages)


def clan_of(clan: Clan, messages: Translator = ENGLISH) -> str:
    """A clan as in "a Fire troll" (Polish "troll Ognia")."""
    return messages.pgettext(*_CLANS[clan])


def a_clan(clan: Clan, messages: Translator = ENGLISH) -> str:
    """The clan after English's indefinite article: "an Ice" (troll), "a Fire"
    (statue)."""
    return messages.pgettext(*_A_CLANS[clan])


# --- the game's content --------------------------------------------------------------


def workshop_name(workshop: str, messages: Translator = ENGLISH) -> str:
    """A workshop's name (an unknown workshop's id as it is)."""
    return _content_word(WORKSHOP, workshop, messages)


def workshop_short(workshop: str, messages: Translator = ENGLISH) -> str:
    """A workshop's name cut to fit its plate on a board cell."""
    return _short(WORKSHOP_SHORT, workshop, messages)


def workshop_text(workshop: str, messages: Translator = ENGLISH) -> str:
    """What a workshop does, as its tile says it ("" for an unknown workshop)."""
    return _content_word(WORKSHOP_TEXT, workshop, messages, unknown="")


def spell_name(spell: str, messages: Translator = ENGLISH) -> str:
    """A spell's name, as its card in the market image names it (an unknown spell's id
    as it is)."""
    return _content_word(SPELL, spell, messages)


def spell_text(spell: str, messages: Translator = ENGLISH) -> str:
    """What a spell does, as its card says it."""
    return _content_word(SPELL_TEXT, spell, messages, unknown="")


def hall_name(hall: str, messages: Translator = ENGLISH) -> str:
    """A great hall's name (an unknown hall's id as it is)."""
    return _content_word(GREAT_HALL, hall, messages)


def hall_short(hall: str, messages: Translator = ENGLISH) -> str:
    """A great hall's initials, on one of its cells."""
    return _short(HALL_SHORT, hall, messages)


def _short(marks: dict[str, InContext], key: str, messages: Translator) -> str:
    """A name cut short for a board cell ("?" for a key without one)."""
    return messages.pgettext(*marks[key]) if key in marks else "?"


# --- the mountain's tiers, sides and pieces ------------------------------------------


def tier_name(tier: int, messages: Translator = ENGLISH) -> str:
    """A tier (1 outside to 5 by the Heart) named alone by the rulebook's colour, as the
    board's legend lists them: "dark gray"... "yellow"."""
    return _content_word(TIER, str(tier), messages)


def on_tier(tier: int, messages: Translator = ENGLISH) -> str:
    """A tier by its colour as a sentence says it, "on the orange tier" (Polish "na
    obszarze pomarańczowym": the locative)."""
    return _content_word(TIER_IN_SENTENCE, str(tier), messages)


# TRANSLATORS: a side of the board, named alone
_SIDES: dict[str, InContext] = {
    "winter": C_("board side", "winter side"),
    "autumn": C_("board side", "autumn side"),
}
# TRANSLATORS: what stands on a cell of the board, named alone
_PIECES: dict[str, InContext] = {
    "gate": C_("piece", "gate"),
    "workshop": C_("piece", "workshop"),
    "hall": C_("piece", "great hall"),
    "tunnel": C_("piece", "tunnel"),
}
_CLAN_IDS = frozenset(c.value for c in Clan)
# the kinds of `Named` words that are names of the game's content (an unknown id is told
# as it is), by their context
_NAMED_CONTENT = {"spell": SPELL, "workshop": WORKSHOP, "hall": GREAT_HALL}


def named(word: Named, messages: Translator = ENGLISH) -> str:
    """A `Named` word of the engine's sentences in the reader's language (its English
    when the catalogue does not know the kind or the id)."""
    kind, key = word.kind, word.id
    if kind == "clan" and key in _CLAN_IDS:
        return clan_of(Clan(key), messages)
    if kind == "symbol":
        return symbol_name(key, messages)
    if kind == "colour":
        return colour_name(key, messages)
    if kind in _NAMED_CONTENT:
        return _content_word(_NAMED_CONTENT[kind], key, messages)
    if kind in ("workshop text", "tier"):
        context = WORKSHOP_TEXT if kind == "workshop text" else TIER_IN_SENTENCE
        return _content_word(context, key, messages, unknown=word.english)
    marked = {"side": _SIDES, "piece": _PIECES}.get(kind, {}).get(key)
    return messages.pgettext(*marked) if marked else word.english


# --- the content's words, by context ---------------------------------------------------


@cache
def _content() -> dict[str, dict[str, str]]:
    """The English of each name and text of the game's content, by the context it is
    translated in, by id."""
    content = load_content()
    tiers = {str(tier): name for tier, name in enumerate(TIER_NAMES, 1)}
    return {
        CLAN: {c.id: c.name for c in content.clans},
        WORKSHOP: {w.id: w.name for w in content.workshops},
        SPELL: {s.id: s.name for s in content.spells},
        SPELL_TEXT: {s.id: s.text for s in content.spells},
        GREAT_HALL: {h.id: h.name for h in content.halls},
        TIER: tiers,
        TIER_IN_SENTENCE: tiers,
        WORKSHOP_TEXT: {w.id: w.text for w in content.workshops},
    }


def _content_word(
    context: str, key: str, messages: Translator, *, unknown: str | None = None
) -> str:
    """The content's word `key` of a kind, translated; `unknown` (the key itself when
    None) for a key the content does not have."""
    english = _content()[context].get(key)
    if english is None:
        return key if unknown is None else unknown
    return messages.pgettext(context, english)


def content_names() -> dict[str, list[str]]:
    """Every name and text of the game's content that an image shows or a sentence
    tells, by the context it is translated in (what `python -m bot.catalogue extract`
    puts in the catalogue)."""
    return {context: list(words.values()) for context, words in _content().items()}
