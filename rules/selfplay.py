"""Random self-play: whole games of random legal actions, reproducible from a seed.

The random player first picks a kind of action among the kinds it may take (so the
many possible trades do not crowd out everything else), then one action of that kind
uniformly. Kinds are weighted so that games look like real ones: digging is preferred
to recruiting (otherwise pyramids fill long before the mountain does) and trades are
rare. In the simultaneous draft it serves every drafting seat in order.
"""

from __future__ import annotations

import random
from bisect import bisect
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from itertools import accumulate
from types import MappingProxyType

from rules import engine, steps, tunnels
from rules.actions import Action, Cast, Dig
from rules.ai import choose_action
from rules.game import Game, Move
from rules.legal import KINDS, AvailableKinds, cast_options
from rules.payment import owned_counts
from rules.resources import Resource
from rules.state import GameConfig, State

MAX_ACTIONS = 20_000
KIND_WEIGHTS: Mapping[str, float] = MappingProxyType({"dig": 4.0, "trade": 0.25})
# the running totals of the kinds' weights, in `KINDS` order (what `random.choices` sums)
_CUM_WEIGHTS = [float(w) for w in accumulate(KIND_WEIGHTS.get(k, 1.0) for k in KINDS)]


def random_action(state: State, seat: int, rng: random.Random) -> Action:
    available = AvailableKinds(state, seat)
    kind = _random_kind(available, rng)
    if kind == "dig":
        dig = random_dig(state, seat, rng, available.counts(), available.placements())
        if dig is not None:
            return dig
    if kind == "cast":
        return random_cast(state, seat, rng, available.counts())
    # as `rng.choice` of the list of them, without making it
    return rng.choice(available.options(kind))


def _random_kind(available: AvailableKinds, rng: random.Random) -> str:
    """A weighted random kind among those available: drawing from all kinds and
    redrawing when one is unavailable gives the same distribution as drawing among the
    available ones, without checking every kind."""
    cum_weights = _CUM_WEIGHTS
    total = cum_weights[-1]
    last = len(KINDS) - 1
    draw = rng.random
    known: dict[str, bool] = {}
    maybe = available.maybe()
    for _ in range(64):
        # one weighted draw as `rng.choices(KINDS, cum_weights=...)` makes it (a random
        # number bisected into the running totals), without its call per redraw
        kind = KINDS[bisect(cum_weights, draw() * total, 0, last)]
        if kind not in maybe:
            continue
        ok = known.get(kind)
        if ok is None:
            ok = known[kind] = kind in available
        if ok:
            return kind
    kinds = [k for k in KINDS if k in available]
    return rng.choices(kinds, [KIND_WEIGHTS.get(k, 1.0) for k in kinds])[0]


def random_dig(
    state: State,
    seat: int,
    rng: random.Random,
    counts: Counter[Resource] | None = None,
    placements: tunnels.PayablePlacements | None = None,
) -> Dig | None:
    """A random legal dig: a random affordable placement (uniform over all of them),
    then one of its options (so the many workshop combinations do not skew it).
    `placements`: the payable ones for `counts`, if the caller has them."""
    if counts is None:
        counts = owned_counts(state, seat)
    if placements is None:
        placements = tunnels.PayablePlacements(state, seat, counts)
    if not placements:
        return None
    place = placements[rng.randrange(len(placements))]
    return rng.choice(tunnels.dig_options_at(state, seat, place, counts))


def random_cast(
    state: State, seat: int, rng: random.Random, counts: Counter[Resource] | None = None
) -> Action:
    """A random spell from the spellbook, then a random legal way to cast it.
    `counts`: what the player owns (`owned_counts`), if the caller has it."""
    if counts is None:
        counts = owned_counts(state, seat)
    spells = [s.spell for s in state.spellbook]
    rng.shuffle(spells)
    for spell in spells:
        if spell == "summon-rockeater" and rng.random() < 0.9:
            dig = random_dig(state, seat, rng, counts)
            if dig is not None:
                return Cast(spell, tuple(dig.words()))
        options = cast_options(state, seat, spell, counts)
        if options:
            return rng.choice(options)
    raise AssertionError("cast was a legal kind but no spell can be cast")  # pragma: no cover


def play_random_game(
    config: GameConfig,
    seed: int,
    *,
    policy_seed: int | None = None,
    on_action: Callable[[State, int, Action], None] | None = None,
) -> Game:
    """Play a whole game with random legal actions (fast path: the state is mutated in
    place, each action, generated legal, carried out by `engine.apply_trusted`).
    `on_action` is called after each action, e.g. to check invariants."""
    game = Game(config, seed)
    rng = random.Random(seed if policy_seed is None else policy_seed)
    state = game.state
    while state.phase != "over":
        seats = steps.seats_to_act(state)
        if not seats:  # pragma: no cover - only possible if the rules deadlock
            raise RuntimeError("nobody can act but the game is not over")
        seat = seats[0]
        action = random_action(state, seat, rng)
        engine.apply_trusted(state, seat, action)
        game.moves.append(Move(seat, action))
        if on_action is not None:
            on_action(state, seat, action)
        if len(game.moves) > MAX_ACTIONS:  # pragma: no cover
            raise RuntimeError("random game did not end")
    return game


Policy = Callable[[State, int, random.Random], Action]
POLICY_NAMES = ("random", "heuristic")


def policy_named(name: str) -> Policy:
    """A policy by name: `random` (the random player) or `heuristic` (`rules.ai`)."""
    if name == "random":
        return random_action
    if name == "heuristic":
        return choose_action
    raise ValueError(f"unknown policy {name!r} (expected one of {', '.join(POLICY_NAMES)})")


def play_game(
    config: GameConfig,
    seed: int,
    policies: Sequence[Policy | str] | Policy | str,
    *,
    policy_seed: int | None = None,
    checked: bool = False,
    on_action: Callable[[State, int, Action], None] | None = None,
) -> Game:
    """Play a whole game with one policy per seat (or one for every seat), sharing one
    random generator seeded like `play_random_game`, so that with every seat random
    it plays exactly the same game. `checked` plays through `Game.play` (each action
    validated on a copy) instead of in place (`engine.apply`, which still refuses an
    illegal action: a policy is any callable, not the legal generators)."""
    if isinstance(policies, str) or callable(policies):
        chosen: list[Policy | str] = [policies] * config.players
    else:
        chosen = list(policies)
    if len(chosen) != config.players:
        raise ValueError(f"give one policy per seat ({config.players}), not {len(chosen)}")
    seats = [policy_named(p) if isinstance(p, str) else p for p in chosen]
    game = Game(config, seed)
    rng = random.Random(seed if policy_seed is None else policy_seed)
    while game.state.phase != "over":
        waiting = steps.seats_to_act(game.state)
        if not waiting:  # pragma: no cover - only possible if the rules deadlock
            raise RuntimeError("nobody can act but the game is not over")
        seat = waiting[0]
        action = seats[seat](game.state, seat, rng)
        if checked:
            game.play(seat, action)
        else:
            engine.apply(game.state, seat, action)
            game.moves.append(Move(seat, action))
        if on_action is not None:
            on_action(game.state, seat, action)
        if len(game.moves) > MAX_ACTIONS:  # pragma: no cover
            raise RuntimeError("game did not end")
    return game
