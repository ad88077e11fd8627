"""Over the wire: the real bot connects to a loopback stand-in for Discord (gateway
handshake, REST, multipart uploads) through the two settings a self-hosted
Discord-compatible server would use. A slash command ends a turn; the bot must defer,
post the turn with two PNGs as multipart, and ping only the next player."""

from __future__ import annotations

import asyncio
import io
import logging
import random
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import discord
import pytest
from fake_discord import FakeDiscord, user
from PIL import Image
from wire_game import ALICE, BOB, game_to_first_recruit

from bot.__main__ import point_at
from bot.app import create_bot
from bot.service import GameService, MountainKingRules
from bot.settings import Settings
from bot.store.sqlite import SqliteStore
from rules.actions import Action
from rules.state import State

TOKEN = "wire-test-token-123"


async def _until(check: Callable[[], bool], task: asyncio.Task[Any], timeout: float = 15) -> None:
    for _ in range(int(timeout / 0.02)):
        if check():
            return
        if task.done():
            task.result()  # raises what killed the bot
            raise AssertionError("the bot stopped")
        await asyncio.sleep(0.02)
    raise AssertionError("timed out")


@asynccontextmanager
async def bot_on_the_wire(
    tmp_path: Path,
) -> AsyncIterator[tuple[FakeDiscord, asyncio.Task[None], str, int, int]]:
    """A 2-player game set up through the service up to the first player's recruit
    (its setup posts already delivered), and the real bot connected to a loopback
    Discord. Yields the fake, the bot's task, the thread, the mover and the other."""
    fake = FakeDiscord()
    fake.users = {ALICE: user(ALICE, "alice"), BOB: user(BOB, "bob")}
    thread = fake.add_thread("Mountain King #1")
    await fake.start()
    saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    store = SqliteStore(tmp_path / "db.sqlite3")
    await store.open()
    service: GameService[State, Action] = GameService(
        store, MountainKingRules(), rng=random.Random(2), reminder_interval=timedelta(hours=12)
    )
    mover, other = await game_to_first_recruit(service, thread)

    point_at(fake.api_base, fake.gateway_url)
    bot = create_bot(
        service,
        Settings(discord_token=None),
        scheduler_poll=0,
        guild_ready_timeout=0.05,
    )
    task = asyncio.create_task(bot.start(TOKEN))
    try:
        await _until(bot.is_ready, task)
        yield fake, task, thread, mover, other
    finally:
        await bot.close()
        await asyncio.wait([task], timeout=10)
        assert task.done() and task.exception() is None, task.exception()
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved
        await store.close()
        await fake.stop()


async def test_an_archived_thread_is_unarchived_and_gets_the_turn_post(tmp_path: Path) -> None:
    async with bot_on_the_wire(tmp_path) as (fake, task, thread, mover, _):
        await fake.archive(thread)
        await fake.slash(str(mover), thread, "act", action="end")

        def pinged() -> bool:
            return any("it's your turn" in m["content"] for m in fake.channel_messages(thread))

        await _until(pinged, task)
        unarchive = [
            r for r in fake.requests if r.method == "PATCH" and r.path == f"/channels/{thread}"
        ]
        assert unarchive and unarchive[0].json.get("archived") is False
        posts = [m for m in fake.channel_messages(thread) if m["_files"]]
        assert len(posts) == 1 and "recruited a" in posts[0]["content"]
        assert not fake.threads[thread]["thread_metadata"]["archived"]


async def test_a_turn_over_the_wire(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    async with bot_on_the_wire(tmp_path) as (fake, task, thread, mover, other):
        synced = [r for r in fake.requests if r.method == "PUT" and r.path.endswith("/commands")]
        assert synced and synced[0].json[0]["name"] == "mk"
        await fake.slash(str(mover), thread, "act", action="end")

        def posted() -> bool:
            return any("it's your turn" in m["content"] for m in fake.messages)

        await _until(posted, task)
        await _until(lambda: any(r.path.startswith("/webhooks/") for r in fake.requests), task)
        # the interaction was deferred first
        callback = next(r for r in fake.requests if r.path.endswith("/callback"))
        assert callback.json["type"] == 5
        # the turn post: multipart upload of two PNGs into the thread
        post = next(m for m in fake.messages if m["channel_id"] == thread and m["_files"])
        names = [f.filename for f in post["_files"]]
        assert names[0] == "board.png" and names[1].startswith("pyramid")
        for f in post["_files"]:
            assert f.data[:8] == b"\x89PNG\r\n\x1a\n"
            Image.open(io.BytesIO(f.data)).load()
        # the ping: a fresh message that may mention only the next player
        ping = next(m for m in fake.messages if "it's your turn" in m["content"])
        assert ping["channel_id"] == thread
        assert f"<@{other}>" in ping["content"]
        mentions = ping["allowed_mentions"]
        assert [int(u) for u in mentions["users"]] == [other]
        assert mentions.get("parse", []) == []
    # the token never reached a log line
    assert all(TOKEN not in r.getMessage() for r in caplog.records)
