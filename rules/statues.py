"""Statues on the board (step 4 and the statue spells): a cart moves an unearthed statue
of the player's network within its piece or into a neighbouring one; the Dedication
Ritual turns one into honor. (The heuristic player's view of statues is
`rules.ai.statues`.)"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator

from rules.actions import MoveStatue, Pay, Payment
from rules.content import load_content
from rules.errors import IllegalActionError
from rules.indexed import Groups, bits, kth_bit
from rules.mountain import (
    board_memo,
    check_on_mountain,
    geo,
    networks,
    own_network,
    tier_named,
)
from rules.payment import spend, store_tokens, troll_tokens
from rules.resources import CART, NAME, Clan, Resource
from rules.state import State


def statue_moves(state: State, seat: int, origin: str) -> list[str]:
    """Cells the statue on `origin` may move to with one cart."""
    g = geo(state)
    return g.cells(_reach(state, seat, origin) & ~statue_mask(state))


def statue_mask(state: State) -> int:
    """The cells holding a statue (buried or not)."""
    bits = geo(state).bits
    out = 0
    for cell in state.board.statues:
        out |= 1 << bits[cell]
    return out


def _reach(state: State, seat: int, origin: str) -> int:
    """The cells a cart can take the statue on `origin` to (its piece and the pieces
    next to it), statues not yet left out; none unless it is this player's statue."""
    g = geo(state)
    pid = networks(state).cell_piece.get(origin)
    if pid is None or origin not in state.board.statues:
        return 0
    if not (1 << g.bit(origin)) & own_network(state, seat):
        return 0
    return piece_reach(state, pid)


def piece_reach(state: State, pid: int) -> int:
    """The cells of piece `pid` and of the pieces next to it (kept with the board)."""
    known: dict[int, int] = board_memo(state, "piece reach", dict)
    reach = known.get(pid)
    if reach is None:
        nets = networks(state)
        reach = nets.piece_masks[pid]
        near = geo(state).spread(reach)
        for mask in nets.piece_masks.values():
            if mask & near:
                reach |= mask
        known[pid] = reach
    return reach


def can_move_a_statue(state: State, seat: int) -> bool:
    """Whether some statue of this player's network can be moved now: a cart for its
    clan and a free cell within reach (as `statue_moves` and `cart_tokens` answer)."""
    return bool(MoveOptions(state, seat))


class MoveOptions:
    """Every statue move this player can pay for now (the statues of their network in
    reading order, each with a cart for its clan, then the cells `statue_moves`
    gives), as a sequence that counts them and makes only the ones asked for."""

    __slots__ = ("_groups", "_targets", "names")

    def __init__(self, state: State, seat: int) -> None:
        self.names = geo(state).names
        self._targets: list[tuple[str, int]] = []  # a statue's cell, the cells it may go to
        statues = statue_mask(state)
        if statues & own_network(state, seat):
            wild, clans = _carts(state, seat)
            cell_piece = networks(state).cell_piece
            for origin in movable_statues(state, seat):
                if wild or state.board.statues[origin] in clans:
                    targets = piece_reach(state, cell_piece[origin]) & ~statues
                    if targets:
                        self._targets.append((origin, targets))
        self._groups = Groups(targets.bit_count() for _, targets in self._targets)

    def __len__(self) -> int:
        return self._groups.total

    def __getitem__(self, k: int) -> MoveStatue:
        i, j = self._groups.find(k)
        origin, targets = self._targets[i]
        return MoveStatue(origin, self.names[kth_bit(targets, j)])

    def __iter__(self) -> Iterator[MoveStatue]:
        for origin, targets in self._targets:
            for b in bits(targets):
                yield MoveStatue(origin, self.names[b])


class StatueWalks:
    """Every way to move one statue of this player's network 1 to `moves` times for
    free (Mountain Path), as the words of each path (`F7>G8`, `G8>H8`): the statues in
    reading order, each path before the paths that go on from it, each step to the
    cells `statue_moves` gives in reading order. A sequence that counts the paths
    without making them, so a random one is picked by its index."""

    __slots__ = ("_groups", "_nodes", "_roots", "_steps_of", "g", "moves", "state")

    def __init__(self, state: State, seat: int, moves: int) -> None:
        self.state = state
        self.g = geo(state)
        self.moves = moves
        statues = statue_mask(state)
        # each statue with the other statues (the cells it may not enter)
        self._roots = [
            (self.g.bits[cell], statues & ~(1 << self.g.bits[cell]))
            for cell in movable_statues(state, seat)
        ]
        self._steps_of: dict[tuple[int, int], tuple[int, ...]] = {}
        self._nodes: dict[tuple[int, int, int], tuple[tuple[int, ...], list[int]]] = {}
        self._groups = Groups(self._paths(b, others, moves) for b, others in self._roots)

    def _steps(self, b: int, others: int) -> tuple[int, ...]:
        """Where one move takes the statue on bit `b` (its own cell aside), in order."""
        key = (b, others)
        found = self._steps_of.get(key)
        if found is None:
            pid = networks(self.state).cell_piece[self.g.names[b]]
            reach = piece_reach(self.state, pid) & ~others & ~(1 << b)
            found = self._steps_of[key] = tuple(bits(reach))
        return found

    def _node(self, b: int, others: int, moves: int) -> tuple[tuple[int, ...], list[int]]:
        """The steps from bit `b` and where the paths starting with each end (the paths
        of 1 to `moves` steps from `b`, counted cumulatively: a step, then the paths
        going on from it)."""
        key = (b, others, moves)
        node = self._nodes.get(key)
        if node is None:
            tos = self._steps(b, others)
            ends: list[int] = []
            n = 0
            for to in tos:
                n += 1
                if moves > 1:
                    n += self._paths(to, others, moves - 1)
                ends.append(n)
            node = self._nodes[key] = (tos, ends)
        return node

    def _paths(self, b: int, others: int, moves: int) -> int:
        """The paths of 1 to `moves` steps from bit `b`."""
        ends = self._node(b, others, moves)[1]
        return ends[-1] if ends else 0

    def __len__(self) -> int:
        return self._groups.total

    def __getitem__(self, k: int) -> tuple[str, ...]:
        i, k = self._groups.find(k)
        b, others = self._roots[i]
        names = self.g.names
        path: list[str] = []
        moves = self.moves
        while True:  # down the tree of paths: each step, then the paths going on from it
            tos, ends = self._node(b, others, moves)
            j = bisect_right(ends, k)
            if j:
                k -= ends[j - 1]
            to = tos[j]
            path.append(f"{names[b]}>{names[to]}")
            if not k:
                return tuple(path)
            k -= 1
            b, moves = to, moves - 1

    def __iter__(self) -> Iterator[tuple[str, ...]]:
        for b, others in self._roots:
            yield from self._walk(b, others, self.moves, ())

    def _walk(
        self, b: int, others: int, moves: int, path: tuple[str, ...]
    ) -> Iterator[tuple[str, ...]]:
        names = self.g.names
        for to in self._steps(b, others):
            step = (*path, f"{names[b]}>{names[to]}")
            yield step
            if moves > 1:
                yield from self._walk(to, others, moves - 1, step)


def movable_statues(state: State, seat: int) -> list[str]:
    """The statues in this player's network, in reading order."""
    g = geo(state)
    own = own_network(state, seat)
    if not own:
        return []
    bits = g.bits  # a cell's bit grows with its row, then its column: reading order
    return sorted((c for c in state.board.statues if own >> bits[c] & 1), key=bits.__getitem__)


def _carts(state: State, seat: int) -> tuple[bool, set[str]]:
    """Whether the player has a wild cart, and the clans they hold a clan cart of: a
    statue of clan c can be moved when `cart_tokens(state, seat, c)` finds one."""
    wild = state.account_of(seat).storage.get(NAME[CART], 0) > 0
    clans: set[str] = set()
    for tok in troll_tokens(state, seat):
        if tok.resource is CART:
            if tok.cart_clan is None:
                wild = True
            else:
                clans.add(tok.cart_clan)
    return wild, clans


def cart_tokens(state: State, seat: int, clan: str) -> list[Pay]:
    """Carts that may move a statue of `clan`, in default order (that clan's carts,
    then wild carts on trolls, then storage)."""
    clan_carts: list[Pay] = []
    wild: list[Pay] = []
    for tok in troll_tokens(state, seat):
        if tok.resource is CART:
            if tok.cart_clan is None:
                wild.append(tok)
            elif tok.cart_clan == clan:  # a StrEnum equals its value
                clan_carts.append(tok)
    return clan_carts + wild + store_tokens(state, seat, CART)


def move_statue(
    state: State,
    seat: int,
    origin: str,
    target: str,
    pay: Payment,
    *,
    free: bool = False,
    checked: bool = True,
) -> None:
    """Carry out one statue move, paid with a cart unless `free` (a spell); checked
    first unless the caller knows it is legal."""
    if checked:
        check_statue_move(state, seat, origin, target)
    clan = state.board.statues[origin]
    tokens: list[Pay] = []
    if not free:
        if pay is None:
            allowed = cart_tokens(state, seat, clan)
            if not allowed:
                raise IllegalActionError(
                    "You need a wild cart or a {clan} cart to move this statue.",
                    "cannot_afford",
                    clan=Clan(clan),
                )
            tokens = [allowed[0]]
        else:
            if checked:
                _check_cart(state, seat, clan, pay)
            tokens = [pay[0]]
    spend(state, seat, tokens)
    del state.board.statues[origin]
    state.board.statues[target] = clan


def check_statue_move(state: State, seat: int, origin: str, target: str) -> None:
    """Raise the refusal of moving the statue on `origin` to `target`, if any, but for
    its payment."""
    g = geo(state)
    for cell in (origin, target):
        check_on_mountain(g, cell)
    if origin not in state.board.statues:
        raise IllegalActionError("There is no statue on {cell}.", "no_statue", cell=origin)
    nets = networks(state)
    if nets.piece_at(origin) is None:
        raise IllegalActionError("The statue on {cell} is still buried.", "buried", cell=origin)
    if not (1 << g.bit(origin)) & own_network(state, seat):
        raise IllegalActionError(
            "The statue on {cell} is not in your network.", "not_yours", cell=origin
        )
    if target not in statue_moves(state, seat, origin):
        if target in state.board.statues:
            raise IllegalActionError("{cell} already holds a statue.", "occupied", cell=target)
        raise IllegalActionError(
            "A cart moves a statue within its tunnel or into an adjacent one; {cell} is neither.",
            "too_far",
            cell=target,
        )


def _check_cart(state: State, seat: int, clan: str, pay: tuple[Pay, ...]) -> None:
    if len(pay) != 1 or pay[0].resource != Resource.CART:
        raise IllegalActionError("A statue move is paid with exactly one cart.", "wrong_payment")
    tok = pay[0]
    if tok.cart_clan is not None and tok.cart_clan.value != clan:
        raise IllegalActionError(
            "A {clan} cart can only move statues of its clan.", "clan_cart", clan=tok.cart_clan
        )
    if tok not in cart_tokens(state, seat, clan):
        raise IllegalActionError("You do not have that cart ({cart}).", "not_owned", cart=str(tok))


def statue_on_pedestal(state: State, cell: str) -> bool:
    piece = networks(state).piece_at(cell)
    return piece is not None and piece.anchor == cell and piece.pedestal is not None


def dedication_value(state: State, seat: int, cell: str, forbidden_tiers: list[int]) -> int:
    """Honor the Dedication Ritual gives for the statue on `cell` (or an error)."""
    g = geo(state)
    check_on_mountain(g, cell)
    nets = networks(state)
    piece = nets.piece_at(cell)
    if cell not in state.board.statues or piece is None:
        raise IllegalActionError("There is no unearthed statue on {cell}.", "no_statue", cell=cell)
    if not (1 << g.bit(cell)) & own_network(state, seat):
        raise IllegalActionError(
            "The statue on {cell} is not in your network.", "not_yours", cell=cell
        )
    if piece.kind == "hall":
        raise IllegalActionError("Not for a statue in a great hall.", "in_hall")
    if statue_on_pedestal(state, cell):
        raise IllegalActionError("Not for a statue on a pedestal.", "on_pedestal")
    tier = g.tier(cell)
    if tier in forbidden_tiers:
        raise IllegalActionError(
            "Not for a statue on the {tier} tier.", "tier", tier=tier_named(tier)
        )
    return load_content().tables.statue_values[tier - 1]
