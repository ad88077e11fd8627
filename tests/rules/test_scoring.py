"""Final scoring: coronation tokens, pedestal point tokens, leftover sets after the best
trades, the tie-break, and team scoring. (Great halls and statues need the board.)"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement, product

import pytest
from helpers import drafted_game, empty_trolls, put_troll, set_storage

from rules.game import Game
from rules.resources import RESOURCES, Resource
from rules.scoring import best_leftover_sets, current_scores, final_outcome
from rules.state import PedestalToken

R = Resource


def _counts(**named: int) -> dict[Resource, int]:
    counts = dict.fromkeys(RESOURCES, 0)
    for name, n in named.items():
        counts[Resource(name)] = n
    return counts


@cache
def _brute(counts: tuple[int, ...]) -> int:
    """Best sets over every sequence of 4-for-1 trades (kinds are interchangeable, so
    a sorted tuple of counts is the whole position)."""
    best = sum(n // 3 for n in counts)
    if sum(counts) < 4:
        return best
    for give in set(combinations_with_replacement(range(len(counts)), 4)):
        left = list(counts)
        for i in give:
            left[i] -= 1
        if min(left) < 0:
            continue
        for get in range(len(counts)):
            after = list(left)
            after[get] += 1
            best = max(best, _brute(tuple(sorted(after))))
    return best


def test_leftover_sets_rulebook_example_without_trades_is_two() -> None:
    counts = _counts(cart=3, stone=3, rune=1, hammer=1, iron=2, coin=2)
    # a trade rate no one can pay shows the sets before trading
    assert best_leftover_sets(counts, rate=99) == 2


def test_leftover_sets_rulebook_example_with_one_trade_is_three() -> None:
    """Trade rune + hammer + 2 iron for a coin to make a third set."""
    counts = _counts(cart=3, stone=3, rune=1, hammer=1, iron=2, coin=2)
    assert best_leftover_sets(counts) == 3
    traded = _counts(cart=3, stone=3, coin=3)
    assert best_leftover_sets(traded, rate=99) == 3


@pytest.mark.parametrize(
    ("named", "sets"),
    [
        ({}, 0),
        ({"stone": 2}, 0),
        ({"stone": 3}, 1),
        ({"stone": 6, "iron": 5}, 3),
        ({"stone": 12}, 4),
        ({"stone": 1, "iron": 1, "coin": 1, "rune": 1}, 0),
        ({"stone": 2, "iron": 1, "coin": 1, "rune": 1, "hammer": 1}, 1),  # 4 for a stone
        ({"stone": 2, "iron": 2, "coin": 1}, 0),  # 3 spare: no trade possible
        ({"stone": 1, "iron": 1, "coin": 1, "rune": 1, "hammer": 8}, 3),
        ({"rune": 12}, 4),
    ],
)
def test_leftover_sets_small_cases(named: dict[str, int], sets: int) -> None:
    assert best_leftover_sets(_counts(**named)) == sets


def test_leftover_sets_match_a_brute_force_over_small_counts() -> None:
    for values in product(range(6), repeat=4):
        if sum(values) > 13:
            continue
        counts = dict(zip(RESOURCES, values, strict=False))
        expected = _brute(tuple(sorted([*values, 0, 0, 0])))
        assert best_leftover_sets(counts) == expected, values


def _scored_game(players: int = 2, teams: bool = False) -> Game:
    game = drafted_game(players=players, seed=31, teams=teams)
    for seat in range(players):
        empty_trolls(game.state, seat)
        set_storage(game.state, seat)
    return game


def test_final_scoring_example_non_board_parts_sum_to_58() -> None:
    """43 tunnels + 3 (second coronation token) + 11 pedestal tokens + 1 set."""
    game = _scored_game()
    account = game.state.account_of(0)
    account.tunnel_honor = 43
    account.coronation = [3]
    account.tokens = [PedestalToken(5, "fire", 5), PedestalToken(2, "ice", 4)]
    account.tokens.append(PedestalToken(3, "moon", 2))
    set_storage(game.state, 0, stone=3, iron=2, rune=1, coin=1)
    line = final_outcome(game.state).breakdowns[0]
    assert (line.tunnels, line.coronation, line.pedestals, line.sets) == (43, 3, 11, 1)
    assert (line.halls, line.statues, line.spells) == (0, 0, 0)
    assert line.total == 58
    assert line.to_json()["total"] == 58


def test_both_coronation_tokens_score_five_and_three() -> None:
    game = _scored_game(players=3)
    game.state.account_of(0).coronation = [5]
    game.state.account_of(2).coronation = [3]
    lines = final_outcome(game.state).breakdowns
    assert [line.coronation for line in lines] == [5, 0, 3]


def test_leftover_sets_count_resources_on_trolls_and_clan_carts() -> None:
    game = _scored_game()
    set_storage(game.state, 0, cart=1, stone=2)
    put_troll(game.state, 0, "A1", "L1-08", True)  # stone, fire cart
    put_troll(game.state, 0, "A2", "L1-12", [False, True])  # ice cart
    assert final_outcome(game.state).breakdowns[0].sets == 2


def test_tie_break_prefers_lower_recruited_levels() -> None:
    game = _scored_game()
    for seat, levels in ((0, 4), (1, 6)):
        game.state.account_of(seat).tunnel_honor = 20
        game.state.players[seat].recruited_levels = levels
    outcome = final_outcome(game.state)
    assert outcome.breakdowns[0].total == outcome.breakdowns[1].total
    assert outcome.winner == 0 and outcome.winning_seats == (0,)


def test_tie_break_then_prefers_later_turn_order() -> None:
    game = _scored_game(players=3)
    for seat in range(3):
        game.state.account_of(seat).tunnel_honor = 20 if seat < 2 else 10
        game.state.players[seat].recruited_levels = 5
    assert final_outcome(game.state).winner == 1


def test_higher_total_wins_regardless_of_levels() -> None:
    game = _scored_game()
    game.state.account_of(0).tunnel_honor = 21
    game.state.players[0].recruited_levels = 20
    game.state.account_of(1).tunnel_honor = 20
    assert final_outcome(game.state).winner == 0


def test_team_scoring_has_one_line_per_team_and_counts_storage_once() -> None:
    game = _scored_game(players=4, teams=True)
    set_storage(game.state, 0, stone=3)
    put_troll(game.state, 3, "A1", "L1-05", True)  # two coins on the partner's troll
    put_troll(game.state, 0, "A1", "L1-02", [False, True])  # one coin
    game.state.account_of(0).tunnel_honor = 7
    outcome = final_outcome(game.state)
    assert len(outcome.breakdowns) == 2
    team = outcome.breakdowns[game.state.players[0].account]
    assert team.seats == (0, 3)
    assert team.sets == 2  # 3 stone once, and 3 coins over both pyramids
    assert team.total == 9
    assert outcome.winning_seats == (0, 3)


def test_scores_during_play_are_tunnel_and_spell_honor() -> None:
    game = _scored_game()
    account = game.state.account_of(1)
    account.tunnel_honor, account.spell_honor = 12, 4
    account.coronation = [3]
    assert current_scores(game.state) == [0, 16]


def test_outcome_only_when_the_game_is_over() -> None:
    game = _scored_game()
    assert game.outcome is None
    game.state.phase = "over"
    assert game.outcome is not None
