"""Rules engine benchmarks: prints medians (run: .venv/bin/python benchmarks/rules_bench.py).

- replay of a finished 4-player game record (budget: under 50 ms median)
- random self-play of whole 4-player games on one core (budget: at least 20 per second)
"""

from __future__ import annotations

import statistics
import time

from rules.game import Game, game_from_record
from rules.selfplay import play_random_game
from rules.state import make_config


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def bench_replay(records: list[dict[str, object]], rounds: int = 5) -> float:
    times = []
    for _ in range(rounds):
        for record in records:
            t = time.perf_counter()
            game_from_record(record)
            times.append(time.perf_counter() - t)
    return _median_ms(times)


def bench_selfplay(games: int) -> tuple[float, float]:
    config = make_config(players=4)
    times = []
    for seed in range(games):
        t = time.perf_counter()
        play_random_game(config, seed)
        times.append(time.perf_counter() - t)
    return len(times) / sum(times), _median_ms(times)


def main() -> None:
    config = make_config(players=4)
    games: list[Game] = [play_random_game(config, seed) for seed in range(20)]
    records = [g.record() for g in games]
    actions = statistics.median(len(g.moves) for g in games)
    print(
        f"replay of a finished 4-player record ({actions:.0f} actions, median of 100): "
        f"{bench_replay(records):.2f} ms  (budget 50 ms)"
    )
    rate, per_game = bench_selfplay(50)
    print(
        f"random self-play, 4 players, 50 games: {rate:.1f} games/s, "
        f"median {per_game:.1f} ms per game  (budget 20 games/s)"
    )


if __name__ == "__main__":
    main()
