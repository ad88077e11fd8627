"""The bot in Polish and Spanish: the commands it syncs to Discord carry Polish and
Spanish (Spain and Latin America) names and descriptions for every command, option and
choice, each name one Discord accepts; and `/mk help` answers in the reader's language,
naming the commands as that reader's client shows them."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import discord
import pytest
from bot_harness import running_bot, table_speaking
from fake_discord import FakeDiscord

import bot.i18n.commands
from bot.__main__ import point_at
from bot.app import create_bot
from bot.i18n import translator_for
from bot.i18n.catalogue import TEMPLATE, read_catalog
from bot.i18n.commands import CommandTranslator, valid_name
from bot.mountain_king.help import HELP, HELP_OVERVIEW, HELP_SOURCES, help_text
from bot.service import GameService, MountainKingRules
from bot.settings import Settings
from bot.store.sqlite import SqliteStore
from rules.actions import Action
from rules.state import State

LOCALES = ("pl", "es-ES", "es-419")
DESCRIPTION_LIMIT = 100
CHOICE_LIMIT = 100
# Discord option types of a subcommand and a group of subcommands
SUBCOMMAND_TYPES = (1, 2)


@asynccontextmanager
async def synced(tmp_path: Path) -> AsyncIterator[FakeDiscord]:
    """The real bot started against the loopback Discord; yields the fake once the bot
    is ready (its commands synced with `PUT .../commands`)."""
    fake = FakeDiscord()
    await fake.start()
    saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    store = SqliteStore(tmp_path / "db.sqlite3")
    await store.open()
    service: GameService[State, Action] = GameService(
        store, MountainKingRules(), rng=random.Random(1), reminder_interval=timedelta(hours=12)
    )
    point_at(fake.api_base, fake.gateway_url)
    bot = create_bot(
        service, Settings(discord_token=None), scheduler_poll=0, guild_ready_timeout=0.05
    )
    task = asyncio.create_task(bot.start("i18n-test-token"))
    try:
        for _ in range(750):
            if bot.is_ready() or task.done():
                break
            await asyncio.sleep(0.02)
        if task.done():
            task.result()
        assert bot.is_ready()
        yield fake
    finally:
        await bot.close()
        await asyncio.wait([task], timeout=10)
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved
        await store.close()
        await fake.stop()


def walk(node: dict[str, Any], path: str = "") -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Every command, subcommand, option and choice of a synced command: (its path, its
    kind, its payload)."""
    kind = "command" if not path or node.get("type") in SUBCOMMAND_TYPES else "option"
    path = f"{path} {node['name']}".strip()
    yield f"/{path}", kind, node
    for option in node.get("options", []):
        yield from walk(option, path)
    for choice in node.get("choices", []):
        yield f"/{path} = {choice['name']}", "choice", choice


async def test_every_synced_command_option_and_choice_has_polish_and_spanish(
    tmp_path: Path,
) -> None:
    async with synced(tmp_path) as fake:
        sync = [r for r in fake.requests if r.method == "PUT" and r.path.endswith("/commands")]
        assert len(sync) == 1
        payload = sync[0].json  # exactly what discord.py sent to Discord
    # the table's group and Cave Troll's own
    assert [c["name"] for c in payload] == ["mk", "cave"]
    problems: list[str] = []
    seen = {"command": 0, "option": 0, "choice": 0}
    for path, kind, node in (found for group in payload for found in walk(group)):
        seen[kind] += 1
        names = node.get("name_localizations") or {}
        descriptions = node.get("description_localizations") or {}
        for locale in LOCALES:
            name = names.get(locale)
            if not name:
                problems.append(f"{path}: no {locale} name")
            elif kind != "choice" and not valid_name(name):
                problems.append(f"{path}: {locale} name {name!r} is not a valid Discord name")
            elif kind == "choice" and len(name) > CHOICE_LIMIT:
                problems.append(f"{path}: {locale} choice name longer than {CHOICE_LIMIT}")
            if kind == "choice":
                continue
            description = descriptions.get(locale, "")
            if not description.strip() or len(description) > DESCRIPTION_LIMIT:
                problems.append(f"{path}: {locale} description {description!r}")
    assert seen["command"] > 20 and seen["option"] > 30 and seen["choice"] > 20, seen
    assert not problems, "\n".join(problems)


async def test_names_are_unique_among_their_siblings_in_every_language(tmp_path: Path) -> None:
    """Two options of one command (or two subcommands of /mk) may not share a name in
    any language: Discord would refuse the sync."""
    async with synced(tmp_path) as fake:
        payload = fake.commands
    clashes = []
    for path, kind, node in (found for group in payload for found in walk(group)):
        if kind == "choice":
            continue
        children = [o for o in node.get("options", [])]
        for locale in LOCALES:
            names = [o.get("name_localizations", {}).get(locale, o["name"]) for o in children]
            if len(names) != len(set(names)):
                clashes.append(f"{path} in {locale}: {sorted(names)}")
    assert not clashes, clashes


async def test_the_rulebooks_words_name_the_commands(tmp_path: Path) -> None:
    async with synced(tmp_path) as fake:
        mk = fake.commands[0]
    sub = {c["name"]: c for c in mk["options"]}
    expected = {
        # command: (Polish, Spanish)
        "pyramid": ("wiec", "plantilla"),  # the trollsmoot
        "hall": ("grota", "salón"),  # great hall: wielka grota, gran salón
        "cast": ("czar", "hechizo"),
        "use": ("warsztat", "taller"),
        "recruit": ("werbuj", "reclutar"),
        "dig": ("kop", "cavar"),
        "gate": ("wrota", "puerta"),
        "new": ("nowa", "nueva"),
        "help": ("pomoc", "ayuda"),
    }
    for command, (polish, spanish) in expected.items():
        names = sub[command]["name_localizations"]
        assert (names["pl"], names["es-ES"], names["es-419"]) == (polish, spanish, spanish)
    assert mk["name_localizations"] == {"pl": "mk", "es-ES": "mk", "es-419": "mk"}
    dig = {o["name"]: o for o in sub["dig"]["options"]}
    assert dig["pedestal"]["name_localizations"]["pl"] == "cokół"
    assert dig["pedestal"]["name_localizations"]["es-ES"] == "pedestal"
    side = next(o for o in sub["new"]["options"] if o["name"] == "side")
    assert [c["name_localizations"]["pl"] for c in side["choices"]] == ["zimowa", "jesienna"]
    assert [c["value"] for c in side["choices"]] == ["winter", "autumn"], "values stay"


async def test_the_translator_answers_only_polish_and_spanish_clients() -> None:
    translator = CommandTranslator()
    name = discord.app_commands.locale_str("new")
    context: Any = discord.app_commands.TranslationContext(
        discord.app_commands.TranslationContextLocation.command_name, None
    )
    answers = {
        locale: await translator.translate(name, locale, context)
        for locale in (
            discord.Locale.polish,
            discord.Locale.latin_american_spanish,
            discord.Locale.american_english,
            discord.Locale.french,
        )
    }
    assert list(answers.values()) == ["nowa", "nueva", None, None]
    other: Any = discord.app_commands.TranslationContext(
        discord.app_commands.TranslationContextLocation.other, None
    )
    assert await translator.translate(name, discord.Locale.polish, other) is None


async def test_a_translated_name_discord_would_refuse_keeps_the_english_name(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """One bad name would make Discord refuse the whole sync: the translator logs it and
    leaves that name English."""

    class Careless:
        def lookup(self, message: str, context: str | None = None) -> str:
            return "Nowa Gra"

    monkeypatch.setattr(bot.i18n.commands, "translator_for", lambda language: Careless())
    context: Any = discord.app_commands.TranslationContext(
        discord.app_commands.TranslationContextLocation.command_name, None
    )
    name = discord.app_commands.locale_str("new")
    assert await CommandTranslator().translate(name, discord.Locale.polish, context) is None
    assert "not a valid command name" in caplog.text
    described: Any = discord.app_commands.TranslationContext(
        discord.app_commands.TranslationContextLocation.command_description, None
    )
    text = await CommandTranslator().translate(name, discord.Locale.polish, described)
    assert text == "Nowa Gra", "a description may have spaces and capitals"


# --- /mk help in the reader's language -------------------------------------------------


async def test_a_polish_client_gets_polish_help(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with running_bot(tmp_path / "db.sqlite3") as (env, _):
        channel, (ola, lucia, alice) = table_speaking(
            env, monkeypatch, {"ola": "pl", "lucia": "es-419", "alice": None}
        )
        polish = await ola.slash(channel, "mk help")
        assert polish.acknowledged and polish.ephemeral
        assert polish.response.content == help_text(None, translator_for("pl"))
        for words in ("/mk nowa", "/mk wrota", "/mk wybór", "wiec", "**Koniec gry.**"):
            assert words in polish.response.content, words
        topic = await ola.slash(channel, "mk help", topic="3")
        assert topic.response.content.startswith("**Krok 3: wielka grota**")
        spanish = await lucia.slash(channel, "mk help", topic="draft")
        assert spanish.response.content == help_text("draft", translator_for("es"))
        assert "plantilla" in spanish.response.content
        english = await alice.slash(channel, "mk help")
        assert english.response.content == HELP_OVERVIEW
        images = await ola.slash(channel, "mk help", topic="images")
        assert images.response.content.startswith("**Czytanie obrazów.**")
        assert [a.filename for a in images.response.attachments] == ["legend.png"]
        assert not env.errors


COMMAND = re.compile(r"/mk (\w+)(?: (\w+):)?")


@pytest.mark.parametrize("language", ["pl", "es"])
def test_the_help_names_commands_as_the_readers_client_shows_them(language: str) -> None:
    """Every `/mk <command>` a translated help text mentions is that command's name in
    the reader's language, and every `<option>:` after it one of its options there; and
    every text fits a Discord message."""
    messages = translator_for(language)
    template = [m for m in read_catalog(TEMPLATE) if m.id]
    commands = {
        messages.lookup(m.id, "command name") for m in template if m.context == "command name"
    }
    options = {messages.lookup(m.id, "option name") for m in template if m.context == "option name"}
    wrong = []
    for topic in [None, *HELP_SOURCES]:
        text = help_text(topic, messages)
        assert 0 < len(text) <= 1900, (topic, len(text))
        assert text != (HELP_OVERVIEW if topic is None else HELP[topic]), "translated"
        for command, option in COMMAND.findall(text):
            if command not in commands:
                wrong.append(f"{topic}: /mk {command}")
            if option and option not in options:
                wrong.append(f"{topic}: /mk {command} {option}:")
    assert not wrong, wrong
