"""`/mk stats card` and `/mk stats leaderboard` through the real bot: one-sentence refusals on an
empty server, a private card (a PNG with its alt text) and its shared post, the board
with the asker's place, and `/mk notify stats:False` hiding a player from both."""

from __future__ import annotations

import os
from pathlib import Path

from bot_harness import TableOf, open_game, pngs

from bot.client import MountainBot
from bot.store import SnapshotRecord
from rules.selfplay import play_random_game
from rules.state import make_config


async def finish(bot: MountainBot, game_id: int) -> None:
    """The game played to its last move (the position before it stored as its
    snapshot), and the last move played through the service by its player."""
    service = bot.service
    info = await service.info(game_id)
    assert info.seed is not None
    record = play_random_game(make_config(**{"edition": 1, **info.config}), info.seed)
    state = service.rules.new_state(service.rules.make_config(info.config), info.seed)
    for move in record.moves[:-1]:
        service.rules.replay(state, move.seat, move.action)
    snapshot = SnapshotRecord(game_id, 0, service.rules.state_to_json(state))
    assert await service.store.put_snapshot(snapshot)
    last = record.moves[-1]
    user = info.seats[last.seat].controller_id
    assert user is not None
    assert (await service.act(game_id, user, last.action)).game_over


async def test_stats_cards_and_the_leaderboard(table_of: TableOf, tmp_path: Path) -> None:
    async with table_of("alice", "bob") as (env, bot, channel, (alice, bob)):
        result = await alice.slash(channel, "mk stats leaderboard")
        assert result.ephemeral
        assert result.response.content == "Nobody has finished a rated game on this server yet."
        result = await alice.slash(channel, "mk stats card", player=bob)
        assert result.ephemeral
        assert result.response.content == "This player has not played a game on this server yet."

        _, game_id = await open_game(env, [alice, bob], channel)
        await finish(bot, game_id)

        result = await alice.slash(channel, "mk stats card")
        assert result.acknowledged and result.ephemeral
        message = result.response.message
        assert f"<@{alice.id}>" in message.content and message.raw_mentions == [alice.id]
        [card] = await pngs(message)
        assert card.size == (800, 560)
        [attachment] = message.attachments
        alt = attachment.description or ""
        assert alt.startswith("Stats card of alice on ") and "finished 1" in alt
        assert "Rating " in alt and "turn" in alt
        where = os.environ.get("MK_STATS_PNG")  # to look at the card: a folder
        if where:
            Path(where, "stats-alice.png").write_bytes(await attachment.read())

        result = await alice.slash(channel, "mk stats leaderboard", least_games=1)
        assert result.ephemeral
        lines = result.response.content.splitlines()
        assert lines[0].startswith("**Leaderboard** of players with at least 1 rated game")
        assert {lines[1][:3], lines[2][:3]} == {"1. ", "2. "}
        assert f"<@{alice.id}>" in result.response.content
        assert lines[-1].startswith("You: place ")

        # shared: a private note, then the card posted for everyone
        result = await bob.slash(channel, "mk stats card", player=alice, share=True)
        posted = channel.history()[-1] if hasattr(channel, "history") else None
        assert result.ephemeral and result.response.content == "Posted for everyone here."
        assert posted is not None and posted.attachments
        assert (posted.attachments[0].description or "").startswith("Stats card of alice")

        # hidden: off the board and out of the cards others ask for
        result = await alice.slash(channel, "mk notify", stats=False)
        assert "Stats: hidden from leaderboards" in result.response.content
        result = await bob.slash(channel, "mk stats card", player=alice)
        assert result.response.content == "This player keeps their stats to themselves."
        result = await bob.slash(channel, "mk stats leaderboard", least_games=1)
        assert f"<@{alice.id}>" not in result.response.content
        assert "1. <@" in result.response.content
