"""The heuristic AI's caches (`rules.ai.digging.dig_table`, the plans and planned gains
kept with an `OwnBoard`) give what a fresh computation gives, and never a value of
another position: the game state is changed in place, so they are keyed by content."""

from __future__ import annotations

import random

from rules import steps
from rules.ai import choose_action
from rules.ai.digging import DigTable, dig_table
from rules.ai.statues import _planned_gain, own_board, planned_gain
from rules.ai.turn import Ctx
from rules.game import Game

DECISIONS = 40  # AI decisions checked (a few rounds of a 2-player game)


def _same_table(cached: DigTable, fresh: DigTable) -> None:
    assert cached.spots == fresh.spots
    assert cached.groups == fresh.groups


def test_cached_tables_and_plans_equal_fresh_ones_through_a_game() -> None:
    game = Game.new(players=2, seed=5)
    rng = random.Random(5)
    checked = 0
    while game.state.phase != "over" and checked < DECISIONS:
        state = game.state
        seat = steps.seats_to_act(state)[0]
        if state.phase == "play" and steps.allows(state, seat, "recruit"):
            ctx = Ctx(state, seat)
            _same_table(
                dig_table(state, seat, ctx.hz, ctx.ob), DigTable(state, seat, ctx.hz, ctx.ob)
            )
            carts = ctx.carts()
            statues = state.board.statues
            assert planned_gain(ctx.ob, statues, carts) == _planned_gain(
                own_board(state, seat), statues, carts, 4
            )
            # asked again: the same answer, and the caller may change what it gets
            moves, after = planned_gain(ctx.ob, statues, carts)
            after.clear()
            assert planned_gain(ctx.ob, statues, carts) == (
                moves,
                _planned_gain(ctx.ob, statues, carts, 4)[1],
            )
            checked += 1
        game.play(seat, choose_action(state, seat, rng))
    assert checked == DECISIONS


def test_a_position_changed_in_place_gets_its_own_table() -> None:
    game = Game.new(players=2, seed=5)
    rng = random.Random(5)
    while game.state.phase != "play":
        seat = steps.seats_to_act(game.state)[0]
        game.play(seat, choose_action(game.state, seat, rng))
    state = game.state
    seat = steps.seats_to_act(state)[0]
    ctx = Ctx(state, seat)
    before = dig_table(state, seat, ctx.hz, ctx.ob)
    assert dig_table(state, seat, ctx.hz, ctx.ob) is before
    # a workshop supply changed in place (nothing else): another table, as built afresh
    state.workshop_supply.reverse()
    state.workshop_supply.pop()
    after = dig_table(state, seat, ctx.hz, ctx.ob)
    assert after is not before
    _same_table(after, DigTable(state, seat, ctx.hz, ctx.ob))
    # another seat, or a clone of the position, is priced on its own / shares the table
    assert dig_table(state.clone(), seat, ctx.hz, own_board(state.clone(), seat)) is after
    other = 1 - seat
    assert dig_table(state, other, ctx.hz, own_board(state, other)) is not after
