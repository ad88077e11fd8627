"""Whose turn, since when, and when each awaited player is reminded next."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from service_helpers import (
    USERS,
    FakeClock,
    open_service,
    place_gates,
    play_moves,
    record_for,
    started_game,
)

from bot.service import InvalidSettingError, NotYourTurnError
from bot.service.notifications import LANGUAGE_MEMORY
from bot.service.reminders import next_reminder
from bot.store import NotificationPrefs
from rules.actions import EndTurn, Keep, PlaceGate

A, B, C = USERS[:3]
HOUR = timedelta(hours=1)
NIGHT = NotificationPrefs(A, quiet_start=22 * 60, quiet_end=7 * 60)


def at(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 3, day, hour, minute, tzinfo=UTC)


@pytest.mark.sqlite_only
@pytest.mark.parametrize(
    ("after", "prefs", "expected"),
    [
        (at(2, 10), None, at(2, 13)),
        (at(2, 10), NIGHT, at(2, 13)),  # 13:00 is outside the quiet hours
        (at(2, 20), NIGHT, at(3, 7)),  # 23:00 falls in them: wait until 07:00
        (at(2, 23), NIGHT, at(3, 7)),  # 02:00 the next night, same window
        (at(2, 4), NIGHT, at(2, 7)),  # exactly 07:00: the quiet hours have ended
        (at(2, 10), NotificationPrefs(A, quiet_start=12 * 60, quiet_end=14 * 60), at(2, 14)),
        (at(2, 10), NotificationPrefs(A, quiet_start=600, quiet_end=600), at(2, 13)),
        # 14:00 UTC is 23:00 in Tokyo (UTC+9): wake at 07:00 Tokyo, 22:00 UTC
        (
            at(2, 11),
            NotificationPrefs(A, quiet_start=1320, quiet_end=420, timezone="Asia/Tokyo"),
            at(2, 22),
        ),
    ],
)
def test_reminders_wait_for_the_end_of_quiet_hours(
    after: datetime, prefs: NotificationPrefs | None, expected: datetime
) -> None:
    assert next_reminder(after, 3 * HOUR, prefs) == expected


async def test_turn_status_shows_who_is_awaited_since_when(tmp_path: Path) -> None:
    clock = FakeClock()
    async with open_service(tmp_path / "g.db", clock=clock) as service:
        game = await service.create_game(A, {"players": 2}, reminder_interval=6 * HOUR)
        await service.seating.join(game.id, B)
        clock.advance(HOUR)
        info = await service.start(game.id, A)
        started = clock.now
        status = await service.history.turn_status(info.id)
        assert [w.seat for w in status.waiting] == [0]  # the first gate
        assert status.waiting[0].since == started
        assert status.waiting[0].next_reminder == started + 6 * HOUR
        record = record_for(info)
        gates = [m for m in record.moves if isinstance(m.action, PlaceGate)]
        clock.advance(HOUR)
        await play_moves(service, info, gates[:1])
        gate_at = clock.now
        status = await service.history.turn_status(info.id)
        assert [w.seat for w in status.waiting] == [1]
        assert status.waiting[0].label == "orange" and status.waiting[0].user_id == B
        assert gate_at - timedelta(seconds=1) < status.waiting[0].since <= gate_at
        assert status.waiting[0].next_reminder == status.waiting[0].since + 6 * HOUR
        clock.advance(HOUR)
        await play_moves(service, info, gates[1:])
        gates_done = clock.now
        # the draft is simultaneous: a new phase awaits every seat anew
        status = await service.history.turn_status(info.id)
        assert [w.seat for w in status.waiting] == [0, 1]
        assert all(
            gates_done - timedelta(seconds=1) < w.since <= gates_done for w in status.waiting
        )
        assert all(w.next_reminder == w.since + 6 * HOUR for w in status.waiting)
        drafting = status.waiting[0].since
        keeps_of_1 = [m for m in record.moves if isinstance(m.action, Keep) and m.seat == 1]
        clock.advance(HOUR)
        await play_moves(service, info, keeps_of_1)
        status = await service.history.turn_status(info.id)
        # seat 1 finished its draft; seat 0 is still awaited since the draft began
        assert [(w.seat, w.since) for w in status.waiting] == [(0, drafting)]
        keeps_of_0 = [m for m in record.moves if isinstance(m.action, Keep) and m.seat == 0]
        clock.advance(HOUR)
        await play_moves(service, info, keeps_of_0)
        draft_over = clock.now
        # seat 0 goes on to play the first turn: a new phase awaits it anew (its player
        # is called and reminded for the turn, not for the draft)
        status = await service.history.turn_status(info.id)
        assert [w.seat for w in status.waiting] == [0]
        assert draft_over - timedelta(seconds=1) < status.waiting[0].since <= draft_over


async def test_due_reminders_are_counted_muted_and_reset_by_the_next_turn(tmp_path: Path) -> None:
    clock = FakeClock()
    async with open_service(tmp_path / "g.db", clock=clock) as service:
        await service.notifications.set_prefs(NotificationPrefs(B, dm_opt_in=True))
        info = await started_game(service, players=2)
        record = record_for(info)
        gates = [m for m in record.moves if isinstance(m.action, PlaceGate)]
        await play_moves(service, info, gates)  # the draft awaits both players
        assert await service.notifications.due_reminders() == []
        clock.advance(25 * HOUR)
        due = await service.notifications.due_reminders()
        assert [(d.seat, d.user_id, d.dm_opt_in) for d in due] == [(0, A, False), (1, B, True)]
        nxt = await service.notifications.reminder_sent(info.id, 0)
        assert nxt is not None and nxt > clock.now
        await service.notifications.mute_turn(info.id, B)
        assert await service.notifications.due_reminders() == []
        waiting = {w.seat: w for w in (await service.history.turn_status(info.id)).waiting}
        assert waiting[0].missed == 1 and waiting[1].muted
        # after the draft, seat 0 plays its first turn and seat 1's new turn is not muted
        end = next(i for i, m in enumerate(record.moves) if isinstance(m.action, EndTurn))
        await play_moves(service, info, record.moves[len(gates) : end + 1])
        waiting = {w.seat: w for w in (await service.history.turn_status(info.id)).waiting}
        assert list(waiting) == [1] and not waiting[1].muted and waiting[1].missed == 0
        with pytest.raises(NotYourTurnError):
            await service.notifications.mute_turn(info.id, A)


async def test_a_players_quiet_hours_move_their_reminder(tmp_path: Path) -> None:
    clock = FakeClock(at(2, 20))
    async with open_service(tmp_path / "g.db", clock=clock) as service:
        await service.notifications.set_prefs(NotificationPrefs(A, quiet_start=1320, quiet_end=420))
        game = await service.create_game(A, {"players": 2}, reminder_interval=3 * HOUR)
        await service.seating.join(game.id, B)
        info = await service.start(game.id, A)
        waiting = {w.seat: w for w in (await service.history.turn_status(game.id)).waiting}
        assert waiting[0].next_reminder == at(3, 7)
        await place_gates(service, info)  # the draft: both players are awaited
        waiting = {w.seat: w for w in (await service.history.turn_status(game.id)).waiting}
        assert waiting[0].next_reminder == at(3, 7)
        assert waiting[1].next_reminder == waiting[1].since + 3 * HOUR


async def test_bad_notification_settings_are_refused(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db") as service:
        with pytest.raises(InvalidSettingError, match="time zone"):
            await service.notifications.set_prefs(NotificationPrefs(A, timezone="Mars/Olympus"))
        with pytest.raises(InvalidSettingError, match="both ends"):
            await service.notifications.set_prefs(NotificationPrefs(A, quiet_start=60))
        with pytest.raises(InvalidSettingError):
            await service.notifications.set_prefs(
                NotificationPrefs(A, quiet_start=60, quiet_end=5000)
            )
        assert await service.notifications.prefs(A) == NotificationPrefs(A)
        await service.notifications.set_prefs(NotificationPrefs(A, dm_opt_in=True))
        assert (await service.notifications.prefs(A)).dm_opt_in


async def test_a_players_language_is_kept_for_their_direct_messages(tmp_path: Path) -> None:
    """The language of a player's latest interaction is stored with their preferences
    (written only when it changed) and comes with their due reminders; saving their
    reminder settings keeps it."""
    clock = FakeClock()
    async with open_service(tmp_path / "g.db", clock=clock) as service:
        notes = service.notifications
        assert await notes.remember_language(A, "pl")
        assert not await notes.remember_language(A, "pl"), "unchanged: nothing written"
        assert (await notes.prefs(A)).language == "pl"
        await notes.set_prefs(NotificationPrefs(A, dm_opt_in=True, timezone="Europe/Warsaw"))
        assert (await notes.prefs(A)).language == "pl"
        assert await notes.remember_language(A, "es")
        assert (await notes.prefs(A)).language == "es"
        # another process stored a newer language: trusted for a while by the clock,
        # then the store is asked again
        await service.store.put_language(A, "pl")
        assert not await notes.remember_language(A, "es"), "remembered: not asked again"
        clock.advance(LANGUAGE_MEMORY + timedelta(seconds=1))
        assert await notes.remember_language(A, "es")
        assert (await notes.prefs(A)).language == "es"
        await started_game(service)  # its creator, A, places the first gate
        clock.advance(timedelta(days=2))
        due = {r.user_id: r for r in await notes.due_reminders()}
        assert due[A].language == "es"
