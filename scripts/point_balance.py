"""Start points against seats, told apart: self-play with the gates handed out, not chosen.

    .venv/bin/python scripts/point_balance.py --players 4 [--teams] [--points W5,W6,W7,W8]
        [--games 200] [--first-seed 1001] [--ai heuristic|random] [--jobs N]

The balance report (scripts/balance_report.py) lets the AI choose the gates in turn
order, and the AI's values for a table's points lie within a few percent of each other,
so one arrangement decides every game and a seat's rate there is that arrangement's.
Here the points are handed out in clockwise order and rotated: in game k seat i takes
point (i + k) mod n of the list, so every seat sits at every point equally often and
the seats keep the clockwise order they have round a table (the rulebook: "It is
simplest and most intuitive to just place on the entrance closest to your seat"; in
team mode partners then sit beside each other, as the rules ask). What a point is worth
then shows in its win rate whoever sits there, and what a seat is worth in the seat's.

Prints, per point and per seat, the win share with a 95% Wilson interval against the
fair rate, the mean score and where the honour came from. The points default to those
marked for the table in the current rules edition (2 players: give them).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from balance_report import PROGRESS_GAMES, pct, progress_line, wilson_interval

from rules.actions import Action, PlaceGate
from rules.content import load_content
from rules.selfplay import play_game, policy_named
from rules.state import EDITION, GameConfig, State, make_config

PARTS = ("statues", "halls", "tunnels", "pedestals", "coronation", "sets", "spells")


@dataclass(frozen=True)
class Seated:
    """One seat's game: where it sat, its share of the win, its score by source."""

    seat: int
    point: str
    win: float  # 1/k of a win shared by k sides, a team's split between its partners
    total: int
    parts: tuple[int, ...]  # as PARTS


Task = tuple[int, bool, tuple[str, ...], int, int, str]  # players, teams, points, seed, k, ai


def rotated(points: Sequence[str], k: int, seat: int) -> str:
    """The point seat `seat` takes in the k-th game."""
    return points[(seat + k) % len(points)]


def play_one(task: Task) -> list[Seated]:
    players, teams, points, seed, k, ai = task
    config = make_config(players=players, teams=teams)
    chooser = policy_named(ai)

    def policy(state: State, seat: int, rng: random.Random) -> Action:
        if state.phase == "gates":
            return PlaceGate(rotated(points, k, seat))
        return chooser(state, seat, rng)

    game = play_game(config, seed, policy)
    outcome = game.outcome
    assert outcome is not None
    won = [line for line in outcome.breakdowns if set(line.seats) & set(outcome.winning_seats)]
    out = []
    for line in outcome.breakdowns:
        share = (1 / len(won) if line in won else 0.0) / len(line.seats)
        for seat in line.seats:
            parts = tuple(int(getattr(line, part)) for part in PARTS)
            out.append(Seated(seat, rotated(points, k, seat), share, line.total, parts))
    return out


def default_points(config: GameConfig) -> list[str]:
    side = load_content().board(config.board_side)
    return side.clockwise(config.players, EDITION)


def table(title: str, rows: dict[str, list[Seated]], fair: float) -> list[str]:
    lines = [
        f"| {title} | games | win share | 95% interval | vs fair | mean score | "
        + " | ".join(PARTS)
        + " |",
        "|---|---|---|---|---|---|" + "---|" * len(PARTS),
    ]
    for key, seated in rows.items():
        wins = sum(s.win for s in seated)
        low, high = wilson_interval(wins, len(seated))
        rate = wins / len(seated)
        parts = " | ".join(
            f"{statistics.mean(s.parts[i] for s in seated):.1f}" for i in range(len(PARTS))
        )
        lines.append(
            f"| {key} | {len(seated)} | {pct(rate)} | {pct(low)}-{pct(high)} |"
            f" {100 * (rate - fair):+.1f} pp | {statistics.mean(s.total for s in seated):.1f} |"
            f" {parts} |"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--teams", action="store_true", help="4 players in two teams")
    parser.add_argument("--points", help="start points in clockwise order, comma-separated")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first-seed", type=int, default=1001)
    parser.add_argument("--ai", default="heuristic", choices=("heuristic", "random"))
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    config = make_config(players=args.players, teams=args.teams)
    points = args.points.split(",") if args.points else default_points(config)
    if len(points) != args.players:
        parser.error(f"give {args.players} start points (--points), not {len(points)}")
    tasks: list[Task] = [
        (args.players, args.teams, tuple(points), args.first_seed + k, k, args.ai)
        for k in range(args.games)
    ]
    label = f"{args.players} players{' in teams' if args.teams else ''}, points {points}"
    by_point: dict[str, list[Seated]] = defaultdict(list)
    by_seat: dict[str, list[Seated]] = defaultdict(list)
    began = time.perf_counter()
    with Pool(args.jobs) as pool:
        for done, seated in enumerate(pool.imap_unordered(play_one, tasks), 1):
            for s in seated:
                by_point[s.point].append(s)
                by_seat[f"seat {s.seat + 1}"].append(s)
            if done % PROGRESS_GAMES == 0 or done == len(tasks):
                elapsed = time.perf_counter() - began
                print(progress_line(label, done, len(tasks), elapsed), file=sys.stderr, flush=True)
    fair = 1 / args.players
    print(f"## {label}: gates handed out clockwise and rotated over the seats")
    print()
    print(
        f"{args.games} games (seeds {args.first_seed}-{args.first_seed + args.games - 1}),"
        f" {args.ai} AI; fair share {pct(fair)} per seat"
        + (" (a team's win is split between its partners' seats)" if args.teams else "")
        + "; honour by source is the mean per game"
        + (" of the seat's team." if args.teams else ".")
    )
    print()
    print("\n".join(table("point", {p: by_point[p] for p in points}, fair)))
    print()
    seats = {f"seat {i + 1}": by_seat[f"seat {i + 1}"] for i in range(args.players)}
    print("\n".join(table("seat", seats, fair)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
