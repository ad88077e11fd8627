"""Notation: every action formats to text that parses back to the same action, and
garbage is refused with a NotationError (never another exception)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import any_action

from rules.actions import parse_action
from rules.errors import NotationError, RulesError
from rules.legal import legal_actions
from rules.selfplay import play_random_game
from rules.state import make_config


@given(any_action)
@settings(max_examples=500)
def test_notation_round_trip(action: object) -> None:
    text = str(action)
    assert parse_action(text) == action
    assert str(parse_action(text)) == text


@given(st.text(max_size=40))
@settings(max_examples=1000)
def test_garbage_notation_is_refused_cleanly(text: str) -> None:
    try:
        action = parse_action(text)
    except NotationError as exc:
        assert str(exc)
    else:
        assert str(action) == text


@given(
    st.lists(
        st.sampled_from(
            [
                "keep",
                "gate",
                "cast",
                "use",
                "trade",
                "recruit",
                "end",
                "pay",
                "move",
                "blue-1",
                "A1",
                "2.3",
                "3stone>iron",
                "coin@A1",
                "cart@store",
                "fire-cart@B2",
                "fire",
                "4stone>rune",
                "none",
                "S1",
                "heartstone>cart",
                "store",
                "@",
                ">",
                "+",
                "2coin+stone+rune>iron",
            ]
        ),
        max_size=6,
    ).map(" ".join)
)
@settings(max_examples=1000)
def test_word_salad_is_refused_cleanly_or_round_trips(text: str) -> None:
    try:
        action = parse_action(text)
    except NotationError:
        return
    assert str(action) == text


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_legal_action_of_a_game_round_trips(players: int) -> None:
    game = play_random_game(make_config(players=players), 2)
    for move in game.moves:
        assert parse_action(str(move.action)) == move.action


@pytest.mark.parametrize(
    "text",
    [
        "recruit 2.3",
        "recruit 4.1 B1",
        "recruit 2.3 E1",
        "trade 3stone>rune pay",
        "trade stone+stone>rune",
        "trade 1stone>rune",
        "use S1 heartstone",
        "keep blue-1 B1",
        "cast",
        "end now",
        "recruit 3.1 C1 mud",
        "trade 4gold>rune",
        "trade 4stone>rune pay fire-cart@store",
        "  end",
    ],
)
def test_malformed_actions_are_refused_with_a_sentence(text: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_action(text)
    assert len(str(info.value)) > 10
    assert isinstance(info.value, RulesError) and info.value.code == "notation"


def test_legal_action_lists_are_stable() -> None:
    game = play_random_game(make_config(players=3), 9)
    from rules.game import Game

    replay = Game(game.config, game.seed)
    for move in game.moves[:60]:
        first = [str(a) for a in legal_actions(replay.state, move.seat)]
        second = [str(a) for a in legal_actions(replay.state, move.seat)]
        assert first == second
        assert str(move.action) in first
        replay.play(move.seat, move.action)
