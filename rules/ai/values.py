"""What things are worth to the heuristic player, in honor.

Everything the player owns is priced by what it is likely to turn into before the game
ends, which depends on how many turns the player still has (`Horizon`):

- minerals by the best tunnels they can still pay for (a small knapsack over tile
  sizes, at most one dig per remaining turn, the rest at a partial rate), blended far
  from the end with a smooth price (each mineral's share of a size-5 tunnel), since
  more minerals will come before the next dig;
- coins, carts, hammers and runes at a flat rate for the first few (bribes, statue
  moves, rubble, spells) and less beyond;
- pedestals in storage by the token and doubling they may still bring.

With no turn left after this one, everything is worth exactly its leftover sets
(`rules.scoring.best_leftover_sets`), so the last turns turn leftovers into sets and
spend carts only where a statue move is worth more than the set it breaks.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

from rules.actions import PYRAMID_SLOTS
from rules.content import load_content
from rules.pyramid import cascade_slots
from rules.resources import MINERALS, RESOURCES, STATUE_CLANS, Clan, Resource
from rules.scoring import best_leftover_sets
from rules.state import State

SET_VALUE = 1 / 3
# turns a player needs on average per recruit (for guessing when the game ends)
TURNS_PER_RECRUIT = 1.7
# share of our own remaining turns we expect to spend digging
DIG_SHARE = 0.6

# holding a non-mineral: value of each of the first HOLD_CAP units, mid-game
HOLD: dict[Resource, float] = {
    Resource.COIN: 0.75,
    Resource.CART: 0.8,
    Resource.HAMMER: 0.7,
    Resource.RUNE: 0.9,
}
HOLD_CAP: dict[Resource, int] = {
    Resource.COIN: 6,
    Resource.CART: 3,
    Resource.HAMMER: 3,
    Resource.RUNE: 2,
}
EXTRA_VALUE = 0.3  # beyond the cap
# a mineral that does not complete a tunnel (yet)
PARTIAL: dict[Resource, float] = {
    Resource.STONE: 0.45,
    Resource.IRON: 0.65,
    Resource.HEARTSTONE: 0.9,
}
DIG_DISCOUNT = 0.85  # a tunnel we could dig later is not quite a tunnel dug
# Far from the end, more minerals will come before the next dig, so a mineral is also
# priced smoothly (its share of a size-5 tunnel); the tunnels the holdings pay for
# exactly ("lumpy") weigh more as the end nears.
LUMPY_WEIGHT = {0: 1.0, 1: 1.0, 2: 0.6}
LUMPY_WEIGHT_LATER = 0.4
PEDESTAL_HOLD = 1.8  # a pedestal in storage (first of its clan; later ones 1.0)

# value of one activation of a produce symbol (for a troll's future production)
FLOW: dict[Resource, float] = {
    Resource.STONE: 0.45,
    Resource.IRON: 0.65,
    Resource.HEARTSTONE: 0.9,
    Resource.COIN: 0.55,
    Resource.CART: 0.7,
    Resource.HAMMER: 0.5,
    Resource.RUNE: 0.6,
}
CLAN_CART_FLOW = 0.45

Counts = tuple[int, ...]  # owned resources in RESOURCES order (minerals first)
assert RESOURCES[:3] == MINERALS
Pedestals = tuple[int, ...]  # pedestals in storage in STATUE_CLANS order


@dataclass(frozen=True)
class Horizon:
    """How much game is left for a seat, counted after the current turn."""

    future_turns: int  # own turns after this one
    final: bool  # the end is triggered (the count is exact)
    recruits_left: int  # empty pyramid slots

    @property
    def blend(self) -> float:
        """1 while there is time to use things, falling to 0 at the last turn."""
        return min(1.0, max(0.0, (self.future_turns - 1) / 2))

    @property
    def future_digs(self) -> int:
        if self.final:
            return self.future_turns
        return max(1, round(self.future_turns * DIG_SHARE))

    @property
    def future_recruits(self) -> int:
        if self.final:
            return min(self.recruits_left, self.future_turns)
        return min(self.recruits_left, round(self.future_turns * (1 - DIG_SHARE) + 0.3))


def horizon(state: State, seat: int) -> Horizon:
    """Own turns left after this one: exact once the end is triggered; before that
    guessed from the recruits the player who would take the last coronation token
    still needs (calibrated on self-play against both the AI and the random player)."""
    content = load_content()
    size = content.pieces.pyramid_size
    n = len(state.players)
    current = state.turn.seat if state.turn is not None else seat
    recruits_left = size - len(state.players[seat].pyramid)
    if state.final_turns is not None:
        future = sum(1 for i in range(1, state.final_turns) if (current + i) % n == seat)
        return Horizon(future, True, recruits_left)
    tokens = len(state.coronation_left)
    needs = sorted(size - len(p.pyramid) for p in state.players if len(p.pyramid) < size)
    if not needs or tokens <= 0:  # pragma: no cover - the end is always triggered first
        return Horizon(2, True, recruits_left)
    trigger = needs[min(tokens, len(needs)) - 1]
    rounds = trigger * TURNS_PER_RECRUIT
    future = max(2, round(rounds) + 1)
    return Horizon(future, False, recruits_left)


def counts_key(counts: dict[Resource, int]) -> Counts:
    return tuple(counts.get(r, 0) for r in RESOURCES)


def pedestals_key(state: State, seat: int) -> Pedestals:
    held = state.account_of(seat).pedestals
    return tuple(held.get(c.value, 0) for c in STATUE_CLANS)


@cache
def _tunnel_table() -> dict[int, dict[Resource, int]]:
    content = load_content()
    sizes = sorted({t.size for t in content.tunnels})
    return {s: {m: content.tunnel_score(s, m) for m in MINERALS} for s in sizes}


@cache
def _mineral_best(mineral: Resource, n: int, digs: int, partial: float, alpha: float) -> float:
    """Best value of `n` units of one mineral with at most `digs` tunnels."""
    best = n * partial
    if digs <= 0:
        return best
    for size, scores in _tunnel_table().items():
        score = scores[mineral]
        if size <= n and score > 0:
            best = max(
                best, alpha * score + _mineral_best(mineral, n - size, digs - 1, partial, alpha)
            )
    return best


def valuer(state: State, hz: Horizon, cart_cap: int = 3) -> Valuer:
    """The `Valuer` for a horizon (shared between decisions: its prices depend only on
    the horizon, the cart cap and which pedestal spaces are still free)."""
    free = dict.fromkeys(STATUE_CLANS, 0)
    for key, value in state.pedestal_track.items():
        if value is not None:
            free[Clan(key.split(":")[1])] += 1
    return _valuer(hz, cart_cap, tuple(free[c] for c in STATUE_CLANS))


@lru_cache(maxsize=64)
def _valuer(hz: Horizon, cart_cap: int, free_tiers: tuple[int, ...]) -> Valuer:
    return Valuer(hz, cart_cap, free_tiers)


class Valuer:
    """Prices holdings at one horizon (memoised: many candidate actions lead to the
    same holdings)."""

    MEMO_LIMIT = 200_000

    def __init__(self, hz: Horizon, cart_cap: int, free_tiers: tuple[int, ...]) -> None:
        self.hz = hz
        self.cart_cap = cart_cap
        self.memo: dict[tuple[Counts, Pedestals], float] = {}
        self.free_tiers = free_tiers
        recruits_possible = hz.future_recruits > 0
        b = hz.blend
        self.unit: dict[Resource, float] = {}
        for res, v in HOLD.items():
            if res == Resource.COIN and not recruits_possible:
                v = 0.45
            self.unit[res] = SET_VALUE + (v - SET_VALUE) * b
        self.extra = SET_VALUE + (EXTRA_VALUE - SET_VALUE) * b
        self.partial = {m: SET_VALUE + (p - SET_VALUE) * b for m, p in PARTIAL.items()}
        self.alpha = 0.95 if hz.future_turns <= 2 else DIG_DISCOUNT
        table = _tunnel_table()
        top = max(table)
        self.per_cell = {m: self.alpha * table[top][m] / top for m in MINERALS}
        self._minerals: dict[tuple[int, int, int], float] = {}
        self._resources_memo: dict[Counts, float] = {}
        self._pedestals_memo: dict[Pedestals, float] = {}
        self._others = tuple(
            (i, cart_cap if res == Resource.CART else HOLD_CAP[res], self.unit[res])
            for i, res in enumerate(RESOURCES)
            if i >= 3
        )
        ft = hz.future_turns
        self.pedestal_factor = 0.0 if ft <= 0 else (0.3 if ft == 1 else (0.6 if ft == 2 else 1.0))

    # -- resources ---------------------------------------------------------------------

    def value(self, counts: Counts, pedestals: Pedestals) -> float:
        key = (counts, pedestals)
        cached = self.memo.get(key)
        if cached is not None:
            return cached
        # the two parts are kept apart too: many holdings share their resources or
        # their pedestals
        r = self._resources_memo.get(counts)
        if r is None:
            r = self._resources_memo[counts] = self._resources(counts)
        p = self._pedestals_memo.get(pedestals)
        if p is None:
            p = self._pedestals_memo[pedestals] = self._pedestals(pedestals)
        v = r + p
        if len(self.memo) >= self.MEMO_LIMIT:
            self.memo.clear()
            self._resources_memo.clear()
        self.memo[key] = v
        return v

    def _resources(self, counts: Counts) -> float:
        if self.hz.future_turns <= 0:
            return float(best_leftover_sets(dict(zip(RESOURCES, counts, strict=True))))
        key = (counts[0], counts[1], counts[2])
        total = self._minerals.get(key)
        if total is None:
            total = self._minerals[key] = self._mineral_value(counts)
        for i, cap, unit in self._others:
            n = counts[i]
            k = n if n < cap else cap
            total += k * unit + (n - k) * self.extra
        return total

    def _mineral_value(self, counts: Counts) -> float:
        total = 0.0
        digs = self.hz.future_digs
        lumpy = LUMPY_WEIGHT.get(self.hz.future_turns, LUMPY_WEIGHT_LATER)
        if lumpy < 1:
            total += (1 - lumpy) * self._smooth(counts, digs)
        n_s, n_i, n_h = counts[0], counts[1], counts[2]
        p_s, p_i, p_h = (self.partial[m] for m in MINERALS)
        alpha = self.alpha
        best = 0.0
        for k_h in range(min(digs, n_h // 3) + 1):
            v_h = _mineral_best(Resource.HEARTSTONE, n_h, k_h, p_h, alpha)
            for k_i in range(min(digs - k_h, n_i // 3) + 1):
                v_i = _mineral_best(Resource.IRON, n_i, k_i, p_i, alpha)
                v_s = _mineral_best(Resource.STONE, n_s, digs - k_h - k_i, p_s, alpha)
                best = max(best, v_h + v_i + v_s)
        return total + lumpy * best

    def _smooth(self, counts: Counts, digs: int) -> float:
        """Minerals at their share of a size-5 tunnel, up to what `digs` tunnels use;
        the rest at the partial rate."""
        room = 5 * digs
        total = 0.0
        for m in (Resource.HEARTSTONE, Resource.IRON, Resource.STONE):
            n = counts[RESOURCES.index(m)]
            used = min(n, room)
            room -= used
            total += used * self.per_cell[m] + (n - used) * self.partial[m]
        return total

    def _pedestals(self, pedestals: Pedestals) -> float:
        if self.pedestal_factor <= 0:
            return 0.0
        total = 0.0
        for n, free in zip(pedestals, self.free_tiers, strict=True):
            usable = min(n, free)
            if usable:
                total += PEDESTAL_HOLD + (usable - 1) * 1.0
        return total * self.pedestal_factor

    def unit_value(self, res: Resource, counts: Counts, pedestals: Pedestals) -> float:
        """Marginal value of one more unit of `res`."""
        i = RESOURCES.index(res)
        return self.value(bump(counts, i, 1), pedestals) - self.value(counts, pedestals)

    def loss_of(self, res: Resource, counts: Counts, pedestals: Pedestals) -> float:
        """What losing one unit of `res` costs (inf if there is none)."""
        i = RESOURCES.index(res)
        if counts[i] <= 0:
            return float("inf")
        return self.value(counts, pedestals) - self.value(bump(counts, i, -1), pedestals)


def bump(values: tuple[int, ...], i: int, delta: int) -> tuple[int, ...]:
    """`values` with entry `i` changed by `delta`."""
    return (*values[:i], values[i] + delta, *values[i + 1 :])


_INDEX = {res: i for i, res in enumerate(RESOURCES)}


def add(counts: Counts, gains: list[Resource] | tuple[Resource, ...], sign: int = 1) -> Counts:
    out = list(counts)
    for res in gains:
        out[_INDEX[res]] += sign
    return tuple(out)


def troll_flow(card_id: str) -> float:
    """Value of one activation of a troll card (every symbol filled once)."""
    card = load_content().trolls[card_id]
    return sum(CLAN_CART_FLOW if clan is not None else FLOW[res] for res, clan in card.produce)


def future_activations(filled: set[str], slot: str, recruits: int) -> int:
    """How often the troll on `slot` should still be activated, if `recruits` more
    trolls are recruited into the lowest open slots."""
    count = 0
    placed = set(filled)
    for s in PYRAMID_SLOTS[4:]:
        if recruits <= 0:
            break
        if s in placed:
            continue
        placed.add(s)
        recruits -= 1
        if slot in cascade_slots(s):
            count += 1
    return count
