"""Hosting: `/mk new` checks the bot's permissions in the channel before it stores
anything and names each missing one; a thread or lobby Discord still refuses leaves no
open game behind; the bot logs its invite URL (with the permission integer, never the
token) at start-up; and README.md and .env.example say the same."""

from __future__ import annotations

import asyncio
import logging
import random
import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import discord
import pytest
from bot_harness import TableOf, running_bot
from fake_discord import APP_ID, GUILD_ID, FakeDiscord
from process_harness import BotProcess
from service_checks import games_of_user

import bot.features.lobby as lobby
from bot.app import SCOPES, invite_url, shards_text
from bot.features.lobby import CHANNEL_PERMISSIONS, missing_permissions
from bot.service import MOUNTAIN_KING, GameNotFoundError, GameService
from bot.store import SqliteStore
from bot.texts import permission_name

ROOT = Path(__file__).resolve().parents[2]
# what the bot does in a game's channel, and the permission each needs
NEEDED = {
    "view_channel",  # see the channel and the thread
    "send_messages",  # the fallback post in the channel
    "create_public_threads",  # channel.create_thread
    "send_messages_in_threads",  # every post in the thread; unarchiving it
    "attach_files",  # the images
    "read_message_history",  # the courier's look back before a resend
}


def test_the_bot_asks_for_exactly_what_it_uses() -> None:
    assert discord.Permissions(**dict.fromkeys(NEEDED, True)) == CHANNEL_PERMISSIONS
    assert len([flag for flag, on in CHANNEL_PERMISSIONS if on]) == len(NEEDED)
    assert CHANNEL_PERMISSIONS.value == 309237746688
    assert missing_permissions(discord.Permissions.none()) == [
        flag for flag, on in CHANNEL_PERMISSIONS if on
    ]
    assert missing_permissions(CHANNEL_PERMISSIONS) == []
    names = {permission_name(flag) for flag in missing_permissions(discord.Permissions.none())}
    assert names == {permission_name(flag) for flag in NEEDED}
    assert missing_permissions(discord.Permissions(administrator=True)) == []


def test_the_invite_url_carries_the_scopes_and_the_permission_integer() -> None:
    query = parse_qs(urlsplit(invite_url(int(APP_ID))).query)
    assert query["client_id"] == [APP_ID]
    assert query["permissions"] == [str(CHANNEL_PERMISSIONS.value)]
    assert query["scope"] == [" ".join(SCOPES)] == ["bot applications.commands"]


async def _games_stored(bot: Any) -> bool:
    try:
        await bot.service.info(1)
    except GameNotFoundError:
        return False
    return True


async def test_new_names_each_missing_permission_and_stores_nothing(tmp_path: Path) -> None:
    async with running_bot(tmp_path / "db.sqlite3") as (env, bot):
        guild = env.create_guild()
        alice = guild.add_member(env.create_user("alice"))
        denied = discord.PermissionOverwrite(create_public_threads=False, attach_files=False)
        channel = guild.create_text_channel("games", overwrites={guild.me: denied})
        result = await alice.slash(channel, "mk new", players=2)
        assert result.acknowledged and result.ephemeral
        text = result.response.content
        assert "**Create Public Threads**" in text and "**Attach Files**" in text, text
        for flag in NEEDED - {"create_public_threads", "attach_files"}:
            assert permission_name(flag) not in text, flag
        assert "Nothing was created" in text
        assert channel.threads == []
        assert not await _games_stored(bot)
        assert await games_of_user(bot.service, alice.id) == []
        assert not env.errors


@pytest.mark.parametrize(
    ("denied", "thread_made"),
    [
        (discord.PermissionOverwrite(create_public_threads=False), False),
        (discord.PermissionOverwrite(send_messages_in_threads=False), True),
    ],
)
async def test_a_refused_thread_or_lobby_leaves_no_open_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, denied: Any, thread_made: bool
) -> None:
    """Discord may still refuse after the check (permissions changed in between, or
    a thread-level rule): the game made a moment before is not left open."""
    monkeypatch.setattr(lobby, "missing_permissions", lambda granted: [])
    async with running_bot(tmp_path / "db.sqlite3") as (env, bot):
        guild = env.create_guild()
        alice = guild.add_member(env.create_user("alice"))
        channel = guild.create_text_channel("games", overwrites={guild.me: denied})
        result = await alice.slash(channel, "mk new", players=2)
        assert result.acknowledged and result.ephemeral
        assert "no game was opened" in result.response.content
        assert await games_of_user(bot.service, alice.id) == [], "no game is open"
        with pytest.raises(GameNotFoundError):
            await bot.service.info(1)  # the game made a moment before is deleted
        # the thread made for it, if any, is gone (the bot may delete it here)
        assert channel.threads == []
        assert not env.errors


async def test_the_bot_logs_its_invite_url_at_start_up_without_the_token(
    tmp_path: Path,
) -> None:
    async with FakeDiscord() as fake, BotProcess(fake, tmp_path) as process:
        await process.start()
        log = process.log_paths[-1].read_text()
        token = process.token
    assert token not in log
    (url,) = re.findall(r"https://discord\.com/oauth2/authorize\?\S+", log)
    query = parse_qs(urlsplit(url).query)
    assert query["client_id"] == [APP_ID]
    assert query["permissions"] == ["309237746688"]
    assert query["scope"] == ["bot applications.commands"]


def test_the_hosting_guide_lists_every_permission_and_the_integer() -> None:
    readme = (ROOT / "README.md").read_text()
    guide = readme.split("## Hosting the bot", 1)[1].split("\n## ", 1)[0]
    for flag in NEEDED:
        assert permission_name(flag) in guide, flag
    assert str(CHANNEL_PERMISSIONS.value) in guide
    for words in ("applications.commands", "Manage Server", "DEV_GUILD_ID", "privileged"):
        assert words in guide, words
    example = (ROOT / ".env.example").read_text()
    assert "DEV_GUILD_ID" in example and str(CHANNEL_PERMISSIONS.value) in example


async def test_a_store_that_cannot_write_gets_one_sentence_for_any_command(
    table_of: TableOf, caplog: pytest.LogCaptureFixture
) -> None:
    """Not only moves: opening a game on a store that cannot write (here read-only, as a
    full disk or a read-only remount would be) tells the player in a sentence, logs the
    reason for the host, and stores nothing."""
    async with table_of("alice") as (_, bot, channel, (alice,)):
        store = bot.service.store
        assert isinstance(store, SqliteStore)
        await store._on_writer(lambda db: db.execute("PRAGMA query_only = ON"))
        with caplog.at_level(logging.WARNING):
            result = await alice.slash(channel, "mk new", players=2)
        assert result.ephemeral
        text = " ".join(m.content for m in [result.response, *result.followups] if m)
        assert "could not save" in text and "nothing was changed" in text, text
        assert "a change could not be saved" in caplog.text
        assert "Traceback" not in text
        await store._on_writer(lambda db: db.execute("PRAGMA query_only = OFF"))
        assert await games_of_user(bot.service, alice.id) == []
        assert channel.threads == []


async def test_once_connected_the_bot_logs_the_servers_and_games_it_serves(
    tmp_path: Path,
) -> None:
    """The ready line counts the games of the servers this process is in: running and
    waiting to start, not finished ones, not those of a server it does not serve."""
    database = tmp_path / "bot.sqlite3"
    here, elsewhere = int(GUILD_ID), int(GUILD_ID) + 1
    async with SqliteStore(database) as store:
        service = GameService(store, MOUNTAIN_KING, rng=random.Random(2))
        running = await service.create_game(11, {"players": 2}, guild_id=here)
        await service.seating.join(running.id, 12)
        await service.start(running.id, 11)
        await service.create_game(13, {"players": 3}, guild_id=here)
        await service.create_game(14, {"players": 3}, guild_id=elsewhere)
        over = await service.create_game(15, {"players": 2}, guild_id=here)
        await service.abandon(over.id, 15)
    async with FakeDiscord() as fake, BotProcess(fake, tmp_path, database=database) as process:
        await process.start()
        lines: list[str] = []
        for _ in range(500):  # on_ready comes after discord.py's 2 s wait for guilds
            lines = re.findall(r"Ready as .*", process.log_paths[-1].read_text())
            if lines:
                break
            await asyncio.sleep(0.02)
    assert lines == [
        "Ready as mountain-king: serving 1 server and 2 games (1 running, 1 waiting to start)"
    ], process.tail()


async def test_the_ready_line_names_the_shards_a_process_runs() -> None:
    none = discord.Intents.none()
    assert shards_text(discord.Client(intents=none)) == ""
    one = discord.Client(intents=none, shard_id=3, shard_count=4)
    assert shards_text(one) == " on shard 3 of 4"
    several = discord.AutoShardedClient(intents=none, shard_ids=[0, 1], shard_count=4)
    assert shards_text(several) == " on shards 0, 1 of 4"
    assert shards_text(discord.Client(intents=none, shard_id=0, shard_count=1)) == ""
