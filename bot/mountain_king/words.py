"""The game's words in the reader's language, in the grammatical use a sentence needs
them: a resource named ("stone"), counted ("2 stone") or counted as the object of a verb
(Polish "1 monetę"), the mineral a tunnel is dug with (Polish "z kamienia"), a clan as
in "a Fire troll" (Polish "troll Ognia"), a spell's, workshop's or great hall's name.

Each use is its own message of the catalogue (a context says which), so a language
with cases or genders writes each as it must; counts go through the catalogue's plural
forms (three in Polish). The names of colours, spells, workshops and great halls are
the images' (`render.words`: a post and its picture name them alike); the workshops'
texts come from the game's content (`rules/data`): `content_words` lists them for the
catalogue's extraction.

A leaf like the table's `bot.words` (lists and colours, which it uses): plain values in,
text out.

    >>> amount(Resource.COIN, 3), clan_of(Clan.FIRE), listed_in(["a", "b", "c"])
    ('3 coins', 'Fire', 'a, b and c')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.i18n.catalogue import C_, ENGLISH, NC_, Counted, InContext, Messages
from bot.words import colour_name, either_in, listed_in
from render import words as drawn
from rules.content import load_content
from rules.errors import Amounts, Listed, Named, Phrase
from rules.resources import RESOURCES, Clan, Resource, parse_symbol

# the catalogue's context of the workshops' texts (the names are the images')
WORKSHOP_TEXT = "workshop text"


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


def resource_name(resource: Resource, messages: Messages = ENGLISH) -> str:
    return messages.pgettext(*_NAMES[resource])


def amount(resource: Resource | None, count: int, messages: Messages = ENGLISH) -> str:
    """ "2 stone", "3 coins" (None: any resource, "2 resources")."""
    return messages.npgettext(*_AMOUNTS[resource], count, count=count)


def amount_object(resource: Resource, count: int, messages: Messages = ENGLISH) -> str:
    """ "1 coin" as the object of a verb (Polish "1 monetę")."""
    return messages.npgettext(*_OBJECTS[resource], count, count=count)


def counted(
    resources: Iterable[Resource], messages: Messages = ENGLISH, *, as_object: bool = False
) -> str:
    """Resources counted, in resource order: "2 coins and 1 stone"."""
    given = list(resources)
    say = amount_object if as_object else amount
    return listed_in([say(r, given.count(r), messages) for r in RESOURCES if r in given], messages)


def mineral_of(mineral: Resource, messages: Messages = ENGLISH) -> str:
    if mineral not in _MINERALS:
        return resource_name(mineral, messages)
    return messages.pgettext(*_MINERALS[mineral])


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


def clan_of(clan: Clan, messages: Messages = ENGLISH) -> str:
    return messages.pgettext(*_CLANS[clan])


def a_clan(clan: Clan, messages: Messages = ENGLISH) -> str:
    """The clan after English's indefinite article: "an Ice" (troll), "a Fire"
    (statue)."""
    return messages.pgettext(*_A_CLANS[clan])


def symbol_name(symbol: str, messages: Messages = ENGLISH) -> str:
    """A produce symbol named alone: "coin", "Fire cart"."""
    resource, clan = parse_symbol(symbol)
    if clan is None:
        return resource_name(resource, messages)
    # TRANSLATORS: a clan cart, held on a troll of that clan: "Fire cart"
    return messages.gettext("{clan} cart", clan=clan_of(clan, messages))


# --- the game's content --------------------------------------------------------------


def spell_name(spell: str, messages: Messages = ENGLISH) -> str:
    """A spell's name, as its card in the images names it."""
    return drawn.spell_name(messages, spell) if spell in _ids("spells") else spell


def workshop_name(workshop: str, messages: Messages = ENGLISH) -> str:
    """A workshop's name, as the images name it."""
    return drawn.workshop_name(messages, workshop) if workshop in _ids("workshops") else workshop


def hall_name(hall: str, messages: Messages = ENGLISH) -> str:
    """A great hall's name, as the images name it."""
    return drawn.hall_name(messages, hall) if hall in _ids("halls") else hall


def workshop_text(workshop: str, messages: Messages = ENGLISH) -> str:
    """What a workshop does, as its tile says it ("" for an unknown workshop)."""
    known = {w.id: w.text for w in load_content().workshops}
    return messages.pgettext(WORKSHOP_TEXT, known[workshop]) if workshop in known else ""


def content_words() -> dict[str, list[str]]:
    """The content's texts a sentence may hold that the images do not show (the names
    are theirs: `render.words.content_names`), by context, for the catalogue's
    extraction."""
    return {WORKSHOP_TEXT: [w.text for w in load_content().workshops]}


def _ids(kind: str) -> set[str]:
    content = load_content()
    if kind == "spells":
        return {s.id for s in content.spells}
    if kind == "workshops":
        return {w.id for w in content.workshops}
    return {h.id for h in content.halls}


# --- the engine's named things, in its refusals ----------------------------------------

CLAN_IDS = frozenset(c.value for c in Clan)

# TRANSLATORS: a tier of the mountain by its colour, as in "on the orange tier"
_TIERS: dict[str, InContext] = {
    "1": C_("tier, as in on the orange tier", "dark gray"),
    "2": C_("tier, as in on the orange tier", "gray"),
    "3": C_("tier, as in on the orange tier", "brown"),
    "4": C_("tier, as in on the orange tier", "orange"),
    "5": C_("tier, as in on the orange tier", "yellow"),
}
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


def tier_name(tier: int, messages: Messages = ENGLISH) -> str:
    """A tier (1 outside to 5 by the Heart) by its colour, as in "on the orange tier"."""
    return messages.pgettext(*_TIERS[str(tier)])


def named(word: Named, messages: Messages = ENGLISH) -> str:
    """A `Named` word of the engine in the reader's language (its English when the
    catalogue does not know the kind)."""
    kind, key = word.kind, word.id
    if kind == "clan" and key in CLAN_IDS:
        return clan_of(Clan(key), messages)
    if kind == "symbol":
        return symbol_name(key, messages)
    if kind == "spell":
        return spell_name(key, messages)
    if kind == "workshop":
        return workshop_name(key, messages)
    if kind == "workshop text":
        return workshop_text(key, messages) or word.english
    if kind == "hall":
        return hall_name(key, messages)
    if kind == "colour":
        return colour_name(key, messages)
    table = {"tier": _TIERS, "side": _SIDES, "piece": _PIECES}.get(kind, {})
    marked = table.get(key)
    return messages.pgettext(*marked) if marked else word.english


def said(value: object, messages: Messages = ENGLISH) -> str:
    """A value that fills a field of an engine's sentence, in the reader's language:
    the game's words by the catalogue, numbers and notation as they are."""
    if isinstance(value, Resource):
        return resource_name(value, messages)
    if isinstance(value, Clan):
        return clan_of(value, messages)
    if isinstance(value, Named):
        return named(value, messages)
    if isinstance(value, Amounts):
        return ", ".join(amount(_resource(r), n, messages) for r, n in value.counts)
    if isinstance(value, Listed):
        items = [said(i, messages) for i in value.items]
        if value.conjunction == "and":
            return listed_in(items, messages)
        if value.conjunction == "or":
            return either_in(items, messages)
        return ", ".join(items)
    if isinstance(value, Phrase):
        text = told(value.template, value.params, messages)
        return value.told(text, messages.lookup(value.template) or value.template)
    return str(value)


def told(template: str, params: Mapping[str, object], messages: Messages = ENGLISH) -> str:
    """An engine's sentence (a template and the values of its fields) in the reader's
    language; English where the catalogue lacks it."""
    return messages.gettext(template, **{k: said(v, messages) for k, v in params.items()})


def _resource(name: str | None) -> Resource | None:
    return None if name is None else Resource(name)
