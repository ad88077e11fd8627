"""Drawing a token (l.64-72), the events (l.148-162), counting the loot (l.98-100,
l.130, l.142, l.146) and the end of the game (l.102-110), each test quoting its line."""

from __future__ import annotations

from ct_helpers import at, played, quotes, refused, scene, seat

from cave_troll.actions import Draw, EndTurn, Place
from cave_troll.effects import Found, GameOver, Scored
from cave_troll.legal import legal_actions
from cave_troll.scoring import final_outcome, room_score
from cave_troll.story import describe, told_to


@quotes(
    66,
    "możesz losowo dobrać jeden ze swoich żetonów gry, odkryć go, a następnie wstawić do"
    " gry lub wykonać jego efekt",
)
def test_a_draw_takes_the_top_of_your_stack_and_shows_it() -> None:
    game = scene(stacks={"blue": ["orc", "explorer", "knight"]})
    story = describe(game.state, 0, Draw())
    assert story.to_json()["token"] == "knight"
    played(game, "blue", Draw())
    assert game.state.players[0].stack == ["orc", "explorer"]
    assert game.state.turn is not None and game.state.turn.placing == "knight"
    assert game.state.turn.actions_left == 3


@quotes(
    68,
    "musisz wstawić go do gry na jednym z czterech wejść. Na wejściu może znajdować się"
    " dowolna liczba żetonów poszukiwaczy przygód.",
)
@quotes(27, "To z tych pól rozpoczynają grę wszyscy poszukiwacze przygód.")
def test_an_adventurer_drawn_must_go_on_an_entrance_which_holds_any_number() -> None:
    crowd = [("orange", "explorer", "NW")] * 7
    game = scene(pieces=crowd, stacks={"blue": ["thief"]} | {"orange": ["explorer"] * 3})
    played(game, "blue", Draw())
    assert [str(a) for a in legal_actions(game.state, 0)] == [
        "place NW",
        "place NE",
        "place SE",
        "place SW",
    ]
    refused(game, "blue", Place("A1"), "place_entrance")
    refused(game, "blue", Place("pit"), "place_entrance")
    refused(game, "blue", EndTurn(), "placing")
    refused(game, "blue", Draw(), "placing")
    played(game, "blue", "place NW")
    assert at(game, "blue", "thief") == ["NW"]


@quotes(70, "musisz wstawić go do gry w jamie na środku planszy")
@quotes(70, "W jamie może znajdować się dowolna ilość żetonów potworów.")
@quotes(26, "Z tego miejsca rozpoczynają grę wszystkie potwory (z wyjątkiem jaskiniowego trolla)")
def test_a_monster_drawn_goes_into_the_pit_by_itself() -> None:
    game = scene(
        pieces=[("orange", "orc", "pit")] * 6,
        stacks={"blue": ["explorer", "wraith", "orc"]},
        actions=2,
    )
    played(game, "blue", Draw(), Draw())
    assert at(game, "blue", "orc") == ["pit"] and at(game, "blue", "wraith") == ["pit"]
    assert game.state.turn is not None and game.state.turn.placing is None
    assert game.state.crowd("pit") == 8


@quotes(
    72,
    "jeśli dobierzesz żeton „Skarbu”, możesz wstawić go do gry na dowolnym polu (ale nie na"
    " wejściu ani w jamie).",
)
@quotes(
    152,
    "kiedy dobierzesz żeton „Skarbu”, możesz zagrać go w dowolnym pomieszczeniu, ale nie w"
    " jamie ani nie w wejściu.",
)
def test_a_treasure_goes_in_any_room_never_an_entrance_nor_the_pit() -> None:
    game = scene(pieces=[("orange", "knight", "A5")], stacks={"blue": ["treasure"]})
    played(game, "blue", Draw())
    places = [str(a) for a in legal_actions(game.state, 0)]
    assert len(places) == 28 and all(p.startswith("place ") and p[-2] in "ABCD" for p in places)
    refused(game, "blue", Place("NW"), "place_room")
    refused(game, "blue", Place("pit"), "place_room")
    played(game, "blue", "place A5")  # a Knight guards only against pieces
    assert [t.room for t in game.state.treasures] == ["A5"]


@quotes(152, "Po zagranium, żeton „Skarbu” nie może zostać przesunięty.")
def test_a_treasure_never_moves() -> None:
    game = scene(treasures=[("blue", "A4")], pieces=[("blue", "explorer", "A4")])
    played(game, "blue", "move explorer@A4 A7")
    assert [t.room for t in game.state.treasures] == ["A4"]
    assert not any("treasure" in str(a) for a in legal_actions(game.state, 0))


@quotes(
    72,
    "Jeżeli dobierzesz żeton „Przelicz łupy!” albo „Znajdź artefakt”, efekt żetonu wchodzi"
    " w grę *natychmiast* (jak podaje jego opis dalej), po czym żeton jest odrzucany z gry.",
)
@quotes(
    156,
    "kiedy dobierzesz ten żeton, punktacja na planszy jest natychmiast przeliczana (jak"
    " zostało wyjaśnione w punkcie „Punktacja”, wyżej) i żeton jest odrzucany.",
)
def test_count_the_loot_counts_at_once_and_is_discarded() -> None:
    game = scene(
        pieces=[("blue", "explorer", "A7"), ("orange", "explorer", "A4")],
        stacks={"blue": ["explorer", "tally"]},
    )
    fx = game.play(0, Draw())
    assert [p.gold for p in game.state.players] == [5, 3]
    assert any(isinstance(e, Scored) for e in fx)
    assert game.state.out[-1].kind == "tally" and game.state.tallies == 1
    assert game.state.turn is not None and game.state.turn.placing is None


@quotes(
    100,
    "Po przeliczeniu złota ze wszystkich pomieszczeń na planszy, gracz, który dobrał żeton"
    " „Przelicz łupy!” wznawia swoją turę. Jeśli dobrał ten żeton jako swoją ostatnią"
    " akcję, jego tura się kończy.",
)
def test_after_the_count_the_turn_goes_on_or_ends_with_the_last_action() -> None:
    game = scene(stacks={"blue": ["explorer", "tally", "tally"]}, actions=2)
    played(game, "blue", Draw())
    assert game.state.turn is not None and game.state.turn.actions_left == 1
    played(game, "blue", Draw())
    assert legal_actions(game.state, 0) == [EndTurn()]


@quotes(
    160,
    "kiedy dobierzesz ten żeton ze swojego stosu, od razu dobierz zakryty górny żeton"
    " artefaktu (po czym odrzuć żeton „Znajdź artefakt”). Nie pokazuj swojego artefaktu"
    " innym graczom.",
)
def test_find_an_artifact_takes_the_top_of_the_pile_in_secret() -> None:
    game = scene(stacks={"blue": ["explorer", "find"]}, pile=["helm", "sword"])
    story = describe(game.state, 0, Draw())
    played(game, "blue", Draw())
    assert game.state.players[0].artifacts == ["sword"]
    assert game.state.artifact_pile == ["helm"]
    assert game.state.out[-1].kind == "find"
    assert [e for e in story.effects if isinstance(e, Found)] == [Found(artifact="sword")]
    theirs = told_to(game.state, 1, 0, story)
    assert [e for e in theirs.effects if isinstance(e, Found)] == [
        Found(artifact=None, hidden=True)
    ]
    assert "sword" not in str(theirs.to_json())
    from cave_troll.view import view

    assert view(game.state, 1)["players"][0]["artifacts"] == 1
    assert view(game.state, 0)["players"][0]["artifacts"] == ["sword"]


def test_find_an_artifact_with_the_pile_empty_finds_nothing() -> None:
    """The text is silent; nothing happens (docs/cave-troll.md)."""
    game = scene(stacks={"blue": ["explorer", "find"]}, pile=[])
    fx = game.play(0, Draw())
    assert Found(artifact=None) in fx and game.state.players[0].artifacts == []


@quotes(
    162,
    "Gdy w opisie jest użyte określenie, że dany żeton jest *odrzucany* to oznacza, że jest"
    " on zdejmowany z planszy, odkładany na bok i nie bierze już udziału w grze.",
)
def test_a_discarded_token_is_out_of_the_game() -> None:
    game = scene(pieces=[("blue", "orc", "A1"), ("orange", "explorer", "A1")])
    played(game, "blue", "kill orange-explorer@A1")
    assert [(t.owner, t.kind) for t in game.state.out] == [(1, "explorer")]
    assert all(p.kind != "explorer" for p in game.state.pieces)


# --- counting the loot (l.98-100) ---------------------------------------------------


@quotes(
    100,
    "Gracz posiadający największą ilość poszukiwaczy przygód w danym pomieszczeniu"
    " *kontroluje* to pomieszczenie i otrzymuje ilość złota równą wartości pomieszczenia.",
)
@quotes(25, "po tych polach przesuwasz swój żeton punktacji, aby zaznaczyć ile zdobyłeś złota.")
def test_the_player_with_most_adventurers_in_a_room_gains_its_value() -> None:
    game = scene(
        pieces=[
            ("blue", "explorer", "A4"),
            ("blue", "explorer", "A4"),
            ("orange", "knight", "A4"),
            ("orange", "orc", "A4"),
            ("orange", "wraith", "A4"),
        ],
        stacks={"blue": ["explorer", "tally"]},
    )
    assert room_score(game.state, "A4") == (0, 3)  # monsters do not count
    game.play(0, Draw())
    assert [p.gold for p in game.state.players] == [3, 0]


@quotes(
    100,
    "Jeżeli żaden z graczy nie posiada w pomieszczeniu więcej poszukiwaczy przygód, niż"
    " pozostali, *żaden* z graczy nie otrzymuje złota za to pomieszczenie.",
)
def test_a_tie_for_the_most_gives_nobody_anything() -> None:
    game = scene(
        players=3,
        pieces=[
            ("blue", "explorer", "A7"),
            ("orange", "explorer", "A7"),
            ("green", "dwarf", "A4"),
            ("green", "dwarf", "A4"),
        ],
    )
    assert room_score(game.state, "A7") == (None, 0)
    game.state.pieces.append(type(game.state.pieces[0])(99, 2, "explorer", "A7"))
    assert room_score(game.state, "A7") == (None, 0)  # three tied, the third too


@quotes(
    130,
    "kiedy jest przeliczana punktacja na planszy, Barbarzyńca liczy się za *dwóch*"
    " poszukiwaczy przygód.",
)
def test_a_barbarian_counts_two_at_a_count() -> None:
    game = scene(
        pieces=[
            ("blue", "barbarian", "A5"),
            ("orange", "explorer", "A5"),
            ("orange", "explorer", "A5"),
        ]
    )
    assert room_score(game.state, "A5") == (None, 0)
    game.state.pieces.pop()
    assert room_score(game.state, "A5") == (0, 4)


@quotes(
    142,
    "pomieszczenie zajmowane przez Krasnoluda jest *warte dwa razy* tyle, ile wynosi jego"
    " wartość, *niezależnie od tego, który gracz kontroluje to pomieszczenie*.",
)
@quotes(
    142,
    "jeśli w pomieszczeniu znajdują się dwa Krasnoludy, a jest ono *warte 3 złota*, to"
    " wartość pokoju przy przeliczaniu wynosi 12 (3x2x2).",
)
def test_each_dwarf_doubles_a_room_whoever_controls_it() -> None:
    game = scene(
        pieces=[
            ("blue", "explorer", "A4"),
            ("blue", "explorer", "A4"),
            ("orange", "dwarf", "A4"),
        ]
    )
    assert room_score(game.state, "A4") == (0, 6)
    game.state.pieces.append(type(game.state.pieces[0])(99, 1, "dwarf", "A4"))
    assert room_score(game.state, "A4") == (None, 0)  # 2 against 2 now
    game.state.pieces.append(type(game.state.pieces[0])(98, 0, "dwarf", "A4"))
    assert room_score(game.state, "A4") == (0, 3 * 2 * 2 * 2)


@quotes(142, "Krasnolud nie podwaja dodatkowego złota uzyskanego z żetonu „Skarbu”")
@quotes(
    152,
    "Żeton „Skarbu” dodaje premię 4 szt. złota do wartości pomieszczenia, w którym się znajduje.",
)
@quotes(152, "Ta premia nie jest podwajana przez Krasnoluda.")
def test_a_treasure_adds_four_gold_not_doubled_by_a_dwarf() -> None:
    game = scene(pieces=[("blue", "dwarf", "A4")], treasures=[("orange", "A4"), ("blue", "A4")])
    assert room_score(game.state, "A4") == (0, 3 * 2 + 4 + 4)


@quotes(146, "Badacze nie mają żadnych specjalnych zdolności.")
def test_an_explorer_is_one_adventurer_and_nothing_more() -> None:
    game = scene(pieces=[("blue", "explorer", "A4"), ("orange", "orc", "A1")])
    kinds = {str(a).split()[0] for a in legal_actions(game.state, 0)}
    assert kinds == {"draw", "move", "end"}
    assert room_score(game.state, "A4") == (0, 3)


# --- the end (l.102-110) --------------------------------------------------------------


@quotes(
    104, "Kiedy jeden z graczy dobierze i zagra swój *ostatni* żeton, gra natychmiast się kończy."
)
@quotes(
    106,
    "Punktacja na planszy zostaje przeliczona po raz ostatni, a gracz, który zakończył grę"
    " zagrywając swój ostatni żeton dostaje dodatkowe 3 szt. złota premii.",
)
def test_the_last_token_ends_the_game_with_a_last_count_and_three_gold() -> None:
    game = scene(
        pieces=[("orange", "explorer", "A7"), ("blue", "explorer", "A1")],
        stacks={"blue": ["knight"]},
    )
    played(game, "blue", Draw())
    assert game.state.phase == "play"  # the knight is yet to be played
    fx = game.play(0, Place("NE"))
    assert game.state.phase == "over" and game.to_act == ()
    assert any(isinstance(e, GameOver) for e in fx)
    outcome = final_outcome(game.state)
    blue, orange = outcome.results
    assert (blue.board, blue.bonus, blue.total) == (1, 3, 4)
    assert (orange.board, orange.bonus, orange.total) == (5, 0, 5)
    assert outcome.winning_seats == (1,)
    refused(game, "orange", EndTurn(), "game_over")


@quotes(
    108,
    "Gracze posiadający nie zagrane artefakty (opisane poniżej) otrzymują ilość złota równą"
    " wartości artefaktów.",
)
@quotes(110, "Gracz z największą ilością złota wygrywa.")
def test_unplayed_artifacts_pay_their_value_and_most_gold_wins() -> None:
    game = scene(
        stacks={"blue": ["tally"]},
        artifacts={"orange": ["eldarra", "cloak"], "blue": ["wand"]},
    )
    game.state.players[0].gold = 2
    game.play(0, Draw())
    outcome = final_outcome(game.state)
    assert [r.artifacts for r in outcome.results] == [3, 4 + 2]
    assert [r.total for r in outcome.results] == [2 + 3 + 3, 6]
    assert outcome.winning_seats == (0,)


def test_a_tie_for_the_most_gold_is_a_shared_victory() -> None:
    """The text gives no tie-break; the tied players share the win (docs)."""
    game = scene(stacks={"blue": ["tally"]}, artifacts={"orange": ["helm"]})
    game.play(0, Draw())
    assert final_outcome(game.state).winning_seats == (0, 1)


def test_a_tally_as_the_last_token_counts_twice() -> None:
    """By the rules as written: the tally, then the last count (docs)."""
    game = scene(pieces=[("blue", "explorer", "A4")], stacks={"blue": ["tally"]})
    game.play(0, Draw())
    outcome = final_outcome(game.state)
    assert (outcome.results[0].play, outcome.results[0].board) == (3, 3)


def test_the_other_players_stacks_do_not_matter_at_the_end() -> None:
    game = scene(stacks={"blue": ["orc"], "orange": ["explorer"] * 9})
    game.play(seat("blue"), Draw())
    assert game.state.phase == "over" and game.state.ended_by == 0
