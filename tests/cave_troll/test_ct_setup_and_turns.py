"""The components, setup and the turn (l.13-62, l.94-96), each test quoting the line of
the Polish rulebook it enforces."""

from __future__ import annotations

from collections import Counter

import pytest
from ct_helpers import COLOURS, at, played, quotes, refused, scene, seat

from cave_troll.actions import Draw, EndTurn
from cave_troll.board import load_board
from cave_troll.content import ARTIFACTS, load_content
from cave_troll.errors import ConfigError
from cave_troll.game import Game
from cave_troll.legal import legal_actions
from cave_troll.state import make_config
from cave_troll.turns import to_act
from cave_troll.view import view


@quotes(21, "Planszę należy złożyć z 4 części jak puzzle.")
@quotes(37, "Złóż planszę i połóż ją na środku obszaru przeznaczonego do gry.")
def test_the_board_is_four_jigsaw_quarters() -> None:
    board = load_board()
    quarters = Counter(room[0] for room in board.rooms)
    assert quarters == dict.fromkeys("ABCD", 7)
    cells = [c for loc in board.locations for c in board.cells[loc]]
    assert len(cells) == len(set(cells)) == board.size**2


@quotes(21, "Legowisko posiada 4 wejścia (jedno przy każdym rogu) i jamę pośrodku.")
def test_four_entrances_at_the_corners_and_the_pit_in_the_middle() -> None:
    board = load_board()
    last = board.size - 1
    corners = {(0, 0), (last, 0), (last, last), (0, last)}
    assert len(board.entrances) == 4
    assert {board.cells[e][0] for e in board.entrances} == corners
    middle = {
        (board.size // 2 - 1 + dx, board.size // 2 - 1 + dy) for dx in (0, 1) for dy in (0, 1)
    }
    assert set(board.cells[board.pit]) == middle


@quotes(
    21,
    "Każde pomieszczenie jaskini jest oznakowane pewną ilością złotych monet, określającą"
    " jego wartość.",
)
def test_every_room_has_a_gold_value_and_nothing_else_does() -> None:
    board = load_board()
    assert set(board.value) == set(board.rooms)
    assert all(v >= 1 for v in board.value.values())
    assert not set(board.value) & {*board.entrances, board.pit}


@quotes(29, "Żetony podzielone są na 4 kolory, po jednym dla każdego gracza")
def test_four_colours_one_per_player_and_two_to_four_players() -> None:
    assert len(load_content().mix.colours) == 4
    for players in (2, 3, 4):
        assert Game.new(players=players, seed=1).state.config.seat_colours == COLOURS[:players]
    for players in (1, 5):
        with pytest.raises(ConfigError):
            make_config(players=players)
    with pytest.raises(ConfigError):
        make_config(players=2, colours=("blue", "blue"))


@quotes(
    39,
    "Każdy gracz wybiera kolor, bierze wszystkie żetony tego koloru i tasuje je, po czym"
    " układa zakryte w stos przed sobą.",
)
def test_each_player_has_a_shuffled_stack_of_every_token_of_their_colour() -> None:
    mix = load_content().mix
    for players in (2, 3, 4):
        games = [Game.new(players=players, seed=s).state for s in range(5)]
        for state in games:
            for player in state.players:
                assert Counter(player.stack) == Counter(
                    {k: n for k, n in mix.stack(players).items() if n}
                )
        assert len({tuple(s.players[0].stack) for s in games}) > 1, "stacks are shuffled"
        # face down: nobody sees the order, not even its owner
        seen = view(games[0], 0)["players"][0]
        assert seen["stack"] == len(games[0].players[0].stack)


@quotes(
    38,
    "Przetasuj żetony artefaktów, tak, aby były ułożone w losowej kolejności i połóż je,"
    " zakryte, obok planszy.",
)
def test_the_artifact_pile_is_shuffled_and_face_down() -> None:
    piles = [Game.new(players=3, seed=s).state.artifact_pile for s in range(5)]
    assert all(Counter(p) == Counter(load_content().mix.artifact_pile) for p in piles)
    assert len({tuple(p) for p in piles}) > 1
    assert set(piles[0]) == set(ARTIFACTS)
    assert view(Game.new(players=3, seed=0).state, 0)["artifact_pile"] == len(piles[0])


@quotes(
    40, "Każdy gracz ustawia swój żeton punktacji na polu z punktacją tak, aby wskazywał na zero."
)
@quotes(33, "te trójkątne żetony używane są, aby zapamiętywać aktualny stan złota graczy.")
def test_every_score_starts_at_zero_and_the_board_empty() -> None:
    state = Game.new(players=4, seed=3).state
    assert [p.gold for p in state.players] == [0, 0, 0, 0]
    assert state.pieces == [] and state.treasures == [] and state.marks == []


@quotes(42, "Losowo zdecydujcie, który gracz będzie zaczynał.")
def test_the_first_player_is_chosen_at_random_from_the_seed() -> None:
    firsts = {Game.new(players=4, seed=s).state.first for s in range(30)}
    assert firsts == {0, 1, 2, 3}
    game = Game.new(players=4, seed=5)
    assert game.to_act == (game.state.first,)
    assert Game.new(players=4, seed=5).state.first == game.state.first


@quotes(
    42,
    "Kiedy tura tego gracza się skończy, rozgrywa gracz siedzący po jego lewej stronie"
    " zgodnie z ruchem wskazówek zegara.",
)
def test_play_passes_to_the_left() -> None:
    game = scene(players=3, to_move="orange")
    played(game, "orange", EndTurn())
    assert game.to_act == (seat("green"),)
    played(game, "green", EndTurn())
    assert game.to_act == (seat("blue"),)


@quotes(44, "Podczas swojej tury masz **cztery akcje**.")
@quotes(46, "Dobierz żeton ze swojej puli")
def test_a_turn_has_four_actions() -> None:
    game = scene(players=2, stacks={"blue": ["explorer"] * 6})
    for _ in range(4):
        played(game, "blue", Draw(), "place NW")
    assert at(game, "blue", "explorer") == ["NW"] * 4
    refused(game, "blue", Draw(), "no_actions")
    assert legal_actions(game.state, seat("blue")) == [EndTurn()]


@quotes(50, "Przesuń jeden ze swoich żetonów")
@quotes(54, "Wykorzystaj dodatkowe zdolności potworów (ork, upiór).")
@quotes(
    62,
    "Gracz w czasie swojej tury wykorzystał swoje cztery akcje na: dobranie dwóch żetonów ze"
    " swojej puli (koszt 2 akcje), przesunięcie jednego swojego żetonu do sąsiedniego"
    " pomieszczenia (koszt 1 akcja), i wykorzystał dodatkową zdolność jaką posiada Ork"
    " odrzucając jednego poszukiwacza kontrolowanego przez innego gracza (koszt 1 akcja).",
)
def test_the_rulebook_example_turn_two_draws_a_move_and_an_orc() -> None:
    game = scene(
        pieces=[("blue", "orc", "A1"), ("orange", "explorer", "A1"), ("blue", "knight", "A3")],
        stacks={"blue": ["dwarf", "explorer", "explorer"]},
    )
    played(game, "blue", Draw(), "place NW", Draw(), "place NE")
    assert game.state.turn is not None and game.state.turn.actions_left == 2
    played(game, "blue", "move knight@A3 A4")
    assert game.state.turn.actions_left == 1
    played(game, "blue", "kill orange-explorer@A1")
    assert game.state.turn.actions_left == 0
    assert at(game, "orange", "explorer") == []
    refused(game, "blue", "move knight@A4 A7", "no_actions")


@quotes(
    96,
    "Na początku gry (w pierwszej turze) pierwszy gracz może wykonać tylko jedną akcję,"
    " drugi gracz dwie, trzeci trzy, a czwarty cztery akcje. W kolejnych turach każdy"
    " gracz otrzymuje już cztery akcje.",
)
@quotes(60, "możesz mieć *mniej* niż cztery akcje podczas swojej *pierwszej* tury")
def test_the_first_round_of_four_gives_one_two_three_four_actions() -> None:
    assert _first_two_rounds(4) == [1, 2, 3, 4, 4, 4, 4, 4]


@pytest.mark.parametrize(("players", "first_round"), [(2, [1, 4]), (3, [1, 4, 4])])
def test_with_fewer_players_the_first_has_one_action_and_the_others_more(
    players: int, first_round: list[int]
) -> None:
    """The rulebook has no rules for 2 or 3 players; ours keep its first player's single
    action and give every other player a whole turn: its numbers cut short (1-2, 1-2-3)
    favour the first player in self-play (docs/cave-troll.md, "Players and colours")."""
    assert _first_two_rounds(players) == first_round + [4] * players


def _first_two_rounds(players: int) -> list[int]:
    game = Game.new(players=players, seed=7)
    allowances = []
    for _ in range(2 * players):
        state = game.state
        assert state.turn is not None
        allowances.append(state.turn.actions_left)
        game.play(state.turn.seat, EndTurn())
    return allowances


def test_ending_a_turn_early_is_allowed() -> None:
    """The text neither allows nor forbids leaving actions unused; we allow it
    (docs/cave-troll.md)."""
    game = scene()
    played(game, "blue", EndTurn())
    assert to_act(game.state) == (seat("orange"),)
    assert game.state.turn is not None and game.state.turn.actions_left == 4


@quotes(
    31,
    "Mogą one zostać wykorzystane w celu użycia ich specjalnej zdolności lub zachowane dla"
    " uzyskania dodatkowego złota.",
)
def test_an_artifact_may_be_played_or_kept() -> None:
    game = scene(pieces=[("blue", "explorer", "A1")], artifacts={"blue": ["wand", "cloak"]})
    plays = {str(a) for a in legal_actions(game.state, 0, "play")}
    assert "play wand A1" in plays and "play cloak explorer@A1" in plays
    assert EndTurn() in legal_actions(game.state, 0)
