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

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import TypeVar, cast

from rules.content import load_content
from rules.errors import IllegalActionError, Named
from rules.grid import cell_name, parse_cell
from rules.resources import RESOURCE_BY_NAME, Resource
from rules.state import Board, Piece, State

T = TypeVar("T")

GUARD = 6  # wider than any shape
TIER_NAMES = ("dark gray", "gray", "brown", "orange", "yellow")


def tier_named(tier: int) -> Named:
    """A tier (1 outside to 5 beside the Heart) as a refusal names it: by its colour."""
    return Named("tier", str(tier), TIER_NAMES[tier - 1])


@dataclass(frozen=True)
class Geometry:
    side: str
    layout: int  # which of the side's feature sets (`BoardSide.layout`)
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

    @cached_property
    def buried_mask(self) -> int:
        """The cells with a buried resource."""
        out = 0
        for b in self.buried:
            out |= 1 << b
        return out

    def on_board(self, cell: str) -> bool:
        return cell in self.bits


@cache
def geometry(side: str, layout: int = 0) -> Geometry:
    """The side's geometry with the features of `layout` (`BoardSide.layout`: 0 for
    the current rules edition's)."""
    board = load_content().board(side).laid_out(layout)
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
        layout=layout,
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
    """The geometry of the state's board side, laid out as in the game's rules edition
    (kept with the board: asked all the time)."""
    kept = state.board.__dict__
    g = kept.get("_geometry")
    if g is None:
        side = state.config.board_side
        layout = load_content().board(side).layout(state.config.edition)
        g = kept["_geometry"] = geometry(side, layout)
    return g


@dataclass
class Networks:
    """Derived from the pieces on the board (rebuilt after every change)."""

    occupied: int
    piece_masks: dict[int, int]
    cell_piece: dict[str, int]
    pieces: dict[int, Piece]
    # per seat: the cells of the network that contains that seat's gate
    own: dict[int, int] = field(default_factory=dict)
    # what the rules work out from this version of the board (`board_memo`)
    memo: dict[Hashable, object] = field(default_factory=dict)

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


def board_memo(state: State, key: Hashable, make: Callable[..., T], *args: object) -> T:
    """A value worked out from the pieces on the board alone (and the content), kept
    until a piece is laid or removed: where tiles fit for a seat, which pieces a
    statue can reach. What may change without a piece (statues, the supply, a purse)
    is for the caller to apply to the value, never part of it. `make(*args)` works
    it out the first time."""
    memo = networks(state).memo
    if key in memo:
        return cast(T, memo[key])
    value = memo[key] = make(*args)
    return value


def invalidate(board: Board) -> None:
    """Drop the networks worked out for the board (after removing a piece)."""
    board.__dict__.pop("_networks", None)


def add_piece(
    state: State, kind: str, name: str, seat: int, cells: list[str], **extra: str | None
) -> Piece:
    """Lay a piece (gate, tunnel or hall) on the mountain. The networks of the board
    before it, if worked out, are extended by it (a piece only joins or grows
    networks); what was worked out from them (`board_memo`) is dropped."""
    board = state.board
    piece = Piece(board.next_id, kind, name, seat, list(cells), **extra)  # type: ignore[arg-type]
    board.next_id += 1
    board.pieces.append(piece)
    before = board.__dict__.get("_networks")
    invalidate(board)
    if before is not None:
        board.__dict__["_networks"] = _with_piece(geo(state), before, piece)
    return piece


def _with_piece(g: Geometry, nets: Networks, piece: Piece) -> Networks:
    """The networks once `piece` is laid (each network floods on from what it was)."""
    pm = g.mask(piece.cells)
    occupied = nets.occupied | pm
    cell_piece = dict(nets.cell_piece)
    for c in piece.cells:
        cell_piece[c] = piece.id
    near = g.spread(pm)  # only the networks it touches grow
    own = {
        seat: _flood(g, mask, occupied) if mask & near else mask for seat, mask in nets.own.items()
    }
    if piece.kind == "gate":
        own[piece.seat] = _flood(g, pm, occupied)
    return Networks(
        occupied,
        {**nets.piece_masks, piece.id: pm},
        cell_piece,
        {**nets.pieces, piece.id: piece},
        own,
    )


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
    return board_memo(state, ("opponents", seat), _opponents, state, seat)


def _opponents(state: State, seat: int) -> int:
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
    """Cells of every player's network."""
    return board_memo(state, "any network", _any_network, state)


def _any_network(state: State) -> int:
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
