"""Migration 9: who is away until when, each seat's away mode, the games' away policy
and turn clock, each awaited seat's clock; on both stores, and from a file of
version 8."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from service_helpers import current_backend

from bot.store import LATEST_VERSION, sql
from bot.store.migrations import MIGRATIONS

COLUMNS = {
    "away": "user_id, began_at, ends_at",
    "seats": "away",
    "games": "away_policy, clock_seconds, clock_policy",
    "reminders": "clock_since, clock_due, clock_warn, clock_stage",
}


def build(db: sqlite3.Connection, *, upto: int) -> None:
    """The schema of the migrations up to `upto`, on a plain connection (a new file
    has no log for migration 4's SQLite functions to fill)."""
    for migration in MIGRATIONS:
        if migration.version <= upto:
            for statement in migration.statements:
                if "mk_" not in statement and "chain_fill" not in statement:
                    db.execute(statement)


@pytest.mark.empty_database
async def test_migration_9_adds_away_and_the_clock(tmp_path: Path) -> None:
    async with current_backend().make(tmp_path) as store:
        assert LATEST_VERSION >= 9
        for table, columns in COLUMNS.items():
            assert await store._rows(f"SELECT {columns} FROM {table}") == []


@pytest.mark.sqlite_only
async def test_a_file_of_version_8_gets_the_defaults(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    db = sqlite3.connect(path, isolation_level=None)
    build(db, upto=8)
    db.execute("PRAGMA user_version = 8")
    db.execute(
        "INSERT INTO games (rules, config, status, creator_id, reminder_seconds, created_at,"
        " updated_at) VALUES ('mk', '{}', 'open', 1, 60, 0, 0)"
    )
    db.close()
    async with current_backend().store_at(path) as store:
        assert await store.schema_version() == LATEST_VERSION
        rows = await store._rows("SELECT away_policy, clock_seconds, clock_policy FROM games")
        assert [tuple(r) for r in rows] == [("wait", None, "vote")]


@pytest.mark.sqlite_only
def test_the_scheduler_finds_clocks_and_aways_through_their_indexes() -> None:
    """A round costs nothing while no game has a clock and nobody is away."""
    db = sqlite3.connect(":memory:")
    build(db, upto=LATEST_VERSION)
    plans = {}
    for name in ("CLOCKS_DUE", "AWAYS_DUE", "AWAYS_UNTOLD"):
        statement = sql.for_sqlite(sql.Dialect(locks=False).fill(getattr(sql, name)))
        params = (0, 10)[-statement.count("?") :]
        plans[name] = [r[3] for r in db.execute("EXPLAIN QUERY PLAN " + statement, params)]
    assert plans["CLOCKS_DUE"][0] == "SCAN g USING INDEX games_with_clock"
    assert plans["AWAYS_DUE"] == ["SEARCH away USING INDEX away_by_end (ends_at<?)"]
    assert plans["AWAYS_UNTOLD"][0].startswith("SCAN a")
    assert not any(step.startswith("SCAN s") for step in plans["AWAYS_UNTOLD"])
