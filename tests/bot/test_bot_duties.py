"""The bot's side of several processes on one database: a game's delivery that another
process holds is left to it (and done once it lets go, or at once if it died on this
machine), and a private answer another process's command is giving is not sent at
start-up unless that process is gone. The other process is a second store and service
on the same SQLite file, as a process of a rolling restart has."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot_harness import guild_table, open_game, running_bot, scheduler, set_up
from processes import dead_process_id

from bot.service import GameService, MountainKingRules, ReplyTo
from bot.service.duties import duty
from bot.store import DutyClaim, SqliteStore
from rules.legal import legal_actions
from rules.steps import seats_to_act


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def first_turn(env: Any, bot: Any) -> tuple[Any, int, Any, int]:
    """A 2-player game through its setup: the thread, the game, the player to move and
    their seat."""
    channel, players = guild_table(env, "al", "bo")
    thread, game_id = await open_game(env, players, channel)
    await set_up(bot, players, thread, game_id)
    seat = seats_to_act((await bot.service.load(game_id)).state)[0]
    info = await bot.service.info(game_id)
    mover = next(p for p in players if p.id == info.seats[seat].controller_id)
    return thread, game_id, mover, seat


def turn_posts(thread: Any) -> list[Any]:
    return [m for m in thread.history() if "recruited a" in m.content]


async def turn_ended_while_held(
    env: Any, bot: Any, theirs: SqliteStore, holder: str, lease: timedelta
) -> tuple[Any, int, Any, Any, DutyClaim]:
    """The first player recruits; then the process `holder` claims the game's delivery
    (for `lease`) and the player ends the turn. Returns the thread, the game, the player,
    the answer to `/mk end` and the other process's claim."""
    thread, game_id, mover, seat = await first_turn(env, bot)
    state = (await bot.service.load(game_id)).state
    await mover.slash(thread, "mk act", action=str(legal_actions(state, seat, "recruit")[0]))
    now = bot.service.now()
    held = await theirs.claim_duty(duty("deliver", game_id), holder, now=now, until=now + lease)
    assert held is not None
    result = await mover.slash(thread, "mk end")
    return thread, game_id, mover, result, held


async def test_a_delivery_another_process_holds_is_left_to_it_and_done_once_after(
    tmp_path: Path,
) -> None:
    db = tmp_path / "db.sqlite3"
    async with running_bot(db, clock=Clock()) as (env, bot), SqliteStore(db) as theirs:
        # a process on another machine is delivering this game's messages
        other = "other-host:4242:0a1b2c3d"
        thread, game_id, mover, result, held = await turn_ended_while_held(
            env, bot, theirs, other, timedelta(minutes=1)
        )
        answer = result.response.content
        assert "Done" in answer and "will follow" not in answer  # it is not failing
        assert turn_posts(thread) == []
        await scheduler(bot).round()
        assert turn_posts(thread) == []  # still theirs
        # it lets go without sending (it was stopped): the next round sends each once
        assert await theirs.release_duty(held)
        await scheduler(bot).round()
        await scheduler(bot).round()
        assert len(turn_posts(thread)) == 1
        pings = [m for m in thread.history() if "it's your turn" in m.content]
        assert len(pings) == 2 and pings[-1].raw_mentions != [mover.id]
        assert await bot.service.store.owed_messages(None, game_id=game_id) == []


async def test_a_delivery_held_by_a_dead_process_of_this_machine_is_taken_over_at_once(
    tmp_path: Path,
) -> None:
    db = tmp_path / "db.sqlite3"
    clock = Clock()
    async with running_bot(db, clock=clock) as (env, bot), SqliteStore(db) as theirs:
        # the process that held it crashed: its lease would hold for an hour
        thread, *_ = await turn_ended_while_held(
            env, bot, theirs, dead_process_id(), timedelta(hours=1)
        )
        assert turn_posts(thread) == []
        await scheduler(bot).round()  # releases the dead process's claim, then delivers
        assert len(turn_posts(thread)) == 1
        # what remains is the pruning's rest (the round pruned): no claim of the dead
        assert [c.duty for c in await bot.service.store.duty_claims(clock.now)] == ["prune"]


async def test_at_start_up_an_answer_is_left_to_the_process_whose_command_gives_it(
    tmp_path: Path,
) -> None:
    db = tmp_path / "db.sqlite3"
    clock = Clock()
    async with running_bot(db, clock=clock) as (env, bot), SqliteStore(db) as store:
        _, game_id, mover, seat = await first_turn(env, bot)
        # another process (alive: in this test it is this very process) acts for the
        # player and is about to answer them itself
        other = GameService(store, MountainKingRules(), clock=clock)
        assert other.duties.owner != bot.service.duties.owner
        replies = []
        for owner in (other.duties.owner, dead_process_id()):
            other.duties.owner = owner
            state = (await other.load(game_id)).state
            action = str(legal_actions(state, seat, "recruit" if not replies else "end")[0])
            result = await other.act(
                game_id, mover.id, action, reply_to=ReplyTo(bot.application_id or 1, "token")
            )
            assert result.reply_id is not None
            replies.append(result.reply_id)
            await scheduler(bot).round(startup=True)
        owed = {o.id: o for o in await bot.service.store.owed_messages(None, game_id=game_id)}
        # the live process's answer waits for it (untouched); the dead one's was taken up
        assert replies[0] in owed and owed[replies[0]].tried_at is None
        assert replies[1] not in owed
