"""Random self-play: whole games of random legal actions, reproducible from a seed.

The random player first picks a kind of action among the kinds it may take (so the
many possible trades do not crowd out everything else), then one action of that kind
uniformly. Kinds are weighted so that games look like real ones: digging is preferred
to recruiting (otherwise pyramids fill long before the mountain does) and trades are
rare. In the simultaneous draft it serves every drafting seat in order.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from rules import engine, steps, tunnels
from rules.actions import Action, Cast, Dig
from rules.ai import choose_action
from rules.game import Game, Move
from rules.legal import KINDS, cast_actions_for, kind_available, legal_actions, legal_kinds
from rules.mountain import geo
from rules.payment import owned_counts
from rules.resources import MINERALS, Resource
from rules.shapes import Variant
from rules.state import GameConfig, State

MAX_ACTIONS = 20_000
KIND_WEIGHTS = {"dig": 4.0, "trade": 0.25}


def random_action(state: State, seat: int, rng: random.Random) -> Action:
    kind = _random_kind(state, seat, rng)
    if kind == "dig":
        dig = random_dig(state, seat, rng)
        if dig is not None:
            return dig
    if kind == "cast":
        return random_cast(state, seat, rng)
    return rng.choice(legal_actions(state, seat, kind))


def _random_kind(state: State, seat: int, rng: random.Random) -> str:
    """A weighted random kind among those available: drawing from all kinds and
    redrawing when one is unavailable gives the same distribution as drawing among the
    available ones, without checking every kind."""
    weights = [KIND_WEIGHTS.get(k, 1.0) for k in KINDS]
    for _ in range(64):
        kind = rng.choices(KINDS, weights)[0]
        if kind_available(state, seat, kind):
            return kind
    kinds = legal_kinds(state, seat)
    return rng.choices(kinds, [KIND_WEIGHTS.get(k, 1.0) for k in kinds])[0]


def random_dig(state: State, seat: int, rng: random.Random) -> Dig | None:
    """A random legal dig: a random affordable placement (uniform over all of them),
    then one of its options (so the many workshop combinations do not skew it)."""
    g = geo(state)
    counts = owned_counts(state, seat)
    biggest = max(counts[m] for m in MINERALS)
    hammers = 99 if tunnels.FLAG_FREE_RUBBLE in state.turn_flags() else counts[Resource.HAMMER]
    groups: list[tuple[str, Variant, tuple[int, ...], list[int]]] = []
    total = 0
    for shape, variant, offs, hits in tunnels.placement_hits(state, seat):
        if len(offs) > biggest:
            continue
        origins = []
        while hits:
            low = hits & -hits
            hits ^= low
            origin = low.bit_length() - 1
            if hammers < len(offs):
                p = tunnels.make_placement(g, shape, variant, offs, origin)
                if p.rubble > hammers:
                    continue
            origins.append(origin)
        if origins:
            groups.append((shape, variant, offs, origins))
            total += len(origins)
    if not total:
        return None
    k = rng.randrange(total)
    for shape, variant, offs, origins in groups:
        if k < len(origins):
            place = tunnels.make_placement(g, shape, variant, offs, origins[k])
            return rng.choice(list(tunnels.dig_options(state, seat, place, counts)))
        k -= len(origins)
    raise AssertionError("unreachable")  # pragma: no cover


def random_cast(state: State, seat: int, rng: random.Random) -> Action:
    """A random spell from the spellbook, then a random legal way to cast it."""
    spells = [s.spell for s in state.spellbook]
    rng.shuffle(spells)
    for spell in spells:
        if spell == "summon-rockeater" and rng.random() < 0.9:
            dig = random_dig(state, seat, rng)
            if dig is not None:
                return Cast(spell, tuple(dig.words()))
        options = list(cast_actions_for(state, seat, spell))
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
    place). `on_action` is called after each action, e.g. to check invariants."""
    game = Game(config, seed)
    rng = random.Random(seed if policy_seed is None else policy_seed)
    state = game.state
    while state.phase != "over":
        seats = steps.seats_to_act(state)
        if not seats:  # pragma: no cover - only possible if the rules deadlock
            raise RuntimeError("nobody can act but the game is not over")
        seat = seats[0]
        action = random_action(state, seat, rng)
        engine.apply(state, seat, action)
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
    validated on a copy) instead of the fast path."""
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
