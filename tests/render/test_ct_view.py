"""Cave Troll's typed view (`cave_troll.view.CaveView`) is the JSON the view always was:
the state's JSON with the seed out, the stacks and the pile as sizes, other players'
artifacts as their number, the same keys in the same order. The images read it."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from cave_troll import CaveView, make_config
from cave_troll.board import load_board
from cave_troll.content import KINDS
from cave_troll.scoring import room_score
from cave_troll.selfplay import play_game
from cave_troll.state import State
from cave_troll.turns import moment, to_act
from cave_troll.view import view


def _as_it_was(state: State, viewer: int | None) -> dict[str, Any]:
    """The view as the state's JSON with what `viewer` may not see taken out (what
    `view` returned before its result was typed)."""
    data = state.to_json()
    data.pop("seed")
    over = state.phase == "over"
    data["artifact_pile"] = len(state.artifact_pile)
    for player, pdata in zip(state.players, data["players"], strict=True):
        left = Counter(player.stack)
        pdata["stack"] = len(player.stack)
        pdata["stack_left"] = {k: left[k] for k in KINDS if left[k]}
        if player.seat != viewer and not over:
            pdata["artifacts"] = len(player.artifacts)
    for pdata in data["pieces"]:
        pdata["cloaked"] = state.turn is not None and pdata["id"] in state.turn.cloaked
    data["viewer"] = viewer
    data["to_act"] = list(to_act(state))
    data["moment"] = moment(state, viewer) if viewer is not None else None
    data["round"] = state.turns // state.n + 1
    rooms = {}
    for room in load_board().rooms:
        seat, gold = room_score(state, room)
        if seat is not None:
            rooms[room] = {"colour": state.colour(seat), "gold": gold}
    data["rooms"] = rooms
    return data


def test_the_typed_view_is_the_json_it_always_was() -> None:
    states: list[State] = []

    def keep(state: State, seat: int, action: object, fx: object) -> None:
        cloaked = state.turn is not None and bool(state.turn.cloaked)
        if state.flight is not None or cloaked or state.n_actions % 9 == 0:
            states.append(state.clone())

    played = play_game(make_config(players=3), 23, on_action=keep)
    states.append(played.state)
    assert any(s.flight for s in states) and any(s.turn and s.turn.cloaked for s in states)
    for state in states:
        for viewer in (None, 0, 1, 2):
            seen: CaveView = view(state, viewer)
            assert json.dumps(seen) == json.dumps(_as_it_was(state, viewer)), viewer
