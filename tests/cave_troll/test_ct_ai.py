"""The Delver (cave_troll.ai): legal and purposeful, deterministic for a seed."""

from __future__ import annotations

import random

import pytest
from ct_helpers import scene

from cave_troll.actions import Draw
from cave_troll.ai import choose_action
from cave_troll.errors import IllegalActionError
from cave_troll.game import game_from_record
from cave_troll.legal import legal_actions
from cave_troll.scoring import final_outcome
from cave_troll.selfplay import play_game
from cave_troll.state import make_config


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_delver_plays_whole_legal_games(players: int) -> None:
    game = play_game(make_config(players=players), 1, "delver")
    assert game.state.phase == "over"
    # every action it chose was legal: the record replays on the checked path
    assert game_from_record(game.record()).state.to_json() == game.state.to_json()


def test_the_delver_is_deterministic_for_a_seed() -> None:
    a = play_game(make_config(players=3), 5, "delver")
    b = play_game(make_config(players=3), 5, "delver")
    assert a.record() == b.record()


def test_the_delver_beats_random_players() -> None:
    wins = 0
    for seed in range(6):
        game = play_game(make_config(players=2), seed, ["delver", "random"])
        wins += 0 in final_outcome(game.state).winning_seats
    assert wins >= 5


def test_the_delver_takes_a_rich_room_and_kills_what_it_can() -> None:
    rng = random.Random(1)
    game = scene(pieces=[("blue", "explorer", "A1")], actions=1)
    assert str(choose_action(game.state, 0, rng)) == "move explorer@A1 A4"  # 3 gold, not 1
    game = scene(pieces=[("blue", "orc", "A4"), ("orange", "explorer", "A4")])
    assert str(choose_action(game.state, 0, rng)) == "kill orange-explorer@A4"


def test_the_delver_does_not_end_a_game_it_would_lose() -> None:
    rng = random.Random(1)
    game = scene(pieces=[("orange", "explorer", "A7")], stacks={"blue": ["explorer"]})
    assert choose_action(game.state, 0, rng) != Draw()
    game = scene(pieces=[("blue", "explorer", "A7")], stacks={"blue": ["explorer"]})
    assert choose_action(game.state, 0, rng) == Draw()


def test_the_delver_answers_only_when_awaited() -> None:
    game = scene()
    with pytest.raises(IllegalActionError):
        choose_action(game.state, 1, random.Random(1))
    assert choose_action(game.state, 0, random.Random(1)) in legal_actions(game.state, 0)
