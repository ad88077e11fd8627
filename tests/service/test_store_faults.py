"""Store faults get one sentence: an empty database file is never re-initialised, a
read-only file or folder is refused at open, and a full disk (or a size limit) is a
`StorageFullError` with nothing stored; the store works again once space returns."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import aiosqlite
import pytest
from service_checks import check_game
from service_helpers import open_service, play_moves, raw, read_only, record_for, started_game

from bot.service import StorageFullError
from bot.store import SqliteStore, StoreFullError, StoreUnusableError
from bot.store import sqlite as sqlite_module
from bot.store.records import DigestRecord

# the SQLite file itself: its PRAGMAs, keys and faults of the disk under it
pytestmark = pytest.mark.sqlite_only


def log_rows(path: Path) -> list[tuple[int, int, str]]:
    db = raw(path)
    rows = db.execute("SELECT game_id, seq, notation FROM actions ORDER BY game_id, seq").fetchall()
    db.close()
    return rows


async def limit_pages(store: SqliteStore) -> None:
    """Let the file grow by no page more (SQLite's SQLITE_FULL, as on a full disk)."""

    async def limit(db: aiosqlite.Connection) -> None:
        (pages,) = (await db.execute_fetchall("PRAGMA page_count"))[0]
        await db.execute(f"PRAGMA max_page_count = {pages}")

    await store._on_writer(limit)


async def unlimit_pages(store: SqliteStore) -> None:
    await store._on_writer(lambda db: db.execute("PRAGMA max_page_count = 1073741823"))


async def test_a_new_path_is_initialised(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    async with SqliteStore(path) as store:
        assert await store.game_ids() == []
    assert path.stat().st_size > 0


async def test_an_empty_file_is_refused_not_initialised(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        await started_game(service)
    path.write_bytes(b"")  # truncated: every game gone
    for name in ("g.db-wal", "g.db-shm"):
        (tmp_path / name).unlink(missing_ok=True)
    with pytest.raises(StoreUnusableError, match=r"is empty \(0 bytes\)") as caught:
        await SqliteStore(path).open()
    assert "\n" not in str(caught.value)
    assert path.stat().st_size == 0
    assert not (tmp_path / "g.db-wal").exists()


async def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    path.write_bytes(b"this is not a database, just some text" * 100)
    with pytest.raises(StoreUnusableError, match="cannot be read"):
        await SqliteStore(path).open()


async def test_a_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreUnusableError, match="is a folder"):
        await SqliteStore(tmp_path).open()


async def test_a_read_only_file_is_refused_at_open(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    async with SqliteStore(path):
        pass
    before = path.read_bytes()
    with read_only(path), pytest.raises(StoreUnusableError, match="read-only") as caught:
        await SqliteStore(path).open()
    assert "\n" not in str(caught.value)
    assert path.read_bytes() == before


async def test_a_read_only_folder_is_refused_at_open(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    async with SqliteStore(folder / "g.db"):
        pass
    with read_only(folder), pytest.raises(StoreUnusableError, match=r"folder .* is read-only"):
        await SqliteStore(folder / "g.db").open()


async def test_a_full_disk_refuses_the_move_and_the_store_works_once_space_returns(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        info = await started_game(service)
        moves = record_for(info).moves
        await play_moves(service, info, moves[:6])
        before = log_rows(path)
        store = service.store
        assert isinstance(store, SqliteStore)
        # the file may not grow by a single page: SQLITE_FULL, as on a full disk
        await limit_pages(store)
        refused = 0
        with caplog.at_level(logging.WARNING):
            for move in moves[6:30]:
                try:
                    await play_moves(service, info, [move])
                except StorageFullError as exc:
                    refused += 1
                    assert "could not save your move" in exc.message
                    assert "nothing was changed" in exc.message
                    break
        assert refused == 1, "the page limit never filled"
        assert f"game {info.id}: a change could not be saved" in caplog.text
        assert "full" in caplog.text
        stored = log_rows(path)
        failed_at = len(stored) - len(before) + 6
        await unlimit_pages(store)  # space returns
        await play_moves(service, info, moves[failed_at : failed_at + 5])
        assert await check_game(service, info.id) == failed_at + 5
        assert log_rows(path)[: len(stored)] == stored


async def test_a_full_disk_during_a_seat_write_is_a_store_error_with_nothing_stored(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.db"
    async with SqliteStore(path) as store:
        await limit_pages(store)
        with pytest.raises(StoreFullError, match="could not be written: the disk is full"):
            for user in range(2000):  # digest rows until a new page is needed
                await store.put_digest(DigestRecord(user, None, None))
        assert not await store._on_writer(lambda db: db.in_transaction)
        await unlimit_pages(store)
        await store.put_digest(DigestRecord(99999, None, None))
        assert await store.digest(99999) is not None


def test_a_value_too_big_is_a_store_full_error() -> None:
    """A real SQLITE_TOOBIG from SQLite (a length limit) maps to the same sentence."""
    db = sqlite3.connect(":memory:")
    db.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, 1000)
    db.execute("CREATE TABLE t (x TEXT)")
    with pytest.raises(sqlite3.DataError) as caught:
        db.execute("INSERT INTO t VALUES (?)", ("x" * 5000,))
    fault = sqlite_module._fault("g.db", caught.value)
    assert isinstance(fault, StoreFullError)
    assert "larger than the database allows" in str(fault)
