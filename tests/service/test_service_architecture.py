"""The service and the store are the application layer: no Discord, no images."""

from __future__ import annotations

import subprocess
import sys

import pytest

FORBIDDEN = ("discord", "PIL", "render")


@pytest.mark.sqlite_only
def test_service_and_store_import_nothing_from_discord_or_render() -> None:
    code = "import sys, bot.service, bot.store;print('\\n'.join(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    top = {m.split(".")[0] for m in done.stdout.split()}
    for name in FORBIDDEN:
        assert name not in top, f"the service pulls in {name}"


@pytest.mark.sqlite_only
def test_mountain_king_satisfies_the_game_protocol() -> None:
    from bot.service import MOUNTAIN_KING, GameRules
    from rules.actions import Action
    from rules.state import State

    # the annotation is the check: mypy --strict verifies the adapter fits the protocol
    rules: GameRules[State, Action] = MOUNTAIN_KING
    assert rules.name == "mountain-king"
    config = rules.make_config({"players": 2})
    state = rules.new_state(config, 1)
    assert rules.phase(state) == "gates" and rules.to_act(state) == (0,)  # the first gate
    assert rules.seat_labels(config) == ("blue", "orange")
    assert rules.state_from_json(rules.state_to_json(state)) == state
