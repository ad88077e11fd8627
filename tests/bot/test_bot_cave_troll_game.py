"""A whole 3-player game of Cave Troll through real discord.py (SimCord), every action
by its own `/cave` command: opened with `/mk new game:cave-troll`, a Troll flight
answered by two players and left to its deadline by the third (the injected clock
moved a day; the table gives the default answer), the loot counted, an artifact of
each kind played, the bot restarted in the middle, and the end with its record.

The seed is chosen so that all of it happens with the policy of `ct_bot_helpers` (the
Delver, each artifact played as soon as it can be, a Troll placed where most players
stand): bot seed 9 draws game seed 1988601454.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot_harness import (
    TableOf,
    history_from,
    make_bot,
    open_game,
    pngs,
    scheduler,
    visible_count,
)
from ct_bot_helpers import command_for, played_kinds, policy

from bot.client import MountainBot
from cave_troll.state import State
from cave_troll.turns import to_act

BOT_SEED = 9
GAME_SEED = 1988601454
RESTART_AT = 60  # actions into the game
# where the test leaves the images and the thread's text to look at (optional)
SHOW = os.environ.get("CT_SHOW")


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def state_of(bot: MountainBot, game_id: int) -> State:
    state = (await bot.service.load(game_id)).state
    assert isinstance(state, State)
    return state


async def test_a_whole_game_of_cave_troll_through_discord(
    tmp_path: Path, table_of: TableOf
) -> None:
    clock = Clock()
    db = tmp_path / "db.sqlite3"
    names = ("alice", "bob", "carol")
    async with table_of(*names, seed=BOT_SEED, clock=clock, db=db) as (env, bot, channel, people):
        thread, game_id = await open_game(env, people, channel, game="cave-troll")
        assert (await bot.service.load(game_id)).game.seed == GAME_SEED
        info = await bot.service.info(game_id)
        users = {p.id: p for p in people}
        seats: dict[int, Any] = {s.seat: users[s.controller_id] for s in info.seats}
        sent = restarts = 0
        left: int | None = None  # the seat left to its deadline in the flight of three
        flight_post = None
        while True:
            state = await state_of(bot, game_id)
            if state.phase == "over":
                break
            seat = to_act(state)[0]
            if state.flight is not None and left is None and len(state.flight.queue) == 3:
                left = state.flight.queue[-1]
                flight_post = thread.history()[-1]
            if state.flight is not None and seat == left:
                # nobody answers: halfway a reminder, at the deadline the default answer
                flight = state.flight
                clock.now += timedelta(hours=12)
                await scheduler(bot).round()
                clock.now += timedelta(hours=12)
                await scheduler(bot).round()
                after = await state_of(bot, game_id)
                assert after.flight is None or after.flight.queue[0] != left, "answered"
                mine = {p.at for p in after.pieces if p.owner == left and p.kind != "troll"}
                assert flight.room not in mine
                left = -1  # done
                continue
            name, options = command_for(policy(state, seat))
            result = await seats[seat].slash(thread, name, **options)
            assert result.acknowledged
            answer = result.response.content
            assert answer.startswith("Done: you "), (name, options, answer)
            sent += 1
            if sent == RESTART_AT:
                # a new process on the same database carries the game on
                old_store = bot.service.store
                bot = await make_bot(db, seed=BOT_SEED, clock=clock)
                await env.restart_bot(bot)
                await old_store.close()
                restarts += 1
        assert restarts == 1 and left == -1
        state = await state_of(bot, game_id)
        assert played_kinds(state) == {"helm", "chalice", "eldarra", "wand", "cloak", "sword"}

        thread_text = "\n".join(m.content for m in thread.history())
        # the flight's post: its room, who answers, by when; the late seat told
        assert flight_post is not None
        assert "A Cave Troll is in" in flight_post.content and "Answer <t:" in flight_post.content
        assert "did not answer by" in thread_text
        log = await bot.service.store.actions(game_id)
        answers = {
            (e.seat, e.user_id is None) for e in log if e.notation.split()[0] in ("flee", "stay")
        }
        assert any(ai for _, ai in answers) and len({s for s, ai in answers if not ai}) >= 2
        # the loot counted, each artifact told
        assert "the loot is counted" in thread_text
        # an artifact found is the finder's secret: the table hears that one was found
        assert "finds an artifact, kept secret" in thread_text
        assert "finds the " not in thread_text
        for artifact in (
            "Helm of Mind Control",
            "Chalice of Teleportation",
            "Mark of El'darra",
            "Wand of Speed",
            "Cloak of Invisibility",
            "Sword of Death",
        ):
            assert f"played the {artifact}" in thread_text, artifact
        # the end: the winners, everyone's gold, the cave and the record, described
        last = thread.history()[-1]
        assert "The game is over" in last.content, last.content
        files = {a.filename: a for a in last.attachments}
        assert files["cave.png"].description and "Gold:" in files["cave.png"].description
        record = files[f"game-{game_id}.json"]
        assert record.description and "record" in record.description
        assert not env.errors
        if SHOW:
            out = Path(SHOW)
            out.mkdir(parents=True, exist_ok=True)
            (out / "thread.txt").write_text(thread_text)
            for message, stem in ((flight_post, "flight"), (last, "end")):
                for k, img in enumerate(await pngs(message)):
                    img.save(out / f"{stem}-{k}.png")
        assert visible_count(env, thread) == len(history_from(env, thread, 0))
        # the restarted bot's store is this test's to close (the fixture closes its own)
        await bot.service.store.close()
