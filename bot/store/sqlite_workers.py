"""The threads the SQLite store works on: one writer that commits many games' writes
together, and readers beside it.

SQLite is synchronous, so the store runs it on threads of its own, one connection each,
and the event loop awaits a future per job. A job is a whole store method (every
statement of it, with its transaction), so a method costs one trip between the loop
and a thread, not one per statement.

- **The writer** runs the write jobs in arrival order. Jobs that queued up while it was
  busy are committed together: one `BEGIN IMMEDIATE`, each job inside a savepoint of
  its own (a job that fails is rolled back alone and its caller gets its error), one
  `COMMIT`, so one wait for the disk (`synchronous=FULL`) covers them all. No caller
  hears of success before that commit returned: every acknowledged write is durable.
  If the transaction as a whole fails (the disk filled up at the commit, another
  process held the file too long), nothing of it is stored and each job is run again
  alone, so each caller gets its own true answer.
- **Readers** share a queue; each runs a job inside a read transaction (one consistent
  snapshot of the file). In WAL mode they never wait for the writer, nor it for them.
"""

from __future__ import annotations

import asyncio
import queue
import sqlite3
import threading
from collections import deque
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from functools import partial
from typing import Any

# a job: a function of the connection, run on the connection's thread
Work = Callable[[sqlite3.Connection], Any]
# a job's outcome: (True, value) or (False, the exception it raised)
Outcome = tuple[bool, Any]

# the most write jobs committed in one transaction
MAX_BATCH = 128


@dataclass(frozen=True, slots=True)
class Job:
    work: Work
    future: asyncio.Future[Any]
    # a write is run in a transaction (grouped with the other writes queued); anything
    # else runs as it is (setting up, migrating, a read on a single connection)
    write: bool = False


class Stop:
    """Put on a queue to end one of its threads (after the jobs before it)."""


Queue = queue.SimpleQueue[Job | Stop]


def submit(jobs: Queue, work: Work, *, write: bool = False) -> asyncio.Future[Any]:
    """Queue `work` for a thread; the future settles on the caller's event loop."""
    future = asyncio.get_running_loop().create_future()
    jobs.put(Job(work, future, write))
    return future


def start_thread(
    name: str, connect: Callable[[], sqlite3.Connection], jobs: Queue, *, writer: bool
) -> tuple[threading.Thread, asyncio.Future[None]]:
    """A thread that opens its connection with `connect`, then runs jobs from `jobs`
    until it takes a `Stop`, and closes the connection. The future settles once the
    connection is open (or with the error that kept it from opening: the thread ends)."""
    ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    run = _write_loop if writer else _read_loop
    thread = threading.Thread(target=_serve, args=(connect, jobs, ready, run), name=name)
    thread.daemon = True
    thread.start()
    return thread, ready


def _serve(
    connect: Callable[[], sqlite3.Connection],
    jobs: Queue,
    ready: asyncio.Future[None],
    run: Callable[[sqlite3.Connection, Queue], None],
) -> None:
    try:
        db = connect()
    except Exception as exc:
        _settle([(ready, (False, exc))])
        return
    _settle([(ready, (True, None))])
    try:
        run(db, jobs)
    finally:
        db.close()


def _read_loop(db: sqlite3.Connection, jobs: Queue) -> None:
    while True:
        job = jobs.get()
        if isinstance(job, Stop):
            return
        if job.future.cancelled():
            continue
        _settle([(job.future, _plain(db, partial(read_transaction, work=job.work)))])


def read_transaction(db: sqlite3.Connection, work: Work) -> Any:
    """`work` in a read transaction: every statement of it sees the same snapshot."""
    db.execute("BEGIN")
    try:
        return work(db)
    finally:
        rollback(db)


def _write_loop(db: sqlite3.Connection, jobs: Queue) -> None:
    held: deque[Job | Stop] = deque()
    while True:
        job = held.popleft() if held else jobs.get()
        if isinstance(job, Stop):
            return
        if not job.write:
            _settle([(job.future, _plain(db, job.work))])
            continue
        batch = [job]
        while len(batch) < MAX_BATCH:
            try:
                following = jobs.get_nowait()
            except queue.Empty:
                break
            if isinstance(following, Stop) or not following.write:
                held.append(following)
                break
            batch.append(following)
        live = [j for j in batch if not j.future.cancelled()]
        outcomes = _together(db, live) if len(live) > 1 else None
        if outcomes is None:
            outcomes = [_alone(db, j.work) for j in live]
        _settle([(j.future, outcome) for j, outcome in zip(live, outcomes, strict=True)])


def _plain(db: sqlite3.Connection, work: Work) -> Outcome:
    try:
        return True, work(db)
    except Exception as exc:
        return False, exc


def _alone(db: sqlite3.Connection, work: Work) -> Outcome:
    """One write job in a transaction of its own."""
    try:
        db.execute("BEGIN IMMEDIATE")
        try:
            value = work(db)
            db.execute("COMMIT")
        except BaseException:
            rollback(db)
            raise
    except Exception as exc:
        return False, exc
    return True, value


def _together(db: sqlite3.Connection, batch: list[Job]) -> list[Outcome] | None:
    """Several write jobs in one transaction, each in a savepoint; None (nothing
    stored) if the transaction itself failed."""
    try:
        db.execute("BEGIN IMMEDIATE")
    except Exception as exc:  # the file stayed locked by another process: each hears it
        return [(False, exc) for _ in batch]
    outcomes: list[Outcome] = []
    try:
        for job in batch:
            db.execute("SAVEPOINT job")
            try:
                value = job.work(db)
            except Exception as exc:
                if not db.in_transaction:  # SQLite rolled the whole transaction back
                    raise
                db.execute("ROLLBACK TO job")
                db.execute("RELEASE job")
                outcomes.append((False, exc))
            else:
                db.execute("RELEASE job")
                outcomes.append((True, value))
        db.execute("COMMIT")
    except Exception:
        rollback(db)
        return None
    return outcomes


def rollback(db: sqlite3.Connection) -> None:
    """End the open transaction, if any (SQLite ends some by itself after an error)."""
    if db.in_transaction:
        db.execute("ROLLBACK")


def _settle(results: list[tuple[asyncio.Future[Any], Outcome]]) -> None:
    """Hand outcomes to the event loops awaiting them (one wake-up per loop)."""
    by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], Outcome]]] = {}
    for future, outcome in results:
        by_loop.setdefault(future.get_loop(), []).append((future, outcome))
    for loop, items in by_loop.items():
        # the loop may have closed meanwhile: then nobody awaits these
        with suppress(RuntimeError):
            loop.call_soon_threadsafe(_resolve, items)


def _resolve(items: list[tuple[asyncio.Future[Any], Outcome]]) -> None:
    for future, (ok, value) in items:
        if future.cancelled():
            continue
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)
