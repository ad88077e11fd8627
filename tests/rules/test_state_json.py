"""A state's JSON is what `dataclasses.asdict` makes of it (with the config dumped by
pydantic), built without asdict's deep copies: every stored action writes one, so the
fast way must give exactly the same value, and read back to the same state; the text
the store keeps is that value's JSON."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

import pytest

from bot.service.mountain_king import MOUNTAIN_KING
from rules import engine
from rules.game import Game
from rules.selfplay import play_random_game
from rules.state import State, make_config


def reference(state: State) -> dict[str, Any]:
    data = asdict(state)
    data["config"] = state.config.model_dump(mode="json")
    return data


@pytest.mark.parametrize(
    ("options", "seed"),
    [
        ({"players": 5}, 8),
        ({"players": 4, "teams": True}, 11),
    ],
)
def test_every_state_of_a_game_serialises_as_asdict_does(
    options: dict[str, Any], seed: int
) -> None:
    config = make_config(**options)
    record = play_random_game(config, seed)
    state = Game(config, seed).state
    for move in record.moves:
        engine.apply(state, move.seat, move.action)
        data = state.to_json()
        assert data == reference(state)
        assert list(data) == list(reference(state))  # the same key order: the same text
        assert State.from_json(json.loads(json.dumps(data))) == state
        # the text stored after every action (written by orjson) is the same, and reads
        # back to the same state
        text = MOUNTAIN_KING.state_to_json(state)
        assert text == json.dumps(reference(state), separators=(",", ":"))
        assert MOUNTAIN_KING.state_from_json(text) == state
