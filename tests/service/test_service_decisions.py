"""A decision out of turn with its own deadline (Cave Troll's Troll flight), kept by the
table on the awaited seat's reminder row: reminded halfway, the ping carrying the
deadline, answered by the rules' default when the deadline has passed (by the AI, as a
skipped turn is), through a reload of the store as after a restart."""

from __future__ import annotations

import io
from datetime import timedelta
from pathlib import Path

import pytest
from ct_service_helpers import cave_game, cave_service, play_by_ai, state_of
from service_helpers import USERS, FakeClock, open_service, user_of

from bot.cave_troll.stories import story_text
from bot.maintenance import check_database
from bot.service.cave_troll import CAVE_TROLL
from bot.service.owed import SeatNews, TurnPost
from bot.texts import done_text
from cave_troll import State, default_answer


async def test_an_unanswered_flight_is_reminded_halfway_then_answered_by_default(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    async with cave_service(tmp_path / "games.db", clock=clock) as service:
        info = await cave_game(service)
        state = await play_by_ai(service, info, lambda s: s.flight is not None)
        seconds = CAVE_TROLL.decision_seconds(state)
        assert seconds == 24 * 3600
        seat = CAVE_TROLL.to_act(state)[0]
        # the decision became the seat's when the Troll was placed (its row's turn)
        row = next(r for r in await service.store.reminders(info.id) if r.seat == seat)
        began = row.waiting_since
        # the turn post calling the first seat to answer carries the decision's deadline
        owed = await service.outbox.owed(everything=True, limit=500)
        posts = [o.payload for o in owed if isinstance(o.payload, TurnPost)]
        assert [p.seat for p in posts[-1].calls] == [seat]
        assert posts[-1].deadline == began + timedelta(seconds=seconds)
        assert all(p.deadline is None for p in posts[:-1])  # ordinary turns: no deadline
        # the first reminder is due halfway, not after the table's usual day
        assert row.next_at == began + timedelta(seconds=seconds) / 2
        # halfway: an ordinary reminder, and the next one no later than the deadline
        clock.now += timedelta(hours=12)
        early = await service.decisions.look(info.id, seat, began)
        assert early is not None and not early.settled
        assert early.deadline == began + timedelta(hours=24)
        await service.notifications.reminder_sent(info.id, seat)
        await service.decisions.due_by(info.id, seat, early.deadline)
        row = next(r for r in await service.store.reminders(info.id) if r.seat == seat)
        assert row.next_at == early.deadline
        assert not next(s for s in (await service.info(info.id)).seats if s.seat == seat).skip_turn

    # the deadline passes while no process runs; the next one finds it in the store
    clock.now += timedelta(hours=12)
    async with cave_service(tmp_path / "games.db", clock=clock) as service:
        before, _ = await state_of(service, info.id)
        expected = default_answer(before)
        late = await service.decisions.look(info.id, seat, began)
        assert late is not None and late.settled
        news = [o.payload for o in await service.outbox.owed(everything=True, limit=500)]
        told = [n for n in news if isinstance(n, SeatNews) and n.change == "late"]
        assert len(told) == 1 and told[0].player.seat == seat
        assert told[0].until == began + timedelta(hours=24)
        # the table's owed move plays the rules' default answer for the seat, to its end
        assert (info.id, seat) in await service.owed_moves(limit=10)
        played = []
        while (info.id, seat) in await service.owed_moves(limit=10):
            result = await service.play_owed_move(info.id, seat)
            assert result is not None
            played.append(result.notation)
        assert played == [CAVE_TROLL.notation(a) for a in expected]
        after, _ = await state_of(service, info.id)
        assert seat not in CAVE_TROLL.to_act(after)
        # its next turn is its own again: the mark was for the flight only
        seats = (await service.info(info.id)).seats
        assert not next(s for s in seats if s.seat == seat).skip_turn
        # a look at a decision that is over does nothing
        assert await service.decisions.look(info.id, seat, began) is None


@pytest.mark.sqlite_only
async def test_the_host_tools_check_a_database_holding_both_games(tmp_path: Path) -> None:
    """`python -m bot check` reads every game by its own rules: a Cave Troll game beside
    a Mountain King game is checked, not refused as another table's."""
    path = tmp_path / "games.db"
    async with cave_service(path) as service:
        cave = await cave_game(service)
        await play_by_ai(service, cave, lambda s: s.turn is not None and s.turn.seat == 2)
    async with open_service(path) as service:
        mountain = await service.create_game(USERS[0], {"players": 2})
        await service.seating.join(mountain.id, USERS[1])
        mountain = await service.start(mountain.id, USERS[0])
    out = io.StringIO()
    assert await check_database(path, out) == 0, out.getvalue()
    assert out.getvalue().splitlines() == ["2 games checked: 0 broken."]
    assert {cave.rules, mountain.rules} == {"cave-troll", "mountain-king"}


async def test_placing_the_troll_and_answering_a_flight_end_no_turn_in_the_answer(
    tmp_path: Path,
) -> None:
    """The placer's turn goes on after the flight, and an answer is no turn of the one
    who gives it: neither private answer says "Your turn is over"."""

    def flight_next(state: State) -> bool:
        seat = CAVE_TROLL.to_act(state)[0]
        return any(
            CAVE_TROLL.play(state, seat, a).flight is not None
            for a in CAVE_TROLL.legal_actions(state, seat)
            if CAVE_TROLL.notation(a).startswith("place")
        )

    async with cave_service(tmp_path / "games.db") as service:
        info = await cave_game(service)
        before = await play_by_ai(service, info, flight_next)
        placer = CAVE_TROLL.to_act(before)[0]
        place = next(
            a
            for a in CAVE_TROLL.legal_actions(before, placer)
            if CAVE_TROLL.notation(a).startswith("place")
            and CAVE_TROLL.play(before, placer, a).flight is not None
        )
        placed = await service.act(info.id, user_of(info, placer), CAVE_TROLL.notation(place))
        assert placed.decision and placed.turn_ended  # no longer awaited: the flight is
        assert "Your turn is over" not in done_text(placed, story_text)
        # the first answer, by a player whose turn it is not
        after, _ = await state_of(service, info.id)
        seat = CAVE_TROLL.to_act(after)[0]
        answer = default_answer(after)[0]
        answered = await service.act(info.id, user_of(info, seat), CAVE_TROLL.notation(answer))
        assert answered.decision
        assert "Your turn is over" not in done_text(answered, story_text)
