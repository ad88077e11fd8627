"""Moving (l.74-88), the adventurers' gifts (l.126-146) and the monsters' abilities
(l.112-124, the Troll's flight apart), each test quoting its line."""

from __future__ import annotations

from ct_helpers import at, in_place, played, quotes, refused, scene

from cave_troll.actions import Draw, EndTurn, Kill, Move, Push, Ref
from cave_troll.game import Game
from cave_troll.legal import legal_actions


def _moves(game: Game, seat: int = 0) -> list[str]:
    return [str(a) for a in legal_actions(game.state, seat, "move")]


@quotes(
    76,
    "możesz przesunąć *jeden* ze swoich żetonów poszukiwaczy przygód bądź potworów na"
    " dowolne sąsiadujące pomieszczenie lub wejście",
)
@quotes(78, "Poszukiwacze przygód i potwory mogą poruszać się tylko przechodząc przez drzwi.")
def test_a_move_takes_one_of_your_pieces_through_a_door() -> None:
    game = scene(pieces=[("blue", "explorer", "A1"), ("orange", "explorer", "A3")])
    assert _moves(game) == ["move explorer@A1 NW", "move explorer@A1 A2", "move explorer@A1 A4"]
    refused(game, "blue", "move explorer@A1 A3", "no_door")  # A1 and A3 touch at a corner only
    refused(game, "blue", "move explorer@A1 A4>A7", "one_step")
    refused(game, "blue", "move explorer@A3 A4", "no_such_piece")  # orange's
    played(game, "blue", "move explorer@A1 A4")
    assert at(game, "blue", "explorer") == ["A4"]


def test_a_piece_may_move_several_times_in_a_turn() -> None:
    """The text sets no limit per piece: each move is one action."""
    game = scene(pieces=[("blue", "explorer", "NW")])
    played(game, "blue", "move explorer@NW A1", "move explorer@A1 A4", "move explorer@A4 A7")
    assert at(game, "blue", "explorer") == ["A7"]


@quotes(
    80,
    "Poszukiwacze przygód i potwory znajdujące się w którymś z wejść mogą zostać przesunięci"
    " do dowolnego innego wejścia (uwaga: jama *nie* jest wejściem).",
)
def test_from_an_entrance_to_any_other_entrance_in_one_move() -> None:
    game = scene(pieces=[("blue", "knight", "NW"), ("blue", "orc", "A7")])
    moves = _moves(game)
    assert {"move knight@NW NE", "move knight@NW SE", "move knight@NW SW"} <= set(moves)
    played(game, "blue", "move knight@NW SE", "move orc@A7 pit")
    refused(game, "blue", "move orc@pit NW", "no_door")  # the pit is not an entrance


@quotes(
    82,
    "Poszukiwacze przygód i potwory *nie mogą* wejść do pokoju, który zawiera już dowolną"
    " kombinację **pięciu** poszukiwaczy/potworów",
)
@quotes(
    130, "Barbarzyńca i czterech innych poszukiwaczy przygód może zajmować jedno pomieszczenie."
)
def test_a_room_of_five_takes_nobody_more() -> None:
    five = [("orange", "barbarian", "A4"), ("blue", "orc", "A4"), ("orange", "explorer", "A4")]
    five += [("blue", "dwarf", "A4"), ("orange", "wraith", "A4")]
    game = scene(pieces=[*five, ("blue", "explorer", "A1"), ("blue", "orc", "A7")])
    error = refused(game, "blue", "move explorer@A1 A4", "full")
    assert error.message == "A4 already holds five adventurers and monsters."
    refused(game, "blue", "move orc@A7 A4", "full")
    game.state.pieces.pop(0)  # the Barbarian counts one: four now
    played(game, "blue", "move explorer@A1 A4")


def test_entrances_and_the_pit_hold_any_number() -> None:
    crowd = [("orange", "orc", "NE")] * 6 + [("orange", "orc", "pit")] * 6
    game = scene(pieces=[*crowd, ("blue", "wraith", "A7"), ("blue", "explorer", "NW")])
    played(game, "blue", "move wraith@A7 pit", "move explorer@NW NE")


@quotes(
    84,
    "Poszukiwacze przygód i potwory nie mogą wejść do pomieszczenia zajmowanego przez"
    " Jaskiniowego Trolla.",
)
@quotes(
    120,
    "Po zagranium, Jaskiniowy Troll nie może zostać przesunięty, a postacie oraz potwory nie"
    " mogą wchodzić do pomieszczenia przez niego zajmowanego.",
)
def test_nobody_enters_a_troll_room_and_a_troll_never_moves() -> None:
    game = scene(
        pieces=[
            ("orange", "troll", "A4"),
            ("blue", "troll", "A5"),
            ("blue", "knight", "A1"),
            ("blue", "orc", "A7"),
        ]
    )
    refused(game, "blue", "move knight@A1 A4", "troll_room")
    refused(game, "blue", "move orc@A7 A4", "troll_room")
    refused(game, "blue", "move troll@A5 A2", "troll_moves")
    assert not any("troll@" in m for m in _moves(game))


@quotes(
    86,
    "Poszukiwacze przygód i potwory *nie mogą* wejść do pomieszczenia zajmowanego przez"
    " Rycerza przeciwnika (nie dotyczy to twojego własnego Rycerza, jak opisano poniżej).",
)
@quotes(
    138,
    "kiedy Rycerz znajduje się w *pomieszczeniu*, żadna z postaci twoich przeciwników (poza"
    " ich Rycerzami) nie może wejść do tego pomieszczenia.",
)
@quotes(138, "Tylko Rycerze mogą wejść do pomieszczeń zajmowanych przez Rycerzy innych graczy.")
def test_an_opponents_knight_keeps_everyone_but_knights_out_of_a_room() -> None:
    game = scene(
        pieces=[
            ("orange", "knight", "A4"),
            ("blue", "knight", "A7"),
            ("blue", "explorer", "A1"),
            ("blue", "wraith", "A3"),
            ("orange", "explorer", "A5"),
        ]
    )
    error = refused(game, "blue", "move explorer@A1 A4", "knight_room")
    assert error.message == "Orange's Knight guards A4: only Knights may go in."
    refused(game, "blue", "move wraith@A3 A4", "knight_room")
    played(game, "blue", "move knight@A7 A4")  # a Knight may
    played(game, "blue", EndTurn())
    refused(game, "orange", "move explorer@A5 A4", "knight_room")  # blue's Knight is in
    own = scene(pieces=[("orange", "knight", "A4"), ("orange", "explorer", "A5")], to_move="orange")
    played(own, "orange", "move explorer@A5 A4")  # your own Knight never keeps you out


def test_a_knight_on_an_entrance_keeps_nobody_out() -> None:
    """l.138 "kiedy Rycerz znajduje się w *pomieszczeniu*": rooms only."""
    game = scene(pieces=[("orange", "knight", "NE"), ("blue", "explorer", "NW")])
    played(game, "blue", "move explorer@NW NE")


@quotes(
    138,
    "Jeśli twój Rycerz wejdzie do pomieszczenia zawierającego żetony postaci przeciwnika,"
    " żetony te mogą pozostać w pomieszczeniu.",
)
@quotes(
    138,
    "Jeśli Rycerz wejdzie do pomieszczenia *bądź wejścia* zajmowanego przez jednego lub"
    " więcej Orków są one automatycznie odrzucane (nawet jeśli Ork jest kontrolowany przez"
    " tego samego gracza).",
)
def test_a_knight_coming_in_discards_every_orc_there_even_its_own() -> None:
    game = scene(
        pieces=[
            ("blue", "knight", "A1"),
            ("orange", "orc", "A4"),
            ("blue", "orc", "A4"),
            ("orange", "explorer", "A4"),
            ("orange", "orc", "NE"),
        ],
        stacks={"blue": ["explorer", "knight"]},
    )
    played(game, "blue", "move knight@A1 A4")
    assert in_place(game, "A4") == [("blue", "knight"), ("orange", "explorer")]
    assert sorted((t.owner, t.kind) for t in game.state.out) == [(0, "orc"), (1, "orc")]
    played(game, "blue", Draw(), "place NE")  # coming in at an entrance too
    assert in_place(game, "NE") == [("blue", "knight")]


def test_an_orc_coming_to_a_knight_survives_and_may_kill_it() -> None:
    """Only the Knight's coming in discards Orcs (docs: "every arrival of a Knight")."""
    game = scene(pieces=[("orange", "knight", "NE"), ("blue", "orc", "NW")])
    played(game, "blue", "move orc@NW NE", "kill orange-knight@NE")
    assert at(game, "orange", "knight") == []


@quotes(88, "Poszukiwacze przygód *nie mogą* wejść do jamy.")
def test_no_adventurer_goes_into_the_pit() -> None:
    game = scene(pieces=[("blue", "explorer", "A7"), ("blue", "orc", "A7")])
    refused(game, "blue", "move explorer@A7 pit", "pit")
    played(game, "blue", "move orc@A7 pit")


@quotes(
    134,
    "wykorzystując jedną akcję, możesz przesunąć Złodzieja do dowolnego pomieszczenia bądź"
    " wejścia na planszy.",
)
@quotes(134, "Złodziej wchodzi do gry na wejściu tak jak każdy inny poszukiwacz przygód.")
def test_the_thief_goes_anywhere_in_one_action_but_comes_in_at_an_entrance() -> None:
    game = scene(
        pieces=[("blue", "thief", "NW"), ("orange", "knight", "C4")],
        stacks={"blue": ["explorer", "thief"]},
    )
    moves = _moves(game)
    assert "move thief@NW C7" in moves and "move thief@NW SE" in moves
    assert "move thief@NW C4" not in moves and "move thief@NW pit" not in moves
    refused(game, "blue", "move thief@NW C4", "knight_room")  # the entry rules still hold
    refused(game, "blue", "move thief@NW pit", "pit")
    refused(game, "blue", "move thief@NW A1>A4", "thief_path")
    played(game, "blue", "move thief@NW C7")
    played(game, "blue", Draw())
    refused(game, "blue", "place C7", "place_entrance")


# --- monsters (l.116, l.124) ---------------------------------------------------------


@quotes(
    124,
    "jeśli twój Ork znajduje się w pomieszczeniu lub wejściu zajmowanym przez poszukiwacza"
    " przygód, możesz wykorzystać jedną akcję, aby odrzucić tego poszukiwacza.",
)
def test_an_orc_discards_an_adventurer_in_its_room_or_entrance() -> None:
    game = scene(
        pieces=[
            ("blue", "orc", "NE"),
            ("orange", "dwarf", "NE"),
            ("blue", "orc", "A4"),
            ("orange", "knight", "A4"),
            ("orange", "orc", "A4"),
            ("orange", "explorer", "A7"),
        ]
    )
    kills = [str(a) for a in legal_actions(game.state, 0, "kill")]
    assert kills == ["kill orange-dwarf@NE", "kill orange-knight@A4"]
    refused(game, "blue", "kill orange-orc@A4", "kill_monster")
    refused(game, "blue", "kill orange-explorer@A7", "no_orc")
    played(game, "blue", "kill orange-dwarf@NE", "kill orange-knight@A4")
    assert game.state.turn is not None and game.state.turn.actions_left == 2


def test_an_orc_may_discard_its_own_players_adventurer() -> None:
    """l.124 sets no owner: any adventurer (docs)."""
    game = scene(pieces=[("blue", "orc", "A4"), ("blue", "explorer", "A4")])
    played(game, "blue", Kill(Ref("explorer", "A4", colour="blue")))
    assert at(game, "blue", "explorer") == []


@quotes(
    116,
    "jeśli twój Upiór znajdzie się w jednym pomieszczeniu z innym poszukiwaczem, możesz"
    " wykorzystać jedną akcję, aby wypchnąć go przez drzwi do sąsiadującego pomieszczenia"
    " lub wejścia.",
)
def test_a_wraith_pushes_an_adventurer_through_a_door() -> None:
    game = scene(
        pieces=[("blue", "wraith", "A4"), ("orange", "explorer", "A4"), ("orange", "orc", "A4")]
    )
    pushes = [str(a) for a in legal_actions(game.state, 0, "push")]
    assert pushes == [f"push orange-explorer@A4 {r}" for r in ("A1", "A3", "A5", "A7")]
    refused(game, "blue", "push orange-explorer@A4 A2", "no_door")
    refused(game, "blue", "push orange-orc@A4 A7", "push_monster")
    played(game, "blue", "push orange-explorer@A4 A1")
    assert at(game, "orange", "explorer") == ["A1"]
    refused(game, "blue", "push orange-explorer@A1 NW", "no_wraith")
    to_entrance = scene(pieces=[("blue", "wraith", "A1"), ("orange", "explorer", "A1")])
    played(to_entrance, "blue", "push orange-explorer@A1 NW")


@quotes(
    116,
    "Postacie nie mogą być wypychane do pomieszczeń zajmowanych już przez dowolną"
    " kombinację pięciu żetonów poszukiwaczy i potworów, nie mogą też być przepychane z"
    " jednego wejścia do drugiego.",
)
@quotes(
    116,
    "Postacie nie mogą być wypychane do pomieszczeń zawierających Jaskiniowego Trolla lub"
    " Rycerza przeciwnika.",
)
def test_no_push_into_a_full_troll_or_knight_room_nor_between_entrances() -> None:
    full = [("orange", "orc", "A1")] * 5
    game = scene(
        pieces=[
            *full,
            ("blue", "wraith", "A4"),
            ("orange", "explorer", "A4"),
            ("green", "troll", "A3"),
            ("blue", "knight", "A5"),
            ("blue", "wraith", "NE"),
            ("orange", "dwarf", "NE"),
        ],
        players=3,
    )
    refused(game, "blue", "push orange-explorer@A4 A1", "full")
    refused(game, "blue", "push orange-explorer@A4 A3", "troll_room")
    refused(game, "blue", "push orange-explorer@A4 A5", "knight_room")
    refused(game, "blue", "push orange-dwarf@NE NW", "push_entrances")
    played(game, "blue", "push orange-explorer@A4 A7", "push orange-dwarf@NE B1")


@quotes(130, "Barbarzyńca nie może być przepychany przez Upiora")
def test_a_barbarian_cannot_be_pushed() -> None:
    game = scene(pieces=[("blue", "wraith", "A4"), ("orange", "barbarian", "A4")])
    refused(game, "blue", "push orange-barbarian@A4 A1", "push_barbarian")
    assert legal_actions(game.state, 0, "push") == []


@quotes(
    116,
    "Upiór może wejść do pomieszczenia, które jest już zajmowane przez dowolną kombinację"
    " pięciu poszukiwaczy przygód i potworów (ale tylko wtedy, jeśli w kolejnej akcji w tej"
    " samej turze wypchnie poszukiwacza przygód do sąsiedniego pomieszczenia).",
)
def test_a_wraith_may_come_into_a_full_room_only_to_push_out_next() -> None:
    five = [("orange", "explorer", "A7")] * 3 + [("orange", "orc", "A7")] * 2
    game = scene(pieces=[*five, ("blue", "wraith", "A4")], actions=2)
    played(game, "blue", "move wraith@A4 A7")
    assert game.state.crowd("A7") == 6
    refused(game, "blue", EndTurn(), "must_push")
    refused(game, "blue", "move wraith@A7 A4", "must_push")
    assert {str(a).split()[0] for a in legal_actions(game.state, 0)} == {"push"}
    played(game, "blue", "push orange-explorer@A7 A6")
    assert game.state.crowd("A7") == 5
    assert legal_actions(game.state, 0) == [EndTurn()]


def test_a_wraith_stays_out_of_a_full_room_it_could_not_push_from() -> None:
    five = [("orange", "barbarian", "A7")] * 5
    game = scene(pieces=[*five, ("blue", "wraith", "A4")])
    refused(game, "blue", "move wraith@A4 A7", "wraith_full")  # barbarians only
    game = scene(pieces=[*[("orange", "explorer", "A7")] * 5, ("blue", "wraith", "A4")], actions=1)
    refused(game, "blue", "move wraith@A4 A7", "wraith_full")  # no action left to push
    game = scene(pieces=[*[("orange", "explorer", "A7")] * 5, ("blue", "orc", "A4")])
    refused(game, "blue", "move orc@A4 A7", "full")


def test_the_wraith_may_push_its_own_players_adventurer() -> None:
    """l.116 "z innym poszukiwaczem": any adventurer (docs)."""
    game = scene(pieces=[("blue", "wraith", "A4"), ("blue", "explorer", "A4")])
    played(game, "blue", Push(Ref("explorer", "A4", colour="blue"), "A7"))


def test_a_cloaked_piece_is_named_with_a_star() -> None:
    game = scene(pieces=[("blue", "explorer", "A1")] * 2, artifacts={"blue": ["cloak"] * 2})
    played(game, "blue", "play cloak explorer@A1")
    refused(game, "blue", "play cloak explorer*@A1", "cloaked")
    moves = _moves(game)
    assert "move explorer*@A1 A4>A7" in moves and "move explorer@A1 A4" in moves
    refused(game, "blue", Move(Ref("explorer", "A1"), ("A4", "A7")), "one_step")
