"""Away (`service.away`): a player away gets no reminders, votes or digests, each game
posts the two notices once, the game follows its policy (wait, or the AI plays),
acting ends the away, and its end date ends it through the scheduler's duty."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from service_helpers import (
    START,
    USERS,
    FakeClock,
    game_in_play,
    open_service,
    started_game,
)

from bot.service import InvalidSettingError
from bot.service.away import read_day
from bot.service.owed import SeatNews, read_payload
from bot.store import NotificationPrefs

DAY = timedelta(days=1)
WARSAW = "Europe/Warsaw"  # UTC+1 in March


async def news(service, game_id: int) -> list[tuple[str, str | None]]:  # type: ignore[no-untyped-def]
    """The seat news every message owed so far tells: (change, the seat's label)."""
    rows = await service.store._rows(
        "SELECT payload FROM outbox WHERE game_id = $1 ORDER BY id", game_id
    )
    told = [read_payload(r["payload"]) for r in rows]
    return [(n.change, n.player.label) for n in told if isinstance(n, SeatNews)]


async def test_away_for_days_waits_reminds_nobody_and_ends_on_its_day(tmp_path: Path) -> None:
    clock = FakeClock()
    async with open_service(tmp_path / "g.db", clock=clock) as service:
        info, _ = await game_in_play(service)
        state = (await service.load(info.id)).state
        assert state is not None and state.current_seat is not None
        seat = info.seats[state.current_seat]
        user = seat.controller_id
        other = info.seats[1 - state.current_seat].controller_id
        assert user is not None and other is not None
        await service.notifications.set_prefs(NotificationPrefs(user, timezone=WARSAW))
        away, told = await service.away.leave(user, days=3)
        assert [s.game_id for s in told] == [info.id]
        # back at local midnight three days on: 5 March 00:00 in Warsaw
        assert away.ends_at == datetime(2026, 3, 4, 23, 0, tzinfo=UTC)
        # the same end again tells nobody anything
        assert await service.away.leave(user, until=date(2026, 3, 5)) == (away, [])
        assert await news(service, info.id) == [("away", seat.label)]
        [row] = await service.store.reminders(info.id)
        # a game that starts while they are away does not remind them either
        later = await started_game(service, [user, other])
        clock.advance(2 * DAY)
        assert row.next_at < clock.now
        due = await service.notifications.due_reminders()
        assert all(d.user_id != user for d in due)
        assert {d.game_id for d in due} <= {later.id}
        # it is told by the scheduler, once
        assert await service.away.tell_late() == 1
        assert await service.away.tell_late() == 0
        assert [change for change, _ in await news(service, later.id)] == ["away"]
        assert await service.owed_moves() == []  # the game waits
        assert await service.away.end_due() == 0
        clock.advance(DAY)
        assert await service.away.end_due() == 1
        assert await service.away.end_due() == 0
        assert await service.away.of(user) is None
        assert await news(service, info.id) == [("away", seat.label), ("back", seat.label)]
        assert [change for change, _ in await news(service, later.id)] == ["away", "back"]
        [row] = await service.store.reminders(info.id)
        assert row.next_at >= clock.now + timedelta(seconds=info.reminder_seconds) / 2
        assert all(s.away is None for s in await service.store.seats(info.id))


async def play_as(service, info, seat: int, user: int) -> None:  # type: ignore[no-untyped-def]
    """The user plays one action at their seat, the AI's choice."""
    state = (await service.load(info.id)).state
    await service.act(info.id, user, service.rules.choose_action(state, seat, 1))


async def test_the_ai_plays_while_away_and_acting_ends_the_away(tmp_path: Path) -> None:
    clock = FakeClock()
    async with open_service(tmp_path / "g.db", clock=clock) as service:
        info, _ = await game_in_play(service)
        await service.away.set_policy(info.id, info.creator_id, "ai")
        state = (await service.load(info.id)).state
        assert state is not None and state.current_seat is not None
        away_seat = state.current_seat
        user = info.seats[away_seat].controller_id
        other = info.seats[1 - away_seat].controller_id
        assert user is not None and other is not None
        await service.away.leave(user, days=2)
        assert await service.owed_moves() == [(info.id, away_seat)]
        assert await service.play_owed_move(info.id, away_seat) is not None
        assert (await service.store.actions(info.id))[-1].user_id is None
        # the player acts (at their turn, after the other's if the AI ended theirs)
        while (state := (await service.load(info.id)).state).current_seat != away_seat:
            await play_as(service, info, 1 - away_seat, other)
        await play_as(service, info, away_seat, user)
        assert await service.away.of(user) is None
        assert [change for change, _ in await news(service, info.id)] == ["away", "back"]
        assert await service.owed_moves() == []


async def test_going_away_voids_a_vote_about_the_player(tmp_path: Path) -> None:
    clock = FakeClock()
    async with open_service(tmp_path / "g.db", clock=clock) as service:
        info, _ = await game_in_play(service)
        [row] = await service.store.reminders(info.id)
        vote = await service.store.open_vote(
            info.id, row.seat, turn_since=row.waiting_since, at=clock(), deadline=clock() + DAY
        )
        assert vote is not None
        user = info.seats[row.seat].controller_id
        assert user is not None
        await service.away.leave(user, days=1)
        again = await service.store.vote(vote.id)
        assert again is not None and again.status == "void"


BAD_ENDS = [
    ({"days": 0}, "not in the future"),
    ({"until": date(2026, 3, 2)}, "not in the future"),
    ({"until": date(2026, 3, 1)}, "not in the future"),
    ({"days": 61}, "at most 60 days"),
    ({"until": date(2027, 3, 2)}, "at most 60 days"),
    ({}, "how many days"),
]


async def test_a_bad_end_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db", clock=FakeClock(START)) as service:
        for options, refusal in BAD_ENDS:
            with pytest.raises(InvalidSettingError, match=refusal):
                await service.away.leave(USERS[0], **options)  # type: ignore[arg-type]
        assert await service.away.of(USERS[0]) is None
        with pytest.raises(InvalidSettingError, match="YYYY-MM-DD"):
            read_day("5 March")
        assert read_day(" 2026-03-05 ") == date(2026, 3, 5)
        with pytest.raises(InvalidSettingError, match="not away"):
            await service.away.back(USERS[0])
