"""What one player may see of the game.

`view(state, viewer)` is the state as JSON with what `viewer` may not see taken out:
the order of every stack and of the artifact pile (their sizes remain; what is left in
a stack, kind by kind, is public, since every token drawn was shown, l.66), and the
artifacts other players hold (only how many: "Nie pokazuj swojego artefaktu innym
graczom", l.160). `viewer=None` is a spectator. Once the game is over nothing is secret.
Each piece says whether it wears the Cloak; `to_act` names the seat awaited, and
`scores` what each room would give now.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from cave_troll.board import load_board
from cave_troll.content import KINDS
from cave_troll.scoring import room_score
from cave_troll.state import State
from cave_troll.turns import moment, to_act


def view(state: State, viewer: int | None) -> dict[str, Any]:
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
