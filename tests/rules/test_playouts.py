"""Seeded random playouts to the end, with invariants checked after every action and
every record replayed to the identical state (the invariants: tests/invariants.py)."""

from __future__ import annotations

import json

import pytest
from invariants import MODES, checked_random_playout

from rules.actions import Action
from rules.selfplay import play_random_game
from rules.state import GameConfig, State, make_config
from scripts import playouts

# 20 seeds a table here (six tables: 120 games, about 30,000 actions each checked);
# `python -m scripts.playouts --games 500` plays the same checks over many more
GAMES_PER_MODE = 20


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("block", range(5))
def test_random_playouts_reach_the_end_and_replay_identically(mode: str, block: int) -> None:
    config = make_config(**MODES[mode])
    per_block = GAMES_PER_MODE // 5
    for seed in range(block * per_block, (block + 1) * per_block):
        checked_random_playout(config, seed)


def test_state_json_round_trip_is_unchanged_at_every_step() -> None:
    config = make_config(players=3)

    def check(state: State, seat: int, action: Action) -> None:
        data = json.loads(json.dumps(state.to_json()))
        assert State.from_json(data).to_json() == state.to_json()
        assert State.from_json(data) == state

    play_random_game(config, 11, on_action=check)


def test_same_config_seed_and_actions_give_the_same_state() -> None:
    config = GameConfig(players=5)
    a = play_random_game(config, 3)
    b = play_random_game(config, 3)
    assert a.record() == b.record()
    assert a.state.to_json() == b.state.to_json()
    c = play_random_game(config, 4)
    assert c.record() != a.record()


def test_the_playouts_script_plays_the_same_checks_and_says_what_it_played(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert playouts.main(["--games", "2", "--mode", "2p-winter", "--first", "7"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("2p-winter: 2 games to the end (seeds 7-8), ")
    assert "every record replayed to the same state" in out and "all held" in out
