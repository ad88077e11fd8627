"""Trading 4-for-1 with the supply, and paying from storage and trolls."""

from __future__ import annotations

import pytest
from helpers import drafted_game, empty_trolls, put_troll, set_storage, storage

from rules import statues
from rules.actions import STORE, Pay, Trade
from rules.errors import IllegalActionError, NotationError
from rules.game import Game
from rules.payment import available_tokens, owned_counts, resolve_payment
from rules.resources import Clan, Resource


def _game(players: int = 2, teams: bool = False) -> Game:
    game = drafted_game(players=players, seed=29, teams=teams)
    for seat in range(players):
        empty_trolls(game.state, seat)
        set_storage(game.state, seat)
    return game


def _refused(game: Game, seat: int, action: str | Trade, code: str) -> None:
    before = game.state.to_json()
    with pytest.raises(IllegalActionError) as info:
        game.play(seat, action)
    assert info.value.code == code
    assert game.state.to_json() == before


def test_trade_gives_one_resource_for_four() -> None:
    game = _game()
    set_storage(game.state, 0, coin=2, stone=1, rune=1)
    game.play(0, "trade stone+2coin+rune>heartstone")
    assert storage(game.state, 0) == {"heartstone": 1}


def test_trade_needs_exactly_four_resources() -> None:
    game = _game()
    set_storage(game.state, 0, stone=5)
    three = Trade((Resource.STONE,) * 3, Resource.IRON)
    five = Trade((Resource.STONE,) * 5, Resource.IRON)
    _refused(game, 0, three, "bad_trade")
    _refused(game, 0, five, "bad_trade")


def test_trade_needs_the_resources_it_gives() -> None:
    game = _game()
    set_storage(game.state, 0, stone=3, iron=1)
    _refused(game, 0, "trade 4stone>iron", "cannot_afford")


def test_trade_may_be_repeated_in_a_turn() -> None:
    game = _game()
    set_storage(game.state, 0, stone=8)
    game.play(0, "trade 4stone>iron")
    game.play(0, "trade 4stone>iron")
    assert storage(game.state, 0) == {"iron": 2}


def test_trade_only_in_your_own_turn() -> None:
    game = _game()
    set_storage(game.state, 1, stone=4)
    _refused(game, 1, "trade 4stone>iron", "not_your_turn")


def test_trade_may_spend_resources_held_by_trolls() -> None:
    game = _game()
    put_troll(game.state, 0, "A1", "L1-01", True)  # stone, stone
    set_storage(game.state, 0, stone=2)
    game.play(0, "trade 4stone>rune")
    assert storage(game.state, 0) == {"rune": 1}
    assert game.state.players[0].pyramid["A1"].held == [False, False]


def test_rulebook_spending_example_any_four_of_five_stone() -> None:
    """Two stone in storage and three on trolls: any four of the five may be spent."""
    game = _game()
    set_storage(game.state, 0, stone=2)
    put_troll(game.state, 0, "A1", "L1-01", True)
    put_troll(game.state, 0, "A2", "L1-02", [True, False])
    assert owned_counts(game.state, 0)[Resource.STONE] == 5
    game.play(0, "trade 4stone>iron pay stone@store stone@store stone@A1 stone@A2")
    assert owned_counts(game.state, 0)[Resource.STONE] == 1
    assert game.state.players[0].pyramid["A1"].held == [False, True]


def test_default_payment_spends_trolls_before_storage() -> None:
    game = _game()
    set_storage(game.state, 0, coin=3)
    put_troll(game.state, 0, "A3", "L1-05", [True, False])  # coin, coin
    game.play(0, "recruit 2.1 B1")
    assert game.state.players[0].pyramid["A3"].held == [False, False]
    assert storage(game.state, 0) == {"coin": 2}


def test_default_payment_takes_the_bottom_row_first_left_to_right() -> None:
    game = _game()
    put_troll(game.state, 0, "B1", "L1-05", True)
    put_troll(game.state, 0, "A4", "L1-05", True)
    put_troll(game.state, 0, "A2", "L1-02", True)  # stone, coin
    tokens = resolve_payment(game.state, 0, [Resource.COIN] * 2, None)
    assert [t.source for t in tokens] == ["A2", "A4"]


def test_a_statue_move_spends_its_clans_carts_before_wild_carts() -> None:
    game = _game()
    set_storage(game.state, 0, cart=1)
    put_troll(game.state, 0, "A1", "L1-04", [False, True])  # wild cart
    put_troll(game.state, 0, "A4", "L1-08", [False, True])  # fire cart
    assert statues.cart_tokens(game.state, 0, "fire") == [
        Pay(Resource.CART, "A4", Clan.FIRE),
        Pay(Resource.CART, "A1"),
        Pay(Resource.CART, STORE),
    ]
    # anything else is paid with wild carts: the fire cart only moves Fire statues
    tokens = resolve_payment(game.state, 0, [Resource.CART], None)
    assert tokens == [Pay(Resource.CART, "A1")]


def test_explicit_payment_names_where_each_resource_comes_from() -> None:
    game = _game()
    set_storage(game.state, 0, coin=2)
    put_troll(game.state, 0, "A1", "L1-05", True)
    game.play(0, "recruit 2.1 B1 pay coin@store coin@store")
    assert game.state.players[0].pyramid["A1"].held == [True, True]
    assert storage(game.state, 0) == {}


def test_explicit_payment_must_match_the_cost() -> None:
    game = _game()
    set_storage(game.state, 0, coin=3, stone=1)
    _refused(game, 0, "recruit 2.1 B1 pay coin@store", "wrong_payment")
    _refused(game, 0, "recruit 2.1 B1 pay coin@store stone@store", "wrong_payment")
    _refused(game, 0, "recruit 2.1 B1 pay coin@store coin@A1", "not_owned")


def test_explicit_payment_beyond_storage_is_refused() -> None:
    game = _game()
    set_storage(game.state, 0, stone=3)
    put_troll(game.state, 0, "A1", "L1-01", True)
    _refused(
        game,
        0,
        "trade 4stone>iron pay stone@store stone@store stone@store stone@store",
        "not_owned",
    )


def test_storage_carts_are_wild_in_notation() -> None:
    with pytest.raises(NotationError):
        _game().play(0, "trade 4stone>iron pay fire-cart@store")  # in play: only the text is wrong


def test_clan_carts_on_trolls_are_held_as_carts_but_pay_for_nothing_else() -> None:
    game = _game()
    put_troll(game.state, 0, "A1", "L1-08", True)  # stone, fire cart
    assert owned_counts(game.state, 0, held=True)[Resource.CART] == 1
    assert owned_counts(game.state, 0)[Resource.CART] == 0
    fire_cart = Pay(Resource.CART, "A1", Clan.FIRE)
    assert fire_cart in available_tokens(game.state, 0, held=True)
    assert fire_cart not in available_tokens(game.state, 0)


def test_team_mode_shares_storage() -> None:
    game = _game(players=4, teams=True)
    state = game.state
    assert state.players[0].account == state.players[3].account
    assert state.players[1].account == state.players[2].account
    assert state.players[0].account != state.players[1].account
    set_storage(state, 0, stone=4)
    assert storage(state, 3) == {"stone": 4}
    game.play(0, "trade 4stone>iron")
    assert storage(game.state, 3) == {"iron": 1}
    assert storage(game.state, 1) == {}


def test_team_player_cannot_spend_the_partners_trolls() -> None:
    game = _game(players=4, teams=True)
    put_troll(game.state, 3, "A1", "L1-05", True)  # the partner's two coins
    assert owned_counts(game.state, 0)[Resource.COIN] == 0
    _refused(game, 0, "recruit 2.1 B1", "cannot_afford")
    _refused(game, 0, "recruit 2.1 B1 pay coin@A1 coin@A1", "not_owned")


def test_trade_is_refused_during_the_draft() -> None:
    game = Game.new(players=2, seed=1)
    before = game.state.to_json()
    with pytest.raises(IllegalActionError) as info:
        game.play(0, "trade 4stone>iron")
    assert info.value.code == "not_playing"
    assert game.state.to_json() == before
