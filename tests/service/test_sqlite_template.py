"""The migrated SQLite file the tests copy to a new database path
(tests/sqlite_template.py) is what the store itself makes of a new path: the same
schema, schema version, file settings and rows, so the copy can never drift from the
migrations. A path already in use, and a test marked `empty_database`, get no copy."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from service_helpers import Backend, open_service, raw, started_game

from bot.store import SqliteStore
from bot.store.migrations import LATEST_VERSION
from tests.sqlite_template import copy_migrated

pytestmark = pytest.mark.sqlite_only

# what a file keeps besides its rows (journal_mode: WAL is written in the file)
FILE_PRAGMAS = (
    "user_version",
    "application_id",
    "journal_mode",
    "page_size",
    "auto_vacuum",
    "encoding",
    "freelist_count",
    "page_count",
)


def contents(path: Path) -> dict[str, object]:
    """Every row of `sqlite_master` and of every table, and the file's settings."""
    db = raw(path)
    try:
        master = db.execute("SELECT * FROM sqlite_master ORDER BY type, name").fetchall()
        tables = [row[1] for row in master if row[0] == "table"]
        found: dict[str, object] = {"sqlite_master": master}
        for name in FILE_PRAGMAS:
            found[f"PRAGMA {name}"] = db.execute(f"PRAGMA {name}").fetchall()
        for table in tables:
            found[table] = db.execute(f'SELECT * FROM "{table}" ORDER BY 1').fetchall()
        return found
    finally:
        db.close()


async def test_a_copy_is_what_the_store_makes_of_a_new_path(tmp_path: Path) -> None:
    fresh, copied = tmp_path / "fresh.db", tmp_path / "copied.db"
    async with SqliteStore(fresh) as store:
        assert await store.schema_version() == LATEST_VERSION
    assert copy_migrated(copied)
    made = contents(fresh)
    assert made["PRAGMA user_version"] == [(LATEST_VERSION,)]
    master = made["sqlite_master"]
    assert isinstance(master, list) and len(master) > 10
    assert contents(copied) == made
    async with SqliteStore(copied) as store:
        assert await store.migrate() == []  # nothing left to do
    assert contents(copied) == made  # and opening it changed nothing


async def test_a_path_in_use_gets_no_copy(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        info = await started_game(service)
    before = path.read_bytes()
    assert not copy_migrated(path)
    assert path.read_bytes() == before
    async with open_service(path) as service:  # the test's own data, found again
        assert (await service.info(info.id)).id == info.id
    # nor where SQLite has left a file of the path's beside it
    for suffix in ("-wal", "-shm", "-journal"):
        side = tmp_path / f"new{suffix}"
        side.write_bytes(b"")
        assert not copy_migrated(tmp_path / "new")
        assert not (tmp_path / "new").exists()
        side.unlink()
    # nor a folder, a path in a missing folder, or the in-memory database
    assert not copy_migrated(tmp_path)
    assert not copy_migrated(tmp_path / "missing" / "g.db")
    assert not (tmp_path / "missing").exists()
    assert not copy_migrated(":memory:")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.db"]


def test_a_new_path_starts_as_a_copy(backend: Backend, tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    backend.make(tmp_path)
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone() == (LATEST_VERSION,)
    db.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.db"]


@pytest.mark.empty_database
def test_a_test_marked_empty_database_gets_no_copy(backend: Backend, tmp_path: Path) -> None:
    backend.make(tmp_path)
    assert list(tmp_path.iterdir()) == []
