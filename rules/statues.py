"""Statues on the board (step 4 and the statue spells): a cart moves an unearthed statue
of the player's network within its piece or into a neighbouring one; the Dedication
Ritual turns one into honor. (The heuristic player's view of statues is
`rules.ai.statues`.)"""

from __future__ import annotations

from rules.actions import Pay, Payment
from rules.content import load_content
from rules.errors import IllegalActionError
from rules.mountain import check_on_mountain, geo, networks, own_network, tier_named
from rules.payment import available_tokens, spend
from rules.resources import Clan, Resource
from rules.state import State


def statue_moves(state: State, seat: int, origin: str) -> list[str]:
    """Cells the statue on `origin` may move to with one cart."""
    g = geo(state)
    reach = _reach(state, seat, origin)
    return [c for c in g.cells(reach) if c != origin and c not in state.board.statues]


def _reach(state: State, seat: int, origin: str) -> int:
    """The cells a cart can take the statue on `origin` to (its piece and the pieces
    next to it), statues not yet left out; none unless it is this player's statue."""
    g = geo(state)
    nets = networks(state)
    piece = nets.piece_at(origin)
    if piece is None or origin not in state.board.statues:
        return 0
    if not (1 << g.bit(origin)) & own_network(state, seat):
        return 0
    pm = nets.piece_masks[piece.id]
    reach = pm
    near = g.spread(pm)
    for _pid, mask in nets.piece_masks.items():
        if mask & near:
            reach |= mask
    return reach


def can_move_a_statue(state: State, seat: int) -> bool:
    """Whether some statue of this player's network can be moved now: a cart for its
    clan and a free cell within reach (as `statue_moves` and `cart_tokens` answer)."""
    g = geo(state)
    own = own_network(state, seat)
    if not own:
        return False
    statues = 0
    for cell in state.board.statues:
        statues |= 1 << g.bits[cell]
    if not statues & own:
        return False
    paid: dict[str, bool] = {}
    for origin in movable_statues(state, seat):
        clan = state.board.statues[origin]
        if clan not in paid:
            paid[clan] = bool(cart_tokens(state, seat, clan))
        if paid[clan] and _reach(state, seat, origin) & ~statues:
            return True
    return False


def movable_statues(state: State, seat: int) -> list[str]:
    """The statues in this player's network, in reading order."""
    g = geo(state)
    own = own_network(state, seat)
    if not own:
        return []
    bits = g.bits  # a cell's bit grows with its row, then its column: reading order
    return sorted((c for c in state.board.statues if own >> bits[c] & 1), key=bits.__getitem__)


def cart_tokens(state: State, seat: int, clan: str) -> list[Pay]:
    """Carts that may move a statue of `clan`, in default order (that clan's carts,
    then wild carts on trolls, then storage)."""
    tokens = [
        t
        for t in available_tokens(state, seat, held=True)
        if t.resource == Resource.CART and (t.cart_clan is None or t.cart_clan.value == clan)
    ]
    return tokens


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
