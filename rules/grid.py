"""Board coordinates: columns are letters from A on the left, rows numbers from 1 at the
top, so `F7` is the sixth column, seventh row. Cells are `(x, y)` with 0-based x, y."""

from __future__ import annotations

from functools import cache

Cell = tuple[int, int]
COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def cell_name(cell: Cell) -> str:
    x, y = cell
    return f"{COLUMNS[x]}{y + 1}"


@cache
def parse_cell(text: str) -> Cell:
    """`"F7"` -> `(5, 6)`; raises ValueError on anything else."""
    if len(text) < 2 or text[0] not in COLUMNS or not text[1:].isdigit() or text[1] == "0":
        raise ValueError(f"{text!r} is not a cell such as F7")
    return COLUMNS.index(text[0]), int(text[1:]) - 1


def neighbours(cell: Cell) -> tuple[Cell, Cell, Cell, Cell]:
    """The four cells sharing a side (up, right, down, left); may be off the board."""
    x, y = cell
    return ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y))
