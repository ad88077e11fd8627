"""Casting spells: the rune, disintegration on the third rune, all-or-nothing effects,
and the effects of the spells that do not need the board."""

from __future__ import annotations

import pytest
from helpers import (
    cards,
    drafted_game,
    empty_trolls,
    horde_bribes,
    put_troll,
    set_horde,
    set_storage,
    storage,
)

from rules.content import AwakenEffect, load_content
from rules.errors import IllegalActionError
from rules.game import Game


def _game(book: tuple[str, str, str] = ("earth-ritual", "golden-mask", "unburden")) -> Game:
    game = drafted_game(players=2, seed=17)
    empty_trolls(game.state, 0)
    set_storage(game.state, 0, rune=1)
    deck = game.state.spell_deck
    for slot, spell in zip(game.state.spellbook, book, strict=True):
        if spell in deck:
            deck.remove(spell)
        slot.spell, slot.runes = spell, 0
    for row in game.state.horde:
        for hs in row:
            hs.bribes = []
    return game


def _refused(game: Game, action: str, code: str) -> None:
    before = game.state.to_json()
    with pytest.raises(IllegalActionError) as info:
        game.play(0, action)
    assert info.value.code == code
    assert game.state.to_json() == before


def test_casting_spends_one_rune_onto_the_spell() -> None:
    game = _game()
    game.play(0, "cast earth-ritual 3stone")
    assert storage(game.state, 0) == {"stone": 3}
    assert game.state.spellbook[0].runes == 1


def test_second_rune_leaves_the_spell_in_the_spellbook() -> None:
    game = _game()
    game.state.spellbook[0].runes = 1
    game.play(0, "cast earth-ritual 2iron")
    assert game.state.spellbook[0].spell == "earth-ritual"
    assert game.state.spellbook[0].runes == 2
    assert storage(game.state, 0) == {"iron": 2}


def test_spell_disintegrates_on_third_rune() -> None:
    game = _game()
    game.state.spellbook[0].runes = 2
    top = game.state.spell_deck[0]
    size = len(game.state.spell_deck)
    game.play(0, "cast earth-ritual heartstone")
    state = game.state
    assert storage(state, 0) == {"heartstone": 1}  # the effect is carried out first
    assert state.spellbook[0].spell == top
    assert state.spellbook[0].runes == 0
    assert state.spell_deck[-1] == "earth-ritual"
    assert len(state.spell_deck) == size


def test_cast_needs_a_rune() -> None:
    game = _game()
    set_storage(game.state, 0, coin=4)
    _refused(game, "cast earth-ritual 3stone", "cannot_afford")


def test_rune_may_come_from_a_troll() -> None:
    game = _game()
    set_storage(game.state, 0)
    put_troll(game.state, 0, "A1", "L1-06", [True, True])  # stone, rune
    game.play(0, "cast earth-ritual 3stone pay rune@A1")
    assert game.state.players[0].pyramid["A1"].held == [True, False]


def test_spell_not_in_the_spellbook_is_refused() -> None:
    _refused(_game(), "cast tool-chant 2hammer", "no_such_spell")


def test_earth_ritual_offers_three_stone_two_iron_or_one_heartstone() -> None:
    _refused(_game(), "cast earth-ritual 2stone", "bad_spell_choice")
    for choice, gained in (("3stone", {"stone": 3}), ("2iron", {"iron": 2})):
        game = _game()
        game.play(0, f"cast earth-ritual {choice}")
        assert storage(game.state, 0) == gained


def test_spell_effect_is_all_or_nothing() -> None:
    """Transmuting 3 stone with only 2 is refused outright: no rune, no stone spent."""
    game = _game(("transmutation", "golden-mask", "unburden"))
    set_storage(game.state, 0, rune=1, stone=2)
    _refused(game, "cast transmutation 3stone>iron", "cannot_afford")
    game.play(0, "cast transmutation 2stone>iron")
    assert storage(game.state, 0) == {"iron": 2}


def test_unburden_of_a_resource_not_held_is_refused_whole() -> None:
    game = _game()
    put_troll(game.state, 0, "A1", "L1-08", [True, False])  # stone held, fire cart not
    _refused(game, "cast unburden stone@A1 fire-cart@A1", "not_owned")


def test_casting_with_none_pays_the_rune_and_ignores_the_effect() -> None:
    game = _game(("summon-rockeater", "golden-mask", "unburden"))
    before = game.state.account_of(0).storage.copy()
    game.play(0, "cast summon-rockeater none")
    assert game.state.account_of(0).storage == {**before, "rune": 0}
    assert game.state.spellbook[0].runes == 1


def test_golden_mask_lets_bribes_be_any_resources() -> None:
    game = _game()
    set_storage(game.state, 0, rune=1, stone=5)
    _refused(game, "recruit 3.1 B1 fire", "cannot_afford")
    game.play(0, "cast golden-mask")
    game.play(0, "recruit 3.1 B1 fire")
    for slot in ("2.1", "2.2", "1.1", "1.2", "1.3"):
        assert horde_bribes(game.state, slot) == ["stone"], slot
    assert storage(game.state, 0) == {}


def test_golden_mask_lasts_only_this_turn() -> None:
    game = _game()
    game.play(0, "cast golden-mask")
    assert game.state.turn is not None and game.state.turn.flags == ["any_bribes"]
    game.play(0, "recruit 1.1 B1")
    game.play(0, "end")
    assert game.state.turn is not None and game.state.turn.flags == []


def test_unburden_moves_a_clan_cart_to_storage_as_a_wild_cart() -> None:
    game = _game()
    put_troll(game.state, 0, "A1", "L1-08", [True, True])  # stone, fire cart
    game.play(0, "cast unburden fire-cart@A1")
    assert storage(game.state, 0) == {"cart": 1}
    assert game.state.players[0].pyramid["A1"].held == [True, False]


def test_unburdened_rune_cannot_also_pay_for_the_spell() -> None:
    game = _game()
    set_storage(game.state, 0)
    put_troll(game.state, 0, "A1", "L1-06", [True, True])  # stone, rune
    _refused(game, "cast unburden rune@A1", "cannot_afford")


def test_gather_tribute_takes_the_bribes_and_the_troll_stays() -> None:
    game = _game(("gather-tribute", "golden-mask", "unburden"))
    card = game.state.horde[0][2].card
    _refused(game, "cast gather-tribute 1.3", "bad_spell_choice")  # no bribes there
    set_horde(game.state, "1.3", card, bribes=["coin", "coin", "rune"])
    game.play(0, "cast gather-tribute 1.3")
    assert storage(game.state, 0) == {"coin": 2, "rune": 1}
    assert game.state.horde[0][2].card == card
    assert horde_bribes(game.state, "1.3") == []


def test_call_of_the_bag_takes_a_pedestal_of_your_choice() -> None:
    game = _game(("call-of-the-bag", "golden-mask", "unburden"))
    fires = game.state.bag.count("fire")
    game.play(0, "cast call-of-the-bag fire")
    assert game.state.account_of(0).pedestals["fire"] == 1
    assert game.state.bag.count("fire") == fires - 1


def test_hordes_favour_makes_a_level2_troll_free() -> None:
    game = _game(("hordes-favour", "golden-mask", "unburden"))
    game.play(0, "cast hordes-favour")
    game.play(0, "recruit 2.2 B1")
    assert all(not hs.bribes for row in game.state.horde for hs in row)


def test_rousing_drums_fills_only_empty_symbols() -> None:
    game = _game(("rousing-drums", "golden-mask", "unburden"))
    put_troll(game.state, 0, "B1", "L1-01", [True, False])
    put_troll(game.state, 0, "A1", "L1-10", [False, False])
    game.play(0, "cast rousing-drums B1")
    pyramid = game.state.players[0].pyramid
    assert pyramid["B1"].held == [True, True]
    effect = load_content().spell("rousing-drums").effect
    assert isinstance(effect, AwakenEffect)
    assert pyramid["A1"].held == [effect.cascade, effect.cascade]
    assert pyramid["A3"].held == [False, False]  # never beneath B1


def test_exaltation_swaps_a_level2_troll_for_a_level3_from_the_horde() -> None:
    game = _game(("ceremony-of-exaltation", "golden-mask", "unburden"))
    state = game.state
    old_card = state.decks[1].pop()
    put_troll(state, 0, "B1", old_card, True)
    new_card = state.horde[2][0].card
    set_horde(state, "3.1", new_card, bribes=["coin", "coin"])
    top = state.decks[2][0]
    game.play(0, "cast ceremony-of-exaltation B1 3.1")
    state = game.state
    troll = state.players[0].pyramid["B1"]
    assert troll.card == new_card
    assert troll.held == [False] * 4  # the new troll does not activate
    assert storage(state, 0) == {}  # bribes on it are discarded, no pedestal
    assert sum(state.account_of(0).pedestals.values()) == 0
    assert state.horde[2][0].card == top and horde_bribes(state, "3.1") == []
    assert old_card not in state.decks[1]  # the level-2 troll leaves the game
    assert state.players[0].recruited_levels == 1


def test_exaltation_needs_a_level2_troll_of_yours() -> None:
    game = _game(("ceremony-of-exaltation", "golden-mask", "unburden"))
    put_troll(game.state, 0, "B1", cards(1)[0])
    _refused(game, "cast ceremony-of-exaltation B1 3.1", "bad_spell_choice")
    _refused(game, "cast ceremony-of-exaltation A1 3.1", "bad_spell_choice")
