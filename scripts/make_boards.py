"""Generate rules/data/boards.json: the winter and autumn sides of the mountain.

Run from the repository root: `.venv/bin/python -m scripts.make_boards` (add `--check`
to compare with the file instead of writing it). The output is deterministic.

The design rules are fixed here by hand (see docs/content.md, "Board sides"):

- the mountain's outline and tiers come from the distance to the centre of the grid
  (rings around a 3x3 Heart), with a few cells cut out so that every start point is
  about as many steps from the Heart as the others;
- the start points are placed by hand on the edge;
- how many statue spots go on each tier, which buried resource goes on which tiers,
  how much rubble and how many workshop sites there are, and the spacing rules (a
  workshop site keeps its four sides free, statue spots do not touch, rubble guards
  heartstone, the deepest statue spots and the cells next to rich ones).

Only the exact cells are searched: a seeded simulated annealing moves the features,
keeping every rule above (and, on the autumn side, left-right mirror symmetry), so
that each start point of each configuration (every player count, every 2-player pair)
gets an even share of them; the shares are those of scripts/board_fairness.py. It
takes about two minutes.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

from rules.grid import Cell, cell_name, neighbours, parse_cell
from scripts.board_fairness import Owners, buried_value, distances, on_mountain, ownership

DATA = Path(__file__).resolve().parent.parent / "rules" / "data"
OUT = DATA / "boards.json"
# Read directly (not through load_content, which also loads the boards being made).
STATUE_VALUES: list[int] = json.loads((DATA / "scoring.json").read_text(encoding="utf-8"))[
    "statue_values"
]
Orbit = tuple[Cell, ...]


@dataclass(frozen=True)
class Group:
    """Cells of one kind of feature, all on the given tiers; `per_tier` bounds how many
    of them each of those tiers holds (the search may trade cells between tiers)."""

    name: str  # "statue", "workshop", "rubble" or a buried resource
    count: int
    tiers: str
    per_tier: tuple[int, int] | None = None


@dataclass(frozen=True)
class Design:
    """One side: outline, tiers, start points, feature groups and the search's seed."""

    id: str
    name: str
    players: list[int]
    size: int
    rim: float  # cells farther than this from the centre are off the mountain
    bounds: tuple[float, float, float, float]  # outer radius of tiers 5, 4, 3, 2
    cut: tuple[str, ...]  # cells cut out of the outline (bays at the start points)
    start_points: list[tuple[str, str, list[int]]]
    groups: list[Group]
    seed: int  # the best of a handful tried: the search is noisy
    mirror: bool = True  # keep the features left-right symmetric
    # the numbers the search evens the shares out for, where they are not the marks
    # (winter: the features were balanced for the 4-player ring W1-W4, and the
    # 4-player table then moved to W5-W8, which self-play found fairer)
    searched: dict[str, list[int]] | None = None
    # the marks of earlier rules editions (see BoardSide.former_marks)
    former_marks: dict[int, dict[str, list[int]]] = field(default_factory=dict)
    # features moved by hand after the search, (from, to) in order, each measured in
    # self-play (scripts/point_balance.py; docs/content.md, "Seat balance"). Nothing
    # moves along: a guard (rubble beside a deep statue spot or rich buried resource) is
    # moved by a (from, to) of its own, and `Board.valid` refuses one left guarding nothing
    moves: tuple[tuple[str, str], ...] = ()

    def points_searched(self) -> list[tuple[str, str, list[int]]]:
        """The start points with the numbers the search balances the features for."""
        if self.searched is None:
            return self.start_points
        return [(pid, cell, self.searched[pid]) for pid, cell, _ in self.start_points]


# the winter side's marks until rules edition 2: 4 players on the ring W1-W4
WINTER_RING = {
    "W1": [4, 5],
    "W2": [4],
    "W3": [4],
    "W4": [4],
    "W5": [5],
    "W6": [5],
    "W7": [5],
    "W8": [5],
}

WINTER = Design(
    id="winter",
    name="Winter side",
    players=[2, 4, 5],
    size=17,
    rim=8.6,
    bounds=(2.9, 3.9, 4.95, 6.6),
    cut=("E16", "M16"),
    start_points=[
        ("W1", "I1", [2, 5]),
        ("W2", "Q9", [2]),
        ("W3", "I17", [2]),
        ("W4", "A9", [2]),
        ("W5", "Q7", [4, 5]),
        ("W6", "M15", [4, 5]),
        ("W7", "E15", [4, 5]),
        ("W8", "A7", [4, 5]),
    ],
    groups=[
        Group("statue", 20, "12345", per_tier=(3, 5)),
        Group("stone", 5, "12"),
        Group("iron", 4, "23"),
        Group("heartstone", 4, "45"),
        Group("coin", 2, "23"),
        Group("cart", 2, "12"),
        Group("hammer", 2, "12"),
        Group("rune", 1, "23"),
        Group("workshop", 15, "1234"),
        Group("rubble", 12, "234"),
    ],
    seed=4,
    mirror=False,
    searched=WINTER_RING,
    former_marks={2: WINTER_RING},
)

AUTUMN = Design(
    id="autumn",
    name="Autumn side",
    players=[2, 3],
    size=17,
    rim=8.6,
    bounds=(2.9, 3.9, 4.95, 6.6),
    cut=("C14", "C15", "D15", "N15", "O14", "O15"),
    start_points=[
        ("A1", "I1", [3]),
        ("A2", "N14", [3]),
        ("A3", "D14", [3]),
    ],
    groups=[
        Group("statue", 3, "1"),
        Group("statue", 6, "2"),
        Group("statue", 6, "3"),
        Group("statue", 3, "4"),
        Group("statue", 3, "5"),
        Group("stone", 6, "12"),
        Group("iron", 4, "23"),
        Group("heartstone", 4, "45"),
        Group("coin", 2, "23"),
        Group("cart", 2, "12"),
        Group("hammer", 2, "12"),
        Group("rune", 1, "23"),
        Group("workshop", 15, "1234"),
        Group("rubble", 12, "234"),
    ],
    seed=3,
)

# Per measure: the unit its spread is counted in, the spread aimed at (in units) and
# how hard a spread beyond that is punished (times the square of the excess).
MEASURES: dict[str, tuple[float, float, float]] = {
    "statues": (1.0, 1.0, 8.0),
    "statue_value": (2.0, 2.0, 1.0),
    "rubble": (1.0, 1.0, 4.0),
    "buried": (1.0, 1.0, 4.0),
    "buried_value": (1.0, 1.5, 2.0),
    "workshops": (1.0, 1.0, 4.0),
    # the same, counting only cells within NEAR steps of their owner's gate
    "near_statue_value": (2.0, 2.0, 1.0),
    "near_rubble": (1.0, 1.0, 2.0),
    "near_buried_value": (1.0, 1.5, 1.0),
    "near_workshops": (1.0, 1.0, 2.0),
}
NEAR = 6
# Weight of a configuration in the search: a whole player count, or one 2-player pair.
GAME_WEIGHT = 2.0
PAIR_WEIGHT = 0.5
T_START, T_END = 30.0, 0.02
# The search places the features in stages, then polishes all of them together:
# (which groups move, annealing steps, starting temperature).
STAGES = (
    ("workshop", 40000, T_START),
    ("statue", 100000, T_START),
    ("buried", 60000, T_START),
    ("rubble", 40000, T_START),
    ("all", 60000, 2.0),
)
REACH_LIMIT = {"reach_statues": 4, "reach_workshops": 4, "reach_rubble": 5}


# --- geometry -------------------------------------------------------------------------


def build_tiers(design: Design) -> list[str]:
    centre = (design.size - 1) / 2
    cut = {parse_cell(c) for c in design.cut}
    rows = []
    for y in range(design.size):
        row = ""
        for x in range(design.size):
            dx, dy = x - centre, y - centre
            if max(abs(dx), abs(dy)) <= 1:
                row += "H"
                continue
            dist = math.hypot(dx, dy)
            if dist > design.rim or (x, y) in cut:
                row += "."
                continue
            tier = 1
            for index, bound in enumerate(design.bounds):
                if dist <= bound:
                    tier = 5 - index
                    break
            row += str(tier)
        rows.append(row)
    return rows


def mirror(cell: Cell, size: int) -> Cell:
    return (size - 1 - cell[0], cell[1])


def clockwise_key(cell: Cell, size: int) -> tuple[float, float]:
    """Angle clockwise from straight up (screen rows grow downwards), then distance."""
    centre = (size - 1) / 2
    dx, dy = cell[0] - centre, cell[1] - centre
    angle = math.degrees(math.atan2(dx, -dy)) % 360
    return (round(angle, 6), math.hypot(dx, dy))


# --- the layout being searched --------------------------------------------------------


@dataclass
class Layout:
    """Mirror-symmetric feature cells, one list of orbits (1 or 2 cells) per group."""

    orbits: list[list[Orbit]] = field(default_factory=list)

    def cells(self, index: int) -> list[Cell]:
        return [cell for orbit in self.orbits[index] for cell in orbit]

    def copy(self) -> Layout:
        return Layout([list(group) for group in self.orbits])


class Board:
    """Everything about one side that does not move during the search."""

    def __init__(self, design: Design) -> None:
        self.design = design
        self.size = design.size
        self.tiers = build_tiers(design)
        self.points = [(pid, parse_cell(cell)) for pid, cell, _ in design.start_points]
        self.point_cells = {cell for _, cell in self.points}
        self.dist = {cell: distances(self.tiers, cell) for _, cell in self.points}
        self.configs = self._configs()
        axis = (self.size - 1) // 2
        self.axis_orbits: dict[str, list[Orbit]] = {}
        self.pair_orbits: dict[str, list[Orbit]] = {}
        for group in design.groups:
            cells = [
                (x, y)
                for y in range(self.size)
                for x in range(self.size)
                if self.tier(x, y) in group.tiers and (x, y) not in self.point_cells
            ]
            key = group.name + group.tiers
            if not design.mirror:
                self.axis_orbits[key] = [(c,) for c in cells]
                self.pair_orbits[key] = []
                continue
            self.axis_orbits[key] = [(c,) for c in cells if c[0] == axis]
            self.pair_orbits[key] = [(c, mirror(c, self.size)) for c in cells if c[0] < axis]

    def tier(self, x: int, y: int) -> str:
        return self.tiers[y][x]

    def _configs(self) -> list[tuple[float, list[str], Owners, Owners]]:
        """(weight, ids of the points used, ownership, ownership of the cells within
        NEAR steps of their owner) for every configuration."""
        out: list[tuple[float, list[str], Owners, Owners]] = []
        points = self.design.points_searched()
        for count in self.design.players:
            if count == 2:
                sets = [[a, b] for a, b in combinations(points, 2) if set(a[2]) & set(b[2])]
                weight = PAIR_WEIGHT
            else:
                sets = [[p for p in points if count in p[2]]]
                weight = GAME_WEIGHT
            for used in sets:
                cells = [(pid, parse_cell(cell)) for pid, cell, _ in used]
                owners = ownership(self.tiers, cells)
                reach = {pid: distances(self.tiers, cell) for pid, cell in cells}
                near = {
                    cell: {pid: part for pid, part in parts.items() if reach[pid][cell] <= NEAR}
                    for cell, parts in owners.items()
                }
                out.append((weight, [pid for pid, _ in cells], owners, near))
        return out

    # --- rules every layout keeps --------------------------------------------------

    def groups_named(self, layout: Layout, *names: str) -> list[Cell]:
        cells: list[Cell] = []
        for index, group in enumerate(self.design.groups):
            if group.name in names:
                cells.extend(layout.cells(index))
        return cells

    def statue_cells(self, layout: Layout) -> list[Cell]:
        return self.groups_named(layout, "statue")

    def buried_cells(self, layout: Layout) -> dict[Cell, str]:
        out: dict[Cell, str] = {}
        for index, group in enumerate(self.design.groups):
            if group.name not in ("statue", "workshop", "rubble"):
                for cell in layout.cells(index):
                    out[cell] = group.name
        return out

    def fixed_rubble(self, layout: Layout) -> set[Cell]:
        """Heartstone and tier-5 statue spots always lie under rubble."""
        rubble = {c for c, r in self.buried_cells(layout).items() if r == "heartstone"}
        rubble |= {c for c in self.statue_cells(layout) if self.tier(*c) == "5"}
        return rubble

    def rubble_cells(self, layout: Layout) -> set[Cell]:
        """The fixed rubble and the guards placed next to rich cells."""
        return self.fixed_rubble(layout) | set(self.groups_named(layout, "rubble"))

    def valid(self, layout: Layout) -> bool:
        statues = self.statue_cells(layout)
        buried = self.buried_cells(layout)
        workshops = self.groups_named(layout, "workshop")
        guards = self.groups_named(layout, "rubble")
        rubble = self.rubble_cells(layout)
        buried_count = sum(
            len(layout.cells(i))
            for i, g in enumerate(self.design.groups)
            if g.name not in ("statue", "workshop", "rubble")
        )
        placed = statues + list(buried) + workshops
        if len(buried) != buried_count:
            return False
        for index, group in enumerate(self.design.groups):
            if group.per_tier is not None:
                cells = layout.cells(index)
                low, high = group.per_tier
                for tier in group.tiers:
                    count = sum(1 for c in cells if self.tier(*c) == tier)
                    if count > high or (count < low and len(cells) == group.count):
                        return False
        if len(set(placed)) != len(placed) or set(placed) & self.point_cells:
            return False
        if len(set(guards)) != len(guards) or set(guards) & self.fixed_rubble(layout):
            return False
        # statue spots never share a side, nor do buried resources
        for kind in (statues, list(buried)):
            taken = set(kind)
            if any(n in taken for cell in kind for n in neighbours(cell)):
                return False
        # nothing but rubble within two steps of a gate
        for cell in placed:
            if any(self.dist[p].get(cell, 99) < 2 for p in self.point_cells):
                return False
        # workshop sites: four free sides, apart from each other and from the gates
        for a, b in combinations(workshops, 2):
            if abs(a[0] - b[0]) + abs(a[1] - b[1]) < 3:
                return False
        for site in workshops:
            if site in rubble:
                return False
            for side in neighbours(site):
                if not on_mountain(self.tiers, side) or side in self.point_cells:
                    return False
                if side in rubble or side in workshops:
                    return False
            if any(self.dist[p].get(site, 99) < 3 for p in self.point_cells):
                return False
        # rubble never blocks a gate, and free rubble guards a rich cell
        for cell in rubble:
            if any(self.dist[p].get(cell, 99) < 3 for p in self.point_cells):
                return False
        rich = {c for c, r in buried.items() if r in ("heartstone", "iron")}
        rich |= {c for c in statues if self.tier(*c) in "345"}
        return all(cell in rich or any(n in rich for n in neighbours(cell)) for cell in guards)

    def moved(self, layout: Layout, moves: Sequence[tuple[str, str]]) -> Layout:
        """The layout with features moved by hand, each from a cell that holds one to a
        free cell; the result must keep every rule (`valid`)."""
        out = layout.copy()
        for origin, target in moves:
            a, b = parse_cell(origin), parse_cell(target)
            hits = [
                (gi, oi)
                for gi, orbits in enumerate(out.orbits)
                for oi, orbit in enumerate(orbits)
                if orbit == (a,)
            ]
            if len(hits) != 1:
                raise ValueError(f"{self.design.id}: no single feature on {origin} to move")
            gi, oi = hits[0]
            out.orbits[gi][oi] = (b,)
        if not self.valid(out):
            raise ValueError(f"{self.design.id}: the hand moves {list(moves)} break a design rule")
        return out

    def from_json(self, side: dict[str, object]) -> Layout:
        """The layout boards.json holds for this side (its present features)."""
        buried, rubble = side["buried"], side["rubble"]
        spots, sites = side["statue_spots"], side["workshop_sites"]
        assert isinstance(buried, dict) and isinstance(rubble, list)
        assert isinstance(spots, list) and isinstance(sites, list)
        orbits: list[list[Orbit]] = []
        for group in self.design.groups:
            names: list[str]
            if group.name == "statue":  # a side may have a group of spots per tier
                names = [n for n in spots if self.tier(*parse_cell(n)) in group.tiers]
            elif group.name == "workshop":
                names = sites
            elif group.name == "rubble":
                names = []
            else:
                names = [cell for cell, kind in buried.items() if kind == group.name]
            orbits.append([(parse_cell(n),) for n in names])
        layout = Layout(orbits)
        fixed = self.fixed_rubble(layout)
        index = next(i for i, g in enumerate(self.design.groups) if g.name == "rubble")
        layout.orbits[index] = [(c,) for c in map(parse_cell, rubble) if c not in fixed]
        return layout

    # --- how fair a layout is --------------------------------------------------------

    def weighted_cells(self, layout: Layout, measure: str) -> list[tuple[Cell, float]]:
        if measure in ("statues", "statue_value"):
            statues = self.statue_cells(layout)
            if measure == "statues":
                return [(c, 1.0) for c in statues]
            return [(c, float(STATUE_VALUES[int(self.tier(*c)) - 1])) for c in statues]
        if measure in ("buried", "buried_value"):
            buried = self.buried_cells(layout)
            if measure == "buried":
                return [(c, 1.0) for c in buried]
            return [(c, buried_value(r)) for c, r in buried.items()]
        if measure == "rubble":
            return [(c, 1.0) for c in self.rubble_cells(layout)]
        return [(c, 1.0) for c in self.groups_named(layout, "workshop")]

    def part(self, layout: Layout, key: str) -> float:
        """One term of the cost: a measure's spreads over all configurations, or how far
        the nearest statue spot / workshop site / rubble lies from each start point."""
        if key in REACH_LIMIT:
            cells = [c for c, _ in self.weighted_cells(layout, key.removeprefix("reach_"))]
            if not cells:
                return 0.0
            closest = [min(self.dist[p].get(c, 99) for c in cells) for p in self.point_cells]
            limit = REACH_LIMIT[key]
            return sum(3 * max(0, d - limit) ** 2 for d in closest) + max(closest) - min(closest)
        items = self.weighted_cells(layout, key.removeprefix("near_"))
        unit, target, penalty = MEASURES[key]
        total = 0.0
        for weight, used, whole, near in self.configs:
            owners = near if key.startswith("near_") else whole
            sums = dict.fromkeys(used, 0.0)
            for cell, value in items:
                for pid, part in owners.get(cell, {}).items():
                    sums[pid] += part * value
            spread = (max(sums.values()) - min(sums.values())) / unit
            total += weight * (spread + penalty * max(0.0, spread - target) ** 2)
        return total

    def parts(self, layout: Layout, keys: Iterable[str] | None = None) -> dict[str, float]:
        return {key: self.part(layout, key) for key in (keys or [*MEASURES, *REACH_LIMIT])}

    def cost(self, layout: Layout) -> float:
        return sum(self.parts(layout).values())

    def affected(self, before: Layout, after: Layout) -> set[str]:
        """The cost terms a move can change."""
        keys: set[str] = set()
        for index, group in enumerate(self.design.groups):
            if before.orbits[index] == after.orbits[index]:
                continue
            if group.name == "statue":
                keys |= {"statues", "statue_value", "reach_statues", "rubble", "reach_rubble"}
            elif group.name == "workshop":
                keys |= {"workshops", "reach_workshops"}
            elif group.name == "rubble":
                keys |= {"rubble", "reach_rubble"}
            else:
                keys |= {"buried", "buried_value", "rubble", "reach_rubble"}
        return keys | {"near_" + k for k in keys if "near_" + k in MEASURES}

    # --- search ------------------------------------------------------------------------

    def _fill(self, layout: Layout, index: int, rng: random.Random) -> bool:
        """Place one group an orbit at a time, each where the rules still hold (tiers
        still short of their minimum first)."""
        group = self.design.groups[index]
        key = group.name + group.tiers
        pairs = list(self.pair_orbits[key])
        axis = list(self.axis_orbits[key])
        rng.shuffle(pairs)
        rng.shuffle(axis)
        layout.orbits[index] = []
        while len(layout.cells(index)) < group.count:
            need_single = (group.count - len(layout.cells(index))) % 2 == 1
            pool = axis if need_single or not self.design.mirror else pairs
            short = self._short_tiers(layout, index)
            if short:
                pool.sort(key=lambda o: self.tier(*o[0]) in short)
            while pool:
                layout.orbits[index].append(pool.pop())
                if self.valid(layout):
                    break
                layout.orbits[index].pop()
            else:
                return False
        return True

    def _short_tiers(self, layout: Layout, index: int) -> str:
        group = self.design.groups[index]
        if group.per_tier is None:
            return ""
        cells = layout.cells(index)
        low = group.per_tier[0]
        return "".join(t for t in group.tiers if sum(self.tier(*c) == t for c in cells) < low)

    def neighbour(self, layout: Layout, moving: Sequence[int], rng: random.Random) -> Layout:
        """Move one orbit of a moving group (nearby or anywhere), turn two cells on the
        axis into a mirrored pair or back, or trade orbits between two moving groups."""
        new = layout.copy()
        if len(moving) > 1 and rng.random() < 0.15:
            return self._swap(new, moving, rng)
        index = rng.choice(moving)
        group = self.design.groups[index]
        key = group.name + group.tiers
        orbits = new.orbits[index]
        k = rng.randrange(len(orbits))
        orbit = orbits[k]
        singles = [j for j, o in enumerate(orbits) if len(o) == 1 and j != k]
        roll = rng.random()
        if len(orbit) == 1 and singles and roll < 0.1 and self.pair_orbits[key]:
            other = rng.choice(singles)
            new.orbits[index] = [o for j, o in enumerate(orbits) if j not in (k, other)]
            new.orbits[index].append(rng.choice(self.pair_orbits[key]))
        elif len(orbit) == 2 and roll < 0.05 and len(self.axis_orbits[key]) >= 2:
            orbits.pop(k)
            orbits.extend(rng.sample(self.axis_orbits[key], 2))
        else:
            pool = self.axis_orbits[key] if len(orbit) == 1 else self.pair_orbits[key]
            if roll < 0.6:
                x, y = orbit[0]
                pool = [o for o in pool if abs(o[0][0] - x) + abs(o[0][1] - y) <= 2] or pool
            orbits[k] = rng.choice(pool)
        return new

    def _swap(self, layout: Layout, moving: Sequence[int], rng: random.Random) -> Layout:
        """Two groups trade one orbit of the same size, if each fits the other's tiers."""
        a, b = rng.sample(list(moving), 2)
        ga, gb = self.design.groups[a], self.design.groups[b]
        ka, kb = rng.randrange(len(layout.orbits[a])), rng.randrange(len(layout.orbits[b]))
        oa, ob = layout.orbits[a][ka], layout.orbits[b][kb]
        fits_a = all(self.tier(*c) in ga.tiers for c in ob)
        fits_b = all(self.tier(*c) in gb.tiers for c in oa)
        if len(oa) == len(ob) and fits_a and fits_b:
            layout.orbits[a][ka], layout.orbits[b][kb] = ob, oa
        return layout

    def search(self) -> Layout:
        """Place and anneal the groups stage by stage: statue spots, buried resources,
        workshop sites, then the guarding rubble."""
        rng = random.Random(self.design.seed)
        layout = Layout([[] for _ in self.design.groups])
        for stage, steps, start in STAGES:
            moving = [
                i for i, g in enumerate(self.design.groups) if stage in ("all", _stage(g.name))
            ]
            if stage == "all":
                layout = self._anneal(layout, moving, steps, start, rng)
                continue
            for _ in range(200):
                trial = layout.copy()
                if all(self._fill(trial, i, rng) for i in moving):
                    layout = trial
                    break
            else:
                raise RuntimeError(f"{self.design.id}: cannot place the {stage} groups")
            layout = self._anneal(layout, moving, steps, start, rng)
        print(f"{self.design.id}: cost {self.cost(layout):.2f}", file=sys.stderr)
        return layout

    def _anneal(
        self, layout: Layout, moving: Sequence[int], steps: int, start: float, rng: random.Random
    ) -> Layout:
        current, current_parts = layout, self.parts(layout)
        current_cost = sum(current_parts.values())
        best, best_cost = current, current_cost
        for step in range(steps):
            temperature = start * (T_END / start) ** (step / steps)
            candidate = self.neighbour(current, moving, rng)
            keys = self.affected(current, candidate)
            if not keys or not self.valid(candidate):
                continue
            parts = dict(current_parts)
            parts.update(self.parts(candidate, keys))
            cost = sum(parts.values())
            if cost <= current_cost or rng.random() < math.exp((current_cost - cost) / temperature):
                current, current_parts, current_cost = candidate, parts, cost
                if cost < best_cost:
                    best, best_cost = candidate, cost
        return best

    # --- output ------------------------------------------------------------------------

    def to_json(self, layout: Layout) -> dict[str, object]:
        def names(cells: Iterable[Cell]) -> list[str]:
            return [cell_name(c) for c in sorted(cells, key=lambda c: (c[1], c[0]))]

        statues = sorted(self.statue_cells(layout), key=lambda c: clockwise_key(c, self.size))
        buried = self.buried_cells(layout)
        return {
            "id": self.design.id,
            "name": self.design.name,
            "players": self.design.players,
            "tiers": self.tiers,
            "start_points": [
                {"id": pid, "cell": cell, "players": players}
                for pid, cell, players in self.design.start_points
            ],
            **(
                {"former_marks": {str(k): v for k, v in self.design.former_marks.items()}}
                if self.design.former_marks
                else {}
            ),
            "rubble": names(self.rubble_cells(layout)),
            "buried": {cell_name(c): buried[c] for c in sorted(buried, key=lambda c: (c[1], c[0]))},
            "statue_spots": [cell_name(c) for c in statues],
            "workshop_sites": names(self.groups_named(layout, "workshop")),
        }


def _stage(name: str) -> str:
    if name in ("statue", "workshop", "rubble"):
        return name
    return "buried"


# --- JSON text with one row or a few cells per line -------------------------------------


def _wrap(items: Sequence[str], indent: str, per_line: int) -> str:
    lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return "[\n" + ",\n".join(indent + "  " + line for line in lines) + "\n" + indent + "]"


FEATURES = ("rubble", "buried", "statue_spots", "workshop_sites")


def _feature_lines(features: dict[str, object], ind: str) -> list[str]:
    """The four feature lists of a side (or of a former layout), one key a line."""
    rubble = features["rubble"]
    buried = features["buried"]
    statues = features["statue_spots"]
    workshops = features["workshop_sites"]
    assert isinstance(rubble, list) and isinstance(buried, dict)
    assert isinstance(statues, list) and isinstance(workshops, list)
    buried_items = [f"{json.dumps(k)}: {json.dumps(v)}" for k, v in buried.items()]
    return [
        f'{ind}"rubble": ' + _wrap([json.dumps(c) for c in rubble], ind, 10) + ",",
        f'{ind}"buried": {{\n'
        + ",\n".join(
            ind + "  " + ", ".join(buried_items[i : i + 4]) for i in range(0, len(buried_items), 4)
        )
        + f"\n{ind}}},",
        f'{ind}"statue_spots": ' + _wrap([json.dumps(c) for c in statues], ind, 10) + ",",
        f'{ind}"workshop_sites": ' + _wrap([json.dumps(c) for c in workshops], ind, 10),
    ]


def render(sides: list[dict[str, object]]) -> str:
    parts = []
    for side in sides:
        ind = "      "
        tiers = side["tiers"]
        points = side["start_points"]
        assert isinstance(tiers, list) and isinstance(points, list)
        lines = [
            f'{ind}"id": {json.dumps(side["id"])},',
            f'{ind}"name": {json.dumps(side["name"])},',
            f'{ind}"players": {json.dumps(side["players"])},',
            f'{ind}"tiers": ' + _wrap([json.dumps(r) for r in tiers], ind, 1) + ",",
            f'{ind}"start_points": '
            + _wrap([json.dumps(p, separators=(", ", ": ")) for p in points], ind, 1)
            + ",",
            *(
                [f'{ind}"former_marks": {json.dumps(side["former_marks"])},']
                if "former_marks" in side
                else []
            ),
            *_feature_lines(side, ind),
        ]
        former = side.get("former_features")
        if former:
            assert isinstance(former, dict)
            lines[-1] += ","
            inner = ind + "    "
            blocks = [
                f"{ind}  {json.dumps(key)}: {{\n"
                + "\n".join(_feature_lines(layout, inner))
                + f"\n{ind}  }}"
                for key, layout in former.items()
            ]
            lines.append(f'{ind}"former_features": {{\n' + ",\n".join(blocks) + f"\n{ind}}}")
        parts.append("    {\n" + "\n".join(lines) + "\n    }")
    return '{\n  "boards": [\n' + ",\n".join(parts) + "\n  ]\n}\n"


def with_history(side: dict[str, object], retire: int | None) -> dict[str, object]:
    """The generated side with the former layouts boards.json already keeps (history is
    not generated: games of earlier rules editions replay on it), and with `retire`,
    the layout boards.json has now kept as the one of that edition when the new one
    differs from it."""
    if not OUT.exists():
        return side
    old = next(
        (b for b in json.loads(OUT.read_text(encoding="utf-8"))["boards"] if b["id"] == side["id"]),
        None,
    )
    if old is None:
        return side
    former: dict[str, object] = dict(old.get("former_features", {}))
    if retire is not None and any(old[k] != side[k] for k in FEATURES):
        if str(retire) in former:
            raise SystemExit(f"{side['id']}: the layout of edition {retire} is already kept")
        former[str(retire)] = {k: old[k] for k in FEATURES}
    return {**side, "former_features": former} if former else side


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    parser.add_argument(
        "--retire",
        type=int,
        metavar="EDITION",
        help="keep the file's present features as the layout of rules edition EDITION "
        "(for each side whose features change), so that its games still replay",
    )
    args = parser.parse_args()
    sides = []
    for design in (WINTER, AUTUMN):
        board = Board(design)
        layout = board.moved(board.search(), design.moves)
        sides.append(with_history(board.to_json(layout), args.retire))
    text = render(sides)
    json.loads(text)
    if args.check:
        same = OUT.read_text(encoding="utf-8") == text
        print("boards.json is up to date" if same else "boards.json differs from the generator")
        sys.exit(0 if same else 1)
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
