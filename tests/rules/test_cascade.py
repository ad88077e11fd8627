"""The cascade: a recruit activates itself, the two trolls beneath it, the two beneath
each of those, and so on; an activated troll gains every shown resource it is not
already holding, onto the card, never into storage."""

from __future__ import annotations

from collections import Counter

from helpers import drafted_game, put_troll, set_horde, set_storage, storage

from rules.content import load_content
from rules.payment import owned_counts
from rules.pyramid import below, cascade_slots
from rules.state import State

# A full bottom row, B1..B3 and C1; the recruit goes to C2 (above B2 and B3).
LAYOUT: dict[str, tuple[str, list[bool]]] = {
    "A1": ("L1-01", [False, False]),  # outside the cascade: stays empty
    "A2": ("L1-01", [True, False]),  # stone held on one symbol: gains the other stone only
    "A3": ("L1-10", [False, False]),  # beneath both B2 and B3: gains stone and iron once
    "A4": ("L1-05", [True, True]),  # full already: gains nothing
    "B1": ("L1-03", [False, False]),  # outside the cascade
    "B2": ("L1-11", [False, True]),  # coin held: gains only the heartstone
    "B3": ("L1-12", [True, True]),  # full already
    "C1": ("L1-13", [False, False]),  # outside the cascade
}
RECRUIT = "L1-21"  # heartstone, hammer


def _recruit_c2() -> tuple[State, dict[str, list[bool]], Counter[str], Counter[str]]:
    game = drafted_game(players=2, seed=3)
    pyramid = game.state.players[0].pyramid
    pyramid.clear()
    for slot, (card, held) in LAYOUT.items():
        put_troll(game.state, 0, slot, card, held)
    set_horde(game.state, "1.1", RECRUIT)
    set_storage(game.state, 0, stone=1)
    before = {slot: list(t.held) for slot, t in pyramid.items()}
    owned_before = Counter({r.value: n for r, n in owned_counts(game.state, 0).items()})
    game.play(0, "recruit 1.1 C2")
    owned_after = Counter({r.value: n for r, n in owned_counts(game.state, 0).items()})
    return game.state, before, owned_before, owned_after


def test_cascade_reaches_the_recruit_the_two_beneath_and_the_two_beneath_each() -> None:
    assert below("C2") == ("B2", "B3")
    assert below("B2") == ("A2", "A3") and below("B3") == ("A3", "A4")
    assert set(cascade_slots("C2")) == {"C2", "B2", "B3", "A2", "A3", "A4"}
    assert len(cascade_slots("C2")) == 6  # A3 sits under two trolls but activates once


def test_cascade_from_the_cap_activates_all_ten_trolls_once() -> None:
    slots = cascade_slots("D1")
    assert len(slots) == len(set(slots)) == 10


def test_cascade_from_row_b_activates_three_trolls() -> None:
    assert set(cascade_slots("B1")) == {"B1", "A1", "A2"}


def test_recruit_activates_itself_and_fills_every_empty_symbol_beneath() -> None:
    state, _, _, _ = _recruit_c2()
    pyramid = state.players[0].pyramid
    for slot in ("C2", "B2", "B3", "A2", "A3", "A4"):
        assert all(pyramid[slot].held), slot
    assert pyramid["C2"].card == RECRUIT


def test_trolls_outside_the_cascade_gain_nothing() -> None:
    state, before, _, _ = _recruit_c2()
    pyramid = state.players[0].pyramid
    for slot in ("A1", "B1", "C1"):
        assert pyramid[slot].held == before[slot], slot


def test_a_held_symbol_gains_nothing_more() -> None:
    """Exactly the empty symbols in the cascade gain one resource each."""
    _, before, owned_before, owned_after = _recruit_c2()
    trolls = load_content().trolls
    expected: Counter[str] = Counter()
    for slot in ("B2", "B3", "A2", "A3", "A4"):
        card = LAYOUT[slot][0]
        for (res, _clan), held in zip(trolls[card].produce, before[slot], strict=True):
            if not held:
                expected[res.value] += 1
    for res, _clan in trolls[RECRUIT].produce:
        expected[res.value] += 1
    # A2 gains 1 stone, A3 stone+iron, B2 heartstone, the recruit heartstone+hammer
    assert expected == Counter(stone=2, iron=1, heartstone=2, hammer=1)
    assert owned_after - owned_before == expected
    assert owned_before - owned_after == Counter()


def test_cascade_gains_go_onto_the_trolls_not_into_storage() -> None:
    state, _, _, _ = _recruit_c2()
    assert storage(state, 0) == {"stone": 1}


def test_full_troll_in_the_cascade_keeps_exactly_what_it_held() -> None:
    state, _, owned_before, owned_after = _recruit_c2()
    pyramid = state.players[0].pyramid
    assert pyramid["A4"].held == [True, True]
    assert pyramid["B3"].held == [True, True]
    # A4's two coins and B2's coin were held already; C1's empty coin is outside
    assert owned_after["coin"] == owned_before["coin"] == 3


def test_recruit_into_row_b_activates_only_the_two_beneath() -> None:
    game = drafted_game(players=2, seed=3)
    state = game.state
    for slot in ("A1", "A2", "A3", "A4"):
        state.players[0].pyramid[slot].held = [False, False]
    set_horde(state, "1.1", RECRUIT)
    game.play(0, "recruit 1.1 B1")
    pyramid = game.state.players[0].pyramid
    assert [pyramid[s].held for s in ("A1", "A2", "A3", "A4")] == [
        [True, True],
        [True, True],
        [False, False],
        [False, False],
    ]
    assert pyramid["B1"].held == [True, True]
