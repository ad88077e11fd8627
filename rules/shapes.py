"""Polyomino shapes in every orientation (rotations and flips), computed once.

A variant is a tuple of cell offsets `(dx, dy)` normalised to start at (0, 0), sorted in
reading order (row, then column), plus the index of its marked cell (a tunnel's anchor
or a hall's altar) in that tuple, or None.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from functools import cache

from rules.content import load_content

Offset = tuple[int, int]


@dataclass(frozen=True)
class Variant:
    cells: tuple[Offset, ...]
    mark: int | None  # index into cells of the anchor / altar

    @property
    def width(self) -> int:
        return max(x for x, _ in self.cells) + 1

    @property
    def height(self) -> int:
        return max(y for _, y in self.cells) + 1


def _transforms(cells: list[Offset], mark: Offset | None) -> list[Variant]:
    out: list[Variant] = []
    seen: set[tuple[tuple[Offset, ...], int | None]] = set()
    for flip in (False, True):
        for turns in range(4):
            pts = [(-x, y) if flip else (x, y) for x, y in cells]
            m = None if mark is None else ((-mark[0], mark[1]) if flip else mark)
            for _ in range(turns):
                pts = [(-y, x) for x, y in pts]
                m = None if m is None else (-m[1], m[0])
            min_x = min(x for x, _ in pts)
            min_y = min(y for _, y in pts)
            norm = sorted(((x - min_x, y - min_y) for x, y in pts), key=lambda c: (c[1], c[0]))
            key_cells = tuple(norm)
            mark_index = None if m is None else key_cells.index((m[0] - min_x, m[1] - min_y))
            key = (key_cells, mark_index)
            if key not in seen:
                seen.add(key)
                out.append(Variant(key_cells, mark_index))
    return out


def _parse_rows(rows: list[str], marks: str) -> tuple[list[Offset], Offset | None]:
    cells: list[Offset] = []
    mark: Offset | None = None
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch == ".":
                continue
            cells.append((x, y))
            if ch in marks:
                mark = (x, y)
    return cells, mark


@cache
def tunnel_variants(shape_id: str) -> tuple[Variant, ...]:
    for tile in load_content().tunnels:
        if tile.id == shape_id:
            cells, mark = _parse_rows(tile.rows, "o")
            return tuple(_transforms(cells, mark))
    raise KeyError(shape_id)


@cache
def hall_variants(hall_id: str) -> tuple[Variant, ...]:
    for hall in load_content().halls:
        if hall.id == hall_id:
            cells, mark = _parse_rows(hall.rows, "A")
            return tuple(_transforms(cells, mark))
    raise KeyError(hall_id)


@cache
def tunnel_size(shape_id: str) -> int:
    return len(tunnel_variants(shape_id)[0].cells)


def match_variant(
    variants: tuple[Variant, ...], cells: list[Offset], mark: Offset | None
) -> Variant | None:
    """The variant whose cells, placed at the top-left of `cells`, equal them (with the
    mark on `mark`), or None (the first such variant in order)."""
    if not cells:
        return None
    min_x = min([x for x, _ in cells])
    min_y = min([y for _, y in cells])
    # (row, column) pairs sort in reading order
    norm = tuple(sorted([(y - min_y, x - min_x) for x, y in cells]))
    m = None if mark is None else (mark[1] - min_y, mark[0] - min_x)
    return _variant_index(variants).get((norm, m))


# per tuple of variants (by identity, kept alive here): each variant by its cells as
# (row, column) pairs in reading order and its marked cell, the first of equals
_INDEXES: dict[int, tuple[tuple[Variant, ...], dict[Hashable, Variant]]] = {}


def _variant_index(variants: tuple[Variant, ...]) -> dict[Hashable, Variant]:
    kept = _INDEXES.get(id(variants))
    if kept is not None and kept[0] is variants:
        return kept[1]
    index: dict[Hashable, Variant] = {}
    for v in variants:
        cells = tuple((y, x) for x, y in v.cells)
        index.setdefault((cells, None if v.mark is None else cells[v.mark]), v)
    _INDEXES[id(variants)] = (variants, index)
    return index
