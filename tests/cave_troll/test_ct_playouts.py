"""Seeded random games of 2, 3 and 4 players to the end (40 seeds each), every
invariant checked after every action, and every record replayed, each action checked,
to the identical state. (`scripts/cave_troll_balance.py --check 500` plays 500 seeds.)"""

from __future__ import annotations

import json

import pytest
from ct_invariants import check_invariants, check_views

from cave_troll.actions import Action
from cave_troll.effects import Effect
from cave_troll.game import game_from_record
from cave_troll.selfplay import play_game
from cave_troll.state import State, make_config

SEEDS = 40


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_reach_the_end_and_replay_identically(players: int) -> None:
    config = make_config(players=players)
    kinds: set[str] = set()
    gold = [0] * players

    def check(state: State, seat: int, action: Action, fx: list[Effect]) -> None:
        check_invariants(state, gold)
        gold[:] = [p.gold for p in state.players]
        words = str(action).split()
        kinds.add(" ".join(words[:2]) if words[0] == "play" else words[0])

    for seed in range(SEEDS):
        gold[:] = [0] * players
        game = play_game(config, seed, on_action=check)
        assert game.state.phase == "over"
        if seed % 10 == 0:
            check_views(game.state)
        record = json.loads(game.record_json())
        replayed = game_from_record(record)
        assert replayed.state.to_json() == game.state.to_json(), seed
    assert kinds >= {"draw", "place", "move", "push", "kill", "flee", "end", "play wand"}
