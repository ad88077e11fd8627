"""Recruiting from the horde: bribes, pedestals, refills, retirement, placement."""

from __future__ import annotations

import pytest
from helpers import (
    cards,
    drafted_game,
    empty_trolls,
    fill_pyramid,
    horde_bribes,
    rulebook_text,
    set_horde,
    set_storage,
    storage,
)

from rules.actions import Recruit
from rules.errors import IllegalActionError
from rules.game import Game
from rules.legal import legal_actions
from rules.pyramid import horde_position


def _game(coins: int = 0) -> Game:
    game = drafted_game(players=2, seed=5)
    empty_trolls(game.state, 0)
    set_storage(game.state, 0, coin=coins)
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


def test_level1_recruit_is_free() -> None:
    game = _game(coins=3)
    game.play(0, "recruit 1.2 B1")
    assert storage(game.state, 0) == {"coin": 3}
    assert all(not hs.bribes for row in game.state.horde for hs in row)


def test_level2_recruit_bribes_the_two_level1_trolls_beneath() -> None:
    game = _game(coins=3)
    game.play(0, "recruit 2.2 B1")
    assert storage(game.state, 0) == {"coin": 1}
    assert horde_bribes(game.state, "1.2") == ["coin"]
    assert horde_bribes(game.state, "1.3") == ["coin"]
    assert [len(horde_bribes(game.state, s)) for s in ("1.1", "1.4", "1.5")] == [0, 0, 0]


def test_level3_recruit_bribes_five_trolls_beneath() -> None:
    game = _game(coins=5)
    game.play(0, "recruit 3.2 B1 fire")
    assert storage(game.state, 0) == {}
    bribed = ["2.2", "2.3", "1.2", "1.3", "1.4"]
    for slot in bribed:
        assert horde_bribes(game.state, slot) == ["coin"], slot
    for slot in ("2.1", "2.4", "1.1", "1.5", "3.1", "3.3"):
        assert horde_bribes(game.state, slot) == [], slot


def test_cannot_recruit_without_a_coin_for_every_bribe() -> None:
    game = _game(coins=4)
    _refused(game, "recruit 3.1 B1 fire", "cannot_afford")
    assert not any(a.horde.startswith("3.") for a in legal_actions(game.state, 0, "recruit"))


def test_bribes_on_the_recruited_troll_go_to_storage() -> None:
    game = _game()
    set_horde(game.state, "1.3", cards(1)[0], bribes=["coin", "coin", "rune"])
    game.play(0, "recruit 1.3 B2")
    assert storage(game.state, 0) == {"coin": 2, "rune": 1}
    assert horde_bribes(game.state, "1.3") == []


def test_level2_recruit_takes_the_pedestal_on_it() -> None:
    game = _game(coins=2)
    state = game.state
    set_horde(state, "2.1", cards(2)[0], pedestal="ice")
    bag_before = list(state.bag)
    game.play(0, "recruit 2.1 B1")
    state = game.state
    assert state.account_of(0).pedestals == {"fire": 0, "ice": 1, "moon": 0}
    # the fresh level-2 troll gets a pedestal from the bag
    row, j = horde_position("2.1")
    assert state.horde[row][j].pedestal == bag_before[0]
    assert state.bag == bag_before[1:]


def test_level3_recruit_lets_you_choose_a_pedestal() -> None:
    game = _game(coins=5)
    moons = game.state.bag.count("moon")
    game.play(0, "recruit 3.1 B1 moon")
    assert game.state.account_of(0).pedestals["moon"] == 1
    assert game.state.bag.count("moon") == moons - 1


LEVEL3 = (
    "If it was a Level-3 troll you may look through the draw bag and take a remaining"
    " pedestal of your choice (if there are any) into your storage."
)


def test_a_level3_recruit_may_decline_the_pedestal() -> None:
    """ "you may look through the draw bag and take a remaining pedestal" (PL "gracz
    może", ES "puedes"): taking none is allowed."""
    assert LEVEL3 in rulebook_text()
    game = _game(coins=5)
    bag = list(game.state.bag)
    assert bag, "the bag holds pedestals"
    assert Recruit("3.1", "B1", None) in legal_actions(game.state, 0, "recruit")
    game.play(0, "recruit 3.1 B1")
    assert game.state.bag == bag
    assert sum(game.state.account_of(0).pedestals.values()) == 0


def test_a_level3_recruit_may_take_a_pedestal_of_its_choice_still_in_the_bag() -> None:
    game = _game(coins=5)
    game.state.bag = [c for c in game.state.bag if c != "ice"]
    _refused(game, "recruit 3.1 B1 ice", "no_pedestal")
    game.play(0, "recruit 3.1 B1 moon")
    assert game.state.account_of(0).pedestals["moon"] == 1


def test_level3_recruit_with_an_empty_bag_takes_no_pedestal() -> None:
    game = _game(coins=5)
    game.state.bag = []
    game.play(0, "recruit 3.1 B1")
    assert sum(game.state.account_of(0).pedestals.values()) == 0


def test_only_a_level3_recruit_chooses_a_pedestal() -> None:
    game = _game(coins=2)
    _refused(game, "recruit 2.1 B1 fire", "no_pedestal_choice")


def test_recruited_slot_is_refilled_from_the_same_level_deck() -> None:
    game = _game(coins=2)
    top = [deck[0] for deck in game.state.decks]
    game.play(0, "recruit 2.3 B1")
    row, j = horde_position("2.3")
    assert game.state.horde[row][j].card == top[1]
    assert game.state.decks[1][0] != top[1]


def test_empty_level_deck_refills_from_the_next_higher_level() -> None:
    game = _game()
    game.state.decks[0] = []
    level2_top = game.state.decks[1][0]
    game.play(0, "recruit 1.4 B1")
    assert game.state.horde[0][3].card == level2_top


def test_empty_top_deck_refills_from_the_next_lower_level() -> None:
    game = _game(coins=5)
    game.state.decks[2] = []
    level2_top = game.state.decks[1][0]
    game.play(0, "recruit 3.3 B1 fire")
    assert game.state.horde[2][2].card == level2_top


def test_horde_troll_with_four_bribes_retires() -> None:
    game = _game(coins=2)
    state = game.state
    retiring = state.horde[0][1].card
    level1_top = state.decks[0][0]
    set_horde(state, "1.2", retiring, bribes=["coin", "coin", "coin"])
    game.play(0, "recruit 2.1 B1")
    state = game.state
    assert state.horde[0][1].card == level1_top
    assert horde_bribes(state, "1.2") == []  # the 4 bribes return to the supply
    assert state.decks[0][-1] == retiring  # the retired troll goes under its deck
    assert horde_bribes(state, "1.1") == ["coin"]
    assert storage(state, 0) == {}


def test_horde_troll_with_three_bribes_stays() -> None:
    game = _game(coins=2)
    card = game.state.horde[0][1].card
    set_horde(game.state, "1.2", card, bribes=["coin", "coin"])
    game.play(0, "recruit 2.1 B1")
    assert game.state.horde[0][1].card == card
    assert horde_bribes(game.state, "1.2") == ["coin", "coin", "coin"]


def test_recruit_must_stand_above_two_trolls() -> None:
    game = _game()
    _refused(game, "recruit 1.1 C1", "bad_slot")
    _refused(game, "recruit 1.1 A1", "bad_slot")


def test_recruit_may_go_above_any_pair_of_trolls() -> None:
    game = _game()
    slots = {a.slot for a in legal_actions(game.state, 0, "recruit")}
    assert slots == {"B1", "B2", "B3"}


def test_full_pyramid_cannot_recruit() -> None:
    game = _game(coins=5)
    fill_pyramid(game.state, 0, 10)
    _refused(game, "recruit 1.1 D1", "pyramid_full")
    assert legal_actions(game.state, 0, "recruit") == []
    game.play(0, "end")  # cannot recruit, cannot dig: the step is skipped
    assert game.state.turn is not None and game.state.turn.seat == 1


def test_only_one_recruit_per_turn() -> None:
    game = _game()
    game.play(0, "recruit 1.1 B1")
    _refused(game, "recruit 1.2 B2", "step_done")


def test_recruited_levels_add_up_for_the_tie_break() -> None:
    game = _game(coins=2)
    game.play(0, "recruit 2.1 B1")
    assert game.state.players[0].recruited_levels == 2


def test_empty_horde_slot_cannot_be_recruited() -> None:
    game = _game()
    set_horde(game.state, "1.1", None)
    _refused(game, "recruit 1.1 B1", "empty_slot")
    assert not any(a.horde == "1.1" for a in legal_actions(game.state, 0, "recruit"))


def test_no_bribe_goes_on_an_empty_horde_slot() -> None:
    game = _game(coins=2)
    set_horde(game.state, "1.1", None)
    game.play(0, "recruit 2.1 B1")
    assert storage(game.state, 0) == {"coin": 1}
    assert horde_bribes(game.state, "1.2") == ["coin"]
