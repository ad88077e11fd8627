"""Autocomplete offers only legal choices, at most 25, filtered by what was typed, and
nothing to a player who may not act. `/mk dig` offers only what the player can pay
for, with the cost in the label. (Every suggestion of every option is held against
the engine through whole games in test_bot_suggestions_legal.py.)"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import simcord
from bot_harness import draft_all, open_game, running_bot

from bot.client import MountainBot
from rules.actions import Dig, format_cells
from rules.engine import seats_to_act
from rules.legal import legal_actions
from rules.payment import owned_counts
from rules.resources import MINERALS
from rules.state import State


async def _first_turn(env: simcord.Env, bot: MountainBot) -> tuple[Any, int, State, int, Any, Any]:
    """A 2-player game at its first turn: the thread, the game, the position, the seat
    to act, its player and the other player."""
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    thread, game_id = await open_game(env, [alice, bob], channel)
    await draft_all([alice, bob], thread)
    info = await bot.service.info(game_id)
    by_seat = {s.seat: (alice if s.user_id == alice.id else bob) for s in info.seats}
    state = (await bot.service.load(game_id)).state
    seat = seats_to_act(state)[0]
    mover, other = by_seat[seat], by_seat[1 - seat]
    legal_points = {str(a).split()[1] for a in legal_actions(state, seat, "gate")}
    offered = await mover.autocomplete(thread, "mk gate", "point", "")
    assert {c["value"] for c in offered} == legal_points
    assert await other.autocomplete(thread, "mk gate", "point", "") == []
    for _ in range(2):
        state = (await bot.service.load(game_id)).state
        s = seats_to_act(state)[0]
        await by_seat[s].slash(
            thread, "mk gate", point=str(legal_actions(state, s, "gate")[0]).split()[1]
        )
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
