"""The turn clock (`service.clock`): it runs only in the player's playing hours (a quiet
window across midnight, in their time zone) and never while they are away; one
reminder at a quarter left; at zero the vote or the AI, as the game chose; each step
once, a restart in between changing nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from service_helpers import USERS, FakeClock, open_service

from bot.service import GameStateError, InvalidSettingError
from bot.service.clock import playing_deadline, playing_time
from bot.service.owed import Ping, SeatNews, read_payload
from bot.store import NotificationPrefs

A, B = USERS[:2]
NEW_YORK = "America/New_York"  # UTC-5 until 8 March 2026
# quiet 22:00-07:00 in New York: 03:00-12:00 UTC
NIGHT = {"quiet_start": 22 * 60, "quiet_end": 7 * 60, "timezone": NEW_YORK}
SECOND = timedelta(seconds=1)


def near(at: datetime | None, expected: datetime) -> bool:
    return at is not None and abs(at - expected) < SECOND


async def clock_news(service, game_id: int) -> list[str]:  # type: ignore[no-untyped-def]
    rows = await service.store._rows("SELECT payload FROM outbox WHERE game_id = $1", game_id)
    told = [read_payload(r["payload"]) for r in rows]
    return [n.change for n in told if isinstance(n, SeatNews)]


async def clock_game(service, hours: int, policy: str = "vote") -> tuple[int, int]:  # type: ignore[no-untyped-def]
    """A 2-player game with a turn clock, started: (game, the seat awaited)."""
    info = await service.create_game(A, {"players": 2})
    await service.clock.configure(info.id, A, hours, policy)  # type: ignore[arg-type]
    await service.seating.join(info.id, B)
    await service.start(info.id, A)
    [row] = await service.store.reminders(info.id)
    return info.id, row.seat


@pytest.mark.sqlite_only
def test_the_playing_hours_skip_a_quiet_window_across_midnight() -> None:
    prefs = NotificationPrefs(A, **NIGHT)  # type: ignore[arg-type]
    monday_7 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)  # 07:00 in New York
    # 15 playing hours on Monday (07:00-22:00), then 9 on Tuesday from 07:00
    assert playing_deadline(monday_7, timedelta(hours=24), prefs) == datetime(
        2026, 3, 3, 21, 0, tzinfo=UTC
    )
    # started in the night, it waits for the morning
    assert playing_deadline(datetime(2026, 3, 3, 5, 0, tzinfo=UTC), timedelta(hours=1), prefs) == (
        datetime(2026, 3, 3, 13, 0, tzinfo=UTC)
    )
    assert playing_time(monday_7, datetime(2026, 3, 3, 21, 0, tzinfo=UTC), prefs) == timedelta(
        hours=24
    )
    assert playing_deadline(monday_7, timedelta(hours=2), None) == monday_7 + timedelta(hours=2)


async def test_the_clock_reminds_once_then_opens_the_vote_across_a_restart(
    tmp_path: Path,
) -> None:
    clock = FakeClock()  # Monday 2 March 2026, 12:00 UTC: 07:00 in New York
    path = tmp_path / "g.db"
    async with open_service(path, clock=clock) as service:
        for user in (A, B):
            await service.notifications.set_prefs(NotificationPrefs(user, **NIGHT))  # type: ignore[arg-type]
        game, seat = await clock_game(service, 24)
        assert (await service.clock.run_due()).games == frozenset()  # set for the turn
        [due] = (await service.clock.deadlines(game)).values()
        assert near(due, datetime(2026, 3, 3, 21, 0, tzinfo=UTC))
        # a quarter left (18 playing hours in): Tuesday 10:00 in New York
        clock.now = datetime(2026, 3, 3, 14, 59, tzinfo=UTC)
        assert (await service.clock.run_due()).reminded == 0
        clock.now = datetime(2026, 3, 3, 15, 1, tzinfo=UTC)
        assert (await service.clock.run_due()).reminded == 1
        assert (await service.clock.run_due()).reminded == 0
    async with open_service(path, clock=clock) as service:  # a restart changes nothing
        assert (await service.clock.run_due()).reminded == 0
        assert await clock_news(service, game) == ["clock"]
        clock.now = datetime(2026, 3, 3, 21, 1, tzinfo=UTC)
        ran = await service.clock.run_due()
        assert ran.ran_out == 1 and ran.games == frozenset({game})
        assert (await service.clock.run_due()).ran_out == 0
        [vote] = await service.store.open_votes(game_id=game)
        assert vote.seat == seat
        assert await clock_news(service, game) == ["clock", "timeout"]
        assert await service.clock.deadlines(game) == {}


async def test_the_ai_plays_at_zero_and_the_clock_stands_still_while_away(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    async with open_service(tmp_path / "g.db", clock=clock) as service:
        game, seat = await clock_game(service, 2, "ai")
        await service.clock.run_due()
        [due] = (await service.clock.deadlines(game)).values()
        user = (await service.info(game)).seats[seat].controller_id
        assert user is not None
        # away for a day after one hour: the hour left waits for the return
        clock.advance(timedelta(hours=1))
        away, _ = await service.away.leave(user, days=1)
        clock.now = away.ends_at
        assert await service.away.end_due() == 1
        [later] = (await service.clock.deadlines(game)).values()
        assert near(later, away.ends_at + timedelta(hours=1))
        assert later - due > timedelta(hours=10)  # the 11 hours away
        clock.now = later + SECOND
        assert (await service.clock.run_due()).ran_out == 1
        assert (await service.store.seats(game))[seat].skip_turn
        assert await service.owed_moves() == [(game, seat)]
        assert await service.store.open_votes(game_id=game) == []


async def test_a_seat_changing_hands_is_called_with_its_clock_deadline(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db", clock=FakeClock()) as service:
        game, seat = await clock_game(service, 24)

        async def called() -> datetime | None:
            # the autopilot takes the awaited seat and gives it back: its player is called
            await service.seating.set_autopilot(game, A, seat, True)
            await service.seating.set_autopilot(game, A, seat, False)
            rows = await service.store._rows("SELECT payload FROM outbox WHERE game_id = $1", game)
            *_, ping = [
                p for p in map(read_payload, (r["payload"] for r in rows)) if isinstance(p, Ping)
            ]
            return ping.deadline

        # the clock not set yet for the turn: the call shows where it will be set
        before = await called()
        await service.clock.run_due()
        [due] = (await service.clock.deadlines(game)).values()
        assert near(before, due)
        # set: the clock goes on, the call shows its deadline
        assert near(await called(), due)


async def test_a_bad_clock_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db", clock=FakeClock()) as service:
        info = await service.create_game(A, {"players": 2})
        for hours in (0, 10_000, -3):
            with pytest.raises(InvalidSettingError, match="from 1 to 720 hours"):
                await service.clock.configure(info.id, A, hours)
        assert (await service.store.game(info.id)).clock_seconds is None  # type: ignore[union-attr]
        await service.seating.join(info.id, B)
        await service.start(info.id, A)
        with pytest.raises(GameStateError, match="before the game starts"):
            await service.clock.configure(info.id, A, 24)
