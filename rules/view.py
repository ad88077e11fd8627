"""What one player may see of the game.

`view(state, viewer)` is the state as JSON with hidden things removed: the order of
every deck and of the pedestal bag (only their sizes and, for the bag, its clans remain,
since a level-3 recruit may look inside), other players' starting-troll hands and
decks, and the values of pedestal point tokens other players hold face down.
`viewer=None` is a spectator. Each board piece also says who owns it now (`owner`:
a seat, or None for a piece cut off from every gate).

The starting-troll draft is secret until everyone has kept their trolls: while it runs,
another player's pyramid is empty in the view (`"secret": true`) and another account's
storage (which the keeps fill) is empty too. `told_to` is the same rule for the stories
of past actions: what `/mk log` and "since your last turn" may tell a viewer.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from rules.scoring import current_scores, piece_owners
from rules.state import State
from rules.steps import seats_to_act
from rules.story import Kept, Story, revealed_keep


def view(state: State, viewer: int | None) -> dict[str, Any]:
    data = state.to_json()
    data.pop("seed")
    data["decks"] = [len(deck) for deck in state.decks]
    data["spell_deck"] = len(state.spell_deck)
    data["bag"] = dict(sorted(Counter(state.bag).items()))
    viewer_account = None if viewer is None else state.players[viewer].account
    drafting = in_secret_draft(state)
    for p, pdata in zip(state.players, data["players"], strict=True):
        pdata["draft_deck"] = len(p.draft_deck)
        pdata["secret"] = drafting and p.seat != viewer
        if p.seat != viewer:
            pdata["draft_hand"] = len(p.draft_hand)
        if pdata["secret"]:
            pdata["pyramid"] = {}
    for index, adata in enumerate(data["accounts"]):
        if index != viewer_account:
            adata["tokens"] = [
                {"tier": t["tier"], "clan": t["clan"], "value": None} for t in adata["tokens"]
            ]
            if drafting:
                adata["storage"] = {}
    owners = piece_owners(state)
    for pdata in data["board"]["pieces"]:
        pdata["owner"] = owners[pdata["id"]]
    data["viewer"] = viewer
    data["to_act"] = seats_to_act(state)
    data["scores"] = current_scores(state)
    return data


def in_secret_draft(state: State) -> bool:
    """Whether the starting-troll draft is running (each player's keeps are theirs alone
    until everyone has kept)."""
    return state.phase == "draft"


def told_to(state: State, viewer: int | None, seat: int, story: Story) -> Story | None:
    """The story of `seat`'s past action as `viewer` (None: anyone) may hear it with the
    game at `state`: None while it is another player's keep in the running draft; a keep
    in the reveal's words once the draft is over, or to the player who kept it; any
    other story as it was told."""
    if not isinstance(story, Kept):
        return story
    if in_secret_draft(state) and seat != viewer:
        return None
    return revealed_keep(story)


def played_in_secret(story: Story) -> bool:
    """Whether the action was played in the secret draft: the draft's keeps are told
    together, as one turn of the whole table, once it is over."""
    return isinstance(story, Kept)
