"""The view's shape: `rules.view.view` builds its dicts itself (typed as `View`), and
they are the state's JSON with the hidden things removed, key for key and in the same
order, as the view was first defined; the TypedDicts name every key the view holds."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, get_args, get_origin, get_type_hints, is_typeddict

import pytest

from rules.game import Game
from rules.scoring import current_scores, piece_owners
from rules.selfplay import play_random_game
from rules.state import State, make_config
from rules.steps import seats_to_act
from rules.view import View, in_secret_draft, view


def _from_json(state: State, viewer: int | None) -> dict[str, Any]:
    """The view as the state's JSON, changed in place (its first definition)."""
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


def _positions(players: int, seed: int, **options: Any) -> list[State]:
    game = play_random_game(make_config(players=players, **options), seed)
    cuts = sorted({0, 1, 2, 5, 9, 14, *range(20, len(game.moves) + 1, 23), len(game.moves)})
    return [Game(game.config, game.seed, game.moves[:cut]).state for cut in cuts]


GAMES = [
    (2, 3, {}),
    (3, 8, {"workshops": "unique"}),
    (4, 5, {"teams": True}),
    (5, 2, {"colours": ("white", "green", "blue", "magenta", "orange")}),
]


@pytest.mark.parametrize(("players", "seed", "options"), GAMES)
def test_the_view_is_the_states_json_with_the_hidden_things_removed(
    players: int, seed: int, options: dict[str, Any]
) -> None:
    phases = set()
    for state in _positions(players, seed, **options):
        phases.add(state.phase)
        for viewer in (None, *range(players)):
            seen = view(state, viewer)
            # the same data, and the same text once written (the keys in the same order)
            assert json.dumps(seen) == json.dumps(_from_json(state, viewer))
    assert {"draft", "play", "over"} <= phases


def _keys_match(data: object, hint: object, where: str) -> None:
    """Every dict typed by a TypedDict has exactly its keys, all the way down."""
    if is_typeddict(hint):
        assert isinstance(data, dict), where
        hints = get_type_hints(hint)
        assert list(data) == list(hints), where
        for key, value in data.items():
            _keys_match(value, hints[key], f"{where}.{key}")
        return
    origin, args = get_origin(hint), get_args(hint)
    if origin is list and isinstance(data, list):
        for i, item in enumerate(data):
            _keys_match(item, args[0], f"{where}[{i}]")
    elif origin is dict and isinstance(data, dict):
        for key, item in data.items():
            _keys_match(item, args[1], f"{where}[{key!r}]")
    elif args:  # a union: the typed dicts or containers among its members
        for member in args:
            container = dict if is_typeddict(member) else get_origin(member)
            if container in (list, dict) and isinstance(data, container):
                _keys_match(data, member, where)


def test_the_typed_dicts_name_every_key_of_the_view() -> None:
    for state in _positions(4, 11, teams=True):
        for viewer in (None, 0, 2):
            _keys_match(view(state, viewer), View, "view")


def test_a_views_values_are_fresh_data() -> None:
    """Changing a view changes nothing of the state, nor of another view."""
    state = _positions(3, 4)[-1]
    before = state.to_json()
    seen = view(state, 0)
    seen["players"][0]["pyramid"].clear()
    seen["board"]["pieces"][0]["cells"].append("Z9")
    seen["accounts"][0]["storage"]["stone"] = 99
    seen["config"]["colours"].append("pink")
    assert state.to_json() == before
    assert json.dumps(view(state, 0)) == json.dumps(_from_json(state, 0))
