"""One turn through the bot (budget: under 250 ms median): a slash command in, the
turn's public post with its images (the board, a zoomed crop when the turn changed
cells, the player's pyramid) and its call to the next player out, on a real SQLite
file, through real discord.py against SimCord's in-memory Discord.

Also how long the player waits for the private answer to each action (from the slash
command until the bot has sent it), above all to the game's last action, whose
game-over post (score sheet, replay of every turn, record) is rendered as well.

    .venv/bin/python -m benchmarks.bot_bench
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from rules.selfplay import random_action
from rules.steps import seats_to_act
from tests.bot.bot_harness import open_game, running_bot, set_up


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        async with running_bot(Path(tmp) / "bench.sqlite3") as (env, bot):
            guild = env.create_guild()
            channel = guild.create_text_channel("games")
            players = [guild.add_member(env.create_user(n)) for n in ("ann", "ben", "cat", "dan")]
            thread, game_id = await open_game(env, players, channel)
            await set_up(bot, players, thread, game_id)
            info = await bot.service.info(game_id)
            answered_at: list[float] = []
            give_answer = bot.answer

            async def timed_answer(*args: Any, **kwargs: Any) -> None:
                await give_answer(*args, **kwargs)
                answered_at.append(time.perf_counter())

            bot.answer = timed_answer  # type: ignore[method-assign]
            by_seat = {s.seat: next(p for p in players if p.id == s.user_id) for s in info.seats}
            rng = random.Random(5)
            turn_times: list[float] = []
            zoomed_times: list[float] = []
            other_times: list[float] = []
            answer_times: list[float] = []
            final = 0.0
            final_answer = 0.0
            frames = 0
            while True:
                state = (await bot.service.load(game_id)).state
                if state.phase == "over":
                    break
                seat = seats_to_act(state)[0]
                action = random_action(state, seat, rng)
                posts_before = len(thread.history())
                answered_at.clear()
                t = time.perf_counter()
                if state.phase == "gates":
                    await by_seat[seat].slash(thread, "mk gate", point=str(action).split()[1])
                else:
                    await by_seat[seat].slash(thread, "mk act", action=str(action))
                elapsed = time.perf_counter() - t
                answer = answered_at[0] - t if answered_at else elapsed
                posted = thread.history()[posts_before:]
                if any("The game is over" in m.content for m in posted):
                    final = elapsed
                    final_answer = answer
                    frames = len(await bot.service.history.turn_views(game_id))
                    continue
                if len(turn_times) >= 40:
                    continue
                images = max((len(m.attachments) for m in posted), default=0)
                (turn_times if images >= 2 else other_times).append(elapsed)
                if images >= 2:
                    answer_times.append(answer)
                if images == 3:
                    zoomed_times.append(elapsed)
    print(
        f"one turn through the bot (end of turn: post with 2-3 PNGs), {len(turn_times)}"
        f" turns: {statistics.median(turn_times) * 1000:.1f} ms median,"
        f" max {max(turn_times) * 1000:.1f} ms  (budget 250 ms)"
    )
    print(
        f"  of which with the zoomed crop (3 PNGs), {len(zoomed_times)} turns:"
        f" {statistics.median(zoomed_times) * 1000:.1f} ms median,"
        f" max {max(zoomed_times) * 1000:.1f} ms"
    )
    print(
        f"one action within a turn or a setup turn (no images), {len(other_times)} actions:"
        f" {statistics.median(other_times) * 1000:.1f} ms median"
    )
    print(
        f"the private answer to an action that ends a turn, {len(answer_times)} turns:"
        f" {statistics.median(answer_times) * 1000:.1f} ms median,"
        f" max {max(answer_times) * 1000:.1f} ms"
    )
    print(
        f"the private answer to the game's last action: {final_answer * 1000:.0f} ms;"
        f" with the game-over post (score sheet, replay WebP of {frames} boards, record)"
        f" delivered: {final * 1000:.0f} ms"
    )


if __name__ == "__main__":
    asyncio.run(main())
