"""Shared builders for the store and service tests: backends, a fake clock, services
over a real SQLite file, started games and random-game records to play through them.

Tests in this folder import these as `from service_helpers import ...` (like
`from helpers import ...` elsewhere: tests/ has no __init__.py).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import subprocess
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from pg_server import PgServer

from bot.service import MOUNTAIN_KING, GameInfo, GameService
from bot.store import SqliteStore, Store
from bot.store.postgres import PostgresStore
from rules.actions import Action
from rules.game import Game, Move
from rules.legal import legal_actions
from rules.selfplay import play_random_game
from rules.state import State, make_config
from tests.sqlite_template import copy_migrated

USERS = (1001, 1002, 1003, 1004, 1005)
STRANGER = 9999
START = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)

MODES: dict[str, dict[str, Any]] = {
    "2p": {"players": 2},
    "3p": {"players": 3},
    "4p": {"players": 4},
    "5p": {"players": 5},
    "teams": {"players": 4, "teams": True},
}


class FakeClock:
    """A clock the test moves by hand; each reading ticks one millisecond so that
    entries keep their order."""

    def __init__(self, now: datetime = START) -> None:
        self.now = now

    def __call__(self) -> datetime:
        self.now += timedelta(milliseconds=1)
        return self.now

    def advance(self, delta: timedelta) -> None:
        self.now += delta


@dataclass
class Backend:
    """How the store and service tests make a store of one kind: a SQLite file at a
    path, or (PostgreSQL) a fresh database of the test server for each path used.
    `migrated` (unless the test is marked `empty_database`): a new database starts as a
    copy of one the store opened once, as its first open leaves a new database (a new
    SQLite path gets a copy of a migrated file, tests/sqlite_template.py; PostgreSQL, of
    a migrated template database, tests/pg_server.py)."""

    name: str
    server: PgServer | None = None
    databases: dict[str, str] = field(default_factory=dict)
    migrated: bool = True

    @property
    def postgres(self) -> PgServer:
        assert self.name == "postgresql" and self.server is not None
        return self.server

    def database(self, path: Path) -> str:
        """The PostgreSQL database that stands for the file `path` in this test."""
        key = str(path)
        if key not in self.databases:
            self.databases[key] = self.postgres.create_database(migrated=self.migrated)
        return self.databases[key]

    def url(self, path: Path) -> str:
        return self.postgres.url(self.database(path))

    def store_at(self, path: Path) -> Store:
        """A store for the database file `path` (or the database standing for it).
        The SQLite file is written with synchronous=NORMAL: a commit does not wait for
        the disk (about 7 ms each here, thousands of them in these tests), as the
        PostgreSQL test server runs with fsync off (tests/pg_server.py); what is stored
        and read back is the same, and these tests crash processes, never the machine.
        The store's own default, FULL, is checked in test_store_sqlite.py.
        `migrated`: a new SQLite path (no file there yet) gets a copy of a migrated file
        first; an existing file is opened as it is."""
        if self.name == "sqlite":
            if self.migrated:
                copy_migrated(path)
            return SqliteStore(path, synchronous="NORMAL")
        if self.name == "postgresql":
            return PostgresStore(self.url(path), pool_size=4)
        raise AssertionError(self.name)  # pragma: no cover

    def make(self, tmp_path: Path) -> Store:
        return self.store_at(tmp_path / "games.db")

    def force_schema_version(self, tmp_path: Path, version: int) -> None:
        """Pretend a newer bot wrote the database."""
        if self.name == "sqlite":
            db = sqlite3.connect(tmp_path / "games.db")
            db.execute(f"PRAGMA user_version = {version}")
            db.commit()
            db.close()
            return
        if self.name == "postgresql":
            database = self.database(tmp_path / "games.db")
            self.postgres.psql(f"UPDATE mk_schema SET version = {int(version)}", database)
            return
        raise AssertionError(self.name)  # pragma: no cover

    def snapshot_files(self, tmp_path: Path) -> dict[str, bytes]:
        """The database's content, to show a refused open wrote nothing."""
        if self.name == "sqlite":
            # the -shm file is a shared-memory index that readers touch; it holds no data
            files = sorted(tmp_path.glob("games.db*"))
            return {p.name: p.read_bytes() for p in files if not p.name.endswith("-shm")}
        if self.name == "postgresql":
            return {"dump": self.postgres.dump(self.database(tmp_path / "games.db"))}
        raise AssertionError(self.name)  # pragma: no cover

    def drop_databases(self) -> None:
        for name in self.databases.values():
            self.postgres.drop_database(name)
        self.databases.clear()


# the backend `open_service` uses (tests/service/conftest.py sets it for each test)
_current = Backend("sqlite")


def use_backend(backend: Backend) -> Backend:
    """Make `open_service` open stores of `backend`; returns the one used before."""
    global _current
    previous, _current = _current, backend
    return previous


def current_backend() -> Backend:
    return _current


Service = GameService[State, Action]


@asynccontextmanager
async def open_service(
    path: Path, *, clock: FakeClock | None = None, rng_seed: int | None = 0
) -> AsyncIterator[Service]:
    """A service over a real SQLite file, or the PostgreSQL database standing for it
    when the test runs on PostgreSQL (seeds from a seeded RNG: reproducible)."""
    rng = None if rng_seed is None else random.Random(rng_seed)
    async with _current.store_at(path) as store:
        yield GameService(store, MOUNTAIN_KING, rng=rng, clock=clock or FakeClock())


async def started_game(service: Service, users: Sequence[int] = USERS, **options: Any) -> GameInfo:
    """Create a game with `options` (default 2 players), seat the users in order and
    start it (the first user creates it)."""
    options.setdefault("players", 2)
    players = users[: options["players"]]
    game = await service.create_game(players[0], options)
    for user in players[1:]:
        await service.seating.join(game.id, user)
    return await service.start(game.id, players[0])


def random_record(seed: int, **options: Any) -> Game:
    """A finished random game (cached: records are reused across tests)."""
    return _random_record(seed, json.dumps(options, sort_keys=True))


@cache
def _random_record(seed: int, options: str) -> Game:
    return play_random_game(make_config(**json.loads(options)), seed)


def record_for(info: GameInfo) -> Game:
    """A finished random game with the options and seed of a started game (a stored
    config without an edition is of edition 1, as the rules read it)."""
    assert info.seed is not None
    return random_record(info.seed, **{"edition": 1, **info.config})


def setup_moves(record: Game) -> list[Move]:
    """The record's setup: its gates, then its draft (in the order played); the first
    turn comes next."""
    return [m for m in record.moves if type(m.action).__name__ in ("PlaceGate", "Keep")]


async def place_gates(service: Service, info: GameInfo) -> int:
    """Place every gate through the service, each the first legal gate of the seat to
    act, by the user seated there; the draft is next. Returns how many were placed."""
    placed = 0
    while True:
        state = (await service.load(info.id)).state
        assert state is not None
        if state.phase != "gates":
            return placed
        seat = state.gate_seat
        assert seat is not None
        await service.act(info.id, user_of(info, seat), legal_actions(state, seat, "gate")[0])
        placed += 1


def user_of(info: GameInfo, seat: int) -> int:
    user = info.seats[seat].controller_id
    assert user is not None
    return user


async def play_moves(
    service: Service, info: GameInfo, moves: Sequence[Move], *, as_text: bool = False
) -> None:
    """Play moves through the service, each by the user seated there."""
    for move in moves:
        action: Action | str = str(move.action) if as_text else move.action
        await service.act(info.id, user_of(info, move.seat), action)


# what migration 9 (away and the turn clock) added, taken away again
MIGRATION_9_UNDONE = (
    "DROP TABLE away",
    "DROP INDEX games_with_clock",
    "ALTER TABLE seats DROP COLUMN away",
    "ALTER TABLE games DROP COLUMN away_policy",
    "ALTER TABLE games DROP COLUMN clock_seconds",
    "ALTER TABLE games DROP COLUMN clock_policy",
    "ALTER TABLE reminders DROP COLUMN clock_since",
    "ALTER TABLE reminders DROP COLUMN clock_due",
    "ALTER TABLE reminders DROP COLUMN clock_warn",
    "ALTER TABLE reminders DROP COLUMN clock_stage",
    # and the columns of migrations 12 (idle games) and 13 (the heads-up), which run
    # again after it (their tables and indexes are made only if they do not exist)
    "ALTER TABLE games DROP COLUMN idle_warned_at",
    "ALTER TABLE reminders DROP COLUMN heads_up_since",
)


def set_back_to_8(db: sqlite3.Connection) -> None:
    """A SQLite file as a bot of schema version 8 left it (for tests that set a file
    back to an older version by hand: the later migrations then run again)."""
    for statement in MIGRATION_9_UNDONE:
        db.execute(statement)
    db.execute("PRAGMA user_version = 8")


def raw(path: Path) -> sqlite3.Connection:
    """A plain sqlite3 connection, for tests that damage or inspect rows directly."""
    return sqlite3.connect(path, isolation_level=None)


async def game_in_play(service: Service, moves: int = 14) -> tuple[GameInfo, int]:
    """A 2-player game past the draft and gates, at a seat's own turn: (game, moves)."""
    info = await started_game(service, players=2)
    for played, move in enumerate(record_for(info).moves, start=1):
        await play_moves(service, info, [move])
        state = (await service.load(info.id)).state
        assert state is not None
        if played >= moves and state.phase == "play" and state.current_seat is not None:
            return info, played
    raise AssertionError("the record never reached a turn")  # pragma: no cover


@contextmanager
def read_only(path: Path) -> Iterator[None]:
    """Make a file or folder read-only for this process (root ignores permissions:
    then the immutable attribute, if the file system has it)."""
    if os.geteuid() != 0:
        mode = path.stat().st_mode
        path.chmod(0o555 if path.is_dir() else 0o444)
        try:
            yield
        finally:
            path.chmod(mode)
        return
    chattr = shutil.which("chattr")
    if chattr is None or subprocess.run([chattr, "+i", str(path)], check=False).returncode:
        pytest.skip("running as root without chattr: cannot make a file read-only")
    try:
        yield
    finally:
        subprocess.run([chattr, "-i", str(path)], check=True)
