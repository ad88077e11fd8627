"""Digging tunnels: where a tile may go, what a dig costs and scores, and the pedestal
and workshops it may bring (the dig of step 2 and of Summon Rockeater alike).

A tunnel goes inside the mountain, on free cells (no tile, gate, workshop site or
Heart), touching the digger's network along an edge and no opponent's network at all
(see `rules.mountain` for networks).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from rules.actions import Dig
from rules.content import load_content
from rules.errors import IllegalActionError, Named, Phrase
from rules.grid import parse_cell
from rules.mountain import (
    Geometry,
    add_piece,
    check_on_mountain,
    geo,
    geometry,
    networks,
    opponents_networks,
    own_network,
    tier_named,
)
from rules.payment import gain, owned_counts, resolve_payment, spend
from rules.resources import MINERALS, STATUE_CLANS, Clan, Resource
from rules.shapes import Variant, match_variant, tunnel_size, tunnel_variants
from rules.state import PedestalToken, State

FLAG_FREE_RUBBLE = "free_rubble"
FLAG_RICHER_VEIN = "richer_vein"


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


def placement_hits(
    state: State, seat: int, max_size: int | None = None
) -> Iterator[tuple[str, Variant, tuple[int, ...], int]]:
    """Per tile orientation, the mask of origins where it can legally go (only tiles of
    at most `max_size` cells if given). A shape fits at origin p when every cell p + offset
    is free: the AND of the free mask shifted down by each offset; it
    touches the network when any cell does (an OR). The shapes share many offsets
    (`_Orientations`): each shared prefix of offsets is ANDed and ORed once."""
    g = geo(state)
    nets = networks(state)
    own = own_network(state, seat)
    if not own:
        return
    free = g.area & ~nets.occupied & ~g.sites & ~g.spread(opponents_networks(state, seat))
    touch = g.spread(own) & free
    shapes = _orientations(g.stride)
    free_at: dict[int, int] = {}  # the masks shifted by each offset, once needed
    touch_at: dict[int, int] = {}
    n = len(shapes.steps)
    valid = [0] * n
    touching = [0] * n
    done = [False] * n
    left = state.tunnels_left
    for tile in load_content().tunnels:
        if left.get(tile.id, 0) <= 0:
            continue
        if max_size is not None and tunnel_size(tile.id) > max_size:
            continue
        for i in shapes.needs[tile.id]:  # the prefixes of its shapes not worked out yet
            if done[i]:
                continue
            parent, o = shapes.steps[i]
            shifted = free_at.get(o)
            if shifted is None:
                shifted = free_at[o] = free >> o
                touch_at[o] = touch >> o
            if parent < 0:
                valid[i] = shifted
                touching[i] = touch_at[o]
            else:
                valid[i] = valid[parent] & shifted
                touching[i] = touching[parent] | touch_at[o]
            done[i] = True
        for variant, offs, node in shapes.tiles[tile.id]:
            hits = valid[node] & touching[node]
            if hits:
                yield tile.id, variant, offs, hits


@dataclass(frozen=True, slots=True)
class _Orientations:
    """Every tile orientation's cells as bit offsets, for one board width. Their sorted
    offsets form a trie: `steps[i]` is node i's parent (-1 for none) and the offset it
    adds, parents first, so that the masks of a prefix several shapes share are worked
    out once; `needs` lists, per tile, the nodes of its orientations' prefixes. The
    origin p is the corner of the orientation's bounding box, which it need not cover
    (an L3 or a T4 leaves it empty): only the covered cells must be free."""

    steps: tuple[tuple[int, int], ...]
    needs: dict[str, tuple[int, ...]]
    tiles: dict[str, tuple[tuple[Variant, tuple[int, ...], int], ...]]  # (variant, offsets, node)


@cache
def _orientations(stride: int) -> _Orientations:
    cells: dict[str, list[tuple[Variant, tuple[int, ...]]]] = {
        tile.id: [
            (v, tuple(dy * stride + dx for dx, dy in v.cells)) for v in tunnel_variants(tile.id)
        ]
        for tile in load_content().tunnels
    }
    keys = {tuple(sorted(offs)) for rows in cells.values() for _, offs in rows}
    prefixes = sorted(
        {k[:n] for k in keys for n in range(1, len(k) + 1)}, key=lambda k: (len(k), k)
    )
    node = {k: i for i, k in enumerate(prefixes)}

    def needs(rows: list[tuple[Variant, tuple[int, ...]]]) -> tuple[int, ...]:
        mine = {tuple(sorted(offs)) for _, offs in rows}
        return tuple(sorted({node[k[:n]] for k in mine for n in range(1, len(k) + 1)}))

    return _Orientations(
        steps=tuple((node.get(k[:-1], -1), k[-1]) for k in prefixes),
        needs={tile: needs(rows) for tile, rows in cells.items()},
        tiles={
            tile: tuple((v, offs, node[tuple(sorted(offs))]) for v, offs in rows)
            for tile, rows in cells.items()
        },
    )


@cache
def _rubble_levels(side: str) -> dict[tuple[int, ...], tuple[int, ...]]:
    """Per tile orientation (its offsets), the origins where it covers at least k rubble
    spaces, for k = 0 (every origin: -1) up to its size (built once per board side)."""
    g = geometry(side)
    out: dict[tuple[int, ...], tuple[int, ...]] = {}
    for rows in _orientations(g.stride).tiles.values():
        for _, offs, _ in rows:
            if offs in out:
                continue
            at_least = [-1] + [0] * len(offs)
            for o in offs:
                covers = g.rubble >> o
                for k in range(len(offs), 0, -1):
                    at_least[k] |= at_least[k - 1] & covers
            out[offs] = tuple(at_least)
    return out


def make_placement(
    g: Geometry, shape: str, variant: Variant, offs: tuple[int, ...], origin: int
) -> Placement:
    mask = 0
    for o in offs:
        mask |= 1 << (origin + o)
    return Placement(shape, variant, origin, offs, mask, (mask & g.rubble).bit_count(), g.names)


def payable_hits(
    state: State, seat: int, counts: Counter[Resource]
) -> Iterator[tuple[str, Variant, tuple[int, ...], int]]:
    """As `placement_hits`, only the origins the player can pay for with `counts`
    (enough of one mineral, and hammers for the rubble), leaving out orientations
    with none."""
    biggest = max(counts[m] for m in MINERALS)
    hammers = 99 if FLAG_FREE_RUBBLE in state.turn_flags() else counts[Resource.HAMMER]
    rubble = _rubble_levels(state.config.board_side)
    for shape, variant, offs, hits in placement_hits(state, seat, biggest):
        payable = hits if hammers >= len(offs) else hits & ~rubble[offs][hammers + 1]
        if payable:
            yield shape, variant, offs, payable


def has_minerals_for_a_tunnel(
    state: State, seat: int, counts: Counter[Resource] | None = None
) -> bool:
    """True if the player owns enough of one mineral for the smallest tunnel left."""
    smallest = min((tunnel_size(t) for t, n in state.tunnels_left.items() if n > 0), default=0)
    if not smallest:
        return False
    if counts is None:
        counts = owned_counts(state, seat)
    return any(counts[m] >= smallest for m in MINERALS)


def affordable(state: State, seat: int, p: Placement, counts: Counter[Resource]) -> list[Resource]:
    """Minerals this player could pay this placement with (hammers included)."""
    size = p.size
    hammers = 0 if FLAG_FREE_RUBBLE in state.turn_flags() else p.rubble
    if counts[Resource.HAMMER] < hammers:
        return []
    return [m for m in MINERALS if counts[m] >= size]


def can_dig(state: State, seat: int, counts: Counter[Resource] | None = None) -> bool:
    """Whether some tunnel can be dug now with what the player owns (`counts`, if the
    caller has them)."""
    if counts is None:
        counts = owned_counts(state, seat)
    if not has_minerals_for_a_tunnel(state, seat, counts):
        return False
    return next(payable_hits(state, seat, counts), None) is not None


# --- what a dig may bring: a pedestal on its anchor, workshops beside it ----------------


def pedestal_refusal(
    state: State, seat: int, anchor: str | None, clan: Clan
) -> IllegalActionError | None:
    """Why a dig may not put a `clan` pedestal on the tile's anchor, or None if it may:
    the tile needs an anchor, the player a pedestal of that clan in storage, and the
    anchor's tier must still have that clan's spot on the pedestal track."""
    if anchor is None:
        return IllegalActionError("This tile has no anchor for a pedestal.", "no_anchor")
    if state.account_of(seat).pedestals.get(clan.value, 0) < 1:
        return IllegalActionError(
            "You have no {clan} pedestal in storage.", "no_pedestal", clan=clan
        )
    tier = geo(state).tier(anchor)
    if state.pedestal_track.get(f"{tier}:{clan.value}") is None:
        return IllegalActionError(
            "A {clan} pedestal already stands on the {tier} tier: only one per clan per tier.",
            "pedestal_tier_used",
            clan=clan,
            tier=tier_named(tier),
        )
    return None


def dig_pedestals(state: State, seat: int, anchor: str | None) -> tuple[Clan, ...]:
    """The pedestals a dig may put on this anchor (`pedestal_refusal` finds none)."""
    if anchor is None:
        return ()
    return tuple(c for c in STATUE_CLANS if pedestal_refusal(state, seat, anchor, c) is None)


def workshop_refusal(
    state: State, around: int, site: str, workshop: str, supply: Counter[str]
) -> IllegalActionError | None:
    """Why a dig whose tunnel touches the cells of `around` (its mask spread by one)
    may not establish `workshop` on `site`, or None if it may: an empty workshop site
    next to the tunnel, and that workshop still in `supply`."""
    g = geo(state)
    if site not in g.bits or not (1 << g.bit(site)) & g.sites:
        return IllegalActionError("{site} is not a workshop site.", "no_site", site=site)
    if site in state.board.workshops:
        return IllegalActionError(
            "The site {site} already has a workshop.", "site_taken", site=site
        )
    if not around & (1 << g.bit(site)):
        return IllegalActionError(
            "The site {site} is not next to the new tunnel.", "site_not_adjacent", site=site
        )
    if supply[workshop] <= 0:
        return IllegalActionError(
            "There is no {workshop} workshop left in the supply.",
            "no_workshop_left",
            workshop=repr(workshop),
        )
    return None


def workshop_choices(state: State, mask: int) -> list[str]:
    """Empty workshop sites next to a tunnel mask."""
    g = geo(state)
    near = g.spread(mask) & g.sites
    return [s for s in g.cells(near) if s not in state.board.workshops]


def dig_workshops(state: State, mask: int) -> tuple[tuple[str, str], ...]:
    """Each (site, workshop) a dig covering `mask` may establish alone."""
    around = geo(state).spread(mask)
    supply = Counter(state.workshop_supply)
    return tuple(
        (site, w)
        for site in workshop_choices(state, mask)
        for w in sorted(supply)
        if workshop_refusal(state, around, site, w, supply) is None
    )


def _workshop_plans(
    state: State, around: int, sites: list[str], supply: Counter[str]
) -> Iterator[tuple[tuple[str, str], ...]]:
    """Each way to fill some of `sites` from the supply (leaving a site empty first)."""
    if not sites:
        yield ()
        return
    site, rest = sites[0], sites[1:]
    yield from _workshop_plans(state, around, rest, supply)
    for workshop in sorted(supply):
        if workshop_refusal(state, around, site, workshop, supply) is not None:
            continue
        supply[workshop] -= 1
        for plan in _workshop_plans(state, around, rest, supply):
            yield ((site, workshop), *plan)
        supply[workshop] += 1


# --- the dig -----------------------------------------------------------------------------


def check_dig(state: State, seat: int, action: Dig) -> None:
    """Raise the refusal of a dig, if any, but for its payment (`resolve_payment`)."""
    content = load_content()
    g = geo(state)
    nets = networks(state)
    if state.tunnels_left.get(action.shape, 0) <= 0:
        known = {t.id for t in content.tunnels}
        if action.shape not in known:
            raise IllegalActionError(
                "There is no tunnel tile {shape}.", "no_such_tile", shape=repr(action.shape)
            )
        raise IllegalActionError(
            "No {shape} tunnel tiles are left.", "no_tile_left", shape=action.shape
        )
    for cell in action.cells:
        check_on_mountain(g, cell)
    offsets = [parse_cell(c) for c in action.cells]
    anchor = None if action.anchor is None else parse_cell(action.anchor)
    if match_variant(tunnel_variants(action.shape), offsets, anchor) is None:
        if tunnel_size(action.shape) < 5:
            raise IllegalActionError(
                "Those cells are not the shape of a {shape} tile with its anchor (*) where the"
                " tile has one.",
                "wrong_shape",
                shape=action.shape,
            )
        raise IllegalActionError(
            "Those cells are not the shape of a {shape} tile.", "wrong_shape", shape=action.shape
        )
    mask = g.mask(action.cells)
    for cell in action.cells:
        b = 1 << g.bit(cell)
        if b & nets.occupied:
            raise IllegalActionError("{cell} is already dug.", "occupied", cell)
        if b & g.sites:
            raise IllegalActionError(
                "{cell} is a workshop site: tunnels may not cover it.", "site", cell
            )
    own = own_network(state, seat)
    if not g.spread(own) & mask:
        raise IllegalActionError(
            "A new tunnel must touch your own network along an edge.", "not_connected"
        )
    _check_opponents(state, seat, mask)
    if action.pedestal is not None:
        refusal = pedestal_refusal(state, seat, action.anchor, action.pedestal)
        if refusal is not None:
            raise refusal
    supply = Counter(state.workshop_supply)
    around = g.spread(mask)
    for site, workshop in action.workshops:
        refusal = workshop_refusal(state, around, site, workshop, supply)
        if refusal is not None:
            raise refusal
        supply[workshop] -= 1


def dig(state: State, seat: int, action: Dig, *, checked: bool = True) -> None:
    """Carry out a dig, checked first unless the caller knows it is legal (turn and
    step are the caller's business)."""
    g = geo(state)
    if checked:
        check_dig(state, seat, action)
    mask = g.mask(action.cells)
    rubble = (mask & g.rubble).bit_count()
    hammers = 0 if FLAG_FREE_RUBBLE in state.turn_flags() else rubble
    size = len(action.cells)
    need = [action.mineral] * size + [Resource.HAMMER] * hammers
    account = state.account_of(seat)
    tokens = resolve_payment(
        state, seat, need, action.pay, what=Phrase("the {shape} tunnel", {"shape": action.shape})
    )

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
    if action.pedestal is not None and action.anchor is not None:
        tier = g.tier(action.anchor)
        track_key = f"{tier}:{action.pedestal.value}"
        value = state.pedestal_track[track_key]
        assert value is not None
        account.pedestals[action.pedestal.value] -= 1
        state.pedestal_track[track_key] = None
        account.tokens.append(PedestalToken(tier, action.pedestal.value, value))
    for site, workshop in action.workshops:
        state.workshop_supply.remove(workshop)
        state.board.workshops[site] = workshop
    state.tunnels_left[action.shape] -= 1


@dataclass(frozen=True, slots=True)
class DigOptions:
    """Every legal dig at one placement, in the order of `dig_options`, as a sequence
    that makes only the digs asked for (`len` is the product of the choices, so a
    random one is picked without making the others)."""

    placement: Placement
    minerals: tuple[Resource, ...]
    pedestals: tuple[Clan | None, ...]
    plans: tuple[tuple[tuple[str, str], ...], ...]

    def __len__(self) -> int:
        return len(self.minerals) * len(self.pedestals) * len(self.plans)

    def __getitem__(self, i: int) -> Dig:
        if not 0 <= i < len(self):
            raise IndexError(i)
        rest, plan = divmod(i, len(self.plans))
        mineral, pedestal = divmod(rest, len(self.pedestals))
        p = self.placement
        return Dig(
            p.shape,
            p.cells,
            p.anchor,
            self.minerals[mineral],
            self.pedestals[pedestal],
            self.plans[plan],
        )

    def __iter__(self) -> Iterator[Dig]:
        p = self.placement
        for mineral in self.minerals:
            for ped in self.pedestals:
                for plan in self.plans:
                    yield Dig(p.shape, p.cells, p.anchor, mineral, ped, plan)


def dig_options_at(
    state: State, seat: int, p: Placement, counts: Counter[Resource] | None = None
) -> DigOptions:
    """The legal digs at one placement (`dig_options`) as a `DigOptions` sequence."""
    if counts is None:
        counts = owned_counts(state, seat)
    minerals = affordable(state, seat, p, counts)
    if not minerals:
        return DigOptions(p, (), (), ())
    pedestals: tuple[Clan | None, ...] = (None, *dig_pedestals(state, seat, p.anchor))
    around = geo(state).spread(p.mask)
    sites = workshop_choices(state, p.mask)
    plans = tuple(_workshop_plans(state, around, sites, Counter(state.workshop_supply)))
    return DigOptions(p, tuple(minerals), pedestals, plans)


def dig_options(
    state: State, seat: int, p: Placement, counts: Counter[Resource] | None = None
) -> Iterator[Dig]:
    """Every legal dig at one placement: each affordable mineral, each pedestal choice
    (none first) and each way to establish workshops on the empty sites next to it."""
    yield from dig_options_at(state, seat, p, counts)


def dig_actions(state: State, seat: int) -> Iterator[Dig]:
    """Every legal dig with what the player owns (turn and step aside)."""
    counts = owned_counts(state, seat)
    if not has_minerals_for_a_tunnel(state, seat, counts):
        return
    for p in placements(state, seat):
        yield from dig_options_at(state, seat, p, counts)


def tunnel_score(state: State, size: int, mineral: Resource) -> int:
    """Honor for a tunnel of `size` paid in `mineral` (Richer Vein: as the next mineral
    up, the best one two more)."""
    content = load_content()
    if FLAG_RICHER_VEIN not in state.turn_flags():
        return content.tunnel_score(size, mineral)
    i = MINERALS.index(mineral)
    if i + 1 < len(MINERALS):
        return content.tunnel_score(size, MINERALS[i + 1])
    return content.tunnel_score(size, mineral) + 2


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
            colour = state.players[other].colour
            raise IllegalActionError(
                "That tunnel would touch {colour}'s network at {cell}; only diagonal contact"
                " with another player's network is allowed.",
                "touches_opponent",
                cell,
                colour=Named("colour", colour, colour.capitalize()),
            )
    raise AssertionError("unreachable")  # pragma: no cover
