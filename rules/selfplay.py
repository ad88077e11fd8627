"""Random self-play: whole games of random legal actions, reproducible from a seed.

The random player first picks a kind of action uniformly among the kinds it may take
(so the many possible trades do not crowd out everything else), then one action of
that kind uniformly. In the simultaneous draft it serves every drafting seat in order.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from rules import engine
from rules.actions import Action
from rules.game import Game, Move
from rules.legal import legal_actions, legal_kinds
from rules.state import GameConfig, State

MAX_ACTIONS = 20_000


def random_action(state: State, seat: int, rng: random.Random) -> Action:
    kinds = legal_kinds(state, seat)
    kind = rng.choice(kinds)
    return rng.choice(legal_actions(state, seat, kind))


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
