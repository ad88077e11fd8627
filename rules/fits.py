"""Where tunnel tiles fit: the origins of every tile orientation on the mountain that
cover only free cells and touch a player's network, as bitboards (`rules.mountain`).

A shape fits at origin p when every cell p + offset is free: the AND of the free mask
shifted down by each offset; it touches the network when a cell does: the OR of the
"next to it" mask shifted likewise. The orientations share many offsets: their sorted
offsets form a trie whose nodes (prefixes) are ANDed and ORed once each.

Only the tiles of the sizes asked for are worked out (most purses pay for no
pentomino, which need most of the nodes): a `_Plan` per biggest size lists the nodes
they need, fewest cells first, so that a list comprehension per depth works them out
(this search runs once a turn in self-play and is most of a random player's dig).
What is worked out is kept with the board (`board_memo`) for one seat; the supply of
tiles and the purse are the caller's, applied to it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from itertools import compress

from rules.content import load_content
from rules.mountain import (
    board_memo,
    geo,
    geometry,
    networks,
    opponents_networks,
    own_network,
)
from rules.shapes import Variant, tunnel_size, tunnel_variants
from rules.state import State

Orientation = tuple[str, Variant, tuple[int, ...]]
"""A tile, one of its orientations and the bit offsets of its cells."""


def fits(state: State, seat: int) -> Fits | None:
    """Where tiles fit for `seat` on this board (None: the seat has no network yet)."""
    own = own_network(state, seat)
    if not own:
        return None
    return board_memo(state, ("fits", seat), Fits, state, seat, own)


class Fits:
    """Where tile orientations fit on one board version for one seat, worked out per
    set of tiles as asked (`_Plan`)."""

    __slots__ = ("_free_at", "_hits", "_touch_at", "layout")

    def __init__(self, state: State, seat: int, own: int) -> None:
        g = geo(state)
        nets = networks(state)
        free = g.area & ~nets.occupied & ~g.sites & ~g.spread(opponents_networks(state, seat))
        touch = g.spread(own) & free
        self.layout = (g.side, g.layout)
        offsets = _offsets(g.stride)
        self._free_at = [free >> o for o in offsets]
        self._touch_at = [touch >> o for o in offsets]
        self._hits: dict[int, list[int]] = {}  # per `_plan`

    def hits(self, left: dict[str, int], max_size: int | None = None) -> tuple[_Plan, list[int]]:
        """The orientations of the tiles of at most `max_size` cells, in data order, and
        per orientation the origins where it fits (none for the tiles not `left` in
        the supply)."""
        biggest = _biggest_tile() if max_size is None else min(max_size, _biggest_tile())
        plan = _plan(self.layout, biggest)
        hits = self._hits.get(biggest)
        if hits is None:
            free_at, touch_at = self._free_at, self._touch_at
            valid: list[int] = []  # per node of the plan: the origins where its cells are free
            touching: list[int] = []  # ... where one of them is next to the network
            for depth, steps in enumerate(plan.levels):
                if depth:
                    valid += [valid[p] & free_at[o] for p, o in steps]
                    touching += [touching[p] | touch_at[o] for p, o in steps]
                else:
                    valid += [free_at[o] for _, o in steps]
                    touching += [touch_at[o] for _, o in steps]
            hits = self._hits[biggest] = [valid[n] & touching[n] for n in plan.nodes]
        gone = [(start, stop) for tile, start, stop in plan.tiles if left.get(tile, 0) <= 0]
        if gone:
            hits = hits.copy()
            for start, stop in gone:
                hits[start:stop] = _NOWHERE[: stop - start]
        return plan, hits

    def payable(
        self, left: dict[str, int], biggest: int, hammers: int
    ) -> tuple[list[Orientation], list[int]]:
        """The orientations of the tiles `left` of at most `biggest` cells that fit
        somewhere covering no more rubble than `hammers` pay for, in data order, and
        the masks of the origins where they do."""
        plan, hits = self.hits(left, biggest)
        if hammers < plan.size:
            hits = [h & paid for h, paid in zip(hits, plan.paid[hammers], strict=True)]
        return list(compress(plan.orientations, hits)), list(filter(None, hits))


@dataclass(frozen=True, slots=True)
class _Plan:
    """How to work out where the tiles of up to some size fit: the trie's nodes their
    orientations need, fewest cells first (`levels`: per depth, each node's parent
    among the nodes before, -1 for none, and the index in `_offsets` of the offset it
    adds), and each orientation, in data order, with its node and what its rubble
    costs."""

    tiles: tuple[tuple[str, int, int], ...]  # each tile: its orientations' first, past last
    levels: tuple[tuple[tuple[int, int], ...], ...]
    orientations: tuple[Orientation, ...]
    nodes: tuple[int, ...]  # per orientation, its node among the plan's
    size: int  # the biggest tile's
    # per number of hammers h below `size`, per orientation, the origins where it
    # covers no more than h rubble spaces (all: -1)
    paid: tuple[tuple[int, ...], ...]


_NOWHERE = [0] * 64  # no origin, for each orientation of a tile (a tile has at most 8)


@cache
def _plan(layout: tuple[str, int], biggest: int) -> _Plan:
    """The plan for the tiles of at most `biggest` cells, put together from the side's
    `_Table` (worked out for the supply's tiles too: it is found in no time, and a tile
    whose last copy is gone costs only the nodes no other tile needs)."""
    table = _table(layout)
    tiles = [t for t, (_, size) in enumerate(tile_sizes()) if size <= biggest]
    needed = sorted(set().union(*(table.needs[t] for t in tiles)))
    index = {n: i for i, n in enumerate(needed)}
    size = table.depth[needed[-1]] if needed else 0  # nodes come fewest cells first
    levels: list[list[tuple[int, int]]] = [[] for _ in range(size)]
    for n in needed:
        parent, offset = table.steps[n]
        levels[table.depth[n] - 1].append((index.get(parent, -1), offset))
    ranges = []
    start = 0
    for t in tiles:
        stop = start + len(table.orientations[t])
        ranges.append((tile_sizes()[t][0], start, stop))
        start = stop
    return _Plan(
        tiles=tuple(ranges),
        levels=tuple(map(tuple, levels)),
        orientations=tuple(o for t in tiles for o in table.orientations[t]),
        nodes=tuple(index[n] for t in tiles for n in table.nodes[t]),
        size=size,
        paid=tuple(tuple(m for t in tiles for m in table.paid[t][h]) for h in range(size)),
    )


@dataclass(frozen=True, slots=True)
class _Table:
    """Every tile orientation on one board side and the trie of their sorted offsets
    (every node numbered, fewest cells first), per tile: its orientations, the node
    of each, the nodes they need, and per number of hammers h below the biggest tile's
    size the origins where each covers no more than h rubble spaces (all: -1)."""

    steps: tuple[tuple[int, int], ...]  # per node: its parent (-1 for none), offset index
    depth: tuple[int, ...]  # per node: its number of cells
    orientations: tuple[tuple[Orientation, ...], ...]
    nodes: tuple[tuple[int, ...], ...]
    needs: tuple[frozenset[int], ...]
    paid: tuple[tuple[tuple[int, ...], ...], ...]


@cache
def _table(layout: tuple[str, int]) -> _Table:
    g = geometry(*layout)
    stride = g.stride
    offsets = _offsets(stride)
    orientations = [
        tuple(
            (tile.id, v, tuple(dy * stride + dx for dx, dy in v.cells))
            for v in tunnel_variants(tile.id)
        )
        for tile in load_content().tunnels
    ]
    keys = {tuple(sorted(offs)) for rows in orientations for _, _, offs in rows}
    prefixes = sorted(
        {k[:n] for k in keys for n in range(1, len(k) + 1)}, key=lambda k: (len(k), k)
    )
    node = {k: i for i, k in enumerate(prefixes)}
    biggest = max(map(len, keys))

    def path(offs: tuple[int, ...]) -> list[int]:
        """The nodes of an orientation's prefixes, its own last."""
        key = tuple(sorted(offs))
        return [node[key[:n]] for n in range(1, len(key) + 1)]

    paid = []
    for rows in orientations:
        rubble = [_rubble_levels(g.rubble, offs) for _, _, offs in rows]
        paid.append(
            tuple(
                tuple(~r[h + 1] if h + 1 < len(r) else -1 for r in rubble) for h in range(biggest)
            )
        )
    return _Table(
        steps=tuple((node.get(k[:-1], -1), offsets.index(k[-1])) for k in prefixes),
        depth=tuple(len(k) for k in prefixes),
        orientations=tuple(orientations),
        nodes=tuple(tuple(path(offs)[-1] for _, _, offs in rows) for rows in orientations),
        needs=tuple(
            frozenset(n for _, _, offs in rows for n in path(offs)) for rows in orientations
        ),
        paid=tuple(paid),
    )


@cache
def _offsets(stride: int) -> tuple[int, ...]:
    """Every bit offset a cell has in some tile orientation."""
    return tuple(
        sorted(
            {
                dy * stride + dx
                for tile in load_content().tunnels
                for v in tunnel_variants(tile.id)
                for dx, dy in v.cells
            }
        )
    )


def _rubble_levels(rubble: int, offs: tuple[int, ...]) -> tuple[int, ...]:
    """The origins where an orientation covers at least k rubble spaces, for k = 0
    (every origin: -1) up to its size."""
    at_least = [-1] + [0] * len(offs)
    for o in offs:
        covers = rubble >> o
        for k in range(len(offs), 0, -1):
            at_least[k] |= at_least[k - 1] & covers
    return tuple(at_least)


def orientation_hits(
    found: Fits, left: dict[str, int], max_size: int | None = None
) -> Iterator[tuple[str, Variant, tuple[int, ...], int]]:
    """Per orientation of the tiles `left` (of at most `max_size` cells) that fits
    somewhere, the mask of origins where it does."""
    plan, hits = found.hits(left, max_size)
    for (tile, variant, offs), mask in zip(plan.orientations, hits, strict=True):
        if mask:
            yield tile, variant, offs, mask


@cache
def tile_sizes() -> tuple[tuple[str, int], ...]:
    """Each tunnel tile of the content, in data order, with its size."""
    return tuple((tile.id, tunnel_size(tile.id)) for tile in load_content().tunnels)


@cache
def smallest_tile() -> int:
    """The size of the smallest tunnel tile of the content."""
    return min(size for _, size in tile_sizes())


@cache
def _biggest_tile() -> int:
    return max(size for _, size in tile_sizes())
