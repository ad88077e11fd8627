"""A SQLite file the store has already migrated, copied to a test's new database path
before the store opens it (`copy_migrated`): the store's first open then finds the
schema up to date (about 7 ms of CPU instead of 40 for the migrations).

The template is made once a test process by the store's own code: `SqliteStore` opened
on a new file and closed again, its WAL checkpointed into the file first, so the file
holds everything and a copy is exactly what the store makes of a new path
(tests/service/test_sqlite_template.py compares the two: same schema, version and rows).
`Backend.store_at` (tests/service/service_helpers.py, unless the test is marked
`empty_database`) and the bot harness's `make_bot` (tests/bot/bot_harness.py) use it;
tests of a new file itself (its first creation, its migration, its PRAGMAs) open their
file without it."""

from __future__ import annotations

import asyncio
import os
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bot.store.sqlite import SqliteStore

# what SQLite keeps beside a database: a copy is put only where none of these is
SIDE_FILES = ("-wal", "-shm", "-journal")

_lock = threading.Lock()
_template: bytes | None = None


def migrated_bytes() -> bytes:
    """The bytes of a new file the store has opened and closed (made at the first call,
    in a thread of its own: callers may be inside a running event loop)."""
    global _template
    with _lock:
        if _template is None:
            with tempfile.TemporaryDirectory(prefix="mk-sqlite-template-") as folder:
                path = Path(folder) / "template.db"
                with ThreadPoolExecutor(1) as pool:
                    pool.submit(lambda: asyncio.run(_migrate(path))).result()
                wal = Path(f"{path}-wal")
                assert not wal.exists() or wal.stat().st_size == 0, "the WAL was not folded in"
                _template = path.read_bytes()
        return _template


async def _migrate(path: Path) -> None:
    async with SqliteStore(path) as store:
        # everything into the main file (closing the last connection does it too)
        await store._on_writer(lambda db: db.execute("PRAGMA wal_checkpoint(TRUNCATE)"))


def copy_migrated(path: str | Path) -> bool:
    """Put a copy of the migrated template at `path` when nothing is there yet (no file,
    nor a -wal, -shm or -journal file beside it) and its folder takes files; True when
    copied. A path in use (a test that opens its own file again finds its own data)
    and one the store is to refuse (a folder, a missing or read-only folder) are left
    as they are. The copy appears whole: written beside it, then linked to `path`,
    never over a file another process made meanwhile."""
    if str(path) == ":memory:":
        return False
    path = Path(path)
    if not path.parent.is_dir() or any(
        os.path.lexists(f"{path}{suffix}") for suffix in ("", *SIDE_FILES)
    ):
        return False
    data = migrated_bytes()
    partial = path.with_name(f".{path.name}.{os.getpid()}-{threading.get_ident()}.template")
    try:
        # the mode SQLite gives a file it creates
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except OSError:
        return False  # a folder this process may not write in: the store says so itself
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.link(partial, path)
    except FileExistsError:
        return False
    finally:
        partial.unlink(missing_ok=True)
    return True
