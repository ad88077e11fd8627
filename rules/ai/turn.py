"""The heuristic player's turn, one action per call.

Each call looks at where the turn stands and decides afresh (the state is the only
memory, so a plan started in one call is found again and continued in the next):

1. before the main action, each spell, workshop use (repeated up to its uses) and
   4-for-1 trade is tried on a copy of the state; it is taken when the position after
   it, priced with the best main action, is worth more than without it;
2. the main action: every dig (from the `DigTable`) and every recruit is priced as
   honor now + board value + holdings after; the best few digs are then played on a
   copy to add the great hall and statue moves they open up;
3. after it, the best great hall that gains honor (statue loss and altar included);
4. then statue moves along the best plans the carts allow, trading 4-for-1 for a
   missing cart when the move is worth more than the resources;
5. end the turn.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field

from rules import engine, halls, steps, tunnels, workshops
from rules.actions import (
    Action,
    Cast,
    DedicateHall,
    EndTurn,
    MoveStatue,
    Pay,
    Trade,
    UseWorkshop,
)
from rules.ai.digging import DigChoice, DigTable, dig_action, dig_table
from rules.ai.recruiting import RecruitChoice, best_recruit_value, recruit_choices
from rules.ai.statues import (
    Carts,
    OwnBoard,
    best_plan,
    board_value,
    candidate_halls,
    carts_of,
    free_path,
    own_board,
    planned_gain,
    potential,
)
from rules.ai.values import (
    FLOW,
    Counts,
    Horizon,
    Pedestals,
    Valuer,
    add,
    bump,
    counts_key,
    horizon,
    pedestals_key,
)
from rules.ai.values import valuer as make_valuer
from rules.content import (
    DigEffect,
    MoveStatueEffect,
    UnburdenEffect,
    load_content,
)
from rules.errors import RulesError
from rules.legal import cast_actions_for, recruit_actions, use_actions
from rules.payment import available_tokens, owned_counts
from rules.pyramid import cascade_slots, open_slots
from rules.resources import RESOURCES, Resource
from rules.state import State

STEP1_MARGIN = 0.3  # a spell, workshop use or trade must gain at least this much
TRADE_MARGIN = 0.8  # a trade more (it gives away flexibility for good)
HALL_MARGIN = 0.5
MOVE_MARGIN = 0.05
REFINE_DIGS = 6  # digs played on a copy to see the halls and moves they open
HALL_CANDIDATES = 8
NOISE = 0.05  # random tie-breaking between main actions of nearly equal value


class Ctx:
    """What one decision needs about the position, computed once."""

    def __init__(
        self,
        state: State,
        seat: int,
        table: DigTable | None = None,
        ob: OwnBoard | None = None,
        valuer: Valuer | None = None,
    ) -> None:
        self.state = state
        self.seat = seat
        self.hz: Horizon = horizon(state, seat)
        self.ob: OwnBoard = own_board(state, seat) if ob is None else ob
        self.counts: Counts = counts_key(owned_counts(state, seat))
        self.peds: Pedestals = pedestals_key(state, seat)
        if valuer is None:
            mine = sum(1 for c in state.board.statues if c in self.ob.cell_piece)
            valuer = make_valuer(state, self.hz, min(6, 2 + 2 * mine))
        self.valuer = valuer
        self._table = table
        # actions found legal on a copy of this state (engine.apply took them)
        self.tried: list[Action] = []

    @property
    def table(self) -> DigTable:
        if self._table is None:
            self._table = dig_table(self.state, self.seat, self.hz, self.ob)
        return self._table

    def holdings(self) -> float:
        return self.valuer.value(self.counts, self.peds)

    def cart_cost(self) -> float:
        i = RESOURCES.index(Resource.CART)
        if self.counts[i] > 0:
            return self.valuer.loss_of(Resource.CART, self.counts, self.peds)
        return self.valuer.unit_value(Resource.CART, self.counts, self.peds)

    def carts(self, extra_wild: int = 0) -> Carts:
        return carts_of(self.state, self.seat, self.cart_cost(), extra_wild)

    def honor(self) -> float:
        account = self.state.account_of(self.seat)
        return (
            account.tunnel_honor
            + account.spell_honor
            + sum(t.value for t in account.tokens)
            + sum(account.coronation)
        )


# --- the main action -------------------------------------------------------------------


def main_choices(ctx: Ctx) -> tuple[list[DigChoice], list[RecruitChoice]]:
    state, seat = ctx.state, ctx.seat
    digs: list[DigChoice] = []
    if tunnels.has_minerals_for_a_tunnel(state, seat):
        digs = list(ctx.table.choices(state, ctx.valuer, ctx.counts, ctx.peds))
    recruits = list(recruit_choices(state, seat, ctx.valuer, ctx.hz, ctx.counts, ctx.peds))
    return digs, recruits


def best_main_value(ctx: Ctx) -> float:
    """Holdings and honor the best main action leads to (cheap pricing); the holdings
    as they are if there is no main action to take."""
    state, seat = ctx.state, ctx.seat
    if not steps.allows(state, seat, "recruit"):  # the main action is behind
        return ctx.holdings()
    values = []
    recruit = best_recruit_value(state, seat, ctx.valuer, ctx.hz, ctx.counts, ctx.peds)
    if recruit is not None:
        values.append(recruit)
    if tunnels.has_minerals_for_a_tunnel(state, seat):
        dig = ctx.table.best_value(state, ctx.valuer, ctx.counts, ctx.peds)
        if dig is not None:
            values.append(dig)
    return max(values) if values else ctx.holdings()


def position_value(ctx: Ctx) -> float:
    """The position for this turn's decisions: honor, statues and halls, what empty
    altars and pedestals may bring, the best main action and the statue moves the
    carts allow now."""
    statues = ctx.state.board.statues
    moves, _ = planned_gain(ctx.ob, statues, ctx.carts())
    return (
        ctx.honor()
        + board_value(ctx.ob, statues)
        + potential(ctx.ob, statues, ctx.hz)
        + best_main_value(ctx)
        + moves
    )


def choose_main(ctx: Ctx, rng: random.Random) -> Action | None:
    digs, recruits = main_choices(ctx)
    if not digs and not recruits:
        return None
    state = ctx.state
    statues = state.board.statues
    base_moves, _ = planned_gain(ctx.ob, statues, ctx.carts())
    options: list[tuple[float, Action]] = []
    # refine the best digs (distinct placements) by playing them on a copy
    digs.sort(key=lambda d: -d.value)
    seen: set[int] = set()
    for choice in digs:
        if len(seen) >= REFINE_DIGS:
            break
        key = id(choice.spot)
        if key in seen:
            continue
        seen.add(key)
        action = dig_action(state, choice)
        trial = state.clone()
        try:
            engine.apply(trial, ctx.seat, action)
        except RulesError:  # pragma: no cover - the table only lists legal digs
            continue
        ctx.tried.append(action)
        after = Ctx(trial, ctx.seat)
        moves, _ = planned_gain(after.ob, trial.board.statues, after.carts())
        hall = max(0.0, best_hall(after)[0])
        options.append((choice.value + moves - base_moves + hall, action))
    for rc in recruits:
        bonus = 0.0
        if rc.carts:
            moves, _ = planned_gain(ctx.ob, statues, ctx.carts(extra_wild=rc.carts))
            bonus = moves - base_moves
        options.append((rc.value + bonus, rc.action))
    noisy = [(v + rng.random() * NOISE, i, a) for i, (v, a) in enumerate(options)]
    return max(noisy, key=lambda t: (t[0], -t[1]))[2]


# --- step 1: spells, workshops and trades ------------------------------------------------


def step1_candidates(ctx: Ctx) -> Iterator[list[Action]]:
    state, seat = ctx.state, ctx.seat
    if steps.allows(state, seat, "cast") and ctx.counts[RESOURCES.index(Resource.RUNE)] >= 1:
        for slot in state.spellbook:
            for cast in _spell_options(ctx, slot.spell):
                yield [cast]
    if steps.allows(state, seat, "use"):
        yield from _workshop_sequences(ctx)
    if steps.allows(state, seat, "trade"):
        yield from _trades(ctx)


def _spell_options(ctx: Ctx, spell_id: str) -> Iterator[Action]:
    state, seat = ctx.state, ctx.seat
    effect = load_content().spell(spell_id).effect
    if isinstance(effect, DigEffect):
        if not tunnels.has_minerals_for_a_tunnel(state, seat):
            return
        digs = sorted(
            ctx.table.choices(state, ctx.valuer, ctx.counts, ctx.peds), key=lambda d: -d.value
        )
        done: set[int] = set()
        for choice in digs:
            if len(done) >= 2:
                break
            if id(choice.spot) in done:
                continue
            done.add(id(choice.spot))
            yield Cast(spell_id, tuple(dig_action(state, choice).words()))
        return
    if isinstance(effect, MoveStatueEffect):
        gain, plan = free_path(ctx.ob, state.board.statues, effect.moves)
        if plan is not None and gain > 0:
            steps = []
            at = plan.origin
            for cell in plan.path:
                steps.append(f"{at}>{cell}")
                at = cell
            yield Cast(spell_id, tuple(steps))
        return
    if isinstance(effect, UnburdenEffect):
        yield from _unburden_options(ctx, spell_id, effect.max)
        return
    for cast in cast_actions_for(state, seat, spell_id):
        assert isinstance(cast, Cast)
        if cast.args != ("none",):
            yield cast


def _unburden_options(ctx: Ctx, spell_id: str, most: int) -> Iterator[Action]:
    """Free the most valuable symbols under each open slot, for a recruit now."""
    state, seat = ctx.state, ctx.seat
    player = state.players[seat]
    runes = ctx.counts[RESOURCES.index(Resource.RUNE)]
    held = [t for t in available_tokens(state, seat, held=True) if t.source != "store"]
    for ps in open_slots(player):
        under = set(cascade_slots(ps)[1:])
        tokens = [t for t in held if t.source in under]
        tokens.sort(key=lambda t: (-FLOW[t.resource], str(t)))
        picked: list[Pay] = []
        spare_runes = runes - 1
        for tok in tokens:
            if len(picked) >= most:
                break
            if tok.resource == Resource.RUNE:
                if spare_runes <= 0:
                    continue
                spare_runes -= 1
            picked.append(tok)
        if picked:
            yield Cast(spell_id, tuple(str(t) for t in picked))


def _workshop_sequences(ctx: Ctx) -> Iterator[list[Action]]:
    state, seat = ctx.state, ctx.seat
    turn = state.turn
    assert turn is not None
    seen: set[str] = set()
    cheapest = _cheapest_pair(ctx)
    for action in use_actions(state, seat):
        assert isinstance(action, UseWorkshop)
        if action.move is None and len(action.give) == 2 and len(set(action.get)) == 1:
            workshop = state.board.workshops[action.site]
            conv_any = any(c.give_any for c in load_content().workshop(workshop).conversions)
            if conv_any and action.give != cheapest:
                continue
        text = str(action)
        if text in seen:
            continue
        seen.add(text)
        uses = workshops.workshop_uses(state, seat, action.site) - (
            turn.workshop_uses if turn.workshop == action.site else 0
        )
        for k in range(1, max(1, uses) + 1):
            if action.move is not None and k > 1:
                break
            yield [action] * k


def _cheapest_pair(ctx: Ctx) -> tuple[Resource, ...]:
    counts = ctx.counts
    give: list[Resource] = []
    for _ in range(2):
        res = min(
            (r for r in RESOURCES if counts[RESOURCES.index(r)] > 0),
            key=lambda r: ctx.valuer.loss_of(r, counts, ctx.peds),
            default=None,
        )
        if res is None:
            break
        give.append(res)
        i = RESOURCES.index(res)
        counts = bump(counts, i, -1)
    return tuple(sorted(give, key=RESOURCES.index))


def junk(ctx: Ctx, n: int, keep: Resource) -> tuple[Resource, ...] | None:
    """The `n` resources whose loss hurts least (never `keep`)."""
    counts = ctx.counts
    give: list[Resource] = []
    for _ in range(n):
        options = [r for r in RESOURCES if r != keep and counts[RESOURCES.index(r)] > 0]
        if not options:
            return None
        res = min(options, key=lambda r: ctx.valuer.loss_of(r, counts, ctx.peds))
        give.append(res)
        i = RESOURCES.index(res)
        counts = bump(counts, i, -1)
    return tuple(give)


def _trades(ctx: Ctx) -> Iterator[list[Action]]:
    rate = load_content().pieces.trade_rate
    if sum(ctx.counts) < rate:
        return
    for target in RESOURCES:
        give = junk(ctx, rate, target)
        if give is not None:
            yield [Trade(give, target)]


def _try(state: State, seat: int, actions: list[Action]) -> State | None:
    trial = state.clone()
    try:
        for action in actions:
            engine.apply(trial, seat, action)
    except RulesError:
        return None
    return trial


def _extend(trial: State, seat: int, action: Action) -> State | None:
    """`trial` (left as it was after its actions: nothing priced on it changes it)
    with one more action, in place; None if it is refused."""
    try:
        engine.apply(trial, seat, action)
    except RulesError:
        return None
    return trial


def choose_step1(ctx: Ctx) -> Action | None:
    base = position_value(ctx)
    best: tuple[float, Action | None] = (base + STEP1_MARGIN, None)
    # the last trial, with its actions, when a longer sequence may start with them (a
    # workshop used once, twice...): it goes on from there instead of from a new copy
    last: tuple[list[Action], State] | None = None
    for actions in step1_candidates(ctx):
        if last is not None and actions[:-1] == last[0]:
            trial = _extend(last[1], ctx.seat, actions[-1])
        else:
            trial = _try(ctx.state, ctx.seat, actions)
        last = None
        if trial is None:
            continue
        ctx.tried.append(actions[0])
        if not _forget_revealed(ctx.state, trial):
            last = (actions, trial)
        margin = TRADE_MARGIN - STEP1_MARGIN if isinstance(actions[0], Trade) else 0.0
        if trial.board.next_id != ctx.state.board.next_id:
            after = Ctx(trial, ctx.seat)
        else:
            after = Ctx(trial, ctx.seat, ctx.table, ctx.ob, ctx.valuer)
        value = position_value(after) - margin
        if value > best[0] + 1e-9:
            best = (value, actions[0])
    return best[1]


def _forget_revealed(state: State, trial: State) -> bool:
    """A trial that drew a horde troll (Ceremony of Exaltation) must not let the
    player see it: the refilled slot is left empty for pricing. True if it did."""
    forgot = False
    for row, trial_row in zip(state.horde, trial.horde, strict=True):
        for slot, trial_slot in zip(row, trial_row, strict=True):
            if slot.card != trial_slot.card:
                trial_slot.card = None
                trial_slot.bribes = []
                forgot = True
    return forgot


# --- after the main action ---------------------------------------------------------------


def best_hall(ctx: Ctx) -> tuple[float, DedicateHall | None]:
    state, seat = ctx.state, ctx.seat
    candidates = candidate_halls(state, seat, ctx.ob, HALL_CANDIDATES)
    if not candidates:
        return 0.0, None
    statues = state.board.statues
    moves, _ = planned_gain(ctx.ob, statues, ctx.carts())
    before = board_value(ctx.ob, statues) + potential(ctx.ob, statues, ctx.hz) + moves
    best: tuple[float, DedicateHall | None] = (0.0, None)
    for hall in candidates:
        trial = state.clone()
        try:
            halls.dedicate_hall(trial, seat, hall)
        except RulesError:  # pragma: no cover - hall_placements lists legal halls
            continue
        ob = own_board(trial, seat)
        moves, _ = planned_gain(ob, trial.board.statues, ctx.carts())
        after = board_value(ob, trial.board.statues) + potential(ob, trial.board.statues, ctx.hz)
        gain = after + moves - before
        if gain > best[0]:
            best = (gain, hall)
    return best


def choose_move(ctx: Ctx) -> Action | None:
    statues = ctx.state.board.statues
    carts = ctx.carts()
    net, plan = best_plan(ctx.ob, statues, carts)
    if plan is not None and net > MOVE_MARGIN:
        return MoveStatue(plan.origin, plan.path[0])
    return _trade_for_cart(ctx, carts)


def _trade_for_cart(ctx: Ctx, carts: Carts) -> Action | None:
    """Trade 4-for-1 for a wild cart when it lets a statue move that is worth more
    than the resources given."""
    rate = load_content().pieces.trade_rate
    give = junk(ctx, rate, Resource.CART)
    if give is None:
        return None
    after = add(ctx.counts, give, -1)
    loss = ctx.holdings() - ctx.valuer.value(after, ctx.peds)
    more = Carts(dict(carts.clan), carts.wild + 1, carts.clan_cost, carts.wild_cost)
    net, plan = best_plan(ctx.ob, ctx.state.board.statues, more)
    if plan is None or net - loss <= MOVE_MARGIN:
        return None
    return Trade(give, Resource.CART)


@dataclass
class TurnPlayer:
    """Decides one action at a time for the seat whose turn it is."""

    state: State
    seat: int
    # the action `act` chose was taken by engine.apply on a copy of the state (no need
    # to try it again)
    verified: bool = field(default=False, init=False)

    def act(self, rng: random.Random) -> Action:
        state, seat = self.state, self.seat
        ctx = Ctx(state, seat)
        if steps.allows(state, seat, "recruit"):  # before the main action
            step1 = choose_step1(ctx)
            if step1 is not None:
                self.verified = any(a is step1 for a in ctx.tried)
                return step1
            main = choose_main(ctx, rng)
            if main is not None:
                self.verified = any(a is main for a in ctx.tried)
                return main
        if steps.allows(state, seat, "hall"):
            gain, hall = best_hall(ctx)
            if hall is not None and gain > HALL_MARGIN:
                return hall
        if steps.allows(state, seat, "move"):
            move = choose_move(ctx)
            if move is not None:
                return move
        return EndTurn()


def fallback(state: State, seat: int) -> Action:
    """A legal action by construction: end the turn, or the first recruit or dig when
    one is due."""
    if not steps.main_due(state, seat):
        return EndTurn()
    for action in recruit_actions(state, seat):
        return action
    for action in tunnels.dig_actions(state, seat):
        return action
    raise AssertionError("a main action is due but none is legal")  # pragma: no cover


def is_legal(state: State, seat: int, action: Action) -> bool:
    return _try(state, seat, [action]) is not None
