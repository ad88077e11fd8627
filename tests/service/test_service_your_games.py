"""A player's games (`/mk games`) and the daily digest through the service, on the real
SQLite store: the list's order, and when a digest is due (once a day at nine in the
player's time zone, never when nothing awaits them, never twice after a restart)."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from service_checks import digest_due_at, legal_actions
from service_helpers import START, USERS, Backend, FakeClock, Service, open_service, raw

from bot.service.your_games import next_digest
from bot.store import LATEST_VERSION, NotificationPrefs
from bot.store.migrations import MIGRATIONS
from bot.store.records import DigestRecord

ME, FRIEND, OTHER = USERS[0], USERS[1], USERS[2]
GUILD, ELSEWHERE = 77, 88


async def game_of(
    service: Service, creator: int, *others: int, guild: int = GUILD, start: bool = True
) -> int:
    """A 2-player game in a server (started unless `start` is False), with a thread."""
    info = await service.create_game(creator, {"players": 1 + len(others)}, guild_id=guild)
    await service.set_place(info.id, guild_id=guild, channel_id=500, thread_id=600 + info.id)
    for user in others:
        await service.seating.join(info.id, user)
    if start:
        await service.start(info.id, creator)
    return info.id


async def play_until_not_awaited(service: Service, game_id: int, user: int) -> None:
    """The user plays legal actions until the game no longer waits for them."""
    for _ in range(40):
        info = await service.info(game_id)
        seat = info.seat_of(user)
        assert seat is not None
        waiting = (await service.history.turn_status(game_id)).waiting
        if seat.seat not in {w.seat for w in waiting}:
            return
        await service.act(game_id, user, (await legal_actions(service, game_id, user))[0])
    raise AssertionError("the game kept waiting for the user")


# --- the list ---------------------------------------------------------------------------


async def test_your_moves_come_first_then_running_games_lobbies_and_the_last_finished(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    async with open_service(tmp_path / "games.db", clock=clock) as service:
        theirs = await game_of(service, ME, FRIEND)  # awaits only the friend, once I have played
        await play_until_not_awaited(service, theirs, ME)
        clock.advance(timedelta(hours=1))
        mine_later = await game_of(service, FRIEND, ME)
        await play_until_not_awaited(service, mine_later, FRIEND)  # awaits me since later
        clock.advance(timedelta(hours=1))
        lobby = await game_of(service, FRIEND, ME, start=False)
        finished = []
        for _ in range(4):
            clock.advance(timedelta(hours=1))
            game = await game_of(service, ME, FRIEND)
            await service.abandon(game, ME)
            finished.append(game)
        await game_of(service, ME, FRIEND, guild=ELSEWHERE)  # another server
        await game_of(service, FRIEND, OTHER)  # a game I am not in

        games = await service.your_games.listing(ME, guild_id=GUILD)

        ids = [g.game.id for g in games]
        # my move first, then the game waiting for the friend, the lobby, then the
        # three most recent finished games, newest first
        assert ids == [mine_later, theirs, lobby, *reversed(finished[1:])]
        first = games[0]
        assert first.your_move and first.seat.user_id == ME
        assert first.since is not None and first.since < clock.now
        waiting = games[1]
        assert not waiting.your_move
        assert [s.user_id for s in waiting.awaited] == [FRIEND]
        assert waiting.seat.label and waiting.seat.label != waiting.awaited[0].label
        assert games[2].game.status == "open" and not games[2].awaited
        assert {g.game.status for g in games[3:]} == {"abandoned"}

        everywhere = await service.your_games.listing(ME, finished=0)
        assert len(everywhere) == 4  # three here (no finished ones) and one elsewhere
        assert await service.your_games.listing(9999, guild_id=GUILD) == []


async def test_of_several_games_awaiting_you_the_longest_waiting_comes_first(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    async with open_service(tmp_path / "games.db", clock=clock) as service:
        older = await game_of(service, ME, FRIEND)
        clock.advance(timedelta(hours=2))
        newer = await game_of(service, ME, FRIEND)
        await play_until_not_awaited(service, older, FRIEND)
        clock.advance(timedelta(hours=2))
        # the older game waited for me since its start; my friend playing there did not
        # renew my wait
        games = await service.your_games.listing(ME, guild_id=GUILD)
        assert [g.game.id for g in games] == [older, newer]
        assert all(g.your_move for g in games)
        assert games[0].since is not None and games[1].since is not None
        assert games[0].since < games[1].since


async def test_a_seat_on_autopilot_is_not_your_move(tmp_path: Path) -> None:
    async with open_service(tmp_path / "games.db") as service:
        game = await game_of(service, ME, FRIEND)
        info = await service.info(game)
        seat = info.seat_of(ME)
        assert seat is not None
        await service.seating.set_autopilot(game, ME, seat.seat, True)
        [entry] = await service.your_games.listing(ME, guild_id=GUILD)
        assert not entry.your_move and entry.seat.autopilot


# --- the digest -------------------------------------------------------------------------


async def test_the_digest_is_due_once_a_day_at_nine_in_the_players_time_zone(
    tmp_path: Path,
) -> None:
    clock = FakeClock()  # 2026-03-02 12:00 UTC: 13:00 in Warsaw
    async with open_service(tmp_path / "games.db", clock=clock) as service:
        game = await game_of(service, ME, FRIEND)
        await service.notifications.set_prefs(NotificationPrefs(ME, timezone="Europe/Warsaw"))
        due = await service.your_games.set_digest(ME, True)
        assert due == datetime(2026, 3, 3, 8, 0, tzinfo=UTC)  # 09:00 in Warsaw
        assert await service.your_games.claim_digests() == []
        clock.now = datetime(2026, 3, 3, 7, 59, tzinfo=UTC)
        assert await service.your_games.claim_digests() == []

        clock.now = datetime(2026, 3, 3, 8, 0, tzinfo=UTC)
        [digest] = await service.your_games.claim_digests()
        assert digest.user_id == ME
        assert [g.game.id for g in digest.games] == [game]
        # once a day: not again today, even an hour later
        assert await service.your_games.claim_digests() == []
        clock.advance(timedelta(hours=10))
        assert await service.your_games.claim_digests() == []
        assert await digest_due_at(service, ME) == datetime(2026, 3, 4, 8, 0, tzinfo=UTC)
        clock.now = datetime(2026, 3, 4, 8, 0, tzinfo=UTC)
        assert len(await service.your_games.claim_digests()) == 1
        # my friend opted in to nothing: no digest for them
        assert await digest_due_at(service, FRIEND) is None


async def test_nobody_is_sent_a_digest_when_no_game_awaits_them(tmp_path: Path) -> None:
    clock = FakeClock()
    async with open_service(tmp_path / "games.db", clock=clock) as service:
        game = await game_of(service, ME, FRIEND)
        await play_until_not_awaited(service, game, ME)
        await service.your_games.set_digest(ME, True)
        clock.advance(timedelta(days=1))
        assert await service.your_games.claim_digests() == []
        stored = await service.store.digest(ME)
        # asked again tomorrow; nothing was recorded as sent
        assert stored == DigestRecord(ME, datetime(2026, 3, 4, 9, 0, tzinfo=UTC), None)
        assert await service.your_games.claim_digests() == []


@pytest.mark.sqlite_only
async def test_the_sent_marker_survives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    clock = FakeClock()
    async with open_service(path, clock=clock) as service:
        await game_of(service, ME, FRIEND)
        await service.your_games.set_digest(ME, True)
        clock.now = datetime(2026, 3, 3, 9, 30, tzinfo=UTC)
        assert len(await service.your_games.claim_digests()) == 1
    # the process restarts the same day: the digest is not sent again
    async with open_service(path, clock=clock) as service:
        assert await service.your_games.claim_digests() == []
        stored = await service.store.digest(ME)
        assert stored is not None and stored.sent_at is not None
        assert abs(stored.sent_at - clock.now) < timedelta(seconds=1)
        # turning the digest off and on again the same day does not bring a second one
        await service.your_games.set_digest(ME, False)
        assert await digest_due_at(service, ME) is None
        assert await service.your_games.set_digest(ME, True) == datetime(
            2026, 3, 4, 9, 0, tzinfo=UTC
        )
        assert await service.your_games.claim_digests() == []
    assert raw(path).execute("SELECT COUNT(*) FROM digests").fetchone() == (1,)


async def test_a_new_time_zone_moves_the_digest_but_never_brings_two_in_a_day(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    async with open_service(tmp_path / "games.db", clock=clock) as service:
        await game_of(service, ME, FRIEND)
        await service.your_games.set_digest(ME, True)
        clock.now = datetime(2026, 3, 3, 9, 0, tzinfo=UTC)
        assert len(await service.your_games.claim_digests()) == 1
        # 09:00 in New York is 14:00 UTC today: too soon after this morning's digest
        await service.notifications.set_prefs(NotificationPrefs(ME, timezone="America/New_York"))
        due = await service.your_games.set_digest(ME)
        assert due == datetime(2026, 3, 4, 14, 0, tzinfo=UTC)
        clock.now = datetime(2026, 3, 3, 14, 0, tzinfo=UTC)
        assert await service.your_games.claim_digests() == []


@pytest.mark.sqlite_only
def test_the_digest_hour_follows_daylight_saving_and_leaves_quiet_hours() -> None:
    warsaw = NotificationPrefs(ME, timezone="Europe/Warsaw")
    # the night clocks go forward (2026-03-29): nine o'clock is 07:00 UTC from then on
    sent = datetime(2026, 3, 28, 8, 0, tzinfo=UTC)
    assert next_digest(sent, warsaw, sent) == datetime(2026, 3, 29, 7, 0, tzinfo=UTC)
    # nine o'clock inside quiet hours (22:00-10:30): the digest waits for their end
    sleepy = NotificationPrefs(ME, quiet_start=22 * 60, quiet_end=10 * 60 + 30)
    assert next_digest(START, sleepy, None) == datetime(2026, 3, 3, 10, 30, tzinfo=UTC)


# --- the store --------------------------------------------------------------------------


async def test_a_digest_is_claimed_once_when_two_processes_race(
    backend: Backend, tmp_path: Path
) -> None:
    due = START
    async with backend.make(tmp_path) as store:
        await store.put_digest(DigestRecord(ME, due))
        assert await store.due_digests(START - timedelta(seconds=1), limit=10) == []
        assert await store.due_digests(START, limit=10) == [DigestRecord(ME, due)]
        later = START + timedelta(days=1)
        assert await store.claim_digest(ME, due_at=due, next_at=later, sent_at=START)
        assert not await store.claim_digest(ME, due_at=due, next_at=later, sent_at=START)
        assert await store.digest(ME) == DigestRecord(ME, later, START)
        # off: never due, the sent marker kept
        await store.put_digest(DigestRecord(ME, None, START))
        assert await store.due_digests(later + timedelta(days=9), limit=10) == []


@pytest.mark.sqlite_only
async def test_the_due_query_is_one_index_lookup(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    async with open_service(path):
        pass
    plan = raw(path).execute(
        "EXPLAIN QUERY PLAN SELECT user_id, due_at, sent_at FROM digests"
        " WHERE due_at IS NOT NULL AND due_at <= ? ORDER BY due_at LIMIT ?",
        (0.0, 100),
    )
    details = " ".join(str(row[-1]) for row in plan)
    assert "digests_due" in details and "SCAN digests" not in details


@pytest.mark.sqlite_only
async def test_a_database_of_the_previous_version_upgrades_and_keeps_its_settings(
    tmp_path: Path,
) -> None:
    path = tmp_path / "games.db"
    db = sqlite3.connect(path, isolation_level=None)
    for migration in MIGRATIONS[:2]:
        for statement in migration.statements:
            db.execute(statement)
    db.execute("PRAGMA user_version = 2")
    db.execute(
        "INSERT INTO notification_prefs (user_id, dm_opt_in, timezone) VALUES (?, 1, ?)",
        (ME, "Europe/Warsaw"),
    )
    db.close()
    clock = FakeClock()
    async with open_service(path, clock=clock) as service:
        assert await service.store.schema_version() == LATEST_VERSION
        prefs = await service.notifications.prefs(ME)
        assert prefs.dm_opt_in and prefs.timezone == "Europe/Warsaw"
        assert await digest_due_at(service, ME) is None
        assert await service.your_games.set_digest(ME, True) == datetime(
            2026, 3, 3, 8, 0, tzinfo=UTC
        )
