"""Refusals that fit the moment: what the game's phase and turn refuse comes before what
is wrong with the words (a gate asked for in play is refused as a gate, whatever point
it names), each sentence names what is wrong now, a player's words are quoted back at
most `ECHO_LIMIT` characters long, and a refusal told inside another sentence begins
in lower case."""

from __future__ import annotations

import pytest
from helpers import drafted_game, gated_game

from rules.errors import ECHO_LIMIT, Amounts, RulesError, clause, echo
from rules.game import Game
from rules.legal import legal_actions
from rules.steps import seats_to_act

GARBAGE = "q" * 300


def _refusal(game: Game, seat: int, action: str) -> RulesError:
    before = game.state.to_json()
    with pytest.raises(RulesError) as info:
        game.play(seat, action)
    assert game.state.to_json() == before
    return info.value


def _echoes_at_most_the_limit(error: RulesError) -> None:
    """No more of the garbage than fits in an echo (its quotes and "…" aside)."""
    assert "q" * (ECHO_LIMIT - 2) not in str(error), str(error)


def test_a_gate_during_play_is_refused_as_a_gate_whatever_it_names() -> None:
    game = drafted_game()
    seat = seats_to_act(game.state)[0]
    for point in ("W1", "Z99", GARBAGE, "💥", "a b c"):
        error = _refusal(game, seat, f"gate {point}")
        assert error.code == "not_gates", (point, str(error))
        assert str(error) == "The gates are all placed: the game is in play."


def test_a_gate_during_the_draft_says_the_draft_is_under_way() -> None:
    game = gated_game()
    error = _refusal(game, 0, f"gate {GARBAGE}")
    assert str(error) == "The gates are all placed: the starting-troll draft is under way."


def test_gates_after_the_draft_are_refused_while_it_runs_and_once_play_begins() -> None:
    """The first edition's order: the draft, then the gates."""
    game = Game.new(players=2, seed=1, edition=1)
    assert game.state.phase == "draft"
    assert str(_refusal(game, 0, "gate W1")) == "Gates are placed after the starting-troll draft."
    game = drafted_game(edition=1)
    seat = seats_to_act(game.state)[0]
    error = _refusal(game, seat, f"gate {GARBAGE}")
    assert str(error) == "The gates are all placed: the game is in play."


def test_a_start_point_that_does_not_exist_lists_the_points_to_choose_from() -> None:
    game = Game.new(players=2, seed=1)
    seat = seats_to_act(game.state)[0]
    free = [str(a).split()[1] for a in legal_actions(game.state, seat, "gate")]
    error = _refusal(game, seat, "gate xyz")
    assert error.code == "no_such_point"
    assert str(error).startswith("There is no start point 'xyz': choose one of ")
    assert all(p in str(error) for p in free)
    _echoes_at_most_the_limit(_refusal(game, seat, f"gate {GARBAGE}"))


def test_a_turns_action_before_the_turns_begin_names_the_part_of_the_setup() -> None:
    game = Game.new(players=2, seed=1)
    seat = seats_to_act(game.state)[0]
    for action in ("dig I2 garbage stone", f"dig {GARBAGE}", "end", "trade 💥"):
        error = _refusal(game, seat, action)
        assert error.code == "not_playing"
        assert str(error) == "The turns have not begun: the gates are still being placed."
    game = gated_game()
    error = _refusal(game, 0, "recruit 1.1 B1 garbage")
    assert str(error) == "The turns have not begun: the starting trolls are still being drafted."


def test_a_bad_pedestal_names_the_pedestal() -> None:
    game = drafted_game()
    seat = seats_to_act(game.state)[0]
    error = _refusal(game, seat, "dig I2 F7*+G7 stone pedestal garbage")
    assert str(error) == "'garbage' is not a pedestal clan (fire, ice or moon)."
    error = _refusal(game, seat, f"dig I2 F7*+G7 stone pedestal {GARBAGE}")
    _echoes_at_most_the_limit(error)
    # a pedestal after a workshop is refused for its place
    error = _refusal(game, seat, "dig I2 F7*+G7 stone workshop G6=toolforge pedestal fire")
    assert "before workshops" in str(error)


def test_a_step_refusal_comes_before_the_words() -> None:
    game = drafted_game()
    seat = seats_to_act(game.state)[0]
    game.play(seat, legal_actions(game.state, seat, "recruit")[0])
    error = _refusal(game, seat, f"dig {GARBAGE} 💥")
    assert str(error) == "You have already recruited or dug this turn."


# every place of every action where a player's word is quoted back
LONG_WORDS = [
    f"gate {GARBAGE}",
    f"keep {GARBAGE} A1",
    f"keep orange-1 {GARBAGE}",
    f"cast {GARBAGE}",
    f"cast earth-ritual {GARBAGE}",
    f"cast summon-rockeater {GARBAGE} F7*+G7 stone",
    f"cast ceremony-of-exaltation {GARBAGE} 3.1",
    f"use {GARBAGE} stone>iron",
    f"use S1 {GARBAGE}>iron",
    f"use S1 stone>iron pay {GARBAGE}",
    f"trade {GARBAGE}>iron",
    f"trade 4stone>iron pay {GARBAGE}@store",
    f"recruit {GARBAGE} B1",
    f"recruit 1.1 {GARBAGE}",
    f"recruit 3.1 B1 {GARBAGE}",
    f"dig {GARBAGE} F7*+G7 stone",
    f"dig I2 {GARBAGE} stone",
    f"dig I2 F7*+G7 {GARBAGE}",
    f"dig I2 F7*+G7 stone workshop F6={GARBAGE}",
    f"hall {GARBAGE} F7",
    f"hall trove {GARBAGE}",
    f"move F7>{GARBAGE}",
    f"{GARBAGE} F7",
    GARBAGE,
]


@pytest.mark.parametrize("action", LONG_WORDS)
def test_a_long_word_is_quoted_back_at_most_the_echo_limit(action: str) -> None:
    for game in (Game.new(players=2, seed=1), gated_game(), drafted_game()):
        for seat in seats_to_act(game.state):
            _echoes_at_most_the_limit(_refusal(game, seat, action))


def test_the_echo_is_quoted_and_cut() -> None:
    assert echo("Z99") == "'Z99'"
    cut = echo("x" * 300)
    assert len(cut) == ECHO_LIMIT and cut.endswith("…'") and cut.startswith("'x")
    assert len(echo("x" * (ECHO_LIMIT - 2))) == ECHO_LIMIT  # fits whole
    assert echo("\x00") == "'\\x00'"  # an unprintable character is shown escaped


def test_a_refusal_inside_another_sentence_begins_in_lower_case() -> None:
    assert clause("There is no tunnel tile {shape}.", "There is no tunnel tile 'X'.") == (
        "there is no tunnel tile 'X'."
    )
    # a name or a field at the start stays as it is
    assert clause("{cell} is already dug.", "F7 is already dug.") == "F7 is already dug."
    assert clause("F7 is {what}.", "F7 is dug.") == "F7 is dug."
    game = drafted_game()
    seat = seats_to_act(game.state)[0]
    game.state.spellbook[0].spell = "summon-rockeater"
    error = _refusal(game, seat, "cast summon-rockeater I2 F7*+G7 garbage")
    assert str(error) == (
        "Summon Rockeater: describe the tunnel as for dig"
        " ('garbage' is not a mineral (stone, iron or heartstone))."
    )


def test_the_rules_english_counts_pieces_and_keeps_masses() -> None:
    """The rules' own English (the CLI, a refusal read without the bot) counts coins,
    carts, hammers, runes and "resources", and says stone, iron and heartstone as masses."""
    told = str(Amounts(((None, 22), ("coin", 2), ("cart", 1), ("stone", 5), ("iron", 1))))
    assert told == "22 resources, 2 coins, 1 cart, 5 stone, 1 iron"
