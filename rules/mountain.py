"""The mountain as bitboards: fast geometry for placement, networks and adjacency.

Each board side becomes a `Geometry` (built once): cell `(x, y)` is bit
`y * stride + x`, with guard columns on the right so that shifting a shape sideways can
never wrap into the next row. Masks are plain Python ints.

`Networks` (built per board version and cached on the board) knows which pieces form
which connected network and which gates (seats) own it; `add_piece` lays a piece and
drops the cached networks.

Networks: a player's network is everything connected (along cell edges) to their gate.
A piece cut off from every gate belongs to nobody until someone connects to it. In team
mode a partner's network counts as your own once the two are connected, and touching
the partner's network is allowed (that is how they connect).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, cached_property

from rules.content import load_content
from rules.errors import IllegalActionError, Named
from rules.grid import cell_name, parse_cell
from rules.resources import RESOURCE_BY_NAME, Resource
from rules.state import Board, Piece, State

GUARD = 6  # wider than any shape
TIER_NAMES = ("dark gray", "gray", "brown", "orange", "yellow")


def tier_named(tier: int) -> Named:
    """A tier (1 outside to 5 beside the Heart) as a refusal names it: by its colour."""
    return Named("tier", str(tier), TIER_NAMES[tier - 1])


@dataclass(frozen=True)
class Geometry:
    side: str
    width: int
    height: int
    stride: int
    area: int  # every mountain cell (tiers 1-5, not the Heart)
    heart: int
    tier_masks: tuple[int, ...]  # index 0 = tier 1 (outermost)
    rubble: int
    sites: int
    buried: dict[int, Resource]
    names: dict[int, str]
    bits: dict[str, int]

    def bit(self, cell: str) -> int:
        return self.bits[cell]

    def mask(self, cells: list[str] | tuple[str, ...]) -> int:
        m = 0
        for c in cells:
            m |= 1 << self.bits[c]
        return m

    def tier(self, cell: str) -> int:
        """1 (dark gray, outermost) to 5 (yellow, innermost); 0 if not a tier cell."""
        b = 1 << self.bits[cell]
        for i, tm in enumerate(self.tier_masks):
            if tm & b:
                return i + 1
        return 0

    def cells(self, mask: int) -> list[str]:
        """Cell names of a mask in bit order (reading order)."""
        out = []
        while mask:
            low = mask & -mask
            out.append(self.names[low.bit_length() - 1])
            mask ^= low
        return out

    def spread(self, mask: int) -> int:
        """The mask plus its four-neighbour cells, limited to the board."""
        s = self.stride
        return (mask | mask << 1 | mask >> 1 | mask << s | mask >> s) & self.board_cells

    @cached_property
    def board_cells(self) -> int:
        return self.area | self.heart

    def on_board(self, cell: str) -> bool:
        return cell in self.bits


@cache
def geometry(side: str) -> Geometry:
    board = load_content().board(side)
    width, height = board.width, board.height
    stride = width + GUARD
    area = heart = 0
    tiers = [0] * 5
    names: dict[int, str] = {}
    bits: dict[str, int] = {}
    for y, row in enumerate(board.tiers):
        for x, ch in enumerate(row):
            if ch == ".":
                continue
            b = y * stride + x
            name = cell_name((x, y))
            names[b] = name
            bits[name] = b
            if ch == "H":
                heart |= 1 << b
            else:
                area |= 1 << b
                tiers[int(ch) - 1] |= 1 << b

    def m(cells: list[str]) -> int:
        out = 0
        for c in cells:
            x, y = parse_cell(c)
            out |= 1 << (y * stride + x)
        return out

    return Geometry(
        side=side,
        width=width,
        height=height,
        stride=stride,
        area=area,
        heart=heart,
        tier_masks=tuple(tiers),
        rubble=m(board.rubble),
        sites=m(board.workshop_sites),
        buried={bits[c]: RESOURCE_BY_NAME[r] for c, r in board.buried.items()},
        names=names,
        bits=bits,
    )


def geo(state: State) -> Geometry:
    return geometry(state.config.board_side)


@dataclass
class Networks:
    """Derived from the pieces on the board (rebuilt after every change)."""

    occupied: int
    piece_masks: dict[int, int]
    cell_piece: dict[str, int]
    pieces: dict[int, Piece]
    # per seat: the cells of the network that contains that seat's gate
    own: dict[int, int] = field(default_factory=dict)

    def piece_at(self, cell: str) -> Piece | None:
        pid = self.cell_piece.get(cell)
        return None if pid is None else self.pieces[pid]


def networks(state: State) -> Networks:
    board = state.board
    cached = board.__dict__.get("_networks")
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    g = geo(state)
    piece_masks: dict[int, int] = {}
    cell_piece: dict[str, int] = {}
    occupied = 0
    for piece in board.pieces:
        pm = g.mask(piece.cells)
        piece_masks[piece.id] = pm
        occupied |= pm
        for c in piece.cells:
            cell_piece[c] = piece.id
    nets = Networks(occupied, piece_masks, cell_piece, {p.id: p for p in board.pieces})
    for piece in board.pieces:
        if piece.kind == "gate":
            nets.own[piece.seat] = _flood(g, piece_masks[piece.id], occupied)
    board.__dict__["_networks"] = nets
    return nets


def invalidate(board: Board) -> None:
    board.__dict__.pop("_networks", None)


def add_piece(
    state: State, kind: str, name: str, seat: int, cells: list[str], **extra: str | None
) -> Piece:
    """Lay a piece (gate, tunnel or hall) on the mountain; the networks are rebuilt."""
    board = state.board
    piece = Piece(board.next_id, kind, name, seat, list(cells), **extra)  # type: ignore[arg-type]
    board.next_id += 1
    board.pieces.append(piece)
    invalidate(board)
    return piece


def check_on_mountain(g: Geometry, cell: str) -> None:
    """Refuse a cell off the mountain or on its Heart (which nothing may cover)."""
    if cell not in g.bits:
        raise IllegalActionError("{cell} is off the mountain.", "off_board", cell)
    if (1 << g.bit(cell)) & g.heart:
        raise IllegalActionError(
            "{cell} is the Heart of the Mountain: nothing may cover it.", "heart", cell
        )


def own_network(state: State, seat: int) -> int:
    """Cells of the network holding this seat's gate (with a connected partner's)."""
    return networks(state).own.get(seat, 0)


def opponents_networks(state: State, seat: int) -> int:
    """Cells of every network this seat may not touch: those holding the gate of a
    player who is not this seat's team partner."""
    nets = networks(state)
    me = state.players[seat]
    out = 0
    for other, mask in nets.own.items():
        if other == seat:
            continue
        partner = me.team is not None and state.players[other].team == me.team
        if not partner:
            out |= mask
    return out & ~nets.own.get(seat, 0)


def any_network(state: State) -> int:
    nets = networks(state)
    out = 0
    for mask in nets.own.values():
        out |= mask
    return out


def _flood(g: Geometry, start: int, within: int) -> int:
    comp = start
    while True:
        grown = g.spread(comp) & within
        if grown == comp:
            return comp
        comp = grown
