"""Fairness figures for the board sides in rules/data/boards.json.

Run from the repository root: `.venv/bin/python -m scripts.board_fairness`.

For each side and each player count it serves, every mountain cell (the Heart
excluded) goes to its nearest start point in use: shortest path over mountain cells
with 4-neighbour steps, a tie split evenly between the tied points. Each start point
then gets the cells it owns per tier and the rubble, buried resources, statue spots
and workshop sites on them, plus its own distance to the Heart. Two players may use
any two start points sharing a number, so every such pair is a configuration of its
own. The output is plain text and deterministic (it only reads rules/data).

`--selfplay ROUNDS` adds a check in play (slow: a few seconds a game): for each side
and player count (not the 2-player pairs), ROUNDS rounds of games between heuristic AI
players (rules.ai), the gates handed out so that each seat sits at each start point
once a round, and the mean final honor per start point.
"""

from __future__ import annotations

import argparse
import random
import statistics
import textwrap
from collections import defaultdict, deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from rules.content import BoardSide, StartPoint, load_content
from rules.grid import Cell, cell_name, neighbours, parse_cell

TIERS = "12345"
HEART = "H"
# Worth of a buried resource in the fairness sums (minerals by their tunnel value).
BURIED_VALUE: dict[str, float] = {"stone": 1.0, "iron": 1.5, "heartstone": 2.0}
OTHER_BURIED_VALUE = 1.0
# Map letters for buried resources (lower case; upper case when under rubble).
BURIED_LETTER: dict[str, str] = {
    "stone": "s",
    "iron": "i",
    "heartstone": "h",
    "coin": "c",
    "cart": "k",
    "hammer": "m",
    "rune": "r",
}

Owners = dict[Cell, dict[str, float]]


def buried_value(resource: str) -> float:
    return BURIED_VALUE.get(resource, OTHER_BURIED_VALUE)


def on_mountain(tiers: Sequence[str], cell: Cell) -> bool:
    x, y = cell
    return 0 <= y < len(tiers) and 0 <= x < len(tiers[0]) and tiers[y][x] in TIERS


def mountain_cells(tiers: Sequence[str]) -> list[Cell]:
    return [(x, y) for y, row in enumerate(tiers) for x, ch in enumerate(row) if ch in TIERS]


def distances(tiers: Sequence[str], source: Cell) -> dict[Cell, int]:
    """Steps from `source` to every mountain cell (4-neighbour, never through the Heart)."""
    dist = {source: 0}
    queue = deque([source])
    while queue:
        cell = queue.popleft()
        for nxt in neighbours(cell):
            if nxt not in dist and on_mountain(tiers, nxt):
                dist[nxt] = dist[cell] + 1
                queue.append(nxt)
    return dist


def heart_distance(tiers: Sequence[str], source: Cell) -> int:
    """Steps from `source` into the Heart: one more than the path to a cell beside it."""
    best = -1
    for cell, steps in distances(tiers, source).items():
        x, y = cell
        beside = any(
            0 <= ny < len(tiers) and 0 <= nx < len(tiers[0]) and tiers[ny][nx] == HEART
            for nx, ny in neighbours((x, y))
        )
        if beside and (best < 0 or steps + 1 < best):
            best = steps + 1
    return best


def ownership(tiers: Sequence[str], points: Sequence[tuple[str, Cell]]) -> Owners:
    """Each mountain cell's share per start point id (nearest point; ties split evenly)."""
    maps = [(pid, distances(tiers, cell)) for pid, cell in points]
    owners: Owners = {}
    for cell in mountain_cells(tiers):
        reach = [(dist[cell], pid) for pid, dist in maps if cell in dist]
        if not reach:
            continue
        nearest = min(steps for steps, _ in reach)
        tied = [pid for steps, pid in reach if steps == nearest]
        owners[cell] = {pid: 1 / len(tied) for pid in tied}
    return owners


def configurations(side: BoardSide) -> list[tuple[str, list[StartPoint]]]:
    """Every set of start points a game can use: per player count, and for two players
    every pair of points sharing a number."""
    configs: list[tuple[str, list[StartPoint]]] = []
    for count in sorted(side.players):
        if count != 2:
            used = [p for p in side.start_points if count in p.players]
            configs.append((f"{count}p", used))
    if 2 in side.players:
        seen: set[tuple[str, str]] = set()
        for a, b in combinations(side.start_points, 2):
            if set(a.players) & set(b.players) and (a.id, b.id) not in seen:
                seen.add((a.id, b.id))
                configs.append((f"2p {a.id}+{b.id}", [a, b]))
    return configs


@dataclass
class Share:
    """What one start point owns in one configuration."""

    tiers: list[float] = field(default_factory=lambda: [0.0] * len(TIERS))
    rubble: float = 0.0
    buried: float = 0.0
    buried_value: float = 0.0
    statues: float = 0.0
    statue_value: float = 0.0
    workshops: float = 0.0
    heart: int = 0

    def row(self) -> list[float]:
        return [
            *self.tiers,
            self.rubble,
            self.buried,
            self.buried_value,
            self.statues,
            self.statue_value,
            self.workshops,
            float(self.heart),
        ]


COLUMNS: tuple[str, ...] = (
    "t1",
    "t2",
    "t3",
    "t4",
    "t5",
    "rubble",
    "buried",
    "b.val",
    "statue",
    "s.val",
    "wshop",
    "heart",
)


def tally(
    tiers: Sequence[str],
    points: Sequence[tuple[str, Cell]],
    owners: Owners,
    *,
    rubble: Iterable[Cell],
    buried: Mapping[Cell, str],
    statue_spots: Iterable[Cell],
    workshop_sites: Iterable[Cell],
    statue_values: Sequence[int],
) -> dict[str, Share]:
    shares = {pid: Share() for pid, _ in points}

    def add(cells: Iterable[Cell], put: str, weigh: Mapping[Cell, float] | None = None) -> None:
        for cell in cells:
            for pid, part in owners.get(cell, {}).items():
                share = shares[pid]
                amount = part * (weigh[cell] if weigh is not None else 1.0)
                setattr(share, put, getattr(share, put) + amount)

    for cell, parts in owners.items():
        tier = int(tiers[cell[1]][cell[0]])
        for pid, part in parts.items():
            shares[pid].tiers[tier - 1] += part
    statue_cells = list(statue_spots)
    add(rubble, "rubble")
    add(buried, "buried")
    add(buried, "buried_value", {c: buried_value(r) for c, r in buried.items()})
    add(statue_cells, "statues")
    add(
        statue_cells,
        "statue_value",
        {c: float(statue_values[int(tiers[c[1]][c[0]]) - 1]) for c in statue_cells},
    )
    add(workshop_sites, "workshops")
    for pid, cell in points:
        shares[pid].heart = heart_distance(tiers, cell)
    return shares


def side_shares(side: BoardSide, points: Sequence[StartPoint]) -> dict[str, Share]:
    cells = [(p.id, parse_cell(p.cell)) for p in points]
    return tally(
        side.tiers,
        cells,
        ownership(side.tiers, cells),
        rubble=[parse_cell(c) for c in side.rubble],
        buried={parse_cell(c): r for c, r in side.buried.items()},
        statue_spots=[parse_cell(c) for c in side.statue_spots],
        workshop_sites=[parse_cell(c) for c in side.workshop_sites],
        statue_values=load_content().tables.statue_values,
    )


def spreads(shares: Mapping[str, Share]) -> list[float]:
    rows = [share.row() for share in shares.values()]
    return [max(column) - min(column) for column in zip(*rows, strict=True)]


def _number(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text if text != "-0" else "0"


def _cells(values: Iterable[float]) -> str:
    return "".join(f"{_number(v):>7}" for v in values)


def print_table(label: str, shares: Mapping[str, Share]) -> None:
    """A configuration of three or more points: one row per point, then the spread."""
    print(f"-- {label}")
    print(f"{'point':<14}" + "".join(f"{name:>7}" for name in COLUMNS))
    for pid, share in shares.items():
        print(f"{pid:<14}{_cells(share.row())}")
    print(f"{'spread':<14}{_cells(spreads(shares))}")


def print_pairs(pairs: Sequence[tuple[str, Mapping[str, Share]]]) -> None:
    """Two-player pairs: both points' rows, then the pair's spread."""
    print("-- 2p: every pair of start points sharing a number")
    print(f"{'pair  point':<14}" + "".join(f"{name:>7}" for name in COLUMNS))
    for label, shares in pairs:
        for n, (pid, share) in enumerate(shares.items()):
            name = f"{label:<8}{pid}" if n == 0 else f"{'':<8}{pid}"
            print(f"{name:<14}{_cells(share.row())}")
        print(f"{'':<8}{'spread':<6}{_cells(spreads(shares))}")


def feature_char(side: BoardSide, cell: str, points: Mapping[str, str]) -> str:
    if cell in points:
        return points[cell]
    rubble = cell in side.rubble
    if cell in side.workshop_sites:
        return "W"
    if cell in side.statue_spots:
        return "&" if rubble else "*"
    if cell in side.buried:
        letter = BURIED_LETTER.get(side.buried[cell], "?")
        return letter.upper() if rubble else letter
    return "x" if rubble else "."


def print_map(side: BoardSide) -> None:
    """Tiers on the left, features on the right; two characters per cell."""
    points = {p.cell: p.id[1:] for p in side.start_points}
    header = "   " + "".join(f" {cell_name((x, 0))[0]}" for x in range(side.width))
    print(f"{header}    {header}")
    for y, row in enumerate(side.tiers):
        left = "".join(f" {ch if ch in TIERS + HEART else ' '}" for ch in row)
        right = ""
        for x, ch in enumerate(row):
            name = cell_name((x, y))
            if ch == HEART:
                right += " #"
            else:
                right += " " + (ch if ch == "." else feature_char(side, name, points))
        print(f"{y + 1:>3}{left}    {y + 1:>3}{_blank_off(right, row)}")
    print("left: tiers 1-5 (outside in), H the Heart")
    print("right: # the Heart, 1-8 start points (W1 or A1 -> 1), . empty mountain cell,")
    print("  * statue spot, & statue spot under rubble, W workshop site, x rubble,")
    print("  s i h c k m r buried stone iron heartstone coin cart hammer rune (upper case:")
    print("  under rubble)")


def _blank_off(text: str, row: str) -> str:
    chars = list(text)
    for x, ch in enumerate(row):
        if ch not in TIERS + HEART:
            chars[2 * x + 1] = " "
    return "".join(chars)


NEAR = 6
NEAR_COLUMNS: tuple[str, ...] = (
    "1st st",
    "1st ws",
    "1st rb",
    "rubble",
    "buried",
    "b.val",
    "statue",
    "s.val",
    "wshop",
)


def near_row(side: BoardSide, point: StartPoint, statue_values: Sequence[int]) -> list[float]:
    """Steps to the nearest statue spot, workshop site and rubble, then what lies within
    NEAR steps of the start point (what the first tiles can reach)."""
    dist = distances(side.tiers, parse_cell(point.cell))

    def steps(cell: str) -> int:
        return dist.get(parse_cell(cell), 99)

    def nearest(cells: Iterable[str]) -> float:
        return float(min((steps(c) for c in cells), default=99))

    near = [c for c in side.statue_spots if steps(c) <= NEAR]
    buried = {c: r for c, r in side.buried.items() if steps(c) <= NEAR}
    return [
        nearest(side.statue_spots),
        nearest(side.workshop_sites),
        nearest(side.rubble),
        float(sum(1 for c in side.rubble if steps(c) <= NEAR)),
        float(len(buried)),
        sum(buried_value(r) for r in buried.values()),
        float(len(near)),
        float(sum(statue_values[int(side.tier_at(c)) - 1] for c in near)),
        float(sum(1 for c in side.workshop_sites if steps(c) <= NEAR)),
    ]


def print_near(side: BoardSide) -> None:
    statue_values = load_content().tables.statue_values
    rows = {p.id: near_row(side, p, statue_values) for p in side.start_points}
    print("-- near each start point: steps to the 1st statue spot, workshop site and")
    print(f"   rubble (1st st, 1st ws, 1st rb), then what lies within {NEAR} steps")
    print(f"{'point':<14}" + "".join(f"{name:>7}" for name in NEAR_COLUMNS))
    for pid, row in rows.items():
        print(f"{pid:<14}{_cells(row)}")
    worst: dict[str, list[float]] = {}
    for label, points in configurations(side):
        group = "2p pairs" if len(points) == 2 else label
        used = [rows[p.id] for p in points]
        spread = [max(col) - min(col) for col in zip(*used, strict=True)]
        before = worst.get(group, [0.0] * len(NEAR_COLUMNS))
        worst[group] = [max(a, b) for a, b in zip(before, spread, strict=True)]
    for group, values in worst.items():
        print(f"{'spread ' + group:<14}{_cells(values)}")


def print_side(side: BoardSide) -> None:
    tier_counts = [sum(row.count(t) for row in side.tiers) for t in TIERS]
    print(f"== {side.name} ({side.id}): {side.width}x{side.height}, players {side.players}")
    print(f"cells per tier 1-5: {tier_counts} (mountain {sum(tier_counts)})")
    print(
        f"rubble {len(side.rubble)}, buried {len(side.buried)},"
        f" statue spots {len(side.statue_spots)}, workshop sites {len(side.workshop_sites)}"
    )
    print_map(side)
    print()
    print_near(side)
    worst: dict[str, list[float]] = {}
    pairs: list[tuple[str, dict[str, Share]]] = []
    for label, points in configurations(side):
        shares = side_shares(side, points)
        group = "2p pairs" if len(points) == 2 else label
        before = worst.get(group, [0.0] * len(COLUMNS))
        worst[group] = [max(a, b) for a, b in zip(before, spreads(shares), strict=True)]
        if len(points) == 2:
            pairs.append((label.removeprefix("2p "), shares))
        else:
            print_table(label, shares)
    if pairs:
        print_pairs(pairs)
    print("-- largest spread per column")
    for group, values in worst.items():
        print(f"{group:<14}{_cells(values)}")
    print()


def print_selfplay(side: BoardSide, rounds: int) -> None:
    """Mean final honor per start point over games of heuristic AI players, with the
    gates rotated over the seats (round r, game k: seat i takes point (i + k) mod n)."""
    from rules.actions import Action, PlaceGate
    from rules.ai import choose_action
    from rules.scoring import final_outcome
    from rules.selfplay import play_game
    from rules.state import GameConfig, State

    for label, points in configurations(side):
        if len(points) == 2:
            continue
        ids = [p.id for p in points]
        n = len(ids)
        results: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
        tiles: list[int] = []
        for r in range(rounds):
            for k in range(n):
                assign = {seat: ids[(seat + k) % n] for seat in range(n)}

                def policy(
                    state: State, seat: int, rng: random.Random, assign: dict[int, str] = assign
                ) -> Action:
                    if state.phase == "gates":
                        return PlaceGate(assign[seat])
                    return choose_action(state, seat, rng)

                game = play_game(GameConfig(players=n, side=side.id), 1000 * r + k, policy)
                tiles.append(sum(1 for p in game.state.board.pieces if p.kind == "tunnel"))
                for line in final_outcome(game.state).breakdowns:
                    results[assign[line.seats[0]]].append((line.total, line.statues, line.tunnels))
        print(
            f"-- self-play {label}: {len(tiles)} games, {statistics.mean(tiles):.1f} tunnel"
            " tiles a game; mean final honor per start point"
        )
        print(f"{'point':<7}{'total':>7}{'sd':>7}{'statues':>9}{'tunnels':>9}")
        for pid in ids:
            totals, statues, tunnels = zip(*results[pid], strict=True)
            print(
                f"{pid:<7}{statistics.mean(totals):>7.1f}{statistics.stdev(totals):>7.1f}"
                f"{statistics.mean(statues):>9.1f}{statistics.mean(tunnels):>9.1f}"
            )
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--selfplay", type=int, default=0, metavar="ROUNDS", help="also play AI games"
    )
    args = parser.parse_args()
    content = load_content()
    text = (
        "Each mountain cell belongs to the nearest start point in use (ties split evenly)."
        " Columns: cells owned per tier (t1..t5), rubble cells, buried resources (count"
        " and value: stone 1, iron 1.5, heartstone 2, others 1), statue spots (count and"
        f" value by tier {content.tables.statue_values}), workshop sites, steps from the"
        " start point into the Heart."
    )
    print("\n".join(textwrap.wrap(text, 88)))
    print()
    for side in content.boards:
        print_side(side)
        if args.selfplay:
            print_selfplay(side, args.selfplay)


if __name__ == "__main__":
    main()
