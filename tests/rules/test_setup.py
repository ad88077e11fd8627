"""Setting up: the horde, pedestals, coronation tokens, workshops, spellbook, the
starting-troll draft with its turn-order bonus, gates and the game options."""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import drafted_game, gated_game

from rules.content import StartPoint, load_content
from rules.errors import ConfigError, IllegalActionError, NotYourTurnError
from rules.game import Game
from rules.state import make_config


def _serves(point: StartPoint) -> set[int]:
    """The player counts a start point is marked with."""
    players: int | list[int] = point.players
    return set(players) if isinstance(players, list) else {players}


def _start_resources(cards: list[str]) -> Counter[str]:
    trolls = load_content().trolls
    return Counter(res.value for card in cards for res, _ in trolls[card].start)


def test_horde_is_a_five_four_three_pyramid_of_levels_one_two_three() -> None:
    state = Game.new(players=4, seed=2).state
    trolls = load_content().trolls
    assert [len(row) for row in state.horde] == [5, 4, 3]
    for level, row in enumerate(state.horde, start=1):
        assert all(hs.card is not None and trolls[hs.card].level == level for hs in row)
        assert all(hs.bribes == [] for hs in row)
    assert [len(d) for d in state.decks] == [21 - 5, 17 - 4, 17 - 3]


def test_each_level2_horde_troll_gets_a_pedestal_from_the_bag() -> None:
    state = Game.new(players=4, seed=2).state
    on_trolls = [hs.pedestal for hs in state.horde[1]]
    assert all(p in ("fire", "ice", "moon") for p in on_trolls)
    assert all(hs.pedestal is None for row in (0, 2) for hs in state.horde[row])
    assert Counter(state.bag) + Counter(on_trolls) == Counter(fire=6, ice=6, moon=6)


def test_coronation_tokens_are_five_then_three() -> None:
    assert Game.new(players=3, seed=1).state.coronation_left == [5, 3]


def test_two_player_game_has_only_the_three_token() -> None:
    assert Game.new(players=2, seed=1).state.coronation_left == [3]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_workshop_supply_is_two_per_player_plus_one(players: int) -> None:
    supply = Game.new(players=players, seed=players).state.workshop_supply
    assert len(supply) == 2 * players + 1
    assert all(n <= 2 for n in Counter(supply).values())


def test_unique_workshops_have_no_duplicates() -> None:
    supply = Game.new(players=5, seed=3, workshops="unique").state.workshop_supply
    assert len(supply) == len(set(supply)) == 11


def test_chosen_workshops_are_used_as_given() -> None:
    chosen = ("cartwright", "cartwright", "pickforge", "stonemill", "toolforge")
    state = Game.new(players=2, seed=3, workshops="chosen", chosen_workshops=chosen).state
    assert sorted(state.workshop_supply) == sorted(chosen)
    with pytest.raises(ConfigError):
        make_config(players=2, workshops="chosen", chosen_workshops=("cartwright",) * 5)


def test_spellbook_shows_three_spells_from_a_shuffled_deck() -> None:
    state = Game.new(players=2, seed=4).state
    shown = [slot.spell for slot in state.spellbook]
    assert len(set(shown)) == 3 and all(slot.runes == 0 for slot in state.spellbook)
    assert sorted(shown + state.spell_deck) == sorted(s.id for s in load_content().spells)


def test_pedestal_track_holds_one_token_per_clan_and_tier() -> None:
    track = Game.new(players=2, seed=5).state.pedestal_track
    assert len(track) == 15
    assert {key.split(":")[1] for key in track} == {"fire", "ice", "moon"}
    values = sorted(v for v in track.values() if v is not None)
    assert values == sorted(load_content().tables.pedestal_token_values)


def test_setup_is_a_function_of_the_seed() -> None:
    a = Game.new(players=4, seed=9).state.to_json()
    assert a == Game.new(players=4, seed=9).state.to_json()
    assert a != Game.new(players=4, seed=10).state.to_json()


def test_draft_shows_two_trolls_of_your_colour() -> None:
    state = Game.new(players=3, seed=6).state
    for player in state.players:
        assert len(player.draft_hand) == 2 and len(player.draft_deck) == 4
        cards = player.draft_hand + player.draft_deck
        assert sorted(cards) == sorted(f"{player.colour}-{n}" for n in range(1, 7))


def test_keeping_a_troll_draws_the_next_one() -> None:
    game = gated_game(players=2, seed=6)
    player = game.state.players[0]
    hand, nxt = list(player.draft_hand), player.draft_deck[0]
    game.play(0, f"keep {hand[0]} A2")
    player = game.state.players[0]
    assert player.pyramid["A2"].card == hand[0]
    assert sorted(player.draft_hand) == sorted([hand[1], nxt])
    assert player.pyramid["A2"].held == [False, False]  # starting trolls start empty


def test_draft_refuses_a_card_not_in_hand_and_a_taken_slot() -> None:
    game = gated_game(players=2, seed=6)
    hand = game.state.players[0].draft_hand
    deck_card = game.state.players[0].draft_deck[0]
    with pytest.raises(IllegalActionError) as info:
        game.play(0, f"keep {deck_card} A1")
    assert info.value.code == "not_in_hand"
    game.play(0, f"keep {hand[0]} A1")
    with pytest.raises(IllegalActionError) as info:
        game.play(0, f"keep {game.state.players[0].draft_hand[0]} A1")
    assert info.value.code == "slot_taken"


def test_draft_leaves_four_trolls_one_in_hand_and_one_unseen() -> None:
    state = drafted_game(players=5, seed=7).state
    for player in state.players:
        assert sorted(player.pyramid) == ["A1", "A2", "A3", "A4"]
        assert len(player.draft_hand) == 1 and len(player.draft_deck) == 1


def test_starting_resources_and_the_turn_order_bonus() -> None:
    """Seat 0 gets only its four trolls' start rows; seats 1-2 also the troll in hand;
    seats 3-4 also the unseen last troll."""
    state = drafted_game(players=5, seed=7).state
    for seat, player in enumerate(state.players):
        kept = [t.card for t in player.pyramid.values()]
        extra = [] if seat == 0 else player.draft_hand + (player.draft_deck if seat >= 3 else [])
        expected = _start_resources(kept + extra)
        got = Counter({k: v for k, v in state.account_of(seat).storage.items() if v})
        assert got == expected, seat


def test_team_mode_starts_in_team_storage_without_bonus() -> None:
    state = drafted_game(players=4, seed=8, teams=True).state
    assert len(state.accounts) == 2
    for team_seats in ((0, 3), (1, 2)):
        kept = [t.card for s in team_seats for t in state.players[s].pyramid.values()]
        got = Counter({k: v for k, v in state.account_of(team_seats[0]).storage.items() if v})
        assert got == _start_resources(kept)


def test_gates_are_placed_in_turn_order_on_points_for_the_player_count() -> None:
    game = drafted_game(players=4, seed=3)
    points = {p.id: p for p in load_content().board("winter").start_points}
    assert all(4 in _serves(points[p]) for p in game.state.board.gates)
    assert sorted(game.state.board.gates.values()) == [0, 1, 2, 3]
    assert game.state.turn is not None and game.state.turn.seat == 0


def test_gate_refusals() -> None:
    game = Game.new(players=4, seed=3)
    assert game.state.phase == "gates"
    points = load_content().board("winter").start_points
    ok = next(p.id for p in points if 4 in _serves(p))
    wrong = next(p.id for p in points if 4 not in _serves(p))
    with pytest.raises(NotYourTurnError):
        game.play(1, f"gate {ok}")
    for point, code in ((wrong, "wrong_point"), ("Z9", "no_such_point")):
        with pytest.raises(IllegalActionError) as info:
            game.play(0, f"gate {point}")
        assert info.value.code == code
    game.play(0, f"gate {ok}")
    with pytest.raises(IllegalActionError) as info:
        game.play(1, f"gate {ok}")
    assert info.value.code == "point_taken"


def test_two_player_gates_use_matching_numbers() -> None:
    game = drafted_game(players=2, seed=3)
    points = {p.id: p for p in load_content().board("winter").start_points}
    first, second = (points[p] for p in game.state.board.gates)
    assert _serves(first) & _serves(second)
    assert first.cell != second.cell


@pytest.mark.parametrize(
    "options",
    [
        {"players": 3, "side": "winter"},
        {"players": 4, "side": "autumn"},
        {"players": 6},
        {"players": 1},
        {"players": 3, "teams": True},
        {"players": 2, "colours": ("blue", "blue")},
    ],
)
def test_invalid_options_raise_a_config_error(options: dict[str, object]) -> None:
    with pytest.raises(ConfigError) as info:
        make_config(**options)
    assert info.value.code == "config"
    assert info.value.message.startswith("Invalid game options")


def test_board_side_follows_the_player_count() -> None:
    assert make_config(players=3).board_side == "autumn"
    assert make_config(players=5).board_side == "winter"
    assert make_config(players=2, side="autumn").board_side == "autumn"
