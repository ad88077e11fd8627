"""The leaderboard over 10,000 finished games (run: .venv/bin/python -m
benchmarks.ratings_bench [--games N] [--players N] [--store sqlite|postgresql]).

A server with `--games` finished games (2-5 seats, one in five of 4 players in two
teams) among `--players` players is written straight into a fresh database, each game
rated as the service rates it (`bot.service.community.rated`, OpenSkill), so the
ratings table holds what the sweep would have left. Then, in medians over repeats:

- `/mk stats leaderboard` as the bot asks it (`service.community.leaderboard`: the
  sweep's read finding nothing to rate, the top ten, the asker's place; budget: under
  50 ms);
- the board's read alone (`store.leaderboard`) and the asker's place;
- a first sweep after a start (every finished game already rated: one read over the
  index of finished games);
- rating one game with OpenSkill (the computation alone).

SQLite in a temporary folder; PostgreSQL on a throwaway server like the tests'.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot.service import MOUNTAIN_KING, GameService
from bot.service.community import Line, rated
from bot.store import SqliteStore, Store
from bot.store.community import RatingRecord
from bot.store.postgres import PostgresStore
from tests.pg_server import PgServer, find_bindir  # the tests' throwaway PostgreSQL server

GUILD = 4242
START = datetime(2026, 1, 1, tzinfo=UTC)
STORES = ("sqlite", "postgresql")


def games_played(games: int, players: int, seed: int = 1) -> list[list[Line]]:
    """Each game's scoring lines: 2-5 players drawn from `players`, or two teams of
    two; the places at random (a player's skill nudges them)."""
    rng = random.Random(seed)
    skill = {u: rng.gauss(0, 1) for u in range(1, players + 1)}
    out = []
    for n in range(games):
        teams = n % 5 == 0
        seated = rng.sample(sorted(skill), 4 if teams else rng.randint(2, 5))
        groups = [tuple(seated[:2]), tuple(seated[2:])] if teams else [(u,) for u in seated]
        scores = [sum(skill[u] for u in g) + rng.gauss(0, 1.5) for g in groups]
        best = max(scores)
        out.append(
            [Line(g, s == best, round(50 + 10 * s)) for g, s in zip(groups, scores, strict=True)]
        )
    return out


async def fill(store: Store, played: list[list[Line]]) -> None:
    """Write the games (finished, on the server `GUILD`), their seats, the ratings
    they lead to and the mark that each was rated: a few statements of many rows."""
    ratings: dict[int, RatingRecord] = {}
    games, seats, marks = [], [], []
    for n, lines in enumerate(played, start=1):
        at = START + timedelta(minutes=n)
        for new in rated(lines, ratings, GUILD, at):
            ratings[new.user_id] = new
        stamp = at.timestamp()
        games.append((n, "mountain-king", "{}", n, "over", lines[0].users[0], 86400, GUILD, stamp))
        users = [u for line in lines for u in line.users]
        seats += [(n, s, u, stamp) for s, u in enumerate(users)]
        marks.append((n, GUILD, stamp))
    rows = [
        (r.guild_id, r.user_id, r.mu, r.sigma, r.ordinal, r.games, r.wins, r.updated_at.timestamp())
        for r in ratings.values()
    ]

    async def work(tx: Any) -> None:
        await tx.many(
            "INSERT INTO games (id, rules, config, seed, status, creator_id, reminder_seconds,"
            " guild_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)",
            games,
        )
        await tx.many(
            "INSERT INTO seats (game_id, seat, user_id, joined_at) VALUES ($1, $2, $3, $4)", seats
        )
        await tx.many(
            "INSERT INTO rated_games (game_id, guild_id, rated_at, rated) VALUES ($1, $2, $3, 1)",
            marks,
        )
        await tx.many(
            "INSERT INTO ratings (guild_id, user_id, mu, sigma, ordinal, games, wins, updated_at)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            rows,
        )

    await store._write(work)


async def timed(repeats: int, call: Callable[[], Awaitable[Any]]) -> list[float]:
    out = []
    for _ in range(repeats):
        began = time.perf_counter()
        await call()
        out.append(time.perf_counter() - began)
    return out


def line(name: str, samples: list[float]) -> str:
    median = statistics.median(samples) * 1000
    worst = max(samples) * 1000
    return f"  {name:<52} median {median:7.2f} ms   max {worst:7.2f} ms"


async def bench(store: Store, played: list[list[Line]], repeats: int) -> None:
    began = time.perf_counter()
    await fill(store, played)
    print(f"  (filled {len(played):,} rated games in {time.perf_counter() - began:.1f} s)")
    service = GameService(store, MOUNTAIN_KING, clock=lambda: START + timedelta(days=400))
    community = service.community
    # the first sweep of a process reads the whole index of finished games once
    first = await timed(1, community.rate_finished)
    board = await community.leaderboard(GUILD, 7)
    assert len(board.top) == 10 and board.yours is not None, board
    players = sorted({u for lines in played for ln in lines for u in ln.users})
    rng = random.Random(2)

    async def ask() -> None:
        await community.leaderboard(GUILD, rng.choice(players))

    print(line("the first sweep of a process (nothing to rate)", first))
    print(line("/mk stats leaderboard (service.community.leaderboard)", await timed(repeats, ask)))
    print(
        line(
            "the board's read alone (store.leaderboard)",
            await timed(repeats, lambda: store.leaderboard(GUILD, least_games=3, limit=10)),
        )
    )
    print(
        line(
            "the asker's place (store.board_place)",
            await timed(repeats, lambda: store.board_place(GUILD, 10.0, 7, least_games=3)),
        )
    )
    ratings = await store.ratings(GUILD, players)

    async def rate_one() -> None:
        rated(played[rng.randrange(len(played))], ratings, GUILD, START)

    print(
        line("rating one game with OpenSkill (computation alone)", await timed(repeats, rate_one))
    )


async def run(name: str, location: str, played: list[list[Line]], repeats: int) -> None:
    store: Store = PostgresStore(location) if name == "postgresql" else SqliteStore(location)
    async with store:
        await bench(store, played, repeats)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--store", choices=STORES, action="append")
    args = parser.parse_args()
    played = games_played(args.games, args.players)
    print(f"A leaderboard over {args.games:,} finished games of {args.players} players")
    for name in args.store or STORES:
        with tempfile.TemporaryDirectory() as tmp:
            if name == "sqlite":
                print("SQLite (WAL, synchronous=FULL)")
                asyncio.run(run(name, str(Path(tmp) / "ratings.db"), played, args.repeats))
                continue
            bindir = find_bindir()
            if bindir is None:
                print("PostgreSQL: skipped (no server programs found)")
                continue
            server = PgServer(bindir)
            try:
                server.start()
                url = server.url(server.create_database("ratings"))
                print("PostgreSQL")
                asyncio.run(run(name, url, played, args.repeats))
            finally:
                server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
