"""Workshops: one workshop per turn, once per open entrance, each use its own
conversion, gains into storage; every exchange rate from the rulebook's list.

The board does not yet say which entrances a network touches, so `open_workshop`
stubs the number of open entrances the player may use."""

from __future__ import annotations

import pytest
from helpers import (
    drafted_game,
    empty_trolls,
    open_workshop,
    put_troll,
    set_storage,
    storage,
)

from rules.actions import STORE, Pay, UseWorkshop
from rules.errors import IllegalActionError, NotationError
from rules.game import Game
from rules.legal import legal_actions
from rules.resources import Resource

MINE = dict(stone=4, iron=4, heartstone=4, coin=4, cart=4, hammer=4, rune=4)


def _game(monkeypatch: pytest.MonkeyPatch, workshop: str, entrances: int = 4) -> Game:
    game = drafted_game(players=2, seed=23)
    empty_trolls(game.state, 0)
    set_storage(game.state, 0, **MINE)
    open_workshop(monkeypatch, game.state, "S1", workshop, entrances)
    return game


def _refused(game: Game, action: str, code: str) -> IllegalActionError:
    before = game.state.to_json()
    with pytest.raises(IllegalActionError) as info:
        game.play(0, action)
    assert info.value.code == code
    assert game.state.to_json() == before
    return info.value


# (workshop, one use, what the storage gains, what it loses) straight from the rulebook
RATES = [
    ("cartwright", "heartstone>cart", {"cart": 1}, {"heartstone": 1}),
    ("cartwright", "cart>heartstone", {"heartstone": 1}, {"cart": 1}),
    ("charmcrafter", "coin>rune", {"rune": 1}, {"coin": 1}),
    ("charmcrafter", "rune>coin", {"coin": 1}, {"rune": 1}),
    ("coinpress", "iron>coin", {"coin": 1}, {"iron": 1}),
    ("coinpress", "heartstone>coin", {"coin": 1}, {"heartstone": 1}),
    ("coinpress", "coin>iron", {"iron": 1}, {"coin": 1}),
    ("coinpress", "coin>heartstone", {"heartstone": 1}, {"coin": 1}),
    ("metalworks", "heartstone>iron", {"iron": 1}, {"heartstone": 1}),
    ("metalworks", "iron>heartstone", {"heartstone": 1}, {"iron": 1}),
    ("pickforge", "stone+rune>hammer", {"hammer": 1}, {"stone": 1, "rune": 1}),
    ("pickforge", "2coin>hammer", {"hammer": 1}, {"coin": 2}),
    ("runesmithy", "stone>rune", {"rune": 1}, {"stone": 1}),
    ("runesmithy", "iron>rune", {"rune": 1}, {"iron": 1}),
    ("runesmithy", "rune>stone", {"stone": 1}, {"rune": 1}),
    ("runesmithy", "rune>iron", {"iron": 1}, {"rune": 1}),
    ("stonegrinder", "heartstone>2stone", {"stone": 2}, {"heartstone": 1}),
    ("stonegrinder", "2stone>heartstone", {"heartstone": 1}, {"stone": 2}),
    ("stonemill", "stone>iron", {"iron": 1}, {"stone": 1}),
    ("stonemill", "iron>stone", {"stone": 1}, {"iron": 1}),
    ("toolforge", "heartstone>hammer", {"hammer": 1}, {"heartstone": 1}),
    ("toolforge", "hammer>heartstone", {"heartstone": 1}, {"hammer": 1}),
    ("wheeljack", "iron+hammer>cart", {"cart": 1}, {"iron": 1, "hammer": 1}),
    ("wheeljack", "2rune>cart", {"cart": 1}, {"rune": 2}),
]


@pytest.mark.parametrize(("workshop", "use", "gains", "loses"), RATES)
def test_workshop_exchange_rates_follow_the_rulebook(
    monkeypatch: pytest.MonkeyPatch,
    workshop: str,
    use: str,
    gains: dict[str, int],
    loses: dict[str, int],
) -> None:
    game = _game(monkeypatch, workshop)
    game.play(0, f"use S1 {use}")
    after = game.state.account_of(0).storage
    for name, n in MINE.items():
        assert after[name] == n + gains.get(name, 0) - loses.get(name, 0), name


@pytest.mark.parametrize(
    ("workshop", "use"),
    [
        ("charmcrafter", "coin>2rune"),
        ("coinpress", "stone>coin"),
        ("stonegrinder", "heartstone>stone"),
        ("pickforge", "stone>hammer"),
        ("wheeljack", "3stone>cart"),
        ("metalworks", "stone>iron"),
    ],
)
def test_workshop_refuses_a_conversion_it_does_not_do(
    monkeypatch: pytest.MonkeyPatch, workshop: str, use: str
) -> None:
    err = _refused(_game(monkeypatch, workshop), f"use S1 {use}", "bad_conversion")
    assert "does not do that" in err.message


def test_workshop_gains_go_to_storage_and_free_the_troll(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = _game(monkeypatch, "charmcrafter")
    set_storage(game.state, 0)
    put_troll(game.state, 0, "A1", "L1-05", [True, True])  # coin, coin
    game.play(0, "use S1 coin>rune")
    assert storage(game.state, 0) == {"rune": 1}
    assert game.state.players[0].pyramid["A1"].held == [False, True]


def test_workshop_may_be_used_once_per_open_entrance(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game(monkeypatch, "stonemill", entrances=2)
    game.play(0, "use S1 stone>iron")
    game.play(0, "use S1 iron>stone")
    _refused(game, "use S1 stone>iron", "no_uses_left")
    assert legal_actions(game.state, 0, "use") == []


def test_each_use_is_a_distinct_conversion(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game(monkeypatch, "coinpress", entrances=3)
    for use in ("iron>coin", "heartstone>coin", "coin>iron"):
        game.play(0, f"use S1 {use}")
    assert storage(game.state, 0)["coin"] == 5
    assert storage(game.state, 0)["iron"] == 4
    assert storage(game.state, 0)["heartstone"] == 3


def test_only_one_workshop_per_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game(monkeypatch, "stonemill")
    game.state.board.workshops["S2"] = "stonemill"
    monkeypatch.setattr("rules.workshops.workshop_uses", lambda st, seat, site: 4)
    game.play(0, "use S1 stone>iron")
    _refused(game, "use S2 stone>iron", "one_workshop")


def test_workshop_out_of_reach_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game(monkeypatch, "stonemill", entrances=0)
    _refused(game, "use S1 stone>iron", "no_access")
    _refused(game, "use S9 stone>iron", "no_workshop")


def test_workshop_after_recruit_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game(monkeypatch, "stonemill")
    game.play(0, "recruit 1.1 B1")
    _refused(game, "use S1 stone>iron", "out_of_order")


def test_spell_and_workshop_in_either_order(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game(monkeypatch, "charmcrafter")
    game.state.spellbook[0].spell = "earth-ritual"
    game.play(0, "use S1 coin>rune")
    game.play(0, "cast earth-ritual 3stone")
    game.play(0, "use S1 coin>rune")
    assert storage(game.state, 0)["rune"] == 5


def test_cartwright_refuses_clan_carts(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game(monkeypatch, "cartwright")
    set_storage(game.state, 0)
    put_troll(game.state, 0, "A1", "L1-08", [True, True])  # stone, fire cart
    err = _refused(game, "use S1 cart>heartstone pay fire-cart@A1", "clan_cart")
    assert "wild" in err.message
    _refused(game, "use S1 cart>heartstone", "cannot_afford")


def test_cartwright_takes_a_wild_cart(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game(monkeypatch, "cartwright")
    set_storage(game.state, 0)
    put_troll(game.state, 0, "A1", "L1-04", [False, True])  # stone, wild cart
    put_troll(game.state, 0, "A2", "L1-08", [False, True])  # stone, fire cart
    game.play(0, "use S1 cart>heartstone")
    pyramid = game.state.players[0].pyramid
    assert pyramid["A1"].held == [False, False]
    assert pyramid["A2"].held == [False, True]
    assert storage(game.state, 0) == {"heartstone": 1}


def test_pickforge_took_clan_carts_in_edition_1_games(monkeypatch: pytest.MonkeyPatch) -> None:
    game = drafted_game(players=2, seed=23, edition=1)
    empty_trolls(game.state, 0)
    open_workshop(monkeypatch, game.state, "S1", "pickforge", 4)
    set_storage(game.state, 0, stone=1)
    put_troll(game.state, 0, "A1", "L1-08", [False, True])
    game.play(0, "use S1 stone+cart>hammer pay fire-cart@A1 stone@store")
    assert storage(game.state, 0) == {"hammer": 1}


def test_quartermaster_moves_a_clan_cart_into_storage_as_wild(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = _game(monkeypatch, "quartermaster")
    set_storage(game.state, 0)
    put_troll(game.state, 0, "A1", "L1-08", [True, True])
    game.play(0, "use S1 move fire-cart@A1")
    assert storage(game.state, 0) == {"cart": 1}
    assert game.state.players[0].pyramid["A1"].held == [True, False]


def test_quartermaster_moves_only_resources_held_by_trolls(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = _game(monkeypatch, "quartermaster")
    put_troll(game.state, 0, "A1", "L1-08", [True, False])
    _refused(game, "use S1 move fire-cart@A1", "not_owned")
    with pytest.raises(NotationError):
        game.play(0, "use S1 move coin@store")


def test_quartermaster_action_from_storage_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rule: move a resource *from one of your trolls*. An action value naming
    storage (not only the text notation) must be refused and use up nothing."""
    game = _game(monkeypatch, "quartermaster", entrances=1)
    before = game.state.to_json()
    with pytest.raises(IllegalActionError):
        game.play(0, UseWorkshop("S1", move=Pay(Resource.COIN, STORE)))
    assert game.state.to_json() == before


def test_legal_uses_are_the_conversions_you_can_pay(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game(monkeypatch, "charmcrafter")
    set_storage(game.state, 0, coin=1)
    assert [str(a) for a in legal_actions(game.state, 0, "use")] == ["use S1 coin>rune"]
