"""Seeded random playouts to the end, with invariants checked after every action and
every record replayed to the identical state (the invariants: tests/invariants.py)."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from invariants import MODES, check_invariants

from rules.actions import Action
from rules.game import game_from_record
from rules.selfplay import play_random_game
from rules.state import GameConfig, State, make_config

GAMES_PER_MODE = 50


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("block", range(5))
def test_random_playouts_reach_the_end_and_replay_identically(mode: str, block: int) -> None:
    config = make_config(**MODES[mode])
    per_block = GAMES_PER_MODE // 5
    for seed in range(block * per_block, (block + 1) * per_block):
        seen: Counter[str] = Counter()

        def check(state: State, seat: int, action: Action, seen: Counter[str] = seen) -> None:
            seen[type(action).__name__] += 1
            check_invariants(state)

        game = play_random_game(config, seed, on_action=check)
        assert game.state.phase == "over"
        outcome = game.outcome
        assert outcome is not None
        for line, account in zip(outcome.breakdowns, game.state.accounts, strict=True):
            assert line.tunnels + line.spells == account.tunnel_honor + account.spell_honor
            assert line.total == sum(
                getattr(line, k)
                for k in (
                    "tunnels",
                    "spells",
                    "coronation",
                    "pedestals",
                    "sets",
                    "halls",
                    "statues",
                )
            )
        assert seen["Recruit"] > 0 and seen["EndTurn"] > 0
        # the record replays to the identical state
        record = json.loads(json.dumps(game.record()))
        replayed = game_from_record(record)
        assert replayed.state.to_json() == game.state.to_json()


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
