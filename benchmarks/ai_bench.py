"""Heuristic AI benchmark (run: .venv/bin/python -m benchmarks.ai_bench).

- win rate of 1 heuristic AI against 3 random players in 4-player games, the AI taking
  each seat in turn (target: at least 95%);
- final scores of 4 heuristic AIs playing each other: average and spread (a believable
  range is roughly 60-130; the rulebook's example winner scores 111);
- time per AI decision (budget: median under 200 ms, every decision under 1 s on one
  core), over every decision of every game above.

`--jobs N` plays games in N processes (faster, but the decision times are then taken
on a loaded machine); the default is one process.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from rules.actions import Action, EndTurn
from rules.ai import choose_action
from rules.scoring import final_outcome
from rules.selfplay import Policy, play_game
from rules.state import State, make_config


def _timed(times: list[float]) -> Policy:
    def policy(state: State, seat: int, rng: random.Random) -> Action:
        start = time.perf_counter()
        action = choose_action(state, seat, rng)
        times.append(time.perf_counter() - start)
        return action

    return policy


def versus_random(seed: int) -> tuple[bool, int, int, list[float]]:
    """One game: the AI in seat `seed % 4` against three random players. Returns
    whether it won, its score, the best random score and its decision times."""
    times: list[float] = []
    seat = seed % 4
    policies: list[Policy | str] = ["random"] * 4
    policies[seat] = _timed(times)
    game = play_game(make_config(players=4), seed, policies)
    outcome = final_outcome(game.state)
    totals = [b.total for b in outcome.breakdowns]
    others = max(t for i, t in enumerate(totals) if i != seat)
    return outcome.winner == seat, totals[seat], others, times


def among_ais(seed: int) -> tuple[list[int], int, list[float]]:
    """One game of 4 AIs: their scores, the number of turns and the decision times."""
    times: list[float] = []
    policy = _timed(times)
    game = play_game(make_config(players=4), seed, [policy] * 4)
    totals = [b.total for b in final_outcome(game.state).breakdowns]
    turns = sum(1 for m in game.moves if isinstance(m.action, EndTurn))
    return totals, turns, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games against random")
    parser.add_argument("--ai-games", type=int, default=40, help="games of 4 AIs")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=10_000, help="first game seed")
    args = parser.parse_args()

    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        vs = list(pool.map(versus_random, range(args.seed, args.seed + args.games)))
        ais = list(pool.map(among_ais, range(args.seed, args.seed + args.ai_games)))

    wins = sum(1 for won, *_ in vs if won)
    mine = [score for _, score, _, _ in vs]
    best_random = [other for _, _, other, _ in vs]
    rate = 100 * wins / args.games
    print(
        f"1 heuristic vs 3 random, {args.games} 4-player games: won {wins} ({rate:.1f}%,"
        f" target 95%); AI score mean {statistics.mean(mine):.1f} (min {min(mine)}),"
        f" best random player mean {statistics.mean(best_random):.1f} (max {max(best_random)})"
    )
    scores = [s for totals, _, _ in ais for s in totals]
    winners = [max(totals) for totals, _, _ in ais]
    turns = [t for _, t, _ in ais]
    print(
        f"4 heuristic AIs, {args.ai_games} 4-player games: score mean"
        f" {statistics.mean(scores):.1f}, stdev {statistics.pstdev(scores):.1f},"
        f" min {min(scores)}, max {max(scores)}; winner mean {statistics.mean(winners):.1f};"
        f" turns per game mean {statistics.mean(turns):.1f}"
        " (believable: roughly 60-130, rulebook winner 111)"
    )
    times = sorted([t for *_, ts in vs for t in ts] + [t for *_, ts in ais for t in ts])
    median = 1000 * statistics.median(times)
    p99 = 1000 * times[int(0.99 * (len(times) - 1))]
    processes = f"{args.jobs} process{'es' if args.jobs > 1 else ''}"
    print(
        f"time per AI decision, {len(times)} decisions: median {median:.1f} ms, 99th"
        f" percentile {p99:.0f} ms, max {1000 * times[-1]:.0f} ms (budget: median 200 ms,"
        f" max 1000 ms; {processes})"
    )
    print(f"(benchmark took {time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
