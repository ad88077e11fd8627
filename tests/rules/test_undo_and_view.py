"""Undo within a turn (never past a revealed card), records, and what a player sees."""

from __future__ import annotations

import pytest
from helpers import (
    cards,
    drafted_game,
    empty_trolls,
    first_legal,
    gated_game,
    put_troll,
    set_storage,
)

from rules.errors import UndoError
from rules.game import Game, ReplayError, game_from_record
from rules.state import PedestalToken
from rules.view import view


def _game(players: int = 2) -> Game:
    game = drafted_game(players=players, seed=37)
    for seat in range(players):
        empty_trolls(game.state, seat)
        set_storage(game.state, seat, stone=8, rune=2, coin=2)
    game.state.spellbook[0].spell = "earth-ritual"
    game.state.spellbook[0].runes = 0
    return game


def test_undo_takes_back_a_trade() -> None:
    game = drafted_game(players=2, seed=37)  # undo replays the record: no edits here
    before = game.state.to_json()
    trade = first_legal(game.state, 0, "trade")
    game.play(0, trade)
    assert game.state.to_json() != before
    assert game.can_undo(0)
    assert game.undo(0).action == trade
    assert game.state.to_json() == before
    assert not game.can_undo(0)


def test_undo_stops_at_a_recruit() -> None:
    game = _game()
    game.play(0, "recruit 1.1 B1")
    assert not game.can_undo(0)
    with pytest.raises(UndoError) as info:
        game.undo(0)
    assert info.value.code == "undo"


def test_undo_after_a_recruit_stops_at_the_recruit() -> None:
    game = drafted_game(players=2, seed=37)
    game.play(0, "recruit 1.1 B1")
    after_recruit = game.state.to_json()
    game.play(0, first_legal(game.state, 0, "trade"))
    game.undo(0)
    assert game.state.to_json() == after_recruit
    assert not game.can_undo(0)


def test_undo_stops_at_a_spell_that_disintegrates() -> None:
    game = _game()
    game.state.spellbook[0].runes = 2
    game.play(0, "cast earth-ritual 3stone")
    assert not game.can_undo(0)


def test_undo_of_a_spell_that_stays_is_allowed() -> None:
    game = _game()
    game.play(0, "cast earth-ritual 3stone")
    assert game.state.spellbook[0].runes == 1
    assert game.can_undo(0)


def test_undo_stops_at_an_exaltation_that_revealed_a_horde_troll() -> None:
    """Ceremony of Exaltation refills the horde with a new level-3 troll from the deck:
    a hidden card is revealed, so it must not be taken back."""
    game = _game()
    game.state.spellbook[1].spell = "ceremony-of-exaltation"
    put_troll(game.state, 0, "B1", cards(2)[0])
    revealed = game.state.decks[2][0]
    game.play(0, "cast ceremony-of-exaltation B1 3.1")
    assert game.state.horde[2][0].card == revealed
    assert not game.can_undo(0)


def test_cannot_undo_another_players_action_or_the_previous_turn() -> None:
    game = _game()
    game.play(0, "recruit 1.1 B1")
    game.play(0, "end")
    assert not game.can_undo(0)
    assert not game.can_undo(1)
    with pytest.raises(UndoError):
        game.undo(1)


def test_undo_cannot_take_back_a_draft_keep() -> None:
    game = gated_game(players=2, seed=1)
    game.play(0, f"keep {game.state.players[0].draft_hand[0]} A1")
    assert not game.can_undo(0)


def test_record_replays_to_the_same_state() -> None:
    plain = drafted_game(players=2, seed=37)
    plain.play(0, "recruit 1.1 B1")
    plain.play(0, "end")
    again = game_from_record(plain.record())
    assert again.state.to_json() == plain.state.to_json()
    assert again.record() == plain.record()


def test_record_with_an_illegal_action_fails_naming_it() -> None:
    record = drafted_game(players=2, seed=37).record()
    record["actions"].append("blue recruit 1.1 D1")
    with pytest.raises(ReplayError) as info:
        game_from_record(record)
    assert info.value.index == len(record["actions"]) - 1
    assert "recruit 1.1 D1" in info.value.message


def test_view_hides_other_players_pedestal_token_values() -> None:
    game = _game()
    game.state.account_of(0).tokens = [PedestalToken(2, "fire", 5)]
    game.state.account_of(1).tokens = [PedestalToken(4, "moon", 3)]
    mine = view(game.state, 0)
    assert mine["accounts"][0]["tokens"] == [{"tier": 2, "clan": "fire", "value": 5}]
    assert mine["accounts"][1]["tokens"] == [{"tier": 4, "clan": "moon", "value": None}]
    spectator = view(game.state, None)
    assert all(t["value"] is None for a in spectator["accounts"] for t in a["tokens"])


def test_view_hides_deck_order_the_bag_order_and_the_seed() -> None:
    game = _game()
    seen = view(game.state, 0)
    assert seen["decks"] == [len(d) for d in game.state.decks]
    assert seen["spell_deck"] == len(game.state.spell_deck)
    assert sum(seen["bag"].values()) == len(game.state.bag)
    assert isinstance(seen["bag"], dict)
    assert "seed" not in seen


def test_view_hides_other_players_draft_hands() -> None:
    game = gated_game(players=3, seed=4)
    seen = view(game.state, 1)
    assert seen["players"][1]["draft_hand"] == game.state.players[1].draft_hand
    assert seen["players"][0]["draft_hand"] == 2
    assert all(p["draft_deck"] == 4 for p in seen["players"])
    assert sorted(seen["to_act"]) == [0, 1, 2]


def test_view_shows_the_team_its_own_tokens() -> None:
    game = drafted_game(players=4, seed=5, teams=True)
    game.state.account_of(0).tokens = [PedestalToken(1, "ice", 4)]
    assert view(game.state, 3)["accounts"][0]["tokens"][0]["value"] == 4
    assert view(game.state, 1)["accounts"][0]["tokens"][0]["value"] is None


def test_view_does_not_change_the_state() -> None:
    game = _game()
    before = game.state.to_json()
    view(game.state, 0)
    assert game.state.to_json() == before
