"""What a driver of the store supplies (`Driver`: connections, a read, a write
transaction `Tx`, its own load, append and backup), and the writes several of the
store's methods and the drivers' appends share: seats, the snapshot, the seats
awaited and the owed messages.

Statements are written once, in asyncpg's `$1` placeholders (bot/store/sql.py); each
driver's `Tx` runs them on its database.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, Self, TypeVar

from bot.store import sql
from bot.store.integrity import genesis, next_chain, state_digest
from bot.store.records import (
    ActionRecord,
    GameStatus,
    InteractionRecord,
    NewOwed,
    ReminderRecord,
    SeatRecord,
    SnapshotRecord,
    StoredGame,
)
from bot.store.sql import Dialect, Row, ts

T = TypeVar("T")

# owed messages inserted by one statement (6 parameters each, well under both limits)
OWED_PER_STATEMENT = 1_000


class Tx(Protocol):
    """A write transaction's connection, as the store's methods use it (statements in
    `$1` placeholders; the driver translates them for its database)."""

    async def rows(self, statement: str, *params: Any) -> list[Row]:
        """The rows the statement returns."""
        ...

    async def run(self, statement: str, *params: Any) -> int:
        """Run a statement; the rows it changed."""
        ...

    async def many(self, statement: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run a statement once per row of parameters."""
        ...


async def one(tx: Tx, statement: str, *params: Any) -> Row | None:
    rows = await tx.rows(statement, *params)
    return rows[0] if rows else None


@dataclass(frozen=True, slots=True)
class Append:
    """One `append_action`'s arguments, as the drivers' appends write them."""

    action: ActionRecord
    snapshot: SnapshotRecord
    interaction: InteractionRecord | None
    status: GameStatus | None
    waiting: Sequence[ReminderRecord] | None
    renew: Collection[int]
    seats: Sequence[SeatRecord]
    owed: Sequence[NewOwed]

    @classmethod
    def of(cls, action: ActionRecord, snapshot: SnapshotRecord, *rest: Any) -> Append:
        if snapshot.game_id != action.game_id or snapshot.seq != action.seq:
            raise ValueError("the snapshot must be the state after the appended action")
        return cls(action, snapshot, *rest)

    def chain(self, previous: str | None) -> str | None:
        """The entry's chain value after the entry before it, whose chain value is
        `previous` (the game's genesis value before the first entry; None over a
        damaged log: then the snapshot gets no digest either, and the next load
        checks it)."""
        if self.action.seq == 1:
            previous = genesis(self.action.game_id)
        if previous is None:
            return None
        return next_chain(previous, self.action.seq, self.action.seat, self.action.notation)

    def awaited(self) -> Sequence[ReminderRecord] | None:
        """The seats awaited after it (None: unchanged; none once the game ends)."""
        if self.status is not None and self.status != "active":
            return ()
        return self.waiting


class Driver(ABC):
    """What a driver of the store supplies (see bot/store/base.py)."""

    # the driver's SQL words (locking clauses, lists as parameters)
    dialect: Dialect

    @abstractmethod
    async def open(self) -> None:
        """Connect and bring the schema up to date; raises `SchemaTooNewError` for a
        database written by a newer bot."""

    @abstractmethod
    async def close(self) -> None:
        """Close the connection (idempotent)."""

    @abstractmethod
    async def migrate(self) -> list[int]:
        """Apply pending migrations; returns the versions applied (none: a no-op)."""

    @abstractmethod
    async def schema_version(self) -> int:
        """The schema version the database holds."""

    @abstractmethod
    async def _rows(self, statement: str, *params: Any) -> list[Row]:
        """The rows of one read statement (one consistent snapshot by itself)."""

    @abstractmethod
    async def _write(self, work: Callable[[Tx], Awaitable[T]]) -> T:
        """Run `work` in a write transaction; returns once it is committed. A full disk,
        a size limit or a read-only database rolls it back and becomes a
        `StoreFullError` or `StoreReadOnlyError`: nothing stored."""

    @abstractmethod
    async def load_game(self, game_id: int) -> StoredGame | None:
        """The game, its seats, its latest snapshot and the log after it, read in one
        consistent snapshot of the database."""

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
        """Append one log entry and, in the same transaction, the snapshot after it, the
        interaction that caused it, the new status, the seats now awaited (None:
        unchanged; rows of seats still awaited are kept as they are, except those of
        `renew`, awaited anew), changed seats and the messages the action makes owed.
        Returns the owed messages' ids, in order.

        Raises `SeqConflictError` unless `action.seq` is exactly one past the log,
        `StatusConflictError` unless the game is active and `DuplicateInteractionError`
        if the interaction was already handled. Nothing is written then."""
        append = Append.of(action, snapshot, interaction, status, waiting, renew, seats, owed)
        return await self._append(append)

    @abstractmethod
    async def _append(self, append: Append) -> list[int]:
        """`append_action`, as the driver stores it."""

    @abstractmethod
    async def backup(self, target: str | Path) -> None:
        """Copy the whole database, consistently, into a new file `target` while other
        connections may go on writing."""

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()


async def seats_of(tx: Tx, game_id: int) -> list[SeatRecord]:
    return [sql.seat_from(r) for r in await tx.rows(sql.SEATS, game_id)]


async def update_seats(tx: Tx, seats: Sequence[SeatRecord]) -> None:
    if seats:
        await tx.many(sql.UPDATE_SEAT, [sql.seat_update_params(s) for s in seats])


async def put_snapshot(
    tx: Tx, snapshot: SnapshotRecord, chain: str | None, *, forward_only: bool
) -> None:
    """Store the snapshot with its chain value and digest (a snapshot over a damaged
    log, with no chain value, gets no digest either: the next load checks it)."""
    digest = None if chain is None else state_digest(snapshot.seq, chain, snapshot.state)
    await tx.run(
        sql.PUT_SNAPSHOT + (sql.FORWARD_ONLY if forward_only else ""),
        snapshot.game_id,
        snapshot.seq,
        snapshot.state,
        chain,
        digest,
    )


async def replace_waiting(
    tx: Tx, game_id: int, waiting: Sequence[ReminderRecord], renew: Collection[int] = ()
) -> None:
    """Make `waiting` the seats the game awaits: seats awaited before and now keep
    their row (their waiting time, missed reminders and mute stay), except those of
    `renew` (awaited anew), whose row is written afresh."""
    kept = {r.seat for r in waiting} - set(renew)
    held = [int(r["seat"]) for r in await tx.rows(sql.AWAITED_SEATS, game_id)]
    await tx.many(sql.FORGET_REMINDER, [(game_id, s) for s in held if s not in kept])
    await tx.many(sql.AWAIT, [sql.reminder_params(r) for r in waiting])


async def insert_owed(
    tx: Tx, game_id: int, seq: int | None, owed: Sequence[NewOwed], at: datetime
) -> list[int]:
    """Store a game's owed messages (`seq` None: at the log's last entry); their ids,
    in the order given."""
    if not owed:
        return []
    if seq is None:
        row = await one(tx, sql.LAST_ENTRY, game_id)
        seq = 0 if row is None else int(row["seq"])
    ids: list[int] = []
    for statement, params in owed_statements([(game_id, seq, m, at) for m in owed]):
        ids += [int(r["id"]) for r in await tx.rows(statement, *params)]
    return sorted(ids)


def owed_statements(
    owed: Sequence[tuple[int, int, NewOwed, datetime]],
) -> list[tuple[str, list[Any]]]:
    """The statements that store owed messages (game, seq, message, when), as few as
    the parameter limit allows; each returns the ids and games of its rows (ids count
    up as the rows go in, in the order given)."""
    statements = []
    for start in range(0, len(owed), OWED_PER_STATEMENT):
        part = owed[start : start + OWED_PER_STATEMENT]
        params = [
            value
            for game_id, seq, m, at in part
            for value in (game_id, seq, m.kind, m.payload, ts(at), ts(m.due_at or at))
        ]
        marks = ", ".join(
            "(" + ", ".join(f"${6 * n + k}" for k in range(1, 7)) + ")" for n in range(len(part))
        )
        statements.append((f"{sql.OWED_INTO}{marks} RETURNING id, game_id", params))
    return statements
