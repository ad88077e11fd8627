"""The SQLite store: one file, the embedded default.

Connection defaults: WAL (readers never block the writer), `foreign_keys=ON`, a busy
timeout (several processes may share the file) and `synchronous=FULL` (an acknowledged
move survives a power cut, not only a crash). The connections live on threads of their
own (bot/store/sqlite_workers.py): each store method is one job there, all its
statements in one transaction. Writes go to one writer connection, which commits the
writes of many games that queued up together in one transaction (each in a savepoint
of its own) and so waits for the disk once for all of them; a caller hears of its
write only after that commit. Reads go to a few reader connections, each job a read
transaction, beside the writer. Writes use `BEGIN IMMEDIATE`, which takes the file's
write lock up front so two processes queue instead of failing on an upgrade.

    >>> store = SqliteStore("data/games.db")      # doctest: +SKIP
    >>> async with store: ...                      # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import threading
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any, Literal, TypeVar

from bot.store.base import Store
from bot.store.errors import (
    DuplicateInteractionError,
    SchemaTooNewError,
    SeqConflictError,
    StatusConflictError,
    StoreError,
    StoreFullError,
    StoreReadOnlyError,
    StoreUnusableError,
)
from bot.store.integrity import genesis, next_chain, state_digest
from bot.store.migrations import LATEST_VERSION, MIGRATIONS
from bot.store.records import (
    RESTING,
    ActionRecord,
    BallotRecord,
    DigestRecord,
    DutyClaim,
    GameRecord,
    GameStatus,
    InteractionRecord,
    MessageRecord,
    NewGame,
    NewOwed,
    NotificationPrefs,
    OwedMessage,
    ReminderRecord,
    SeatRecord,
    SnapshotRecord,
    StoredGame,
    VoteRecord,
    VoteStatus,
)
from bot.store.sqlite_workers import (
    Queue,
    Stop,
    Work,
    read_transaction,
    rollback,
    start_thread,
    submit,
)

DEFAULT_BUSY_TIMEOUT_MS = 10_000
# reader connections beside the writer (reads are short; the GIL is shared anyway)
DEFAULT_READERS = 2

_GAME_COLUMNS = (
    "id, rules, config, seed, status, creator_id, reminder_seconds, guild_id, channel_id,"
    " thread_id, created_at, updated_at, language"
)
_SEAT_COLUMNS = (
    "game_id, seat, user_id, joined_at, colour, team, substitute_id, autopilot, ai, skip_turn, name"
)
_ACTION_COLUMNS = (
    "game_id, seq, seat, notation, created_at, user_id, interaction_id, story, ends_turn, chain"
)
_REMINDER_COLUMNS = "game_id, seat, waiting_since, next_at, missed, muted_for_turn"
_OWED_COLUMNS = (
    "id, game_id, seq, kind, payload, created_at, due_at, attempts, last_error, delivered_at,"
    " channel_id, message_id, tried_at"
)
_VOTE_COLUMNS = (
    "id, game_id, seat, turn_since, opened_at, deadline, status, decided_at, channel_id, message_id"
)
# a seat the AI plays now (the SQL twin of `SeatRecord.machine_played`)
_MACHINE_SEAT = (
    "(s.ai = 1 OR s.autopilot = 1 OR s.skip_turn = 1"
    " OR COALESCE(s.substitute_id, s.user_id) IS NULL)"
)

Row = Any  # a sqlite3 row tuple
Db = sqlite3.Connection
T = TypeVar("T")


class SqliteStore(Store):
    """A `Store` in one SQLite file. `path` may be `":memory:"` for quick experiments
    (then one connection does everything: a second would see another database)."""

    def __init__(
        self,
        path: str | Path,
        *,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        synchronous: Literal["FULL", "NORMAL"] = "FULL",
        read_only: bool = False,
        readers: int = DEFAULT_READERS,
    ) -> None:
        self.path = str(path)
        # read-only: for checks beside a running bot; never migrates or writes
        self.read_only = read_only
        self._busy_timeout_ms = busy_timeout_ms
        self._synchronous = synchronous
        self._readers = max(1, readers)
        self._threads: list[threading.Thread] = []
        # the writer's queue (None: not open; read-only: the one connection's queue)
        self._writes: Queue | None = None
        self._reads: Queue | None = None

    # --- lifecycle -------------------------------------------------------------------

    async def open(self) -> None:
        if self._writes is not None:
            return
        memory = self.path == ":memory:"
        if not memory:
            refuse_unusable(Path(self.path), read_only=self.read_only)
        writes: Queue = Queue()
        thread, ready = start_thread("sqlite-writer", self._connect, writes, writer=True)
        self._threads.append(thread)
        await ready
        self._writes = writes
        try:
            await self._run(self._set_up)
            if self.read_only or memory:
                # one connection: reads run on it between the writes
                self._reads = writes
                return
            reads: Queue = Queue()
            for n in range(self._readers):
                thread, ready = start_thread(
                    f"sqlite-reader-{n}", self._connect_reader, reads, writer=False
                )
                self._threads.append(thread)
                self._reads = reads
                await ready
        except BaseException:
            await self.close()
            raise

    def _connect(self) -> Db:
        """A connection as every one of ours is set up (explicit transactions; damaged
        bytes in a text column read as U+FFFD instead of raising: the checks of chain,
        digest and JSON then report them like any other damage)."""
        target = f"{Path(self.path).resolve().as_uri()}?mode=ro" if self.read_only else self.path
        db = sqlite3.connect(
            target,
            isolation_level=None,
            timeout=self._busy_timeout_ms / 1000,
            uri=self.read_only,
        )
        try:
            db.text_factory = _decode
            db.execute(f"PRAGMA busy_timeout = {int(self._busy_timeout_ms)}")
            db.execute("PRAGMA foreign_keys = ON")
        except BaseException:
            db.close()
            raise
        return db

    def _connect_reader(self) -> Db:
        db = self._connect()
        db.execute("PRAGMA query_only = ON")
        return db

    def _set_up(self, db: Db) -> None:
        """Check the file's schema version, switch to WAL and bring the schema up to
        date (on the writer, before anything else runs)."""
        # the functions that fill the log's chain values in old files (migration 4)
        db.create_function("mk_genesis", 1, genesis, deterministic=True)
        db.create_function("mk_chain", 4, next_chain, deterministic=True)
        # refuse a newer database before anything (even the journal mode) changes it
        try:
            found = _user_version(db)
        except sqlite3.DatabaseError as exc:
            raise StoreUnusableError(
                f"The database {self.path} cannot be read ({exc}); it was left untouched."
            ) from exc
        if found > LATEST_VERSION:
            raise SchemaTooNewError(self.path, found, LATEST_VERSION)
        if self.read_only:
            if found < LATEST_VERSION:
                raise StoreUnusableError(
                    f"The database {self.path} has schema version {found}; start the bot"
                    f" once to upgrade it to {LATEST_VERSION}, then check it."
                )
            return
        if self.path != ":memory:":
            mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise StoreError(f"{self.path}: could not switch to WAL (got {mode!r})")
        db.execute(f"PRAGMA synchronous = {self._synchronous}")
        self._migrate(db)

    async def close(self) -> None:
        queues = {id(q): q for q in (self._writes, self._reads) if q is not None}
        self._writes = self._reads = None
        threads, self._threads = self._threads, []
        for jobs in queues.values():
            for _ in threads:  # enough stops for every thread that takes from it
                jobs.put(Stop())
        for thread in threads:
            await asyncio.to_thread(thread.join)

    async def schema_version(self) -> int:
        return await self._read(_user_version)

    async def migrate(self) -> list[int]:
        return await self._run(self._migrate)

    def _migrate(self, db: Db) -> list[int]:
        applied: list[int] = []
        found = _user_version(db)
        if found > LATEST_VERSION:
            raise SchemaTooNewError(self.path, found, LATEST_VERSION)
        for migration in MIGRATIONS:
            if migration.version <= found:
                continue
            with store_faults(self.path):
                db.execute("BEGIN IMMEDIATE")
                try:
                    # another process may have migrated while we waited for the lock
                    current = _user_version(db)
                    if current > LATEST_VERSION:
                        raise SchemaTooNewError(self.path, current, LATEST_VERSION)
                    if current < migration.version:
                        for statement in migration.statements:
                            db.execute(statement)
                        db.execute(f"PRAGMA user_version = {int(migration.version)}")
                        applied.append(migration.version)
                    db.execute("COMMIT")
                except BaseException:
                    rollback(db)
                    raise
        return applied

    # --- running jobs ----------------------------------------------------------------

    async def _run(self, work: Callable[[Db], T]) -> T:
        """Run `work` on the writer's connection as it is (no transaction of ours)."""
        if self._writes is None:
            raise StoreError(f"The store {self.path} is not open.")
        result: T = await submit(self._writes, work)
        return result

    async def _read(self, work: Callable[[Db], T]) -> T:
        """Run `work` in a read transaction: its statements see one consistent database."""
        if self._reads is None:
            raise StoreError(f"The store {self.path} is not open.")
        if self._reads is self._writes:  # one connection: between the writes
            result: T = await submit(self._reads, partial(read_transaction, work=work))
        else:
            result = await submit(self._reads, work)
        return result

    async def _write(self, work: Callable[[Db], T]) -> T:
        """Run `work` in a write transaction (perhaps shared with other games' writes,
        in a savepoint of its own); returns once it is committed. A full disk, a size
        limit or a read-only file rolls it back and becomes a `StoreFullError` or
        `StoreReadOnlyError`: nothing stored."""
        if self._writes is None:
            raise StoreError(f"The store {self.path} is not open.")
        if self.read_only:
            raise StoreReadOnlyError(self.path, "it was opened read-only")
        with store_faults(self.path):
            result: T = await submit(self._writes, work, write=True)
        return result

    async def _on_writer(self, work: Work) -> Any:
        """Run `work` on the writer's connection, outside any transaction (for tests
        that set a PRAGMA there, as a full disk would)."""
        return await self._run(work)

    # --- games and seats -------------------------------------------------------------

    async def create_game(self, game: NewGame, *, seat_creator: bool) -> GameRecord:
        at = _ts(game.created_at)

        def work(db: Db) -> GameRecord:
            cursor = db.execute(
                "INSERT INTO games (rules, config, status, creator_id, reminder_seconds,"
                " guild_id, channel_id, thread_id, created_at, updated_at, language)"
                " VALUES (?, ?, 'open', ?, ?, ?, ?, ?, ?, ?, ?)",
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
                    game.language,
                ),
            )
            game_id = cursor.lastrowid
            assert game_id is not None
            if seat_creator:
                db.execute(
                    "INSERT INTO seats (game_id, seat, user_id, joined_at, name)"
                    " VALUES (?, 0, ?, ?, ?)",
                    (game_id, game.creator_id, at, game.creator_name),
                )
            row = _one(db, f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
            assert row is not None
            return _game(row)

        return await self._write(work)

    async def game(self, game_id: int) -> GameRecord | None:
        def work(db: Db) -> GameRecord | None:
            row = _one(db, f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
            return None if row is None else _game(row)

        return await self._read(work)

    async def game_in_thread(self, thread_id: int) -> GameRecord | None:
        def work(db: Db) -> GameRecord | None:
            row = _one(
                db,
                f"SELECT {_GAME_COLUMNS} FROM games WHERE thread_id = ? ORDER BY id DESC LIMIT 1",
                (thread_id,),
            )
            return None if row is None else _game(row)

        return await self._read(work)

    async def games_of_user(
        self, user_id: int, statuses: Collection[GameStatus]
    ) -> list[GameRecord]:
        wanted = list(statuses)
        if not wanted:
            return []
        marks = ", ".join("?" * len(wanted))

        def work(db: Db) -> list[GameRecord]:
            rows = db.execute(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE status IN ({marks}) AND id IN"
                " (SELECT game_id FROM seats WHERE user_id = ? OR substitute_id = ?)"
                " ORDER BY id",
                (*wanted, user_id, user_id),
            ).fetchall()
            return [_game(r) for r in rows]

        return await self._read(work)

    async def set_place(
        self,
        game_id: int,
        *,
        guild_id: int | None,
        channel_id: int | None,
        thread_id: int | None,
        at: datetime,
    ) -> None:
        def work(db: Db) -> None:
            db.execute(
                "UPDATE games SET guild_id = ?, channel_id = ?, thread_id = ?, updated_at = ?"
                " WHERE id = ?",
                (guild_id, channel_id, thread_id, _ts(at), game_id),
            )

        await self._write(work)

    async def set_language(self, game_id: int, language: str, *, at: datetime) -> bool:
        def work(db: Db) -> bool:
            cursor = db.execute(
                "UPDATE games SET language = ?, updated_at = ? WHERE id = ?",
                (language, _ts(at), game_id),
            )
            return cursor.rowcount == 1

        return await self._write(work)

    async def discard_game(self, game_id: int) -> bool:
        def work(db: Db) -> bool:
            cursor = db.execute("DELETE FROM games WHERE id = ? AND status = 'open'", (game_id,))
            return cursor.rowcount == 1

        return await self._write(work)

    async def set_status(
        self, game_id: int, status: GameStatus, *, only_from: Collection[GameStatus], at: datetime
    ) -> bool:
        allowed = list(only_from)
        if not allowed:
            return False
        marks = ", ".join("?" * len(allowed))

        def work(db: Db) -> bool:
            cursor = db.execute(
                f"UPDATE games SET status = ?, updated_at = ? WHERE id = ? AND status IN ({marks})",
                (status, _ts(at), game_id, *allowed),
            )
            changed = cursor.rowcount == 1
            if changed and status != "active":
                db.execute("DELETE FROM reminders WHERE game_id = ?", (game_id,))
            return changed

        return await self._write(work)

    async def seats(self, game_id: int) -> list[SeatRecord]:
        return await self._read(lambda db: _seats(db, game_id))

    async def add_seat(
        self,
        game_id: int,
        user_id: int | None,
        *,
        limit: int,
        at: datetime,
        ai: bool = False,
        name: str | None = None,
    ) -> SeatRecord | None:
        def work(db: Db) -> SeatRecord | None:
            status = _status(db, game_id)
            seats = _seats(db, game_id)
            seated = user_id is not None and any(s.user_id == user_id for s in seats)
            if status != "open" or len(seats) >= limit or seated:
                return None
            seat = SeatRecord(game_id, len(seats), user_id, at, ai=ai, name=name)
            _insert_seats(db, [seat])
            _touch(db, game_id, at)
            return seat

        return await self._write(work)

    async def remove_seat(self, game_id: int, seat: int, *, at: datetime) -> bool:
        def work(db: Db) -> bool:
            if _status(db, game_id) != "open":
                return False
            seats = _seats(db, game_id)
            if not any(s.seat == seat for s in seats):
                return False
            # renumber by rewriting: shifting keys in place could collide mid-update
            kept = [s for s in seats if s.seat != seat]
            db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            _insert_seats(db, [replace(s, seat=i) for i, s in enumerate(kept)])
            _touch(db, game_id, at)
            return True

        return await self._write(work)

    async def put_seat(
        self,
        seat: SeatRecord,
        *,
        at: datetime,
        next_at: datetime | None = None,
        owed: Sequence[NewOwed] = (),
    ) -> None:
        def work(db: Db) -> None:
            _update_seats(db, [seat])
            if next_at is not None:
                _move_reminder(db, seat.game_id, seat.seat, next_at)
            _touch(db, seat.game_id, at)
            _insert_owed(db, seat.game_id, _last_seq(db, seat.game_id), owed, at)

        await self._write(work)

    async def start_game(
        self,
        game_id: int,
        *,
        seed: int,
        seats: Sequence[SeatRecord],
        snapshot: SnapshotRecord,
        waiting: Sequence[ReminderRecord],
        at: datetime,
        owed: Sequence[NewOwed] = (),
    ) -> bool:
        def work(db: Db) -> bool:
            cursor = db.execute(
                "UPDATE games SET status = 'active', seed = ?, updated_at = ?"
                " WHERE id = ? AND status = 'open'",
                (seed, _ts(at), game_id),
            )
            if cursor.rowcount != 1:
                return False
            _update_seats(db, seats)
            _put_snapshot(db, snapshot, genesis(game_id))
            _replace_waiting(db, game_id, waiting)
            _insert_owed(db, game_id, 0, owed, at)
            return True

        return await self._write(work)

    # --- the action log ----------------------------------------------------------------

    async def load_game(self, game_id: int) -> StoredGame | None:
        def work(db: Db) -> StoredGame | None:
            row = _one(db, f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
            if row is None:
                return None
            seats = _seats(db, game_id)
            snap = _one(
                db,
                "SELECT game_id, seq, state, chain, digest FROM snapshots WHERE game_id = ?",
                (game_id,),
            )
            snapshot = None
            if snap is not None:
                snapshot = SnapshotRecord(snap[0], snap[1], _text(snap[2]), snap[3], snap[4])
            later = _actions(db, game_id, 0 if snapshot is None else snapshot.seq)
            # one pass over the game's keys: the count (a gap shows as fewer entries than
            # the last seq) and the log's chain value where the snapshot stands
            at = -1 if snapshot is None else snapshot.seq
            log = _one(
                db,
                "SELECT COUNT(*), MAX(seq), MAX(CASE WHEN seq = ? THEN chain END)"
                " FROM actions WHERE game_id = ?",
                (at, game_id),
            )
            assert log is not None
            entries, last = int(log[0]), int(log[1] or 0)
            log_chain = genesis(game_id) if at == 0 else log[2]
            return StoredGame(
                _game(row), tuple(seats), snapshot, tuple(later), last, entries, log_chain
            )

        return await self._read(work)

    async def actions(self, game_id: int, *, after: int = 0) -> list[ActionRecord]:
        return await self._read(lambda db: _actions(db, game_id, after))

    async def append_action(
        self,
        action: ActionRecord,
        snapshot: SnapshotRecord,
        *,
        interaction: InteractionRecord | None = None,
        status: GameStatus | None = None,
        waiting: Sequence[ReminderRecord] | None = None,
        renew: Collection[int] = (),
        seats: Sequence[SeatRecord] = (),
        owed: Sequence[NewOwed] = (),
    ) -> list[int]:
        game_id = action.game_id
        if snapshot.game_id != game_id or snapshot.seq != action.seq:
            raise ValueError("the snapshot must be the state after the appended action")

        def work(db: Db) -> list[int]:
            found = _status(db, game_id)
            if found != "active":
                raise StatusConflictError(game_id, found, "active")
            # the primary key alone would allow a gap; the log must stay gapless
            last = _last_seq(db, game_id)
            if action.seq != last + 1:
                raise SeqConflictError(game_id, action.seq, last)
            previous = _chain_at(db, game_id, action.seq - 1)
            chain = (
                None
                if previous is None
                else next_chain(previous, action.seq, action.seat, action.notation)
            )
            try:
                db.execute(
                    f"INSERT INTO actions ({_ACTION_COLUMNS})"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (*_action_row(action), chain),
                )
            except sqlite3.IntegrityError as exc:
                if "actions.game_id, actions.seq" in str(exc):
                    raise SeqConflictError(game_id, action.seq, last) from exc
                raise
            if interaction is not None:
                try:
                    db.execute(
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
            _put_snapshot(db, snapshot, chain)
            db.execute(
                "UPDATE games SET status = COALESCE(?, status), updated_at = ? WHERE id = ?",
                (status, _ts(action.created_at), game_id),
            )
            if status is not None and status != "active":
                _replace_waiting(db, game_id, ())
            elif waiting is not None:
                renewed = sorted(set(renew))
                if renewed:
                    marks = ", ".join("?" * len(renewed))
                    db.execute(
                        f"DELETE FROM reminders WHERE game_id = ? AND seat IN ({marks})",
                        (game_id, *renewed),
                    )
                _replace_waiting(db, game_id, waiting)
            _update_seats(db, seats)
            return _insert_owed(db, game_id, action.seq, owed, action.created_at)

        return await self._write(work)

    async def turn_actions(self, game_id: int, seat: int) -> list[ActionRecord]:
        def work(db: Db) -> list[ActionRecord]:
            row = _one(
                db,
                "SELECT MAX(seq) FROM actions WHERE game_id = ? AND seat = ? AND ends_turn = 1",
                (game_id, seat),
            )
            after = 0 if row is None or row[0] is None else int(row[0])
            return _actions(db, game_id, after)

        return await self._read(work)

    async def put_snapshot(self, snapshot: SnapshotRecord) -> bool:
        def work(db: Db) -> bool:
            if _last_seq(db, snapshot.game_id) != snapshot.seq:
                return False
            chain = _chain_at(db, snapshot.game_id, snapshot.seq)
            _put_snapshot(db, snapshot, chain, forward_only=False)
            return True

        return await self._write(work)

    async def game_ids(self, *, started: bool = True) -> list[int]:
        where = " WHERE seed IS NOT NULL" if started else ""

        def work(db: Db) -> list[int]:
            rows = db.execute(f"SELECT id FROM games{where} ORDER BY id").fetchall()
            return [int(r[0]) for r in rows]

        return await self._read(work)

    async def game_counts(self, guild_ids: Collection[int] | None = None) -> dict[GameStatus, int]:
        where, params = "", []
        if guild_ids is not None:
            # any number of servers, as one JSON parameter
            where = " WHERE guild_id IN (SELECT value FROM json_each(?))"
            params = [json.dumps(sorted(set(guild_ids)))]

        def work(db: Db) -> dict[GameStatus, int]:
            rows = db.execute(
                f"SELECT status, COUNT(*) FROM games{where} GROUP BY status", params
            ).fetchall()
            return {r[0]: int(r[1]) for r in rows}

        return await self._read(work)

    async def backup(self, target: str | Path) -> None:
        """A consistent copy of the whole database in `target` (a new file), made with
        SQLite's online backup while other connections go on writing: in one step, on
        a connection of its own, so the copy is one snapshot (WAL lets the writer go on
        meanwhile)."""
        destination = Path(target)
        if destination.exists():
            raise StoreError(f"{destination} already exists; choose a new file for the backup.")
        if self._writes is None:
            raise StoreError(f"The store {self.path} is not open.")
        if self._reads is self._writes:  # one connection (:memory:): copy from it
            await self._run(lambda db: _copy_to(db, destination))
            return
        await asyncio.to_thread(self._backup_to, destination)

    def _backup_to(self, destination: Path) -> None:
        source = self._connect()
        try:
            _copy_to(source, destination)
        finally:
            source.close()

    # --- interactions ------------------------------------------------------------------

    async def interaction(self, interaction_id: int) -> InteractionRecord | None:
        def work(db: Db) -> InteractionRecord | None:
            row = _one(
                db,
                "SELECT interaction_id, game_id, seq, result, created_at FROM interactions"
                " WHERE interaction_id = ?",
                (interaction_id,),
            )
            if row is None:
                return None
            return InteractionRecord(row[0], row[1], row[2], row[3], _dt(row[4]))

        return await self._read(work)

    async def prune_interactions(self, before: datetime) -> int:
        def work(db: Db) -> int:
            cursor = db.execute("DELETE FROM interactions WHERE created_at < ?", (_ts(before),))
            return cursor.rowcount

        return await self._write(work)

    # --- messages, notification preferences, reminders --------------------------------

    async def put_message(self, message: MessageRecord) -> None:
        def work(db: Db) -> None:
            db.execute(
                "INSERT INTO messages (game_id, kind, channel_id, message_id) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (game_id, kind) DO UPDATE SET channel_id = excluded.channel_id,"
                " message_id = excluded.message_id",
                (message.game_id, message.kind, message.channel_id, message.message_id),
            )

        await self._write(work)

    async def messages(self, game_id: int) -> list[MessageRecord]:
        def work(db: Db) -> list[MessageRecord]:
            rows = db.execute(
                "SELECT game_id, kind, channel_id, message_id FROM messages WHERE game_id = ?"
                " ORDER BY kind",
                (game_id,),
            ).fetchall()
            return [MessageRecord(r[0], r[1], r[2], r[3]) for r in rows]

        return await self._read(work)

    async def delete_message(self, game_id: int, kind: str) -> bool:
        def work(db: Db) -> bool:
            cursor = db.execute(
                "DELETE FROM messages WHERE game_id = ? AND kind = ?", (game_id, kind)
            )
            return cursor.rowcount == 1

        return await self._write(work)

    async def notification_prefs(self, user_ids: Collection[int]) -> dict[int, NotificationPrefs]:
        ids = sorted(set(user_ids))
        if not ids:
            return {}
        marks = ", ".join("?" * len(ids))

        def work(db: Db) -> dict[int, NotificationPrefs]:
            rows = db.execute(
                "SELECT user_id, dm_opt_in, quiet_start, quiet_end, timezone, language"
                f" FROM notification_prefs WHERE user_id IN ({marks})",
                ids,
            ).fetchall()
            return {r[0]: NotificationPrefs(r[0], bool(r[1]), r[2], r[3], r[4], r[5]) for r in rows}

        return await self._read(work)

    async def put_notification_prefs(self, prefs: NotificationPrefs) -> None:
        def work(db: Db) -> None:
            db.execute(
                "INSERT INTO notification_prefs (user_id, dm_opt_in, quiet_start, quiet_end,"
                " timezone, language) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE"
                " SET dm_opt_in = excluded.dm_opt_in, quiet_start = excluded.quiet_start,"
                " quiet_end = excluded.quiet_end, timezone = excluded.timezone,"
                " language = COALESCE(excluded.language, notification_prefs.language)",
                (
                    prefs.user_id,
                    int(prefs.dm_opt_in),
                    prefs.quiet_start,
                    prefs.quiet_end,
                    prefs.timezone,
                    prefs.language,
                ),
            )

        await self._write(work)

    async def put_language(self, user_id: int, language: str) -> None:
        def work(db: Db) -> None:
            db.execute(
                "INSERT INTO notification_prefs (user_id, language) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET language = excluded.language",
                (user_id, language),
            )

        await self._write(work)

    async def reminders(self, game_id: int) -> list[ReminderRecord]:
        def work(db: Db) -> list[ReminderRecord]:
            rows = db.execute(
                f"SELECT {_REMINDER_COLUMNS} FROM reminders WHERE game_id = ? ORDER BY seat",
                (game_id,),
            ).fetchall()
            return [_reminder(r) for r in rows]

        return await self._read(work)

    async def due_reminders(self, now: datetime, *, limit: int) -> list[ReminderRecord]:
        return await self._awaited(now, limit, f"NOT {_MACHINE_SEAT} AND r.muted_for_turn = 0")

    async def owed_moves(self, now: datetime, *, limit: int) -> list[ReminderRecord]:
        return await self._awaited(now, limit, _MACHINE_SEAT)

    async def _awaited(self, now: datetime, limit: int, where: str) -> list[ReminderRecord]:
        columns = ", ".join(f"r.{c.strip()}" for c in _REMINDER_COLUMNS.split(","))

        def work(db: Db) -> list[ReminderRecord]:
            rows = db.execute(
                f"SELECT {columns} FROM reminders r"
                " JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat"
                " JOIN games g ON g.id = r.game_id"
                f" WHERE r.next_at <= ? AND g.status = 'active' AND {where}"
                " ORDER BY r.next_at, r.game_id, r.seat LIMIT ?",
                (_ts(now), limit),
            ).fetchall()
            return [_reminder(r) for r in rows]

        return await self._read(work)

    async def put_reminder(
        self, reminder: ReminderRecord, *, claim: DutyClaim | None = None
    ) -> bool:
        held, holder = _held_by(claim)

        def work(db: Db) -> bool:
            cursor = db.execute(
                "UPDATE reminders SET waiting_since = ?, next_at = ?, missed = ?,"
                f" muted_for_turn = ? WHERE game_id = ? AND seat = ?{held}",
                (
                    _ts(reminder.waiting_since),
                    _ts(reminder.next_at),
                    reminder.missed,
                    int(reminder.muted_for_turn),
                    reminder.game_id,
                    reminder.seat,
                    *holder,
                ),
            )
            return cursor.rowcount == 1

        return await self._write(work)

    # --- owed messages -----------------------------------------------------------------

    async def owed_messages(
        self, now: datetime | None, *, game_id: int | None = None, limit: int = 100
    ) -> list[OwedMessage]:
        where, params = ["delivered_at IS NULL"], []
        if now is not None:
            where.append("due_at <= ?")
            params.append(_ts(now))
        if game_id is not None:
            where.append("game_id = ?")
            params.append(game_id)

        def work(db: Db) -> list[OwedMessage]:
            rows = db.execute(
                f"SELECT {_OWED_COLUMNS} FROM outbox WHERE {' AND '.join(where)}"
                " ORDER BY id LIMIT ?",
                (*params, limit),
            ).fetchall()
            return [_owed(r) for r in rows]

        return await self._read(work)

    async def mark_delivered(
        self,
        owed_id: int,
        *,
        at: datetime,
        channel_id: int | None = None,
        message_id: int | None = None,
        claim: DutyClaim | None = None,
    ) -> bool:
        held, holder = _held_by(claim)

        def work(db: Db) -> bool:
            cursor = db.execute(
                "UPDATE outbox SET delivered_at = ?, channel_id = ?, message_id = ?"
                f" WHERE id = ? AND delivered_at IS NULL{held}",
                (_ts(at), channel_id, message_id, owed_id, *holder),
            )
            return cursor.rowcount == 1

        return await self._write(work)

    async def last_delivered_message(self, game_id: int, channel_id: int) -> int | None:
        def work(db: Db) -> int | None:
            row = _one(
                db,
                "SELECT MAX(message_id) FROM outbox WHERE game_id = ? AND channel_id = ?"
                " AND delivered_at IS NOT NULL",
                (game_id, channel_id),
            )
            return None if row is None or row[0] is None else int(row[0])

        return await self._read(work)

    async def mark_tried(self, owed_ids: Collection[int], *, at: datetime) -> None:
        ids = sorted(set(owed_ids))
        if not ids:
            return
        marks = ", ".join("?" * len(ids))

        def work(db: Db) -> None:
            db.execute(f"UPDATE outbox SET tried_at = ? WHERE id IN ({marks})", (_ts(at), *ids))

        await self._write(work)

    async def mark_failed(self, owed_id: int, *, error: str, retry_at: datetime) -> int:
        def work(db: Db) -> int:
            db.execute(
                "UPDATE outbox SET attempts = attempts + 1, last_error = ?, due_at = ?"
                " WHERE id = ?",
                (error[:500], _ts(retry_at), owed_id),
            )
            row = _one(db, "SELECT attempts FROM outbox WHERE id = ?", (owed_id,))
            return 0 if row is None else int(row[0])

        return await self._write(work)

    # --- votes ---------------------------------------------------------------------------

    async def open_vote(
        self,
        game_id: int,
        seat: int,
        *,
        turn_since: datetime,
        at: datetime,
        deadline: datetime,
        owed: Callable[[int], Sequence[NewOwed]] = lambda vote_id: (),
    ) -> VoteRecord | None:
        def work(db: Db) -> VoteRecord | None:
            try:
                cursor = db.execute(
                    "INSERT INTO votes (game_id, seat, turn_since, opened_at, deadline)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (game_id, seat, _ts(turn_since), _ts(at), _ts(deadline)),
                )
            except sqlite3.IntegrityError:
                # already one open in this game, or one about this turn
                return None
            vote_id = cursor.lastrowid
            assert vote_id is not None
            _insert_owed(db, game_id, _last_seq(db, game_id), owed(vote_id), at)
            row = _one(db, f"SELECT {_VOTE_COLUMNS} FROM votes WHERE id = ?", (vote_id,))
            assert row is not None
            return _vote(row)

        return await self._write(work)

    async def vote(self, vote_id: int) -> VoteRecord | None:
        def work(db: Db) -> VoteRecord | None:
            row = _one(db, f"SELECT {_VOTE_COLUMNS} FROM votes WHERE id = ?", (vote_id,))
            return None if row is None else _vote(row)

        return await self._read(work)

    async def open_votes(self, *, game_id: int | None = None) -> list[VoteRecord]:
        where = "status = 'open'" + ("" if game_id is None else " AND game_id = ?")
        params = () if game_id is None else (game_id,)

        def work(db: Db) -> list[VoteRecord]:
            rows = db.execute(
                f"SELECT {_VOTE_COLUMNS} FROM votes WHERE {where} ORDER BY deadline, id", params
            ).fetchall()
            return [_vote(r) for r in rows]

        return await self._read(work)

    async def cast_ballot(
        self, ballot: BallotRecord, *, owed: Sequence[NewOwed] = ()
    ) -> list[BallotRecord] | None:
        def work(db: Db) -> list[BallotRecord] | None:
            row = _one(db, "SELECT game_id, status FROM votes WHERE id = ?", (ballot.vote_id,))
            if row is None or row[1] != "open":
                return None
            db.execute(
                "INSERT INTO ballots (vote_id, voter_id, choice, cast_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (vote_id, voter_id) DO UPDATE SET choice = excluded.choice,"
                " cast_at = excluded.cast_at",
                (ballot.vote_id, ballot.voter_id, ballot.choice, _ts(ballot.cast_at)),
            )
            game_id = int(row[0])
            _insert_owed(db, game_id, _last_seq(db, game_id), owed, ballot.cast_at)
            return _ballots(db, ballot.vote_id)

        return await self._write(work)

    async def ballots(self, vote_id: int) -> list[BallotRecord]:
        return await self._read(lambda db: _ballots(db, vote_id))

    async def close_vote(
        self,
        vote_id: int,
        status: VoteStatus,
        *,
        at: datetime,
        seat: SeatRecord | None = None,
        next_at: datetime | None = None,
        owed: Sequence[NewOwed] = (),
    ) -> bool:
        def work(db: Db) -> bool:
            cursor = db.execute(
                "UPDATE votes SET status = ?, decided_at = ? WHERE id = ? AND status = 'open'",
                (status, _ts(at), vote_id),
            )
            if cursor.rowcount != 1:
                return False
            row = _one(db, "SELECT game_id FROM votes WHERE id = ?", (vote_id,))
            assert row is not None
            game_id = int(row[0])
            if seat is not None:
                _update_seats(db, [seat])
                if next_at is not None:
                    _move_reminder(db, game_id, seat.seat, next_at)
            _insert_owed(db, game_id, _last_seq(db, game_id), owed, at)
            return True

        return await self._write(work)

    async def set_vote_message(self, vote_id: int, channel_id: int, message_id: int) -> None:
        def work(db: Db) -> None:
            db.execute(
                "UPDATE votes SET channel_id = ?, message_id = ? WHERE id = ?",
                (channel_id, message_id, vote_id),
            )

        await self._write(work)

    # --- the daily digest ----------------------------------------------------------------

    async def digest(self, user_id: int) -> DigestRecord | None:
        def work(db: Db) -> DigestRecord | None:
            row = _one(
                db, "SELECT user_id, due_at, sent_at FROM digests WHERE user_id = ?", (user_id,)
            )
            return None if row is None else _digest(row)

        return await self._read(work)

    async def put_digest(self, digest: DigestRecord) -> None:
        def work(db: Db) -> None:
            db.execute(
                "INSERT INTO digests (user_id, due_at, sent_at) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET due_at = excluded.due_at,"
                " sent_at = excluded.sent_at",
                (digest.user_id, _maybe_ts(digest.due_at), _maybe_ts(digest.sent_at)),
            )

        await self._write(work)

    async def due_digests(self, now: datetime, *, limit: int) -> list[DigestRecord]:
        def work(db: Db) -> list[DigestRecord]:
            rows = db.execute(
                "SELECT user_id, due_at, sent_at FROM digests"
                " WHERE due_at IS NOT NULL AND due_at <= ? ORDER BY due_at LIMIT ?",
                (_ts(now), limit),
            ).fetchall()
            return [_digest(r) for r in rows]

        return await self._read(work)

    async def claim_digest(
        self, user_id: int, *, due_at: datetime, next_at: datetime, sent_at: datetime | None
    ) -> bool:
        def work(db: Db) -> bool:
            # times come back from REAL columns: compare within a millisecond
            cursor = db.execute(
                "UPDATE digests SET due_at = ?, sent_at = COALESCE(?, sent_at)"
                " WHERE user_id = ? AND ABS(due_at - ?) < 0.001",
                (_ts(next_at), _maybe_ts(sent_at), user_id, _ts(due_at)),
            )
            return cursor.rowcount == 1

        return await self._write(work)

    # --- duty claims (several bot processes on one database) ---------------------------

    async def claim_duty(
        self, duty: str, owner: str, *, now: datetime, until: datetime
    ) -> DutyClaim | None:
        _check_claim(owner, now, until)

        def work(db: Db) -> bool:
            cursor = db.execute(
                f"{_CLAIM} (?, ?, ?, ?){_CLAIM_IF}", (duty, owner, _ts(now), _ts(until))
            )
            return cursor.rowcount == 1

        return DutyClaim(duty, owner, until) if await self._write(work) else None

    async def release_duty(self, claim: DutyClaim, *, rest_until: datetime | None = None) -> bool:
        def work(db: Db) -> bool:
            if rest_until is None:
                cursor = db.execute(
                    "DELETE FROM duty_claims WHERE duty = ? AND claimed_by = ?",
                    (claim.duty, claim.owner),
                )
            else:
                cursor = db.execute(
                    "UPDATE duty_claims SET claimed_by = ?, lease_until = ?"
                    " WHERE duty = ? AND claimed_by = ?",
                    (RESTING, _ts(rest_until), claim.duty, claim.owner),
                )
            return cursor.rowcount == 1

        return await self._write(work)

    async def duty_claims(self, now: datetime) -> list[DutyClaim]:
        def work(db: Db) -> list[DutyClaim]:
            rows = db.execute(
                "SELECT duty, claimed_by, lease_until FROM duty_claims WHERE lease_until > ?"
                " ORDER BY duty",
                (_ts(now),),
            ).fetchall()
            return [DutyClaim(r[0], r[1], _dt(r[2])) for r in rows]

        return await self._read(work)

    async def prune_duty_claims(self, before: datetime) -> int:
        def work(db: Db) -> int:
            cursor = db.execute("DELETE FROM duty_claims WHERE lease_until < ?", (_ts(before),))
            return cursor.rowcount

        return await self._write(work)


# A claim is won by inserting the duty's row, or by taking over a row whose lease (or
# rest) ran out, or whose holder is the claimer (a renewal): one statement, so of two
# racing claimers exactly one writes. Parameters: duty, owner, now, until.
_CLAIM = "INSERT INTO duty_claims (duty, claimed_by, claimed_at, lease_until) VALUES"
_CLAIM_IF = (
    " ON CONFLICT (duty) DO UPDATE SET claimed_by = excluded.claimed_by,"
    " claimed_at = excluded.claimed_at, lease_until = excluded.lease_until"
    " WHERE duty_claims.lease_until <= excluded.claimed_at"
    " OR duty_claims.claimed_by = excluded.claimed_by"
)


def _check_claim(owner: str, now: datetime, until: datetime) -> None:
    if owner == RESTING:
        raise ValueError("a duty is claimed by a named process")
    if until <= now:
        raise ValueError("a claim's lease must end after it is made")


def _held_by(claim: DutyClaim | None) -> tuple[str, tuple[str, ...]]:
    """The condition (and its parameters) that a done-mark adds: the claim's owner
    still holds its duty. Nothing without a claim."""
    if claim is None:
        return "", ()
    return (
        " AND EXISTS (SELECT 1 FROM duty_claims WHERE duty = ? AND claimed_by = ?)",
        (claim.duty, claim.owner),
    )


def _user_version(db: Db) -> int:
    row = _one(db, "PRAGMA user_version", ())
    assert row is not None
    return int(row[0])


def _copy_to(source: Db, destination: Path) -> None:
    """SQLite's online backup of `source` into the new file `destination`, in one step
    (one consistent snapshot); a backup is one self-contained file: no -wal beside it."""
    copy = sqlite3.connect(destination, isolation_level=None)
    try:
        source.backup(copy)
        copy.execute("PRAGMA journal_mode = DELETE")
    except BaseException:
        copy.close()
        destination.unlink(missing_ok=True)
        raise
    copy.close()


def _one(db: Db, sql: str, params: Iterable[Any]) -> Row | None:
    return db.execute(sql, tuple(params)).fetchone()


def _status(db: Db, game_id: int) -> str | None:
    row = _one(db, "SELECT status FROM games WHERE id = ?", (game_id,))
    return None if row is None else str(row[0])


def _last_seq(db: Db, game_id: int) -> int:
    row = _one(db, "SELECT MAX(seq) FROM actions WHERE game_id = ?", (game_id,))
    return 0 if row is None or row[0] is None else int(row[0])


def _touch(db: Db, game_id: int, at: datetime) -> None:
    db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (_ts(at), game_id))


def _seats(db: Db, game_id: int) -> list[SeatRecord]:
    rows = db.execute(
        f"SELECT {_SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
    ).fetchall()
    return [
        SeatRecord(
            r[0], r[1], r[2], _dt(r[3]), r[4], r[5], r[6], bool(r[7]), bool(r[8]), bool(r[9]), r[10]
        )
        for r in rows
    ]


def _insert_seats(db: Db, seats: Sequence[SeatRecord]) -> None:
    db.executemany(
        f"INSERT INTO seats ({_SEAT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                int(s.ai),
                int(s.skip_turn),
                s.name,
            )
            for s in seats
        ],
    )


def _update_seats(db: Db, seats: Sequence[SeatRecord]) -> None:
    db.executemany(
        "UPDATE seats SET user_id = ?, colour = ?, team = ?, substitute_id = ?, autopilot = ?,"
        " ai = ?, skip_turn = ?, name = ? WHERE game_id = ? AND seat = ?",
        [
            (
                s.user_id,
                s.colour,
                s.team,
                s.substitute_id,
                int(s.autopilot),
                int(s.ai),
                int(s.skip_turn),
                s.name,
                s.game_id,
                s.seat,
            )
            for s in seats
        ],
    )


def _move_reminder(db: Db, game_id: int, seat: int, next_at: datetime) -> None:
    db.execute(
        "UPDATE reminders SET next_at = ? WHERE game_id = ? AND seat = ?",
        (_ts(next_at), game_id, seat),
    )


def _insert_owed(
    db: Db, game_id: int, seq: int, owed: Sequence[NewOwed], at: datetime
) -> list[int]:
    ids = []
    for message in owed:
        cursor = db.execute(
            "INSERT INTO outbox (game_id, seq, kind, payload, created_at, due_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (
                game_id,
                seq,
                message.kind,
                message.payload,
                _ts(at),
                _ts(message.due_at or at),
            ),
        )
        assert cursor.lastrowid is not None
        ids.append(cursor.lastrowid)
    return ids


def _ballots(db: Db, vote_id: int) -> list[BallotRecord]:
    rows = db.execute(
        "SELECT vote_id, voter_id, choice, cast_at FROM ballots WHERE vote_id = ?"
        " ORDER BY cast_at, voter_id",
        (vote_id,),
    ).fetchall()
    return [BallotRecord(r[0], r[1], r[2], _dt(r[3])) for r in rows]


def _actions(db: Db, game_id: int, after: int) -> list[ActionRecord]:
    rows = db.execute(
        f"SELECT {_ACTION_COLUMNS} FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq",
        (game_id, after),
    ).fetchall()
    return [
        ActionRecord(r[0], r[1], r[2], _text(r[3]), _dt(r[4]), r[5], r[6], r[7], bool(r[8]), r[9])
        for r in rows
    ]


def _action_row(a: ActionRecord) -> tuple[Any, ...]:
    return (
        a.game_id,
        a.seq,
        a.seat,
        a.notation,
        _ts(a.created_at),
        a.user_id,
        a.interaction_id,
        a.story,
        int(a.ends_turn),
    )


def _put_snapshot(
    db: Db, snapshot: SnapshotRecord, chain: str | None, *, forward_only: bool = True
) -> None:
    """Store the snapshot with its chain value and digest (a snapshot with no chain
    value, over a damaged log, gets no digest either: the next load checks it)."""
    digest = None if chain is None else state_digest(snapshot.seq, chain, snapshot.state)
    only = " WHERE excluded.seq >= snapshots.seq" if forward_only else ""
    db.execute(
        "INSERT INTO snapshots (game_id, seq, state, chain, digest) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, state = excluded.state,"
        f" chain = excluded.chain, digest = excluded.digest{only}",
        (snapshot.game_id, snapshot.seq, snapshot.state, chain, digest),
    )


def _chain_at(db: Db, game_id: int, seq: int) -> str | None:
    """The log's stored chain value after entry `seq` (the genesis value at 0)."""
    if seq == 0:
        return genesis(game_id)
    row = _one(db, "SELECT chain FROM actions WHERE game_id = ? AND seq = ?", (game_id, seq))
    return None if row is None or row[0] is None else str(row[0])


def _decode(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _text(value: object) -> str:
    """A TEXT column's value; a BLOB written in its place reads as (damaged) text."""
    if isinstance(value, bytes):
        return _decode(value)
    return str(value)


@contextmanager
def store_faults(where: str) -> Iterator[None]:
    """A write that failed for want of room or permission (see `_fault`) becomes the
    store's error for it; any other error passes as it is."""
    try:
        yield
    except sqlite3.Error as exc:
        fault = _fault(where, exc)
        if fault is None:
            raise
        raise fault from exc


def _fault(where: str, exc: sqlite3.Error) -> StoreError | None:
    """The store error for a write that failed for want of room or permission (None:
    another error, raised as it is)."""
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    if primary == sqlite3.SQLITE_FULL:
        return StoreFullError(where, "the disk is full or the database reached its size limit")
    if primary == sqlite3.SQLITE_TOOBIG:
        return StoreFullError(where, "a value is larger than the database allows")
    if primary == sqlite3.SQLITE_IOERR:
        return StoreFullError(
            where, f"the disk refused the write (full, or a file size limit: {exc})"
        )
    if primary == sqlite3.SQLITE_READONLY:
        return StoreReadOnlyError(where, "the file or its folder is read-only")
    return None


def refuse_unusable(path: Path, *, read_only: bool = False) -> None:
    """Raise `StoreUnusableError` for a database path that cannot be used as it is: a
    folder, an existing file of 0 bytes (never silently made a new, empty database),
    a file or folder the bot may not write (unless `read_only`), a missing folder."""
    if path.is_dir():
        raise StoreUnusableError(f"The database path {path} is a folder, not a file.")
    if path.exists():
        if path.stat().st_size == 0:
            raise StoreUnusableError(
                f"The database file {path} is empty (0 bytes): refusing to start a new"
                " database over it. Restore it from a backup, or delete it to start afresh."
            )
        if not read_only and not os.access(path, os.R_OK | os.W_OK):
            raise StoreUnusableError(
                f"The database file {path} is read-only: the bot could not save moves."
                " Give the bot's user write access to it."
            )
    elif read_only:
        raise StoreUnusableError(f"There is no database file {path}.")
    folder = path.parent
    if not folder.is_dir():
        raise StoreUnusableError(f"The folder of the database, {folder}, does not exist.")
    # SQLite writes its -wal and -shm files beside the database
    if not read_only and not os.access(folder, os.W_OK | os.X_OK):
        raise StoreUnusableError(
            f"The folder {folder} is read-only: the bot could not save moves beside its"
            " database. Give the bot's user write access to it."
        )


def _replace_waiting(db: Db, game_id: int, waiting: Sequence[ReminderRecord]) -> None:
    """Make `waiting` the seats awaited; seats awaited before and now keep their row
    (their waiting time, missed reminders and mute stay)."""
    seats = sorted({r.seat for r in waiting})
    marks = ", ".join("?" * len(seats))
    keep = f" AND seat NOT IN ({marks})" if seats else ""
    db.execute(f"DELETE FROM reminders WHERE game_id = ?{keep}", (game_id, *seats))
    db.executemany(
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
        language=row[12],
    )


def _owed(row: Row) -> OwedMessage:
    return OwedMessage(
        id=row[0],
        game_id=row[1],
        seq=row[2],
        kind=row[3],
        payload=row[4],
        created_at=_dt(row[5]),
        due_at=_dt(row[6]),
        attempts=row[7],
        last_error=row[8],
        delivered_at=None if row[9] is None else _dt(row[9]),
        channel_id=row[10],
        message_id=row[11],
        tried_at=None if row[12] is None else _dt(row[12]),
    )


def _vote(row: Row) -> VoteRecord:
    return VoteRecord(
        id=row[0],
        game_id=row[1],
        seat=row[2],
        turn_since=_dt(row[3]),
        opened_at=_dt(row[4]),
        deadline=_dt(row[5]),
        status=row[6],
        decided_at=None if row[7] is None else _dt(row[7]),
        channel_id=row[8],
        message_id=row[9],
    )


def _reminder(row: Row) -> ReminderRecord:
    return ReminderRecord(row[0], row[1], _dt(row[2]), _dt(row[3]), row[4], bool(row[5]))


def _ts(at: datetime) -> float:
    if at.tzinfo is None:
        raise ValueError("store times must be timezone-aware")
    return at.timestamp()


def _dt(value: float) -> datetime:
    return datetime.fromtimestamp(value, UTC)


def _digest(row: Row) -> DigestRecord:
    return DigestRecord(
        row[0], None if row[1] is None else _dt(row[1]), None if row[2] is None else _dt(row[2])
    )


def _maybe_ts(at: datetime | None) -> float | None:
    return None if at is None else _ts(at)
