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
from collections.abc import AsyncIterator, Callable, Collection, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import aiosqlite
import asyncpg

from bot.store import sql
from bot.store.base import Store
from bot.store.errors import (
    ConflictError,
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
from bot.store.migrations import LATEST_VERSION, MIGRATIONS, Migration
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
    CLAIM,
    CLAIM_IF,
    GAME_COLUMNS,
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
    game_from,
    interaction_from,
    maybe_ts,
    owed_from,
    prefs_from,
    reminder_from,
    seat_from,
    ts,
    vote_from,
)
from bot.store.sqlite import SqliteStore

# asyncpg ships no type information: its connections and rows are `Any` here
Conn = Any
Row = Any

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
    "messages",
    "notification_prefs",
    "reminders",
    "outbox",
    "votes",
    "ballots",
    "digests",
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
_APPEND = (
    "WITH a AS ("
    f"INSERT INTO actions ({ACTION_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"
    "), i AS ("
    "INSERT INTO interactions (interaction_id, game_id, seq, result, created_at)"
    " SELECT $11::bigint, $12::bigint, $13::bigint, $14::text, $15::float8"
    " WHERE $11::bigint IS NOT NULL"
    "), s AS ("
    "INSERT INTO snapshots (game_id, seq, state, chain, digest) VALUES ($1, $2, $16, $10, $17)"
    " ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, state = excluded.state,"
    " chain = excluded.chain, digest = excluded.digest WHERE excluded.seq >= snapshots.seq"
    "), o AS ("
    "INSERT INTO outbox (game_id, seq, kind, payload, created_at, due_at)"
    " SELECT $1, $2, m.kind, m.payload, $5, m.due_at"
    " FROM unnest($19::text[], $20::text[], $21::float8[]) WITH ORDINALITY"
    " AS m (kind, payload, due_at, n) ORDER BY m.n RETURNING id"
    ") UPDATE games SET status = COALESCE($18::text, status), updated_at = $5 WHERE id = $1"
    " RETURNING (SELECT array_agg(id ORDER BY id) FROM o)"
)

# `_APPEND`'s work as one statement of its own, guarded: nothing is written unless the
# game is active and its log ends at $2 - 1 with the chain value $22 (NULL for the
# first entry); with the seats awaited (if $23: $24-$28, one array per column, rows of
# seats in $29 awaited anew) and the seats changed ($30-$39, `_seat_arrays`). Returns
# whether it wrote, and the owed messages' ids.
_APPEND_AT_ONCE = (
    "WITH g AS ("
    "UPDATE games SET status = COALESCE($18::text, status), updated_at = $5"
    " WHERE id = $1 AND status = 'active'"
    " AND COALESCE((SELECT MAX(seq) FROM actions WHERE game_id = $1), 0) = $2 - 1"
    " AND ($2 = 1 OR (SELECT chain FROM actions WHERE game_id = $1 AND seq = $2 - 1)"
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


@dataclass(frozen=True, slots=True)
class _Append:
    """One `append_action`: what both ways of storing it write."""

    action: ActionRecord
    snapshot: SnapshotRecord
    interaction: InteractionRecord | None
    status: GameStatus | None
    waiting: Sequence[ReminderRecord] | None
    renew: Collection[int]
    seats: Sequence[SeatRecord]
    owed: Sequence[NewOwed]

    def columns(self, chain: str | None) -> tuple[Any, ...]:
        """Parameters $1-$21 of `_APPEND` and `_APPEND_AT_ONCE`, the entry having the
        chain value `chain` (None over a damaged log: then the snapshot gets no digest
        either, and the next load checks it)."""
        snapshot, at = self.snapshot, self.action.created_at
        digest = None if chain is None else state_digest(snapshot.seq, chain, snapshot.state)
        return (
            *action_params(self.action, chain),
            *_interaction_row(self.interaction),
            snapshot.state,
            digest,
            self.status,
            [m.kind for m in self.owed],
            [m.payload for m in self.owed],
            [ts(m.due_at or at) for m in self.owed],
        )

    def awaited(self) -> Sequence[ReminderRecord] | None:
        """The seats awaited after it (None: unchanged; none once the game ends)."""
        if self.status is not None and self.status != "active":
            return ()
        return self.waiting

    def conflict(self, exc: asyncpg.UniqueViolationError, last: int) -> ConflictError:
        """A key's refusal as the store's conflict: the interaction was handled, or the
        log moved on."""
        if self.interaction is not None and exc.constraint_name == "interactions_pkey":
            return DuplicateInteractionError(self.interaction.interaction_id)
        return SeqConflictError(self.action.game_id, self.action.seq, last)


class PostgresStore(Store):
    """A `Store` in a PostgreSQL database, reached through a pool of connections."""

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
        async with self._write() as conn:
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

    # --- games and seats -------------------------------------------------------------

    async def create_game(self, game: NewGame, *, seat_creator: bool) -> GameRecord:
        at = ts(game.created_at)
        async with self._write() as conn:
            row = await conn.fetchrow(
                "INSERT INTO games (rules, config, status, creator_id, reminder_seconds,"
                " guild_id, channel_id, thread_id, created_at, updated_at, language)"
                " VALUES ($1, $2, 'open', $3, $4, $5, $6, $7, $8, $8, $9)"
                f" RETURNING {GAME_COLUMNS}",
                game.rules,
                game.config,
                game.creator_id,
                game.reminder_seconds,
                game.guild_id,
                game.channel_id,
                game.thread_id,
                at,
                game.language,
            )
            if seat_creator:
                await conn.execute(
                    "INSERT INTO seats (game_id, seat, user_id, joined_at, name)"
                    " VALUES ($1, 0, $2, $3, $4)",
                    row["id"],
                    game.creator_id,
                    at,
                    game.creator_name,
                )
        return game_from(row)

    async def game(self, game_id: int) -> GameRecord | None:
        row = await self._fetchrow(sql.GAME, game_id)
        return None if row is None else game_from(row)

    async def game_in_thread(self, thread_id: int) -> GameRecord | None:
        row = await self._fetchrow(sql.GAME_IN_THREAD, thread_id)
        return None if row is None else game_from(row)

    async def games_of_user(
        self, user_id: int, statuses: Collection[GameStatus]
    ) -> list[GameRecord]:
        wanted = list(statuses)
        if not wanted:
            return []
        async with self._conn() as conn:
            rows = await conn.fetch(
                f"SELECT {GAME_COLUMNS} FROM games WHERE status = ANY($1::text[]) AND id IN"
                " (SELECT game_id FROM seats WHERE user_id = $2 OR substitute_id = $2)"
                " ORDER BY id",
                wanted,
                user_id,
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
        await self._change(sql.SET_PLACE, guild_id, channel_id, thread_id, ts(at), game_id)

    async def set_language(self, game_id: int, language: str, *, at: datetime) -> bool:
        return await self._change(sql.SET_LANGUAGE, language, ts(at), game_id) == 1

    async def discard_game(self, game_id: int) -> bool:
        return await self._change(sql.DISCARD_GAME, game_id) == 1

    async def set_status(
        self, game_id: int, status: GameStatus, *, only_from: Collection[GameStatus], at: datetime
    ) -> bool:
        allowed = list(only_from)
        if not allowed:
            return False
        async with self._write() as conn:
            done = await conn.execute(
                "UPDATE games SET status = $1, updated_at = $2"
                " WHERE id = $3 AND status = ANY($4::text[])",
                status,
                ts(at),
                game_id,
                allowed,
            )
            changed = _count(done) == 1
            if changed and status != "active":
                await conn.execute("DELETE FROM reminders WHERE game_id = $1", game_id)
        return changed

    async def seats(self, game_id: int) -> list[SeatRecord]:
        async with self._conn() as conn:
            return await _seats(conn, game_id)

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
        async with self._write() as conn:
            status = await _lock_game(conn, game_id)
            seats = await _seats(conn, game_id)
            seated = user_id is not None and any(s.user_id == user_id for s in seats)
            if status != "open" or len(seats) >= limit or seated:
                return None
            seat = SeatRecord(game_id, len(seats), user_id, at, ai=ai, name=name)
            await _insert_seats(conn, [seat])
            await _touch(conn, game_id, at)
        return seat

    async def remove_seat(self, game_id: int, seat: int, *, at: datetime) -> bool:
        async with self._write() as conn:
            if await _lock_game(conn, game_id) != "open":
                return False
            seats = await _seats(conn, game_id)
            if not any(s.seat == seat for s in seats):
                return False
            # renumber by rewriting: shifting keys in place could collide mid-update
            kept = [s for s in seats if s.seat != seat]
            await conn.execute("DELETE FROM seats WHERE game_id = $1", game_id)
            await _insert_seats(conn, [replace(s, seat=i) for i, s in enumerate(kept)])
            await _touch(conn, game_id, at)
        return True

    async def put_seat(
        self,
        seat: SeatRecord,
        *,
        at: datetime,
        next_at: datetime | None = None,
        owed: Sequence[NewOwed] = (),
    ) -> None:
        async with self._write() as conn:
            await _lock_game(conn, seat.game_id)
            await _update_seats(conn, [seat])
            if next_at is not None:
                await _move_reminder(conn, seat.game_id, seat.seat, next_at)
            await _touch(conn, seat.game_id, at)
            await _insert_owed(conn, seat.game_id, await _last_seq(conn, seat.game_id), owed, at)

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
        async with self._write() as conn:
            done = await conn.execute(
                "UPDATE games SET status = 'active', seed = $1, updated_at = $2"
                " WHERE id = $3 AND status = 'open'",
                seed,
                ts(at),
                game_id,
            )
            if _count(done) != 1:
                return False
            await _update_seats(conn, seats)
            await _put_snapshot(conn, snapshot, genesis(game_id))
            await _replace_waiting(conn, game_id, waiting)
            await _insert_owed(conn, game_id, 0, owed, at)
        return True

    # --- the action log ----------------------------------------------------------------

    async def load_game(self, game_id: int) -> StoredGame | None:
        # one statement (one snapshot of the database, one round trip): the game, its
        # seats, the snapshot, the log after it and, in one pass over the game's keys,
        # the log's count (a gap shows as fewer entries than the last seq) and its
        # chain value where the snapshot stands
        async with self._conn() as conn:
            row = await conn.fetchrow(_LOAD_GAME, game_id)
        if row is None:
            return None
        # the seats and the log as records of their tables' row types, read by name
        seats = tuple(seat_from(r) for r in row["seats"] or ())
        snapshot = None
        if row["snapshot_seq"] is not None:
            snapshot = SnapshotRecord(
                game_id, row["snapshot_seq"], row["state"], row["snapshot_chain"], row["digest"]
            )
        later = tuple(action_from(r) for r in row["later"] or ())
        entries, last = int(row["entries"]), int(row["last"] or 0)
        log_chain = (
            genesis(game_id) if snapshot is not None and snapshot.seq == 0 else row["log_chain"]
        )
        if later and later[-1].seq == last:
            self._remember_head(game_id, last, later[-1].chain)
        elif snapshot is not None and snapshot.seq == last:
            self._remember_head(game_id, last, log_chain)
        return StoredGame(game_from(row), seats, snapshot, later, last, entries, log_chain)

    async def actions(self, game_id: int, *, after: int = 0) -> list[ActionRecord]:
        async with self._conn() as conn:
            return await _actions(conn, game_id, after)

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
        ids = await self._append_at_once(append)
        return ids if ids is not None else await self._append_locked(append)

    async def _append_at_once(self, append: _Append) -> list[int] | None:
        """The append in one statement (one round trip, its own transaction), when this
        process knows the log's last entry (from the load that came before): the
        statement stores nothing unless the game is active and its log still ends where
        this process saw it, and the log's key refuses a racing append of the same seq.
        None (nothing written): the log is not as remembered; the locked way decides."""
        action = append.action
        game_id = action.game_id
        head = self._heads.get(game_id)
        if head is None or head[0] != action.seq - 1 or head[1] is None:
            return None
        chain = next_chain(head[1], action.seq, action.seat, action.notation)
        awaited = append.awaited()
        try:
            async with self._conn() as conn:
                done = await conn.fetchrow(
                    _APPEND_AT_ONCE,
                    *append.columns(chain),
                    None if action.seq == 1 else head[1],
                    awaited is not None,
                    *_awaited_rows(awaited or ()),
                    sorted(set(append.renew)),
                    *_seat_arrays(append.seats),
                )
        except asyncpg.UniqueViolationError as exc:
            self._heads.pop(game_id, None)
            raise append.conflict(exc, action.seq - 1) from exc
        except asyncpg.PostgresError as exc:
            fault = _fault(self.where, exc)
            if fault is None:
                raise
            raise fault from exc
        if not done["wrote"]:
            self._heads.pop(game_id, None)
            return None
        self._remember_head(game_id, action.seq, chain)
        return [int(i) for i in done["ids"] or ()]

    async def _append_locked(self, append: _Append) -> list[int]:
        """The append under the game's row lock, with its exact errors."""
        action = append.action
        game_id = action.game_id
        async with self._write() as conn:
            # the game's row lock: racing appends of one game, from any process, queue
            # here; with it, the log's last entry (its seq and chain value)
            head = await conn.fetchrow(_LOCK_GAME_AND_LOG, game_id)
            found = None if head is None else str(head["status"])
            if found != "active":
                raise StatusConflictError(game_id, found, "active")
            last = int(head["seq"] or 0)
            if action.seq != last + 1:
                raise SeqConflictError(game_id, action.seq, last)
            previous = genesis(game_id) if last == 0 else head["chain"]
            chain = (
                None
                if previous is None
                else next_chain(previous, action.seq, action.seat, action.notation)
            )
            try:
                ids = await conn.fetchval(_APPEND, *append.columns(chain))
            except asyncpg.UniqueViolationError as exc:
                raise append.conflict(exc, last) from exc
            awaited = append.awaited()
            if awaited is not None:
                await _replace_waiting(conn, game_id, awaited, renew=append.renew)
            await _update_seats(conn, append.seats)
        self._remember_head(game_id, action.seq, chain)
        return [int(i) for i in ids or ()]

    async def turn_actions(self, game_id: int, seat: int) -> list[ActionRecord]:
        return [action_from(r) for r in await self._fetch(sql.TURN_ACTIONS, game_id, seat)]

    async def put_snapshot(self, snapshot: SnapshotRecord) -> bool:
        async with self._write() as conn:
            await _lock_game(conn, snapshot.game_id)
            if await _last_seq(conn, snapshot.game_id) != snapshot.seq:
                return False
            chain = await _chain_at(conn, snapshot.game_id, snapshot.seq)
            await _put_snapshot(conn, snapshot, chain, forward_only=False)
            return True

    async def game_ids(self, *, started: bool = True) -> list[int]:
        where = " WHERE seed IS NOT NULL" if started else ""
        async with self._conn() as conn:
            rows = await conn.fetch(f"SELECT id FROM games{where} ORDER BY id")
        return [int(r["id"]) for r in rows]

    async def game_counts(self, guild_ids: Collection[int] | None = None) -> dict[GameStatus, int]:
        where, params = "", []
        if guild_ids is not None:
            where, params = " WHERE guild_id = ANY($1::bigint[])", [sorted(set(guild_ids))]
        async with self._conn() as conn:
            rows = await conn.fetch(
                f"SELECT status, COUNT(*) AS n FROM games{where} GROUP BY status", *params
            )
        return {r["status"]: int(r["n"]) for r in rows}

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
                async with self._read() as conn:
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

    # --- interactions ------------------------------------------------------------------

    async def interaction(self, interaction_id: int) -> InteractionRecord | None:
        row = await self._fetchrow(sql.INTERACTION, interaction_id)
        return None if row is None else interaction_from(row)

    async def prune_interactions(self, before: datetime) -> int:
        async with self._write() as conn:
            # rows another process is pruning right now are left to it
            done = await conn.execute(
                "DELETE FROM interactions WHERE interaction_id IN (SELECT interaction_id"
                " FROM interactions WHERE created_at < $1 FOR UPDATE SKIP LOCKED)",
                ts(before),
            )
        return _count(done)

    # --- messages, notification preferences, reminders --------------------------------

    async def put_message(self, message: MessageRecord) -> None:
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO messages (game_id, kind, channel_id, message_id)"
                " VALUES ($1, $2, $3, $4) ON CONFLICT (game_id, kind) DO UPDATE SET"
                " channel_id = excluded.channel_id, message_id = excluded.message_id",
                message.game_id,
                message.kind,
                message.channel_id,
                message.message_id,
            )

    async def messages(self, game_id: int) -> list[MessageRecord]:
        async with self._conn() as conn:
            rows = await conn.fetch(
                "SELECT game_id, kind, channel_id, message_id FROM messages WHERE game_id = $1"
                " ORDER BY kind",
                game_id,
            )
        return [
            MessageRecord(r["game_id"], r["kind"], r["channel_id"], r["message_id"]) for r in rows
        ]

    async def delete_message(self, game_id: int, kind: str) -> bool:
        async with self._write() as conn:
            done = await conn.execute(
                "DELETE FROM messages WHERE game_id = $1 AND kind = $2", game_id, kind
            )
        return _count(done) == 1

    async def notification_prefs(self, user_ids: Collection[int]) -> dict[int, NotificationPrefs]:
        ids = sorted(set(user_ids))
        if not ids:
            return {}
        async with self._conn() as conn:
            rows = await conn.fetch(
                f"SELECT {PREFS_COLUMNS} FROM notification_prefs WHERE user_id = ANY($1::bigint[])",
                ids,
            )
        return {r["user_id"]: prefs_from(r) for r in rows}

    async def put_notification_prefs(self, prefs: NotificationPrefs) -> None:
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO notification_prefs (user_id, dm_opt_in, quiet_start, quiet_end,"
                " timezone, language) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (user_id) DO"
                " UPDATE SET dm_opt_in = excluded.dm_opt_in, quiet_start = excluded.quiet_start,"
                " quiet_end = excluded.quiet_end, timezone = excluded.timezone,"
                " language = COALESCE(excluded.language, notification_prefs.language)",
                prefs.user_id,
                int(prefs.dm_opt_in),
                prefs.quiet_start,
                prefs.quiet_end,
                prefs.timezone,
                prefs.language,
            )

    async def put_language(self, user_id: int, language: str) -> None:
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO notification_prefs (user_id, language) VALUES ($1, $2)"
                " ON CONFLICT (user_id) DO UPDATE SET language = excluded.language",
                user_id,
                language,
            )

    async def reminders(self, game_id: int) -> list[ReminderRecord]:
        return [reminder_from(r) for r in await self._fetch(sql.REMINDERS, game_id)]

    async def due_reminders(self, now: datetime, *, limit: int) -> list[ReminderRecord]:
        return await self._awaited(now, limit, f"NOT {MACHINE_SEAT} AND r.muted_for_turn = 0")

    async def owed_moves(self, now: datetime, *, limit: int) -> list[ReminderRecord]:
        return await self._awaited(now, limit, MACHINE_SEAT)

    async def _awaited(self, now: datetime, limit: int, where: str) -> list[ReminderRecord]:
        columns = ", ".join(f"r.{c.strip()}" for c in REMINDER_COLUMNS.split(","))
        async with self._conn() as conn:
            # a reminder row another transaction is rescheduling right now is left out
            rows = await conn.fetch(
                f"SELECT {columns} FROM reminders r"
                " JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat"
                " JOIN games g ON g.id = r.game_id"
                f" WHERE r.next_at <= $1 AND g.status = 'active' AND {where}"
                " ORDER BY r.next_at, r.game_id, r.seat LIMIT $2"
                " FOR UPDATE OF r SKIP LOCKED",
                ts(now),
                limit,
            )
        return [reminder_from(r) for r in rows]

    async def put_reminder(
        self, reminder: ReminderRecord, *, claim: DutyClaim | None = None
    ) -> bool:
        async with self._write() as conn:
            if not await _holds(conn, claim):
                return False
            done = await conn.execute(
                "UPDATE reminders SET waiting_since = $1, next_at = $2, missed = $3,"
                " muted_for_turn = $4 WHERE game_id = $5 AND seat = $6",
                ts(reminder.waiting_since),
                ts(reminder.next_at),
                reminder.missed,
                int(reminder.muted_for_turn),
                reminder.game_id,
                reminder.seat,
            )
        return _count(done) == 1

    # --- owed messages -----------------------------------------------------------------

    async def owed_messages(
        self, now: datetime | None, *, game_id: int | None = None, limit: int = 100
    ) -> list[OwedMessage]:
        where, params = ["delivered_at IS NULL"], []
        if now is not None:
            params.append(ts(now))
            where.append(f"due_at <= ${len(params)}")
        if game_id is not None:
            params.append(game_id)
            where.append(f"game_id = ${len(params)}")
        params.append(limit)
        async with self._conn() as conn:
            # a message whose delivery another process is recording is left to it
            rows = await conn.fetch(
                f"SELECT {OWED_COLUMNS} FROM outbox WHERE {' AND '.join(where)}"
                f" ORDER BY id LIMIT ${len(params)} FOR UPDATE SKIP LOCKED",
                *params,
            )
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
        async with self._write() as conn:
            if not await _holds(conn, claim):
                return False
            done = await conn.execute(
                "UPDATE outbox SET delivered_at = $1, channel_id = $2, message_id = $3"
                " WHERE id = $4 AND delivered_at IS NULL",
                ts(at),
                channel_id,
                message_id,
                owed_id,
            )
        return _count(done) == 1

    async def last_delivered_message(self, game_id: int, channel_id: int) -> int | None:
        row = await self._fetchrow(sql.LAST_DELIVERED, game_id, channel_id)
        return None if row is None or row["id"] is None else int(row["id"])

    async def mark_tried(self, owed_ids: Collection[int], *, at: datetime) -> None:
        ids = sorted(set(owed_ids))
        if not ids:
            return
        async with self._write() as conn:
            await conn.execute(
                "UPDATE outbox SET tried_at = $1 WHERE id = ANY($2::bigint[])", ts(at), ids
            )

    async def mark_failed(self, owed_id: int, *, error: str, retry_at: datetime) -> int:
        async with self._write() as conn:
            value = await conn.fetchval(
                "UPDATE outbox SET attempts = attempts + 1, last_error = $1, due_at = $2"
                " WHERE id = $3 RETURNING attempts",
                error[:500],
                ts(retry_at),
                owed_id,
            )
        return 0 if value is None else int(value)

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
        async with self._write() as conn:
            await _lock_game(conn, game_id)
            # no target: either unique rule (one open vote a game, one vote a turn) holds
            row = await conn.fetchrow(
                "INSERT INTO votes (game_id, seat, turn_since, opened_at, deadline)"
                " VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING"
                f" RETURNING {VOTE_COLUMNS}",
                game_id,
                seat,
                ts(turn_since),
                ts(at),
                ts(deadline),
            )
            if row is None:
                return None
            seq = await _last_seq(conn, game_id)
            await _insert_owed(conn, game_id, seq, owed(int(row["id"])), at)
        return vote_from(row)

    async def vote(self, vote_id: int) -> VoteRecord | None:
        row = await self._fetchrow(sql.VOTE, vote_id)
        return None if row is None else vote_from(row)

    async def open_votes(self, *, game_id: int | None = None) -> list[VoteRecord]:
        where = "status = 'open'" + ("" if game_id is None else " AND game_id = $1")
        params = () if game_id is None else (game_id,)
        async with self._conn() as conn:
            # a vote another process is closing right now is left to it
            rows = await conn.fetch(
                f"SELECT {VOTE_COLUMNS} FROM votes WHERE {where} ORDER BY deadline, id"
                " FOR UPDATE SKIP LOCKED",
                *params,
            )
        return [vote_from(r) for r in rows]

    async def cast_ballot(
        self, ballot: BallotRecord, *, owed: Sequence[NewOwed] = ()
    ) -> list[BallotRecord] | None:
        async with self._write() as conn:
            row = await conn.fetchrow(
                "SELECT game_id, status FROM votes WHERE id = $1 FOR UPDATE", ballot.vote_id
            )
            if row is None or row["status"] != "open":
                return None
            await conn.execute(
                sql.PUT_BALLOT,
                ballot.vote_id,
                ballot.voter_id,
                ballot.choice,
                ts(ballot.cast_at),
            )
            game_id = int(row["game_id"])
            await _insert_owed(conn, game_id, await _last_seq(conn, game_id), owed, ballot.cast_at)
            return await _ballots(conn, ballot.vote_id)

    async def ballots(self, vote_id: int) -> list[BallotRecord]:
        async with self._conn() as conn:
            return await _ballots(conn, vote_id)

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
        async with self._write() as conn:
            value = await conn.fetchval("SELECT game_id FROM votes WHERE id = $1", vote_id)
            if value is None:
                return False
            game_id = int(value)
            # the game's row first, as every write of a game's rows: no two writers of one
            # game can each hold a row the other waits for
            await _lock_game(conn, game_id)
            done = await conn.execute(
                "UPDATE votes SET status = $1, decided_at = $2 WHERE id = $3 AND status = 'open'",
                status,
                ts(at),
                vote_id,
            )
            if _count(done) != 1:
                return False
            if seat is not None:
                await _update_seats(conn, [seat])
                if next_at is not None:
                    await _move_reminder(conn, game_id, seat.seat, next_at)
            await _insert_owed(conn, game_id, await _last_seq(conn, game_id), owed, at)
        return True

    async def set_vote_message(self, vote_id: int, channel_id: int, message_id: int) -> None:
        await self._change(sql.SET_VOTE_MESSAGE, channel_id, message_id, vote_id)

    # --- the daily digest ----------------------------------------------------------------

    async def digest(self, user_id: int) -> DigestRecord | None:
        row = await self._fetchrow(sql.DIGEST, user_id)
        return None if row is None else digest_from(row)

    async def put_digest(self, digest: DigestRecord) -> None:
        await self._change(
            sql.PUT_DIGEST, digest.user_id, maybe_ts(digest.due_at), maybe_ts(digest.sent_at)
        )

    async def due_digests(self, now: datetime, *, limit: int) -> list[DigestRecord]:
        async with self._conn() as conn:
            # a digest another process is claiming right now is left to it
            rows = await conn.fetch(
                f"{sql.DUE_DIGESTS} FOR UPDATE SKIP LOCKED",
                ts(now),
                limit,
            )
        return [digest_from(r) for r in rows]

    async def claim_digest(
        self, user_id: int, *, due_at: datetime, next_at: datetime, sent_at: datetime | None
    ) -> bool:
        async with self._write() as conn:
            # the row lock makes a second claimer wait, then find it no longer due
            done = await conn.execute(
                "UPDATE digests SET due_at = $1, sent_at = COALESCE($2, sent_at)"
                " WHERE user_id = $3 AND ABS(due_at - $4) < 0.001",
                ts(next_at),
                maybe_ts(sent_at),
                user_id,
                ts(due_at),
            )
        return _count(done) == 1

    # --- duty claims (several bot processes on one database) ---------------------------

    async def claim_duty(
        self, duty: str, owner: str, *, now: datetime, until: datetime
    ) -> DutyClaim | None:
        check_claim(owner, now, until)
        async with self._write() as conn:
            # a racing claimer of the same duty waits for the row's first writer, then
            # finds the lease taken: ON CONFLICT decides on the committed row
            done = await conn.execute(
                f"{CLAIM} ($1, $2, $3, $4){CLAIM_IF}", duty, owner, ts(now), ts(until)
            )
        return DutyClaim(duty, owner, until) if _count(done) == 1 else None

    async def release_duty(self, claim: DutyClaim, *, rest_until: datetime | None = None) -> bool:
        async with self._write() as conn:
            if rest_until is None:
                done = await conn.execute(
                    "DELETE FROM duty_claims WHERE duty = $1 AND claimed_by = $2",
                    claim.duty,
                    claim.owner,
                )
            else:
                done = await conn.execute(
                    "UPDATE duty_claims SET claimed_by = $1, lease_until = $2"
                    " WHERE duty = $3 AND claimed_by = $4",
                    RESTING,
                    ts(rest_until),
                    claim.duty,
                    claim.owner,
                )
        return _count(done) == 1

    async def duty_claims(self, now: datetime) -> list[DutyClaim]:
        return [claim_from(r) for r in await self._fetch(sql.DUTY_CLAIMS, ts(now))]

    async def prune_duty_claims(self, before: datetime) -> int:
        async with self._write() as conn:
            done = await conn.execute("DELETE FROM duty_claims WHERE lease_until < $1", ts(before))
        return _count(done)

    async def _fetch(self, statement: str, *args: Any) -> list[Row]:
        """The rows of one statement (its own transaction)."""
        async with self._conn() as conn:
            rows: list[Row] = await conn.fetch(statement, *args)
        return rows

    async def _fetchrow(self, statement: str, *args: Any) -> Row | None:
        async with self._conn() as conn:
            return await conn.fetchrow(statement, *args)

    async def _change(self, statement: str, *args: Any) -> int:
        """One writing statement in a write transaction; the rows it changed."""
        async with self._write() as conn:
            return _count(await conn.execute(statement, *args))

    def _remember_head(self, game_id: int, seq: int, chain: str | None) -> None:
        if len(self._heads) >= REMEMBERED_HEADS:
            self._heads.clear()
        self._heads[game_id] = (seq, chain)

    def transaction(self) -> AbstractAsyncContextManager[Conn]:
        """A write transaction on one connection of the pool, for tools that read and
        write rows themselves (the move from SQLite: bot/store/transfer.py)."""
        return self._write()

    # --- private helpers -------------------------------------------------------------

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
    async def _write(self) -> AsyncIterator[Conn]:
        """A write transaction. A full disk, a size limit or a read-only database rolls
        it back and becomes a `StoreFullError` or `StoreReadOnlyError`: nothing stored."""
        try:
            async with self._pool_or_raise().acquire() as conn, conn.transaction():
                yield conn
        except asyncpg.PostgresError as exc:
            fault = _fault(self.where, exc)
            if fault is None:
                raise
            raise fault from exc

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[Conn]:
        """A read transaction: several SELECTs see one consistent database."""
        async with (
            self._pool_or_raise().acquire() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            yield conn


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


async def _holds(conn: Conn, claim: DutyClaim | None) -> bool:
    """Whether the claim's owner still holds its duty (True without a claim). The row
    stays share-locked until the transaction ends, so a process taking the duty over
    waits for this done-mark to commit, and a done-mark that waited for a takeover sees
    the new holder and refuses."""
    if claim is None:
        return True
    found = await conn.fetchval(
        "SELECT 1 FROM duty_claims WHERE duty = $1 AND claimed_by = $2 FOR SHARE",
        claim.duty,
        claim.owner,
    )
    return found is not None


async def _lock_game(conn: Conn, game_id: int) -> str | None:
    """Lock the game's row until the transaction ends; its status (None: no such game)."""
    value = await conn.fetchval("SELECT status FROM games WHERE id = $1 FOR UPDATE", game_id)
    return None if value is None else str(value)


async def _last_seq(conn: Conn, game_id: int) -> int:
    value = await conn.fetchval("SELECT MAX(seq) FROM actions WHERE game_id = $1", game_id)
    return 0 if value is None else int(value)


async def _touch(conn: Conn, game_id: int, at: datetime) -> None:
    await conn.execute("UPDATE games SET updated_at = $1 WHERE id = $2", ts(at), game_id)


async def _seats(conn: Conn, game_id: int) -> list[SeatRecord]:
    return [seat_from(r) for r in await conn.fetch(sql.SEATS, game_id)]


async def _insert_seats(conn: Conn, seats: Sequence[SeatRecord]) -> None:
    if not seats:
        return
    await conn.executemany(
        f"INSERT INTO seats ({SEAT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        [
            (
                s.game_id,
                s.seat,
                s.user_id,
                ts(s.joined_at),
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


async def _update_seats(conn: Conn, seats: Sequence[SeatRecord]) -> None:
    if seats:
        await conn.execute(f"UPDATE seats {_seat_changes(1)}", *_seat_arrays(seats))


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


async def _move_reminder(conn: Conn, game_id: int, seat: int, next_at: datetime) -> None:
    await conn.execute(
        "UPDATE reminders SET next_at = $1 WHERE game_id = $2 AND seat = $3",
        ts(next_at),
        game_id,
        seat,
    )


async def _insert_owed(
    conn: Conn, game_id: int, seq: int, owed: Sequence[NewOwed], at: datetime
) -> list[int]:
    """Store the owed messages in one statement; their ids, in the order given (an
    identity column counts up as the rows go in, in the order of their ordinality)."""
    if not owed:
        return []
    rows = await conn.fetch(
        "INSERT INTO outbox (game_id, seq, kind, payload, created_at, due_at)"
        " SELECT $1, $2, o.kind, o.payload, $3, o.due_at"
        " FROM unnest($4::text[], $5::text[], $6::float8[]) WITH ORDINALITY"
        " AS o (kind, payload, due_at, n) ORDER BY o.n RETURNING id",
        game_id,
        seq,
        ts(at),
        [m.kind for m in owed],
        [m.payload for m in owed],
        [ts(m.due_at or at) for m in owed],
    )
    return sorted(int(r["id"]) for r in rows)


async def _ballots(conn: Conn, vote_id: int) -> list[BallotRecord]:
    return [ballot_from(r) for r in await conn.fetch(sql.BALLOTS, vote_id)]


async def _actions(conn: Conn, game_id: int, after: int) -> list[ActionRecord]:
    return [action_from(r) for r in await conn.fetch(sql.ACTIONS_AFTER, game_id, after)]


async def _put_snapshot(
    conn: Conn, snapshot: SnapshotRecord, chain: str | None, *, forward_only: bool = True
) -> None:
    """Store the snapshot with its chain value and digest (none over a damaged log)."""
    digest = None if chain is None else state_digest(snapshot.seq, chain, snapshot.state)
    only = " WHERE excluded.seq >= snapshots.seq" if forward_only else ""
    await conn.execute(
        "INSERT INTO snapshots (game_id, seq, state, chain, digest) VALUES ($1, $2, $3, $4, $5)"
        " ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, state = excluded.state,"
        f" chain = excluded.chain, digest = excluded.digest{only}",
        snapshot.game_id,
        snapshot.seq,
        snapshot.state,
        chain,
        digest,
    )


async def _chain_at(conn: Conn, game_id: int, seq: int) -> str | None:
    """The log's stored chain value after entry `seq` (the genesis value at 0)."""
    if seq == 0:
        return genesis(game_id)
    value = await conn.fetchval(
        "SELECT chain FROM actions WHERE game_id = $1 AND seq = $2", game_id, seq
    )
    return None if value is None else str(value)


async def _replace_waiting(
    conn: Conn, game_id: int, waiting: Sequence[ReminderRecord], *, renew: Collection[int] = ()
) -> None:
    """Make `waiting` the seats awaited, in one statement: the rows of other seats go;
    seats awaited before and now keep their row (its waiting time, missed reminders and
    mute), except those of `renew`, awaited anew, whose row is overwritten."""
    await conn.execute(
        "WITH gone AS (DELETE FROM reminders WHERE game_id = $1"
        " AND NOT (seat = ANY($2::bigint[])))"
        f" INSERT INTO reminders ({REMINDER_COLUMNS})"
        " SELECT $1, w.seat, w.since, w.next_at, w.missed, w.muted"
        " FROM unnest($2::bigint[], $3::float8[], $4::float8[], $5::bigint[], $6::bigint[])"
        " AS w (seat, since, next_at, missed, muted)"
        " ON CONFLICT (game_id, seat) DO UPDATE SET waiting_since = excluded.waiting_since,"
        " next_at = excluded.next_at, missed = excluded.missed,"
        " muted_for_turn = excluded.muted_for_turn WHERE reminders.seat = ANY($7::bigint[])",
        game_id,
        *_awaited_rows(waiting),
        sorted(set(renew)),
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
    """An interaction's columns for `_APPEND` ($11-$15: all NULL without one)."""
    if interaction is None:
        return (None, None, None, None, None)
    return (
        interaction.interaction_id,
        interaction.game_id,
        interaction.seq,
        interaction.result,
        ts(interaction.created_at),
    )


def _fault(where: str, exc: Exception) -> StoreError | None:
    """The store error for a write that failed for want of room or permission (None:
    another error, raised as it is)."""
    if isinstance(exc, asyncpg.DiskFullError | asyncpg.InsufficientResourcesError):
        return StoreFullError(where, f"the database server is out of room ({exc})")
    if isinstance(exc, asyncpg.ProgramLimitExceededError):
        return StoreFullError(where, "a value is larger than the database allows")
    if isinstance(exc, asyncpg.ReadOnlySQLTransactionError):
        return StoreReadOnlyError(where, "the database accepts no writes (read-only)")
    if isinstance(exc, asyncpg.InsufficientPrivilegeError):
        return StoreReadOnlyError(where, "the bot's database user may not write to it")
    return None
