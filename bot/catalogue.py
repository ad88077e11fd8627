"""The catalogue's tool, for whoever changes a text or a command (Babel underneath):

    .venv/bin/python -m bot.catalogue extract   # messages.pot from the code and the
                                                # commands, merged into each .po (new
                                                # entries empty)
    .venv/bin/python -m bot.catalogue compile   # every .po to its .mo (the bot also does
                                                # this on first use)
    .venv/bin/python -m bot.catalogue check     # exit 1 if a language lacks a translation,
                                                # or says every count of a counted
                                                # message with one word (`bot.i18n.plurals`)

Translate by filling the empty `msgstr` of `bot/locale/<language>/LC_MESSAGES/messages.po`
(the glossaries in `docs/` give the rulebooks' words).

A developer's tool, not the bot's: to list the slash commands' texts it builds the whole
bot (`bot.app`), which is why it lives here, above everything, and not in `bot.i18n`
(the catalogue the bot reads, which imports no other part of the bot).

Four sources feed the template:
- the code: Babel's Python extractor finds every message marked with `_`, `gettext`,
  `ngettext`, `pgettext`, `npgettext`, `N_`, `C_`, or `NC_` in `bot/` and
  `render/` (the images and the game's words, `render.words`);
- the slash commands: the bot's command tree is built (as at start-up, without
  Discord) and every string discord.py asks the translator for (command, option and
  choice names and descriptions) is recorded with its context, so a renamed option or
  a new choice cannot be missed;
- the game's content that the images show or a sentence tells
  (`render.words.content_names`): the clan, workshop, spell and great hall names, the
  spells' and workshops' texts and the tiers' names (alone and in a sentence), each
  under its kind as context, located in the data file it comes from;
- the engines' refusals: the template each `RulesError` of `rules/` is raised with
  (and each `Phrase` of one), and each refusal of Cave Troll's `cave_troll/`, found by
  the classes' names (`TOLD_TO_PLAYERS` of each package's errors).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import re
import sys
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir, extract_python
from babel.messages.pofile import write_po
from discord import app_commands

from bot.app import create_bot
from bot.i18n.catalogue import (
    DOMAIN,
    TEMPLATE,
    TRANSLATED,
    compile_po,
    mo_path,
    po_path,
    read_catalog,
)
from bot.i18n.commands import CONTEXTS
from bot.i18n.plurals import uninflected
from bot.service import GameService, MountainKingRules
from bot.settings import Settings
from bot.store.sqlite import SqliteStore
from cave_troll.errors import TOLD_TO_PLAYERS as CAVE_TROLL_TOLD
from render import words as drawn
from rules.errors import TOLD_TO_PLAYERS

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("bot", "render")
# where each kind of content name is written (the translator's reference)
CONTENT_FILES = {
    drawn.CLAN: "rules/data/clans.json",
    drawn.WORKSHOP: "rules/data/workshops.json",
    drawn.SPELL: "rules/data/spells.json",
    drawn.SPELL_TEXT: "rules/data/spells.json",
    drawn.GREAT_HALL: "rules/data/halls.json",
    drawn.TIER: "rules/mountain.py",
    drawn.TIER_IN_SENTENCE: "rules/mountain.py",
    drawn.WORKSHOP_TEXT: "rules/data/workshops.json",
}
CONTENT_NOTES = {
    drawn.CLAN: "a clan's name, as on a troll card of the images",
    drawn.WORKSHOP: "a workshop's name (the rulebook's list of workshops)",
    drawn.SPELL: "a spell's name, on its card in the market image",
    drawn.SPELL_TEXT: "what a spell does, on its card in the market image",
    drawn.GREAT_HALL: "a great hall's name, in the market image",
    drawn.TIER: "a tier of the mountain by the rulebook's colour, in the board's legend",
    drawn.TIER_IN_SENTENCE: 'a tier of the mountain by its colour, as in "on the orange tier"',
    drawn.WORKSHOP_TEXT: "what a workshop does, told when a use of it is refused",
}
COMMENT_TAGS = ("TRANSLATORS:",)
# gettext's usual names, and the markers of messages with a context (`C_` and `NC_`,
# defined once in the game's vocabulary, `render.words`, for the images and the bot)
KEYWORDS: dict[str, Any] = {
    **DEFAULT_KEYWORDS,
    "C_": ((1, "c"), 2),
    "NC_": ((1, "c"), 2, 3),
}
# the engine's refusals: the first argument of each of these calls is a template
RULES = "rules"
RULES_KEYWORDS: dict[str, None] = dict.fromkeys(TOLD_TO_PLAYERS)
# each game's rules package, the names its refusals are raised with, and their note
ENGINES: dict[str, tuple[dict[str, None], str]] = {
    RULES: (RULES_KEYWORDS, "a refusal of the rules engine"),
    "cave_troll": (dict.fromkeys(CAVE_TROLL_TOLD), "a refusal of Cave Troll's rules engine"),
}
PROJECT = "mountain-king-bot"
WIDTH = 88
HEADER = """\
# The message catalogue of mountain-king-bot (bot/locale/, see bot/i18n/).
# messages.pot is made by `python -m bot.catalogue extract`: never edit it by hand.
# Translate in <language>/LC_MESSAGES/messages.po, with the rulebook's words
# (docs/glossary-pl.md, docs/glossary-es.md)."""

# a message: (context or None, msgid or (singular, plural))
Key = tuple[str | None, str | tuple[str, ...]]


@dataclass
class Found:
    """One message to translate, where it comes from and what the translator should
    know about it."""

    context: str | None
    message: str | tuple[str, ...]
    locations: list[tuple[str, int]] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)

    @property
    def key(self) -> Key:
        return (self.context, self.message)


async def extract() -> Catalog:
    """The template as the code, the commands and the content make it now (the
    images' messages last, so the bot's keep their places in the catalogue)."""
    catalog = Catalog(project=PROJECT, domain=DOMAIN, header_comment=HEADER, fuzzy=False)
    everything = [
        *source_messages(SOURCES[:1]),
        *await command_messages(),
        *source_messages(SOURCES[1:]),
        *content_messages(drawn.content_names()),
        *rules_messages(),
    ]
    for found in everything:
        catalog.add(
            found.message,
            context=found.context,
            locations=found.locations,
            auto_comments=found.comments,
        )
    return catalog


def marked_python(
    fileobj: Any, keywords: Mapping[str, Any], comment_tags: Collection[str], options: Any
) -> Any:
    """babel's extractor of Python, for a file whose text calls one of `keywords` at
    all: about half of the files call none, and tokenizing them was half the time of
    an extraction. (A keyword's name then `(`, spaces between allowed, is what babel's
    tokens look for too; a comment or string naming one only costs the tokenizing.)"""
    text = fileobj.read()
    names = "|".join(re.escape(k) for k in sorted(keywords, key=len, reverse=True))
    if not re.search(rf"(?<!\w)(?:{names})\s*\(", text.decode("utf-8", "replace")):
        return iter(())
    again = io.BytesIO(text)
    again.name = getattr(fileobj, "name", "(unknown)")
    return extract_python(again, keywords, comment_tags, options)


# every Python file, through `marked_python` (named as babel imports an extractor)
METHOD_MAP = [("**.py", "bot.catalogue:marked_python")]


def source_messages(sources: Iterable[str] = SOURCES) -> Iterator[Found]:
    """Every marked message of the code, with its file and line."""
    for source in sources:
        for filename, lineno, message, comments, context in extract_from_dir(
            ROOT / source, METHOD_MAP, keywords=KEYWORDS, comment_tags=COMMENT_TAGS
        ):
            path = f"{source}/{filename}".replace("\\", "/")
            yield Found(context, message, [(path, lineno)], list(comments))


def rules_messages() -> Iterator[Found]:
    """Every template the engines' refusals are raised with (each game's rules), with
    its file and line."""
    for engine, (keywords, note) in ENGINES.items():
        for filename, lineno, message, comments, context in extract_from_dir(
            ROOT / engine, METHOD_MAP, keywords=keywords, comment_tags=COMMENT_TAGS
        ):
            path = f"{engine}/{filename}".replace("\\", "/")
            yield Found(context, message, [(path, lineno)], [*comments, note])


def content_messages(names: dict[str, list[str]]) -> Iterator[Found]:
    """Every name and text of the game's content in `names` (by their context), with
    the line of the file that holds it."""
    for context, texts in names.items():
        path = CONTENT_FILES[context]
        lines = (ROOT / path).read_text(encoding="utf-8").splitlines()
        for text in texts:
            quoted = json.dumps(text, ensure_ascii=False)
            line = next((n for n, row in enumerate(lines, 1) if quoted in row), 0)
            yield Found(context, text, [(path, line)], [CONTENT_NOTES[context]])


async def command_messages() -> list[Found]:
    """Every string of the slash commands that Discord can show translated, with its
    context, in the order of the command tree."""
    # the bot as it runs, with its whole tree of commands (never connected)
    service: GameService[Any, Any] = GameService(SqliteStore(":memory:"), MountainKingRules())
    bot = create_bot(service, Settings(_env_file=None, discord_token=None), scheduler_poll=0)
    await bot.add_commands()
    recorder = _Recorder()
    for command in bot.tree.get_commands():
        await command.get_translated_payload(bot.tree, recorder)
    return list(recorder.found.values())


def write_template(catalog: Catalog, path: Path = TEMPLATE) -> bool:
    """Write the template if its messages (or their notes) changed; whether it was
    written. An unchanged template keeps its date, so it does not churn in git."""
    if path.exists() and _po_text(read_catalog(path)) == _po_text(catalog):
        return False
    _write(catalog, path)
    return True


def update_languages(template: Catalog, *, write: bool = True) -> dict[str, list[str]]:
    """Merge the template into each language's `.po`: new messages arrive empty,
    messages gone from the code are dropped (`write` False: only look). Returns the
    messages each language still lacks a translation (or a plural form) for."""
    untranslated: dict[str, list[str]] = {}
    for language in TRANSLATED:
        path = po_path(language)
        if path.exists():
            catalog = read_catalog(path, language)
        else:
            catalog = Catalog(
                locale=language,
                project=PROJECT,
                domain=DOMAIN,
                header_comment=HEADER,
                fuzzy=False,
            )
        before = _po_text(catalog)
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        catalog.obsolete.clear()
        if write and (_po_text(catalog) != before or not path.exists()):
            path.parent.mkdir(parents=True, exist_ok=True)
            _write(catalog, path)
        untranslated[language] = [str(m.id) for m in catalog if m.id and not _translated(m.string)]
    return untranslated


def keys(catalog: Catalog) -> set[Key]:
    """The messages of a catalogue (its header left out)."""
    return {(m.context, _message_id(m.id)) for m in catalog if m.id}


def _message_id(message_id: str | tuple[str, ...] | list[str]) -> str | tuple[str, ...]:
    return tuple(message_id) if isinstance(message_id, list | tuple) else message_id


def _translated(string: object) -> bool:
    if isinstance(string, list | tuple):
        return all(string)
    return bool(string)


def _po_text(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=WIDTH, omit_header=True, ignore_obsolete=True)
    return out.getvalue()


def _write(catalog: Catalog, path: Path) -> None:
    out = io.BytesIO()
    write_po(out, catalog, width=WIDTH, ignore_obsolete=True)
    path.write_bytes(out.getvalue())


class _Recorder(app_commands.Translator):
    """Translates nothing; notes every string discord.py asks for, with its context
    and the command it belongs to."""

    def __init__(self) -> None:
        self.found: dict[Key, Found] = {}
        self._parameter: app_commands.Parameter | None = None

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        where = CONTEXTS.get(context.location)
        if where is None:
            return None
        key: Key = (where, string.message)
        if key not in self.found:
            self.found[key] = Found(where, string.message)
        found = self.found[key]
        comment, location = self._about(context)
        if comment and comment not in found.comments:
            found.comments.append(comment)
        if location is not None and location not in found.locations:
            found.locations.append(location)
        return None

    def _about(
        self, context: app_commands.TranslationContextTypes
    ) -> tuple[str, tuple[str, int] | None]:
        """A note for the translator (which command, which option) and the command's
        place in the code."""
        data = context.data
        if isinstance(data, app_commands.Parameter):
            self._parameter = data
            return f"/{data.command.qualified_name} {data.display_name}:", _place(data.command)
        if isinstance(data, app_commands.Command):
            return f"/{data.qualified_name}", _place(data)
        if isinstance(data, app_commands.Group):
            return f"/{data.qualified_name}", None
        if isinstance(data, app_commands.Choice) and self._parameter is not None:
            # discord.py asks for a parameter's choices right after the parameter
            parameter = self._parameter
            return (
                f"a choice of /{parameter.command.qualified_name} {parameter.display_name}:",
                _place(parameter.command),
            )
        return "", None


def _place(command: app_commands.Command[Any, ..., Any]) -> tuple[str, int] | None:
    code = getattr(command.callback, "__code__", None)
    if code is None:
        return None
    path = Path(code.co_filename).resolve()
    try:
        return (path.relative_to(ROOT).as_posix(), code.co_firstlineno)
    except ValueError:
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.catalogue",
        description="The message catalogue's tool (bot/locale/): extract, compile, check.",
    )
    parser.add_argument(
        "command",
        choices=("extract", "compile", "check"),
        help="extract: messages.pot and each .po from the code and the commands; compile:"
        " each .po to its .mo; check: exit 1 if a translation is missing or a counted"
        " message says every count alike",
    )
    args = parser.parse_args(argv)
    if args.command == "compile":
        for language in TRANSLATED:
            mo_path(language).write_bytes(compile_po(po_path(language), language))
            print(f"compiled {mo_path(language)}")
        return 0
    template = asyncio.run(extract())
    if args.command == "extract" and write_template(template):
        print(f"wrote {TEMPLATE}")
    # `check` compares the .po files with the code as it is now, and writes nothing
    missing = update_languages(template, write=args.command == "extract")
    for language, messages in missing.items():
        for message in messages:
            print(f"{language}: untranslated: {message!r}")
    # a counted message must say its counts in more than one way where the language can
    alike = {
        language: uninflected(read_catalog(po_path(language), language)) for language in TRANSLATED
    }
    for language, names in alike.items():
        for name in names:
            print(f"{language}: plural forms all alike: {name}")
    faults = any(missing.values()) or any(alike.values())
    return 1 if args.command == "check" and faults else 0


if __name__ == "__main__":
    sys.exit(main())
