"""Moving a SQLite database into PostgreSQL: every row of every table, as it is.

The copy reads a private snapshot of the SQLite file (SQLite's online backup into a
temporary file, brought up to the latest schema there), so the source file is only
ever read, even while a bot still writes to it, and a file of an older schema moves
as well as a new one. The target is written in one transaction: a copy that fails
half-way leaves the target as it was.

Tables and columns are read from the two schemas, not listed here: the same numbered
migrations built both, so every table a future migration adds moves too (but the
scheduler's duty leases, `LEFT_OUT`). Tables go in
the order of their foreign keys; each identity column's counter is moved past the
highest id copied, so new rows never collide with copied ones.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.errors import StoreError
from bot.store.postgres import PostgresStore

# rows read from SQLite and sent to PostgreSQL at a time
CHUNK = 5_000
# the bot's own bookkeeping table in PostgreSQL (SQLite keeps it in a PRAGMA)
SCHEMA_TABLES = ("mk_schema",)
# not moved: which running process holds a scheduler duty means nothing to another
# database (the processes that start on it claim their duties anew)
LEFT_OUT = ("duty_claims",)


class TargetNotEmptyError(StoreError):
    """The PostgreSQL database already holds rows; nothing was copied."""

    def __init__(self, where: str, games: int, tables: list[str]) -> None:
        held = (
            f"{games} game{'' if games == 1 else 's'}" if games else "rows in " + ", ".join(tables)
        )
        super().__init__(
            f"The database {where} already holds {held}; nothing was copied. Add --replace"
            " to delete what it holds and copy again."
        )
        self.games = games


@dataclass(frozen=True, slots=True)
class Table:
    """A table both databases have: its name and the columns copied, with the
    PostgreSQL type of each (how a SQLite value is converted)."""

    name: str
    columns: tuple[str, ...]
    types: tuple[str, ...]


async def snapshot_copy(source: Path, destination: Path) -> None:
    """A consistent copy of the SQLite file `source` in the new file `destination`,
    read through a read-only connection (SQLite's online backup: one snapshot, even
    while a bot writes to the source)."""
    if not source.is_file():
        raise StoreError(f"There is no SQLite database file {source}.")
    uri = f"{source.resolve().as_uri()}?mode=ro"
    try:
        reader = await aiosqlite.connect(uri, uri=True)
    except sqlite3.Error as exc:
        raise StoreError(f"The SQLite file {source} cannot be opened ({exc}).") from exc
    try:
        # the backup writes the copy from the reader's thread
        copy = await aiosqlite.connect(destination, check_same_thread=False)
        try:
            await reader.backup(copy)
        finally:
            await copy.close()
    except sqlite3.Error as exc:
        raise StoreError(f"The SQLite file {source} cannot be read ({exc}).") from exc
    finally:
        await reader.close()


async def sqlite_tables(db: aiosqlite.Connection) -> dict[str, list[str]]:
    """The SQLite file's tables (SQLite's own left out) in an order that satisfies
    their foreign keys, each with its columns."""
    names = [
        str(r["name"])
        for r in await db.execute_fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table'"
            " AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
        )
    ]
    needs = {
        name: {
            str(r["table"]) for r in await db.execute_fetchall(f'PRAGMA foreign_key_list("{name}")')
        }
        - {name}
        for name in names
    }
    ordered: list[str] = []
    while len(ordered) < len(names):
        ready = [n for n in names if n not in ordered and needs[n] <= set(ordered)]
        if not ready:  # a cycle: cannot happen with this schema, but never loop forever
            ready = [n for n in names if n not in ordered]
        ordered += ready
    return {
        name: [str(r["name"]) for r in await db.execute_fetchall(f'PRAGMA table_info("{name}")')]
        for name in ordered
    }


async def postgres_tables(conn: Any) -> dict[str, dict[str, str]]:
    """The PostgreSQL database's tables (the bot's schema version table left out), each
    with its columns and their types."""
    rows = await conn.fetch(
        "SELECT table_name, column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
    )
    tables: dict[str, dict[str, str]] = {}
    for table, column, kind in rows:
        if table not in SCHEMA_TABLES:
            tables.setdefault(str(table), {})[str(column)] = str(kind)
    return tables


def common_tables(
    source: dict[str, list[str]], target: dict[str, dict[str, str]]
) -> tuple[list[Table], list[str]]:
    """The tables to copy (in the source's foreign-key order, the columns both have),
    and a sentence for each table or column only one side has."""
    tables, problems = [], []
    for name, columns in source.items():
        if name in LEFT_OUT:
            continue
        if name not in target:
            problems.append(f"table {name}: only in the SQLite file, not copied")
            continue
        shared = [c for c in columns if c in target[name]]
        for column in columns:
            if column not in target[name]:
                problems.append(f"table {name}: column {column} is not in PostgreSQL, not copied")
        tables.append(Table(name, tuple(shared), tuple(target[name][c] for c in shared)))
    for name in target:
        if name not in source and name not in LEFT_OUT:
            problems.append(f"table {name}: only in PostgreSQL, left empty")
    return tables, problems


def convert(table: Table, row: sqlite3.Row) -> tuple[Any, ...]:
    """A SQLite row as PostgreSQL stores it: integers for BIGINT columns, floats for
    DOUBLE PRECISION, text for TEXT (bytes written in a text column, damage, become
    text with U+FFFD in their place, as the SQLite store reads them; so does a NUL
    character, which PostgreSQL's text cannot hold)."""
    out: list[Any] = []
    for kind, value in zip(table.types, (row[c] for c in table.columns), strict=True):
        if value is None:
            out.append(None)
        elif kind == "bigint":
            out.append(int(value))
        elif kind == "double precision":
            out.append(float(value))
        elif kind == "text":
            text = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
            out.append(text.replace("\x00", "\ufffd"))
        else:
            out.append(value)
    return tuple(out)


async def read_chunks(
    db: aiosqlite.Connection, table: Table
) -> AsyncIterator[list[tuple[Any, ...]]]:
    columns = ", ".join(f'"{c}"' for c in table.columns)
    async with db.execute(f'SELECT {columns} FROM "{table.name}"') as cursor:
        while rows := await cursor.fetchmany(CHUNK):
            yield [convert(table, r) for r in rows]


async def copy_into(
    source: Path, target: PostgresStore, *, replace: bool = False
) -> tuple[dict[str, int], list[str]]:
    """Copy every row of the SQLite file `source` (a private copy at the latest schema,
    see `snapshot_copy`) into `target`, in one transaction. Returns the rows copied per
    table and a sentence per table or column only one side has. Raises
    `TargetNotEmptyError` if the target holds any row and `replace` is not set (then
    everything it holds is deleted first, in the same transaction)."""
    # read one chunk at a time, on aiosqlite's thread
    db = await aiosqlite.connect(source)
    db.row_factory = aiosqlite.Row
    try:
        source_tables = await sqlite_tables(db)
        copied: dict[str, int] = {}
        async with target.transaction() as conn:
            tables, problems = common_tables(source_tables, await postgres_tables(conn))
            await _make_room(conn, target.where, [t.name for t in tables], replace=replace)
            for table in tables:
                copied[table.name] = 0
                async for rows in read_chunks(db, table):
                    await conn.copy_records_to_table(
                        table.name, records=rows, columns=list(table.columns)
                    )
                    copied[table.name] += len(rows)
            await _advance_identities(conn)
        return copied, problems
    finally:
        await db.close()


async def _make_room(conn: Any, where: str, tables: list[str], *, replace: bool) -> None:
    """Refuse a target holding rows, or (`replace`) empty it."""
    if replace:
        if tables:
            names = ", ".join(f'"{t}"' for t in tables)
            await conn.execute(f"TRUNCATE {names} RESTART IDENTITY CASCADE")
        return
    held = [t for t in tables if await conn.fetchval(f'SELECT EXISTS (SELECT 1 FROM "{t}")')]
    if held:
        games = int(await conn.fetchval("SELECT COUNT(*) FROM games")) if "games" in held else 0
        raise TargetNotEmptyError(where, games, held)


async def _advance_identities(conn: Any) -> None:
    """Move each identity column's counter past the highest id now stored."""
    rows = await conn.fetch(
        "SELECT table_name, column_name FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND is_identity = 'YES'"
    )
    for table, column in rows:
        await conn.execute(
            f"SELECT setval(pg_get_serial_sequence($1, $2),"
            f' COALESCE(MAX("{column}"), 1), MAX("{column}") IS NOT NULL) FROM "{table}"',
            f'"{table}"',
            str(column),
        )


async def row_counts(conn: Any, tables: list[str]) -> dict[str, int]:
    """How many rows each PostgreSQL table holds."""
    return {t: int(await conn.fetchval(f'SELECT COUNT(*) FROM "{t}"')) for t in tables}
