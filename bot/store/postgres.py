"""The PostgreSQL store (through asyncpg): one database that several bot processes share.

Chosen by the setting `DATABASE_URL=postgresql://...` (SQLite stays the default). The
schema is the SQLite store's, built from the same numbered migrations
(`bot/store/migrations.py`, translated by `postgres_statements`), and rows read back as
the same records: times are Unix seconds (`DOUBLE PRECISION`), flags 0/1 integers,
every id a `BIGINT`. The schema version lives in the table `mk_schema` (SQLite keeps it
in `PRAGMA user_version`); migrations run by themselves at open, under an advisory lock
so two processes starting together migrate once.

Every method is one transaction on a connection of a pool, so many games are served at
once. Exclusion is in the database, not in the process: a write to a game first locks
the game's row (`SELECT ... FOR UPDATE`), so racing writers of one game, in this process
or another, queue on it and the later one finds the log moved on (`SeqConflictError`;
the service then tries a player's action again on the game as it now stands). Before
the scheduler does a duty it claims it with a lease (`claim_duty`: one upsert that only
one process wins, bot/service/duties.py), and the duty's done-mark holds only while the
claim does (`mark_delivered`, `put_reminder` with a claim share-lock the claim's row);
the conditional writes `close_vote`, `claim_digest` and the log's next seq stay the
last word, as in the SQLite store.

Commits are durable when acknowledged: each session runs with `synchronous_commit=on`
whatever the server's default.

    >>> store = PostgresStore("postgresql://bot@localhost/mountain_king")  # doctest: +SKIP
    >>> async with store: ...                                               # doctest: +SKIP
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import aiosqlite
import asyncpg

from bot.store import sql
from bot.store.base import Store
from bot.store.driver import Append, Tx
from bot.store.errors import (
    ConflictError,
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
from bot.store.integrity import state_digest
from bot.store.migrations import LATEST_VERSION, MIGRATIONS, Migration
from bot.store.records import (
    InteractionRecord,
    ReminderRecord,
    SeatRecord,
    StoredGame,
)
from bot.store.sql import ACTION_COLUMNS, GAME_COLUMNS, REMINDER_COLUMNS, Dialect, ts
from bot.store.sqlite import SqliteStore

# asyncpg ships no type information: its connections and rows are `Any` here
Conn = Any
Row = Any
T = TypeVar("T")

SCHEMA_TABLE = "mk_schema"
# the key of the advisory lock held while migrating (any constant the bot alone uses)
MIGRATION_LOCK = 0x4D4B_0001
DEFAULT_POOL_SIZE = 10
# games whose log's last entry a store remembers (then it forgets them all, and the
# next append of each takes the locked way once)
REMEMBERED_HEADS = 10_000
# the tables in an order that satisfies their foreign keys (for copies and backups)
TABLES = (
    "games",
    "seats",
    "actions",
    "snapshots",
    "interactions",
    "notification_prefs",
    "reminders",
    "outbox",
    "votes",
    "ballots",
    "digests",
    "away",
    "ratings",
    "rated_games",
    "stats_hidden",
    "rematches",
)
# not copied: `duty_claims` (which running process holds a duty means nothing in a copy)


def _seat_changes(first: int, source: str = "") -> str:
    """`SET ... FROM ... WHERE ...` of an UPDATE of seats that writes the seats given
    as one array per column (`_seat_arrays`) from parameter `first` on, and, in the
    FROM list, `source` too (a CTE the update depends on)."""
    n = iter(range(first, first + 10))
    arrays = ", ".join(
        f"${next(n)}::{kind}[]"
        for kind in ("bigint", "bigint", "bigint", "text", "bigint", "bigint")
        + ("bigint",) * 3
        + ("text",)
    )
    return (
        "SET user_id = u.user_id, colour = u.colour, team = u.team,"
        " substitute_id = u.substitute_id, autopilot = u.autopilot, ai = u.ai,"
        " skip_turn = u.skip_turn, name = u.name"
        f" FROM {source}unnest({arrays}) AS u (game_id, seat, user_id, colour, team,"
        " substitute_id, autopilot, ai, skip_turn, name)"
        " WHERE seats.game_id = u.game_id AND seats.seat = u.seat"
    )


# a game with everything a load needs, in one statement (see `PostgresStore.load_game`)
_LOAD_GAME = (
    f"SELECT {', '.join('g.' + c.strip() for c in GAME_COLUMNS.split(','))},"
    " (SELECT array_agg(s ORDER BY s.seat) FROM seats s WHERE s.game_id = g.id) AS seats,"
    " sn.seq AS snapshot_seq, sn.state, sn.chain AS snapshot_chain, sn.digest,"
    " (SELECT array_agg(a ORDER BY a.seq) FROM actions a"
    " WHERE a.game_id = g.id AND a.seq > COALESCE(sn.seq, 0)) AS later,"
    " log.entries, log.last, log.chain AS log_chain"
    " FROM games g LEFT JOIN snapshots sn ON sn.game_id = g.id"
    " CROSS JOIN LATERAL (SELECT COUNT(*) AS entries, MAX(seq) AS last,"
    " MAX(CASE WHEN seq = COALESCE(sn.seq, -1) THEN chain END) AS chain"
    " FROM actions WHERE game_id = g.id) log"
    " WHERE g.id = $1"
)
# the game's row locked, with its status and the log's last entry (seq, chain value)
_LOCK_GAME_AND_LOG = (
    "SELECT g.status, a.seq, a.chain FROM games g LEFT JOIN LATERAL"
    " (SELECT seq, chain FROM actions WHERE game_id = g.id ORDER BY seq DESC LIMIT 1) a"
    " ON TRUE WHERE g.id = $1 FOR UPDATE OF g"
)
# one log entry ($1-$10), the interaction that caused it ($11-$15, none if $11 is
# NULL), the snapshot after it ($16 state, $17 digest; its chain value is the entry's),
# the game's new status ($18, NULL: unchanged) and the messages the action makes owed
# (kinds $19, payloads $20, due times $21), in one statement that returns their ids
# one log entry ($1-$10), the interaction that caused it ($11-$15, none if $11 is
# NULL), the snapshot after it ($16 state, $17 digest; its chain value is the entry's),
# the game's new status ($18, NULL: unchanged) and the messages the action makes owed
# (kinds $19, payloads $20, due times $21), in one statement, guarded: nothing is
# written unless the game is active and its log ends at $2 - 1 with the chain value
# $22 (NULL: not checked, for the first entry or under the game's lock); with the
# seats awaited (if $23: $24-$28, one array per column, rows of
# seats in $29 awaited anew) and the seats changed ($30-$39, `_seat_arrays`). Returns
# whether it wrote, and the owed messages' ids.
_APPEND_AT_ONCE = (
    "WITH g AS ("
    "UPDATE games SET status = COALESCE($18::text, status), updated_at = $5"
    " WHERE id = $1 AND status = 'active'"
    " AND COALESCE((SELECT MAX(seq) FROM actions WHERE game_id = $1), 0) = $2 - 1"
    " AND ($22::text IS NULL OR (SELECT chain FROM actions WHERE game_id = $1 AND seq = $2 - 1)"
    " = $22::text) RETURNING id"
    "), a AS ("
    f"INSERT INTO actions ({ACTION_COLUMNS})"
    " SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 FROM g"
    "), i AS ("
    "INSERT INTO interactions (interaction_id, game_id, seq, result, created_at)"
    " SELECT $11::bigint, $12::bigint, $13::bigint, $14::text, $15::float8 FROM g"
    " WHERE $11::bigint IS NOT NULL"
    "), s AS ("
    "INSERT INTO snapshots (game_id, seq, state, chain, digest)"
    " SELECT $1, $2, $16, $10, $17 FROM g"
    " ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, state = excluded.state,"
    " chain = excluded.chain, digest = excluded.digest WHERE excluded.seq >= snapshots.seq"
    "), o AS ("
    "INSERT INTO outbox (game_id, seq, kind, payload, created_at, due_at)"
    " SELECT $1, $2, m.kind, m.payload, $5, m.due_at"
    " FROM g, unnest($19::text[], $20::text[], $21::float8[]) WITH ORDINALITY"
    " AS m (kind, payload, due_at, n) ORDER BY m.n RETURNING id"
    "), gone AS ("
    "DELETE FROM reminders WHERE $23::boolean AND game_id = $1"
    " AND NOT (seat = ANY($24::bigint[])) AND EXISTS (SELECT 1 FROM g)"
    "), awaited AS ("
    f"INSERT INTO reminders ({REMINDER_COLUMNS})"
    " SELECT $1, w.seat, w.since, w.next_at, w.missed, w.muted"
    " FROM g, unnest($24::bigint[], $25::float8[], $26::float8[], $27::bigint[],"
    " $28::bigint[]) AS w (seat, since, next_at, missed, muted) WHERE $23::boolean"
    " ON CONFLICT (game_id, seat) DO UPDATE SET waiting_since = excluded.waiting_since,"
    " next_at = excluded.next_at, missed = excluded.missed,"
    " muted_for_turn = excluded.muted_for_turn WHERE reminders.seat = ANY($29::bigint[])"
    f"), changed AS (UPDATE seats {_seat_changes(30, 'g, ')}"
    ") SELECT EXISTS (SELECT 1 FROM g) AS wrote, (SELECT array_agg(id ORDER BY id) FROM o) AS ids"
)


def postgres_statements(migration: Migration) -> list[str]:
    """A SQLite migration's statements as PostgreSQL runs them: `id INTEGER PRIMARY KEY`
    becomes an identity column, every other INTEGER a BIGINT (Discord ids need 64 bits),
    REAL a DOUBLE PRECISION (Unix seconds to the microsecond), and `WITHOUT ROWID` goes.
    Statements that fill old SQLite logs through SQLite-only helpers (temporary tables
    and the `mk_` functions) are left out: a PostgreSQL database never held such a log.
    A new migration written in the common SQL of both (ALTER TABLE ... ADD COLUMN,
    CREATE INDEX, UPDATE) needs nothing more."""
    out = []
    temporary: set[str] = set()
    for statement in migration.statements:
        made = re.search(r"\bCREATE TEMP TABLE (\w+)", statement)
        if made:
            temporary.add(made.group(1))
        words = set(re.findall(r"\w+", statement))
        if made or words & temporary or re.search(r"\btemp\.|\bmk_\w+\(", statement):
            continue
        sql = re.sub(r"\bid INTEGER PRIMARY KEY\b", "id BIGINT GENERATED BY DEFAULT AS IDENTITY"
                     " PRIMARY KEY", statement)  # fmt: skip
        sql = re.sub(r"\bINTEGER\b", "BIGINT", sql)
        sql = re.sub(r"\bREAL\b", "DOUBLE PRECISION", sql)
        sql = re.sub(r"\)\s*WITHOUT ROWID", ")", sql)
        out.append(sql)
    return out


def redact(url: str) -> str:
    """The database URL without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    user = f"{parts.username}:***@" if parts.username else ":***@"
    return urlunsplit(parts._replace(netloc=user + host))


def _columns(append: Append, chain: str | None) -> tuple[Any, ...]:
    """Parameters $1-$21 of `_APPEND_AT_ONCE`, the entry having the chain
    value `chain` (None over a damaged log: then the snapshot gets no digest either,
    and the next load checks it)."""
    snapshot, at = append.snapshot, append.action.created_at
    digest = None if chain is None else state_digest(snapshot.seq, chain, snapshot.state)
    return (
        *sql.action_params(append.action, chain),
        *_interaction_row(append.interaction),
        snapshot.state,
        digest,
        append.status,
        [m.kind for m in append.owed],
        [m.payload for m in append.owed],
        [ts(m.due_at or at) for m in append.owed],
    )


def _conflict(append: Append, exc: asyncpg.UniqueViolationError, last: int) -> ConflictError:
    """A key's refusal as the store's conflict: the interaction was handled, or the log
    moved on."""
    if append.interaction is not None and exc.constraint_name == "interactions_pkey":
        return DuplicateInteractionError(append.interaction.interaction_id)
    return SeqConflictError(append.action.game_id, append.action.seq, last)


async def _append_guarded(
    conn: Conn, append: Append, chain: str | None, previous: str | None
) -> Row:
    """Run `_APPEND_AT_ONCE`: the entry with the chain value `chain`, written only if
    the log still ends with the chain value `previous` (None: not checked)."""
    awaited = append.awaited()
    return await conn.fetchrow(
        _APPEND_AT_ONCE,
        *_columns(append, chain),
        None if append.action.seq == 1 else previous,
        awaited is not None,
        *_awaited_rows(awaited or ()),
        sorted(set(append.renew)),
        *_seat_arrays(append.seats),
    )


class _Tx:
    """A write transaction on a connection of the pool (`Tx`)."""

    def __init__(self, conn: Conn) -> None:
        self.conn = conn

    async def rows(self, statement: str, *params: Any) -> list[Row]:
        rows: list[Row] = await self.conn.fetch(statement, *params)
        return rows

    async def run(self, statement: str, *params: Any) -> int:
        return _count(await self.conn.execute(statement, *params))

    async def many(self, statement: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            await self.conn.executemany(statement, rows)


class PostgresStore(Store):
    """A `Store` in a PostgreSQL database, reached through a pool of connections."""

    dialect = Dialect(locks=True)

    def __init__(
        self, url: str, *, pool_size: int = DEFAULT_POOL_SIZE, read_only: bool = False
    ) -> None:
        self.url = url
        self.where = redact(url)
        # read-only: for checks beside running bots; never migrates, and every
        # transaction is read-only on the server's side too
        self.read_only = read_only
        self._pool_size = pool_size
        self._pool: Any = None
        # the log's last entry of games this process loaded or appended to lately (seq,
        # chain value): an append then needs no lock first (`_append_at_once`)
        self._heads: dict[int, tuple[int, str | None]] = {}

    # --- lifecycle -------------------------------------------------------------------

    async def open(self) -> None:
        if self._pool is not None:
            return
        try:
            pool = await asyncpg.create_pool(
                self.url,
                min_size=1,
                max_size=self._pool_size,
                server_settings={
                    "synchronous_commit": "on",
                    "application_name": "mountain-king-bot",
                    "default_transaction_read_only": "on" if self.read_only else "off",
                },
                reset=_keep_session,
            )
        except (OSError, ValueError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise StoreUnusableError(
                f"The database {self.where} cannot be reached ({exc}); nothing was written."
            ) from exc
        try:
            # refuse a newer database before anything is written to it
            async with pool.acquire() as conn:
                found = await _schema_version(conn)
            if found > LATEST_VERSION:
                raise SchemaTooNewError(self.where, found, LATEST_VERSION)
            self._pool = pool
            if not self.read_only:
                await self.migrate()
            elif found < LATEST_VERSION:
                raise StoreUnusableError(
                    f"The database {self.where} has schema version {found}; start the bot"
                    f" once to bring it to {LATEST_VERSION}."
                )
        except BaseException:
            self._pool = None
            await pool.close()
            raise

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()

    async def schema_version(self) -> int:
        async with self._conn() as conn:
            return await _schema_version(conn)

    async def migrate(self) -> list[int]:
        applied: list[int] = []
        async with self._transaction() as conn:
            # one process migrates at a time; the others wait, then find nothing to do
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await conn.execute(f"CREATE TABLE IF NOT EXISTS {SCHEMA_TABLE} (version BIGINT)")
            found = await _schema_version(conn)
            if found > LATEST_VERSION:
                raise SchemaTooNewError(self.where, found, LATEST_VERSION)
            for migration in MIGRATIONS:
                if migration.version <= found:
                    continue
                for statement in postgres_statements(migration):
                    await conn.execute(statement)
                applied.append(migration.version)
            if applied:
                await conn.execute(f"DELETE FROM {SCHEMA_TABLE}")
                await conn.execute(f"INSERT INTO {SCHEMA_TABLE} VALUES ($1)", applied[-1])
        return applied

    # --- running work ----------------------------------------------------------------

    async def _rows(self, statement: str, *params: Any) -> list[Row]:
        """The rows of one statement (its own transaction)."""
        with _faults(self.where):
            async with self._conn() as conn:
                rows: list[Row] = await conn.fetch(statement, *params)
        return rows

    async def _write(self, work: Callable[[Tx], Awaitable[T]]) -> T:
        async with self._transaction() as conn:
            return await work(_Tx(conn))

    def transaction(self) -> AbstractAsyncContextManager[Conn]:
        """A write transaction on one connection of the pool, for tools that read and
        write rows themselves (the move from SQLite: bot/store/transfer.py)."""
        return self._transaction()

    def _pool_or_raise(self) -> Any:
        if self._pool is None:
            raise StoreError(f"The store {self.where} is not open.")
        return self._pool

    @asynccontextmanager
    async def _conn(self) -> AsyncIterator[Conn]:
        """A connection of the pool, for one statement (its own transaction)."""
        async with self._pool_or_raise().acquire() as conn:
            yield conn

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Conn]:
        """A write transaction. A full disk, a size limit or a read-only database rolls
        it back and becomes a `StoreFullError` or `StoreReadOnlyError`: nothing stored."""
        with _faults(self.where):
            async with self._pool_or_raise().acquire() as conn, conn.transaction():
                yield conn

    # --- what PostgreSQL does its own way: the load, the appends and the backup -------

    async def load_game(self, game_id: int) -> StoredGame | None:
        # one statement (one snapshot of the database, one round trip): the game, its
        # seats, the snapshot, the log after it and, in one pass over the game's keys,
        # the log's count (a gap shows as fewer entries than the last seq) and its
        # chain value where the snapshot stands; the seats and the log as records of
        # their tables' row types, read by name
        rows = await self._rows(_LOAD_GAME, game_id)
        if not rows:
            return None
        stored = sql.stored_game(rows[0], rows[0]["seats"] or (), rows[0]["later"] or ())
        later, last = stored.later_actions, stored.last_seq
        if later and later[-1].seq == last:
            self._remember_head(game_id, last, later[-1].chain)
        elif stored.snapshot is not None and stored.snapshot.seq == last:
            self._remember_head(game_id, last, stored.log_chain)
        return stored

    async def _append(self, append: Append) -> list[int]:
        ids = await self._append_at_once(append)
        return ids if ids is not None else await self._append_locked(append)

    async def _append_at_once(self, append: Append) -> list[int] | None:
        """The append in one statement (one round trip, its own transaction), when this
        process knows the log's last entry (from the load that came before): the
        statement stores nothing unless the game is active and its log still ends where
        this process saw it, and the log's key refuses a racing append of the same seq.
        None (nothing written): the log is not as remembered; the locked way decides."""
        action = append.action
        game_id = action.game_id
        known = self._heads.get(game_id)
        if known is None or known[0] != action.seq - 1 or known[1] is None:
            return None
        chain = append.chain(known[1])
        try:
            with _faults(self.where):
                async with self._conn() as conn:
                    done = await _append_guarded(conn, append, chain, known[1])
        except asyncpg.UniqueViolationError as exc:
            self._heads.pop(game_id, None)
            raise _conflict(append, exc, action.seq - 1) from exc
        if not done["wrote"]:
            self._heads.pop(game_id, None)
            return None
        self._remember_head(game_id, action.seq, chain)
        return [int(i) for i in done["ids"] or ()]

    async def _append_locked(self, append: Append) -> list[int]:
        """The append under the game's row lock, with its exact errors."""
        action = append.action
        game_id = action.game_id
        async with self._transaction() as conn:
            # the game's row lock: racing appends of one game, from any process, queue
            # here; with it, the log's last entry (its seq and chain value)
            head = await conn.fetchrow(_LOCK_GAME_AND_LOG, game_id)
            found = None if head is None else str(head["status"])
            if found != "active":
                raise StatusConflictError(game_id, found, "active")
            last = int(head["seq"] or 0)
            if action.seq != last + 1:
                raise SeqConflictError(game_id, action.seq, last)
            chain = append.chain(head["chain"])
            try:
                done = await _append_guarded(conn, append, chain, None)
            except asyncpg.UniqueViolationError as exc:
                raise _conflict(append, exc, last) from exc
            if not done["wrote"]:  # not while the lock is held: the log's word is final
                raise SeqConflictError(game_id, action.seq, last)
        self._remember_head(game_id, action.seq, chain)
        return [int(i) for i in done["ids"] or ()]

    def _remember_head(self, game_id: int, seq: int, chain: str | None) -> None:
        if len(self._heads) >= REMEMBERED_HEADS:
            self._heads.clear()
        self._heads[game_id] = (seq, chain)

    async def backup(self, target: str | Path) -> None:
        """A consistent copy of the whole database in `target`, a new SQLite file of the
        same schema (one snapshot of every table): it opens with `SqliteStore`, so
        `python -m bot check` reads it and a host can run the bot from it."""
        destination = Path(target)
        if destination.exists():
            raise StoreError(f"{destination} already exists; choose a new file for the backup.")
        async with SqliteStore(destination):
            pass  # the file with the latest schema, empty
        try:
            copy = await aiosqlite.connect(destination, isolation_level=None)
            try:
                await copy.execute("BEGIN")
                async with (
                    self._pool_or_raise().acquire() as conn,
                    conn.transaction(isolation="repeatable_read", readonly=True),
                ):
                    for table in TABLES:
                        rows = await conn.fetch(f"SELECT * FROM {table}")
                        if not rows:
                            continue
                        columns = list(rows[0].keys())
                        marks = ", ".join("?" * len(columns))
                        await copy.executemany(
                            f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})",
                            [tuple(r) for r in rows],
                        )
                await copy.execute("COMMIT")
            finally:
                await copy.close()
        except BaseException:
            destination.unlink(missing_ok=True)
            for extra in ("-wal", "-shm"):
                Path(f"{destination}{extra}").unlink(missing_ok=True)
            raise


async def _keep_session(conn: Conn) -> None:
    """What the pool does to a connection handed back (after rolling back a transaction
    left open, which asyncpg always does): nothing. Its default runs four statements
    (`RESET ALL`, `CLOSE ALL`, `UNLISTEN *`, `pg_advisory_unlock_all()`) at every
    release, a round trip and most of the server's work per store call; the store sets
    no session state, opens no cursor, listens to nothing and takes only transaction
    advisory locks, so there is nothing to undo."""


async def _schema_version(conn: Conn) -> int:
    """The version in `mk_schema` (0: a database the bot never wrote)."""
    exists = await conn.fetchval("SELECT to_regclass($1) IS NOT NULL", SCHEMA_TABLE)
    if not exists:
        return 0
    value = await conn.fetchval(f"SELECT MAX(version) FROM {SCHEMA_TABLE}")
    return 0 if value is None else int(value)


def _count(status: str) -> int:
    """The row count of a command status such as `UPDATE 1` or `INSERT 0 3`."""
    return int(status.rsplit(" ", 1)[-1])


def _seat_arrays(seats: Sequence[SeatRecord]) -> tuple[list[Any], ...]:
    """Seats as one array per column, for `_seat_changes`."""
    return (
        [s.game_id for s in seats],
        [s.seat for s in seats],
        [s.user_id for s in seats],
        [s.colour for s in seats],
        [s.team for s in seats],
        [s.substitute_id for s in seats],
        [int(s.autopilot) for s in seats],
        [int(s.ai) for s in seats],
        [int(s.skip_turn) for s in seats],
        [s.name for s in seats],
    )


def _awaited_rows(
    waiting: Sequence[ReminderRecord],
) -> tuple[list[int], list[float], list[float], list[int], list[int]]:
    """The seats awaited as one array per column (seat, waiting since, next reminder,
    missed reminders, muted), one row per seat (the first given)."""
    rows = list({r.seat: r for r in reversed(waiting)}.values())
    return (
        [r.seat for r in rows],
        [ts(r.waiting_since) for r in rows],
        [ts(r.next_at) for r in rows],
        [r.missed for r in rows],
        [int(r.muted_for_turn) for r in rows],
    )


def _interaction_row(interaction: InteractionRecord | None) -> tuple[Any, ...]:
    """An interaction's columns for `_APPEND_AT_ONCE` ($11-$15: all NULL without one)."""
    if interaction is None:
        return (None, None, None, None, None)
    return (
        interaction.interaction_id,
        interaction.game_id,
        interaction.seq,
        interaction.result,
        ts(interaction.created_at),
    )


@contextmanager
def _faults(where: str) -> Iterator[None]:
    """A statement that failed for want of room or permission, or on damaged data
    (see `_fault`), becomes the store's error for it; any other passes as it is."""
    try:
        yield
    except asyncpg.PostgresError as exc:
        fault = _fault(where, exc)
        if fault is None:
            raise
        raise fault from exc


def _fault(where: str, exc: Exception) -> StoreError | None:
    """The store error for a write that failed for want of room or permission, or on
    damaged data (None: another error, raised as it is)."""
    if isinstance(exc, asyncpg.DiskFullError | asyncpg.InsufficientResourcesError):
        return StoreFullError(where, f"the database server is out of room ({exc})")
    if isinstance(exc, asyncpg.ProgramLimitExceededError):
        return StoreFullError(where, "a value is larger than the database allows")
    if isinstance(exc, asyncpg.ReadOnlySQLTransactionError):
        return StoreReadOnlyError(where, "the database accepts no writes (read-only)")
    if isinstance(exc, asyncpg.InsufficientPrivilegeError):
        return StoreReadOnlyError(where, "the bot's database user may not write to it")
    if isinstance(exc, asyncpg.DataCorruptedError | asyncpg.IndexCorruptedError):
        return StoreDamagedError(where, str(exc))
    return None
