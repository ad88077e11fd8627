"""The turn: step order, the recruit-or-dig obligation, turn order, the coronation
tokens and the end of the game, and how refusals are reported."""

from __future__ import annotations

import pytest
from helpers import drafted_game, empty_trolls, fill_pyramid, finish_turn, set_horde, set_storage

from rules import engine
from rules.actions import parse_action
from rules.errors import (
    GameOverError,
    IllegalActionError,
    NotationError,
    NotYourTurnError,
    RulesError,
)
from rules.game import Game
from rules.legal import legal_actions


def _game(players: int = 2, seed: int = 11) -> Game:
    game = drafted_game(players=players, seed=seed)
    for seat in range(players):
        empty_trolls(game.state, seat)
        set_storage(game.state, seat, rune=2, coin=2, stone=4)
    game.state.spellbook[0].spell = "earth-ritual"
    return game


def _code(game: Game, seat: int, action: str) -> str:
    with pytest.raises(RulesError) as info:
        game.play(seat, action)
    return info.value.code


def test_cast_after_recruit_is_refused() -> None:
    game = _game()
    game.play(0, "recruit 1.1 B1")
    assert _code(game, 0, "cast earth-ritual 3stone") == "out_of_order"
    assert legal_actions(game.state, 0, "cast") == []


def test_cast_before_recruit_is_allowed() -> None:
    game = _game()
    game.play(0, "cast earth-ritual 3stone")
    game.play(0, "recruit 1.1 B1")
    assert game.state.account_of(0).storage["stone"] == 7


def test_trade_is_allowed_after_recruit() -> None:
    game = _game()
    game.play(0, "recruit 1.1 B1")
    game.play(0, "trade 4stone>iron")
    assert game.state.account_of(0).storage["iron"] == 1


def test_only_one_spell_per_turn() -> None:
    game = _game()
    game.play(0, "cast earth-ritual 3stone")
    assert _code(game, 0, "cast earth-ritual 2iron") == "one_spell"


def test_must_recruit_before_ending_the_turn() -> None:
    game = _game()
    assert _code(game, 0, "end") == "must_act"
    assert legal_actions(game.state, 0, "end") == []


def test_turns_pass_clockwise_and_wrap_to_the_start_player() -> None:
    game = _game(players=3)
    order = [finish_turn(game) for _ in range(4)]
    assert order == [0, 1, 2, 0]


def test_acting_out_of_turn_is_refused() -> None:
    game = _game()
    with pytest.raises(NotYourTurnError) as info:
        game.play(1, "recruit 1.1 B1")
    assert info.value.code == "not_your_turn"
    assert isinstance(info.value, IllegalActionError)
    assert _code(game, 1, "trade 4stone>iron") == "not_your_turn"


def test_illegal_action_leaves_state_unchanged() -> None:
    game = _game()
    before = game.state.to_json()
    moves = len(game.moves)
    for action in ("recruit 3.1 B1 fire pay coin@store", "end", "recruit 1.1 D1"):
        with pytest.raises(RulesError):
            game.play(0, action)
        assert game.state.to_json() == before
    assert len(game.moves) == moves


def test_engine_apply_checks_everything_before_changing_anything() -> None:
    game = _game()
    state = game.state.clone()
    before = state.to_json()
    with pytest.raises(IllegalActionError):
        engine.apply(state, 0, parse_action("recruit 3.1 B1 fire"))  # 2 coins, needs 5
    assert state.to_json() == before


@pytest.mark.parametrize(
    ("seat", "action", "code"),
    [
        (0, "recruit 9.9 B1", "notation"),
        (0, "fly away", "notation"),
        (0, "recruit 1.1 D1", "bad_slot"),
        (0, "recruit 2.1 B1 fire", "no_pedestal_choice"),
        (0, "cast golden-rain 3coin", "no_such_spell"),
        (0, "trade 4rune>coin", "cannot_afford"),
        (1, "end", "not_your_turn"),
        (0, "keep blue-1 A1", "not_drafting"),
        (0, "gate W1", "not_gates"),
        (0, "use S1 coin>rune", "no_workshop"),
    ],
)
def test_every_refusal_is_a_rules_error_with_a_code_and_a_sentence(
    seat: int, action: str, code: str
) -> None:
    game = _game()
    book = ("earth-ritual", "tool-chant", "unburden")
    for slot, spell in zip(game.state.spellbook, book, strict=True):
        slot.spell = spell
    with pytest.raises(RulesError) as info:
        game.play(seat, action)
    err = info.value
    assert err.code == code
    assert err.message[0].isupper() or err.message[0] in "'\"", err.message
    assert err.message.endswith((".", ")", ":")) or "Expected" in err.message
    assert len(err.message.split()) >= 3


def test_notation_errors_are_rules_errors() -> None:
    assert issubclass(NotationError, RulesError)
    assert NotationError("x").code == "notation"


NO_MINERALS = "L1-05"  # produces two coins


def test_first_coronation_token_is_worth_five_and_does_not_end_the_game() -> None:
    game = _game(players=3)
    fill_pyramid(game.state, 0, 9)
    game.play(0, "recruit 1.1 D1")
    assert game.state.account_of(0).coronation == [5]
    assert game.state.coronation_left == [3]
    assert game.state.final_turns is None


def _capping_game(players: int, capper: int) -> Game:
    """Everybody's pyramid is full except `capper`'s, which lacks its cap; the first
    token is gone already. Nobody owns a mineral, so nobody can dig."""
    game = _game(players=players)
    state = game.state
    for seat in range(players):
        set_storage(state, seat, coin=2)
        state.players[seat].pyramid.clear()
        fill_pyramid(state, seat, 9 if seat == capper else 10, card=NO_MINERALS)
    set_horde(state, "1.1", NO_MINERALS)
    if players > 2:
        state.coronation_left = [3]
        state.account_of((capper + 1) % players).coronation = [5]
    while game.state.current_seat != capper:
        finish_turn(game)
    return game


def _remaining_turns(game: Game) -> list[int]:
    seats = []
    while game.state.phase != "over":
        seats.append(finish_turn(game))
    return seats


def test_second_coronation_token_triggers_two_more_rounds() -> None:
    game = _capping_game(players=3, capper=1)
    game.play(1, "recruit 1.1 D1")
    assert game.state.account_of(1).coronation == [3]
    assert game.state.coronation_left == []
    # finish the round (seat 1's turn, then seat 2), then 2 more turns each
    assert _remaining_turns(game) == [1, 2, 0, 1, 2, 0, 1, 2]


def test_last_seat_taking_the_second_token_ends_the_round_at_once() -> None:
    game = _capping_game(players=3, capper=2)
    game.play(2, "recruit 1.1 D1")
    assert _remaining_turns(game) == [2, 0, 1, 2, 0, 1, 2]


def test_two_player_game_ends_two_rounds_after_the_three_token() -> None:
    game = _capping_game(players=2, capper=0)
    game.play(0, "recruit 1.1 D1")
    assert game.state.account_of(0).coronation == [3]
    assert _remaining_turns(game) == [0, 1, 0, 1, 0, 1]


def test_game_over_refuses_every_action() -> None:
    game = _capping_game(players=2, capper=1)
    game.play(1, "recruit 1.1 D1")
    _remaining_turns(game)
    assert game.state.phase == "over"
    with pytest.raises(GameOverError) as info:
        game.play(0, "end")
    assert info.value.code == "game_over"
    assert game.outcome is not None
