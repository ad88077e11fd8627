"""The SQLite store: one file, the embedded default, through aiosqlite.

Connection defaults: WAL (readers never block the writer), `foreign_keys=ON`, a busy
timeout (several processes may share the file) and `synchronous=FULL` (an acknowledged
move survives a power cut, not only a crash). Writes go to one writer connection,
through an asyncio task that commits the writes of many games that queued up together
in one transaction and so waits for the disk once for all of them; a caller hears of
its write only after that commit (bot/store/group_commit.py). The log's appends of a
batch run as one: each statement once for all of them. Writes use `BEGIN IMMEDIATE`,
which takes the file's write lock up front so two processes queue instead of failing
on an upgrade. Reads go to a few reader connections beside the writer, a read of
one statement each (one snapshot of the file, one trip to the connection's thread; a
game's load gathers its seats and log as JSON). Rows are read by column name
(`aiosqlite.Row`).

    >>> store = SqliteStore("data/games.db")      # doctest: +SKIP
    >>> async with store: ...                      # doctest: +SKIP
"""

from __future__ import annotations

import inspect
import json
import math
import os
import sqlite3
from collections.abc import Awaitable, Callable, Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any, Literal, TypeVar

import aiosqlite
import orjson

from bot.store import sql
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
from bot.store.group_commit import Job, Outcome, Writer, WriterConnection, pipeline, rollback
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
from bot.store.sql import (
    ACTION_COLUMNS,
    GAME_COLUMNS,
    INTERACTION_COLUMNS,
    MACHINE_SEAT,
    OWED_COLUMNS,
    PREFS_COLUMNS,
    REMINDER_COLUMNS,
    SEAT_COLUMNS,
    VOTE_COLUMNS,
    action_from,
    action_params,
    ballot_from,
    check_claim,
    claim_from,
    digest_from,
    for_sqlite,
    game_from,
    interaction_from,
    maybe_ts,
    owed_from,
    prefs_from,
    reminder_from,
    seat_from,
    seat_params,
    text,
    ts,
    vote_from,
)

DEFAULT_BUSY_TIMEOUT_MS = 10_000
# reader connections beside the writer (reads are short; the GIL is shared anyway)
DEFAULT_READERS = 3
# rows deleted by one write of a prune (through the index on their time)
PRUNE_BATCH = 500
# owed messages inserted by one statement (6 parameters each, well under SQLite's limit)
OWED_PER_STATEMENT = 1_000

Db = aiosqlite.Connection
Row = sqlite3.Row
T = TypeVar("T")

# the games' status and the log's last entry (seq, chain value), for a JSON list of ids
_HEADS = (
    "SELECT g.id, g.status, a.seq, a.chain FROM games g LEFT JOIN actions a"
    " ON a.game_id = g.id AND a.seq = (SELECT MAX(seq) FROM actions WHERE game_id = g.id)"
    " WHERE g.id IN (SELECT value FROM json_each(?))"
)


def _json_object(columns: str, *, reals: set[str], texts: set[str]) -> str:
    """SQLite's JSON object of a row's `columns` (a list as in `SEAT_COLUMNS`), for a
    row read inside another (`json_group_array`): REAL columns as exact text (JSON's
    numbers keep only 15 digits), TEXT columns cast (a BLOB written in their place reads
    as damaged text, as the column itself would)."""
    parts = []
    for name in (c.strip() for c in columns.split(",")):
        value = name
        if name in reals:
            value = f"printf('%!.17g', {name})"
        elif name in texts:
            value = f"CAST({name} AS TEXT)"
        parts.append(f"'{name}', {value}")
    return f"json_object({', '.join(parts)})"


# a game with its snapshot, its seats and the log after the snapshot, and, in one pass
# over the game's keys, the log's count (a gap shows as fewer entries than the last
# seq), last seq and chain value where the snapshot stands: one statement (one trip to
# the connection's thread, one snapshot of the file), the rows of seats and log as JSON
_LOAD_GAME = (
    f"SELECT {', '.join('g.' + c.strip() for c in GAME_COLUMNS.split(','))},"
    " s.seq AS snapshot_seq, s.state, s.chain AS snapshot_chain, s.digest,"
    " l.entries, l.last, l.chain AS log_chain,"
    " (SELECT json_group_array("
    + _json_object(SEAT_COLUMNS, reals={"joined_at"}, texts={"colour", "name"})
    + ") FROM seats WHERE game_id = g.id) AS seats,"
    " (SELECT json_group_array("
    + _json_object(ACTION_COLUMNS, reals={"created_at"}, texts={"notation", "story", "chain"})
    + ") FROM actions WHERE game_id = g.id AND seq > COALESCE(s.seq, 0)) AS later"
    " FROM games g LEFT JOIN snapshots s ON s.game_id = g.id,"
    " (SELECT COUNT(*) AS entries, MAX(seq) AS last,"
    " MAX(CASE WHEN seq = (SELECT seq FROM snapshots WHERE game_id = ?1) THEN chain END)"
    " AS chain FROM actions WHERE game_id = ?1) l"
    " WHERE g.id = ?1"
)
_PUT_SNAPSHOT = (
    "INSERT INTO snapshots (game_id, seq, state, chain, digest) VALUES (?, ?, ?, ?, ?)"
    " ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, state = excluded.state,"
    " chain = excluded.chain, digest = excluded.digest"
)
_FORWARD_ONLY = " WHERE excluded.seq >= snapshots.seq"
# the seats no longer awaited (not in the JSON rows of `awaited`, whose first value is
# the seat) or awaited anew (the JSON list `renew`), then the seats awaited (rows
# [seat, waiting since, next reminder, missed, muted]) that have no row yet
_FORGET_WAITING = (
    "DELETE FROM reminders WHERE game_id = {game} AND (seat NOT IN"
    " (SELECT json_extract(value, '$[0]') FROM json_each({awaited}))"
    " OR seat IN (SELECT value FROM json_each({renew})))"
)
_AWAIT = (
    f"INSERT INTO reminders ({REMINDER_COLUMNS}) SELECT {{game}},"
    " json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'),"
    " json_extract(value, '$[3]'), json_extract(value, '$[4]') FROM json_each({awaited})"
    " WHERE true ON CONFLICT (game_id, seat) DO NOTHING"
)
# A log entry with everything stored beside it (the interaction that caused it, the
# snapshot after it, the game's status and the seats awaited) is one row inserted into
# a view of the writer's connection, whose trigger does the writing: one statement, so
# one trip to the connection's thread, atomic by itself, for many entries at once
# (`executemany`). PostgreSQL does the same in one statement of common table
# expressions (bot/store/postgres.py); SQLite has no INSERT inside WITH.
_APPEND_COLUMNS = (
    f"{ACTION_COLUMNS}, i_id, i_game, i_seq, i_result, i_at, state, digest, status, awaited, renew"
)
_APPEND_VIEW = (
    f"CREATE TEMP VIEW IF NOT EXISTS mk_append ({_APPEND_COLUMNS}) AS SELECT"
    + ", ".join([" NULL"] * len(_APPEND_COLUMNS.split(",")))
)
_APPEND_TRIGGER = (
    "CREATE TEMP TRIGGER IF NOT EXISTS mk_append_one INSTEAD OF INSERT ON mk_append BEGIN"
    f" INSERT INTO actions ({ACTION_COLUMNS}) VALUES"
    f" ({', '.join('NEW.' + c.strip() for c in ACTION_COLUMNS.split(','))});"
    f" INSERT INTO interactions ({INTERACTION_COLUMNS})"
    " SELECT NEW.i_id, NEW.i_game, NEW.i_seq, NEW.i_result, NEW.i_at"
    " WHERE NEW.i_id IS NOT NULL;"
    " INSERT INTO snapshots (game_id, seq, state, chain, digest)"
    " SELECT NEW.game_id, NEW.seq, NEW.state, NEW.chain, NEW.digest WHERE true"
    " ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, state = excluded.state,"
    " chain = excluded.chain, digest = excluded.digest WHERE excluded.seq >= snapshots.seq;"
    " UPDATE games SET status = COALESCE(NEW.status, status), updated_at = NEW.created_at"
    " WHERE id = NEW.game_id;"
    " "
    + _FORGET_WAITING.format(game="NEW.game_id", awaited="NEW.awaited", renew="NEW.renew")
    + " AND NEW.awaited IS NOT NULL; "
    + _AWAIT.format(game="NEW.game_id", awaited="NEW.awaited").replace(
        "WHERE true", "WHERE NEW.awaited IS NOT NULL"
    )
    + "; END"
)
_APPEND = (
    f"INSERT INTO mk_append ({_APPEND_COLUMNS})"
    f" VALUES ({', '.join(['?'] * len(_APPEND_COLUMNS.split(',')))})"
)
_INSERT_SEATS = f"INSERT INTO seats ({SEAT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
_UPDATE_SEATS = (
    "UPDATE seats SET user_id = ?, colour = ?, team = ?, substitute_id = ?, autopilot = ?,"
    " ai = ?, skip_turn = ?, name = ? WHERE game_id = ? AND seat = ?"
)
_PRUNE_INTERACTIONS = (
    "DELETE FROM interactions WHERE interaction_id IN (SELECT interaction_id FROM"
    " interactions WHERE created_at < ? ORDER BY created_at LIMIT ?)"
)
# the messages owed (not delivered) and due, found through the partial index of owed
# messages (`outbox_owed`): the cost of a scheduler round follows what is owed, not the
# outbox's history of delivered messages (the planner alone would scan the outbox in
# id order); one game's through `outbox_by_game`
_OWED_DUE = (
    f"SELECT {OWED_COLUMNS} FROM outbox WHERE id IN (SELECT id FROM outbox"
    " WHERE delivered_at IS NULL AND due_at <= ?) ORDER BY id LIMIT ?"
)
_OWED_OF_GAME = (
    f"SELECT {OWED_COLUMNS} FROM outbox WHERE delivered_at IS NULL AND game_id = ?"
    " AND due_at <= ? ORDER BY id LIMIT ?"
)
_OWED_INTO = "INSERT INTO outbox (game_id, seq, kind, payload, created_at, due_at) VALUES "


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
        self._writer: Writer | None = None
        # the reader connections, taken in turn (none: reads run on the writer's)
        self._reader_connections: list[Db] = []
        self._turn = 0
        self._connections: list[Db] = []

    # --- lifecycle -------------------------------------------------------------------

    async def open(self) -> None:
        if self._writer is not None:
            return
        memory = self.path == ":memory:"
        if not memory:
            refuse_unusable(Path(self.path), read_only=self.read_only)
        db = await self._connect(writer=True)
        self._connections.append(db)
        self._writer = Writer(db)
        try:
            await self._run(self._set_up)
            if self.read_only or memory:
                return  # one connection: reads run on it between the writes
            for _ in range(self._readers):
                reader = await self._connect(reader=True)
                self._connections.append(reader)
                self._reader_connections.append(reader)
        except BaseException:
            await self.close()
            raise

    async def _connect(self, *, reader: bool = False, writer: bool = False) -> Db:
        """A connection as every one of ours is set up (explicit transactions; damaged
        bytes in a text column read as U+FFFD instead of raising: the checks of chain,
        digest and JSON then report them like any other damage)."""
        target = f"{Path(self.path).resolve().as_uri()}?mode=ro" if self.read_only else self.path
        db = await aiosqlite.connect(
            target,
            isolation_level=None,
            timeout=self._busy_timeout_ms / 1000,
            uri=self.read_only,
            factory=WriterConnection if writer else sqlite3.Connection,
        )
        try:
            db.row_factory = aiosqlite.Row
            db.text_factory = _decode
            await db.execute(f"PRAGMA busy_timeout = {int(self._busy_timeout_ms)}")
            await db.execute("PRAGMA foreign_keys = ON")
            if reader:
                await db.execute("PRAGMA query_only = ON")
        except BaseException:
            await db.close()
            raise
        return db

    async def _set_up(self, db: Db) -> None:
        """Check the file's schema version, switch to WAL and bring the schema up to
        date (on the writer, before anything else runs)."""
        # the functions that fill the log's chain values in old files (migration 4)
        await db.create_function("mk_genesis", 1, genesis, deterministic=True)
        await db.create_function("mk_chain", 4, next_chain, deterministic=True)
        # refuse a newer database before anything (even the journal mode) changes it
        try:
            found = await _user_version(db)
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
            row = await _one(db, "PRAGMA journal_mode = WAL")
            mode = None if row is None else row["journal_mode"]
            if str(mode).lower() != "wal":
                raise StoreError(f"{self.path}: could not switch to WAL (got {mode!r})")
        await db.execute(f"PRAGMA synchronous = {self._synchronous}")
        await self._migrate(db)
        await db.execute(_APPEND_VIEW)
        await db.execute(_APPEND_TRIGGER)

    async def close(self) -> None:
        writer, self._writer = self._writer, None
        self._reader_connections = []
        connections, self._connections = self._connections, []
        if writer is not None:
            await writer.stop()
        for db in connections:
            with suppress(Exception):
                await db.close()

    async def schema_version(self) -> int:
        rows = await self._query("PRAGMA user_version")
        return int(rows[0]["user_version"])

    async def migrate(self) -> list[int]:
        return await self._run(self._migrate)

    async def _migrate(self, db: Db) -> list[int]:
        applied: list[int] = []
        found = await _user_version(db)
        if found > LATEST_VERSION:
            raise SchemaTooNewError(self.path, found, LATEST_VERSION)
        for migration in MIGRATIONS:
            if migration.version <= found:
                continue
            with store_faults(self.path):
                await db.execute("BEGIN IMMEDIATE")
                try:
                    # another process may have migrated while we waited for the lock
                    current = await _user_version(db)
                    if current > LATEST_VERSION:
                        raise SchemaTooNewError(self.path, current, LATEST_VERSION)
                    if current < migration.version:
                        for statement in migration.statements:
                            await db.execute(statement)
                        await db.execute(f"PRAGMA user_version = {int(migration.version)}")
                        applied.append(migration.version)
                    await db.execute("COMMIT")
                except BaseException:
                    await rollback(db)
                    raise
        return applied

    # --- running work ----------------------------------------------------------------

    def _writer_or_raise(self) -> Writer:
        if self._writer is None:
            raise StoreError(f"The store {self.path} is not open.")
        return self._writer

    async def _run(self, work: Callable[[Db], Awaitable[T]]) -> T:
        """Run `work` on the writer's connection as it is (no transaction of ours)."""
        result: T = await self._writer_or_raise().submit(work)
        return result

    async def _query(self, statement: str, params: Iterable[Any] = ()) -> list[Row]:
        """The rows of one SELECT (one statement sees one snapshot by itself). Readers
        are taken in turn, not held: each runs the statements handed to it one after
        another on its thread, so a read never waits for the event loop to hand a
        connection back."""
        writer = self._writer_or_raise()
        readers = self._reader_connections
        if not readers:
            result: list[Row] = await writer.submit(lambda db: _all(db, statement, params))
            return result
        self._turn = (self._turn + 1) % len(readers)
        return await _all(readers[self._turn], statement, params)

    async def _write(self, work: Callable[[Db], Awaitable[T]], **batch: Any) -> T:
        """Run `work` in a write transaction (perhaps shared with other games' writes,
        in a savepoint of its own); returns once it is committed. A full disk, a size
        limit or a read-only file rolls it back and becomes a `StoreFullError` or
        `StoreReadOnlyError`: nothing stored."""
        writer = self._writer_or_raise()
        if self.read_only:
            raise StoreReadOnlyError(self.path, "it was opened read-only")
        with store_faults(self.path):
            result: T = await writer.submit(work, write=True, **batch)
        return result

    async def _on_writer(self, work: Callable[[Db], Any]) -> Any:
        """Run `work` on the writer's connection, outside any transaction (for tests
        that set a PRAGMA there, as a full disk would); an awaitable it returns is
        awaited there."""

        async def run(db: Db) -> Any:
            value = work(db)
            return await value if inspect.isawaitable(value) else value

        return await self._run(run)

    # --- games and seats -------------------------------------------------------------

    async def create_game(self, game: NewGame, *, seat_creator: bool) -> GameRecord:
        at = ts(game.created_at)

        async def work(db: Db) -> GameRecord:
            row = await _one(
                db,
                "INSERT INTO games (rules, config, status, creator_id, reminder_seconds,"
                " guild_id, channel_id, thread_id, created_at, updated_at, language)"
                f" VALUES (?, ?, 'open', ?, ?, ?, ?, ?, ?, ?, ?) RETURNING {GAME_COLUMNS}",
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
            assert row is not None
            if seat_creator:
                await db.execute(
                    "INSERT INTO seats (game_id, seat, user_id, joined_at, name)"
                    " VALUES (?, 0, ?, ?, ?)",
                    (row["id"], game.creator_id, at, game.creator_name),
                )
            return game_from(row)

        return await self._write(work)

    async def game(self, game_id: int) -> GameRecord | None:
        rows = await self._query(sql.GAME, (game_id,))
        return game_from(rows[0]) if rows else None

    async def game_in_thread(self, thread_id: int) -> GameRecord | None:
        rows = await self._query(sql.GAME_IN_THREAD, (thread_id,))
        return game_from(rows[0]) if rows else None

    async def games_of_user(
        self, user_id: int, statuses: Collection[GameStatus]
    ) -> list[GameRecord]:
        wanted = list(statuses)
        if not wanted:
            return []
        rows = await self._query(
            f"SELECT {GAME_COLUMNS} FROM games WHERE status IN (SELECT value FROM json_each(?))"
            " AND id IN (SELECT game_id FROM seats WHERE user_id = ? OR substitute_id = ?)"
            " ORDER BY id",
            (json.dumps(wanted), user_id, user_id),
        )
        return [game_from(r) for r in rows]

    async def set_place(
        self,
        game_id: int,
        *,
        guild_id: int | None,
        channel_id: int | None,
        thread_id: int | None,
        at: datetime,
    ) -> None:
        await self._change(sql.SET_PLACE, (guild_id, channel_id, thread_id, ts(at), game_id))

    async def set_language(self, game_id: int, language: str, *, at: datetime) -> bool:
        return await self._changed_one(sql.SET_LANGUAGE, (language, ts(at), game_id))

    async def discard_game(self, game_id: int) -> bool:
        return await self._changed_one(sql.DISCARD_GAME, (game_id,))

    async def set_status(
        self, game_id: int, status: GameStatus, *, only_from: Collection[GameStatus], at: datetime
    ) -> bool:
        allowed = list(only_from)
        if not allowed:
            return False

        async def work(db: Db) -> bool:
            cursor = await db.execute(
                "UPDATE games SET status = ?, updated_at = ?"
                " WHERE id = ? AND status IN (SELECT value FROM json_each(?))",
                (status, ts(at), game_id, json.dumps(allowed)),
            )
            changed = cursor.rowcount == 1
            if changed and status != "active":
                await db.execute("DELETE FROM reminders WHERE game_id = ?", (game_id,))
            return changed

        return await self._write(work)

    async def seats(self, game_id: int) -> list[SeatRecord]:
        return [seat_from(r) for r in await self._query(sql.SEATS, (game_id,))]

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
        async def work(db: Db) -> SeatRecord | None:
            status = await _status(db, game_id)
            seats = await _seats(db, game_id)
            seated = user_id is not None and any(s.user_id == user_id for s in seats)
            if status != "open" or len(seats) >= limit or seated:
                return None
            seat = SeatRecord(game_id, len(seats), user_id, at, ai=ai, name=name)
            await db.execute(_INSERT_SEATS, seat_params(seat))
            await _touch(db, game_id, at)
            return seat

        return await self._write(work)

    async def remove_seat(self, game_id: int, seat: int, *, at: datetime) -> bool:
        async def work(db: Db) -> bool:
            if await _status(db, game_id) != "open":
                return False
            seats = await _seats(db, game_id)
            if not any(s.seat == seat for s in seats):
                return False
            # renumber by rewriting: shifting keys in place could collide mid-update
            kept = [s for s in seats if s.seat != seat]
            await db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            await db.executemany(
                _INSERT_SEATS, [seat_params(replace(s, seat=i)) for i, s in enumerate(kept)]
            )
            await _touch(db, game_id, at)
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
        async def work(db: Db) -> None:
            await _update_seats(db, [seat])
            if next_at is not None:
                await _move_reminder(db, seat.game_id, seat.seat, next_at)
            await _touch(db, seat.game_id, at)
            await _insert_owed(db, seat.game_id, None, owed, at)

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
        async def work(db: Db) -> bool:
            cursor = await db.execute(
                "UPDATE games SET status = 'active', seed = ?, updated_at = ?"
                " WHERE id = ? AND status = 'open'",
                (seed, ts(at), game_id),
            )
            if cursor.rowcount != 1:
                return False
            await _update_seats(db, seats)
            await db.execute(
                _PUT_SNAPSHOT + _FORWARD_ONLY, _snapshot_params(snapshot, genesis(game_id))
            )
            await _replace_waiting(db, [(game_id, waiting, ())])
            await _insert_owed(db, game_id, 0, owed, at)
            return True

        return await self._write(work)

    # --- the action log ----------------------------------------------------------------

    async def load_game(self, game_id: int) -> StoredGame | None:
        rows = await self._query(_LOAD_GAME, (game_id,))
        if not rows:
            return None
        row = rows[0]
        snapshot = None
        if row["snapshot_seq"] is not None:
            snapshot = SnapshotRecord(
                game_id,
                row["snapshot_seq"],
                text(row["state"]),
                row["snapshot_chain"],
                row["digest"],
            )
        seats = sorted((seat_from(r) for r in orjson.loads(row["seats"])), key=lambda s: s.seat)
        later = sorted((action_from(r) for r in orjson.loads(row["later"])), key=lambda a: a.seq)
        return StoredGame(
            game_from(row),
            tuple(seats),
            snapshot,
            tuple(later),
            int(row["last"] or 0),
            int(row["entries"]),
            genesis(game_id) if snapshot is not None and snapshot.seq == 0 else row["log_chain"],
        )

    async def actions(self, game_id: int, *, after: int = 0) -> list[ActionRecord]:
        rows = await self._query(sql.ACTIONS_AFTER, (game_id, after))
        return [action_from(r) for r in rows]

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
        if snapshot.game_id != action.game_id or snapshot.seq != action.seq:
            raise ValueError("the snapshot must be the state after the appended action")
        append = _Append(action, snapshot, interaction, status, waiting, renew, seats, owed)

        async def work(db: Db) -> list[int]:
            ok, value = (await _append_all(db, [append], alone=True))[0]
            if not ok:
                raise value
            ids: list[int] = value
            return ids

        ids: list[int] = await self._write(work, many=_append_jobs, key=action.game_id, data=append)
        return ids

    async def turn_actions(self, game_id: int, seat: int) -> list[ActionRecord]:
        rows = await self._query(sql.TURN_ACTIONS, (game_id, seat))
        return [action_from(r) for r in rows]

    async def put_snapshot(self, snapshot: SnapshotRecord) -> bool:
        async def work(db: Db) -> bool:
            head = (await _heads(db, [snapshot.game_id])).get(snapshot.game_id)
            if head is None or head[1] != snapshot.seq:
                return False
            chain = genesis(snapshot.game_id) if snapshot.seq == 0 else head[2]
            await db.execute(_PUT_SNAPSHOT, _snapshot_params(snapshot, chain))
            return True

        return await self._write(work)

    async def game_ids(self, *, started: bool = True) -> list[int]:
        where = " WHERE seed IS NOT NULL" if started else ""
        return [int(r["id"]) for r in await self._query(f"SELECT id FROM games{where} ORDER BY id")]

    async def game_counts(self, guild_ids: Collection[int] | None = None) -> dict[GameStatus, int]:
        where, params = "", []
        if guild_ids is not None:
            # any number of servers, as one JSON parameter
            where = " WHERE guild_id IN (SELECT value FROM json_each(?))"
            params = [json.dumps(sorted(set(guild_ids)))]
        rows = await self._query(
            f"SELECT status, COUNT(*) AS n FROM games{where} GROUP BY status", params
        )
        return {r["status"]: int(r["n"]) for r in rows}

    async def backup(self, target: str | Path) -> None:
        """A consistent copy of the whole database in `target` (a new file), made with
        SQLite's online backup while other connections go on writing: in one step, on
        a connection of its own, so the copy is one snapshot (WAL lets the writer go on
        meanwhile)."""
        destination = Path(target)
        if destination.exists():
            raise StoreError(f"{destination} already exists; choose a new file for the backup.")
        if not destination.parent.is_dir():
            raise StoreError(
                f"The folder {destination.parent} does not exist; create it or choose"
                " another place for the backup."
            )
        writer = self._writer_or_raise()
        if not self._reader_connections:  # one connection (:memory:): copy from it
            await writer.submit(lambda db: _copy_to(db, destination))
            return
        source = await self._connect()
        try:
            await _copy_to(source, destination)
        finally:
            await source.close()

    # --- interactions ------------------------------------------------------------------

    async def interaction(self, interaction_id: int) -> InteractionRecord | None:
        rows = await self._query(sql.INTERACTION, (interaction_id,))
        return interaction_from(rows[0]) if rows else None

    async def prune_interactions(self, before: datetime) -> int:
        """In batches of `PRUNE_BATCH` rows, each a write of its own: the acts queued
        meanwhile are committed between them, never behind the whole prune (after a
        day down, a prune in one statement held every act for seconds)."""
        pruned = 0
        while True:
            done = await self._change(_PRUNE_INTERACTIONS, (ts(before), PRUNE_BATCH))
            pruned += done
            if done < PRUNE_BATCH:
                return pruned

    # --- messages, notification preferences, reminders --------------------------------

    async def put_message(self, message: MessageRecord) -> None:
        await self._change(
            "INSERT INTO messages (game_id, kind, channel_id, message_id) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (game_id, kind) DO UPDATE SET channel_id = excluded.channel_id,"
            " message_id = excluded.message_id",
            (message.game_id, message.kind, message.channel_id, message.message_id),
        )

    async def messages(self, game_id: int) -> list[MessageRecord]:
        rows = await self._query(
            "SELECT game_id, kind, channel_id, message_id FROM messages WHERE game_id = ?"
            " ORDER BY kind",
            (game_id,),
        )
        return [
            MessageRecord(r["game_id"], r["kind"], r["channel_id"], r["message_id"]) for r in rows
        ]

    async def delete_message(self, game_id: int, kind: str) -> bool:
        return await self._changed_one(
            "DELETE FROM messages WHERE game_id = ? AND kind = ?", (game_id, kind)
        )

    async def notification_prefs(self, user_ids: Collection[int]) -> dict[int, NotificationPrefs]:
        ids = sorted(set(user_ids))
        if not ids:
            return {}
        rows = await self._query(
            f"SELECT {PREFS_COLUMNS} FROM notification_prefs"
            " WHERE user_id IN (SELECT value FROM json_each(?))",
            (json.dumps(ids),),
        )
        return {r["user_id"]: prefs_from(r) for r in rows}

    async def put_notification_prefs(self, prefs: NotificationPrefs) -> None:
        await self._change(
            sql.PUT_PREFS,
            (
                prefs.user_id,
                int(prefs.dm_opt_in),
                prefs.quiet_start,
                prefs.quiet_end,
                prefs.timezone,
                prefs.language,
            ),
        )

    async def put_language(self, user_id: int, language: str) -> None:
        await self._change(sql.PUT_LANGUAGE, (user_id, language))

    async def reminders(self, game_id: int) -> list[ReminderRecord]:
        rows = await self._query(sql.REMINDERS, (game_id,))
        return [reminder_from(r) for r in rows]

    async def due_reminders(self, now: datetime, *, limit: int) -> list[ReminderRecord]:
        return await self._awaited(now, limit, f"NOT {MACHINE_SEAT} AND r.muted_for_turn = 0")

    async def owed_moves(self, now: datetime, *, limit: int) -> list[ReminderRecord]:
        return await self._awaited(now, limit, MACHINE_SEAT)

    async def _awaited(self, now: datetime, limit: int, where: str) -> list[ReminderRecord]:
        columns = ", ".join(f"r.{c.strip()}" for c in REMINDER_COLUMNS.split(","))
        rows = await self._query(
            f"SELECT {columns} FROM reminders r"
            " JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat"
            " JOIN games g ON g.id = r.game_id"
            f" WHERE r.next_at <= ? AND g.status = 'active' AND {where}"
            " ORDER BY r.next_at, r.game_id, r.seat LIMIT ?",
            (ts(now), limit),
        )
        return [reminder_from(r) for r in rows]

    async def put_reminder(
        self, reminder: ReminderRecord, *, claim: DutyClaim | None = None
    ) -> bool:
        held, holder = _held_by(claim)
        return await self._changed_one(
            "UPDATE reminders SET waiting_since = ?, next_at = ?, missed = ?,"
            f" muted_for_turn = ? WHERE game_id = ? AND seat = ?{held}",
            (
                ts(reminder.waiting_since),
                ts(reminder.next_at),
                reminder.missed,
                int(reminder.muted_for_turn),
                reminder.game_id,
                reminder.seat,
                *holder,
            ),
        )

    # --- owed messages -----------------------------------------------------------------

    async def owed_messages(
        self, now: datetime | None, *, game_id: int | None = None, limit: int = 100
    ) -> list[OwedMessage]:
        due = math.inf if now is None else ts(now)
        if game_id is None:
            rows = await self._query(_OWED_DUE, (due, limit))
        else:
            rows = await self._query(_OWED_OF_GAME, (game_id, due, limit))
        return [owed_from(r) for r in rows]

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
        return await self._changed_one(
            "UPDATE outbox SET delivered_at = ?, channel_id = ?, message_id = ?"
            f" WHERE id = ? AND delivered_at IS NULL{held}",
            (ts(at), channel_id, message_id, owed_id, *holder),
        )

    async def last_delivered_message(self, game_id: int, channel_id: int) -> int | None:
        rows = await self._query(sql.LAST_DELIVERED, (game_id, channel_id))
        return None if not rows or rows[0]["id"] is None else int(rows[0]["id"])

    async def mark_tried(self, owed_ids: Collection[int], *, at: datetime) -> None:
        ids = sorted(set(owed_ids))
        if ids:
            await self._change(
                "UPDATE outbox SET tried_at = ? WHERE id IN (SELECT value FROM json_each(?))",
                (ts(at), json.dumps(ids)),
            )

    async def mark_failed(self, owed_id: int, *, error: str, retry_at: datetime) -> int:
        async def work(db: Db) -> int:
            row = await _one(
                db,
                "UPDATE outbox SET attempts = attempts + 1, last_error = ?, due_at = ?"
                " WHERE id = ? RETURNING attempts",
                (error[:500], ts(retry_at), owed_id),
            )
            return 0 if row is None else int(row["attempts"])

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
        async def work(db: Db) -> VoteRecord | None:
            try:
                row = await _one(
                    db,
                    "INSERT INTO votes (game_id, seat, turn_since, opened_at, deadline)"
                    f" VALUES (?, ?, ?, ?, ?) RETURNING {VOTE_COLUMNS}",
                    (game_id, seat, ts(turn_since), ts(at), ts(deadline)),
                )
            except sqlite3.IntegrityError:
                # already one open in this game, or one about this turn
                return None
            assert row is not None
            vote = vote_from(row)
            await _insert_owed(db, game_id, None, owed(vote.id), at)
            return vote

        return await self._write(work)

    async def vote(self, vote_id: int) -> VoteRecord | None:
        rows = await self._query(sql.VOTE, (vote_id,))
        return vote_from(rows[0]) if rows else None

    async def open_votes(self, *, game_id: int | None = None) -> list[VoteRecord]:
        where = "status = 'open'" + ("" if game_id is None else " AND game_id = ?")
        params = () if game_id is None else (game_id,)
        rows = await self._query(
            f"SELECT {VOTE_COLUMNS} FROM votes WHERE {where} ORDER BY deadline, id", params
        )
        return [vote_from(r) for r in rows]

    async def cast_ballot(
        self, ballot: BallotRecord, *, owed: Sequence[NewOwed] = ()
    ) -> list[BallotRecord] | None:
        async def work(db: Db) -> list[BallotRecord] | None:
            row = await _one(
                db, "SELECT game_id, status FROM votes WHERE id = ?", (ballot.vote_id,)
            )
            if row is None or row["status"] != "open":
                return None
            await db.execute(
                for_sqlite(sql.PUT_BALLOT),
                (ballot.vote_id, ballot.voter_id, ballot.choice, ts(ballot.cast_at)),
            )
            await _insert_owed(db, int(row["game_id"]), None, owed, ballot.cast_at)
            return [ballot_from(r) for r in await _all(db, sql.BALLOTS, (ballot.vote_id,))]

        return await self._write(work)

    async def ballots(self, vote_id: int) -> list[BallotRecord]:
        return [ballot_from(r) for r in await self._query(sql.BALLOTS, (vote_id,))]

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
        async def work(db: Db) -> bool:
            row = await _one(
                db,
                "UPDATE votes SET status = ?, decided_at = ? WHERE id = ? AND status = 'open'"
                " RETURNING game_id",
                (status, ts(at), vote_id),
            )
            if row is None:
                return False
            game_id = int(row["game_id"])
            if seat is not None:
                await _update_seats(db, [seat])
                if next_at is not None:
                    await _move_reminder(db, game_id, seat.seat, next_at)
            await _insert_owed(db, game_id, None, owed, at)
            return True

        return await self._write(work)

    async def set_vote_message(self, vote_id: int, channel_id: int, message_id: int) -> None:
        await self._change(sql.SET_VOTE_MESSAGE, (channel_id, message_id, vote_id))

    # --- the daily digest ----------------------------------------------------------------

    async def digest(self, user_id: int) -> DigestRecord | None:
        rows = await self._query(sql.DIGEST, (user_id,))
        return digest_from(rows[0]) if rows else None

    async def put_digest(self, digest: DigestRecord) -> None:
        await self._change(
            sql.PUT_DIGEST,
            (digest.user_id, maybe_ts(digest.due_at), maybe_ts(digest.sent_at)),
        )

    async def due_digests(self, now: datetime, *, limit: int) -> list[DigestRecord]:
        rows = await self._query(sql.DUE_DIGESTS, (ts(now), limit))
        return [digest_from(r) for r in rows]

    async def claim_digest(
        self, user_id: int, *, due_at: datetime, next_at: datetime, sent_at: datetime | None
    ) -> bool:
        return await self._changed_one(
            sql.CLAIM_DIGEST,
            (ts(next_at), maybe_ts(sent_at), user_id, ts(due_at)),
        )

    # --- duty claims (several bot processes on one database) ---------------------------

    async def claim_duty(
        self, duty: str, owner: str, *, now: datetime, until: datetime
    ) -> DutyClaim | None:
        check_claim(owner, now, until)
        won = await self._change(sql.CLAIM_DUTY, (duty, owner, ts(now), ts(until)))
        return DutyClaim(duty, owner, until) if won == 1 else None

    async def release_duty(self, claim: DutyClaim, *, rest_until: datetime | None = None) -> bool:
        if rest_until is None:
            return await self._changed_one(sql.RELEASE_DUTY, (claim.duty, claim.owner))
        return await self._changed_one(
            sql.REST_DUTY,
            (RESTING, ts(rest_until), claim.duty, claim.owner),
        )

    async def duty_claims(self, now: datetime) -> list[DutyClaim]:
        rows = await self._query(sql.DUTY_CLAIMS, (ts(now),))
        return [claim_from(r) for r in rows]

    async def prune_duty_claims(self, before: datetime) -> int:
        return await self._change(sql.PRUNE_DUTY_CLAIMS, (ts(before),))

    async def _changed_one(self, statement: str, params: Iterable[Any]) -> bool:
        return await self._change(statement, params) == 1

    async def _change(self, statement: str, params: Iterable[Any]) -> int:
        """One writing statement in a write transaction; the rows it changed."""

        async def work(db: Db) -> int:
            cursor = await db.execute(for_sqlite(statement), tuple(params))
            return cursor.rowcount

        return await self._write(work)


# --- the log's appends, many at once ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Append:
    """One `append_action`'s arguments."""

    action: ActionRecord
    snapshot: SnapshotRecord
    interaction: InteractionRecord | None
    status: GameStatus | None
    waiting: Sequence[ReminderRecord] | None
    renew: Collection[int]
    seats: Sequence[SeatRecord]
    owed: Sequence[NewOwed]

    def awaited(self) -> Sequence[ReminderRecord] | None:
        """The seats awaited after it (None: unchanged; none once the game ends)."""
        if self.status is not None and self.status != "active":
            return ()
        return self.waiting


async def _append_jobs(db: Db, jobs: Sequence[Job]) -> list[Outcome]:
    return await _append_all(db, [job.data for job in jobs], alone=False)


async def _append_all(db: Db, appends: Sequence[_Append], *, alone: bool) -> list[Outcome]:
    """Append the log entries of several games (one each), each statement once for all
    of them. A refusal the log decides (the game is not active, the log moved on) is
    that append's outcome, with nothing of it written; any other error is raised as it
    is when `alone`, else raised for the caller to run the appends one by one."""
    heads = await _heads(db, {a.action.game_id for a in appends})
    outcomes: list[Outcome] = []
    accepted: list[tuple[int, _Append]] = []
    rows: list[tuple[Any, ...]] = []
    seats: list[SeatRecord] = []
    for append in appends:
        action = append.action
        game_id = action.game_id
        status, last, last_chain = heads.get(game_id, (None, 0, None))
        if status != "active":
            outcomes.append((False, StatusConflictError(game_id, status, "active")))
            continue
        if action.seq != last + 1:
            outcomes.append((False, SeqConflictError(game_id, action.seq, last)))
            continue
        previous = genesis(game_id) if last == 0 else last_chain
        chain = (
            None
            if previous is None
            else next_chain(previous, action.seq, action.seat, action.notation)
        )
        heads[game_id] = (append.status or status, action.seq, chain)
        accepted.append((len(outcomes), append))
        outcomes.append((True, []))
        rows.append(_append_row(append, chain))
        seats += append.seats
    if not accepted:
        return outcomes
    owed = [
        (a.action.game_id, a.action.seq, m, a.action.created_at)
        for _, a in accepted
        for m in a.owed
    ]
    # every statement queued at once (see `pipeline`): one wait for the thread
    statements = _owed_statements(owed)
    calls: list[Awaitable[Any]] = [
        db.executemany(_APPEND, rows),
        *_update_seats_calls(db, seats),
        *(_all(db, query, params) for query, params in statements),
    ]
    try:
        results = await pipeline(db, *calls)
    except sqlite3.IntegrityError as exc:
        if alone and "actions.game_id, actions.seq" in str(exc):
            action = appends[0].action
            raise SeqConflictError(action.game_id, action.seq, action.seq - 1) from exc
        interaction = appends[0].interaction
        if alone and "interactions.interaction_id" in str(exc) and interaction is not None:
            raise DuplicateInteractionError(interaction.interaction_id) from exc
        raise
    ids = _owed_ids(results[len(calls) - len(statements) :])
    for at, append in accepted:
        outcomes[at] = (True, ids.get(append.action.game_id, []))
    return outcomes


def _append_row(append: _Append, chain: str | None) -> tuple[Any, ...]:
    """An append as a row of the view `mk_append` (see `_APPEND_TRIGGER`)."""
    i = append.interaction
    interaction = (
        (None,) * 5
        if i is None
        else (i.interaction_id, i.game_id, i.seq, i.result, ts(i.created_at))
    )
    _, _, state, _, digest = _snapshot_params(append.snapshot, chain)
    awaited = append.awaited()
    return (
        *action_params(append.action, chain),
        *interaction,
        state,
        digest,
        append.status,
        None if awaited is None else _awaited_json(awaited),
        json.dumps(sorted(set(append.renew)) if append.waiting is not None else []),
    )


def _awaited_json(waiting: Sequence[ReminderRecord]) -> str:
    return json.dumps(
        [
            [r.seat, ts(r.waiting_since), ts(r.next_at), r.missed, int(r.muted_for_turn)]
            for r in waiting
        ]
    )


# --- statements and helpers ------------------------------------------------------------


async def _heads(db: Db, game_ids: Iterable[int]) -> dict[int, tuple[str, int, str | None]]:
    """Each game's status and its log's last entry (seq, chain value; 0 and None for an
    empty log); a missing game is absent."""
    rows = await _all(db, _HEADS, (json.dumps(sorted(game_ids)),))
    return {r["id"]: (r["status"], int(r["seq"] or 0), r["chain"]) for r in rows}


async def _all(db: Db, statement: str, params: Iterable[Any] = ()) -> list[Row]:
    return list(await db.execute_fetchall(for_sqlite(statement), tuple(params)))


async def _one(db: Db, statement: str, params: Iterable[Any] = ()) -> Row | None:
    rows = await _all(db, statement, params)
    return rows[0] if rows else None


async def _user_version(db: Db) -> int:
    row = await _one(db, "PRAGMA user_version")
    assert row is not None
    return int(row["user_version"])


async def _copy_to(source: Db, destination: Path) -> None:
    """SQLite's online backup of `source` into the new file `destination`, in one step
    (one consistent snapshot); a backup is one self-contained file: no -wal beside it."""
    copy = await aiosqlite.connect(destination, isolation_level=None, check_same_thread=False)
    try:
        await source.backup(copy)
        await copy.execute("PRAGMA journal_mode = DELETE")
    except BaseException:
        await copy.close()
        destination.unlink(missing_ok=True)
        raise
    await copy.close()


async def _status(db: Db, game_id: int) -> str | None:
    row = await _one(db, "SELECT status FROM games WHERE id = ?", (game_id,))
    return None if row is None else str(row["status"])


async def _touch(db: Db, game_id: int, at: datetime) -> None:
    await db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (ts(at), game_id))


async def _seats(db: Db, game_id: int) -> list[SeatRecord]:
    return [seat_from(r) for r in await _all(db, sql.SEATS, (game_id,))]


async def _update_seats(db: Db, seats: Sequence[SeatRecord]) -> None:
    await pipeline(db, *_update_seats_calls(db, seats))


def _update_seats_calls(db: Db, seats: Sequence[SeatRecord]) -> list[Awaitable[Any]]:
    if not seats:
        return []
    rows = [
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
    ]
    return [db.executemany(_UPDATE_SEATS, rows)]


async def _move_reminder(db: Db, game_id: int, seat: int, next_at: datetime) -> None:
    await db.execute(
        "UPDATE reminders SET next_at = ? WHERE game_id = ? AND seat = ?",
        (ts(next_at), game_id, seat),
    )


async def _replace_waiting(
    db: Db, games: Sequence[tuple[int, Sequence[ReminderRecord], Collection[int]]]
) -> None:
    await pipeline(db, *_replace_waiting_calls(db, games))


def _replace_waiting_calls(
    db: Db, games: Sequence[tuple[int, Sequence[ReminderRecord], Collection[int]]]
) -> list[Awaitable[Any]]:
    """Make each game's `waiting` the seats it awaits: seats awaited before and now keep
    their row (their waiting time, missed reminders and mute stay), except those of its
    `renew` (awaited anew), whose row is written afresh."""
    if not games:
        return []
    rows = [
        (game_id, _awaited_json(waiting), json.dumps(sorted(set(renew))))
        for game_id, waiting, renew in games
    ]
    return [
        db.executemany(_FORGET_WAITING.format(game="?1", awaited="?2", renew="?3"), rows),
        db.executemany(_AWAIT.format(game="?1", awaited="?2"), [r[:2] for r in rows]),
    ]


async def _insert_owed(
    db: Db, game_id: int, seq: int | None, owed: Sequence[NewOwed], at: datetime
) -> list[int]:
    """Store a game's owed messages (`seq` None: at the log's last entry); their ids,
    in the order given."""
    if not owed:
        return []
    if seq is None:
        row = await _one(db, "SELECT MAX(seq) AS seq FROM actions WHERE game_id = ?", (game_id,))
        seq = 0 if row is None or row["seq"] is None else int(row["seq"])
    statements = _owed_statements([(game_id, seq, m, at) for m in owed])
    found = await pipeline(db, *(_all(db, query, params) for query, params in statements))
    return _owed_ids(found).get(game_id, [])


def _owed_statements(
    owed: Sequence[tuple[int, int, NewOwed, datetime]],
) -> list[tuple[str, list[Any]]]:
    """The statements that store owed messages (game, seq, message, when), as few as
    the parameter limit allows; each returns the ids and games of its rows."""
    statements = []
    for start in range(0, len(owed), OWED_PER_STATEMENT):
        part = owed[start : start + OWED_PER_STATEMENT]
        params = [
            value
            for game_id, seq, m, at in part
            for value in (game_id, seq, m.kind, m.payload, ts(at), ts(m.due_at or at))
        ]
        marks = ", ".join(["(?, ?, ?, ?, ?, ?)"] * len(part))
        statements.append((f"{_OWED_INTO}{marks} RETURNING id, game_id", params))
    return statements


def _owed_ids(results: Sequence[list[Row]]) -> dict[int, list[int]]:
    """Each game's owed messages' ids, in the order given (ids count up as rows go in)."""
    ids: dict[int, list[int]] = {}
    for rows in results:
        for r in rows:
            ids.setdefault(int(r["game_id"]), []).append(int(r["id"]))
    return {game_id: sorted(found) for game_id, found in ids.items()}


def _snapshot_params(snapshot: SnapshotRecord, chain: str | None) -> tuple[Any, ...]:
    """A snapshot's row with its chain value and digest (a snapshot with no chain
    value, over a damaged log, gets no digest either: the next load checks it)."""
    digest = None if chain is None else state_digest(snapshot.seq, chain, snapshot.state)
    return (snapshot.game_id, snapshot.seq, snapshot.state, chain, digest)


def _held_by(claim: DutyClaim | None) -> tuple[str, tuple[str, ...]]:
    """The condition (and its parameters) that a done-mark adds: the claim's owner
    still holds its duty. Nothing without a claim."""
    if claim is None:
        return "", ()
    return (
        " AND EXISTS (SELECT 1 FROM duty_claims WHERE duty = ? AND claimed_by = ?)",
        (claim.duty, claim.owner),
    )


def _decode(data: bytes) -> str:
    return data.decode("utf-8", "replace")


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
