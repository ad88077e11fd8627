"""The rules of the mountain: gates, digging tunnels, great halls, statue moves,
workshop access and the board's part of the final score.

Networks: a player's network is everything connected (along cell edges) to their gate.
A piece cut off from every gate belongs to nobody until someone connects to it. In team
mode a partner's network counts as your own once the two are connected, and touching
the partner's network is allowed (that is how they connect).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from rules.actions import DedicateHall, Dig, Pay, Payment
from rules.content import load_content
from rules.errors import IllegalActionError
from rules.grid import parse_cell
from rules.mountain import (
    Geometry,
    any_network,
    geo,
    invalidate,
    networks,
    opponents_networks,
    own_network,
)
from rules.payment import available_tokens, gain, owned_counts, resolve_payment, spend
from rules.resources import MINERALS, STATUE_CLANS, Clan, Resource
from rules.shapes import Variant, hall_variants, match_variant, tunnel_size, tunnel_variants
from rules.state import PedestalToken, Piece, State

FLAG_FREE_RUBBLE = "free_rubble"
FLAG_RICHER_VEIN = "richer_vein"


def add_piece(
    state: State, kind: str, name: str, seat: int, cells: list[str], **extra: str | None
) -> Piece:
    board = state.board
    piece = Piece(board.next_id, kind, name, seat, list(cells), **extra)  # type: ignore[arg-type]
    board.next_id += 1
    board.pieces.append(piece)
    invalidate(board)
    return piece


# --- digging -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a tunnel tile could go: its shape, orientation and covered cells."""

    shape: str
    variant: Variant
    origin: int  # bit of the variant's (0, 0) offset
    offsets: tuple[int, ...]  # bit offsets of the variant's cells
    mask: int
    rubble: int  # rubble spaces covered (hammers needed)
    names: dict[int, str]

    @property
    def cells(self) -> tuple[str, ...]:
        return tuple(self.names[self.origin + o] for o in self.offsets)

    @property
    def anchor(self) -> str | None:
        mark = self.variant.mark
        return None if mark is None else self.names[self.origin + self.offsets[mark]]

    @property
    def size(self) -> int:
        return len(self.offsets)


def placements(state: State, seat: int) -> Iterator[Placement]:
    """Every legal position for every tile left in the supply, ignoring cost: inside
    the mountain, on free cells (no tile, gate, workshop site or Heart), touching this
    player's network along an edge and no opponent's network at all. Stable order:
    tiles in data order, then orientations, then cells in reading order."""
    g = geo(state)
    for shape, variant, offs, hits in placement_hits(state, seat):
        while hits:
            low = hits & -hits
            hits ^= low
            yield make_placement(g, shape, variant, offs, low.bit_length() - 1)


def placement_hits(state: State, seat: int) -> Iterator[tuple[str, Variant, tuple[int, ...], int]]:
    """Per tile orientation, the mask of origins where it can legally go. A shape fits
    at origin p when every cell p + offset is free: the AND of the free mask shifted
    down by each offset; it touches the network when any cell does (an OR)."""
    g = geo(state)
    nets = networks(state)
    own = own_network(state, seat)
    if not own:
        return
    free = g.area & ~nets.occupied & ~g.sites & ~g.spread(opponents_networks(state, seat))
    touch = g.spread(own) & free
    for tile in load_content().tunnels:
        if state.tunnels_left.get(tile.id, 0) <= 0:
            continue
        for variant, offs in _variant_offsets(tile.id, g.stride):
            valid = free
            touching = 0
            for o in offs:
                valid &= free >> o
                touching |= touch >> o
            if valid & touching:
                yield tile.id, variant, offs, valid & touching


def make_placement(
    g: Geometry, shape: str, variant: Variant, offs: tuple[int, ...], origin: int
) -> Placement:
    mask = 0
    for o in offs:
        mask |= 1 << (origin + o)
    return Placement(shape, variant, origin, offs, mask, (mask & g.rubble).bit_count(), g.names)


@cache
def _variant_offsets(shape: str, stride: int) -> tuple[tuple[Variant, tuple[int, ...]], ...]:
    return tuple((v, tuple(dy * stride + dx for dx, dy in v.cells)) for v in tunnel_variants(shape))


def has_minerals_for_a_tunnel(state: State, seat: int) -> bool:
    """True if the player owns enough of one mineral for the smallest tunnel left."""
    sizes = [tunnel_size(t) for t, n in state.tunnels_left.items() if n > 0]
    if not sizes:
        return False
    counts = owned_counts(state, seat)
    return any(counts[m] >= min(sizes) for m in MINERALS)


def affordable(state: State, seat: int, p: Placement, counts: Counter[Resource]) -> list[Resource]:
    """Minerals this player could pay this placement with (hammers included)."""
    size = p.size
    hammers = 0 if _flag(state, FLAG_FREE_RUBBLE) else p.rubble
    if counts[Resource.HAMMER] < hammers:
        return []
    return [m for m in MINERALS if counts[m] >= size]


def can_dig(state: State, seat: int) -> bool:
    """Whether some tunnel can be dug now with what the player owns."""
    if not has_minerals_for_a_tunnel(state, seat):
        return False
    counts = owned_counts(state, seat)
    biggest = max(counts[m] for m in MINERALS)
    hammers = 99 if _flag(state, FLAG_FREE_RUBBLE) else counts[Resource.HAMMER]
    return any(p.size <= biggest and p.rubble <= hammers for p in placements(state, seat))


def dig(state: State, seat: int, action: Dig) -> None:
    """Check and carry out a dig (turn and step are the caller's business)."""
    content = load_content()
    g = geo(state)
    nets = networks(state)
    if state.tunnels_left.get(action.shape, 0) <= 0:
        known = {t.id for t in content.tunnels}
        if action.shape not in known:
            raise _illegal(f"There is no tunnel tile {action.shape!r}.", "no_such_tile")
        raise _illegal(f"No {action.shape} tunnel tiles are left.", "no_tile_left")
    for cell in action.cells:
        _on_mountain(g, cell)
    offsets = [parse_cell(c) for c in action.cells]
    anchor = None if action.anchor is None else parse_cell(action.anchor)
    if match_variant(tunnel_variants(action.shape), offsets, anchor) is None:
        mark = (
            " with its anchor (*) where the tile has one" if tunnel_size(action.shape) < 5 else ""
        )
        raise _illegal(
            f"Those cells are not the shape of a {action.shape} tile{mark}.", "wrong_shape"
        )
    mask = g.mask(action.cells)
    for cell in action.cells:
        b = 1 << g.bit(cell)
        if b & nets.occupied:
            raise _illegal(f"{cell} is already dug.", "occupied", cell)
        if b & g.sites:
            raise _illegal(f"{cell} is a workshop site: tunnels may not cover it.", "site", cell)
    own = own_network(state, seat)
    if not g.spread(own) & mask:
        raise _illegal("A new tunnel must touch your own network along an edge.", "not_connected")
    _check_opponents(state, seat, mask)
    rubble = (mask & g.rubble).bit_count()
    hammers = 0 if _flag(state, FLAG_FREE_RUBBLE) else rubble
    size = len(action.cells)
    need = [action.mineral] * size + [Resource.HAMMER] * hammers
    account = state.account_of(seat)
    track_key = None
    if action.pedestal is not None:
        if action.anchor is None:
            raise _illegal("This tile has no anchor for a pedestal.", "no_anchor")
        if account.pedestals.get(action.pedestal.value, 0) < 1:
            raise _illegal(
                f"You have no {action.pedestal.value} pedestal in storage.", "no_pedestal"
            )
        tier = g.tier(action.anchor)
        track_key = f"{tier}:{action.pedestal.value}"
        if state.pedestal_track.get(track_key) is None:
            raise _illegal(
                f"A {action.pedestal.value} pedestal already stands on the"
                f" {TIER_NAMES[tier - 1]} tier: only one per clan per tier.",
                "pedestal_tier_used",
            )
    supply = Counter(state.workshop_supply)
    around = g.spread(mask)
    for site, workshop in action.workshops:
        if site not in g.bits or not (1 << g.bit(site)) & g.sites:
            raise _illegal(f"{site} is not a workshop site.", "no_site")
        if site in state.board.workshops:
            raise _illegal(f"The site {site} already has a workshop.", "site_taken")
        if not around & (1 << g.bit(site)):
            raise _illegal(f"The site {site} is not next to the new tunnel.", "site_not_adjacent")
        if supply[workshop] <= 0:
            raise _illegal(
                f"There is no {workshop!r} workshop left in the supply.", "no_workshop_left"
            )
        supply[workshop] -= 1
    tokens = resolve_payment(state, seat, need, action.pay, what=f"the {action.shape} tunnel")

    # -- carry it out ------------------------------------------------------------------
    spend(state, seat, tokens)
    account.tunnel_honor += tunnel_score(state, size, action.mineral)
    for b, res in g.buried.items():
        if mask >> b & 1:
            gain(state, seat, [res])
    add_piece(
        state,
        "tunnel",
        action.shape,
        seat,
        list(action.cells),
        mineral=action.mineral.value,
        anchor=action.anchor,
        pedestal=None if action.pedestal is None else action.pedestal.value,
    )
    if action.pedestal is not None and track_key is not None:
        value = state.pedestal_track[track_key]
        assert value is not None
        account.pedestals[action.pedestal.value] -= 1
        state.pedestal_track[track_key] = None
        tier = int(track_key.split(":")[0])
        account.tokens.append(PedestalToken(tier, action.pedestal.value, value))
    for site, workshop in action.workshops:
        state.workshop_supply.remove(workshop)
        state.board.workshops[site] = workshop
    state.tunnels_left[action.shape] -= 1


def dig_options(
    state: State, seat: int, p: Placement, counts: Counter[Resource] | None = None
) -> Iterator[Dig]:
    """Every legal dig at one placement: each affordable mineral, each pedestal choice
    (none first) and each way to establish workshops on the empty sites next to it."""
    if counts is None:
        counts = owned_counts(state, seat)
    minerals = affordable(state, seat, p, counts)
    if not minerals:
        return
    g = geo(state)
    account = state.account_of(seat)
    pedestals: list[Clan | None] = [None]
    if p.anchor is not None:
        tier = g.tier(p.anchor)
        for clan in STATUE_CLANS:
            if (
                account.pedestals.get(clan.value, 0) > 0
                and state.pedestal_track.get(f"{tier}:{clan.value}") is not None
            ):
                pedestals.append(clan)
    site_plans = list(
        _workshop_plans(workshop_choices(state, p.mask), Counter(state.workshop_supply))
    )
    for mineral in minerals:
        for ped in pedestals:
            for plan in site_plans:
                yield Dig(p.shape, p.cells, p.anchor, mineral, ped, plan)


def _workshop_plans(
    sites: list[str], supply: Counter[str]
) -> Iterator[tuple[tuple[str, str], ...]]:
    """Each way to fill some of `sites` from the supply (leaving a site empty first)."""
    if not sites:
        yield ()
        return
    site, rest = sites[0], sites[1:]
    yield from _workshop_plans(rest, supply)
    for workshop in sorted(supply):
        if supply[workshop] <= 0:
            continue
        supply[workshop] -= 1
        for plan in _workshop_plans(rest, supply):
            yield ((site, workshop), *plan)
        supply[workshop] += 1


def dig_actions(state: State, seat: int) -> Iterator[Dig]:
    if not has_minerals_for_a_tunnel(state, seat):
        return
    counts = owned_counts(state, seat)
    for p in placements(state, seat):
        yield from dig_options(state, seat, p, counts)


def tunnel_score(state: State, size: int, mineral: Resource) -> int:
    content = load_content()
    if not _flag(state, FLAG_RICHER_VEIN):
        return content.tunnel_score(size, mineral)
    i = MINERALS.index(mineral)
    if i + 1 < len(MINERALS):
        return content.tunnel_score(size, MINERALS[i + 1])
    return content.tunnel_score(size, mineral) + 2


def workshop_choices(state: State, mask: int) -> list[str]:
    """Empty workshop sites next to a tunnel mask."""
    g = geo(state)
    near = g.spread(mask) & g.sites
    return [s for s in g.cells(near) if s not in state.board.workshops]


# --- great halls -------------------------------------------------------------------


def hall_placements(state: State, seat: int) -> Iterator[DedicateHall]:
    """Every legal placement of every hall left: exactly over this player's tunnels."""
    g = geo(state)
    nets = networks(state)
    own = own_network(state, seat)
    tunnels = 0
    for pid, pm in nets.piece_masks.items():
        if nets.pieces[pid].kind == "tunnel" and pm & own:
            tunnels |= pm
    if not tunnels:
        return
    for hall_id in sorted(state.halls_left, key=_hall_order):
        for variant in hall_variants(hall_id):
            offs = [dy * g.stride + dx for dx, dy in variant.cells]
            valid = tunnels
            for o in offs:
                valid &= tunnels >> o
            while valid:
                low = valid & -valid
                valid ^= low
                p = low.bit_length() - 1
                cells = tuple(g.names[p + o] for o in offs)
                altar = None if variant.mark is None else cells[variant.mark]
                yield DedicateHall(hall_id, cells, altar)


def dedicate_hall(state: State, seat: int, action: DedicateHall) -> None:
    content = load_content()
    g = geo(state)
    nets = networks(state)
    if action.hall not in state.halls_left:
        known = {h.id for h in content.halls}
        if action.hall not in known:
            raise _illegal(f"There is no great hall {action.hall!r}.", "no_such_hall")
        raise _illegal("That great hall has already been dedicated.", "hall_taken")
    for cell in action.cells:
        _on_mountain(g, cell)
    offsets = [parse_cell(c) for c in action.cells]
    altar = None if action.altar is None else parse_cell(action.altar)
    if match_variant(hall_variants(action.hall), offsets, altar) is None:
        raise _illegal(
            "Those cells are not the shape of that great hall (mark its altar with *).",
            "wrong_shape",
        )
    own = own_network(state, seat)
    covered: dict[int, list[str]] = {}
    for cell in action.cells:
        piece = nets.piece_at(cell)
        if piece is None:
            raise _illegal(
                f"{cell} is not a tunnel: a great hall must lie on tunnels.", "not_tunnel"
            )
        if piece.kind != "tunnel":
            raise _illegal(f"A great hall may not cover a {piece.kind} ({cell}).", "not_tunnel")
        if not (1 << g.bit(cell)) & own:
            raise _illegal(f"{cell} is not in your network.", "not_yours")
        covered.setdefault(piece.id, []).append(cell)

    # -- carry it out ------------------------------------------------------------------
    hall_cells = set(action.cells)
    board = state.board
    for pid in covered:
        piece = nets.pieces[pid]
        board.pieces.remove(piece)
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


# --- statues -----------------------------------------------------------------------


def statue_moves(state: State, seat: int, origin: str) -> list[str]:
    """Cells the statue on `origin` may move to with one cart."""
    g = geo(state)
    nets = networks(state)
    piece = nets.piece_at(origin)
    if piece is None or origin not in state.board.statues:
        return []
    if not (1 << g.bit(origin)) & own_network(state, seat):
        return []
    pm = nets.piece_masks[piece.id]
    reach = pm
    near = g.spread(pm)
    for _pid, mask in nets.piece_masks.items():
        if mask & near:
            reach |= mask
    return [c for c in g.cells(reach) if c != origin and c not in state.board.statues]


def movable_statues(state: State, seat: int) -> list[str]:
    g = geo(state)
    own = own_network(state, seat)
    return sorted(
        (c for c in state.board.statues if (1 << g.bit(c)) & own),
        key=lambda c: (parse_cell(c)[1], parse_cell(c)[0]),
    )


def cart_tokens(state: State, seat: int, clan: str) -> list[Pay]:
    """Carts that may move a statue of `clan`, in default order (that clan's carts,
    then wild carts on trolls, then storage)."""
    tokens = [
        t
        for t in available_tokens(state, seat)
        if t.resource == Resource.CART and (t.cart_clan is None or t.cart_clan.value == clan)
    ]
    return tokens


def move_statue(
    state: State, seat: int, origin: str, target: str, pay: Payment, *, free: bool = False
) -> None:
    g = geo(state)
    for cell in (origin, target):
        _on_mountain(g, cell)
    clan = state.board.statues.get(origin)
    if clan is None:
        raise _illegal(f"There is no statue on {origin}.", "no_statue")
    nets = networks(state)
    if nets.piece_at(origin) is None:
        raise _illegal(f"The statue on {origin} is still buried.", "buried")
    if not (1 << g.bit(origin)) & own_network(state, seat):
        raise _illegal(f"The statue on {origin} is not in your network.", "not_yours")
    if target not in statue_moves(state, seat, origin):
        if target in state.board.statues:
            raise _illegal(f"{target} already holds a statue.", "occupied")
        raise _illegal(
            f"A cart moves a statue within its tunnel or into an adjacent one; {target} is"
            " neither.",
            "too_far",
        )
    tokens: list[Pay] = []
    if not free:
        allowed = cart_tokens(state, seat, clan)
        if pay is None:
            if not allowed:
                raise _illegal(
                    f"You need a wild cart or a {clan} cart to move this statue.", "cannot_afford"
                )
            tokens = [allowed[0]]
        else:
            if len(pay) != 1 or pay[0].resource != Resource.CART:
                raise _illegal("A statue move is paid with exactly one cart.", "wrong_payment")
            tok = pay[0]
            if tok.cart_clan is not None and tok.cart_clan.value != clan:
                raise _illegal(
                    f"A {tok.cart_clan.value} cart can only move {tok.cart_clan.value} statues.",
                    "clan_cart",
                )
            if tok not in allowed:
                raise _illegal(f"You do not have that cart ({tok}).", "not_owned")
            tokens = [tok]
    spend(state, seat, tokens)
    del state.board.statues[origin]
    state.board.statues[target] = clan


def statue_on_pedestal(state: State, cell: str) -> bool:
    piece = networks(state).piece_at(cell)
    return piece is not None and piece.anchor == cell and piece.pedestal is not None


def dedication_value(state: State, seat: int, cell: str, forbidden_tiers: list[int]) -> int:
    """Honor the Dedication Ritual gives for the statue on `cell` (or an error)."""
    g = geo(state)
    _on_mountain(g, cell)
    nets = networks(state)
    piece = nets.piece_at(cell)
    if cell not in state.board.statues or piece is None:
        raise _illegal(f"There is no unearthed statue on {cell}.", "no_statue")
    if not (1 << g.bit(cell)) & own_network(state, seat):
        raise _illegal(f"The statue on {cell} is not in your network.", "not_yours")
    if piece.kind == "hall":
        raise _illegal("Not for a statue in a great hall.", "in_hall")
    if statue_on_pedestal(state, cell):
        raise _illegal("Not for a statue on a pedestal.", "on_pedestal")
    tier = g.tier(cell)
    if tier in forbidden_tiers:
        raise _illegal(f"Not for a statue on the {TIER_NAMES[tier - 1]} tier.", "tier")
    return load_content().tables.statue_values[tier - 1]


# --- workshops ---------------------------------------------------------------------


def open_entrances(state: State, site: str) -> int:
    g = geo(state)
    net = any_network(state)
    b = g.bit(site)
    s = g.stride
    return sum(1 for n in (b - s, b + 1, b + s, b - 1) if n >= 0 and net >> n & 1)


def workshop_uses(state: State, seat: int, site: str) -> int:
    """How many times this player may use the workshop on `site` this turn: once per
    open entrance (touching anyone's network), if their own network touches one."""
    g = geo(state)
    if site not in g.bits:
        return 0
    if not g.spread(1 << g.bit(site)) & own_network(state, seat):
        return 0
    return open_entrances(state, site)


# --- ownership & scoring -----------------------------------------------------------


def piece_owners(state: State) -> dict[int, int | None]:
    """Who each piece belongs to now: the seat whose gate's network holds it (the seat
    that laid it when partners share a network), or None for a cut-off piece."""
    nets = networks(state)
    out: dict[int, int | None] = {}
    for piece in state.board.pieces:
        pm = nets.piece_masks[piece.id]
        owners = [seat for seat, mask in sorted(nets.own.items()) if mask & pm]
        out[piece.id] = piece.seat if piece.seat in owners else (owners[0] if owners else None)
    return out


def board_scores(state: State, seats: tuple[int, ...]) -> tuple[int, int]:
    """(great halls, statues) for the network(s) of these seats: a hall scores high
    with any statue on its altar; each tunnel scores its best statue (doubled on a
    pedestal of its clan); statues in halls score only through the altar."""
    content = load_content()
    g = geo(state)
    nets = networks(state)
    mine = 0
    for seat in seats:
        mine |= nets.own.get(seat, 0)
    statues = state.board.statues
    halls = total = 0
    for piece in state.board.pieces:
        if not nets.piece_masks[piece.id] & mine:
            continue
        if piece.kind == "hall":
            info = next(h for h in content.halls if h.id == piece.name)
            halls += info.high if piece.altar in statues else info.low
            continue
        best = 0
        for cell in piece.cells:
            clan = statues.get(cell)
            if clan is None:
                continue
            value = content.tables.statue_values[g.tier(cell) - 1]
            if piece.anchor == cell and piece.pedestal == clan:
                value *= 2
            best = max(best, value)
        total += best
    return halls, total


# --- helpers -----------------------------------------------------------------------

TIER_NAMES = ("dark gray", "gray", "brown", "orange", "yellow")


def _flag(state: State, flag: str) -> bool:
    return state.turn is not None and flag in state.turn.flags


def _illegal(message: str, code: str, cell: str | None = None) -> IllegalActionError:
    return IllegalActionError(message, code, cell)


def _on_mountain(g: Geometry, cell: str) -> None:
    if cell not in g.bits:
        raise _illegal(f"{cell} is off the mountain.", "off_board", cell)
    if (1 << g.bit(cell)) & g.heart:
        raise _illegal(f"{cell} is the Heart of the Mountain: nothing may cover it.", "heart", cell)


def _check_opponents(state: State, seat: int, mask: int) -> None:
    g = geo(state)
    nets = networks(state)
    opp = opponents_networks(state, seat)
    touching = g.spread(mask) & opp
    if not touching:
        return
    for other, net in nets.own.items():
        if net & touching:
            cell = g.cells(g.spread(net) & mask)[0]
            colour = state.players[other].colour.capitalize()
            raise _illegal(
                f"That tunnel would touch {colour}'s network at {cell}; only diagonal contact"
                " with another player's network is allowed.",
                "touches_opponent",
                cell,
            )
    raise AssertionError("unreachable")  # pragma: no cover


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


def _hall_order(hall_id: str) -> int:
    return [h.id for h in load_content().halls].index(hall_id)
