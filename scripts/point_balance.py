"""Start points against seats, told apart: self-play with the gates handed out, not chosen.

    .venv/bin/python -m scripts.point_balance --players 4 [--teams] [--points W5,W6,W7,W8]
        [--fixed] [--spots] [--games 200] [--first-seed 1001] [--ai heuristic|random] [--jobs N]

The balance report (scripts/balance_report.py) lets the AI choose the gates in turn
order, and the AI's values for a table's points lie within a few percent of each other,
so one arrangement decides every game and a seat's rate there is that arrangement's.
Here the points are handed out in clockwise order and rotated: in game k seat i takes
point (i + k) mod n of the list, so every seat sits at every point equally often and
the seats keep the clockwise order they have round a table (the rulebook: "It is
simplest and most intuitive to just place on the entrance closest to your seat"; in
team mode partners then sit beside each other, as the rules ask). What a point is worth
then shows in its win rate whoever sits there, and what a seat is worth in the seat's.
With `--fixed` the points go to the seats in the order given, the same in every game: one
arrangement measured on its own (for example the one the AI's gate choices make, or one
of the rotations), to compare with the balance report's table.

Prints, per point and per seat, the win share with a 95% Wilson interval against the
fair rate, the mean score and where the honour came from; with `--spots`, also where
each statue spot's statue ends up scoring: the mean statue honour a game it brings
each point (its tunnel's best statue, or the altar bonus of a hall it stands in), so a
spot that one point harvests can be moved towards a poorer one, and per seat, so a spot
that goes to the earlier seats whatever their points (a race of turn order) shows. With
the gates rotated it also prints each seat's win share at each point. The points default
to those marked for the table in the current rules edition (2 players: give them).
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

from rules import engine
from rules.actions import Action, PlaceGate
from rules.content import load_content
from rules.errors import RulesError
from rules.scoring import best_statue, piece_owners
from rules.selfplay import play_game, policy_named
from rules.setup import new_game
from rules.state import EDITION, GameConfig, State, make_config
from scripts.balance_report import PROGRESS_GAMES, pct, progress_line, wilson_interval

PARTS = ("statues", "halls", "tunnels", "pedestals", "coronation", "sets", "spells")


@dataclass(frozen=True)
class Seated:
    """One seat's game: where it sat, its share of the win, its score by source."""

    seat: int
    point: str
    win: float  # 1/k of a win shared by k sides, a team's split between its partners
    total: int
    parts: tuple[int, ...]  # as PARTS
    spots: tuple[tuple[str, int], ...] = ()  # (statue spot, honour its statue brought)


Task = tuple[int, bool, tuple[str, ...], int, int, str]  # players, teams, points, seed, k, ai


def rotated(points: Sequence[str], k: int, seat: int) -> str:
    """The point seat `seat` takes in the k-th game."""
    return points[(seat + k) % len(points)]


def arrangement_refusal(config: GameConfig, points: Sequence[str], k: int) -> str | None:
    """Why the rules refuse the k-th arrangement (a point not marked for the table, taken
    twice, or team partners apart), or None: its gates are placed in a new game."""
    state = new_game(config, 0)
    for seat in range(config.players):
        point = rotated(points, k, seat)
        try:
            engine.apply(state, seat, PlaceGate(point))
        except RulesError as error:
            return f"seat {seat + 1} on {point}: {error}"
    return None


def play_one(task: Task) -> list[Seated]:
    players, teams, points, seed, k, ai = task
    config = make_config(players=players, teams=teams)
    chooser = policy_named(ai)

    def policy(state: State, seat: int, rng: random.Random) -> Action:
        if state.phase == "gates":
            return PlaceGate(rotated(points, k, seat))
        return chooser(state, seat, rng)

    spot_of: dict[str, str] = {}
    before: dict[str, str] = {}

    def follow(state: State, seat: int, action: Action) -> None:
        nonlocal before
        now = state.board.statues
        if not spot_of:
            spot_of.update({cell: cell for cell in now})
        follow_statues(spot_of, before, now)
        before = dict(now)

    game = play_game(config, seed, policy, on_action=follow)
    credits = statue_credits(game.state, spot_of)
    outcome = game.outcome
    assert outcome is not None
    won = [line for line in outcome.breakdowns if set(line.seats) & set(outcome.winning_seats)]
    out = []
    for line in outcome.breakdowns:
        share = (1 / len(won) if line in won else 0.0) / len(line.seats)
        for seat in line.seats:
            parts = tuple(int(getattr(line, part)) for part in PARTS)
            spots = tuple(credits.get(seat, ()))
            out.append(Seated(seat, rotated(points, k, seat), share, line.total, parts, spots))
    return out


def follow_statues(spot_of: dict[str, str], before: dict[str, str], now: dict[str, str]) -> None:
    """Keep `spot_of` (a statue's cell -> the spot it started on) up to date over one
    action: a statue that left a cell is the one of its clan that arrived elsewhere."""
    left = [cell for cell in before if cell not in now]
    arrived = [cell for cell in now if cell not in before]
    for cell in arrived:
        origin = next((c for c in left if before[c] == now[cell]), None)
        if origin is not None:
            left.remove(origin)
            spot_of[cell] = spot_of.pop(origin)


def statue_credits(state: State, spot_of: dict[str, str]) -> dict[int, list[tuple[str, int]]]:
    """Per seat, the statue honour each statue brought it at the end, by starting spot."""
    halls = {h.id: h for h in load_content().halls}
    owners = piece_owners(state)
    statues = state.board.statues
    out: dict[int, list[tuple[str, int]]] = defaultdict(list)
    for piece in state.board.pieces:
        seat = owners[piece.id]
        if seat is None:
            continue
        if piece.kind == "hall":
            if piece.altar in statues:
                info = halls[piece.name]
                out[seat].append((spot_of[piece.altar], info.high - info.low))
            continue
        value, cell = best_statue(state, piece)
        if cell is not None:
            out[seat].append((spot_of[cell], value))
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
    parser.add_argument(
        "--points", help="start points in clockwise order (with --fixed: seat by seat)"
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first-seed", type=int, default=1001)
    parser.add_argument("--ai", default="heuristic", choices=("heuristic", "random"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--spots", action="store_true", help="where each statue spot scores")
    parser.add_argument(
        "--fixed",
        action="store_true",
        help="seat i takes the i-th point in every game (one arrangement, not rotated)",
    )
    args = parser.parse_args(argv)
    config = make_config(players=args.players, teams=args.teams)
    points = args.points.split(",") if args.points else default_points(config)
    if len(points) != args.players:
        parser.error(f"give {args.players} start points (--points), not {len(points)}")
    for k in [0] if args.fixed else range(args.players):
        refusal = arrangement_refusal(config, points, k)
        if refusal is not None:
            parser.error(f"the rules refuse this arrangement: {refusal}")
    tasks: list[Task] = [
        (
            args.players,
            args.teams,
            tuple(points),
            args.first_seed + k,
            0 if args.fixed else k,
            args.ai,
        )
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
    how = (
        "gates handed out in this order, the same in every game"
        if args.fixed
        else "gates handed out clockwise and rotated over the seats"
    )
    print(f"## {label}: {how}")
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
    if not args.fixed:
        print()
        print("\n".join(seat_point_table(by_seat, points, args.players)))
    if args.spots:
        print()
        print("\n".join(spot_table(by_point, points, args.games)))
        print()
        print("\n".join(spot_seat_table(by_seat, args.players, args.games)))
    return 0


def seat_point_table(
    by_seat: dict[str, list[Seated]], points: Sequence[str], players: int
) -> list[str]:
    """Each seat's win share at each point: the seat's edge and the point's apart, and
    where the two do not add up (a seat that does well everywhere but at one point
    loses a race there to the neighbour who moves before it)."""
    lines = [
        "Win share by seat at each point (games in brackets):",
        "",
        "| seat | " + " | ".join(points) + " |",
        "|---|" + "---|" * len(points),
    ]
    for i in range(players):
        at: dict[str, list[Seated]] = defaultdict(list)
        for s in by_seat[f"seat {i + 1}"]:
            at[s.point].append(s)
        cells = [
            f"{pct(sum(s.win for s in at[p]) / len(at[p]))} ({len(at[p])})" if at[p] else "-"
            for p in points
        ]
        lines.append(f"| seat {i + 1} | " + " | ".join(cells) + " |")
    return lines


def spot_table(by_point: dict[str, list[Seated]], points: Sequence[str], games: int) -> list[str]:
    """Each statue spot's mean statue honour a game, per point that scored it."""
    return _spot_lines("the point", {p: by_point[p] for p in points}, games)


def spot_seat_table(by_seat: dict[str, list[Seated]], players: int, games: int) -> list[str]:
    """Each statue spot's mean statue honour a game, per seat that scored it: a rich
    spot that goes to the earlier seats whatever their points is a race of turn order."""
    seats = [f"seat {i + 1}" for i in range(players)]
    return _spot_lines("the seat", {k: by_seat[k] for k in seats}, games)


def _spot_lines(who: str, seated: dict[str, list[Seated]], games: int) -> list[str]:
    """The spot table over `seated`'s columns (points or seats), in its order."""
    columns = list(seated)
    honour: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for column in columns:
        for s in seated[column]:
            for spot, value in s.spots:
                honour[spot][column] += value / games
    lines = [
        f"Statue honour a game by starting spot and {who} whose tunnel scored it"
        " (the tunnel's best statue, or a hall's altar bonus):",
        "",
        "| spot | " + " | ".join(columns) + " | all |",
        "|---|" + "---|" * (len(columns) + 1),
    ]
    for spot in sorted(honour, key=lambda c: (int(c[1:]), c[0])):
        row = honour[spot]
        lines.append(
            f"| {spot} | "
            + " | ".join(f"{row[c]:.1f}" for c in columns)
            + f" | {sum(row.values()):.1f} |"
        )
    return lines


if __name__ == "__main__":
    sys.exit(main())
