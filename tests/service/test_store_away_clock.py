"""Migration 9: who is away until when, each seat's away mode, the games' away policy
and turn clock, each awaited seat's clock; on both stores, and from a file of
version 8."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from service_helpers import current_backend

from bot.store import LATEST_VERSION
from bot.store.migrations import MIGRATIONS

COLUMNS = {
    "away": "user_id, began_at, ends_at",
    "seats": "away",
    "games": "away_policy, clock_seconds, clock_policy",
    "reminders": "clock_since, clock_due, clock_warn, clock_stage",
}


async def test_migration_9_adds_away_and_the_clock(tmp_path: Path) -> None:
    async with current_backend().make(tmp_path) as store:
        assert LATEST_VERSION >= 9
        for table, columns in COLUMNS.items():
            assert await store._rows(f"SELECT {columns} FROM {table}") == []


@pytest.mark.sqlite_only
async def test_a_file_of_version_8_gets_the_defaults(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    db = sqlite3.connect(path, isolation_level=None)
    for migration in MIGRATIONS:
        if migration.version <= 8:
            for statement in migration.statements:
                if "mk_" not in statement and "chain_fill" not in statement:
                    db.execute(statement)
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
