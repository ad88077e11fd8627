"""The SQLite store's writer: an asyncio task that commits many games' writes together
on one aiosqlite connection.

A write is a job: a coroutine function of the connection (all the statements of one
store method). The writer takes the jobs in arrival order; those that queued up while
it was busy are committed together: one `BEGIN IMMEDIATE`, each job inside a savepoint
of its own (a job that fails is rolled back alone and its caller gets its error), one
`COMMIT`, so one wait for the disk (`synchronous=FULL`) covers them all. No caller
hears of success before that commit returned: every acknowledged write is durable.

Jobs of one kind that can run as one (`Job.many`: the log's appends) are run together
in one savepoint, each statement once for all of them (`executemany`), so a batch costs
a handful of trips to the connection's thread whatever its size; if that fails, the
savepoint is rolled back and each of them runs alone in a savepoint of its own. If the
transaction as a whole fails (the disk filled up at the commit, another process held
the file too long), nothing of it is stored and each job is run again in a transaction
of its own, so each caller gets its own true answer.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

import aiosqlite

# a job's outcome: (True, value) or (False, the exception it raised)
Outcome = tuple[bool, Any]
Work = Callable[[aiosqlite.Connection], Awaitable[Any]]
# several jobs of one kind at once: an outcome for each (a refusal of one is its own
# outcome, with nothing of it written); raising means "run them one by one"
Many = Callable[[aiosqlite.Connection, Sequence["Job"]], Awaitable[list[Outcome]]]

# the most write jobs committed in one transaction
MAX_BATCH = 128
# the first word of a statement that changes rows
_CHANGES = ("INSERT", "UPDATE", "DELETE", "REPLACE", "WITH")


class WriterConnection(sqlite3.Connection):
    """The writer's sqlite3 connection (`aiosqlite.connect(..., factory=...)`): it
    refuses a statement that changes rows outside a transaction.

    Why a subclass: the writer queues several statements of a transaction at once
    (`pipeline`) so that they cost one wait for the connection's thread, not one each.
    If one of them fails in a way that makes SQLite roll the whole transaction back (a
    full disk, an I/O error), the statements queued after it would otherwise run in
    autocommit mode and store part of a write that was never acknowledged. The check
    runs on the connection's own thread, just before each statement, where aiosqlite's
    public API cannot look."""

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        _refuse_outside_a_transaction(self, sql)
        return super().execute(sql, parameters)

    def executemany(self, sql: str, parameters: Iterable[Any], /) -> sqlite3.Cursor:
        _refuse_outside_a_transaction(self, sql)
        return super().executemany(sql, parameters)


def _refuse_outside_a_transaction(db: sqlite3.Connection, sql: str) -> None:
    if not db.in_transaction and sql.lstrip()[:7].upper().startswith(_CHANGES):
        raise sqlite3.OperationalError("a change outside a transaction was refused")


async def pipeline(db: aiosqlite.Connection, *calls: Awaitable[Any]) -> list[Any]:
    """Await calls on `db` queued all at once, in order (the connection's thread runs
    them one after another, with no wait for the event loop between them); their
    results, or the first error once all have finished. Changes among them must be in
    a transaction of the writer (see `WriterConnection`)."""
    queued = [asyncio.ensure_future(call) for call in calls]
    results = await asyncio.gather(*queued, return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException):
            raise result
    return results


@dataclass(eq=False, slots=True)
class Job:
    work: Work
    future: asyncio.Future[Any]
    # a write runs in a transaction, grouped with the others queued; anything else
    # (setting up, migrating, a read on the only connection) runs as it is
    write: bool = False
    # run with the following jobs of the same `many` in one go (`key`: no two jobs of
    # one key in one go, so that each sees the other's writes in order)
    many: Many | None = None
    key: object = None
    data: Any = field(default=None)


class Writer:
    """The one task that writes through `db` (see the module's docstring)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db
        self._jobs: deque[Job] = deque()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = asyncio.create_task(
            self._serve(), name="mk-sqlite-writer"
        )

    def submit(
        self,
        work: Work,
        *,
        write: bool = False,
        many: Many | None = None,
        key: object = None,
        data: Any = None,
    ) -> asyncio.Future[Any]:
        if self._task is None:
            raise RuntimeError("the writer has stopped")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._jobs.append(Job(work, future, write, many, key, data))
        self._wake.set()
        return future

    async def stop(self) -> None:
        """Finish the jobs queued, then end the task."""
        task, self._task = self._task, None
        if task is None:
            return
        self._wake.set()
        await task

    async def _serve(self) -> None:
        while True:
            if not self._jobs:
                if self._task is None:
                    return
                self._wake.clear()
                await self._wake.wait()
                continue
            job = self._jobs.popleft()
            if job.future.cancelled():
                continue
            if not job.write:
                _settle([(job, await _plain(job.work, self.db))])
                continue
            batch = [job]
            while self._jobs and len(batch) < MAX_BATCH and self._jobs[0].write:
                following = self._jobs.popleft()
                if not following.future.cancelled():
                    batch.append(following)
            outcomes = await self._together(batch) if len(batch) > 1 else None
            if outcomes is None:
                outcomes = [await self._alone(j) for j in batch]
            _settle(list(zip(batch, outcomes, strict=True)))

    async def _alone(self, job: Job) -> Outcome:
        """One write job in a transaction of its own."""
        db = self.db
        try:
            # queued with the job's first statements: if it fails, they change nothing
            # outside a transaction (`WriterConnection`), and the job hears its error
            begin = asyncio.ensure_future(db.execute("BEGIN IMMEDIATE"))
            await asyncio.sleep(0)  # let the BEGIN take its place in the queue first
            try:
                value = await job.work(db)
                await begin
                await db.execute("COMMIT")
            except BaseException:
                (began,) = await asyncio.gather(begin, return_exceptions=True)
                await rollback(db)
                if isinstance(began, Exception):  # the job's error came from that
                    raise began from None
                raise
        except Exception as exc:
            return False, exc
        return True, value

    async def _together(self, batch: list[Job]) -> list[Outcome] | None:
        """Several write jobs in one transaction; None (nothing stored) if the
        transaction itself failed."""
        db = self.db
        try:
            await db.execute("BEGIN IMMEDIATE")
        except Exception as exc:  # the file stayed locked by another process: each hears it
            return [(False, exc) for _ in batch]
        outcomes: list[Outcome] = []
        try:
            for group in _groups(batch):
                if len(group) > 1:
                    outcomes += await self._as_one(group)
                else:
                    outcomes.append(await self._savepoint(group[0]))
            await db.execute("COMMIT")
        except Exception:
            await rollback(db)
            return None
        return outcomes

    async def _as_one(self, group: list[Job]) -> list[Outcome]:
        """Jobs of one kind run as one, in one savepoint; one by one if that fails."""
        db = self.db
        many = group[0].many
        assert many is not None
        await db.execute("SAVEPOINT together")
        try:
            outcomes = await many(db, group)
        except Exception:
            if not db.in_transaction:  # SQLite rolled the whole transaction back
                raise
            await db.execute("ROLLBACK TO together")
            await db.execute("RELEASE together")
            return [await self._savepoint(job) for job in group]
        await db.execute("RELEASE together")
        return outcomes

    async def _savepoint(self, job: Job) -> Outcome:
        db = self.db
        await db.execute("SAVEPOINT job")
        try:
            value = await job.work(db)
        except Exception as exc:
            if not db.in_transaction:  # SQLite rolled the whole transaction back
                raise
            await db.execute("ROLLBACK TO job")
            await db.execute("RELEASE job")
            return False, exc
        await db.execute("RELEASE job")
        return True, value


def _groups(batch: list[Job]) -> list[list[Job]]:
    """The batch in arrival order, cut into runs that can run as one (jobs of one
    `many`, no key twice) and single jobs."""
    groups: list[list[Job]] = []
    keys: set[object] = set()
    for job in batch:
        last = groups[-1] if groups else None
        if (
            job.many is not None
            and last is not None
            and last[0].many is job.many
            and job.key not in keys
        ):
            last.append(job)
        else:
            groups.append([job])
            keys = set()
        keys.add(job.key)
    return groups


async def _plain(work: Work, db: aiosqlite.Connection) -> Outcome:
    try:
        return True, await work(db)
    except Exception as exc:
        return False, exc


async def rollback(db: aiosqlite.Connection) -> None:
    """End the open transaction, if any (SQLite ends some by itself after an error)."""
    if db.in_transaction:
        with suppress(Exception):
            await db.execute("ROLLBACK")


def _settle(results: list[tuple[Job, Outcome]]) -> None:
    for job, (ok, value) in results:
        if job.future.done():
            continue
        if ok:
            job.future.set_result(value)
        else:
            job.future.set_exception(value)
