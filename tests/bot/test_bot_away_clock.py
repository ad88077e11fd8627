"""Away and the turn clock through real discord.py (SimCord): a player away for three
days from two games (one where the AI plays for them, one that waits), a whole game
where the AI plays an away player's turns until their end date brings them back, and a
game with a turn clock in playing hours, with a restart in between."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot_harness import (
    TableOf,
    history_from,
    make_bot,
    open_game,
    play_to_end,
    run_duties,
    scheduler,
    set_up,
    visible_count,
)

from rules.legal import legal_actions
from rules.selfplay import random_action
from rules.steps import seats_to_act


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def answer(result: Any) -> str:
    return str(result.followups[-1].content if result.followups else result.response.content)


def said(thread: Any, words: str) -> list[str]:
    return [m.content for m in thread.history() if words in m.content]


async def play_until(
    bot: Any, thread: Any, game_id: int, by_seat: dict[int, Any], seat: int, *, ai: bool = False
) -> None:
    """The players of the other seats play random actions (`/mk act`) and the AI its
    owed moves until the game awaits `seat` (with `ai`: until the AI played it)."""
    rng = random.Random(5)
    for _ in range(400):
        if ai and await run_duties(bot):
            return
        await run_duties(bot)
        state = (await bot.service.load(game_id)).state
        now = seats_to_act(state)[0]
        if now == seat and not ai:
            return
        result = await by_seat[now].slash(
            thread, "mk act", action=str(random_action(state, now, rng))
        )
        assert result.acknowledged
    raise AssertionError("the seat was never awaited")


async def test_a_player_away_for_three_days(table_of: TableOf) -> None:
    clock = Clock()
    async with table_of("alice", "bob", clock=clock) as (env, bot, channel, (alice, bob)):
        players = [alice, bob]
        ai_thread, ai_game = await open_game(env, players, channel, away="ai")
        await set_up(bot, players, ai_thread, ai_game)
        wait_thread, wait_game = await open_game(env, players, channel)
        await set_up(bot, players, wait_thread, wait_game)
        # a bad end is one private sentence and changes nothing
        for bad, words in (
            ({"days": 0}, "not in the future"),
            ({"until": "2020-01-01"}, "not in the future"),
            ({"days": 61}, "at most 60 days"),
            ({"until": "soon"}, "YYYY-MM-DD"),
        ):
            assert words in answer(await alice.slash(channel, "mk away", **bad))
        assert await bot.service.away.of(alice.id) is None
        assert "You are away until" in answer(await alice.slash(channel, "mk away", days=3))
        for thread in (ai_thread, wait_thread):
            [notice] = said(thread, "is away until")
            assert notice.startswith("alice (") and "<t:" in notice
        seat_of = {
            g: {s.user_id: s.seat for s in (await bot.service.info(g)).seats}
            for g in (ai_game, wait_game)
        }
        # the AI plays alice's turns where the game said so
        by_seat = {seat_of[ai_game][bob.id]: bob}
        bob_seat = seat_of[ai_game][bob.id]
        await play_until(bot, ai_thread, ai_game, by_seat, bob_seat)
        await play_until(bot, ai_thread, ai_game, by_seat, 1 - bob_seat, ai=True)
        await play_until(bot, ai_thread, ai_game, by_seat, bob_seat)
        log = await bot.service.store.actions(ai_game)
        assert any(e.seat == seat_of[ai_game][alice.id] and e.user_id is None for e in log[-40:])
        # the other game waits for her: two days on, nobody reminds her, nobody votes
        mentions = len(
            [m for t in (ai_thread, wait_thread) for m in t.history() if alice.id in m.raw_mentions]
        )
        await play_until(
            bot,
            wait_thread,
            wait_game,
            {seat_of[wait_game][bob.id]: bob},
            seat_of[wait_game][alice.id],
        )
        clock.now += timedelta(days=2)
        await scheduler(bot).round()
        assert await bot.service.notifications.due_reminders() == []
        assert await bot.service.store.open_votes() == []
        assert mentions == len(
            [m for t in (ai_thread, wait_thread) for m in t.history() if alice.id in m.raw_mentions]
        )
        # she acts in the waiting game: back at once, and each game says so once
        state = (await bot.service.load(wait_game)).state
        seat = seat_of[wait_game][alice.id]
        action = random_action(state, seat, random.Random(1))
        assert (await alice.slash(wait_thread, "mk act", action=str(action))).acknowledged
        assert await bot.service.away.of(alice.id) is None
        await scheduler(bot).round()
        for thread in (ai_thread, wait_thread):
            assert len(said(thread, "is away until")) == 1
            assert said(thread, "is back") == [said(thread, "is back")[0]]
            assert said(thread, "is back")[0].startswith("alice (")
        assert "You are not away" in answer(await alice.slash(channel, "mk away"))


async def test_a_whole_game_with_a_player_away_for_three_days(table_of: TableOf) -> None:
    """alice goes away for three days in a game whose AI plays for the away: bob plays
    a turn a day, the AI plays hers, nobody reminds her, DMs her or votes on her; her
    end date brings her back, and the two play the game to its end."""
    clock = Clock()  # Saturday 21 November 2026, 12:00 UTC
    async with table_of("alice", "bob", clock=clock) as (env, bot, channel, (alice, bob)):
        thread, game_id = await open_game(env, [alice, bob], channel, away="ai")
        await set_up(bot, [alice, bob], thread, game_id)
        info = await bot.service.info(game_id)
        by_seat = {s.seat: (alice if s.user_id == alice.id else bob) for s in info.seats}
        hers = next(seat for seat, p in by_seat.items() if p is alice)
        # she wants reminders and a daily digest by DM, then leaves until Tuesday
        assert (await alice.slash(channel, "mk notify", dm=True, digest=True)).acknowledged
        start = visible_count(env, thread)
        assert "You are away until" in answer(await alice.slash(channel, "mk away", days=3))
        record = await bot.service.away.of(alice.id)
        assert record is not None and record.ends_at == datetime(2026, 11, 24, tzinfo=UTC)
        rng = random.Random(7)
        ai_turns = bob_reminded = 0
        while True:
            ai_turns += bool(await run_duties(bot))  # the AI plays her turn at once
            clock.now += timedelta(hours=20)  # bob takes his time: a reminder comes
            done = await scheduler(bot).round()
            assert not done.moves
            if await bot.service.away.of(alice.id) is None:
                break  # her end date came
            assert clock.now < record.ends_at
            bob_reminded += 1
            # bob plays his whole turn
            state = (await bot.service.load(game_id)).state
            assert state is not None and seats_to_act(state) == [1 - hers]
            while state.phase == "play" and seats_to_act(state) == [1 - hers]:
                action = str(random_action(state, 1 - hers, rng))
                assert (await bob.slash(thread, "mk act", action=action)).acknowledged
                state = (await bot.service.load(game_id)).state
        assert clock.now >= record.ends_at and ai_turns >= 2
        away = history_from(env, thread, start)
        [notice] = [m for m in away if "is away until" in m.content]
        assert notice.content.startswith("alice (") and "<t:" in notice.content
        [back] = [m for m in away if "is back" in m.content]
        assert back.content.startswith("alice (") and back is away[-1]
        # the AI's turns were posted as hers; the calls and reminders went to bob alone
        assert len([m for m in away if m.content.startswith("**alice (")]) == ai_turns
        assert all(m.raw_mentions in ([], [bob.id]) for m in away)
        reminded = [m for m in away if "is waiting for you" in m.content]
        assert len(reminded) >= bob_reminded and all(m.raw_mentions == [bob.id] for m in reminded)
        assert not list(alice.user.dm_channel.history())
        assert await bot.service.store.open_votes() == []
        assert not [m for m in away if "may vote" in m.content]
        log = await bot.service.store.actions(game_id)
        assert any(e.seat == hers and e.user_id is None for e in log)
        # back: she plays her own turns to the end (the seed of a short game: the
        # commands to the end are most of this test's time)
        await play_to_end(env, bot, by_seat, thread, game_id, seed=10)
        after = history_from(env, thread, start)
        assert "The game is over" in after[-1].content
        assert len([m for m in after if "is away until" in m.content]) == 1
        assert len([m for m in after if "is back" in m.content]) == 1
        assert await bot.service.store.open_votes() == []
        assert not env.errors


async def test_a_turn_clock_in_playing_hours_across_a_restart(
    tmp_path: Path, table_of: TableOf
) -> None:
    clock = Clock()  # Saturday 21 November 2026, 12:00 UTC: 07:00 in New York
    db = tmp_path / "db.sqlite3"
    async with table_of("alice", "bob", clock=clock, db=db) as (env, bot, channel, (alice, bob)):
        for player in (alice, bob):
            night = {"timezone": "America/New_York", "quiet_from": 22, "quiet_to": 7}
            assert (await player.slash(channel, "mk notify", **night)).acknowledged
        # a clock of 0 or 10,000 hours: one sentence, no game
        for hours in (0, 10_000):
            refused = await alice.slash(channel, "mk new", players=2, clock=hours)
            assert "from 1 to 720 hours" in answer(refused)
        assert not channel.threads
        thread, game_id = await open_game(env, [alice, bob], channel, clock=24)
        await scheduler(bot).round()  # the clock is set for the first gate
        [(seat, due)] = (await bot.service.clock.deadlines(game_id)).items()
        # 24 playing hours from 07:00: 15 on Saturday, then 9 on Sunday from 07:00
        assert abs(due - datetime(2026, 11, 22, 21, 0, tzinfo=UTC)) < timedelta(seconds=1)
        # the start post calls the first placer with that deadline
        [start] = said(thread, "the game has begun")
        assert start.endswith(f" Turn clock: runs out <t:{int(due.timestamp())}:R>."), start
        info = await bot.service.info(game_id)
        player = alice if info.seats[seat].user_id == alice.id else bob
        status = await player.slash(thread, "mk status")
        assert f"<t:{int(due.timestamp())}:R>" in answer(status)
        # the post that calls the next player shows its deadline
        state = (await bot.service.load(game_id)).state
        point = str(legal_actions(state, seat, "gate")[0]).split()[1]
        assert (await player.slash(thread, "mk gate", point=point)).acknowledged
        assert "Turn clock: runs out <t:" in thread.history()[-1].content
        await scheduler(bot).round()
        [(seat, due)] = (await bot.service.clock.deadlines(game_id)).items()
        awaited = alice if info.seats[seat].user_id == alice.id else bob
        # a quarter left: one reminder, mentioning that player alone
        clock.now = due - timedelta(hours=5)
        await scheduler(bot).round()
        [warning] = said(thread, "a quarter of your turn clock")
        assert warning.startswith(f"<@{awaited.id}>")
        await scheduler(bot).round()
        assert len(said(thread, "a quarter of your turn clock")) == 1
        # a restart changes nothing; at zero the table's vote opens
        old_store = bot.service.store
        new_bot = await make_bot(db, clock=clock)
        await env.restart_bot(new_bot)
        await old_store.close()
        try:
            await scheduler(new_bot).round()
            assert len(said(thread, "a quarter of your turn clock")) == 1
            clock.now = due + timedelta(minutes=1)
            await scheduler(new_bot).round()
            assert len(said(thread, "turn clock ran out")) == 1
            assert said(thread, "may vote")
            await scheduler(new_bot).round()
            assert len(said(thread, "turn clock ran out")) == 1
        finally:
            await new_bot.service.store.close()


async def test_the_clock_reminder_comes_by_dm_to_who_wants_reminders_so(table_of: TableOf) -> None:
    clock = Clock()
    async with table_of("alice", "bob", clock=clock) as (env, bot, channel, (alice, bob)):
        thread, game_id = await open_game(env, [alice, bob], channel, clock=8)
        await scheduler(bot).round()  # the clock is set for the first gate
        [(seat, due)] = (await bot.service.clock.deadlines(game_id)).items()
        info = await bot.service.info(game_id)
        awaited = alice if info.seats[seat].user_id == alice.id else bob
        assert (await awaited.slash(channel, "mk notify", dm=True)).acknowledged
        clock.now = due - timedelta(hours=1)
        for _ in range(2):
            await scheduler(bot).round()
        dms = [m for m in awaited.user.dm_channel.history() if "turn clock" in m.content]
        assert len(dms) == 1, "one reminder"
        assert f"game #{game_id} of Mountain King is left (" in dms[0].content
        assert f"<t:{int(due.timestamp())}:R>" in dms[0].content
        assert not said(thread, "a quarter of your turn clock"), "by DM, not in the thread"
        # the other wants DMs too but accepts none from the bot: in the thread, mentioned
        other = bob if awaited is alice else alice
        assert (await other.slash(channel, "mk notify", dm=True)).acknowledged
        closed = other.user.dm_channel
        env.inject_error(
            "POST", f"/channels/{closed.id}/messages", status=403, code=50007, times=None
        )
        state = (await bot.service.load(game_id)).state
        point = str(legal_actions(state, seat, "gate")[0]).split()[1]
        assert (await awaited.slash(thread, "mk gate", point=point)).acknowledged
        await scheduler(bot).round()
        [(_, due)] = (await bot.service.clock.deadlines(game_id)).items()
        clock.now = due - timedelta(hours=1)
        await scheduler(bot).round()
        [warning] = said(thread, "a quarter of your turn clock")
        assert warning.startswith(f"<@{other.id}>")
        assert not env.errors


async def test_the_open_lobbies_show_the_clock_and_the_away_policy(table_of: TableOf) -> None:
    async with table_of("alice", "bob") as (env, _, channel, (alice, bob)):
        timed = {"clock": 48, "clock_policy": "ai", "away": "ai"}
        assert (await alice.slash(channel, "mk new", players=2, **timed)).acknowledged
        assert (await bob.slash(channel, "mk new", players=3)).acknowledged
        timed_line, plain_line = answer(await bob.slash(channel, "mk games", open=True)).split(
            "\n"
        )[1:]
        assert timed_line.startswith("#1 by <@")
        assert "· turn clock: 48 hours, then the AI plays the turn" in timed_line
        assert "· while a player is away: the AI plays ·" in timed_line
        assert "turn clock" not in plain_line
        assert "· while a player is away: the game waits ·" in plain_line
        # and /mk admin what:settings in the game's thread
        shown = answer(await bob.slash(channel.threads[0], "mk admin", what="settings"))
        assert "turn clock: 48 hours, then the AI plays the turn" in shown
        assert not env.errors
