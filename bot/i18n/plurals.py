"""Counted messages told right: in a language with several plural forms (three in
Polish, two in Spanish), a counted message (`ngettext`, `NC_`) whose forms are all one
word says every count alike, as "1 kamienia, 2 kamienia, 5 kamienia" did. The rule
is the simplest one: all forms identical is a fault, whatever the English says (write
the counted noun into the sentence, "…i jeszcze 2 gry", rather than leave it out).
`python -m bot.catalogue check` refuses such a catalogue.

    >>> from babel.messages.catalog import Catalog
    >>> catalog = Catalog(locale="pl")
    >>> stone = ("{count} stone", "{count} stone")
    >>> _ = catalog.add(stone, ("{count} kamienia",) * 3, context="amount")
    >>> runes = ("{count} runa", "{count} runy", "{count} run")
    >>> _ = catalog.add(("{count} rune", "{count} runes"), runes, context="amount")
    >>> uninflected(catalog)
    ["[amount] '{count} stone': '{count} kamienia'"]
"""

from __future__ import annotations

from babel.messages.catalog import Catalog, Message


def uninflected(catalog: Catalog) -> list[str]:
    """The counted messages of a catalogue whose translated plural forms are all the
    same text, each named by its context, its English singular and the one form (none
    in a language with a single plural form; a message lacking a form is untranslated,
    which the check tells apart)."""
    if catalog.num_plurals < 2:
        return []
    return [_named(m) for m in catalog if m.id and m.pluralizable and _alike(m.string)]


def _alike(forms: object) -> bool:
    if not isinstance(forms, list | tuple):
        return False
    return all(forms) and len(set(forms)) == 1


def _named(message: Message) -> str:
    where = f"[{message.context}] " if message.context else ""
    singular = message.id[0] if isinstance(message.id, list | tuple) else message.id
    form = message.string[0] if isinstance(message.string, list | tuple) else message.string
    return f"{where}{singular!r}: {form!r}"
