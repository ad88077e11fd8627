"""Where the game and the turn stand (`rules.steps`), the legal-move view
(`rules.legal.legal_moves`) and the one-entry-per-effect spell rules: the generators,
the engine and the view agree."""

from __future__ import annotations

import random
import typing

import pytest
from helpers import drafted_game, empty_trolls, set_storage

from rules import engine, steps
from rules.actions import Action, EndTurn, Pay, Trade, action_kind, parse_action
from rules.content import SpellEffect
from rules.errors import RulesError
from rules.game import Game
from rules.legal import KINDS, LegalActions, legal_actions, legal_moves
from rules.resources import Resource
from rules.selfplay import random_action
from rules.spell_effects import EFFECT_RULES
from rules.state import State, make_config


def _game() -> Game:
    game = drafted_game(players=2, seed=11)
    for seat in range(2):
        empty_trolls(game.state, seat)
        set_storage(game.state, seat, rune=2, coin=2, stone=4)
    return game


def _accepted(state: State, seat: int, action: Action) -> bool:
    try:
        engine.apply(state.clone(), seat, action)
    except RulesError:
        return False
    return True


def test_every_kind_belongs_to_one_phase_and_every_turn_kind_has_a_step_rule() -> None:
    phases = [k for kinds in steps.PHASE_KINDS.values() for k in kinds]
    assert sorted(phases) == sorted(KINDS)
    assert set(steps.TURN_STEPS) == set(steps.PHASE_KINDS["play"]) == set(steps.TURN_KINDS)


def test_the_turn_moves_through_its_steps() -> None:
    game = _game()
    state = game.state
    allowed = [k for k in steps.TURN_KINDS if steps.allows(state, 0, k)]
    assert allowed == ["cast", "use", "trade", "recruit", "dig"]  # main action due
    game.play(0, "recruit 1.1 B1")
    state = game.state  # `Game.play` works on a copy
    assert state.turn is not None and state.turn.main_done and state.turn.step == 3
    assert [k for k in steps.TURN_KINDS if steps.allows(state, 0, k)] == [
        "trade",
        "hall",
        "move",
        "end",
    ]
    assert not any(steps.allows(state, 1, k) for k in KINDS)
    error = steps.refusal(state, 0, "dig")
    assert error is not None and error.code == "step_done"


def test_every_spell_effect_has_one_rule() -> None:
    union = typing.get_args(typing.get_args(SpellEffect)[0])
    assert set(union) == set(EFFECT_RULES)


def test_legal_moves_answers_in_bool_and_len_like_the_list() -> None:
    game = _game()
    state = game.state
    listed = legal_actions(state, 0)
    view = legal_moves(state, 0)
    assert isinstance(view, LegalActions)
    assert len(view) == view.count() == len(listed) and bool(view)
    assert list(view) == listed
    assert all(action in view for action in listed[:: max(1, len(listed) // 40)])
    assert EndTurn() not in view  # a recruit or dig is due
    assert not legal_moves(state, 1) and len(legal_moves(state, 1)) == 0
    assert parse_action("recruit 1.1 B1") not in legal_moves(state, 0, "dig")
    assert "end" not in view and None not in view


def test_in_accepts_an_explicit_payment_exactly_when_the_engine_does() -> None:
    game = _game()
    state = game.state
    stone = Pay(Resource.STONE, "store")
    good = Trade((Resource.STONE,) * 4, Resource.IRON, (stone,) * 4)
    bad = Trade(
        (Resource.STONE,) * 4, Resource.IRON, (stone, stone, stone, Pay(Resource.STONE, "A1"))
    )
    assert good not in legal_actions(state, 0)  # listed with the default payment
    assert good in legal_moves(state, 0) and _accepted(state, 0, good)
    assert bad not in legal_moves(state, 0) and not _accepted(state, 0, bad)


def test_the_view_follows_the_state() -> None:
    state = _game().state
    view = legal_moves(state)  # the seat to move
    assert EndTurn() not in view
    engine.apply(state, 0, parse_action("recruit 1.1 B1"))
    assert EndTurn() in view
    engine.apply(state, 0, EndTurn())
    assert view.count() == len(legal_actions(state, 1)) > 0
    assert all(steps.allows(state, 1, action_kind(a)) for a in view)


@pytest.mark.parametrize("players", [2, 4])
def test_through_a_random_game_the_view_the_list_and_the_engine_agree(players: int) -> None:
    game = Game(make_config(players=players), 3)
    state = game.state
    rng = random.Random(3)
    pool: list[Action] = []
    n = 0
    while state.phase != "over":
        seat = steps.seats_to_act(state)[0]
        listed = legal_actions(state, seat)
        if n % 7 == 0:
            view = legal_moves(state, seat)
            assert bool(view) and len(view) == len(listed)
            for kind in KINDS:
                assert bool(legal_moves(state, seat, kind)) == any(
                    action_kind(a) == kind for a in listed
                )
            for action in rng.sample(listed, min(5, len(listed))):
                assert action in view
            for other in range(players):
                for action in pool[-6:]:
                    assert (action in legal_moves(state, other)) == _accepted(state, other, action)
            pool.append(rng.choice(listed))
        action = random_action(state, seat, rng)
        engine.apply(state, seat, action)
        n += 1
