"""The game's words put into sentences, in the reader's language: resources counted
in a list ("1 stone and 2 coins") and an engine's sentence (a refusal's template and the
values of its fields) told with every word of the game named.

The words themselves are the game's one vocabulary, `render.words` (a post and its
picture name them alike); the lists are the table's (`bot.words`). A leaf: plain values
in, text out.

    >>> counted([Resource.COIN, Resource.STONE, Resource.COIN])
    '1 stone and 2 coins'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.i18n.catalogue import ENGLISH, Messages
from bot.words import either_in, listed_in
from render.words import amount, amount_object, clan_of, named, resource_name
from rules.errors import Amounts, Listed, Named, Phrase
from rules.resources import RESOURCES, Clan, Resource


def counted(
    resources: Iterable[Resource], messages: Messages = ENGLISH, *, as_object: bool = False
) -> str:
    """Resources counted, in resource order: "1 stone and 2 coins"."""
    given = list(resources)
    say = amount_object if as_object else amount
    return listed_in([say(r, given.count(r), messages) for r in RESOURCES if r in given], messages)


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
