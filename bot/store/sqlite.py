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

The methods themselves are written once for both databases (bot/store/base.py); this
driver gives them SQLite's connections, its placeholders (`?1` for `$1`) and its lists
(JSON text read with `json_each`).

    >>> store = SqliteStore("data/games.db")      # doctest: +SKIP
    >>> async with store: ...                      # doctest: +SKIP
"""

from __future__ import annotations

import inspect
import json
import os
import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, Literal, TypeVar

import aiosqlite
import orjson

from bot.store import sql
from bot.store.base import Store
from bot.store.driver import Append, Tx, owed_statements
from bot.store.errors import (
    DuplicateInteractionError,
    SchemaTooNewError,
    SeqConflictError,
    StatusConflictError,
    StoreDamagedError,
    StoreError,
    StoreFullError,
    StoreReadOnlyError,
    StoreUnusableError,
)
from bot.store.group_commit import Job, Outcome, Writer, WriterConnection, pipeline, rollback
from bot.store.integrity import genesis, next_chain, state_digest
from bot.store.migrations import LATEST_VERSION, MIGRATIONS
from bot.store.records import (
    SeatRecord,
    StoredGame,
)
from bot.store.sql import (
    ACTION_COLUMNS,
    GAME_COLUMNS,
    INTERACTION_COLUMNS,
    REMINDER_COLUMNS,
    SEAT_COLUMNS,
    Dialect,
    for_sqlite,
    ts,
)

DEFAULT_BUSY_TIMEOUT_MS = 10_000
# reader connections beside the writer (reads are short; the GIL is shared anyway)
DEFAULT_READERS = 3

Db = aiosqlite.Connection
Row = sql.Row
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
# A log entry with everything stored beside it (the interaction that caused it, the
# snapshot after it, the game's status and the seats awaited) is one row inserted into
# a view of the writer's connection, whose trigger does the writing: one statement, so
# one trip to the connection's thread, atomic by itself, for many entries at once
# (`executemany`). PostgreSQL does the same in one statement of common table
# expressions (bot/store/postgres.py); SQLite has no INSERT inside WITH. The seats
# awaited come as JSON rows [seat, waiting since, next reminder, missed, muted]: the
# seats no longer awaited (or awaited anew: the JSON list `renew`) lose their row,
# then those awaited that have none get one.
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
    f" chain = excluded.chain, digest = excluded.digest{sql.FORWARD_ONLY};"
    " UPDATE games SET status = COALESCE(NEW.status, status), updated_at = NEW.created_at"
    " WHERE id = NEW.game_id;"
    " DELETE FROM reminders WHERE game_id = NEW.game_id AND NEW.awaited IS NOT NULL"
    " AND (seat NOT IN (SELECT json_extract(value, '$[0]') FROM json_each(NEW.awaited))"
    " OR seat IN (SELECT value FROM json_each(NEW.renew)));"
    f" INSERT INTO reminders ({REMINDER_COLUMNS}) SELECT NEW.game_id,"
    " json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'),"
    " json_extract(value, '$[3]'), json_extract(value, '$[4]') FROM json_each(NEW.awaited)"
    " WHERE NEW.awaited IS NOT NULL ON CONFLICT (game_id, seat) DO NOTHING; END"
)
_APPEND = (
    f"INSERT INTO mk_append ({_APPEND_COLUMNS})"
    f" VALUES ({', '.join(['?'] * len(_APPEND_COLUMNS.split(',')))})"
)


class _Tx:
    """A write transaction on the writer's connection (`Tx`)."""

    def __init__(self, db: Db) -> None:
        self.db = db

    async def rows(self, statement: str, *params: Any) -> list[Row]:
        return list(await self.db.execute_fetchall(for_sqlite(statement), params))

    async def run(self, statement: str, *params: Any) -> int:
        cursor = await self.db.execute(for_sqlite(statement), params)
        return cursor.rowcount

    async def many(self, statement: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            await self.db.executemany(for_sqlite(statement), rows)


class SqliteStore(Store):
    """A `Store` in one SQLite file. `path` may be `":memory:"` for quick experiments
    (then one connection does everything: a second would see another database)."""

    dialect = Dialect(locks=False)

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
            rows = await db.execute_fetchall("PRAGMA journal_mode = WAL")
            mode = next(iter(rows))["journal_mode"] if rows else None
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
        rows = await self._rows("PRAGMA user_version")
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

    async def _rows(self, statement: str, *params: Any) -> list[Row]:
        """The rows of one SELECT (one statement sees one snapshot by itself). Readers
        are taken in turn, not held: each runs the statements handed to it one after
        another on its thread, so a read never waits for the event loop to hand a
        connection back."""
        writer = self._writer_or_raise()
        readers = self._reader_connections
        if not readers:
            result: list[Row] = await writer.submit(lambda db: _Tx(db).rows(statement, *params))
            return result
        self._turn = (self._turn + 1) % len(readers)
        with store_faults(self.path):
            return await _Tx(readers[self._turn]).rows(statement, *params)

    async def _write(self, work: Callable[[Tx], Awaitable[T]]) -> T:
        return await self._submit(lambda db: work(_Tx(db)))

    async def _submit(self, work: Callable[[Db], Awaitable[T]], **batch: Any) -> T:
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

    # --- what SQLite does its own way: the load, the appends and the backup -----------

    async def load_game(self, game_id: int) -> StoredGame | None:
        rows = await self._rows(_LOAD_GAME, game_id)
        if not rows:
            return None
        row = rows[0]
        return sql.stored_game(row, orjson.loads(row["seats"]), orjson.loads(row["later"]))

    async def _append(self, append: Append) -> list[int]:

        async def work(db: Db) -> list[int]:
            ok, value = (await _append_all(db, [append], alone=True))[0]
            if not ok:
                raise value
            ids: list[int] = value
            return ids

        ids: list[int] = await self._submit(
            work, many=_append_jobs, key=append.action.game_id, data=append
        )
        return ids

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


# --- the log's appends, many at once ---------------------------------------------------


async def _append_jobs(db: Db, jobs: Sequence[Job]) -> list[Outcome]:
    return await _append_all(db, [job.data for job in jobs], alone=False)


async def _append_all(db: Db, appends: Sequence[Append], *, alone: bool) -> list[Outcome]:
    """Append the log entries of several games (one each), each statement once for all
    of them. A refusal the log decides (the game is not active, the log moved on) is
    that append's outcome, with nothing of it written; any other error is raised as it
    is when `alone`, else raised for the caller to run the appends one by one."""
    heads = await _heads(db, {a.action.game_id for a in appends})
    outcomes: list[Outcome] = []
    accepted: list[tuple[int, Append]] = []
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
        chain = append.chain(last_chain)
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
    tx = _Tx(db)
    # every statement queued at once (see `pipeline`): one wait for the thread
    statements = owed_statements(owed)
    calls: list[Awaitable[Any]] = [
        db.executemany(_APPEND, rows),
        tx.many(sql.UPDATE_SEAT, [sql.seat_update_params(s) for s in seats]),
        *(tx.rows(query, *params) for query, params in statements),
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
    ids: dict[int, list[int]] = {}
    for found in results[2:]:
        for r in found:
            ids.setdefault(int(r["game_id"]), []).append(int(r["id"]))
    for at, append in accepted:
        outcomes[at] = (True, sorted(ids.get(append.action.game_id, [])))
    return outcomes


def _append_row(append: Append, chain: str | None) -> tuple[Any, ...]:
    """An append as a row of the view `mk_append` (see `_APPEND_TRIGGER`)."""
    i = append.interaction
    interaction = (
        (None,) * 5
        if i is None
        else (i.interaction_id, i.game_id, i.seq, i.result, ts(i.created_at))
    )
    snapshot = append.snapshot
    awaited = append.awaited()
    return (
        *sql.action_params(append.action, chain),
        *interaction,
        snapshot.state,
        None if chain is None else state_digest(snapshot.seq, chain, snapshot.state),
        append.status,
        None if awaited is None else json.dumps([sql.reminder_params(r)[1:] for r in awaited]),
        json.dumps(sorted(set(append.renew)) if append.waiting is not None else []),
    )


async def _heads(db: Db, game_ids: Iterable[int]) -> dict[int, tuple[str, int, str | None]]:
    """Each game's status and its log's last entry (seq, chain value; 0 and None for an
    empty log); a missing game is absent."""
    rows = await db.execute_fetchall(_HEADS, (json.dumps(sorted(game_ids)),))
    return {r["id"]: (r["status"], int(r["seq"] or 0), r["chain"]) for r in rows}


# --- helpers ------------------------------------------------------------------------------


async def _user_version(db: Db) -> int:
    rows = list(await db.execute_fetchall("PRAGMA user_version"))
    return int(rows[0]["user_version"])


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


def _decode(data: bytes) -> str:
    return data.decode("utf-8", "replace")


@contextmanager
def store_faults(where: str) -> Iterator[None]:
    """A read or write that failed for want of room or permission, or on a damaged page
    (see `_fault`), becomes the store's error for it; any other error passes as it is."""
    try:
        yield
    except sqlite3.Error as exc:
        fault = _fault(where, exc)
        if fault is None:
            raise
        raise fault from exc


def _fault(where: str, exc: sqlite3.Error) -> StoreError | None:
    """The store error for a write that failed for want of room or permission, or for
    a page of the file that is damaged (None: another error, raised as it is)."""
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    if primary in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
        return StoreDamagedError(where, str(exc))
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
