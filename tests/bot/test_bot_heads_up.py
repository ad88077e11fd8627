"""The "you're next" heads-up through real discord.py (SimCord): `/mk notify
heads_up:True` is said back, and the player after the one whose turn began gets one
DM, not a second on the next round."""

from __future__ import annotations

from typing import Any

from bot_harness import TableOf, open_game, run_duties, set_up


def answer(result: Any) -> str:
    return str(result.followups[-1].content if result.followups else result.response.content)


async def test_the_next_player_gets_one_heads_up(table_of: TableOf) -> None:
    async with table_of("alice", "bob") as (env, bot, channel, (alice, bob)):
        thread, game_id = await open_game(env, [alice, bob], channel)
        await set_up(bot, [alice, bob], thread, game_id)
        info = await bot.service.info(game_id)
        state = (await bot.service.load(game_id)).state
        assert state is not None and state.turn is not None
        acting = info.seats[state.turn.seat].controller_id
        other = bob if acting == alice.id else alice
        said = answer(await other.slash(channel, "mk notify", heads_up=True))
        assert "Heads-up: a direct message when the player before you starts" in said
        await run_duties(bot)
        await run_duties(bot)
        told = [m.content for m in other.user.dm_channel.history() if "You're next" in m.content]
        assert len(told) == 1 and f"game #{game_id}" in told[0]
        off = answer(await other.slash(channel, "mk notify", heads_up=False))
        assert "Heads-up: off" in off
