"""Random self-play: whole games of random legal actions, reproducible from a seed.

The random player first picks a kind of action among the kinds it may take (so the
many possible trades do not crowd out everything else), then one action of that kind
uniformly. Kinds are weighted so that games look like real ones: digging is preferred
to recruiting (otherwise pyramids fill long before the mountain does) and trades are
rare. In the simultaneous draft it serves every drafting seat in order.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from rules import board, engine
from rules.actions import Action, Cast, Dig
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
    hammers = 99 if board.FLAG_FREE_RUBBLE in state.turn_flags() else counts[Resource.HAMMER]
    groups: list[tuple[str, Variant, tuple[int, ...], list[int]]] = []
    total = 0
    for shape, variant, offs, hits in board.placement_hits(state, seat):
        if len(offs) > biggest:
            continue
        origins = []
        while hits:
            low = hits & -hits
            hits ^= low
            origin = low.bit_length() - 1
            if hammers < len(offs):
                p = board.make_placement(g, shape, variant, offs, origin)
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
            place = board.make_placement(g, shape, variant, offs, origins[k])
            return rng.choice(list(board.dig_options(state, seat, place, counts)))
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
        seats = engine.seats_to_act(state)
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
