"""Throughput under load: many games acting at once on one store.

    .venv/bin/python -m benchmarks.load_bench [--games 200] [--acts 30]
        [--store sqlite|postgresql] [--processes N]

Every game is a 4-player game whose players act as fast as they can, all games at
once, each action through `GameService.act` with what the bot passes (the interaction
id, where the private answer goes, the player's name): the path a slash command takes
(load, validate, apply, then the log entry, snapshot, answer, reminders and owed
messages in one transaction). Prints acts per second, the latency of one act (p50,
p95, p99, max) and the CPU an act cost, for each store: a SQLite file in a temporary
folder, and PostgreSQL on a throwaway server started like the tests' (tests/pg_server.py,
but with fsync on, as a real server runs), skipped with one line when its programs are
absent.

`--processes N` splits the games over N bot processes sharing the store, as shards do
(each process its own service and connections; they start together).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import multiprocessing
import os
import platform
import random
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.__main__ import settle_memory
from bot.service import MOUNTAIN_KING, GameService
from bot.service.results import ReplyTo
from bot.store import SqliteStore, Store
from bot.store.postgres import PostgresStore
from rules.selfplay import play_random_game
from rules.state import make_config
from tests.pg_server import PgServer, find_bindir  # the tests' throwaway PostgreSQL server

PLAYERS = 4
APPLICATION_ID = 4242
STORES = ("sqlite", "postgresql")
# interaction ids of each process start here, apart
IDS_PER_PROCESS = 10_000_000

Service = GameService[Any, Any]


@dataclass(frozen=True)
class Table:
    """One game to drive: its id, the user in each seat and its moves in notation."""

    game_id: int
    users: tuple[int, ...]
    moves: tuple[tuple[int, str], ...]


@dataclass
class Figures:
    acts: int = 0
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    # CPU seconds the run took: the bot processes (every thread), the database server
    cpu: float = 0.0
    server_cpu: float | None = None

    def line(self, store: str) -> str:
        lat = sorted(self.latencies)

        def pct(p: float) -> float:
            return lat[min(len(lat) - 1, round(p / 100 * (len(lat) - 1)))] * 1000

        cpu = f"CPU per act {self.cpu / self.acts * 1000:.2f} ms in the bot"
        if self.server_cpu is not None:
            cpu += f" + {self.server_cpu / self.acts * 1000:.2f} ms in the server"
        return (
            f"{store}: {self.acts} acts in {self.seconds:.1f} s = {self.acts / self.seconds:.0f}"
            f" acts/s; latency p50 {pct(50):.0f} ms, p95 {pct(95):.0f} ms,"
            f" p99 {pct(99):.0f} ms, max {lat[-1] * 1000:.0f} ms; {cpu}"
        )


def user(game: int, seat: int) -> int:
    return 100_000 + game * 10 + seat


async def prepare(service: Service, games: int, acts: int) -> list[Table]:
    """`games` started 4-player games, each with the first `acts` moves of a random game
    of its seed."""
    tables = []
    for n in range(games):
        info = await service.create_game(user(n, 0), {"players": PLAYERS})
        for seat in range(1, PLAYERS):
            await service.seating.join(info.id, user(n, seat))
        info = await service.start(info.id, user(n, 0))
        assert info.seed is not None
        record = play_random_game(make_config(**{"edition": 1, **info.config}), info.seed)
        moves = tuple((m.seat, str(m.action)) for m in record.moves[:acts])
        tables.append(Table(info.id, tuple(user(n, s) for s in range(PLAYERS)), moves))
    return tables


async def drive(
    service: Service, table: Table, ids: itertools.count[int], latencies: list[float]
) -> None:
    """One table playing its moves as fast as it can, each as the bot would."""
    for seat, notation in table.moves:
        player = table.users[seat]
        interaction = next(ids)
        started = time.perf_counter()
        await service.act(
            table.game_id,
            player,
            notation,
            interaction_id=interaction,
            reply_to=ReplyTo(APPLICATION_ID, f"token-{interaction}"),
            name=f"player {player}",
        )
        latencies.append(time.perf_counter() - started)


def open_store(location: str) -> Store:
    if location.startswith("postgresql://"):
        return PostgresStore(location)
    return SqliteStore(location)


async def play(location: str, tables: Sequence[Table], first_id: int) -> tuple[list[float], float]:
    """Drive `tables` at once on a service of our own; the latencies and CPU seconds."""
    async with open_store(location) as store:
        service: Service = GameService(store, MOUNTAIN_KING)
        settle_memory()  # as the bot does once it has started
        ids = itertools.count(first_id)
        latencies: list[float] = []
        cpu = time.process_time()
        await asyncio.gather(*(drive(service, t, ids, latencies) for t in tables))
        return latencies, time.process_time() - cpu


def worker(location: str, tables: list[Table], first_id: int, go: Any, results: Any) -> None:
    """A bot process of its own: opens the store, waits for the others, plays."""

    async def run() -> tuple[list[float], float]:
        async with open_store(location):
            pass  # connect (and migrate) before the clock starts
        results.put(("ready", None))
        await asyncio.to_thread(go.wait)
        return await play(location, tables, first_id)

    results.put(("done", asyncio.run(run())))


def run_load(
    location: str, games: int, acts: int, processes: int, server: PgServer | None
) -> Figures:
    """Prepare the games, then drive them all at once from `processes` processes."""

    async def setup() -> list[Table]:
        async with open_store(location) as store:
            return await prepare(
                GameService(store, MOUNTAIN_KING, rng=random.Random(16)), games, acts
            )

    tables = asyncio.run(setup())
    figures = Figures()
    before = server_cpu(server)
    if processes == 1:
        started = time.perf_counter()
        figures.latencies, figures.cpu = asyncio.run(play(location, tables, 1))
        figures.seconds = time.perf_counter() - started
    else:
        context = multiprocessing.get_context("spawn")
        go, results = context.Event(), context.Queue()
        workers = [
            context.Process(
                target=worker,
                args=(location, tables[n::processes], 1 + n * IDS_PER_PROCESS, go, results),
            )
            for n in range(processes)
        ]
        for process in workers:
            process.start()
        for _ in workers:
            assert results.get()[0] == "ready"
        started = time.perf_counter()
        go.set()
        for _ in workers:
            _, (latencies, cpu) = results.get()
            figures.latencies += latencies
            figures.cpu += cpu
        figures.seconds = time.perf_counter() - started
        for process in workers:
            process.join()
    after = server_cpu(server)
    figures.server_cpu = None if before is None or after is None else after - before
    figures.acts = len(figures.latencies)
    return figures


def server_cpu(server: PgServer | None) -> float | None:
    """CPU seconds the PostgreSQL server's processes have used so far (None: no server
    of ours, or no /proc to read it from)."""
    if server is None:
        return None
    try:
        postmaster = int((server.data / "postmaster.pid").read_text().split()[0])
        total = 0
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            pid, parent = int(entry.name), int(fields[1])
            if pid == postmaster or parent == postmaster:
                # its own time, and that of its children that ended
                total += sum(int(f) for f in fields[11:15])
        return total / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (
        f"machine: {platform.system()} {platform.release()}, {cpu}, {os.cpu_count()} cores,"
        f" Python {platform.python_version()}; load average before {load}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games acting at once")
    parser.add_argument("--acts", type=int, default=30, help="acts per game")
    parser.add_argument("--store", choices=STORES, action="append", help="default: both")
    parser.add_argument("--processes", type=int, default=1, help="bot processes sharing it")
    args = parser.parse_args()
    print(machine())
    print(
        f"{args.games} 4-player games acting at once, {args.acts} acts each,"
        f" from {args.processes} bot process{'es' if args.processes > 1 else ''}"
    )
    for name in args.store or STORES:
        with tempfile.TemporaryDirectory() as tmp:
            if name == "sqlite":
                figures = run_load(
                    str(Path(tmp) / "load.db"), args.games, args.acts, args.processes, None
                )
                print(figures.line("SQLite (WAL, synchronous=FULL)"))
                continue
            bindir = find_bindir()
            if bindir is None:
                print(
                    "PostgreSQL: skipped (no server programs in `pg_config --bindir`,"
                    " /usr/lib/postgresql/*/bin or $PG_BINDIR)"
                )
                continue
            server = PgServer(bindir, durable=True)
            try:
                server.start()
                url = server.url(server.create_database("load"))
                figures = run_load(url, args.games, args.acts, args.processes, server)
            finally:
                server.stop()
            print(figures.line("PostgreSQL (synchronous_commit=on, fsync on)"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
