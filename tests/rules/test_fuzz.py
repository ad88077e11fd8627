"""Fuzzing the engine with arbitrary actions: whatever a player sends, the engine either
applies it or refuses it with a RulesError and leaves the state exactly as it was."""

from __future__ import annotations

from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import any_action

from rules.actions import Action, EndTurn
from rules.errors import RulesError
from rules.game import Game, Move
from rules.selfplay import play_random_game
from rules.state import State, make_config


@cache
def _positions() -> tuple[Game, ...]:
    """Games stopped at several points: draft, gates, early and late play."""
    out = []
    for players, seed in ((2, 1), (3, 2), (4, 3), (5, 4)):
        full = play_random_game(make_config(players=players), seed)
        ends = [i for i, m in enumerate(full.moves) if isinstance(m.action, EndTurn)]
        for stop in (2, players * 4 + 1, ends[2] + 1, ends[len(ends) // 2] + 3):
            out.append(Game(full.config, full.seed, list(full.moves[:stop])))
    return tuple(out)


def _try(game: Game, seat: int, action: Action | str) -> None:
    before = game.state.to_json()
    moves = len(game.moves)
    try:
        game.play(seat, action)
    except RulesError as exc:
        assert str(exc), "a refusal says why"
        assert game.state.to_json() == before, f"{action} was refused but changed the state"
        assert len(game.moves) == moves
        return
    # accepted: put the position back for the next example
    game.state = State.from_json(before)
    del game.moves[moves:]


@given(st.integers(min_value=0, max_value=15), st.integers(min_value=0, max_value=4), any_action)
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_action_is_applied_or_refused_without_a_trace(
    position: int, seat: int, action: Action
) -> None:
    game = _positions()[position]
    _try(game, seat % len(game.state.players), action)


@given(
    st.integers(min_value=0, max_value=15),
    st.integers(min_value=0, max_value=4),
    st.text(max_size=60),
)
@settings(max_examples=300, deadline=None)
def test_any_text_is_applied_or_refused_without_a_trace(
    position: int, seat: int, text: str
) -> None:
    game = _positions()[position]
    _try(game, seat % len(game.state.players), text)


def test_every_recorded_action_is_refused_for_the_wrong_seat() -> None:
    for game in _positions()[::4]:
        full = play_random_game(game.config, game.seed)
        replay = Game(full.config, full.seed)
        for move in full.moves[:80]:
            if replay.state.phase in ("gates", "play"):
                other = (move.seat + 1) % len(replay.state.players)
                before = replay.state.to_json()
                try:
                    replay.play(other, move.action)
                except RulesError:
                    assert replay.state.to_json() == before
                else:  # pragma: no cover - only trades/ends could coincide, never here
                    raise AssertionError(f"{move.action} was accepted for the wrong seat")
            replay.play(move.seat, move.action)


def test_replaying_moves_by_value_equals_the_record() -> None:
    game = _positions()[7]
    again = Game(game.config, game.seed, [Move(m.seat, m.action) for m in game.moves])
    assert again.state.to_json() == game.state.to_json()
