"""A restart in the middle of a game (a new bot process on the same database carries
on, buttons included) and a whole 4-player team game through Discord."""

from __future__ import annotations

import json
from pathlib import Path

from bot_harness import (
    TableOf,
    buttons_of,
    draft_all,
    make_bot,
    open_game,
    place_gates,
    play_to_end,
    set_up,
)

from rules.game import game_from_record


async def test_restart_mid_game_continues_with_the_same_buttons(
    tmp_path: Path, table_of: TableOf
) -> None:
    db = tmp_path / "db.sqlite3"
    async with table_of("alice", "bob", db=db) as (env, bot, channel, (alice, bob)):
        thread, game_id = await open_game(env, [alice, bob], channel)
        await place_gates(bot, [alice, bob], thread, game_id)
        # alice opens her draft, keeps one troll; then the bot restarts
        draft = await alice.slash(thread, "mk draft")
        first = buttons_of(draft.response)[0]
        await alice.click(draft.response.message, custom_id=first["custom_id"])
        log_before = [str(e) for e in await bot.service.history.log(game_id, alice.id)]
        old_store = bot.service.store
        new_bot = await make_bot(db)
        await env.restart_bot(new_bot)
        await old_store.close()
        assert [str(e) for e in await new_bot.service.history.log(game_id, alice.id)] == log_before
        # the button on the old draft message still works after the restart
        second = buttons_of(draft.response)[0]
        click = await alice.click(draft.response.message, custom_id=second["custom_id"])
        assert click.acknowledged
        assert len(await new_bot.service.history.log(game_id, alice.id)) == len(log_before) + 1
        # and the game plays on to the end
        await draft_all([bob], thread)
        draft = await alice.slash(thread, "mk draft")
        while buttons_of(draft.response):
            button = buttons_of(draft.response)[0]
            await alice.click(draft.response.message, custom_id=button["custom_id"])
        info = await new_bot.service.info(game_id)
        by_seat = {s.seat: (alice if s.user_id == alice.id else bob) for s in info.seats}
        await play_to_end(env, new_bot, by_seat, thread, game_id)
        assert "The game is over" in thread.history()[-1].content
        await new_bot.service.store.close()


async def test_four_player_team_game_through_discord(table_of: TableOf) -> None:
    async with table_of("ann", "ben", "cat", "dan", seed=4) as (env, bot, channel, players):
        thread, game_id = await open_game(env, players, channel, teams=True)
        await set_up(bot, players, thread, game_id)
        info = await bot.service.info(game_id)
        by_user = {p.id: p for p in players}
        by_seat = {s.seat: by_user[s.user_id] for s in info.seats if s.user_id is not None}
        assert len(by_seat) == 4
        await play_to_end(env, bot, by_seat, thread, game_id, seed=8)
        final = thread.history()[-1]
        assert "The game is over" in final.content
        record_file = next(a for a in final.attachments if a.filename.endswith(".json"))
        record = json.loads(await record_file.read())
        assert record["config"]["teams"] is True
        view = await bot.service.view(game_id, None)
        replayed = game_from_record(record).outcome
        assert replayed is not None and replayed.to_json() == view.outcome
        assert len(view.outcome["breakdown"]) == 2  # two teams
