"""Whole games through the real discord.py bot (SimCord's in-memory Discord): lobby
buttons, gates and every turn by slash commands, the draft by buttons, to the final
score sheet and the record."""

from __future__ import annotations

import json

from bot_harness import TableOf, open_game, play_to_end, pngs, set_up

from rules.game import game_from_record


async def test_two_player_game_played_through_discord(table_of: TableOf) -> None:
    async with table_of("alice", "bob") as (env, bot, channel, (alice, bob)):
        thread, game_id = await open_game(env, [alice, bob], channel)
        await set_up(bot, [alice, bob], thread, game_id)
        info = await bot.service.info(game_id)
        by_seat = {s.seat: (alice if s.user_id == alice.id else bob) for s in info.seats}
        sent = await play_to_end(env, bot, by_seat, thread, game_id)
        assert sent > 20
        messages = thread.history()
        # every finished turn was posted with the board, a zoomed crop around what it
        # changed (when it changed cells) and the player's pyramid
        turn_posts = [m for m in messages if len(m.attachments) >= 2 and m.content.startswith("**")]
        assert len(turn_posts) >= 10
        zoomed = 0
        for post in turn_posts:
            names = [a.filename for a in post.attachments]
            assert names[0] == "board.png" and names[-1].startswith("pyramid-"), names
            assert names[1:-1] in ([], ["board-zoom.png"]), names
            zoomed += len(names) == 3
        assert zoomed >= 3
        for post in turn_posts[:3] + turn_posts[-2:]:
            images = await pngs(post)
            assert images[0].width > 800
            if len(images) == 3:
                assert images[1].width < images[0].width
        # pings: a fresh message mentioning exactly the next player, never anyone else
        pings = [m for m in messages if "it's your turn" in m.content]
        assert pings
        for ping in pings:
            assert len(ping.raw_mentions) == 1
            assert ping.raw_mentions[0] in (alice.id, bob.id)
        # the end: score sheet, winner, and a record that replays to the same result
        final = messages[-1]
        assert "The game is over" in final.content
        names = [a.filename for a in final.attachments]
        assert "score-sheet.png" in names
        record_file = next(a for a in final.attachments if a.filename.endswith(".json"))
        record = json.loads(await record_file.read())
        replayed = game_from_record(record)
        view = await bot.service.view(game_id, None)
        assert replayed.outcome is not None
        assert replayed.outcome.to_json() == view.outcome
        winners = [info.seats[s].label.capitalize() for s in view.outcome["winning_seats"]]
        assert all(w in final.content for w in winners)
