"""What one player may see of the game.

`view(state, viewer)` is the state as JSON with hidden things removed: the order of
every deck and of the pedestal bag (only their sizes and, for the bag, its clans remain,
since a level-3 recruit may look inside), other players' starting-troll hands and
decks, and the values of pedestal point tokens other players hold face down.
`viewer=None` is a spectator. Each board piece also says who owns it now (`owner`:
a seat, or None for a piece cut off from every gate).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from rules.scoring import current_scores, piece_owners
from rules.state import State
from rules.steps import seats_to_act


def view(state: State, viewer: int | None) -> dict[str, Any]:
    data = state.to_json()
    data.pop("seed")
    data["decks"] = [len(deck) for deck in state.decks]
    data["spell_deck"] = len(state.spell_deck)
    data["bag"] = dict(sorted(Counter(state.bag).items()))
    viewer_account = None if viewer is None else state.players[viewer].account
    for p, pdata in zip(state.players, data["players"], strict=True):
        pdata["draft_deck"] = len(p.draft_deck)
        if p.seat != viewer:
            pdata["draft_hand"] = len(p.draft_hand)
    for index, adata in enumerate(data["accounts"]):
        if index != viewer_account:
            adata["tokens"] = [
                {"tier": t["tier"], "clan": t["clan"], "value": None} for t in adata["tokens"]
            ]
    owners = piece_owners(state)
    for pdata in data["board"]["pieces"]:
        pdata["owner"] = owners[pdata["id"]]
    data["viewer"] = viewer
    data["to_act"] = seats_to_act(state)
    data["scores"] = current_scores(state)
    return data
