"""The Cave Troll (l.120): placed in any room, then Troll flight, the one decision taken
out of turn, then what stayed is discarded; and the default answer the table gives
for a player who does not answer."""

from __future__ import annotations

from ct_helpers import at, in_place, played, quotes, refused, scene, seat

from cave_troll.actions import Draw, EndTurn, Flee, Place, Ref, Stay
from cave_troll.defaults import default_answer
from cave_troll.effects import FlightBegins
from cave_troll.game import Game
from cave_troll.legal import legal_actions
from cave_troll.story import describe
from cave_troll.turns import to_act
from cave_troll.view import view


def _troll_drawn(pieces: list[tuple[str, str, str]]) -> Game:
    game = scene(players=3, stacks={"blue": ["explorer", "troll"]}, pieces=pieces)
    played(game, "blue", Draw())
    return game


@quotes(
    120,
    "kiedy dobierzesz Jaskiniowego Trolla, możesz położyć go w dowolnym pomieszczeniu,"
    " włącznie z tymi zajmowanymi przez Rycerzy, ale nie w jamie ani w wejściu.",
)
def test_a_troll_goes_in_any_room_even_a_knights_never_the_pit_or_an_entrance() -> None:
    game = _troll_drawn([("orange", "knight", "B4"), ("blue", "troll", "C4")])
    places = [str(a) for a in legal_actions(game.state, 0)]
    assert len(places) == 28 and "place B4" in places and "place C4" in places
    refused(game, "blue", Place("NW"), "place_room")
    refused(game, "blue", Place("pit"), "place_room")
    played(game, "blue", "place B4")
    assert in_place(game, "B4") == [("blue", "troll"), ("orange", "knight")]
    assert game.to_act == (seat("orange"),)


@quotes(
    120,
    "Zaczynając od przeciwnika po twojej lewej, każdy z graczy posiadający w tym"
    " pomieszczeniu poszukiwaczy przygód bądź potwory może je przesunąć do sąsiedniego"
    " pomieszczenia (jeśli jest to legalny ruch).",
)
def test_flight_asks_each_player_in_turn_from_the_placers_left_the_placer_last() -> None:
    game = scene(
        players=4,
        to_move="orange",
        stacks={"orange": ["explorer", "troll"]},
        pieces=[
            ("blue", "explorer", "A4"),
            ("orange", "dwarf", "A4"),
            ("magenta", "orc", "A4"),
            ("green", "knight", "A1"),
        ],
    )
    played(game, "orange", Draw())
    fx = game.play(seat("orange"), "place A4")
    assert FlightBegins(room="A4", colours=("magenta", "blue", "orange")) in fx
    assert to_act(game.state) == (seat("magenta"),)  # green has nothing there
    refused(game, "orange", EndTurn(), "not_your_turn")
    refused(game, "blue", "flee explorer@A4 A1", "not_your_turn")
    refused(game, "magenta", Draw(), "flight")
    assert view(game.state, seat("blue"))["to_act"] == [seat("magenta")]
    played(game, "magenta", "flee orc@A4 A7")
    assert to_act(game.state) == (seat("blue"),)  # magenta had nothing more to move
    refused(game, "blue", "flee explorer@A4 A1", "knight_room")  # green's Knight
    refused(game, "blue", "flee explorer@A4 A2", "no_door")
    played(game, "blue", "flee explorer@A4 A3")
    played(game, "orange", Stay())
    assert game.to_act == (seat("orange"),) and game.state.flight is None
    assert at(game, "orange", "dwarf") == []  # it stayed
    assert in_place(game, "A4") == [("orange", "troll")]
    assert game.state.turn is not None and game.state.turn.actions_left == 3


@quotes(
    120,
    "Wszystkie żetony, które pozostaną w pomieszczeniu (włącznie z żetonami „Skarbu” oraz"
    " artefaktami) zostają odrzucone.",
)
def test_what_stays_with_the_troll_is_discarded_treasure_and_mark_too() -> None:
    game = scene(
        stacks={"blue": ["explorer", "troll"]},
        pieces=[("orange", "barbarian", "A5"), ("orange", "explorer", "A5")],
        treasures=[("orange", "A5")],
    )
    played(game, "blue", Draw(), "place A5")
    assert game.to_act == (seat("orange"),)
    played(game, "orange", "flee explorer@A5 A4", Stay())
    assert in_place(game, "A5") == [("blue", "troll")]
    assert game.state.treasures == []
    assert sorted(t.kind for t in game.state.out) == ["barbarian", "treasure"]
    marked = scene(stacks={"blue": ["explorer", "troll"]}, marks=[("orange", "C5")])
    played(marked, "blue", Draw(), "place C5")
    assert marked.state.marks == [] and marked.state.spent_artifacts == ["eldarra"]


def test_a_flight_goes_by_doors_to_rooms_entrances_and_for_monsters_the_pit() -> None:
    """l.120 says "do sąsiedniego pomieszczenia (jeśli jest to legalny ruch)": any legal
    plain step, so an entrance by a door and the pit for a monster (docs)."""
    game = scene(
        stacks={"blue": ["explorer", "troll"]},
        pieces=[
            ("orange", "explorer", "A7"),
            ("orange", "wraith", "A7"),
            ("orange", "thief", "A1"),
        ],
    )
    played(game, "blue", Draw(), "place A7")
    flees = [str(a) for a in legal_actions(game.state, seat("orange"))]
    assert "flee wraith@A7 pit" in flees and "flee explorer@A7 pit" not in flees
    assert "flee explorer@A7 C4" not in flees  # no Thief's leap, no far places
    troll_at_a1 = scene(stacks={"blue": ["explorer", "troll"]}, pieces=[("orange", "thief", "A1")])
    played(troll_at_a1, "blue", Draw(), "place A1")
    assert "flee thief@A1 NW" in [str(a) for a in legal_actions(troll_at_a1.state, 1)]


def test_nobody_is_asked_when_nothing_could_flee() -> None:
    full = [("green", "orc", r) for r in ("A1", "A3", "A5", "A7") for _ in range(5)]
    game = scene(
        players=3,
        stacks={"blue": ["explorer", "troll"]},
        pieces=[*full, ("orange", "explorer", "A4")],
    )
    played(game, "blue", Draw())
    fx = game.play(0, "place A4")
    assert game.state.flight is None and game.to_act == (0,)
    assert at(game, "orange", "explorer") == []
    assert FlightBegins(room="A4", colours=("orange",)) in fx


def test_a_knight_fleeing_into_orcs_discards_them() -> None:
    game = scene(
        stacks={"blue": ["explorer", "troll"]},
        pieces=[("orange", "knight", "A4"), ("blue", "orc", "A1"), ("orange", "orc", "A1")],
    )
    played(game, "blue", Draw(), "place A4")
    played(game, "orange", "flee knight@A4 A1")
    assert in_place(game, "A1") == [("orange", "knight")]


def test_the_placers_own_pieces_flee_last() -> None:
    game = scene(
        players=3,
        stacks={"blue": ["explorer", "troll"]},
        pieces=[("blue", "dwarf", "A4"), ("green", "explorer", "A4")]
        + [("orange", "orc", "A1")] * 4,
    )
    played(game, "blue", Draw(), "place A4")
    played(game, "green", "flee explorer@A4 A1")  # the fifth in A1
    assert game.to_act == (0,)
    assert "flee dwarf@A4 A1" not in [str(a) for a in legal_actions(game.state, 0)]
    played(game, "blue", "flee dwarf@A4 A3")
    assert game.state.flight is None


def test_the_last_token_a_troll_ends_the_game_after_its_flight() -> None:
    game = scene(stacks={"blue": ["troll"]}, pieces=[("orange", "explorer", "A4")])
    played(game, "blue", Draw(), "place A4")
    assert game.state.phase == "play" and game.to_act == (1,)
    played(game, "orange", "flee explorer@A4 A7")
    assert game.state.phase == "over"


def test_the_default_answer_flees_every_piece_the_strongest_first_to_the_richest_room() -> None:
    game = scene(
        players=3,
        stacks={"blue": ["explorer", "troll"]},
        pieces=[
            ("orange", "explorer", "A4"),
            ("orange", "barbarian", "A4"),
            ("orange", "orc", "A4"),
            ("green", "explorer", "A4"),
        ]
        + [("green", "orc", "A7")] * 4,
    )
    played(game, "blue", Draw(), "place A4")
    answer = default_answer(game.state)
    assert [str(a) for a in answer] == [
        "flee barbarian@A4 A7",  # the richest room (5) takes a fifth piece
        "flee explorer@A4 A5",  # A7 is full now: the next richest
        "flee orc@A4 A5",
    ]
    for action in answer:
        game.play(seat("orange"), action)
    assert game.to_act == (seat("green"),)
    assert default_answer(scene().state) == []


def test_a_flight_is_told_from_the_position_before_it() -> None:
    game = scene(
        stacks={"blue": ["explorer", "troll"]},
        pieces=[("orange", "explorer", "A4"), ("orange", "dwarf", "A4")],
    )
    played(game, "blue", Draw(), "place A4")
    story = describe(game.state, 1, Flee(Ref("explorer", "A4"), "A7")).to_json()
    assert story["kind"] == "flee" and story["start"] == "A4" and story["to"] == "A7"
    played(game, "orange", "flee explorer@A4 A7")
    stayed = describe(game.state, 1, Stay()).to_json()
    assert stayed["pieces"] == [{"colour": "orange", "kind": "dwarf"}]
    assert [(e["effect"], e["token"]["kind"]) for e in stayed["effects"]][:1] == [
        ("discarded", "dwarf")
    ]
