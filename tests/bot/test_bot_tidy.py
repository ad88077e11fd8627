"""Tidy servers through real discord.py (SimCord): a server admin sets the idle days
(anyone else is refused), an idle game is warned in its thread once and ended as
abandoned with its record attached and described (the service tests hold the rest)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
from bot_harness import TableOf, open_game, run_duties

DAY = timedelta(days=1)


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def answer(result: Any) -> str:
    return str(result.followups[-1].content if result.followups else result.response.content)


async def test_an_idle_game_is_warned_then_ended_with_its_record(table_of: TableOf) -> None:
    clock = Clock()
    async with table_of("alice", "bob", clock=clock) as (env, bot, channel, (alice, bob)):
        guild = channel.guild
        mods = guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
        mod = guild.add_member(env.create_user("mod"), roles=[mods])
        refused = await alice.slash(channel, "mk admin", what="settings", idle_days=10)
        assert "Only a server admin" in answer(refused)
        done = await mod.slash(channel, "mk admin", what="settings", idle_days=10)
        assert "no move for 10 days is warned" in answer(done)
        thread, game_id = await open_game(env, [alice, bob], channel)
        # what:settings shows them to anyone, in the channel and in a game's thread
        for where in (channel, thread):
            shown = await alice.slash(where, "mk admin", what="settings")
            assert "no move for 10 days is warned" in answer(shown)
        clock.now += 10 * DAY + timedelta(minutes=1)
        await run_duties(bot)
        warned = [m for m in thread.history() if "Nobody has moved" in m.content]
        assert len(warned) == 1 and "ends as abandoned" in warned[0].content
        clock.now += 7 * DAY + timedelta(minutes=1)
        await run_duties(bot)
        await run_duties(bot)
        ended = [m for m in thread.history() if "it ended as abandoned" in m.content]
        assert len(ended) == 1
        (record,) = ended[0].attachments
        assert record.filename == f"game-{game_id}.json"
        assert "record up to where it stopped" in (record.description or "")
        assert json.loads(await record.read())["seed"] is not None
        assert (await bot.service.info(game_id)).status == "abandoned"
