"""`State.clone` copies what an action may change and shares the rest: a clone equals
its state, shares none of its lists, dicts or changeable dataclasses, and shares only
what is never changed in place (the config, the board's pieces, the pedestal tokens)."""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any

from rules import engine
from rules.game import Game
from rules.selfplay import play_random_game
from rules.state import PedestalToken, Piece, State, make_config

SHARED = (Piece, PedestalToken)


def _containers(value: Any, out: dict[int, Any]) -> None:
    """Every list, dict and dataclass reachable from `value`, by id (the shared kinds
    are not gone into)."""
    if isinstance(value, SHARED):
        return
    if isinstance(value, list | dict) or is_dataclass(value):
        out[id(value)] = value
    if isinstance(value, list):
        for v in value:
            _containers(v, out)
    elif isinstance(value, dict):
        for v in value.values():
            _containers(v, out)
    elif is_dataclass(value):
        for f in fields(value):
            if f.name != "config":
                _containers(getattr(value, f.name), out)


def _check(state: State) -> None:
    copy = state.clone()
    assert copy == state
    assert copy.to_json() == state.to_json()
    mine: dict[int, Any] = {}
    theirs: dict[int, Any] = {}
    _containers(state, mine)
    _containers(copy, theirs)
    assert not mine.keys() & theirs.keys()
    assert copy.config is state.config
    assert all(a is b for a, b in zip(copy.board.pieces, state.board.pieces, strict=True))


def test_a_clone_shares_only_what_no_action_changes() -> None:
    config = make_config(players=4, teams=True)
    record = play_random_game(config, 3)
    state = Game(config, 3).state
    for i, move in enumerate(record.moves):
        engine.apply_trusted(state, move.seat, move.action)
        if i % 5 == 0:
            _check(state)
    _check(state)
    assert state.board.pieces and any(a.tokens for a in state.accounts)


def test_changing_a_clone_leaves_its_state_as_it_was() -> None:
    """Each action of a whole game played on a clone of the position before it: the
    position is still what it was."""
    config = make_config(players=3)
    record = play_random_game(config, 4)
    state = Game(config, 4).state
    for move in record.moves:
        before = state.to_json()
        trial = state.clone()
        engine.apply(trial, move.seat, move.action)
        assert state.to_json() == before
        state = trial
    assert state.phase == "over"
