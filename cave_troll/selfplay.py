"""Self-play: whole games, reproducible from a seed.

The random player first picks a kind of action among those it may take, weighted so
that games look like real ones (drawing and moving most, ending a turn early seldom),
then one action of that kind uniformly: uniform over every action, the many Helm paths
and piece moves would crowd out the draws that end the game. The AI is
`cave_troll.ai` ("the Delver").
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType

from cave_troll import ai, engine, turns
from cave_troll.actions import KINDS, Action
from cave_troll.effects import Effect
from cave_troll.game import Game, Move
from cave_troll.legal import legal_actions, moves_of, plays_of
from cave_troll.moves import Census, census
from cave_troll.state import CaveTrollConfig, State

MAX_ACTIONS = 20_000
KIND_WEIGHTS: Mapping[str, float] = MappingProxyType(
    {"draw": 3.0, "move": 4.0, "end": 0.2, "stay": 0.5}
)

Policy = Callable[[State, int, random.Random], Action]
POLICY_NAMES = ("random", "delver")


def random_action(state: State, seat: int, rng: random.Random) -> Action:
    """A random legal action: a kind first (weighted, among those the moment allows;
    a kind with no legal action is dropped and another drawn), then for a move a piece
    and for an artifact one held (the Helm: a piece to move), then one of their
    actions."""
    allowed = turns.allowed_kinds(state, seat)
    kinds = [k for k in KINDS if k in allowed]
    c = census(state)
    while kinds:
        kind = rng.choices(kinds, [KIND_WEIGHTS.get(k, 1.0) for k in kinds])[0]
        action = _random_of_kind(state, seat, kind, rng, c)
        if action is not None:
            return action
        kinds.remove(kind)
    raise AssertionError("a seat awaited always has a legal action")  # pragma: no cover


def _random_of_kind(
    state: State, seat: int, kind: str, rng: random.Random, c: Census
) -> Action | None:
    if kind == "move":
        mine = [p for p in state.pieces if p.owner == seat and p.kind != "troll"]
        for piece in rng.sample(mine, len(mine)):
            moves = list(moves_of(state, seat, piece, c))
            if moves:
                return rng.choice(moves)
        return None
    if kind == "play":
        held = sorted(set(state.players[seat].artifacts))
        for artifact in rng.sample(held, len(held)):
            target = None
            if artifact == "helm":
                theirs = [p for p in state.pieces if p.owner != seat and p.kind != "troll"]
                target = rng.choice(theirs) if theirs else None
            plays = list(plays_of(state, seat, artifact, target, c))
            if plays:
                return rng.choice(plays)
        return None
    options = legal_actions(state, seat, kind)
    return rng.choice(options) if options else None


def policy_named(name: str) -> Policy:
    """A player by name: `random` or `delver` (`cave_troll.ai`)."""
    if name == "random":
        return random_action
    if name == "delver":
        return ai.choose_action
    raise ValueError(f"unknown player {name!r} (expected one of {', '.join(POLICY_NAMES)})")


def play_game(
    config: CaveTrollConfig,
    seed: int,
    policies: Sequence[Policy | str] | Policy | str = "random",
    *,
    policy_seed: int | None = None,
    on_action: Callable[[State, int, Action, list[Effect]], None] | None = None,
) -> Game:
    """Play a whole game with one player per seat (or one for every seat), all sharing
    one random generator seeded from `policy_seed` (default: the game's seed). Actions
    are carried out in place on the fast path (`engine.apply_trusted`): the players
    choose only listed actions. `on_action` is called after each one (to check
    invariants)."""
    if isinstance(policies, str) or callable(policies):
        chosen: list[Policy | str] = [policies] * config.players
    else:
        chosen = list(policies)
    if len(chosen) != config.players:
        raise ValueError(f"give one player per seat ({config.players}), not {len(chosen)}")
    seats = [policy_named(p) if isinstance(p, str) else p for p in chosen]
    game = Game(config, seed)
    rng = random.Random(seed if policy_seed is None else policy_seed)
    state = game.state
    while state.phase != "over":
        seat = turns.to_act(state)[0]
        action = seats[seat](state, seat, rng)
        fx = engine.apply_trusted(state, seat, action)
        game.moves.append(Move(seat, action))
        if on_action is not None:
            on_action(state, seat, action, fx)
        if len(game.moves) > MAX_ACTIONS:  # pragma: no cover
            raise RuntimeError("the game did not end")
    return game
