"""Balance report from self-played games, big enough to tell chance from a seat advantage:

    .venv/bin/python -m scripts.balance_report [--games 200] [--first-seed 1001]
        [--tables 2,3,4,5,teams] [--ai heuristic|random] [--jobs N] [--rare 0.25]
        [--out docs/balance.md] [--json balance.json]

Every table (player count, or 4 players in teams) plays the same seeds, in parallel
worker processes, with progress on stderr. Per table: the score figures, and wins by
seat (a shared win counts 1/k to each of its k winners) with a 95% Wilson score
interval, against the fair rate (1/players; 1/2 per team in team mode), and how often a table
where every side wins equally often would pass the 5-point check anyway at that number
of games (exact, from the multinomial: at 200 games only 73% for 4 players, so one
failed check is weak evidence on its own). Over all games:
how often each spell, workshop and great hall was used, and in what share of the games
where it was available. Prints markdown (and writes it with --out); --json writes the
raw figures, one summary per game, for later comparison. A game that raises is reported
(table, seed, error), left out of the figures, and makes the exit status 1.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import shlex
import statistics
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from multiprocessing.pool import Pool
from pathlib import Path
from typing import Any

from rules.actions import Action, Cast, DedicateHall, EndTurn, UseWorkshop
from rules.content import load_content
from rules.selfplay import play_game
from rules.setup import new_game
from rules.state import GameConfig, State, make_config

TABLES: dict[str, tuple[str, dict[str, Any]]] = {
    "2": ("2 players", {"players": 2}),
    "3": ("3 players", {"players": 3}),
    "4": ("4 players", {"players": 4}),
    "5": ("5 players", {"players": 5}),
    "teams": ("4 players in teams", {"players": 4, "teams": True}),
}
TARGET_PP = 0.05  # the project's target: every seat within 5 points of the fair rate
Z95 = 1.959963984540054  # the 97.5% quantile of the standard normal distribution
PROGRESS_GAMES = 10  # a progress line every this many games ...
PROGRESS_SECONDS = 15.0  # ... or this many seconds, whichever comes first
NONE_ARGS = ("none",)  # a cast that pays the rune and ignores the effect

Task = tuple[str, int, str]  # table key, seed, AI


# --- statistics ------------------------------------------------------------------------


def wilson_interval(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion of `wins` in `n` trials (`wins` may be
    fractional, e.g. shared wins). For n == 0 it is the whole range (0, 1)."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def fair_pass_chance(sides: int, games: int, bound: float = TARGET_PP) -> float:
    """The chance that a perfectly fair table passes the target check anyway: with every
    one of `sides` sides winning each of `games` games with probability 1/sides (no
    shared wins), that every side's win rate lies within `bound` of 1/sides. A table
    that fails the check is unfair only as surely as this is near 1.

    Exact: the sides' win counts are multinomial, taken side by side as binomials of the
    games the earlier sides left (the k-th of the last m sides wins each remaining game
    with probability 1/m)."""
    if sides < 1 or games < 1:
        return 1.0
    fair = 1 / sides
    low = max(0, math.ceil(games * (fair - bound) - 1e-9))
    high = min(games, math.floor(games * (fair + bound) + 1e-9))
    # chance[r]: the sides still to come, sharing r remaining games, all within bounds
    chance = [1.0 if low <= r <= high else 0.0 for r in range(games + 1)]
    for m in range(2, sides + 1):  # m sides still to come, the first of them next
        p = 1 / m
        log_p, log_q = math.log(p), math.log1p(-p)
        nxt = [0.0] * (games + 1)
        for r in range(games + 1):
            total = 0.0
            for c in range(low, min(high, r) + 1):
                if chance[r - c]:
                    log_pmf = (
                        math.lgamma(r + 1)
                        - math.lgamma(c + 1)
                        - math.lgamma(r - c + 1)
                        + c * log_p
                        + (r - c) * log_q
                    )
                    total += math.exp(log_pmf) * chance[r - c]
            nxt[r] = total
        chance = nxt
    return chance[games]


# --- one game (runs in a worker) -------------------------------------------------------


@dataclass(frozen=True)
class GameSummary:
    """What the report needs of one game; small and picklable."""

    table: str
    seed: int
    scores: tuple[int, ...]  # per seat (in team mode the team's score)
    sides: tuple[tuple[int, ...], ...]  # seats of each scoring side (player or team)
    winners: tuple[int, ...]  # winning seats
    turns: int  # turns taken (all seats)
    seconds: float
    casts: dict[str, int]  # spell id -> casts with a real effect
    workshop_uses: dict[str, int]  # workshop id -> uses
    halls: dict[str, int]  # hall id -> times dedicated
    spells_available: tuple[str, ...]  # in the spellbook at some point
    workshops_available: tuple[str, ...]  # in the supply or on the board
    halls_available: tuple[str, ...]
    gates: tuple[str, ...] = ()  # per seat, the start point its gate went on

    def side_scores(self) -> list[int]:
        return [self.scores[side[0]] for side in self.sides]


@dataclass
class _Tracker:
    """Counts uses as the game is played (called after every action)."""

    spells_seen: set[str]
    turns: int = 0
    casts: Counter[str] = field(default_factory=Counter)
    workshop_uses: Counter[str] = field(default_factory=Counter)
    halls: Counter[str] = field(default_factory=Counter)

    def __call__(self, state: State, seat: int, action: Action) -> None:
        if isinstance(action, EndTurn):
            self.turns += 1
        elif isinstance(action, Cast):
            if action.args != NONE_ARGS:
                self.casts[action.spell] += 1
            self.spells_seen.update(s.spell for s in state.spellbook)  # a spell may vanish
        elif isinstance(action, UseWorkshop):
            self.workshop_uses[state.board.workshops.get(action.site, "?")] += 1
        elif isinstance(action, DedicateHall):
            self.halls[action.hall] += 1


def table_config(key: str) -> GameConfig:
    return make_config(**TABLES[key][1])


@dataclass(frozen=True)
class GameFailure:
    """A game that raised: reported and left out of the figures."""

    table: str
    seed: int
    error: str  # the exception's last line
    traceback: str

    def describe(self) -> str:
        return f"{TABLES[self.table][0]}, seed {self.seed}: {self.error}"


Result = GameSummary | GameFailure


def play_one(task: Task) -> Result:
    """Play one self-play game and summarize it (a crash becomes a `GameFailure`, so
    one bad seed does not throw away a long run)."""
    try:
        return play_summary(task)
    except Exception as exc:
        error = f"{type(exc).__name__}: {exc}"
        return GameFailure(task[0], task[1], error, traceback.format_exc())


def play_summary(task: Task) -> GameSummary:
    """Play one self-play game and summarize it."""
    key, seed, ai = task
    config = table_config(key)
    start = new_game(config, seed)
    tracker = _Tracker(spells_seen={s.spell for s in start.spellbook})
    began = time.perf_counter()
    game = play_game(config, seed, ai, on_action=tracker)
    seconds = time.perf_counter() - began
    outcome = game.outcome
    assert outcome is not None
    scores = [0] * config.players
    for line in outcome.breakdowns:
        for seat in line.seats:
            scores[seat] = line.total
    return GameSummary(
        table=key,
        seed=seed,
        scores=tuple(scores),
        sides=tuple(line.seats for line in outcome.breakdowns),
        winners=tuple(outcome.winning_seats),
        turns=tracker.turns,
        seconds=round(seconds, 4),
        casts=dict(tracker.casts),
        workshop_uses=dict(tracker.workshop_uses),
        halls=dict(tracker.halls),
        spells_available=tuple(sorted(tracker.spells_seen)),
        workshops_available=tuple(
            sorted(set(start.workshop_supply) | set(game.state.board.workshops.values()))
        ),
        halls_available=tuple(sorted(start.halls_left)),
        gates=tuple(sorted(game.state.board.gates, key=lambda p: game.state.board.gates[p])),
    )


# --- running a table with progress -----------------------------------------------------


def format_duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h{minutes:02d}m{secs:02d}s"
    return f"{minutes}m{secs:02d}s" if minutes else f"{secs}s"


def progress_line(label: str, done: int, total: int, elapsed: float) -> str:
    rate = done / elapsed if elapsed > 0 else 0.0
    eta = format_duration((total - done) / rate) if rate > 0 else "?"
    return f"{label}: {done}/{total} games, {rate:.3g} games/s, ETA {eta}"


def _results(tasks: list[Task], pool: Pool | None) -> Iterator[Result | None]:
    """Game results as they finish; None when nothing finished for a while (so the
    caller can still report progress)."""
    if pool is None:
        yield from map(play_one, tasks)
        return
    pending = pool.imap_unordered(play_one, tasks, chunksize=1)
    for _ in tasks:
        while True:
            try:
                yield pending.next(timeout=PROGRESS_SECONDS)
                break
            except multiprocessing.TimeoutError:
                yield None


@dataclass
class TableRun:
    """A table's finished games (by seed), failed games and wall time."""

    key: str
    games: list[GameSummary] = field(default_factory=list)
    failures: list[GameFailure] = field(default_factory=list)
    wall: float = 0.0


def run_table(key: str, seeds: range, ai: str, pool: Pool | None) -> TableRun:
    """Play a table's games, with progress on stderr."""
    label = TABLES[key][0]
    tasks = [(key, seed, ai) for seed in seeds]
    run = TableRun(key)
    print(f"{label}: {len(tasks)} games, {ai} AI", file=sys.stderr, flush=True)
    began = last = time.perf_counter()
    for result in _results(tasks, pool):
        if isinstance(result, GameFailure):
            run.failures.append(result)
            print(f"FAILED {result.describe()}", file=sys.stderr, flush=True)
        elif result is not None:
            run.games.append(result)
        done, now = len(run.games) + len(run.failures), time.perf_counter()
        if done < len(tasks) and (
            result is None or done % PROGRESS_GAMES == 0 or now - last >= PROGRESS_SECONDS
        ):
            print(progress_line(label, done, len(tasks), now - began), file=sys.stderr)
            last = now
    run.wall = time.perf_counter() - began
    failed = f", {len(run.failures)} FAILED" if run.failures else ""
    print(
        f"{label}: {len(run.games)}/{len(tasks)} games done{failed} in"
        f" {format_duration(run.wall)}, {len(tasks) / run.wall:.3g} games/s",
        file=sys.stderr,
        flush=True,
    )
    run.games.sort(key=lambda g: g.seed)
    run.failures.sort(key=lambda f: f.seed)
    return run


# --- figures ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SideRow:
    """Wins of one seat or team."""

    name: str
    wins: float
    games: int
    fair: float
    mean_score: float

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def near_fair(self) -> bool:
        return abs(self.rate - self.fair) <= TARGET_PP + 1e-12

    @property
    def covers_fair(self) -> bool:
        low, high = self.interval
        return low <= self.fair <= high

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "name": self.name,
            "wins": self.wins,
            "games": self.games,
            "rate": self.rate,
            "low": low,
            "high": high,
            "fair": self.fair,
            "within_target": self.near_fair,
            "interval_includes_fair": self.covers_fair,
            "mean_score": self.mean_score,
        }


def seat_shares(game: GameSummary) -> dict[int, float]:
    """Each winning seat's share of the game's win (1/k for k winners)."""
    return {seat: 1 / len(game.winners) for seat in game.winners}


def seat_rows(games: Sequence[GameSummary], colours: Sequence[str]) -> list[SideRow]:
    rows = []
    for seat, colour in enumerate(colours):
        wins = sum(seat_shares(g).get(seat, 0.0) for g in games)
        mean = statistics.mean(g.scores[seat] for g in games)
        name = f"seat {seat + 1} ({colour})"
        rows.append(SideRow(name, wins, len(games), 1 / len(colours), mean))
    return rows


def team_rows(games: Sequence[GameSummary]) -> list[SideRow]:
    rows = []
    for index, seats in enumerate(games[0].sides):
        wins = sum(sum(seat_shares(g).get(s, 0.0) for s in seats) for g in games)
        mean = statistics.mean(g.scores[seats[0]] for g in games)
        name = f"team {index + 1} (seats {'+'.join(str(s + 1) for s in seats)})"
        rows.append(SideRow(name, wins, len(games), 1 / len(games[0].sides), mean))
    return rows


@dataclass(frozen=True)
class TableFigures:
    key: str
    label: str
    games: list[GameSummary]
    failures: list[GameFailure]
    wall: float
    seats: list[SideRow]  # empty if no game finished
    teams: list[SideRow]  # empty unless team mode

    @property
    def judged(self) -> list[SideRow]:
        """The sides whose win rates are judged: teams in team mode, else seats."""
        return self.teams or self.seats

    @property
    def near_fair(self) -> bool:
        return bool(self.judged) and all(r.near_fair for r in self.judged)

    @property
    def covers_fair(self) -> bool:
        return bool(self.judged) and all(r.covers_fair for r in self.judged)

    @property
    def fair_pass_chance(self) -> float:
        """How often a perfectly fair table this size would pass `near_fair`."""
        return fair_pass_chance(len(self.judged), len(self.games))

    def score_figures(self) -> dict[str, float]:
        scores = [s for g in self.games for s in g.side_scores()]
        players = len(self.seats)
        return {
            "mean": statistics.mean(scores),
            "sd": statistics.pstdev(scores),
            "min": min(scores),
            "max": max(scores),
            "winner_mean": statistics.mean(max(g.side_scores()) for g in self.games),
            "turns_per_player": statistics.mean(g.turns / players for g in self.games),
            "seconds_per_game": statistics.mean(g.seconds for g in self.games),
        }


def table_figures(run: TableRun) -> TableFigures:
    config = table_config(run.key)
    games = run.games
    seats = seat_rows(games, config.seat_colours) if games else []
    teams = team_rows(games) if config.teams and games else []
    return TableFigures(run.key, TABLES[run.key][0], games, run.failures, run.wall, seats, teams)


@dataclass(frozen=True)
class UseRow:
    kind: str  # spell, workshop or hall
    id: str
    name: str
    uses: int
    games_used: int
    games_available: int

    @property
    def share(self) -> float | None:
        return self.games_used / self.games_available if self.games_available else None


def use_rows(games: Sequence[GameSummary]) -> list[UseRow]:
    content = load_content()
    kinds: list[tuple[str, Sequence[Any], Callable[[GameSummary], tuple[dict[str, int], Any]]]]
    kinds = [
        ("spell", content.spells, lambda g: (g.casts, g.spells_available)),
        ("workshop", content.workshops, lambda g: (g.workshop_uses, g.workshops_available)),
        ("great hall", content.halls, lambda g: (g.halls, g.halls_available)),
    ]
    rows = []
    for kind, items, pick in kinds:
        for item in items:
            counts = [(pick(g)[0].get(item.id, 0), item.id in pick(g)[1]) for g in games]
            rows.append(
                UseRow(
                    kind,
                    item.id,
                    item.name,
                    uses=sum(n for n, _ in counts),
                    games_used=sum(1 for n, _ in counts if n),
                    games_available=sum(1 for _, available in counts if available),
                )
            )
    return rows


# --- markdown --------------------------------------------------------------------------


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def yes_no(flag: bool) -> str:
    return "yes" if flag else "**no**"


def header_lines(args: argparse.Namespace, command: str) -> list[str]:
    last = args.first_seed + args.games - 1
    return [
        f"Made with `{command}`: the `{args.ai}` AI in every seat, {args.games} games per"
        f" table (seeds {args.first_seed} to {last}, the same for every table),"
        f" {args.jobs} worker processes on a machine with {os.cpu_count()} CPUs.",
        "",
    ]


def summary_lines(tables: Sequence[TableFigures]) -> list[str]:
    lines = [
        "| table | games | mean score | sd | min-max | winner's mean | turns per player"
        " | s/game | wall | every win rate within 5 pp of fair | chance a fair table"
        " is | every 95% interval includes fair |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for t in tables:
        lines.append(summary_row(t))
    together = math.prod(t.fair_pass_chance for t in tables if t.games)
    return [
        *lines,
        "",
        "s/game is one game on one core; wall is the table's elapsed time. In team mode"
        " the teams are judged (fair 50%); seats share their team's wins (fair 25%)."
        ' "Chance a fair table is" within 5 pp: how often a table where every side wins'
        " equally often would still show every win rate within 5 pp of fair in this many"
        f" games, by chance alone (all these tables at once: {pct(together)}).",
        "",
    ]


def summary_row(t: TableFigures) -> str:
    games = f"{len(t.games)}" + (f" (+{len(t.failures)} **failed**)" if t.failures else "")
    if not t.games:
        return f"| {t.label} | {games} |" + " - |" * 10
    f = t.score_figures()
    return (
        f"| {t.label} | {games} | {f['mean']:.1f} | {f['sd']:.1f} |"
        f" {f['min']:.0f}-{f['max']:.0f} | {f['winner_mean']:.1f} |"
        f" {f['turns_per_player']:.1f} | {f['seconds_per_game']:.2f} |"
        f" {format_duration(t.wall)} | {yes_no(t.near_fair)} | {pct(t.fair_pass_chance)} |"
        f" {yes_no(t.covers_fair)} |"
    )


def failure_lines(failures: Sequence[GameFailure]) -> list[str]:
    if not failures:
        return []
    lines = [f"**{len(failures)} games failed** and are left out of every figure:", ""]
    return [*lines, *(f"- {f.describe()}" for f in failures), ""]


def side_table(rows: Sequence[SideRow], what: str) -> list[str]:
    lines = [
        f"| {what} | wins | win rate | 95% interval | vs fair | mean score"
        " | within 5 pp | interval includes fair |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        low, high = r.interval
        wins = f"{r.wins:g}" if r.wins == int(r.wins) else f"{r.wins:.1f}"
        lines.append(
            f"| {r.name} | {wins} | {pct(r.rate)} | {pct(low)}-{pct(high)} |"
            f" {100 * (r.rate - r.fair):+.1f} pp | {r.mean_score:.1f} | {yes_no(r.near_fair)} |"
            f" {yes_no(r.covers_fair)} |"
        )
    return lines


def wins_lines(t: TableFigures) -> list[str]:
    if not t.games:
        return [f"### {t.label}", "", "No game finished.", ""]
    what = "team" if t.teams else "seat"
    lines = [
        f"### {t.label}",
        "",
        f"{len(t.games)} games; fair rate {pct(t.judged[0].fair)} per {what}."
        f" Every {what} within 5 pp of fair: {yes_no(t.near_fair)};"
        f" every 95% interval includes fair: {yes_no(t.covers_fair)}."
        f" A table where every {what} wins equally often would have every {what} within"
        f" 5 pp in {pct(t.fair_pass_chance)} of samples of {len(t.games)} games.",
        "",
    ]
    if t.teams:
        lines += [*side_table(t.teams, "team"), ""]
    return [*lines, *side_table(t.seats, "seat"), "", *gate_lines(t.games)]


def gate_lines(games: Sequence[GameSummary]) -> list[str]:
    """Where each seat's gate went, in how many games (the AI chooses the start points
    in turn order, so a seat's win rate is largely that of the points it gets)."""
    counts: list[Counter[str]] = []
    for game in games:
        for seat, point in enumerate(game.gates):
            if seat == len(counts):
                counts.append(Counter())
            counts[seat][point] += 1
    if not counts:
        return []
    seats = "; ".join(
        f"seat {seat + 1} "
        + ", ".join(f"{point} {n}" for point, n in sorted(c.items(), key=lambda kv: -kv[1]))
        for seat, c in enumerate(counts)
    )
    return [f"Start points (games): {seats}.", ""]


def uses_lines(rows: Sequence[UseRow], games: int, rare: float) -> list[str]:
    lines = [
        f"## Uses over all {games} games",
        "",
        "Spells cast for their effect (not `none`), workshop uses, great halls dedicated;"
        " available means in the spellbook at some point, or in the workshop supply or on"
        " the board (every great hall is available in every game). Rare: used in less than"
        f" {pct(rare)} of the games where it was available.",
        "",
        "| kind | name | uses | games used in | games available | share of available | rare |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        share = "-" if r.share is None else pct(r.share)
        flag = "**rare**" if r.share is not None and r.share < rare else ""
        lines.append(
            f"| {r.kind} | {r.name} | {r.uses} | {r.games_used} | {r.games_available} |"
            f" {share} | {flag} |"
        )
    return lines


def markdown(
    args: argparse.Namespace, command: str, tables: Sequence[TableFigures], uses: list[UseRow]
) -> str:
    lines = header_lines(args, command) + summary_lines(tables)
    lines += failure_lines([f for t in tables for f in t.failures])
    lines += [
        "## Wins by seat",
        "",
        "A shared win counts 1/k to each of its k winners. The interval is the 95% Wilson"
        " score interval; with several seats, about one interval in twenty misses the fair"
        " rate by chance alone.",
        "",
    ]
    for t in tables:
        lines += wins_lines(t)
    lines += uses_lines(uses, sum(len(t.games) for t in tables), args.rare)
    return "\n".join(lines) + "\n"


def json_report(
    args: argparse.Namespace, command: str, tables: Sequence[TableFigures], uses: list[UseRow]
) -> dict[str, Any]:
    return {
        "command": command,
        "options": {
            "games": args.games,
            "first_seed": args.first_seed,
            "tables": args.tables,
            "ai": args.ai,
            "jobs": args.jobs,
            "rare": args.rare,
        },
        "cpu_count": os.cpu_count(),
        "tables": [
            {
                "key": t.key,
                "label": t.label,
                "wall_seconds": t.wall,
                "scores": t.score_figures(),
                "fair_pass_chance": t.fair_pass_chance,
                "seats": [r.to_json() for r in t.seats],
                "teams": [r.to_json() for r in t.teams],
                "games": [asdict(g) for g in t.games],
                "failures": [asdict(f) for f in t.failures],
            }
            for t in tables
        ],
        "uses": [{**asdict(r), "share": r.share} for r in uses],
    }


# --- command line ----------------------------------------------------------------------


def table_list(text: str) -> list[str]:
    keys = [k.strip() for k in text.split(",") if k.strip()]
    unknown = [k for k in keys if k not in TABLES]
    if unknown or not keys:
        raise argparse.ArgumentTypeError(
            f"tables are a comma list of {','.join(TABLES)} (got {text!r})"
        )
    return list(dict.fromkeys(keys))


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1 (got {value})")
    return value


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--games", type=positive, default=200, help="games per table")
    parser.add_argument("--first-seed", type=int, default=1001, help="seeds S..S+games-1")
    parser.add_argument(
        "--tables", type=table_list, default=list(TABLES), help="comma list of 2,3,4,5,teams"
    )
    parser.add_argument("--ai", choices=("heuristic", "random"), default="heuristic")
    parser.add_argument("--jobs", type=positive, default=os.cpu_count() or 1)
    parser.add_argument(
        "--rare", type=float, default=0.25, help="flag uses below this share of games"
    )
    parser.add_argument("--out", type=Path, help="write the markdown here")
    parser.add_argument("--json", type=Path, help="write the raw figures here as JSON")
    return parser.parse_args(argv)


def run_tables(args: argparse.Namespace) -> list[TableFigures]:
    seeds = range(args.first_seed, args.first_seed + args.games)
    if args.jobs == 1:
        return [table_figures(run_table(k, seeds, args.ai, None)) for k in args.tables]
    with multiprocessing.Pool(args.jobs) as pool:
        return [table_figures(run_table(k, seeds, args.ai, pool)) for k in args.tables]


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parse_args(argv)
    command = shlex.join([".venv/bin/python", "-m", "scripts.balance_report", *argv])
    tables = run_tables(args)
    uses = use_rows([g for t in tables for g in t.games])
    text = markdown(args, command, tables, uses)
    print(text, end="")
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    if args.json:
        report = json_report(args, command, tables, uses)
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    failed = sum(len(t.failures) for t in tables)
    if failed:
        print(f"{failed} games FAILED (listed in the report)", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
