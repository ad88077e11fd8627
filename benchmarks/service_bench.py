"""Game service benchmarks: prints medians (run: .venv/bin/python -m benchmarks.service_bench).

- one whole act through the service: load (snapshot plus later log), validate on the
  checked path, apply, persist the log entry, snapshot and interaction in one
  transaction; no rendering (budget: under 15 ms median)
- with 10,000 stored finished games, loading any one (budget: under 10 ms median)
- database size per finished game

Everything runs against a real SQLite file in a temporary folder (WAL, synchronous=FULL).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sqlite3
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from bot.service import MOUNTAIN_KING, GameService
from bot.service.loading import check_gapless, snapshot_problem
from bot.store import SqliteStore
from bot.store.integrity import genesis, next_chain, state_digest
from rules.game import Game
from rules.selfplay import play_random_game
from rules.state import make_config

USERS = (1001, 1002, 1003, 1004, 1005)
Synchronous = Literal["FULL", "NORMAL"]


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def _p90_ms(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=10)[-1] * 1000


async def bench_acts(folder: Path, games: int, synchronous: Synchronous) -> list[float]:
    """Seconds per act, over whole 4-player games played through the service."""
    times: list[float] = []
    async with SqliteStore(folder / "acts.db", synchronous=synchronous) as store:
        service = GameService(store, MOUNTAIN_KING, rng=random.Random(1))
        interaction = 0
        for _ in range(games):
            game = await service.create_game(USERS[0], {"players": 4})
            for user in USERS[1:4]:
                await service.seating.join(game.id, user)
            info = await service.start(game.id, USERS[0])
            assert info.seed is not None
            record = play_random_game(make_config(players=4), info.seed)
            for move in record.moves:
                interaction += 1
                t = time.perf_counter()
                await service.act(
                    info.id, USERS[move.seat], str(move.action), interaction_id=interaction
                )
                times.append(time.perf_counter() - t)
    return times


def fsync_times(folder: Path, rounds: int = 30) -> list[float]:
    """Seconds of each of `rounds` fsyncs of a 4 KB write in `folder`: the disk's own
    price for durability, which a synchronous commit waits for (scale_bench prints it
    too)."""
    times = []
    with open(folder / "fsync.probe", "wb") as probe:
        for _ in range(rounds):
            probe.write(b"x" * 4096)
            probe.flush()
            t = time.perf_counter()
            os.fsync(probe.fileno())
            times.append(time.perf_counter() - t)
    return times


def build_finished_games(path: Path, records: list[Game], count: int) -> None:
    """`count` finished games in one transaction: a few distinct records inserted many
    times under different ids (their log, seats and final snapshot)."""
    asyncio.run(_migrate(path))
    at = datetime(2026, 1, 1, tzinfo=UTC).timestamp()
    rows = []
    for game in records:
        config = game.config.model_dump_json()
        colours = game.config.seat_colours
        seats = [(seat, USERS[seat], colour) for seat, colour in enumerate(colours)]
        actions = [(i + 1, m.seat, str(m.action)) for i, m in enumerate(game.moves)]
        rows.append((config, game.seed, seats, actions, MOUNTAIN_KING.state_to_json(game.state)))
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN")
    for game_id in range(1, count + 1):
        config, seed, seats, actions, snapshot = rows[game_id % len(rows)]
        db.execute(
            "INSERT INTO games (id, rules, config, seed, status, creator_id, reminder_seconds,"
            " created_at, updated_at) VALUES (?, ?, ?, ?, 'over', ?, 86400, ?, ?)",
            (game_id, MOUNTAIN_KING.name, config, seed, USERS[0], at, at),
        )
        db.executemany(
            "INSERT INTO seats (game_id, seat, user_id, colour, joined_at) VALUES (?, ?, ?, ?, ?)",
            [(game_id, seat, user, colour, at) for seat, user, colour in seats],
        )
        chain = genesis(game_id)
        chained = []
        for seq, seat, text in actions:
            chain = next_chain(chain, seq, seat, text)
            chained.append((game_id, seq, seat, text, USERS[seat], at, chain))
        db.executemany(
            "INSERT INTO actions (game_id, seq, seat, notation, user_id, created_at, chain)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            chained,
        )
        db.execute(
            "INSERT INTO snapshots (game_id, seq, state, chain, digest) VALUES (?, ?, ?, ?, ?)",
            (
                game_id,
                len(actions),
                snapshot,
                chain,
                state_digest(len(actions), chain, snapshot),
            ),
        )
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


async def _migrate(path: Path) -> None:
    async with SqliteStore(path):
        pass


async def bench_loads(
    path: Path, count: int, samples: int
) -> tuple[list[float], list[float], list[float]]:
    """Seconds to load random stored games (state rebuilt), to build a view, and the
    part of a load that checks the snapshot against the log (chain and digest)."""
    rng = random.Random(7)
    loads, views, checks = [], [], []
    async with SqliteStore(path) as store:
        service = GameService(store, MOUNTAIN_KING)
        for _ in range(samples):
            game_id = rng.randint(1, count)
            t = time.perf_counter()
            loaded = await service.load(game_id)
            loads.append(time.perf_counter() - t)
            stored = await store.load_game(game_id)
            assert stored is not None
            t = time.perf_counter()
            assert snapshot_problem(stored) is None
            check_gapless(stored)
            checks.append(time.perf_counter() - t)
            assert loaded.state is not None and loaded.state.phase == "over"
            t = time.perf_counter()
            await service.view(rng.randint(1, count), None)
            views.append(time.perf_counter() - t)
    return loads, views, checks


def table_sizes(path: Path) -> dict[str, int]:
    """Bytes per table and index (needs SQLite's dbstat; empty if it is missing)."""
    db = sqlite3.connect(path)
    try:
        rows = db.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name").fetchall()
    except sqlite3.OperationalError:
        return {}
    finally:
        db.close()
    return {str(name): int(size) for name, size in rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="stored finished games")
    parser.add_argument("--act-games", type=int, default=3, help="4-player games played")
    parser.add_argument(
        "--synchronous",
        choices=("FULL", "NORMAL"),
        default="FULL",
        help="FULL (the store's default) waits for the disk at every commit",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        acts = asyncio.run(bench_acts(folder, args.act_games, args.synchronous))
        print(
            f"one act through the service (load, validate, apply, persist; {len(acts)} acts of"
            f" {args.act_games} 4-player games; synchronous={args.synchronous}): median"
            f" {_median_ms(acts):.2f} ms, p90 {_p90_ms(acts):.2f} ms  (budget 15 ms)"
        )
        print(f"  one fsync of this disk: {_median_ms(fsync_times(folder)):.2f} ms median")
        records = [play_random_game(make_config(players=4), seed) for seed in range(5)]
        path = folder / "finished.db"
        t = time.perf_counter()
        build_finished_games(path, records, args.games)
        built = time.perf_counter() - t
        loads, views, checks = asyncio.run(bench_loads(path, args.games, 500))
        print(
            f"with {args.games:,} stored finished games (built in {built:.1f} s): loading one"
            f" (state rebuilt) median {_median_ms(loads):.2f} ms, p90 {_p90_ms(loads):.2f} ms"
            f"  (budget 10 ms); a spectator's view {_median_ms(views):.2f} ms"
        )
        print(
            "  of which the snapshot's check against the log (chain value and digest, no"
            f" replay): median {_median_ms(checks):.3f} ms, p90 {_p90_ms(checks):.3f} ms"
            "  (budget 1 ms)"
        )
        size = path.stat().st_size
        moves = statistics.mean(len(r.moves) for r in records)
        print(
            f"database size per finished 4-player game ({moves:.0f} actions): "
            f"{size / args.games / 1024:.1f} KiB  ({size / 2**20:.0f} MiB in all)"
        )
        sizes = table_sizes(path)
        if sizes:
            parts = ", ".join(
                f"{name} {bytes_ / args.games / 1024:.1f}"
                for name, bytes_ in sorted(sizes.items(), key=lambda kv: -kv[1])
                if bytes_ / args.games >= 10
            )
            print(f"  KiB per game by table/index: {parts}")
        acts_db = folder / "acts.db"
        handled = (
            sqlite3.connect(acts_db)
            .execute("SELECT AVG(LENGTH(result)) FROM interactions")
            .fetchone()[0]
        )
        print(
            f"  plus, until pruned, about {handled:.0f} bytes of stored answer per handled"
            " interaction (GameService.prune_interactions drops them after a day)"
        )


if __name__ == "__main__":
    main()
