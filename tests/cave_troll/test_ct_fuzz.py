"""Fuzzing the engine: whatever a player sends, in any position, the engine either
applies it or refuses it with a CaveTrollError that says why and leaves the state exactly
as it was; and what it accepts is exactly what the legal listing lists."""

from __future__ import annotations

from functools import cache

from ct_helpers import scene
from ct_strategies import any_action
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cave_troll.actions import Action
from cave_troll.errors import ECHO_LIMIT, CaveTrollError
from cave_troll.game import Game
from cave_troll.legal import legal_actions
from cave_troll.selfplay import play_game
from cave_troll.state import State, make_config
from cave_troll.turns import moment, to_act

MOMENTS = ("turn", "spent", "placing", "flight", "chalice", "must_push")


@cache
def _positions() -> tuple[Game, ...]:
    """Games stopped at every kind of moment (a turn, a placing, a flight, a Chalice, no
    action left) and at the end, for 2 to 4 players, and a Wraith that must push out
    (rare in random games: set up)."""
    found: dict[str, Game] = {}
    for seed in range(12):
        players = 2 + seed % 3
        full = play_game(make_config(players=players), seed)
        replay = Game(full.config, full.seed)
        for move in full.moves:
            state = replay.state
            key = f"{players}:{moment(state, to_act(state)[0])}"
            if key not in found and (not key.endswith(":turn") or state.turns > players * 2):
                found[key] = _copy(replay)
            replay.play(move.seat, move.action)
        found.setdefault(f"{players}:over", replay)
    five = [("orange", "explorer", "A7")] * 3 + [("green", "orc", "A7")] * 2
    wraith = scene(players=3, pieces=[*five, ("blue", "wraith", "A4")], actions=3)
    wraith.play(0, "move wraith@A4 A7")
    found["3:must_push"] = wraith
    return tuple(found[k] for k in sorted(found))


def _copy(game: Game) -> Game:
    copy = Game(game.config, game.seed)
    copy.state, copy.moves = game.state.clone(), list(game.moves)
    return copy


def test_the_positions_cover_every_moment() -> None:
    moments = {moment(g.state, to_act(g.state)[0]) for g in _positions() if g.to_act}
    assert moments == set(MOMENTS)


def _try(game: Game, seat: int, action: Action | str) -> None:
    before = game.state.to_json()
    moves = len(game.moves)
    listed = not isinstance(action, str) and action in legal_actions(game.state, seat)
    try:
        game.play(seat, action)
    except CaveTrollError as exc:
        assert exc.message and exc.code, "a refusal says why"
        assert game.state.to_json() == before, f"{action} was refused but changed the state"
        assert len(game.moves) == moves
        assert not listed, f"{action} is listed but was refused: {exc}"
        for value in exc.params.values():
            if isinstance(value, str) and value.startswith("'"):
                assert len(value) <= ECHO_LIMIT
        return
    assert isinstance(action, str) or listed, f"{action} was accepted but is not listed"
    game.state = State.from_json(before)  # put the position back for the next example
    del game.moves[moves:]


@given(st.integers(0, 63), st.integers(0, 3), any_action)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_action_is_applied_or_refused_without_a_trace(
    position: int, seat: int, action: Action
) -> None:
    positions = _positions()
    game = positions[position % len(positions)]
    _try(game, seat % game.state.n, action)


@given(st.integers(0, 63), st.integers(0, 3), st.text(max_size=80))
@settings(max_examples=150, deadline=None)
def test_any_text_is_applied_or_refused_without_a_trace(
    position: int, seat: int, text: str
) -> None:
    positions = _positions()
    game = positions[position % len(positions)]
    _try(game, seat % game.state.n, text)


def test_every_listed_action_is_accepted_and_no_one_else_may_act() -> None:
    for game in _positions():
        for seat in range(game.state.n):
            listed = legal_actions(game.state, seat)
            if seat not in game.to_act:
                assert listed == []
                continue
            assert listed, "the seat awaited always has something to do"
            assert len({str(a) for a in listed}) == len(listed), "listed once each"
            for action in listed:
                _copy(game).play(seat, str(action))
