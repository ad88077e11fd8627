"""Scoring every tunnel placement for the heuristic player, without cloning the state.

`DigTable` walks `rules.tunnels.placement_hits` once per decision and gives each
placement a board value that does not depend on how it is paid: statues unearthed
(their tier value now, more once they can be moved), buried statues brought nearer
(`Prospect`: weighed by whether a rival is nearer), deeper tiers reached, buried
resources, workshop sites established or reached, statues in the network that could
move into it, and for an anchor the pedestal of each clan (its point token, a statue
doubled at once or later). Paying is priced separately by the `Valuer` (minerals,
hammers for rubble), so the same table prices the dig with any holdings, e.g. after a
spell or a workshop use.
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass, field

from rules import tunnels
from rules.actions import Dig
from rules.ai.statues import OwnBoard, piece_value
from rules.ai.values import Counts, Horizon, Pedestals, Valuer, add, bump
from rules.content import load_content
from rules.mountain import geo, networks, own_network
from rules.resources import MINERALS, RESOURCES, STATUE_CLANS, Clan, Resource
from rules.shapes import Variant
from rules.state import State

# potential of reaching a tier (deeper tiers hold the best statue, pedestal and hall
# spots), counted once for the deepest tier of the network
DEPTH_VALUE = (0.0, 0.0, 1.2, 2.6, 4.0, 5.2)
CELL_TIER = (0.0, 0.0, 0.05, 0.1, 0.2, 0.3)
MOBILITY = 1.5  # an unearthed statue can still be carted deeper
# A buried statue as a prospect: its tier value, less with the cells still to dig to
# it, and by whether a rival network is nearer (every rival digs before our next turn,
# so a rival as near as we are usually gets there first). A placement is worth
# PULL times what it adds to the prospects: a statue is sought where the player can
# win the race to it, not where a rival is bound to get there first, and a race is
# settled before a statue nobody else can reach is taken.
PULL = 1.0
CELLS_PER_DIG = 3.5  # cells one tunnel brings a network nearer, on average
WIN_AHEAD = 1.0  # nearer than every rival
WIN_TIE = 0.35  # a rival as near
WIN_BEHIND = 0.1  # a rival nearer
IMPROVE = 0.4  # share of a statue's possible gain when it can move into the tunnel
ACCESS = 0.6  # reaching an established workshop
STATUE_FOR_PEDESTAL = 0.3  # chance to bring a statue of the clan onto a new pedestal
NO_STATUE_FOR_PEDESTAL = 0.1
WORKSHOP_VALUE: dict[str, float] = {
    "cartwright": 1.2,
    "charmcrafter": 0.7,
    "coinpress": 0.9,
    "metalworks": 1.2,
    "pickforge": 0.9,
    "quartermaster": 0.7,
    "runesmithy": 1.0,
    "stonegrinder": 1.3,
    "stonemill": 1.2,
    "toolforge": 0.9,
    "wheeljack": 1.1,
}


@dataclass
class Spot:
    """One legal placement with its board value."""

    shape: str
    variant: Variant
    offs: tuple[int, ...]
    origin: int
    mask: int
    size: int
    rubble: int
    buried: tuple[Resource, ...]
    base: float
    ped: dict[str, float] = field(default_factory=dict)  # clan -> value of its pedestal
    workshops: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class DigChoice:
    value: float
    spot: Spot
    mineral: Resource
    pedestal: str | None


@dataclass
class _Group:
    """Placements that cost the same and give the same buried resources: only the
    best of them matters for pricing holdings."""

    size: int
    rubble: int
    buried: tuple[Resource, ...]
    plain: float
    ped: dict[str, float] = field(default_factory=dict)  # clan -> best base + pedestal


class DigTable:
    """Every legal placement for a seat with its board value (`dig_table` keeps the
    tables of the last few positions: most decisions of a turn see the same board)."""

    def __init__(self, state: State, seat: int, hz: Horizon, ob: OwnBoard) -> None:
        self.spots: list[Spot] = []
        self._best: dict[Hashable, float | None] = {}
        self._build(state, seat, hz, ob)
        groups: dict[tuple[int, int, tuple[Resource, ...]], _Group] = {}
        self.groups = groups
        for spot in self.spots:
            key = (spot.size, spot.rubble, spot.buried)
            group = groups.get(key)
            base = spot.base
            if group is None:
                group = groups[key] = _Group(*key, base)
            elif base > group.plain:  # the greater (the first of equals, as `max` keeps)
                group.plain = base
            if spot.ped:
                best = group.ped
                for clan, extra in spot.ped.items():
                    value = extra + base
                    known = best.get(clan)
                    if known is None or value > known:
                        best[clan] = value

    def _build(self, state: State, seat: int, hz: Horizon, ob: OwnBoard) -> None:
        content = load_content()
        g = geo(state)
        nets = networks(state)
        own = own_network(state, seat)
        occupied = nets.occupied
        values = content.tables.statue_values
        tiers = g.tier_masks
        future = min(1.0, hz.future_turns / 3)
        blend = hz.blend

        statues = state.board.statues
        buried_statues: dict[int, str] = {}
        for cell, clan in statues.items():
            b = g.bit(cell)
            if not (occupied >> b) & 1:
                buried_statues[b] = clan
        sb_mask = 0
        for b in buried_statues:
            sb_mask |= 1 << b
        buried_res = {b: r for b, r in g.buried.items() if not (occupied >> b) & 1}
        br_mask = 0
        for b in buried_res:
            br_mask |= 1 << b
        own_spread = g.spread(own)
        max_own = 0
        for t in range(5, 0, -1):
            if own & tiers[t - 1]:
                max_own = t
                break
        empty_sites = 0
        established = 0
        for cell in g.cells(g.sites):
            if cell in state.board.workshops:
                established |= 1 << g.bit(cell)
            else:
                empty_sites |= 1 << g.bit(cell)
        new_access_sites = established & ~own_spread
        supply = Counter(state.workshop_supply)
        # own statues and what they score now (for statues moving into a new tunnel)
        own_statues: list[tuple[int, int]] = []  # (piece index, what it scores now)
        for cell, clan in statues.items():
            i = ob.cell_piece.get(cell)
            if i is None:
                continue
            piece = ob.pieces[i]
            if piece.kind == "hall":
                if piece.altar == cell:
                    continue  # it stays on its altar
                now = 0
            else:
                mine = ob.value[cell] * (
                    2 if piece.anchor == cell and piece.pedestal == clan else 1
                )
                now = mine if mine >= piece_value(ob, i, statues) else 0
            own_statues.append((i, now))
        own_clans = {statues[c] for c in statues if c in ob.cell_piece}
        track = state.pedestal_track
        # on the last turn (blend 0) nothing is dug towards later
        prospects = statue_prospects(state, seat, buried_statues, hz) if blend else []
        steps = prospect_steps(prospects)
        # a placement that unearths none of them and is near none adds nothing
        pull_bits = 0
        pull_cells = 0
        for bit, _, nearer in steps:
            pull_bits |= 1 << bit
            if nearer:
                pull_cells |= nearer[-1][0]

        # what the placements share, worked out once: the tiers deepest first, the
        # value of each buried statue, the workshops established on 1, 2... new sites
        # (the best left in the supply each time, whichever the site), the pedestal
        # spaces of each tier
        tier_steps = [(t, tiers[t - 1], CELL_TIER[t]) for t in range(5, 0, -1)]
        statue_value = {b: values[_tier(tiers, b) - 1] for b in buried_statues}
        picks: list[str] = []
        left = Counter(supply)
        while True:
            options = [w for w in left if left[w] > 0]
            if not options:
                break
            w = max(sorted(options), key=lambda x: WORKSHOP_VALUE.get(x, 0.8))
            left[w] -= 1
            picks.append(w)
        # per tier: each clan whose pedestal space there is free, with its token and
        # what a statue of that clan is worth on it, likely or unlikely to come
        ped_spaces: list[list[tuple[str, int, float, float]]] = []
        for t in range(6):
            spaces = []
            for clan in STATUE_CLANS:
                token = track.get(f"{t}:{clan.value}")
                if token is not None:
                    spaces.append(
                        (
                            clan.value,
                            token,
                            values[t - 1] * STATUE_FOR_PEDESTAL * blend,
                            values[t - 1] * NO_STATUE_FOR_PEDESTAL * blend,
                        )
                    )
            ped_spaces.append(spaces)
        spread_of = g.spread
        rubble = g.rubble
        spots = self.spots

        for shape, variant, offs, hits in tunnels.placement_hits(state, seat):
            mark = variant.mark
            size = len(offs)
            least = min(offs)
            shape_mask = 0  # the cells at origin -least
            for o in offs:
                shape_mask |= 1 << (o - least)
            while hits:
                low = hits & -hits
                hits ^= low
                origin = low.bit_length() - 1
                mask = shape_mask << (origin + least)
                spread = spread_of(mask)
                maxt = 0
                cell_value = 0.0
                for t, tier_mask, per_cell in tier_steps:
                    tm = mask & tier_mask
                    if tm:
                        if not maxt:
                            maxt = t
                        cell_value += per_cell * tm.bit_count()
                base = (DEPTH_VALUE[max(maxt, max_own)] - DEPTH_VALUE[max_own]) * future
                base += cell_value * future
                # statues unearthed: the tile scores its best one
                found_clans: list[str] = []
                best_plain = 0
                sm = mask & sb_mask
                while sm:
                    lb = sm & -sm
                    sm ^= lb
                    b = lb.bit_length() - 1
                    found_clans.append(buried_statues[b])
                    v = statue_value[b]
                    if v > best_plain or len(found_clans) == 1:
                        best_plain = v
                base += best_plain + MOBILITY * len(found_clans) * blend
                if prospects:
                    frontier = spread & ~mask
                    pulled = (
                        steps_gain(steps, mask, frontier)
                        if mask & pull_bits or frontier & pull_cells
                        else 0.0
                    )
                    base += PULL * blend * pulled
                gained: tuple[Resource, ...] = ()
                hit = mask & br_mask
                if hit:
                    if hit & (hit - 1):  # several: in the board's order of them
                        gained = tuple(buried_res[b] for b in buried_res if (mask >> b) & 1)
                    else:
                        gained = (buried_res[hit.bit_length() - 1],)
                # workshops: establish on empty sites next to it, reach established ones
                plan: tuple[tuple[str, str], ...] = ()
                sites = spread & empty_sites
                if sites and supply:
                    chosen = []
                    for cell, w in zip(g.cells(sites), picks, strict=False):
                        chosen.append((cell, w))
                        base += WORKSHOP_VALUE.get(w, 0.8) * blend
                    plan = tuple(chosen)
                if spread & new_access_sites:
                    base += ACCESS * (spread & new_access_sites).bit_count() * blend
                # statues of ours that could move into it
                if own_statues and maxt:
                    top = values[maxt - 1]
                    gain = 0
                    for i, now in own_statues:
                        if spread & ob.masks[i] and top > now:
                            gain = max(gain, top - now)
                    base += IMPROVE * gain * blend
                spot = Spot(
                    shape,
                    variant,
                    offs,
                    origin,
                    mask,
                    size,
                    (mask & rubble).bit_count(),
                    gained,
                    base,
                    workshops=plan,
                )
                if mark is not None:
                    ab = origin + offs[mark]
                    at = _tier(tiers, ab)
                    on_anchor = buried_statues.get(ab) if (sb_mask >> ab) & 1 else None
                    ped = spot.ped
                    for clan_value, token, likely, unlikely in ped_spaces[at]:
                        extra: float
                        if on_anchor == clan_value:
                            doubled = max(best_plain, 2 * values[at - 1])
                            extra = doubled - best_plain
                        elif clan_value in own_clans or clan_value in found_clans:
                            extra = likely
                        else:
                            extra = unlikely
                        ped[clan_value] = token + extra
                spots.append(spot)

    # -- pricing -------------------------------------------------------------------------

    def choices(
        self,
        state: State,
        valuer: Valuer,
        counts: Counts,
        pedestals: Pedestals,
    ) -> Iterator[DigChoice]:
        """Every affordable dig (each mineral, each pedestal choice) with its value:
        honor now + board value + holdings after."""
        free_rubble = tunnels.FLAG_FREE_RUBBLE in state.turn_flags()
        hammers = counts[RESOURCES.index(Resource.HAMMER)]
        scores = {(s, m): tunnels.tunnel_score(state, s, m) for s in range(2, 6) for m in MINERALS}
        held = [c.value for c, n in zip(STATUE_CLANS, pedestals, strict=True) if n > 0]
        for spot in self.spots:
            need_h = 0 if free_rubble else spot.rubble
            if hammers < need_h:
                continue
            for m in MINERALS:
                if counts[RESOURCES.index(m)] < spot.size:
                    continue
                after = add(counts, [m] * spot.size + [Resource.HAMMER] * need_h, -1)
                if spot.buried:
                    after = add(after, spot.buried)
                base = scores[spot.size, m] + spot.base
                yield DigChoice(base + valuer.value(after, pedestals), spot, m, None)
                for clan in held:
                    extra = spot.ped.get(clan)
                    if extra is None:
                        continue
                    peds = _take(pedestals, clan)
                    yield DigChoice(base + extra + valuer.value(after, peds), spot, m, clan)

    def best_value(
        self, state: State, valuer: Valuer, counts: Counts, pedestals: Pedestals
    ) -> float | None:
        """The value of the best affordable dig (None if there is none); kept per
        valuer, holdings and turn flags (what it reads besides the table)."""
        key = (valuer, counts, pedestals, tuple(state.turn_flags()))
        if key in self._best:
            return self._best[key]
        best = self._best[key] = self._best_value(state, valuer, counts, pedestals)
        return best

    def _best_value(
        self, state: State, valuer: Valuer, counts: Counts, pedestals: Pedestals
    ) -> float | None:
        free_rubble = tunnels.FLAG_FREE_RUBBLE in state.turn_flags()
        hammers = counts[_HAMMER]
        held = [c.value for c, n in zip(STATUE_CLANS, pedestals, strict=True) if n > 0]
        taken = {clan: _take(pedestals, clan) for clan in held}
        scores = {(s, m): tunnels.tunnel_score(state, s, m) for s in range(2, 6) for m in MINERALS}
        value_of = valuer.value
        best: float | None = None
        for group in self.groups.values():
            need_h = 0 if free_rubble else group.rubble
            if hammers < need_h:
                continue
            size = group.size
            for i, m in enumerate(MINERALS):
                if counts[i] < size:
                    continue
                after = list(counts)
                after[i] -= size
                after[_HAMMER] -= need_h
                for res in group.buried:
                    after[_INDEX[res]] += 1
                left = tuple(after)
                score = scores[size, m]
                value = score + group.plain + value_of(left, pedestals)
                if best is None or value > best:
                    best = value
                for clan in held:
                    extra = group.ped.get(clan)
                    if extra is not None:
                        value = score + extra + value_of(left, taken[clan])
                        if value > best:
                            best = value
        return best


# the tables of the last positions asked about, by everything a table reads
TABLE_CACHE_SIZE = 32
_tables: OrderedDict[Hashable, tuple[DigTable, object, object]] = OrderedDict()
_tables_lock = threading.Lock()


def table_key(state: State, seat: int, hz: Horizon) -> Hashable:
    """Everything `DigTable` reads of a position, in the order it reads it (a dict's
    order decides the order of the prospects, and so how their gains add up): the
    geometry and content (by identity, kept alive with the cached table, so that no
    other object can take their id), the seat and horizon, the teams, the pieces,
    statues and workshops on the board, the workshop supply, the pedestal track and
    the tiles left."""
    board = state.board
    return (
        id(geo(state)),
        id(load_content()),
        seat,
        hz,
        tuple(p.team for p in state.players),
        tuple(
            (p.id, p.kind, p.name, p.seat, tuple(p.cells), p.mineral, p.anchor, p.pedestal, p.altar)
            for p in board.pieces
        ),
        tuple(board.statues.items()),
        tuple(board.workshops.items()),
        tuple(state.workshop_supply),
        tuple(state.pedestal_track.items()),
        tuple(state.tunnels_left.items()),
    )


def dig_table(state: State, seat: int, hz: Horizon, ob: OwnBoard) -> DigTable:
    """`DigTable(state, seat, hz, ob)` for `ob = own_board(state, seat)`, shared with
    the last positions that had the same board, supply, seat and horizon (the table is
    never changed once built)."""
    key = table_key(state, seat, hz)
    with _tables_lock:  # the bot asks the AI from several threads
        kept = _tables.get(key)
        if kept is not None:
            _tables.move_to_end(key)
            return kept[0]
    table = DigTable(state, seat, hz, ob)
    with _tables_lock:
        _tables[key] = (table, geo(state), load_content())
        if len(_tables) > TABLE_CACHE_SIZE:
            _tables.popitem(last=False)
    return table


@dataclass(frozen=True)
class Prospect:
    """A buried statue seen from one seat."""

    bit: int
    value: int  # what it scores on its tier
    within: tuple[int, ...]  # [d]: the free cells at most d cells from it
    reach: int  # free cells between the seat's network and it (0: the next tile can)
    rival: int  # the same for the nearest rival network
    horizon: float  # cells the seat can still dig towards it
    worth: float  # `prospect_worth` at `reach`


def prospect_worth(value: int, reach: int, rival: int, horizon: float) -> float:
    if reach > horizon:
        return 0.0
    win = WIN_AHEAD if reach < rival else (WIN_TIE if reach == rival else WIN_BEHIND)
    return value * win / (1 + reach / CELLS_PER_DIG)


FAR = 1 << 20  # a statue no network can reach


def statue_prospects(state: State, seat: int, buried: Iterable[int], hz: Horizon) -> list[Prospect]:
    """Every buried statue (by its cell's bit) as a prospect for `seat` (rivals: every
    network but the seat's own and a team partner's)."""
    g = geo(state)
    nets = networks(state)
    free = g.area & ~nets.occupied
    me = state.players[seat]
    rivals = [
        g.spread(mask) & free
        for other, mask in nets.own.items()
        if other != seat and (me.team is None or state.players[other].team != me.team)
    ]
    mine = g.spread(own_network(state, seat)) & free
    horizon = max(1, hz.future_digs) * CELLS_PER_DIG
    limit = int(horizon) + 1
    values = load_content().tables.statue_values
    out = []
    for bit in buried:
        within = _within(g.stride, free, bit, limit)
        reach = _reach(within, mine)
        rival = min((_reach(within, m) for m in rivals), default=FAR)
        value = values[_tier(g.tier_masks, bit) - 1]
        out.append(
            Prospect(
                bit,
                value,
                within,
                reach,
                rival,
                horizon,
                prospect_worth(value, reach, rival, horizon),
            )
        )
    return out


def _within(stride: int, free: int, start: int, limit: int) -> tuple[int, ...]:
    """[d]: the free cells at most d cells from `start` (through free cells), for d up
    to `limit` or until no free cell is left to reach."""
    seen = 1 << start
    frontier = [start]
    within = [seen]
    while frontier and len(within) <= limit:
        nxt = []
        for b in frontier:
            for n in (b - stride, b + 1, b + stride, b - 1):
                if n >= 0 and not (seen >> n) & 1 and (free >> n) & 1:
                    seen |= 1 << n
                    nxt.append(n)
        if nxt:
            within.append(seen)
        frontier = nxt
    return tuple(within)


def _reach(within: tuple[int, ...], cells: int) -> int:
    for d, mask in enumerate(within):
        if cells & mask:
            return d
    return FAR


def prospect_gain(prospects: list[Prospect], mask: int, frontier: int) -> float:
    """What a tile on `mask` (whose free neighbours are `frontier`) adds to the
    prospects: statues brought nearer gain; a statue it unearths leaves them, its
    honour counted as found, so one we were sure to win anyway is worth less now
    than one a rival could take first."""
    return steps_gain(prospect_steps(prospects), mask, frontier)


# per prospect: its cell's bit, its worth, and for each distance d nearer than its
# reach, the free cells at most d cells from it and what a network that near adds
Steps = list[tuple[int, float, tuple[tuple[int, float], ...]]]


def prospect_steps(prospects: list[Prospect]) -> Steps:
    """The prospects as `steps_gain` reads them, worked out once per decision (the
    gains per distance are the same for every placement)."""
    return [
        (
            p.bit,
            p.worth,
            tuple(
                (p.within[d], prospect_worth(p.value, d, p.rival, p.horizon) - p.worth)
                for d in range(min(p.reach, len(p.within)))
            ),
        )
        for p in prospects
    ]


def steps_gain(steps: Steps, mask: int, frontier: int) -> float:
    """`prospect_gain` from the prospects' `prospect_steps`."""
    gain = 0.0
    for bit, worth, nearer in steps:
        if (mask >> bit) & 1:
            gain -= worth
            continue
        if not nearer or not frontier & nearer[-1][0]:  # the widest: none is nearer
            continue
        for cells, more in nearer:
            if frontier & cells:
                gain += more
                break
    return gain


_INDEX = {res: i for i, res in enumerate(RESOURCES)}
_HAMMER = _INDEX[Resource.HAMMER]


def _take(pedestals: Pedestals, clan: str) -> Pedestals:
    i = [c.value for c in STATUE_CLANS].index(clan)
    return bump(pedestals, i, -1)


def _tier(tiers: tuple[int, ...], b: int) -> int:
    for i, m in enumerate(tiers):
        if (m >> b) & 1:
            return i + 1
    return 0


def dig_action(state: State, choice: DigChoice) -> Dig:
    g = geo(state)
    spot = choice.spot
    p = tunnels.make_placement(g, spot.shape, spot.variant, spot.offs, spot.origin)
    ped = None if choice.pedestal is None else Clan(choice.pedestal)
    return Dig(p.shape, p.cells, p.anchor, choice.mineral, ped, spot.workshops)
