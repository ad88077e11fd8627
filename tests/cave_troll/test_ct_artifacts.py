"""The artifacts (l.90-92, l.164-188), each test quoting the line it enforces."""

from __future__ import annotations

from ct_helpers import at, in_place, played, quotes, refused, scene, seat

from cave_troll.actions import Draw, EndTurn, PlayWand
from cave_troll.effects import RoomScore, Scored
from cave_troll.legal import legal_actions
from cave_troll.scoring import final_outcome, room_score


@quotes(58, "Zagraj artefakt")
@quotes(
    92,
    "Jeśli posiadasz żeton artefaktu, możesz wykorzystać jedną akcję aby zagrać jego"
    " specjalną zdolność, po czym go odrzucić.",
)
def test_an_artifact_costs_one_action_and_is_discarded_once_played() -> None:
    game = scene(pieces=[("blue", "explorer", "A4")], artifacts={"blue": ["wand", "wand"]})
    played(game, "blue", "play wand A4")
    assert game.state.players[0].artifacts == ["wand"]
    assert game.state.spent_artifacts == ["wand"]
    assert game.state.turn is not None and game.state.turn.actions_left == 3
    refused(game, "blue", "play sword A4", "no_artifact")


def test_artifacts_are_played_only_in_your_own_turn() -> None:
    """l.160 "Możesz zagrywać artefakty podczas swojej tury"."""
    game = scene(pieces=[("orange", "explorer", "A4")], artifacts={"orange": ["wand"]})
    refused(game, "orange", PlayWand("A4"), "not_your_turn")


@quotes(
    168,
    "przesun jednego z poszukiwaczy przygód bądź potworów przeciwnika (ale nie Jaskiniowego"
    " Trolla) maksymalnie do trzech pomieszczeń lub wejść",
)
def test_the_helm_moves_an_opponents_piece_up_to_three_steps() -> None:
    game = scene(
        pieces=[
            ("orange", "dwarf", "A7"),
            ("orange", "troll", "B4"),
            ("blue", "explorer", "A7"),
            ("orange", "orc", "NE"),
        ],
        artifacts={"blue": ["helm", "helm"]},
    )
    helms = {str(a) for a in legal_actions(game.state, 0, "play")}
    assert "play helm orange-dwarf@A7 A4>A1>NW" in helms
    assert "play helm orange-dwarf@A7 A4" in helms
    assert not any("troll" in h or "blue-" in h for h in helms)
    refused(game, "blue", "play helm orange-troll@B4 B1", "helm_troll")
    refused(game, "blue", "play helm blue-explorer@A7 A4", "helm_own")
    refused(game, "blue", "play helm orange-dwarf@A7 pit", "pit")
    refused(game, "blue", "play helm orange-dwarf@A7 A4>A7", "loop")
    refused(game, "blue", "play helm orange-dwarf@A7 A4>A1>NW>NE", "long_path")
    played(game, "blue", "play helm orange-dwarf@A7 A4>A1>NW")
    assert at(game, "orange", "dwarf") == ["NW"]


@quotes(168, "Upiory przesuwane w ten sposób nie „przepychają” postaci w pokojach")
def test_a_wraith_moved_by_the_helm_pushes_nobody_nor_enters_a_full_room() -> None:
    five = [("blue", "explorer", "A7")] * 5
    game = scene(pieces=[*five, ("orange", "wraith", "A4")], artifacts={"blue": ["helm"]})
    refused(game, "blue", "play helm orange-wraith@A4 A7", "full")
    played(game, "blue", "play helm orange-wraith@A4 A1")
    assert game.state.turn is not None and game.state.turn.must_push is None


@quotes(
    172,
    "wybierz jedno pomieszczenie bądź wejście. Przesun *każdego* ze swoich poszukiwaczy"
    " przygód z tego pomieszczenia do dowolnego innego pomieszczenia bądź wejścia, które"
    " nie jest zajmowane przez Jaskiniowego Trolla bądź Rycerza przeciwnika (możesz"
    " przesunąć postacie do różnych lokacji).",
)
def test_the_chalice_sends_each_of_your_adventurers_anywhere_one_by_one() -> None:
    game = scene(
        pieces=[
            ("blue", "explorer", "A1"),
            ("blue", "knight", "A1"),
            ("blue", "orc", "A1"),
            ("orange", "explorer", "A1"),
            ("orange", "troll", "C5"),
            ("orange", "knight", "C4"),
        ],
        artifacts={"blue": ["chalice"]},
    )
    refused(game, "blue", "play chalice A2", "no_adventurer")
    played(game, "blue", "play chalice A1")
    sends = {str(a) for a in legal_actions(game.state, 0)}
    assert {a.split()[0] for a in sends} == {"send"}
    assert "send explorer@A1 C7" in sends and "send knight@A1 C4" in sends
    assert "send explorer@A1 C5" not in sends and "send explorer@A1 C4" not in sends
    assert "send explorer@A1 A1" not in sends and "send explorer@A1 pit" not in sends
    refused(game, "blue", "send explorer@A1 C5", "troll_room")
    refused(game, "blue", "send explorer@A1 C4", "knight_room")
    refused(game, "blue", "send orc@A1 C7", "send_monster")
    refused(game, "blue", EndTurn(), "chalice")
    played(game, "blue", "send explorer@A1 C7")
    assert game.state.turn is not None and game.state.turn.chalice == "A1"
    played(game, "blue", "send knight@A1 SE")
    assert game.state.turn.chalice is None
    assert in_place(game, "A1") == [("blue", "orc"), ("orange", "explorer")]
    assert game.state.turn.actions_left == 3


@quotes(
    176,
    "umieść ten artefakt w pomieszczeniu, w którym nie ma innych żetonów. Do końca gry,"
    " poszukiwacze przygód i potwory nie mogą wejść do tego pomieszczenia oraz nie mogą być"
    " w nim zagrywane żetony „Skarbu”.",
)
def test_the_mark_closes_an_empty_room_for_the_rest_of_the_game() -> None:
    game = scene(
        pieces=[
            ("blue", "explorer", "A1"),
            ("orange", "orc", "A4"),
            ("blue", "thief", "NE"),
            ("orange", "orc", "B6"),
        ],
        treasures=[("orange", "A5")],
        artifacts={"blue": ["eldarra", "eldarra"]},
        stacks={"blue": ["explorer", "treasure"]},
    )
    marks = {str(a) for a in legal_actions(game.state, 0, "play")}
    assert "play eldarra A7" in marks
    assert not {"play eldarra A4", "play eldarra A5", "play eldarra A1"} & marks
    refused(game, "blue", "play eldarra A4", "not_empty")
    refused(game, "blue", "play eldarra A5", "not_empty")
    played(game, "blue", "play eldarra A2")
    assert game.state.players[0].artifacts == ["eldarra"]
    assert game.state.spent_artifacts == []  # it lies on the board
    refused(game, "blue", "move explorer@A1 A2", "marked")
    refused(game, "blue", "move thief@NE A2", "marked")
    refused(game, "blue", "play eldarra A2", "not_empty")
    played(game, "blue", Draw())
    refused(game, "blue", "place A2", "marked")
    played(game, "blue", "place A3", EndTurn())
    refused(game, "orange", "move orc@B6 A2", "marked")


@quotes(
    176,
    "Kiedy punktacja na planszy będzie policzana, możesz policzyć sobie złoto za to pomieszczenie.",
)
@quotes(
    180,
    "Przelicz punkty za jedno pomieszczenie tak, jakbyś właśnie wyciągnął żeton „Przelicz łupy!”.",
)
def test_the_marks_room_scores_for_its_player_and_the_wand_counts_one_room() -> None:
    game = scene(
        marks=[("orange", "A5")],
        pieces=[("blue", "explorer", "A7"), ("blue", "dwarf", "A4"), ("orange", "explorer", "A4")],
        artifacts={"blue": ["wand", "wand"]},
        stacks={"blue": ["explorer", "tally"]},
    )
    assert room_score(game.state, "A5") == (1, 4)
    fx = game.play(0, "play wand A7")
    assert Scored(room="A7", rooms=(RoomScore(room="A7", colour="blue", gold=5),)) in fx
    assert [p.gold for p in game.state.players] == [5, 0]
    played(game, "blue", "play wand A4")  # a tie: nobody gains
    assert [p.gold for p in game.state.players] == [5, 0]
    played(game, "blue", Draw())
    assert [p.gold for p in game.state.players] == [10, 4]


@quotes(
    184,
    "wybierz jednego ze swoich poszukiwaczy przygód. Do końca tury, poszukiwacz ten może"
    " poruszać się o *dwa* pola w *jednej* akcji, oraz może wchodzić do pomieszczeń"
    " zajmowanych przez Jaskiniowe Trolle lub Rycerzy przeciwnika.",
)
def test_the_cloak_moves_two_steps_and_into_troll_and_knight_rooms() -> None:
    game = scene(
        pieces=[
            ("blue", "explorer", "A1"),
            ("orange", "knight", "A4"),
            ("orange", "troll", "A2"),
            ("blue", "orc", "A3"),
        ],
        artifacts={"blue": ["cloak"]},
    )
    refused(game, "blue", "play cloak orc@A3", "cloak_monster")
    played(game, "blue", "play cloak explorer@A1")
    moves = {str(a) for a in legal_actions(game.state, 0, "move")}
    assert {"move explorer*@A1 A4", "move explorer*@A1 A4>A7", "move explorer*@A1 A2>A5"} <= moves
    refused(game, "blue", "move orc@A3 A4", "knight_room")  # the Cloak is the explorer's
    played(game, "blue", "move explorer*@A1 A4>A7")
    assert at(game, "blue", "explorer") == ["A7"]
    played(game, "blue", EndTurn())
    refused(game, "orange", "move explorer*@A7 A4", "no_such_piece")  # not theirs


@quotes(
    184,
    "Jeśli jednak ten poszukiwacz znajdzie się w pomieszczeniu z Jaskiniowym Trollem na"
    " końcu tury, jego żeton jest odrzucany.",
)
def test_a_cloaked_adventurer_left_with_a_troll_at_the_end_of_the_turn_is_discarded() -> None:
    game = scene(
        pieces=[("blue", "dwarf", "A1"), ("orange", "troll", "A2"), ("orange", "knight", "A4")],
        artifacts={"blue": ["cloak", "cloak"]},
    )
    played(game, "blue", "play cloak dwarf@A1", "move dwarf*@A1 A2")
    assert at(game, "blue", "dwarf") == ["A2"]
    played(game, "blue", "move dwarf*@A2 A1", "move dwarf*@A1 A4")
    played(game, "blue", EndTurn())  # with a Knight: it stays
    assert at(game, "blue", "dwarf") == ["A4"]
    game = scene(
        pieces=[("blue", "dwarf", "A1"), ("orange", "troll", "A2")],
        artifacts={"blue": ["cloak"]},
    )
    played(game, "blue", "play cloak dwarf@A1", "move dwarf*@A1 A2", EndTurn())
    assert at(game, "blue", "dwarf") == [] and game.state.out[-1].kind == "dwarf"


@quotes(
    188,
    "wybierz pomieszczenie, w którym znajduje się przynajmniej jeden twój poszukiwacz"
    " przygód i przynajmniej jeden Ork. Wszystkie Orki w tym pomieszczeniu są odrzucane.",
)
def test_the_sword_discards_every_orc_where_you_have_an_adventurer() -> None:
    game = scene(
        pieces=[
            ("blue", "explorer", "A4"),
            ("orange", "orc", "A4"),
            ("blue", "orc", "A4"),
            ("orange", "orc", "A7"),
            ("blue", "explorer", "NW"),
            ("orange", "orc", "NW"),
        ],
        artifacts={"blue": ["sword"]},
    )
    assert [str(a) for a in legal_actions(game.state, 0, "play")] == ["play sword A4"]
    refused(game, "blue", "play sword A7", "sword_alone")
    refused(game, "blue", "play sword A1", "sword_alone")
    refused(game, "blue", "play sword NW", "not_a_room")  # a room, as written
    played(game, "blue", "play sword A4")
    assert in_place(game, "A4") == [("blue", "explorer")]


@quotes(168, "Jeśli nie zostanie zagrany, artefakt ten jest wart 3 szt. złota pod koniec gry.")
@quotes(176, "Jeśli nie zostanie zagrany, artefakt ten jest wart 4 szt. złota pod koniec gry.")
@quotes(180, "Jeśli nie zostanie zagrany, artefakt ten jest wart 3 złota pod koniec gry.")
@quotes(184, "Jeśli nie zostanie zagrany, artefakt ten jest wart 2 szt. złota pod koniec gry.")
def test_each_artifact_kept_is_worth_its_gold_at_the_end() -> None:
    kept = ["helm", "chalice", "eldarra", "wand", "cloak", "sword"]
    game = scene(stacks={"blue": ["tally"]}, artifacts={"orange": kept})
    game.play(seat("blue"), Draw())
    assert final_outcome(game.state).results[1].artifacts == 3 + 3 + 4 + 3 + 2 + 3
