"""Statues and great halls for the heuristic player.

The player's network is seen as a graph of pieces (tunnels, remnants, halls and the
gate): one cart moves a statue to any free cell of its own piece or of a neighbouring
one. Plans move one statue to one target cell along a shortest chain of pieces; a
plan's gain is the change in the final score of the two pieces involved (each tunnel
scores its best statue, doubled on a pedestal of its clan; a hall scores high with a
statue on its altar). The player repeatedly takes the best affordable plan, one move
per call, so a plan started is a plan continued.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field
from typing import cast

from rules import halls
from rules.actions import DedicateHall
from rules.ai.values import Horizon
from rules.content import load_content
from rules.mountain import geo, networks, own_network
from rules.payment import available_tokens
from rules.resources import STATUE_CLANS, Resource
from rules.state import Piece, State

ALTAR_LATER = 0.45  # chance an empty altar gets a statue later, with statues about
PEDESTAL_LATER = 0.25  # the same for an empty pedestal (a matching statue is rarer)
MAX_PLAN_MOVES = 6


@dataclass
class OwnBoard:
    """A seat's network as pieces and their neighbours."""

    pieces: list[Piece]
    masks: list[int]
    cell_piece: dict[str, int]
    adj: list[list[int]]
    value: dict[str, int]  # statue value by cell (tier)
    halls: dict[int, tuple[int, int]] = field(default_factory=dict)  # index -> low, high
    # the plans and planned gains worked out on this network (`plans`, `planned_gain`),
    # by everything else they read: an OwnBoard is never changed once built
    memo: dict[Hashable, object] = field(default_factory=dict, compare=False, repr=False)


def own_board(state: State, seat: int) -> OwnBoard:
    content = load_content()
    g = geo(state)
    nets = networks(state)
    own = own_network(state, seat)
    pieces = [p for p in state.board.pieces if nets.piece_masks[p.id] & own]
    masks = [nets.piece_masks[p.id] for p in pieces]
    spreads = [g.spread(m) for m in masks]
    adj = [
        [j for j in range(len(pieces)) if j != i and spreads[i] & masks[j]]
        for i in range(len(pieces))
    ]
    values = content.tables.statue_values
    cell_piece: dict[str, int] = {}
    value: dict[str, int] = {}
    halls: dict[int, tuple[int, int]] = {}
    hall_info = {h.id: (h.low, h.high) for h in content.halls}
    for i, p in enumerate(pieces):
        for c in p.cells:
            cell_piece[c] = i
            value[c] = values[g.tier(c) - 1]
        if p.kind == "hall":
            halls[i] = hall_info[p.name]
    return OwnBoard(pieces, masks, cell_piece, adj, value, halls)


def piece_value(
    ob: OwnBoard,
    i: int,
    statues: dict[str, str],
    removed: str | None = None,
    added: str | None = None,
    clan: str | None = None,
) -> int:
    """Score of piece `i` with the statue on `removed` gone and one of `clan` added on
    `added`."""
    piece = ob.pieces[i]
    if piece.kind == "hall":
        low, high = ob.halls[i]
        altar = piece.altar
        occupied = altar == added or (altar in statues and altar != removed)
        return high if occupied else low
    best = 0
    for c in piece.cells:
        if c == added:
            k: str | None = clan
        elif c == removed:
            continue
        else:
            k = statues.get(c)
        if k is None:
            continue
        v = ob.value[c]
        if piece.anchor == c and piece.pedestal == k:
            v *= 2
        best = max(best, v)
    return best


def board_value(ob: OwnBoard, statues: dict[str, str]) -> int:
    return sum(piece_value(ob, i, statues) for i in range(len(ob.pieces)))


def potential(ob: OwnBoard, statues: dict[str, str], hz: Horizon) -> float:
    """What empty altars and empty pedestals in the network may still bring."""
    if hz.future_turns <= 0:
        return 0.0
    has_statues = any(c in ob.cell_piece for c in statues)
    altar_p = ALTAR_LATER if has_statues else 0.15
    total = 0.0
    for i, piece in enumerate(ob.pieces):
        if piece.kind == "hall" and piece.altar not in statues:
            low, high = ob.halls[i]
            total += (high - low) * altar_p
        elif (
            piece.kind != "hall"
            and piece.pedestal is not None
            and piece.anchor is not None
            and statues.get(piece.anchor) != piece.pedestal
        ):
            total += ob.value[piece.anchor] * PEDESTAL_LATER
    return total * min(1.0, hz.future_turns / 2)


@dataclass(frozen=True)
class Plan:
    origin: str
    target: str
    path: tuple[str, ...]  # the cells the statue stops on, ending with target
    gain: int  # score change once the statue is on target

    @property
    def moves(self) -> int:
        return len(self.path)


def _cell_value(ob: OwnBoard, i: int, cell: str, clan: str) -> int:
    """What a statue of `clan` alone on `cell` of piece `i` would score."""
    piece = ob.pieces[i]
    if piece.kind == "hall":
        return ob.halls[i][1] if cell == piece.altar else 0
    v = ob.value[cell]
    return 2 * v if piece.anchor == cell and piece.pedestal == clan else v


def _best_cell(ob: OwnBoard, i: int, statues: dict[str, str], clan: str) -> str | None:
    """The free cell of piece `i` where a statue of `clan` scores most (any free cell
    of a hall whose altar is taken)."""
    best: tuple[int, str] | None = None
    for c in ob.pieces[i].cells:
        if c in statues:
            continue
        v = _cell_value(ob, i, c, clan)
        if best is None or v > best[0]:
            best = (v, c)
    return None if best is None else best[1]


def plans(ob: OwnBoard, statues: dict[str, str], max_moves: int) -> list[Plan]:
    """For every statue and every piece it can reach in at most `max_moves` moves,
    the plan that ends on the piece's best free cell (along a shortest chain of
    pieces, stopping on each one's best free cell). Kept with `ob` per statues (in
    their order) and `max_moves`."""
    key = ("plans", tuple(statues.items()), max_moves)
    kept = cast("list[Plan] | None", ob.memo.get(key))
    if kept is None:
        kept = list(_plans(ob, statues, max_moves))
        ob.memo[key] = kept
    return kept


def _plans(ob: OwnBoard, statues: dict[str, str], max_moves: int) -> Iterator[Plan]:
    best_cells: dict[tuple[int, str], str | None] = {}

    def cell_for(i: int, clan: str) -> str | None:
        key = (i, clan)
        if key not in best_cells:
            best_cells[key] = _best_cell(ob, i, statues, clan)
        return best_cells[key]

    for origin, clan in statues.items():
        p0 = ob.cell_piece.get(origin)
        if p0 is None:
            continue
        old0 = piece_value(ob, p0, statues)
        without0 = piece_value(ob, p0, statues, removed=origin)
        parent: dict[int, int] = {p0: -1}
        depth: dict[int, int] = {p0: 0}
        queue = deque([p0])
        while queue:
            p = queue.popleft()
            if depth[p] >= max_moves:
                continue
            for q in ob.adj[p]:
                if q not in depth and cell_for(q, clan) is not None:
                    depth[q] = depth[p] + 1
                    parent[q] = p
                    queue.append(q)
        for q in depth:
            target = cell_for(q, clan)
            if target is None:
                continue
            if q == p0:
                gain = piece_value(ob, p0, statues, removed=origin, added=target, clan=clan)
                yield Plan(origin, target, (target,), gain - old0)
                continue
            chain = [q]
            while parent[chain[-1]] != p0:
                chain.append(parent[chain[-1]])
            chain.reverse()
            stops: list[str] = []
            for r in chain[:-1]:
                stop = cell_for(r, clan)
                assert stop is not None
                stops.append(stop)
            oldq = piece_value(ob, q, statues)
            newq = piece_value(ob, q, statues, added=target, clan=clan)
            yield Plan(origin, target, (*stops, target), without0 - old0 + newq - oldq)


@dataclass
class Carts:
    """Carts that can move statues: per clan, and wild ones for any clan."""

    clan: dict[str, int]
    wild: int
    clan_cost: float
    wild_cost: float

    def can(self, clan: str, n: int) -> bool:
        return self.clan.get(clan, 0) + self.wild >= n

    def cost(self, clan: str, n: int) -> float:
        own = min(n, self.clan.get(clan, 0))
        return own * self.clan_cost + (n - own) * self.wild_cost

    def spend(self, clan: str, n: int) -> None:
        own = min(n, self.clan.get(clan, 0))
        self.clan[clan] = self.clan.get(clan, 0) - own
        self.wild -= n - own


def carts_of(state: State, seat: int, wild_cost: float, extra_wild: int = 0) -> Carts:
    clan_carts = {c.value: 0 for c in STATUE_CLANS}
    wild = extra_wild
    for tok in available_tokens(state, seat, held=True):
        if tok.resource != Resource.CART:
            continue
        if tok.cart_clan is None:
            wild += 1
        else:
            clan_carts[tok.cart_clan.value] += 1
    return Carts(clan_carts, wild, wild_cost * 0.7, wild_cost)


def best_plan(ob: OwnBoard, statues: dict[str, str], carts: Carts) -> tuple[float, Plan | None]:
    """The affordable plan with the best gain net of the carts it spends."""
    best: tuple[float, Plan | None] = (0.0, None)
    top = min(MAX_PLAN_MOVES, max(carts.wild + max(carts.clan.values(), default=0), 0))
    if top <= 0:
        return best
    for plan in plans(ob, statues, top):
        if plan.gain <= 0:
            continue
        clan = statues[plan.origin]
        if not carts.can(clan, plan.moves):
            continue
        net = plan.gain - carts.cost(clan, plan.moves)
        if net > best[0] + 1e-9:
            best = (net, plan)
    return best


def planned_gain(
    ob: OwnBoard, statues: dict[str, str], carts: Carts, rounds: int = 4
) -> tuple[float, dict[str, str]]:
    """Total net gain of greedily chained plans (for evaluating positions), and the
    statues after them. Kept with `ob` per statues (in their order), carts and rounds."""
    key = (
        "gain",
        tuple(statues.items()),
        tuple(carts.clan.items()),
        carts.wild,
        carts.clan_cost,
        carts.wild_cost,
        rounds,
    )
    kept = cast("tuple[float, dict[str, str]] | None", ob.memo.get(key))
    if kept is None:
        kept = _planned_gain(ob, statues, carts, rounds)
        ob.memo[key] = kept
    return kept[0], dict(kept[1])


def _planned_gain(
    ob: OwnBoard, statues: dict[str, str], carts: Carts, rounds: int
) -> tuple[float, dict[str, str]]:
    statues = dict(statues)
    carts = Carts(dict(carts.clan), carts.wild, carts.clan_cost, carts.wild_cost)
    total = 0.0
    for _ in range(rounds):
        net, plan = best_plan(ob, statues, carts)
        if plan is None:
            break
        clan = statues.pop(plan.origin)
        statues[plan.target] = clan
        carts.spend(clan, plan.moves)
        total += net
    return total, statues


def free_path(ob: OwnBoard, statues: dict[str, str], moves: int) -> tuple[int, Plan | None]:
    """The best plan of at most `moves` free moves (Mountain Path)."""
    best: tuple[int, Plan | None] = (0, None)
    for plan in plans(ob, statues, moves):
        if plan.moves <= moves and plan.gain > best[0]:
            best = (plan.gain, plan)
    return best


# --- great halls ---------------------------------------------------------------------


def hall_prescore(state: State, ob: OwnBoard, hall: DedicateHall) -> float:
    info = next(h for h in load_content().halls if h.id == hall.hall)
    statues = state.board.statues
    value = float(info.low)
    if hall.altar in statues:
        value = float(info.high)
    elif any(c in ob.cell_piece for c in statues):
        value += (info.high - info.low) * 0.5
    covered = {ob.cell_piece[c] for c in hall.cells if c in ob.cell_piece}
    for i in covered:
        value -= piece_value(ob, i, statues) * 0.7
    return value


def candidate_halls(state: State, seat: int, ob: OwnBoard, limit: int) -> list[DedicateHall]:
    scored = [
        (hall_prescore(state, ob, h), i, h)
        for i, h in enumerate(halls.hall_placements(state, seat))
    ]
    scored.sort(key=lambda t: (-t[0], t[1]))
    return [h for _, _, h in scored[:limit]]
