"""The message catalogue (bot/locale, bot.i18n): the template is what the code and the
slash commands make it, every message has a translation in every language with all
its plural forms and the same `{fields}`, Polish picks among three plural forms, and a
fresh checkout compiles its catalogues on first use."""

from __future__ import annotations

import ast
import doctest
import gettext
import io
import os
import re
import shutil
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message

import bot.i18n.catalogue
import bot.i18n.commands
import bot.mountain_king.words
import bot.words
import render.words
from bot.catalogue import extract, keys
from bot.i18n import language_of, translator_for
from bot.i18n.catalogue import (
    TEMPLATE,
    TRANSLATED,
    compile_po,
    compiled,
    mo_path,
    po_path,
    read_catalog,
)
from cave_troll.errors import TOLD_TO_PLAYERS as CAVE_TROLL_TOLD
from rules.errors import TOLD_TO_PLAYERS

# how many plural forms each language has (its Plural-Forms header)
PLURAL_FORMS = {"pl": 3, "es": 2}
FIELD = re.compile(r"\{(\w*)\}")


def _catalog(language: str) -> Catalog:
    return read_catalog(po_path(language), language)


def _entries(catalog: Catalog) -> list[Message]:
    return [m for m in catalog if m.id]


def _name(message: Message) -> str:
    where = f"[{message.context}] " if message.context else ""
    text = message.id if isinstance(message.id, str) else message.id[0]
    return where + text[:60]


async def test_the_template_holds_every_message_of_the_code_and_the_commands() -> None:
    """Extraction now (the code's marked messages, every command, option and choice
    string discord.py asks the translator for) gives the template's messages: none is
    missing from it and none is left over. Run `python -m bot.catalogue extract` to fix."""
    made = keys(await extract())
    stored = keys(read_catalog(TEMPLATE))
    assert not made - stored, f"missing from messages.pot: {sorted(map(str, made - stored))}"
    assert not stored - made, f"no longer in the code: {sorted(map(str, stored - made))}"
    # and the commands are really in it (not only the code's messages)
    assert ("command name", "new") in stored and ("choice", "winter") in stored


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_with_all_its_plural_forms(language: str) -> None:
    template = keys(read_catalog(TEMPLATE))
    catalog = _catalog(language)
    assert catalog.num_plurals == PLURAL_FORMS[language]
    assert f"nplurals={PLURAL_FORMS[language]};" in catalog.plural_forms
    out_of_step = "out of step with messages.pot: python -m bot.catalogue extract"
    assert keys(catalog) == template, out_of_step
    lacking = []
    plurals = 0
    for message in _entries(catalog):
        if "fuzzy" in message.flags:
            lacking.append(f"fuzzy: {_name(message)}")
        if message.pluralizable:
            plurals += 1
            forms = list(message.string)
            if len(forms) != PLURAL_FORMS[language] or not all(forms):
                lacking.append(f"{len([f for f in forms if f])} plural forms: {_name(message)}")
        elif not message.string:
            lacking.append(f"untranslated: {_name(message)}")
    assert plurals >= 2, "the catalogue has plural messages to check"
    assert not lacking, f"{language}: " + "; ".join(lacking)


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_translation_has_the_same_fields_as_its_english(language: str) -> None:
    """A `{name}` the code fills must be in the translation, and no other: a missing
    one loses a number, an unknown one raises when the text is built."""
    wrong = []
    for message in _entries(_catalog(language)):
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        wanted = set().union(*(FIELD.findall(i) for i in ids))
        for string in strings:
            if set(FIELD.findall(string)) != wanted:
                wrong.append(f"{_name(message)}: {string[:60]!r}")
    assert not wrong, "; ".join(wrong)


@pytest.mark.parametrize(
    ("n", "form"),
    [
        (1, "punkt"),
        (2, "punkty"),
        (4, "punkty"),
        (5, "punktów"),
        (12, "punktów"),
        (22, "punkty"),
        (25, "punktów"),
        (0, "punktów"),
        (112, "punktów"),
    ],
)
def test_polish_picks_one_of_three_plural_forms(n: int, form: str) -> None:
    pl = translator_for("pl")
    text = pl.ngettext("{names}: {count} honor", "{names}: {count} honor", n, names="ala", count=n)
    assert text == f"ala: {n} {form} honoru"


def test_spanish_and_english_have_two_plural_forms() -> None:
    es, en = translator_for("es-ES"), translator_for("en-US")
    line = ("{names}: {count} honor", "{names}: {count} honor")
    assert es.ngettext(*line, 1, names="ana", count=1) == "ana: 1 punto de honor"
    assert es.ngettext(*line, 3, names="ana", count=3) == "ana: 3 puntos de honor"
    assert en.ngettext("after {count} action", "after {count} actions", 1, count=1) == (
        "after 1 action"
    )
    assert en.ngettext("after {count} action", "after {count} actions", 7, count=7) == (
        "after 7 actions"
    )


@pytest.mark.parametrize(
    ("locale", "language"),
    [
        ("pl", "pl"),
        ("es-ES", "es"),
        ("es-419", "es"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("fr", "en"),
        ("", "en"),
        (None, "en"),
    ],
)
def test_a_discord_locale_reads_its_language_or_english(locale: str | None, language: str) -> None:
    assert language_of(locale) == language
    assert translator_for(locale).language == language


def test_a_missing_message_stays_english_and_lookup_says_so() -> None:
    pl = translator_for("pl")
    assert pl.gettext("Not in any catalogue {x}", x=1) == "Not in any catalogue 1"
    assert pl.lookup("Not in any catalogue") is None
    assert pl.lookup("mk", "command name") == "mk", "a translation equal to the English counts"
    assert translator_for("en").lookup("new", "command name") is None


def _copy_catalogues(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The locale folder of a fresh checkout (no .mo), in a temporary place."""
    locale = tmp_path / "locale"
    for language in TRANSLATED:
        target = locale / language / "LC_MESSAGES"
        target.mkdir(parents=True)
        shutil.copy(po_path(language), target)
    monkeypatch.setattr(bot.i18n.catalogue, "LOCALE_DIR", locale)
    return locale


def test_a_fresh_checkout_compiles_its_catalogue_on_first_use(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _copy_catalogues(tmp_path, monkeypatch)
    assert not mo_path("pl").exists()
    data = compiled("pl")
    assert mo_path("pl").read_bytes() == data, "written beside the .po"
    catalogue = gettext.GNUTranslations(io.BytesIO(data))
    assert catalogue.pgettext("command name", "new") == "nowa"
    # a .po edited after the .mo was made is compiled again
    po = po_path("pl")
    edited = po.read_text(encoding="utf-8").replace('msgstr "nowa"', 'msgstr "gra"')
    po.write_text(edited, encoding="utf-8")
    later = mo_path("pl").stat().st_mtime + 10
    os.utime(po, (later, later))
    assert compiled("pl") != data
    assert compiled("pl") == mo_path("pl").read_bytes() == compile_po(po, "pl")


def test_a_read_only_install_compiles_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _copy_catalogues(tmp_path, monkeypatch)

    def refused(*args: object, **kwargs: object) -> tuple[int, str]:
        raise PermissionError("read-only file system")

    monkeypatch.setattr(bot.i18n.catalogue.tempfile, "mkstemp", refused)
    assert compiled("es") == compile_po(po_path("es"), "es")
    assert not mo_path("es").exists()


@pytest.mark.parametrize(
    "module",
    [bot.i18n.catalogue, bot.i18n.commands, bot.words, bot.mountain_king.words, render.words],
)
def test_the_examples_in_the_docstrings_hold(module: object) -> None:
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert tried and not failures


@pytest.mark.parametrize(
    ("package", "told", "least"),
    [("rules", TOLD_TO_PLAYERS, 100), ("cave_troll", CAVE_TROLL_TOLD, 90)],
)
def test_every_refusal_of_the_rules_is_raised_with_a_literal_template(
    package: str, told: tuple[str, ...], least: int
) -> None:
    """The catalogue finds each engine's refusals by the classes' names (the
    `TOLD_TO_PLAYERS` of `rules.errors` and of `cave_troll.errors`): each is raised with
    a plain string template as its first argument (an f-string would be missed and told
    in English), or re-tells the template of another refusal."""
    rules = Path(bot.i18n.catalogue.__file__).resolve().parents[2] / package
    wrong = []
    calls = 0
    for path in sorted(rules.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            if node.func.id not in told or not node.args:
                continue
            calls += 1
            first = node.args[0]
            literal = isinstance(first, ast.Constant) and isinstance(first.value, str)
            retold = isinstance(first, ast.Attribute) and first.attr == "template"
            if not (literal or retold):
                wrong.append(f"{path.name}:{node.lineno}")
    assert calls > least, "the refusals were found"
    assert not wrong, "refusals raised without a literal template: " + ", ".join(wrong)
