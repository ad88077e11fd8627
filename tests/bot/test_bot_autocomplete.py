"""Autocomplete offers only legal choices, at most 25, filtered by what was typed, and
nothing to a player who may not act."""

from __future__ import annotations

from pathlib import Path

from bot_harness import draft_all, open_game, running_bot

from rules.engine import seats_to_act
from rules.legal import legal_actions


async def test_autocomplete_offers_legal_choices_filtered_by_typing(tmp_path: Path) -> None:
    async with running_bot(tmp_path / "db.sqlite3") as (env, bot):
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
        # place both gates, then the first player's options
        for _ in range(2):
            state = (await bot.service.load(game_id)).state
            s = seats_to_act(state)[0]
            await by_seat[s].slash(
                thread, "mk gate", point=str(legal_actions(state, s, "gate")[0]).split()[1]
            )
        state = (await bot.service.load(game_id)).state
        seat = seats_to_act(state)[0]
        player = by_seat[seat]
        everything = {str(a) for a in legal_actions(state, seat)}
        offered = await player.autocomplete(thread, "mk act", "action", "")
        assert 0 < len(offered) <= 25
        assert {c["value"] for c in offered} <= everything
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
