"""The checked path around the rules: undo within a turn up to the last draw, replay
from (config, seed, actions), records bounded before they are read, views that hide
each player's artifacts and every stack's order, and stories told from the position
before each action."""

from __future__ import annotations

import json

import pytest
from ct_helpers import played, scene, seat

from cave_troll.actions import Draw, EndTurn, parse_action
from cave_troll.errors import CaveTrollError, RecordError, UndoError
from cave_troll.game import (
    MAX_RECORD_BYTES,
    Game,
    ReplayError,
    game_from_record,
    record_from_bytes,
)
from cave_troll.selfplay import play_game
from cave_troll.state import State, make_config
from cave_troll.story import describe, read_story
from cave_troll.view import view


def _first_turn_with_a_draw(players: int = 3, seed: int = 4) -> Game:
    """A game at the start of a turn of four actions, its player's top token an
    adventurer."""
    game = Game.new(players=players, seed=seed)
    while game.state.turns < players or game.state.players[game.to_act[0]].stack[-1] not in (
        "explorer",
        "knight",
        "dwarf",
        "barbarian",
        "thief",
    ):
        game.play(game.to_act[0], EndTurn())
    return game


def test_undo_takes_back_actions_of_this_turn_but_never_a_draw() -> None:
    game = _first_turn_with_a_draw()
    me = game.to_act[0]
    played_before = game.state.to_json()
    game.play(me, Draw())
    assert not game.can_undo(me)
    with pytest.raises(UndoError):
        game.undo(me)
    after_draw = game.state.to_json()
    game.play(me, "place NW")
    piece = next(p for p in game.state.pieces if p.owner == me)
    game.play(me, f"move {piece.kind}@NW NE")
    assert game.can_undo(me)
    game.undo(me)
    game.undo(me)
    assert game.state.to_json() == after_draw  # back to the placing, the token shown
    assert not game.can_undo(me)
    assert played_before != after_draw


def test_undo_is_only_for_the_seat_awaited_and_its_own_last_action() -> None:
    game = _first_turn_with_a_draw()
    me = game.to_act[0]
    other = (me + 1) % 3
    assert not game.can_undo(other)
    game.play(me, EndTurn())
    assert not game.can_undo(me)  # the turn passed
    assert not game.can_undo(other)  # not theirs


def test_undo_stops_where_another_player_answered_a_troll_flight() -> None:
    game = scene(
        stacks={"blue": ["explorer", "troll"]},
        pieces=[("orange", "explorer", "A4"), ("orange", "dwarf", "A4")],
    )
    played(game, "blue", Draw(), "place A4")
    assert not game.can_undo(seat("blue")) and not game.can_undo(seat("orange"))
    played(game, "orange", "flee explorer@A4 A7")
    assert game.can_undo(seat("orange"))  # its own answer, while still awaited
    played(game, "orange", "stay")
    assert game.to_act == (seat("blue"),)
    assert not game.can_undo(seat("blue")) and not game.can_undo(seat("orange"))


def test_a_game_replays_from_config_seed_and_actions() -> None:
    game = play_game(make_config(players=4), 11)
    record = json.loads(game.record_json())
    assert record["game"] == "cave-troll" and record["seed"] == 11
    again = game_from_record(record)
    assert again.state.to_json() == game.state.to_json()
    trusted = Game.replay_trusted(game.config, game.seed, game.moves)
    assert trusted.state.to_json() == game.state.to_json()
    assert State.from_json(json.loads(json.dumps(game.state.to_json()))) == game.state
    assert game.state.clone() == game.state


def test_a_record_with_an_illegal_action_names_its_index_and_reason() -> None:
    game = play_game(make_config(players=2), 3)
    record = game.record()
    index = next(i for i, a in enumerate(record["actions"]) if a.endswith(" end"))
    colour = record["actions"][index].split()[0]
    record["actions"][index] = f"{colour} move knight@A1 Z9"
    with pytest.raises(ReplayError) as info:
        game_from_record(record)
    assert info.value.index == index
    record["actions"][index] = f"{colour} play wand A1"
    with pytest.raises(ReplayError) as info:
        game_from_record(record)
    assert info.value.index == index and str(info.value.cause)


@pytest.mark.parametrize(
    "data",
    [
        b"x" * (MAX_RECORD_BYTES + 1),
        b"\xff\xfe",
        b"[" * 40 + b"]" * 40,
        b'{"seed": 1' + b"1" * 30 + b"}",
        b'{"seed": NaN}',
        b"{",
    ],
)
def test_records_are_bounded_before_they_are_read(data: bytes) -> None:
    with pytest.raises(RecordError):
        record_from_bytes(data)


@pytest.mark.parametrize(
    "record",
    [
        [],
        {"config": {}, "seed": 1},
        {"game": "mountain-king", "config": {"players": 2}, "seed": 1, "actions": []},
        {"config": {"players": 2}, "seed": True, "actions": []},
        {"config": {"players": 2}, "seed": 2**64, "actions": []},
        {"config": {"players": 2}, "seed": 1, "actions": {}},
        {"config": {"players": 9}, "seed": 1, "actions": []},
        {"config": {"players": 2}, "seed": 1, "actions": [3]},
        {"config": {"players": 2}, "seed": 1, "actions": ["red draw"]},
    ],
)
def test_bad_records_are_refused_with_a_reason(record: object) -> None:
    with pytest.raises(CaveTrollError) as info:
        game_from_record(record)
    assert info.value.message


def test_the_view_hides_artifacts_and_the_order_of_every_stack() -> None:
    game = scene(
        stacks={"blue": ["orc", "knight", "explorer"]},
        artifacts={"blue": ["wand"], "orange": ["helm", "sword"]},
        pile=["cloak", "chalice"],
    )
    mine = view(game.state, 0)
    assert mine["players"][0]["artifacts"] == ["wand"]
    assert mine["players"][1]["artifacts"] == 2
    assert mine["players"][0]["stack"] == 3
    assert mine["players"][0]["stack_left"] == {"knight": 1, "explorer": 1, "orc": 1}
    assert mine["artifact_pile"] == 2
    assert "seed" not in mine and "orc" not in json.dumps(mine["players"][0]["stack"])
    spectator = view(game.state, None)
    assert spectator["players"][0]["artifacts"] == 1 and spectator["moment"] is None
    assert mine["to_act"] == [0] and mine["moment"] == "turn"


def test_the_view_says_what_each_room_would_give_and_who_wears_the_cloak() -> None:
    game = scene(pieces=[("blue", "explorer", "A7")], artifacts={"blue": ["cloak"]})
    played(game, "blue", "play cloak explorer@A7")
    seen = view(game.state, 1)
    assert seen["rooms"] == {"A7": {"colour": "blue", "gold": 5}}
    assert [p["cloaked"] for p in seen["pieces"]] == [True]


def test_every_story_of_a_game_is_json_that_reads_back() -> None:
    game = play_game(make_config(players=3), 5)
    replay = Game(game.config, game.seed)
    kinds = set()
    for move in game.moves:
        story = describe(replay.state, move.seat, move.action)
        data = json.loads(json.dumps(story.to_json()))
        assert read_story(data) == story
        kinds.add(data["kind"])
        replay.play(move.seat, move.action)
    assert {"draw", "place", "move", "end"} <= kinds


def test_a_story_is_told_from_the_position_before_the_action() -> None:
    game = scene(
        pieces=[("blue", "knight", "A1"), ("orange", "orc", "A4"), ("blue", "orc", "A4")],
    )
    story = describe(game.state, 0, parse_action("move knight@A1 A4")).to_json()
    assert story["piece"] == {"colour": "blue", "kind": "knight"}
    assert story["start"] == "A1" and story["path"] == ["A4"]
    assert [(e["token"]["colour"], e["by"]) for e in story["effects"]] == [
        ("orange", "knight"),
        ("blue", "knight"),
    ]
    assert len(game.state.pieces) == 3  # telling changed nothing
