"""`/mk new` in a forum channel makes the game a forum post: the post's first message is
the lobby, the game lives in the post's thread (its turn posts arrive there) and the post
carries the forum's tags for its player count and clock, where the forum has them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
from bot_harness import button_id, finished, open_game, running_bot, set_up

from bot.texts import permission_name


async def _forum(env: Any, bot: Any, *tags: str) -> tuple[Any, list[Any]]:
    """A server with a "games" forum having these tags (made by the bot, as a server's
    moderator would), and the members alice and bob."""
    guild = env.create_guild()
    forum = guild.create_forum_channel("games")
    members = [guild.add_member(env.create_user(name)) for name in ("alice", "bob")]
    channel = bot.get_channel(forum.id)
    assert isinstance(channel, discord.ForumChannel)
    for name in tags:
        await channel.create_tag(name=name)
    return forum, members


def _applied(bot: Any, thread: Any) -> list[str]:
    post = bot.get_channel(thread.id)
    assert isinstance(post, discord.Thread)
    return sorted(tag.name for tag in post.applied_tags)


async def test_new_in_a_forum_makes_the_game_a_tagged_post_where_it_is_played(
    tmp_path: Path,
) -> None:
    async with running_bot(tmp_path / "db.sqlite3") as (env, bot):
        forum, (alice, bob) = await _forum(
            env, bot, "Looking for players", "2 players", "3p", "Turn clock"
        )
        thread, game_id = await open_game(env, [alice, bob], forum, clock=24)
        assert len(forum.threads) == 1, "one post"
        first = thread.history()[0]
        assert first.content.startswith("**In the Hall of the Mountain King** · game #")
        assert f"#{game_id}" in first.content.splitlines()[0], "the post opens with the lobby"
        info = await bot.service.info(game_id)
        assert (info.channel_id, info.thread_id) == (forum.id, thread.id)
        assert info.status != "open", "joined and started from the post's lobby"
        # the player count's tag and the clock's, no other
        assert _applied(bot, thread) == ["2 players", "Turn clock"]

        await set_up(bot, [alice, bob], thread, game_id)
        # the game's posts arrive in the post's thread, none in the forum itself
        texts = [m.content for m in thread.history()]
        assert any("it's your turn" in t for t in texts), texts[-3:]
        assert forum.history() == []
        assert not env.errors


async def test_a_forum_without_matching_tags_gets_an_untagged_post(tmp_path: Path) -> None:
    async with running_bot(tmp_path / "db.sqlite3") as (env, bot):
        forum, (alice, bob) = await _forum(env, bot, "3 players", "Looking for players")
        thread, game_id = await open_game(env, [alice, bob], forum)
        assert [t.id for t in forum.threads] == [thread.id]
        assert _applied(bot, thread) == []
        assert (await bot.service.info(game_id)).thread_id == thread.id
        assert not env.errors


async def test_new_in_a_forum_names_the_missing_permission_and_makes_nothing(
    tmp_path: Path,
) -> None:
    async with running_bot(tmp_path / "db.sqlite3") as (env, bot):
        forum, (alice, _) = await _forum(env, bot)
        channel = bot.get_channel(forum.id)
        me = channel.guild.me
        await channel.set_permissions(me, send_messages_in_threads=False)
        result = await alice.slash(forum, "mk new", players=2)
        assert result.acknowledged and result.ephemeral
        text = result.response.content
        assert f"**{permission_name('send_messages_in_threads')}**" in text, text
        # a forum's posts need no thread permission of their own
        assert permission_name("create_public_threads") not in text
        assert "Nothing was created" in text
        assert forum.threads == []
        assert not env.errors


async def test_new_in_a_forum_post_opens_a_new_post_in_its_forum(tmp_path: Path) -> None:
    async with running_bot(tmp_path / "db.sqlite3") as (env, bot):
        forum, (alice, bob) = await _forum(env, bot, "2 players")
        thread, _ = await open_game(env, [alice, bob], forum)
        # typed inside the game's post: a second post in the same forum, not refused
        made = await bob.slash(thread, "mk new", players=2)
        assert made.acknowledged and made.ephemeral
        assert len(forum.threads) == 2, "a new post"
        new = forum.threads[-1]
        assert new.mention in made.response.content, "the asker is told where"
        new_id = int(new.name.split("#")[-1])
        assert f"game #{new_id}" in new.history()[0].content, "the post opens with its lobby"
        assert _applied(bot, new) == ["2 players"]
        info = await bot.service.info(new_id)
        assert (info.channel_id, info.thread_id, info.status) == (forum.id, new.id, "open")
        assert info.seats[0].user_id == bob.id
        # the forum's permissions are checked as in the forum itself: refused, nothing made
        channel = bot.get_channel(forum.id)
        await channel.set_permissions(channel.guild.me, send_messages=False)
        refused = await alice.slash(thread, "mk new", players=3)
        assert refused.acknowledged and refused.ephemeral
        text = refused.response.content
        assert f"**{permission_name('send_messages')}**" in text, text
        assert forum.mention in text and "Nothing was created" in text
        assert len(forum.threads) == 2
        assert not env.errors


async def test_a_forum_game_is_rematched_in_a_new_tagged_post(tmp_path: Path) -> None:
    async with running_bot(tmp_path / "db.sqlite3") as (env, bot):
        forum, (alice, bob) = await _forum(env, bot, "2p")
        thread, game_id = await open_game(env, [alice, bob], forum)
        await finished(bot, game_id)
        await bot.delivered(game_id)
        over = thread.history()[-1]
        made = await alice.click(over, custom_id=button_id(over, "rematch"))
        assert made.acknowledged
        assert len(forum.threads) == 2, "the rematch is a second post"
        new = forum.threads[-1]
        lobby, call = new.history()[:2]
        new_id = int(new.name.split("#")[-1])
        assert f"game #{new_id}" in lobby.content, "the post opens with the rematch's lobby"
        assert call.raw_mentions == [bob.id]
        assert _applied(bot, new) == ["2p"]
        info = await bot.service.info(new_id)
        assert (info.channel_id, info.thread_id) == (forum.id, new.id)
        assert not env.errors
