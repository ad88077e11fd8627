"""Great halls (step 3): a hall tile is dedicated exactly over the player's own tunnels;
the tunnel parts it leaves uncovered stay on the board as smaller pieces."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache

from rules.actions import DedicateHall
from rules.content import load_content
from rules.errors import IllegalActionError, Named, echo
from rules.grid import parse_cell
from rules.indexed import Groups, bits, kth_bit
from rules.mountain import (
    Geometry,
    add_piece,
    board_memo,
    check_on_mountain,
    geo,
    invalidate,
    networks,
    own_network,
)
from rules.shapes import Variant, hall_variants, match_variant
from rules.state import State


def hall_placements(state: State, seat: int) -> Iterator[DedicateHall]:
    """Every legal placement of every hall left: exactly over this player's tunnels."""
    return iter(HallOptions(state, seat))


class HallOptions:
    """Every legal hall dedication (`hall_placements`, in its order: halls in data
    order, then orientations, then origins in reading order) as a sequence that
    counts them and makes only the ones asked for."""

    __slots__ = ("_fits", "_groups", "names")

    def __init__(self, state: State, seat: int) -> None:
        self.names = geo(state).names
        fits = _hall_fits(state, seat)
        order = sorted(state.halls_left, key=_hall_order().__getitem__)
        self._fits = [row for hall_id in order for row in fits(hall_id)]
        self._groups = Groups(valid.bit_count() for *_, valid in self._fits)

    def __len__(self) -> int:
        return self._groups.total

    def __getitem__(self, k: int) -> DedicateHall:
        i, j = self._groups.find(k)
        hall_id, variant, offs, valid = self._fits[i]
        return self._hall(hall_id, variant, offs, kth_bit(valid, j))

    def __iter__(self) -> Iterator[DedicateHall]:
        for hall_id, variant, offs, valid in self._fits:
            for p in bits(valid):
                yield self._hall(hall_id, variant, offs, p)

    def _hall(self, hall_id: str, variant: Variant, offs: tuple[int, ...], p: int) -> DedicateHall:
        cells = tuple(self.names[p + o] for o in offs)
        return DedicateHall(hall_id, cells, None if variant.mark is None else cells[variant.mark])


HallFit = tuple[str, Variant, tuple[int, ...], int]
"""A hall orientation that fits: the hall, its variant, its cells' bit offsets and the
mask of the origins (the corner of its bounding box) where it lies on tunnels alone."""


def _hall_fits(state: State, seat: int) -> Callable[[str], tuple[HallFit, ...]]:
    """Where each hall fits over this player's tunnels on this board (per hall, as
    asked, and kept with the board: the halls left are the caller's to apply)."""
    return board_memo(state, ("hall fits", seat), _HallFits, state, seat)


class _HallFits:
    """Where each hall fits over one seat's tunnels, hall by hall as asked (each shift
    of the tunnels worked out once)."""

    __slots__ = ("_known", "_shifted", "stride", "tunnels")

    def __init__(self, state: State, seat: int) -> None:
        nets = networks(state)
        own = own_network(state, seat)
        tunnels = 0
        for pid, pm in nets.piece_masks.items():
            if nets.pieces[pid].kind == "tunnel" and pm & own:
                tunnels |= pm
        self.tunnels = tunnels
        self.stride = geo(state).stride
        self._known: dict[str, tuple[HallFit, ...]] = {}
        self._shifted: dict[int, int] = {}  # the tunnels shifted down by an offset

    def __call__(self, hall_id: str) -> tuple[HallFit, ...]:
        rows = self._known.get(hall_id)
        if rows is None:
            tunnels = self.tunnels
            found: dict[int, int] = {}
            out = []
            if tunnels.bit_count() >= _hall_size(hall_id):
                for variant, offs, same in _hall_offsets(hall_id, self.stride):
                    valid = found.get(same)
                    if valid is None:  # the first orientation with these cells (altar aside)
                        # p is the corner of the bounding box, which the hall need not cover
                        valid = -1
                        for o in offs:
                            shifted = self._shifted.get(o)
                            if shifted is None:
                                shifted = self._shifted[o] = tunnels >> o
                            valid &= shifted
                            if not valid:  # no origin left: the other cells need no look
                                break
                        found[same] = valid
                    if valid:
                        out.append((hall_id, variant, offs, valid))
            rows = self._known[hall_id] = tuple(out)
        return rows


def check_hall(state: State, seat: int, action: DedicateHall) -> None:
    """Raise the refusal of a hall's dedication, if any."""
    content = load_content()
    g = geo(state)
    nets = networks(state)
    if action.hall not in state.halls_left:
        known = {h.id for h in content.halls}
        if action.hall not in known:
            raise IllegalActionError(
                "There is no great hall {hall}.", "no_such_hall", hall=echo(action.hall)
            )
        raise IllegalActionError("That great hall has already been dedicated.", "hall_taken")
    for cell in action.cells:
        check_on_mountain(g, cell)
    offsets = [parse_cell(c) for c in action.cells]
    altar = None if action.altar is None else parse_cell(action.altar)
    if match_variant(hall_variants(action.hall), offsets, altar) is None:
        raise IllegalActionError(
            "Those cells are not the shape of that great hall (mark its altar with *).",
            "wrong_shape",
        )
    own = own_network(state, seat)
    for cell in action.cells:
        piece = nets.piece_at(cell)
        if piece is None:
            raise IllegalActionError(
                "{cell} is not a tunnel: a great hall must lie on tunnels.", "not_tunnel", cell=cell
            )
        if piece.kind != "tunnel":
            raise IllegalActionError(
                "A great hall may not cover a {piece} ({cell}).",
                "not_tunnel",
                piece=Named("piece", piece.kind, piece.kind),
                cell=cell,
            )
        if not (1 << g.bit(cell)) & own:
            raise IllegalActionError("{cell} is not in your network.", "not_yours", cell=cell)


def dedicate_hall(state: State, seat: int, action: DedicateHall, *, checked: bool = True) -> None:
    """Carry out a hall's dedication, checked first unless the caller knows it is legal
    (turn and step are the caller's)."""
    g = geo(state)
    nets = networks(state)
    if checked:
        check_hall(state, seat, action)
    covered: dict[int, list[str]] = {}
    for cell in action.cells:
        piece = nets.piece_at(cell)
        assert piece is not None
        covered.setdefault(piece.id, []).append(cell)

    # -- carry it out ------------------------------------------------------------------
    hall_cells = set(action.cells)
    board = state.board
    board.pieces[:] = [p for p in board.pieces if p.id not in covered]
    invalidate(board)  # the networks lose pieces: worked out anew
    for pid in covered:
        piece = nets.pieces[pid]
        rest = [c for c in piece.cells if c not in hall_cells]
        if piece.pedestal is not None and piece.anchor in hall_cells:
            board.lost_pedestals += 1
        for part in _split(g, rest):
            keeps_anchor = piece.anchor in part
            add_piece(
                state,
                "tunnel",
                piece.name,
                piece.seat,
                part,
                mineral=piece.mineral,
                anchor=piece.anchor if keeps_anchor else None,
                pedestal=piece.pedestal if keeps_anchor else None,
            )
    add_piece(state, "hall", action.hall, seat, list(action.cells), altar=action.altar)
    state.halls_left.remove(action.hall)


def _split(g: Geometry, cells: list[str]) -> list[list[str]]:
    """Split cells into edge-connected parts (each keeps the input order)."""
    remaining = g.mask(cells)
    parts = []
    while remaining:
        seed = remaining & -remaining
        comp = seed
        while True:
            grown = g.spread(comp) & remaining
            if grown == comp:
                break
            comp = grown
        remaining &= ~comp
        parts.append([c for c in cells if (1 << g.bit(c)) & comp])
    return parts


@cache
def _hall_size(hall_id: str) -> int:
    return len(hall_variants(hall_id)[0].cells)


@cache
def _hall_order() -> dict[str, int]:
    return {h.id: i for i, h in enumerate(load_content().halls)}


@cache
def _hall_offsets(hall_id: str, stride: int) -> tuple[tuple[Variant, tuple[int, ...], int], ...]:
    """Each orientation of a hall with the bit offsets of its cells and the index of
    the first orientation covering the same cells (the altar aside)."""
    out: list[tuple[Variant, tuple[int, ...], int]] = []
    firsts: dict[tuple[int, ...], int] = {}
    for i, v in enumerate(hall_variants(hall_id)):
        offs = tuple(dy * stride + dx for dx, dy in v.cells)
        out.append((v, offs, firsts.setdefault(tuple(sorted(offs)), i)))
    return tuple(out)
