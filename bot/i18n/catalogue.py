"""The message catalogue: gettext catalogues in `bot/locale/`, one `.po` per language
beside the template `messages.pot`, managed with Babel (`python -m bot.catalogue`).

The compiled `.mo` files are not kept in git: the first use of a language compiles its
`.po` with Babel when the `.mo` is missing or older than the `.po`, writes it beside the
`.po` if the folder is writable (else keeps it in memory), and loads it. So a fresh
checkout needs no build step, and an edited `.po` is picked up at the next start.

    >>> pl = translator_for("pl")
    >>> pl.ngettext("after {count} action", "after {count} actions", 5, count=5)
    'po 5 akcjach'
    >>> translator_for("en-US").gettext("Hello {name}", name="Ola")
    'Hello Ola'
"""

from __future__ import annotations

import gettext
import io
import os
import tempfile
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "messages"
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
SOURCE_LANGUAGE = "en"
# the rulebooks' languages; English is the source, the others have a catalogue each
TRANSLATED = ("pl", "es")
LANGUAGES = (SOURCE_LANGUAGE, *TRANSLATED)
# gettext keeps a message with a context under "context\x04message"
_CONTEXT_KEY = "{context}\x04{message}"


def N_(message: str) -> str:
    """Mark a message for the catalogue without translating it here: it is translated
    where it is shown, in the reader's language (`Messages.gettext(message)`). A
    message with its context is marked `C_` (counted: `NC_`), defined once in the
    game's vocabulary (`render.words`), which the images and the game's face both
    import: this catalogue imports nothing of the project, and render nothing of the
    bot."""
    return message


def language_of(locale: object) -> str:
    """The catalogue's language for a Discord locale (`discord.Locale` or its value:
    "pl", "es-ES", "es-419", "en-US"...), English for any other.

    >>> language_of("es-419"), language_of("pl"), language_of("fr"), language_of(None)
    ('es', 'pl', 'en', 'en')
    """
    if locale is None:
        return SOURCE_LANGUAGE
    base = str(locale).split("-", 1)[0].lower()
    return base if base in LANGUAGES else SOURCE_LANGUAGE


def po_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(language: str) -> Path:
    return po_path(language).with_suffix(".mo")


class Catalogue(gettext.GNUTranslations):
    """A compiled catalogue that can also say whether it holds a message at all (a
    translation equal to the English, like "mk", still counts)."""

    # GNUTranslations keeps its messages here: "msgid" or "context\x04msgid" -> msgstr
    _catalog: dict[object, str]

    def lookup(self, message: str, context: str | None = None) -> str | None:
        key = _CONTEXT_KEY.format(context=context, message=message) if context else message
        return self._catalog.get(key) or None


class Messages:
    """The texts of one language. Named parameters fill `{name}` fields, so a
    translation may put them in any order; `ngettext` picks the plural form by the
    catalogue's Plural-Forms (three in Polish)."""

    def __init__(self, language: str, catalogue: gettext.NullTranslations) -> None:
        self.language = language
        self._catalogue = catalogue

    def __repr__(self) -> str:
        return f"Messages({self.language!r})"

    def gettext(self, message: str, /, **params: object) -> str:
        return _filled(self._catalogue.gettext(message), params)

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        return _filled(self._catalogue.ngettext(singular, plural, n), params)

    def pgettext(self, context: str, message: str, /, **params: object) -> str:
        return _filled(self._catalogue.pgettext(context, message), params)

    def npgettext(
        self, context: str, singular: str, plural: str, n: int, /, **params: object
    ) -> str:
        return _filled(self._catalogue.npgettext(context, singular, plural, n), params)

    def lookup(self, message: str, context: str | None = None) -> str | None:
        """The translation, or None if the catalogue has none (always None in English)."""
        if isinstance(self._catalogue, Catalogue):
            return self._catalogue.lookup(message, context)
        return None

    # the usual short name
    _ = gettext


ENGLISH = Messages(SOURCE_LANGUAGE, gettext.NullTranslations())


def translator_for(locale: object) -> Messages:
    """The texts for a Discord locale (`interaction.locale`, a guild's preferred
    locale) or a language code; English for a language without a catalogue."""
    return _messages(language_of(locale))


@cache
def _messages(language: str) -> Messages:
    if language == SOURCE_LANGUAGE:
        return ENGLISH
    return Messages(language, Catalogue(io.BytesIO(compiled(language))))


def compiled(language: str) -> bytes:
    """The language's compiled catalogue (`.mo` bytes): the `.mo` file if it is at
    least as new as the `.po`, else compiled from the `.po` now and written beside
    it when the folder allows."""
    po, mo = po_path(language), mo_path(language)
    try:
        if mo.stat().st_mtime >= po.stat().st_mtime:
            return mo.read_bytes()
    except FileNotFoundError:
        pass
    data = compile_po(po, language)
    _write_atomically(mo, data)
    return data


def compile_po(po: Path, language: str) -> bytes:
    """A `.po` file compiled to `.mo` bytes by Babel (fuzzy entries left out, as
    msgfmt does)."""
    out = io.BytesIO()
    write_mo(out, read_catalog(po, language), use_fuzzy=False)
    return out.getvalue()


def read_catalog(path: Path, language: str | None = None) -> Catalog:
    """A `.po` (or the template) as Babel reads it."""
    with path.open("rb") as source:
        return read_po(source, locale=language, domain=DOMAIN)


def _write_atomically(path: Path, data: bytes) -> None:
    """Write the file whole or not at all (test workers may compile at once); a
    read-only install just keeps the compiled catalogue in memory."""
    try:
        handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    except OSError:
        return
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(name, path)
    except OSError:
        Path(name).unlink(missing_ok=True)


def _filled(text: str, params: dict[str, object]) -> str:
    return text.format(**params) if params else text
