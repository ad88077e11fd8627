"""Keeping slow games moving: reminders in the thread or by DM, "mute this turn", and
after several missed reminders a table vote that hands the seat to the autopilot."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot_harness import TableOf, open_game, run_duties, scheduler

from rules.steps import seats_to_act


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def test_reminders_by_thread_then_dm_then_the_table_votes(table_of: TableOf) -> None:
    clock = Clock()
    table = table_of("alice", "bob", "carol", clock=clock)
    async with table as (env, bot, channel, (alice, bob, carol)):
        users = {p.name: p.user for p in (alice, bob)}
        # the game starts with the first gate: one player is awaited
        thread, game_id = await open_game(env, [alice, bob], channel)
        state = (await bot.service.load(game_id)).state
        info = await bot.service.info(game_id)
        waiting_seat = seats_to_act(state)[0]
        absent_name = "alice" if info.seats[waiting_seat].user_id == alice.id else "bob"
        absent = alice if absent_name == "alice" else bob
        present = bob if absent is alice else alice

        assert await scheduler(bot).send_reminders() == 0  # nothing due yet
        clock.now += timedelta(hours=13)
        assert await scheduler(bot).send_reminders() == 1
        reminder = thread.history()[-1]
        assert reminder.raw_mentions == [absent.id]
        assert "waiting for you" in reminder.content

        # opting in to DMs: the next reminders arrive privately, not in the thread
        await absent.slash(thread, "mk notify", dm=True)
        in_thread = len(thread.history())
        clock.now += timedelta(hours=13)
        assert await scheduler(bot).send_reminders() == 1
        assert len(thread.history()) == in_thread
        dm = users[absent_name].dm_channel.history()[-1]
        assert "waiting for you" in dm.content

        # the third missed reminder: the table is told and may vote
        clock.now += timedelta(hours=13)
        assert await scheduler(bot).send_reminders() == 1
        vote = thread.history()[-1]
        assert "may vote" in vote.content
        assert buttons_of_message(vote) == ["Skip this turn", "Autopilot"]
        # someone who does not play at this table cannot vote
        refused = await carol.click(vote, label="Autopilot")
        assert "other players" in refused.response.content
        assert not (await bot.service.info(game_id)).seats[waiting_seat].autopilot
        await present.click(vote, label="Autopilot")
        info = await bot.service.info(game_id)
        assert info.seats[waiting_seat].autopilot
        # the vote message was edited in place: the voter by name, the decision, no buttons
        edited = next(m for m in thread.history() if m.id == vote.id)
        assert present.name in edited.content and str(present.id) not in edited.content
        assert "Decided" in edited.content and not edited.components
        # the scheduler's AI places the absent player's gate
        await run_duties(bot)
        state = (await bot.service.load(game_id)).state
        assert waiting_seat in state.board.gates.values()


def buttons_of_message(message: object) -> list[str]:
    return [c.label for row in message.components for c in row.children]  # type: ignore[attr-defined]


async def test_mute_this_turn_stops_reminders_until_the_turn_changes(table_of: TableOf) -> None:
    clock = Clock()
    async with table_of("alice", "bob", clock=clock) as (env, bot, channel, (alice, bob)):
        thread, game_id = await open_game(env, [alice, bob], channel)
        state = (await bot.service.load(game_id)).state
        info = await bot.service.info(game_id)
        absent_id = info.seats[seats_to_act(state)[0]].user_id
        absent = alice if absent_id == alice.id else bob
        clock.now += timedelta(hours=13)
        assert await scheduler(bot).send_reminders() == 1
        reminder = thread.history()[-1]
        result = await absent.click(reminder, label="Mute this turn")
        assert "No more reminders" in result.response.content
        clock.now += timedelta(hours=13)
        assert await scheduler(bot).send_reminders() == 0
