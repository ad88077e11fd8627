"""Two games at one table (issue 32): one server holds a game of each, the table's
commands serve both, and a game's own command typed in the other game's thread is
refused with where its commands are, nothing changed."""

from __future__ import annotations

from bot_harness import TableOf, open_game


async def test_a_server_plays_both_games_and_each_game_keeps_its_own_commands(
    table_of: TableOf,
) -> None:
    async with table_of("alice", "bob") as (env, bot, channel, (alice, bob)):
        cave, cave_id = await open_game(env, [alice, bob], channel, game="cave-troll")
        mountain, mountain_id = await open_game(env, [alice, bob], channel)
        service = bot.service
        assert (await service.info(cave_id)).rules == "cave-troll"
        assert (await service.info(mountain_id)).rules == "mountain-king"
        # each thread named by its game
        assert cave.name == f"Cave Troll #{cave_id}"
        assert mountain.name == f"Mountain King #{mountain_id}"

        # the Mountain King's board in the Cave Troll's thread: refused, saying where
        seq = (await service.load(cave_id)).seq
        refused = await alice.slash(cave, "mk board")
        assert refused.response.content == (
            f"Game #{cave_id} is a game of Cave Troll: its commands are under `/cave`."
        ), refused.response.content
        assert (await service.load(cave_id)).seq == seq

        # and the Cave Troll's board in the Mountain King's thread
        refused = await bob.slash(mountain, "cave board")
        assert "/mk" in refused.response.content, refused.response.content

        # the table's /mk games lists both, each by its thread
        listed = await alice.slash(channel, "mk games")
        text = listed.response.content
        assert f"#{cave_id} <#{cave.id}>" in text and f"#{mountain_id} <#{mountain.id}>" in text

        # /mk new with a game the table does not play: refused, no game made
        games = await service.game_counts()
        unknown = await alice.slash(channel, "mk new", players=2, game="chess")
        assert unknown.response.content == (
            "This table plays In the Hall of the Mountain King, Cave Troll; pick one of them."
        ), unknown.response.content
        assert await service.game_counts() == games
