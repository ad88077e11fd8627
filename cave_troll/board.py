"""The cave assembled: four jigsaw quarters around the central pit.

`board.json` draws one quarter with its entrance in the top-left corner; the board lays
it four times, each turned a quarter clockwise from the one before (quarters A, B, C,
D from the top left; their entrances NW, NE, SE, SW), so the map has four-fold
symmetry. A room is named by its quarter and its number in the quarter (`A1` .. `D7`),
an entrance by its corner, the pit `pit`.

    >>> b = load_board()
    >>> b.value["A7"], b.doors["A7"]
    (5, ('A4', 'A6', 'D5', 'pit'))
    >>> b.steps["NW"]
    ('NE', 'SE', 'SW', 'A1', 'A3')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from cave_troll.content import Cell, load_content


@dataclass(frozen=True)
class Board:
    quarters: tuple[str, ...]  # the quarters' letters, clockwise from the top left
    entrances: tuple[str, ...]  # in quarter order
    rooms: tuple[str, ...]  # quarter by quarter, each in its own order
    pit: str
    value: dict[str, int]  # room -> gold
    doors: dict[str, tuple[str, ...]]  # location -> the locations a door leads to
    steps: dict[str, tuple[str, ...]]  # a plain step: a door, or entrance to entrance
    cells: dict[str, tuple[Cell, ...]]  # where each location lies on the square board
    size: int  # the board's side, in cells
    order: dict[str, int]  # the stable order of locations (entrances, rooms, pit)

    @property
    def locations(self) -> tuple[str, ...]:
        return (*self.entrances, *self.rooms, self.pit)

    def is_room(self, location: str) -> bool:
        return location in self.value

    def is_entrance(self, location: str) -> bool:
        return location in self.entrances

    def sort(self, locations: Iterable[str]) -> list[str]:
        return sorted(locations, key=self.order.__getitem__)

    def quarter_turn(self, location: str) -> str:
        """The location a quarter turn clockwise takes `location` to (the symmetry)."""
        if location == self.pit:
            return location
        if location in self.entrances:
            i = self.entrances.index(location)
            return self.entrances[(i + 1) % len(self.entrances)]
        i = self.quarters.index(location[0])
        return self.quarters[(i + 1) % len(self.quarters)] + location[1:]


@cache
def load_board() -> Board:
    info = load_content().board
    q = info.quarter
    side = 2 * q.size
    neighbours: dict[str, set[str]] = {}
    cells: dict[str, list[Cell]] = {}
    value: dict[str, int] = {}
    rooms: list[str] = []

    def name(quarter: int, local: str) -> str:
        if local == "entrance":
            return info.corners[quarter]
        if local == "pit":
            return info.pit
        return info.quarters[quarter] + local

    def door(a: str, b: str) -> None:
        neighbours.setdefault(a, set()).add(b)
        neighbours.setdefault(b, set()).add(a)

    for turn in range(4):
        nxt = (turn + 1) % 4
        cells.setdefault(name(turn, "entrance"), []).append(_turned(q.entrance, turn, side))
        cells.setdefault(info.pit, []).append(_turned(q.pit, turn, side))
        for room in q.rooms:
            here = name(turn, room.id)
            rooms.append(here)
            value[here] = room.value
            cells[here] = [_turned(c, turn, side) for c in room.cells]
            neighbours.setdefault(here, set())
        for a, b in q.doors:
            door(name(turn, a), name(turn, b))
        for a, b in q.doors_to_next:
            door(name(turn, a), name(nxt, b))
    entrances = tuple(info.corners)
    order = {loc: i for i, loc in enumerate((*entrances, *rooms, info.pit))}
    doors = {loc: tuple(sorted(n, key=order.__getitem__)) for loc, n in neighbours.items()}
    steps = {
        loc: tuple(
            sorted(
                set(doors.get(loc, ())) | (set(entrances) - {loc} if loc in entrances else set()),
                key=order.__getitem__,
            )
        )
        for loc in order
    }
    return Board(
        quarters=tuple(info.quarters),
        entrances=entrances,
        rooms=tuple(rooms),
        pit=info.pit,
        value=value,
        doors={loc: doors.get(loc, ()) for loc in order},
        steps=steps,
        cells={loc: tuple(sorted(c)) for loc, c in cells.items()},
        size=side,
        order=order,
    )


def _turned(cell: Cell, turns: int, side: int) -> Cell:
    """`cell` of a quarter drawn at the top left, turned `turns` quarters clockwise
    about the centre of a board `side` cells wide."""
    x, y = cell
    for _ in range(turns):
        x, y = side - 1 - y, x
    return (x, y)
