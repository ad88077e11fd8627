"""The SQLite store's writer commits the writes that queued up together, in one
transaction, each in a savepoint: every caller hears of its own write only after that
commit, a write that fails is rolled back alone, and if the transaction as a whole
fails each write is run again alone so that each caller gets its own true answer.
Reads run beside the writer and never wait for it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiosqlite
import pytest
from service_helpers import START

from bot.store import ActionRecord, NewGame, SeqConflictError, SnapshotRecord, SqliteStore
from bot.store.group_commit import Job, Writer
from bot.store.records import DigestRecord

pytestmark = pytest.mark.sqlite_only


class Held:
    """Keeps the writer busy until `release`, so that the writes sent meanwhile queue
    up behind it (as they do behind a commit waiting for the disk)."""

    def __init__(self, store: SqliteStore) -> None:
        self.gate = asyncio.Event()
        self.job = asyncio.ensure_future(store._on_writer(lambda db: self.wait()))

    async def wait(self) -> bool:
        await asyncio.wait_for(self.gate.wait(), 10)
        return True

    async def release(self) -> None:
        self.gate.set()
        assert await self.job


def record_batches(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The size of every batch the writer commits together from now on."""
    sizes: list[int] = []
    together = Writer._together

    async def counting(writer: Writer, batch: list[Job]) -> Any:
        sizes.append(len(batch))
        return await together(writer, batch)

    monkeypatch.setattr(Writer, "_together", counting)
    return sizes


async def started_game(store: SqliteStore) -> int:
    game = await store.create_game(NewGame("test", "{}", 1, 60, START), seat_creator=True)
    assert await store.start_game(
        game.id, seed=1, seats=[], snapshot=SnapshotRecord(game.id, 0, "s0"), waiting=[], at=START
    )
    return game.id


async def test_writes_that_queue_up_are_committed_together_and_answered_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with SqliteStore(tmp_path / "g.db") as store:
        game_ids = [await started_game(store) for _ in range(3)]
        sizes = record_batches(monkeypatch)
        held = Held(store)
        appends = [
            asyncio.ensure_future(
                store.append_action(
                    ActionRecord(game_id, 1, 0, f"first of {game_id}", START),
                    SnapshotRecord(game_id, 1, "s1"),
                )
            )
            for game_id in game_ids
        ]
        # the same seq of the first game again: it loses, alone
        clash = asyncio.ensure_future(
            store.append_action(
                ActionRecord(game_ids[0], 1, 0, "second", START),
                SnapshotRecord(game_ids[0], 1, "s1 again"),
            )
        )
        digests = [
            asyncio.ensure_future(store.put_digest(DigestRecord(user, START, None)))
            for user in range(20)
        ]
        await asyncio.sleep(0.05)
        assert not any(f.done() for f in [*appends, clash, *digests])  # none answered yet
        await held.release()
        assert await asyncio.gather(*appends) == [[], [], []]
        with pytest.raises(SeqConflictError):
            await clash
        await asyncio.gather(*digests)
        assert sizes == [24]  # one transaction: one wait for the disk
        for game_id in game_ids:
            assert [a.notation for a in await store.actions(game_id)] == [f"first of {game_id}"]
        assert all([await store.digest(user) for user in range(20)])


async def test_when_the_shared_transaction_fails_each_write_runs_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def digest(user: int) -> Callable[[aiosqlite.Connection], Awaitable[int]]:
        async def work(db: aiosqlite.Connection) -> int:
            await db.execute("INSERT INTO digests (user_id) VALUES (?)", (user,))
            return user

        return work

    async def breaks_the_transaction(db: aiosqlite.Connection) -> None:
        await db.execute("INSERT INTO digests (user_id) VALUES (2)")
        await db.execute("ROLLBACK")  # as SQLite does by itself after some errors
        raise RuntimeError("the transaction is gone")

    async with SqliteStore(tmp_path / "g.db") as store:
        sizes = record_batches(monkeypatch)
        held = Held(store)
        first = asyncio.ensure_future(store._submit(digest(1)))
        broken = asyncio.ensure_future(store._submit(breaks_the_transaction))
        last = asyncio.ensure_future(store._submit(digest(3)))
        await asyncio.sleep(0.05)
        await held.release()
        assert await first == 1 and await last == 3
        with pytest.raises(RuntimeError, match="the transaction is gone"):
            await broken
        assert sizes == [3]
        users = await store._rows("SELECT user_id FROM digests")
        assert sorted(u["user_id"] for u in users) == [1, 3]


async def test_reads_do_not_wait_for_the_writer(tmp_path: Path) -> None:
    async with SqliteStore(tmp_path / "g.db") as store:
        game_id = await started_game(store)
        held = Held(store)
        write = asyncio.ensure_future(
            store.append_action(
                ActionRecord(game_id, 1, 0, "end", START), SnapshotRecord(game_id, 1, "s1")
            )
        )
        # the writer is busy: a read still answers, from the last commit
        loaded = await asyncio.wait_for(store.load_game(game_id), timeout=5)
        assert loaded is not None and loaded.last_seq == 0 and not write.done()
        await held.release()
        await write
        loaded = await store.load_game(game_id)
        assert loaded is not None and loaded.last_seq == 1


async def test_the_writer_refuses_a_change_outside_a_transaction(tmp_path: Path) -> None:
    """The writer queues a transaction's statements at once; if SQLite rolls the
    transaction back half-way (a full disk), the statements queued after it must not
    run in autocommit mode: the writer's connection (`WriterConnection`, a sqlite3
    subclass given to aiosqlite) refuses any change outside a transaction."""

    async def torn(db: aiosqlite.Connection) -> list[Any]:
        return await asyncio.gather(
            db.execute("BEGIN IMMEDIATE"),
            db.execute("INSERT INTO digests (user_id) VALUES (1)"),
            db.execute("ROLLBACK"),  # as SQLite does by itself after some errors
            db.execute("INSERT INTO digests (user_id) VALUES (2)"),
            db.executemany("INSERT INTO digests (user_id) VALUES (?)", [(3,)]),
            return_exceptions=True,
        )

    async with SqliteStore(tmp_path / "g.db") as store:
        outcomes = await store._on_writer(torn)
        refused = [o for o in outcomes if isinstance(o, Exception)]
        assert len(refused) == 2
        assert all("outside a transaction" in str(o) for o in refused)
        assert await store._rows("SELECT user_id FROM digests") == []
        # PRAGMAs and reads still run outside one
        await store._on_writer(lambda db: db.execute("PRAGMA user_version"))
