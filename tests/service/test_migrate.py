"""`python -m bot migrate`: a SQLite database of real games (finished ones, one in the
middle of a turn with messages still owed, a vote, an open lobby, preferences and a
digest) moves into PostgreSQL; every game replays there to the state of its snapshot,
the bot plays on there, the SQLite file is never written, a target holding games is
refused untouched, and damage in the source is reported, not hidden."""

from __future__ import annotations

import asyncio
import hashlib
import io
import os
import random
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from service_checks import check_game
from service_helpers import (
    USERS,
    Backend,
    FakeClock,
    Service,
    play_moves,
    raw,
    record_for,
    started_game,
    user_of,
)

from bot import maintenance
from bot.moving import migrate_database
from bot.service import MOUNTAIN_KING, GameInfo, GameService, ReplyTo
from bot.store import NotificationPrefs, SqliteStore
from bot.store.postgres import PostgresStore

# moving games into a new, empty PostgreSQL database (the store migrates it first)
pytestmark = [pytest.mark.postgresql_only, pytest.mark.empty_database]

ROOT = Path(__file__).resolve().parents[2]
DAY = timedelta(days=1)


async def fill(path: Path) -> dict[str, int]:
    """Games played through the service on a SQLite file; their ids by what they are."""
    clock = FakeClock()
    async with SqliteStore(path) as store:
        service: Service = GameService(store, MOUNTAIN_KING, rng=random.Random(5), clock=clock)
        finished2 = await started_game(service, players=2)
        await play_moves(service, finished2, record_for(finished2).moves)
        finished3 = await started_game(service, USERS[2:], players=3)
        await play_moves(service, finished3, record_for(finished3).moves, as_text=True)
        # in the middle of a turn: the player acted, the turn is not over, and the
        # table is owed what it was told (the private answers, the posts, the pings)
        middle = await started_game(service, players=4)
        moves = record_for(middle).moves
        ends = [i for i, m in enumerate(moves) if str(m.action) == "end"]
        # up to the second turn's last action before its end
        for n, move in enumerate(moves[: ends[1]]):
            await service.act(
                middle.id,
                user_of(middle, move.seat),
                move.action,
                interaction_id=10_000 + n,
                reply_to=ReplyTo(42, f"token-{n}"),
            )
        # an absent player: reminders missed, then a vote with a ballot
        absent = await started_game(service, players=3)
        setup = [
            m for m in record_for(absent).moves if str(m.action).split()[0] in ("keep", "gate")
        ]
        await play_moves(service, absent, setup)
        for _ in range(3):
            clock.advance(DAY)
            for due in await service.notifications.due_reminders():
                await service.notifications.reminder_sent(due.game_id, due.seat)
        [row] = await store.reminders(absent.id)
        vote = await service.votes.open_if_due(row)
        assert vote is not None
        voter = next(s.user_id for s in absent.seats if s.seat != row.seat)
        assert voter is not None
        await service.votes.cast(vote.id, voter, "skip")
        lobby = await service.create_game(USERS[4], {"players": 3})
        await service.notifications.set_prefs(NotificationPrefs(USERS[0], True, 60, 420))
        await service.your_games.set_digest(USERS[1], True)
        assert await store.owed_messages(None, game_id=middle.id)
    return {
        "finished2": finished2.id,
        "finished3": finished3.id,
        "middle": middle.id,
        "absent": absent.id,
        "lobby": lobby.id,
    }


async def played(path: Path, *, games: int, moves: int) -> list[GameInfo]:
    """2-player games on a SQLite file, each `moves` moves in."""
    async with SqliteStore(path) as store:
        service: Service = GameService(store, MOUNTAIN_KING, rng=random.Random(3))
        infos = [await started_game(service, players=2) for _ in range(games)]
        for info in infos:
            await play_moves(service, info, record_for(info).moves[:moves])
    return infos


def fingerprint(path: Path) -> str:
    """The SQLite file's bytes and its -wal file's, if any."""
    digest = hashlib.sha256(path.read_bytes())
    wal = Path(f"{path}-wal")
    if wal.exists():
        digest.update(wal.read_bytes())
    return digest.hexdigest()


async def test_every_game_moves_replays_and_plays_on(tmp_path: Path, backend: Backend) -> None:
    source = tmp_path / "games.sqlite3"
    ids = await fill(source)
    before = fingerprint(source)
    url = backend.url(tmp_path / "target")
    out = io.StringIO()
    assert await migrate_database(source, url, out) == 0, out.getvalue()
    text = out.getvalue()
    assert f"Copied {source} to " in text and "5 games" in text
    assert "Checked 5 games in PostgreSQL by replaying each log: 5 as they were." in text
    assert "BROKEN" not in text and "differs" not in text
    assert fingerprint(source) == before  # the source was only read

    async with SqliteStore(source) as old, PostgresStore(url) as new:
        before_service: Service = GameService(old, MOUNTAIN_KING)
        after_service: Service = GameService(new, MOUNTAIN_KING, rng=random.Random(9))
        for game_id in ids.values():
            assert await new.actions(game_id) == await old.actions(game_id)
            assert await new.seats(game_id) == await old.seats(game_id)
            moved = await after_service.load(game_id)
            assert moved.state == (await before_service.load(game_id)).state
            if game_id != ids["lobby"]:
                assert await check_game(after_service, game_id) == moved.seq > 0
        for table in ("reminders", "outbox", "interactions"):
            assert await _rows(new, table) == _sqlite_rows(source, table)
        owed_before = await old.owed_messages(None, game_id=ids["middle"])
        assert await new.owed_messages(None, game_id=ids["middle"]) == owed_before
        assert await new.open_votes() == await old.open_votes()
        assert await new.notification_prefs(USERS) == await old.notification_prefs(USERS)
        assert await new.digest(USERS[1]) == await old.digest(USERS[1])

        # the bot plays on in PostgreSQL: the game in the middle of a turn goes on, its
        # new owed messages get new ids, a retried interaction gets its stored answer
        middle = await after_service.info(ids["middle"])
        loaded = await after_service.load(middle.id)
        moves = record_for(middle).moves[loaded.seq : loaded.seq + 6]
        repeated = await after_service.act(
            middle.id,
            user_of(middle, record_for(middle).moves[0].seat),
            "end",
            interaction_id=10_000,
        )
        assert repeated.seq == 1  # the copied answer to interaction 10000, not a new move
        await play_moves(after_service, middle, moves)
        assert await check_game(after_service, middle.id) == loaded.seq + 6
        owed_after = await new.owed_messages(None, game_id=middle.id)
        assert min(o.id for o in owed_after[len(owed_before) :]) > max(o.id for o in owed_before)
        # new games and votes are numbered after the copied ones
        fresh = await started_game(after_service, players=2)
        assert fresh.id > max(ids.values())
        assert (await old.game(fresh.id)) is None


async def _rows(store: PostgresStore, table: str) -> list[tuple[object, ...]]:
    async with store.transaction() as conn:
        rows = await conn.fetch(f"SELECT * FROM {table}")
    return sorted(tuple(r) for r in rows)


def _sqlite_rows(path: Path, table: str) -> list[tuple[object, ...]]:
    db = raw(path)
    try:
        return sorted(tuple(r) for r in db.execute(f"SELECT * FROM {table}"))
    finally:
        db.close()


async def test_a_target_that_holds_games_is_refused_untouched(
    tmp_path: Path, backend: Backend
) -> None:
    source = tmp_path / "games.sqlite3"
    [info] = await played(source, games=1, moves=20)
    target = tmp_path / "target"
    url = backend.url(target)
    assert await migrate_database(source, url, io.StringIO()) == 0
    dump = backend.postgres.dump(backend.database(target))
    out = io.StringIO()
    assert await migrate_database(source, url, out) == 1
    assert "already holds 1 game; nothing was copied. Add --replace" in out.getvalue()
    assert backend.postgres.dump(backend.database(target)) == dump
    # --replace: what it held is deleted and the file copied again, in one transaction
    async with SqliteStore(source) as store:
        await play_moves(GameService(store, MOUNTAIN_KING), info, record_for(info).moves[20:30])
    out = io.StringIO()
    assert await migrate_database(source, url, out, replace=True) == 0, out.getvalue()
    async with PostgresStore(url) as store:
        assert len(await store.actions(info.id)) == 30


async def test_damage_in_the_sqlite_file_is_reported_game_by_game(
    tmp_path: Path, backend: Backend
) -> None:
    source = tmp_path / "games.sqlite3"
    sound, damaged = await played(source, games=2, moves=15)
    db = raw(source)
    db.execute("UPDATE actions SET notation = 'end' WHERE game_id = ? AND seq = 7", (damaged.id,))
    db.close()
    out = io.StringIO()
    assert await migrate_database(source, backend.url(tmp_path / "t"), out) == 1
    lines = out.getvalue().splitlines()
    [line] = [line for line in lines if line.startswith(f"game {damaged.id}:")]
    assert "BROKEN" in line and "log entry 7" in line and "copied as it was" in line
    assert not any(line.startswith(f"game {sound.id}:") for line in lines)
    assert "1 as they were, 1 broken, 1 of them already in the SQLite file" in out.getvalue()


async def empty_database(path: Path) -> None:
    async with SqliteStore(path):
        pass


def test_the_command_line_names_its_target_and_never_shows_the_password(
    tmp_path: Path,
    backend: Backend,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    source = tmp_path / "games.sqlite3"
    asyncio.run(empty_database(source))
    for name in list(os.environ):
        if name.startswith(("DISCORD_", "DATABASE_")):
            monkeypatch.delenv(name)
    monkeypatch.setenv("DATABASE_PATH", str(source))
    monkeypatch.chdir(tmp_path)  # no .env
    assert maintenance.command(["migrate"]) == 2
    assert "--to or DATABASE_URL" in capsys.readouterr().err
    assert maintenance.command(["migrate", "--to", "mysql://x@y/z"]) == 2
    assert "must be a PostgreSQL URL" in capsys.readouterr().err
    # the real command, as a host runs it: the URL from DATABASE_URL
    url = backend.url(tmp_path / "target").replace("mk@", "mk:hunter2@")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DATABASE_URL": url}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "migrate"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 games" in done.stdout and "mk:***@" in done.stdout
    assert "hunter2" not in done.stdout + done.stderr
