"""Autocomplete offers only legal choices, at most 25, filtered by what was typed, and
nothing to a player who may not act. `/mk dig` offers only what the player can pay
for, with the cost in the label. (Every suggestion of every option is held against
the engine through whole games in test_bot_suggestions_legal.py.)"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import simcord
from bot_harness import guild_table, open_game, running_bot, set_up

from bot.client import MountainBot
from rules.actions import Dig, Recruit, format_cells
from rules.legal import legal_actions
from rules.payment import owned_counts
from rules.resources import MINERALS
from rules.selfplay import random_action
from rules.state import State
from rules.steps import seats_to_act


async def _first_turn(env: simcord.Env, bot: MountainBot) -> tuple[Any, int, State, int, Any, Any]:
    """A 2-player game at its first turn (its first gate offered by autocomplete on the
    way): the thread, the game, the position, the seat to act, its player and the other
    player."""
    channel, (alice, bob) = guild_table(env, "alice", "bob")
    thread, game_id = await open_game(env, [alice, bob], channel)
    info = await bot.service.info(game_id)
    by_seat = {s.seat: (alice if s.user_id == alice.id else bob) for s in info.seats}
    state = (await bot.service.load(game_id)).state
    seat = seats_to_act(state)[0]
    mover, other = by_seat[seat], by_seat[1 - seat]
    legal_points = {str(a).split()[1] for a in legal_actions(state, seat, "gate")}
    offered = await mover.autocomplete(thread, "mk gate", "point", "")
    assert {c["value"] for c in offered} == legal_points
    assert await other.autocomplete(thread, "mk gate", "point", "") == []
    await set_up(bot, [alice, bob], thread, game_id)
    state = (await bot.service.load(game_id)).state
    seat = seats_to_act(state)[0]
    return thread, game_id, state, seat, by_seat[seat], by_seat[1 - seat]


async def test_autocomplete_offers_legal_choices_filtered_by_typing(tmp_path: Path) -> None:
    async with running_bot(tmp_path / "db.sqlite3") as (env, bot):
        thread, _, state, seat, player, _ = await _first_turn(env, bot)
        everything = {str(a) for a in legal_actions(state, seat)}
        offered = await player.autocomplete(thread, "mk act", "action", "")
        assert 0 < len(offered) <= 25
        assert {c["value"] for c in offered} <= everything
        kinds = {c["value"].split()[0] for c in offered}
        assert {"recruit", "dig", "trade"} <= kinds, "a few of each kind, not 25 of one"
        typed = await player.autocomplete(thread, "mk act", "action", "recruit 1.")
        assert typed and all(c["value"].startswith("recruit 1.") for c in typed)
        horde = await player.autocomplete(thread, "mk recruit", "troll", "")
        legal_horde = {a.horde for a in legal_actions(state, seat, "recruit")}  # type: ignore[attr-defined]
        assert {c["value"] for c in horde} == legal_horde
        tiles = await player.autocomplete(thread, "mk dig", "tile", "")
        assert tiles, "the first player can dig with their starting minerals"
        cells = await player.autocomplete(thread, "mk dig", "cells", "", tile=tiles[0]["value"])
        digs = {" ".join(str(a).split()[1:3]) for a in legal_actions(state, seat, "dig")}
        assert cells and all(f"{tiles[0]['value']} {c['value']}" in digs for c in cells)


TILE_LABEL = re.compile(r"\S+ · \d cells · pay with (?P<pay>[a-z, ]+) · \d+ placements?")
CELLS_LABEL = re.compile(
    r"[A-Z0-9*+]+ · \d (stone|iron|heartstone)(( or |, )(iron|heartstone))*"
    r"(, \d hammers?)? · \+\d+(( or |, )\+\d+)* honor( · finds [a-z, ]+)?"
)


async def test_dig_offers_what_the_player_can_pay_for_with_its_cost(tmp_path: Path) -> None:
    async with running_bot(tmp_path / "db.sqlite3") as (env, bot):
        thread, _, state, seat, player, other = await _first_turn(env, bot)
        digs = [a for a in legal_actions(state, seat, "dig") if isinstance(a, Dig)]
        counts = owned_counts(state, seat)
        unpaid = [m.value for m in MINERALS if counts[m] < 2]
        assert unpaid, "the start leaves some mineral short of any tunnel"

        tiles = await player.autocomplete(thread, "mk dig", "tile", "")
        assert {c["value"] for c in tiles} == {d.shape for d in digs}
        for tile in tiles:
            label = TILE_LABEL.fullmatch(tile["name"])
            assert label, tile["name"]
            assert not set(re.split(", | or ", label["pay"])) & set(unpaid), tile

        shape = tiles[-1]["value"]
        placements = {format_cells(d.cells, d.anchor) for d in digs if d.shape == shape}
        cells = await player.autocomplete(thread, "mk dig", "cells", "", tile=shape)
        assert len(cells) == min(25, len(placements))
        assert {c["value"] for c in cells} <= placements
        for c in cells:
            assert CELLS_LABEL.fullmatch(c["name"]), c["name"]
            assert c["name"].startswith(c["value"] + " · ")

        where = cells[0]["value"]
        minerals = await player.autocomplete(
            thread, "mk dig", "mineral", "", tile=shape, cells=where
        )
        paying = {
            d.mineral.value
            for d in digs
            if d.shape == shape and format_cells(d.cells, d.anchor) == where
        }
        assert {c["value"] for c in minerals} == paying
        assert all(c["name"].startswith(c["value"] + " · ") for c in minerals)

        # what was typed in a later option narrows an earlier one when it can...
        narrowed = await player.autocomplete(thread, "mk dig", "tile", "", cells=where)
        assert [c["value"] for c in narrowed] == [shape]
        # ...and is set aside when nothing agrees with it (it is the one to mend)
        mended = await player.autocomplete(
            thread, "mk dig", "cells", "", tile=shape, mineral=unpaid[0]
        )
        assert {c["value"] for c in mended} == {c["value"] for c in cells}

        # the player not to act is offered nothing
        assert await other.autocomplete(thread, "mk dig", "tile", "") == []
        assert await other.autocomplete(thread, "mk dig", "cells", "", tile=shape) == []
        assert (
            await other.autocomplete(thread, "mk dig", "mineral", "", tile=shape, cells=where) == []
        )


async def test_a_level_3_recruit_may_leave_the_pedestal_out(tmp_path: Path) -> None:
    """The pedestal of `/mk recruit` is optional: a level-3 troll may decline one from the
    bag. Autocomplete offers the bag's clans for it, and the command without it is
    played as a recruit that takes no pedestal."""
    async with running_bot(tmp_path / "db.sqlite3") as (env, bot):
        thread, game_id, state, seat, mover, other = await _first_turn(env, bot)
        info = await bot.service.info(game_id)
        by_user = {p.id: p for p in (mover, other)}
        rng = random.Random(6)
        for _ in range(1000):
            state = (await bot.service.load(game_id)).state
            assert state.phase != "over", "the game ended before a level-3 recruit came up"
            seat = seats_to_act(state)[0]
            top = [
                a
                for a in legal_actions(state, seat, "recruit")
                if isinstance(a, Recruit) and a.horde.startswith("3.") and a.pedestal is None
            ]
            if top and state.bag:
                break
            user = info.seats[seat].controller_id
            await bot.service.act(game_id, user, str(random_action(state, seat, rng)))
        else:
            raise AssertionError("no level-3 recruit came up")
        recruit = top[0]
        player = by_user[info.seats[seat].controller_id]
        trolls = await player.autocomplete(thread, "mk recruit", "troll", "")
        assert recruit.horde in {c["value"] for c in trolls}
        pedestals = await player.autocomplete(
            thread, "mk recruit", "pedestal", "", troll=recruit.horde, slot=recruit.slot
        )
        assert {c["value"] for c in pedestals} == set(state.bag)
        bag = sorted(state.bag)
        result = await player.slash(thread, "mk recruit", troll=recruit.horde, slot=recruit.slot)
        assert result.acknowledged and "Done: you recruited" in result.response.content, (
            result.response.content
        )
        log = await bot.service.history.log(game_id)
        assert log[-1].notation == f"recruit {recruit.horde} {recruit.slot}"
        after = (await bot.service.load(game_id)).state
        assert sorted(after.bag) == bag, "no pedestal was taken from the bag"
