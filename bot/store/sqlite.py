"""The SQLite store (through aiosqlite): one file, the embedded default.

Connection defaults: WAL (readers never block the writer), `foreign_keys=ON`, a busy
timeout (several processes may share the file) and `synchronous=FULL` (an acknowledged
move survives a power cut, not only a crash). Every method runs under one asyncio lock
because a connection has a single transaction: without the lock a read could see
another coroutine's uncommitted write. Writes use `BEGIN IMMEDIATE`, which takes the
file's write lock up front so two processes queue instead of failing on an upgrade.

    >>> store = SqliteStore("data/games.db")      # doctest: +SKIP
    >>> async with store: ...                      # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Collection, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

import aiosqlite

from bot.store.base import Store
from bot.store.errors import (
    DuplicateInteractionError,
    SchemaTooNewError,
    SeqConflictError,
    StatusConflictError,
    StoreError,
)
from bot.store.migrations import LATEST_VERSION, MIGRATIONS
from bot.store.records import (
    ActionRecord,
    GameRecord,
    GameStatus,
    InteractionRecord,
    MessageRecord,
    NewGame,
    NotificationPrefs,
    ReminderRecord,
    SeatRecord,
    SnapshotRecord,
    StoredGame,
)

DEFAULT_BUSY_TIMEOUT_MS = 10_000

_GAME_COLUMNS = (
    "id, rules, config, seed, status, creator_id, reminder_seconds, guild_id, channel_id,"
    " thread_id, created_at, updated_at"
)
_SEAT_COLUMNS = "game_id, seat, user_id, joined_at, colour, team, substitute_id, autopilot"
_ACTION_COLUMNS = "game_id, seq, seat, notation, created_at, user_id, interaction_id"
_REMINDER_COLUMNS = "game_id, seat, waiting_since, next_at, missed, muted_for_turn"

Row = Any  # a sqlite3 row tuple


class SqliteStore(Store):
    """A `Store` in one SQLite file. `path` may be `":memory:"` for quick experiments."""

    def __init__(
        self,
        path: str | Path,
        *,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        synchronous: Literal["FULL", "NORMAL"] = "FULL",
    ) -> None:
        self.path = str(path)
        self._busy_timeout_ms = busy_timeout_ms
        self._synchronous = synchronous
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    # --- lifecycle -------------------------------------------------------------------

    async def open(self) -> None:
        if self._db is not None:
            return
        # isolation_level=None: we issue BEGIN/COMMIT ourselves (explicit transactions)
        db = await aiosqlite.connect(
            self.path, isolation_level=None, timeout=self._busy_timeout_ms / 1000
        )
        try:
            await db.execute(f"PRAGMA busy_timeout = {int(self._busy_timeout_ms)}")
            await db.execute("PRAGMA foreign_keys = ON")
            # refuse a newer database before anything (even the journal mode) changes it
            found = await self._user_version(db)
            if found > LATEST_VERSION:
                raise SchemaTooNewError(self.path, found, LATEST_VERSION)
            if self.path != ":memory:":
                rows = await db.execute_fetchall("PRAGMA journal_mode = WAL")
                mode = next(iter(rows))[0]
                if str(mode).lower() != "wal":
                    raise StoreError(f"{self.path}: could not switch to WAL (got {mode!r})")
            await db.execute(f"PRAGMA synchronous = {self._synchronous}")
            self._db = db
            await self.migrate()
        except BaseException:
            self._db = None
            await db.close()
            raise

    async def close(self) -> None:
        db, self._db = self._db, None
        if db is not None:
            await db.close()

    async def schema_version(self) -> int:
        async with self._lock:
            return await self._user_version(self._conn())

    async def migrate(self) -> list[int]:
        applied: list[int] = []
        async with self._lock:
            db = self._conn()
            found = await self._user_version(db)
            if found > LATEST_VERSION:
                raise SchemaTooNewError(self.path, found, LATEST_VERSION)
            for migration in MIGRATIONS:
                if migration.version <= found:
                    continue
                await db.execute("BEGIN IMMEDIATE")
                try:
                    # another process may have migrated while we waited for the lock
                    current = await self._user_version(db)
                    if current > LATEST_VERSION:
                        raise SchemaTooNewError(self.path, current, LATEST_VERSION)
                    if current < migration.version:
                        for statement in migration.statements:
                            await db.execute(statement)
                        await db.execute(f"PRAGMA user_version = {int(migration.version)}")
                        applied.append(migration.version)
                except BaseException:
                    await _rollback(db)
                    raise
                await db.execute("COMMIT")
        return applied

    # --- games and seats -------------------------------------------------------------

    async def create_game(self, game: NewGame, *, seat_creator: bool) -> GameRecord:
        at = _ts(game.created_at)
        async with self._write() as db:
            cursor = await db.execute(
                "INSERT INTO games (rules, config, status, creator_id, reminder_seconds,"
                " guild_id, channel_id, thread_id, created_at, updated_at)"
                " VALUES (?, ?, 'open', ?, ?, ?, ?, ?, ?, ?)",
                (
                    game.rules,
                    game.config,
                    game.creator_id,
                    game.reminder_seconds,
                    game.guild_id,
                    game.channel_id,
                    game.thread_id,
                    at,
                    at,
                ),
            )
            game_id = cursor.lastrowid
            assert game_id is not None
            if seat_creator:
                await db.execute(
                    "INSERT INTO seats (game_id, seat, user_id, joined_at) VALUES (?, 0, ?, ?)",
                    (game_id, game.creator_id, at),
                )
            row = await _one(db, f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        assert row is not None
        return _game(row)

    async def game(self, game_id: int) -> GameRecord | None:
        async with self._lock:
            row = await _one(
                self._conn(), f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)
            )
        return None if row is None else _game(row)

    async def game_in_thread(self, thread_id: int) -> GameRecord | None:
        async with self._lock:
            row = await _one(
                self._conn(),
                f"SELECT {_GAME_COLUMNS} FROM games WHERE thread_id = ? ORDER BY id DESC LIMIT 1",
                (thread_id,),
            )
        return None if row is None else _game(row)

    async def games_of_user(
        self, user_id: int, statuses: Collection[GameStatus]
    ) -> list[GameRecord]:
        wanted = list(statuses)
        if not wanted:
            return []
        marks = ", ".join("?" * len(wanted))
        async with self._lock:
            rows = await self._conn().execute_fetchall(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE status IN ({marks}) AND id IN"
                " (SELECT game_id FROM seats WHERE user_id = ? OR substitute_id = ?)"
                " ORDER BY id",
                (*wanted, user_id, user_id),
            )
        return [_game(r) for r in rows]

    async def set_place(
        self,
        game_id: int,
        *,
        guild_id: int | None,
        channel_id: int | None,
        thread_id: int | None,
        at: datetime,
    ) -> None:
        async with self._write() as db:
            await db.execute(
                "UPDATE games SET guild_id = ?, channel_id = ?, thread_id = ?, updated_at = ?"
                " WHERE id = ?",
                (guild_id, channel_id, thread_id, _ts(at), game_id),
            )

    async def set_status(
        self, game_id: int, status: GameStatus, *, only_from: Collection[GameStatus], at: datetime
    ) -> bool:
        allowed = list(only_from)
        if not allowed:
            return False
        marks = ", ".join("?" * len(allowed))
        async with self._write() as db:
            cursor = await db.execute(
                f"UPDATE games SET status = ?, updated_at = ? WHERE id = ? AND status IN ({marks})",
                (status, _ts(at), game_id, *allowed),
            )
            changed = cursor.rowcount == 1
            if changed and status != "active":
                await db.execute("DELETE FROM reminders WHERE game_id = ?", (game_id,))
        return changed

    async def seats(self, game_id: int) -> list[SeatRecord]:
        async with self._lock:
            return await _seats(self._conn(), game_id)

    async def add_seat(
        self, game_id: int, user_id: int, *, limit: int, at: datetime
    ) -> SeatRecord | None:
        async with self._write() as db:
            status = await _status(db, game_id)
            seats = await _seats(db, game_id)
            if status != "open" or len(seats) >= limit or any(s.user_id == user_id for s in seats):
                return None
            seat = SeatRecord(game_id, len(seats), user_id, at)
            await _insert_seats(db, [seat])
            await _touch(db, game_id, at)
        return seat

    async def remove_seat(self, game_id: int, seat: int, *, at: datetime) -> bool:
        async with self._write() as db:
            if await _status(db, game_id) != "open":
                return False
            seats = await _seats(db, game_id)
            if not any(s.seat == seat for s in seats):
                return False
            # renumber by rewriting: shifting keys in place could collide mid-update
            kept = [s for s in seats if s.seat != seat]
            await db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            await _insert_seats(
                db,
                [
                    SeatRecord(game_id, i, s.user_id, s.joined_at, substitute_id=s.substitute_id)
                    for i, s in enumerate(kept)
                ],
            )
            await _touch(db, game_id, at)
        return True

    async def put_seat(self, seat: SeatRecord, *, at: datetime) -> None:
        async with self._write() as db:
            await db.execute(
                "UPDATE seats SET user_id = ?, colour = ?, team = ?, substitute_id = ?,"
                " autopilot = ? WHERE game_id = ? AND seat = ?",
                (
                    seat.user_id,
                    seat.colour,
                    seat.team,
                    seat.substitute_id,
                    int(seat.autopilot),
                    seat.game_id,
                    seat.seat,
                ),
            )
            await _touch(db, seat.game_id, at)

    async def start_game(
        self,
        game_id: int,
        *,
        seed: int,
        seats: Sequence[SeatRecord],
        snapshot: SnapshotRecord,
        waiting: Sequence[ReminderRecord],
        at: datetime,
    ) -> bool:
        async with self._write() as db:
            cursor = await db.execute(
                "UPDATE games SET status = 'active', seed = ?, updated_at = ?"
                " WHERE id = ? AND status = 'open'",
                (seed, _ts(at), game_id),
            )
            if cursor.rowcount != 1:
                return False
            await db.executemany(
                "UPDATE seats SET colour = ?, team = ? WHERE game_id = ? AND seat = ?",
                [(s.colour, s.team, game_id, s.seat) for s in seats],
            )
            await _put_snapshot(db, snapshot)
            await _replace_waiting(db, game_id, waiting)
        return True

    # --- the action log ----------------------------------------------------------------

    async def load_game(self, game_id: int) -> StoredGame | None:
        async with self._read() as db:
            row = await _one(db, f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
            if row is None:
                return None
            seats = await _seats(db, game_id)
            snap = await _one(
                db, "SELECT game_id, seq, state FROM snapshots WHERE game_id = ?", (game_id,)
            )
            snapshot = None if snap is None else SnapshotRecord(snap[0], snap[1], snap[2])
            later = await _actions(db, game_id, 0 if snapshot is None else snapshot.seq)
            last = await _last_seq(db, game_id)
        return StoredGame(_game(row), tuple(seats), snapshot, tuple(later), last)

    async def actions(self, game_id: int, *, after: int = 0) -> list[ActionRecord]:
        async with self._lock:
            return await _actions(self._conn(), game_id, after)

    async def append_action(
        self,
        action: ActionRecord,
        snapshot: SnapshotRecord,
        *,
        interaction: InteractionRecord | None = None,
        status: GameStatus | None = None,
        waiting: Sequence[ReminderRecord] | None = None,
    ) -> None:
        game_id = action.game_id
        if snapshot.game_id != game_id or snapshot.seq != action.seq:
            raise ValueError("the snapshot must be the state after the appended action")
        async with self._write() as db:
            found = await _status(db, game_id)
            if found != "active":
                raise StatusConflictError(game_id, found, "active")
            # the primary key alone would allow a gap; the log must stay gapless
            last = await _last_seq(db, game_id)
            if action.seq != last + 1:
                raise SeqConflictError(game_id, action.seq, last)
            try:
                await db.execute(
                    f"INSERT INTO actions ({_ACTION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    _action_row(action),
                )
            except sqlite3.IntegrityError as exc:
                if "actions.game_id, actions.seq" in str(exc):
                    raise SeqConflictError(game_id, action.seq, last) from exc
                raise
            if interaction is not None:
                try:
                    await db.execute(
                        "INSERT INTO interactions (interaction_id, game_id, seq, result,"
                        " created_at) VALUES (?, ?, ?, ?, ?)",
                        (
                            interaction.interaction_id,
                            interaction.game_id,
                            interaction.seq,
                            interaction.result,
                            _ts(interaction.created_at),
                        ),
                    )
                except sqlite3.IntegrityError as exc:
                    raise DuplicateInteractionError(interaction.interaction_id) from exc
            await _put_snapshot(db, snapshot)
            await db.execute(
                "UPDATE games SET status = COALESCE(?, status), updated_at = ? WHERE id = ?",
                (status, _ts(action.created_at), game_id),
            )
            if status is not None and status != "active":
                await _replace_waiting(db, game_id, ())
            elif waiting is not None:
                await _replace_waiting(db, game_id, waiting)

    async def put_snapshot(self, snapshot: SnapshotRecord) -> None:
        async with self._write() as db:
            await _put_snapshot(db, snapshot)

    # --- interactions ------------------------------------------------------------------

    async def interaction(self, interaction_id: int) -> InteractionRecord | None:
        async with self._lock:
            row = await _one(
                self._conn(),
                "SELECT interaction_id, game_id, seq, result, created_at FROM interactions"
                " WHERE interaction_id = ?",
                (interaction_id,),
            )
        if row is None:
            return None
        return InteractionRecord(row[0], row[1], row[2], row[3], _dt(row[4]))

    async def prune_interactions(self, before: datetime) -> int:
        async with self._write() as db:
            cursor = await db.execute(
                "DELETE FROM interactions WHERE created_at < ?", (_ts(before),)
            )
            return cursor.rowcount

    # --- messages, notification preferences, reminders --------------------------------

    async def put_message(self, message: MessageRecord) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO messages (game_id, kind, channel_id, message_id) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (game_id, kind) DO UPDATE SET channel_id = excluded.channel_id,"
                " message_id = excluded.message_id",
                (message.game_id, message.kind, message.channel_id, message.message_id),
            )

    async def messages(self, game_id: int) -> list[MessageRecord]:
        async with self._lock:
            rows = await self._conn().execute_fetchall(
                "SELECT game_id, kind, channel_id, message_id FROM messages WHERE game_id = ?"
                " ORDER BY kind",
                (game_id,),
            )
        return [MessageRecord(r[0], r[1], r[2], r[3]) for r in rows]

    async def delete_message(self, game_id: int, kind: str) -> bool:
        async with self._write() as db:
            cursor = await db.execute(
                "DELETE FROM messages WHERE game_id = ? AND kind = ?", (game_id, kind)
            )
            return cursor.rowcount == 1

    async def notification_prefs(self, user_ids: Collection[int]) -> dict[int, NotificationPrefs]:
        ids = sorted(set(user_ids))
        if not ids:
            return {}
        marks = ", ".join("?" * len(ids))
        async with self._lock:
            rows = await self._conn().execute_fetchall(
                "SELECT user_id, dm_opt_in, quiet_start, quiet_end, timezone"
                f" FROM notification_prefs WHERE user_id IN ({marks})",
                ids,
            )
        return {r[0]: NotificationPrefs(r[0], bool(r[1]), r[2], r[3], r[4]) for r in rows}

    async def put_notification_prefs(self, prefs: NotificationPrefs) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO notification_prefs (user_id, dm_opt_in, quiet_start, quiet_end,"
                " timezone) VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET"
                " dm_opt_in = excluded.dm_opt_in, quiet_start = excluded.quiet_start,"
                " quiet_end = excluded.quiet_end, timezone = excluded.timezone",
                (
                    prefs.user_id,
                    int(prefs.dm_opt_in),
                    prefs.quiet_start,
                    prefs.quiet_end,
                    prefs.timezone,
                ),
            )

    async def reminders(self, game_id: int) -> list[ReminderRecord]:
        async with self._lock:
            rows = await self._conn().execute_fetchall(
                f"SELECT {_REMINDER_COLUMNS} FROM reminders WHERE game_id = ? ORDER BY seat",
                (game_id,),
            )
        return [_reminder(r) for r in rows]

    async def due_reminders(self, now: datetime, *, limit: int) -> list[ReminderRecord]:
        async with self._lock:
            rows = await self._conn().execute_fetchall(
                f"SELECT {_REMINDER_COLUMNS} FROM reminders"
                " WHERE next_at <= ? AND muted_for_turn = 0 ORDER BY next_at LIMIT ?",
                (_ts(now), limit),
            )
        return [_reminder(r) for r in rows]

    async def put_reminder(self, reminder: ReminderRecord) -> bool:
        async with self._write() as db:
            cursor = await db.execute(
                "UPDATE reminders SET waiting_since = ?, next_at = ?, missed = ?,"
                " muted_for_turn = ? WHERE game_id = ? AND seat = ?",
                (
                    _ts(reminder.waiting_since),
                    _ts(reminder.next_at),
                    reminder.missed,
                    int(reminder.muted_for_turn),
                    reminder.game_id,
                    reminder.seat,
                ),
            )
            return cursor.rowcount == 1

    # --- private helpers -------------------------------------------------------------

    def _conn(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StoreError(f"The store {self.path} is not open.")
        return self._db

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            db = self._conn()
            await db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                await _rollback(db)
                raise
            await db.execute("COMMIT")

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        """A read transaction: several SELECTs see one consistent database."""
        async with self._lock:
            db = self._conn()
            await db.execute("BEGIN")
            try:
                yield db
            finally:
                await _rollback(db)

    @staticmethod
    async def _user_version(db: aiosqlite.Connection) -> int:
        row = await _one(db, "PRAGMA user_version", ())
        assert row is not None
        return int(row[0])


async def _rollback(db: aiosqlite.Connection) -> None:
    # SQLite rolls back by itself after some errors; a second ROLLBACK would fail
    if db.in_transaction:
        await db.execute("ROLLBACK")


async def _one(db: aiosqlite.Connection, sql: str, params: Iterable[Any]) -> Row | None:
    async with db.execute(sql, tuple(params)) as cursor:
        return await cursor.fetchone()


async def _status(db: aiosqlite.Connection, game_id: int) -> str | None:
    row = await _one(db, "SELECT status FROM games WHERE id = ?", (game_id,))
    return None if row is None else str(row[0])


async def _last_seq(db: aiosqlite.Connection, game_id: int) -> int:
    row = await _one(db, "SELECT MAX(seq) FROM actions WHERE game_id = ?", (game_id,))
    return 0 if row is None or row[0] is None else int(row[0])


async def _touch(db: aiosqlite.Connection, game_id: int, at: datetime) -> None:
    await db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (_ts(at), game_id))


async def _seats(db: aiosqlite.Connection, game_id: int) -> list[SeatRecord]:
    rows = await db.execute_fetchall(
        f"SELECT {_SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
    )
    return [SeatRecord(r[0], r[1], r[2], _dt(r[3]), r[4], r[5], r[6], bool(r[7])) for r in rows]


async def _insert_seats(db: aiosqlite.Connection, seats: Sequence[SeatRecord]) -> None:
    await db.executemany(
        f"INSERT INTO seats ({_SEAT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                s.game_id,
                s.seat,
                s.user_id,
                _ts(s.joined_at),
                s.colour,
                s.team,
                s.substitute_id,
                int(s.autopilot),
            )
            for s in seats
        ],
    )


async def _actions(db: aiosqlite.Connection, game_id: int, after: int) -> list[ActionRecord]:
    rows = await db.execute_fetchall(
        f"SELECT {_ACTION_COLUMNS} FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq",
        (game_id, after),
    )
    return [ActionRecord(r[0], r[1], r[2], r[3], _dt(r[4]), r[5], r[6]) for r in rows]


def _action_row(a: ActionRecord) -> tuple[Any, ...]:
    return (a.game_id, a.seq, a.seat, a.notation, _ts(a.created_at), a.user_id, a.interaction_id)


async def _put_snapshot(db: aiosqlite.Connection, snapshot: SnapshotRecord) -> None:
    await db.execute(
        "INSERT INTO snapshots (game_id, seq, state) VALUES (?, ?, ?)"
        " ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, state = excluded.state"
        " WHERE excluded.seq >= snapshots.seq",
        (snapshot.game_id, snapshot.seq, snapshot.state),
    )


async def _replace_waiting(
    db: aiosqlite.Connection, game_id: int, waiting: Sequence[ReminderRecord]
) -> None:
    """Make `waiting` the seats awaited; seats awaited before and now keep their row
    (their waiting time, missed reminders and mute stay)."""
    seats = sorted({r.seat for r in waiting})
    marks = ", ".join("?" * len(seats))
    keep = f" AND seat NOT IN ({marks})" if seats else ""
    await db.execute(f"DELETE FROM reminders WHERE game_id = ?{keep}", (game_id, *seats))
    await db.executemany(
        f"INSERT INTO reminders ({_REMINDER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (game_id, seat) DO NOTHING",
        [
            (
                game_id,
                r.seat,
                _ts(r.waiting_since),
                _ts(r.next_at),
                r.missed,
                int(r.muted_for_turn),
            )
            for r in waiting
        ],
    )


def _game(row: Row) -> GameRecord:
    return GameRecord(
        id=row[0],
        rules=row[1],
        config=row[2],
        seed=row[3],
        status=row[4],
        creator_id=row[5],
        reminder_seconds=row[6],
        guild_id=row[7],
        channel_id=row[8],
        thread_id=row[9],
        created_at=_dt(row[10]),
        updated_at=_dt(row[11]),
    )


def _reminder(row: Row) -> ReminderRecord:
    return ReminderRecord(row[0], row[1], _dt(row[2]), _dt(row[3]), row[4], bool(row[5]))


def _ts(at: datetime) -> float:
    if at.tzinfo is None:
        raise ValueError("store times must be timezone-aware")
    return at.timestamp()


def _dt(value: float) -> datetime:
    return datetime.fromtimestamp(value, UTC)
