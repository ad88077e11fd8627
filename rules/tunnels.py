"""Digging tunnels: where a tile may go, what a dig costs and scores, and the pedestal
and workshops it may bring (the dig of step 2 and of Summon Rockeater alike).

A tunnel goes inside the mountain, on free cells (no tile, gate, workshop site or
Heart), touching the digger's network along an edge and no opponent's network at all
(see `rules.mountain` for networks).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import accumulate

from rules.actions import Dig
from rules.content import load_content
from rules.errors import IllegalActionError, Named, Phrase, echo
from rules.fits import Orientation, fits, orientation_hits, smallest_tile, tile_sizes
from rules.grid import parse_cell
from rules.indexed import Chained, Groups, Indexed, bits, kth_bit
from rules.mountain import (
    Geometry,
    add_piece,
    check_on_mountain,
    geo,
    networks,
    opponents_networks,
    own_network,
    tier_named,
)
from rules.payment import gain, owned_counts, resolve_payment, spend
from rules.resources import HAMMER, MINERALS, NAME, STATUE_CLANS, Clan, Resource
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
    """Per tile orientation, the mask of origins where it can legally go (only tiles
    left in the supply, of at most `max_size` cells if given), leaving out orientations
    that fit nowhere (`rules.fits`)."""
    found = fits(state, seat)
    if found is not None:
        yield from orientation_hits(found, state.tunnels_left, max_size)


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
    found, masks = _payable(state, seat, counts)
    for (tile, variant, offs), hits in zip(found, masks, strict=True):
        yield tile, variant, offs, hits


def _payable(
    state: State, seat: int, counts: Counter[Resource]
) -> tuple[list[Orientation], list[int]]:
    """The orientations of `payable_hits` and their masks."""
    found = fits(state, seat)
    if found is None:
        return [], []
    return found.payable(state.tunnels_left, *_purse(state, counts))


def _purse(state: State, counts: Counter[Resource]) -> tuple[int, int]:
    """What a purse pays for in tunnels: the most of one mineral (the biggest tile),
    and the hammers (rubble covered; no limit under Free Rubble's flag)."""
    biggest = max(counts[m] for m in MINERALS)
    return biggest, 99 if FLAG_FREE_RUBBLE in state.turn_flags() else counts[HAMMER]


def has_minerals_for_a_tunnel(
    state: State, seat: int, counts: Counter[Resource] | None = None
) -> bool:
    """True if the player owns enough of one mineral for the smallest tunnel left."""
    left = state.tunnels_left
    smallest = min((size for t, size in tile_sizes() if left.get(t, 0) > 0), default=0)
    if not smallest:
        return False
    if counts is None:
        counts = owned_counts(state, seat)
    return any(counts[m] >= smallest for m in MINERALS)


def affordable(state: State, seat: int, p: Placement, counts: Counter[Resource]) -> list[Resource]:
    """Minerals this player could pay this placement with (hammers included)."""
    size = p.size
    hammers = 0 if FLAG_FREE_RUBBLE in state.turn_flags() else p.rubble
    if counts[HAMMER] < hammers:
        return []
    return [m for m in MINERALS if counts[m] >= size]


def can_dig(state: State, seat: int, counts: Counter[Resource] | None = None) -> bool:
    """Whether some tunnel can be dug now with what the player owns (`counts`, if the
    caller has them)."""
    if counts is None:
        counts = owned_counts(state, seat)
    return bool(PayablePlacements(state, seat, counts))


# --- what a dig may bring: a pedestal on its anchor, workshops beside it ----------------


Why = Callable[[], IllegalActionError]
"""Makes the refusal a player sees, only when one is wanted (listing legal digs asks
many questions whose answer is no, and needs no message)."""


def pedestal_refusal(
    state: State, seat: int, anchor: str | None, clan: Clan
) -> IllegalActionError | None:
    """Why a dig may not put a `clan` pedestal on the tile's anchor, or None if it may:
    the tile needs an anchor, the player a pedestal of that clan in storage, and the
    anchor's tier must still have that clan's spot on the pedestal track."""
    why = _pedestal_refused(state, seat, anchor, clan)
    return None if why is None else why()


def _pedestal_refused(state: State, seat: int, anchor: str | None, clan: Clan) -> Why | None:
    if anchor is None:
        return lambda: IllegalActionError("This tile has no anchor for a pedestal.", "no_anchor")
    if state.account_of(seat).pedestals.get(NAME[clan], 0) < 1:
        return lambda: IllegalActionError(
            "You have no {clan} pedestal in storage.", "no_pedestal", clan=clan
        )
    tier = geo(state).tier(anchor)
    if state.pedestal_track.get(f"{tier}:{NAME[clan]}") is None:
        return lambda: IllegalActionError(
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
    return tuple(c for c in STATUE_CLANS if _pedestal_refused(state, seat, anchor, c) is None)


def workshop_refusal(
    state: State, around: int, site: str, workshop: str, supply: Counter[str]
) -> IllegalActionError | None:
    """Why a dig whose tunnel touches the cells of `around` (its mask spread by one)
    may not establish `workshop` on `site`, or None if it may: an empty workshop site
    next to the tunnel, and that workshop still in `supply`."""
    why = _workshop_refused(state, around, site, workshop, supply)
    return None if why is None else why()


def _workshop_refused(
    state: State, around: int, site: str, workshop: str, supply: Counter[str]
) -> Why | None:
    why = _site_refused(state, around, site)
    if why is None and supply[workshop] <= 0:
        return lambda: IllegalActionError(
            "There is no {workshop} workshop left in the supply.",
            "no_workshop_left",
            workshop=echo(workshop),
        )
    return why


def _site_refused(state: State, around: int, site: str) -> Why | None:
    """Why no workshop may be established on `site` by a dig touching `around`."""
    g = geo(state)
    if site not in g.bits or not (1 << g.bit(site)) & g.sites:
        return lambda: IllegalActionError("{site} is not a workshop site.", "no_site", site=site)
    if site in state.board.workshops:
        return lambda: IllegalActionError(
            "The site {site} already has a workshop.", "site_taken", site=site
        )
    if not around & (1 << g.bit(site)):
        return lambda: IllegalActionError(
            "The site {site} is not next to the new tunnel.",
            "site_not_adjacent",
            site=site,
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
        if _workshop_refused(state, around, site, w, supply) is None
    )


class WorkshopPlans:
    """Each way to fill some of `sites` from the supply, as a dig may establish them:
    for each site in turn, leaving it empty first, then each workshop the supply still
    holds in name order (`workshop_refusal` finds none). A sequence that counts the
    plans without making them, so a random one is picked by its index."""

    __slots__ = ("_counts", "_left", "_names", "_open", "sites")

    def __init__(self, state: State, around: int, sites: list[str], supply: Counter[str]) -> None:
        self.sites = sites
        self._names = sorted(supply)
        self._left = tuple(supply[name] for name in self._names)
        self._open = [_site_refused(state, around, site) is None for site in sites]
        self._counts: dict[tuple[int, tuple[int, ...]], int] = {}

    def _count(self, i: int, left: tuple[int, ...]) -> int:
        """The plans for `sites[i:]` with `left` of each workshop in the supply."""
        if i == len(self.sites):
            return 1
        if i == len(self.sites) - 1:  # the last site: empty, or one workshop still left
            return 1 + (len(left) - left.count(0) if self._open[i] else 0)
        n = self._counts.get((i, left))
        if n is None:
            n = self._count(i + 1, left)
            if self._open[i]:
                for w, have in enumerate(left):
                    if have > 0:
                        n += self._count(i + 1, (*left[:w], have - 1, *left[w + 1 :]))
            self._counts[i, left] = n
        return n

    def __len__(self) -> int:
        return self._count(0, self._left)

    def __getitem__(self, k: int) -> tuple[tuple[str, str], ...]:
        if not 0 <= k < len(self):
            raise IndexError(k)
        plan: list[tuple[str, str]] = []
        left = self._left
        for i, site in enumerate(self.sites):
            empty = self._count(i + 1, left)  # the plans leaving this site empty come first
            if k < empty:
                continue
            k -= empty
            for w, have in enumerate(left):
                if have <= 0:
                    continue
                taken = (*left[:w], have - 1, *left[w + 1 :])
                n = self._count(i + 1, taken)
                if k < n:
                    plan.append((site, self._names[w]))
                    left = taken
                    break
                k -= n
        return tuple(plan)

    def __iter__(self) -> Iterator[tuple[tuple[str, str], ...]]:
        return self._plans(0, self._left, ())

    def _plans(
        self, i: int, left: tuple[int, ...], plan: tuple[tuple[str, str], ...]
    ) -> Iterator[tuple[tuple[str, str], ...]]:
        """The plans for `sites[i:]` after `plan`, in the order of the indices."""
        if i == len(self.sites):
            yield plan
            return
        yield from self._plans(i + 1, left, plan)  # this site left empty first
        if self._open[i]:
            site = self.sites[i]
            for w, have in enumerate(left):
                if have > 0:
                    taken = (*left[:w], have - 1, *left[w + 1 :])
                    yield from self._plans(i + 1, taken, (*plan, (site, self._names[w])))


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
                "There is no tunnel tile {shape}.", "no_such_tile", shape=echo(action.shape)
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
    need = [action.mineral] * size + [HAMMER] * hammers
    account = state.account_of(seat)
    tokens = resolve_payment(
        state, seat, need, action.pay, what=Phrase("the {shape} tunnel", {"shape": action.shape})
    )

    # -- carry it out ------------------------------------------------------------------
    spend(state, seat, tokens)
    account.tunnel_honor += tunnel_score(state, size, action.mineral)
    if mask & g.buried_mask:
        for b, res in g.buried.items():
            if mask >> b & 1:
                gain(state, seat, [res])
    add_piece(
        state,
        "tunnel",
        action.shape,
        seat,
        list(action.cells),
        mineral=NAME[action.mineral],
        anchor=action.anchor,
        pedestal=None if action.pedestal is None else NAME[action.pedestal],
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
    plans: Indexed[tuple[tuple[str, str], ...]]

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
    plans: Indexed[tuple[tuple[str, str], ...]] = ((),)  # no site: establish nothing
    if sites:
        plans = WorkshopPlans(state, around, sites, Counter(state.workshop_supply))
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
    # the placements it can pay for (those with no affordable mineral have no dig)
    for p in PayablePlacements(state, seat, counts):
        yield from dig_options_at(state, seat, p, counts)


def all_digs(state: State, seat: int, counts: Counter[Resource] | None = None) -> Chained[Dig]:
    """Every legal dig with what the player owns (turn and step aside), in the order
    of `dig_actions`, as a sequence: the options of each payable placement are
    counted, not made, so `len` and `[k]` cost one `DigOptions` per placement."""
    if counts is None:
        counts = owned_counts(state, seat)
    places = PayablePlacements(state, seat, counts)
    return Chained([dig_options_at(state, seat, p, counts) for p in places])


class PayablePlacements:
    """The placements the player can pay for with `counts` (`payable_hits`: the order
    of `placements`), as a sequence that counts them and makes only the ones asked
    for."""

    __slots__ = ("_groups", "_masks", "_orientations", "g")

    def __init__(self, state: State, seat: int, counts: Counter[Resource]) -> None:
        self.g = geo(state)
        self._orientations: list[Orientation] = []
        self._masks: list[int] = []
        if _purse(state, counts)[0] >= smallest_tile():  # else no tile: no need to look
            self._orientations, self._masks = _payable(state, seat, counts)
        self._groups = Groups(ends=list(accumulate(map(int.bit_count, self._masks))))

    def __len__(self) -> int:
        return self._groups.total

    def __getitem__(self, k: int) -> Placement:
        i, j = self._groups.find(k)
        shape, variant, offs = self._orientations[i]
        return make_placement(self.g, shape, variant, offs, kth_bit(self._masks[i], j))

    def __iter__(self) -> Iterator[Placement]:
        for (shape, variant, offs), origins in zip(self._orientations, self._masks, strict=True):
            for origin in bits(origins):
                yield make_placement(self.g, shape, variant, offs, origin)


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
