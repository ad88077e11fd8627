"""Random self-play: whole games of random legal actions, reproducible from a seed.

The random player first picks a kind of action uniformly among the kinds it may take
(so the many possible trades do not crowd out everything else), then one action of
that kind uniformly. In the simultaneous draft it serves every drafting seat in order.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from rules import board, engine
from rules.actions import Action, Cast, Dig
from rules.game import Game, Move
from rules.legal import cast_actions_for, legal_actions, legal_kinds
from rules.state import GameConfig, State

MAX_ACTIONS = 20_000


def random_action(state: State, seat: int, rng: random.Random) -> Action:
    kinds = legal_kinds(state, seat)
    kind = rng.choice(kinds)
    if kind == "dig":
        dig = random_dig(state, seat, rng)
        if dig is not None:
            return dig
    if kind == "cast":
        return random_cast(state, seat, rng)
    return rng.choice(legal_actions(state, seat, kind))


def random_dig(state: State, seat: int, rng: random.Random) -> Dig | None:
    """A random legal dig: a random placement among those that have any legal option,
    then one of its options (so the many workshop combinations do not skew it)."""
    places = list(board.placements(state, seat))
    rng.shuffle(places)
    for place in places:
        options = list(board.dig_options(state, seat, place))
        if options:
            return rng.choice(options)
    return None


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
