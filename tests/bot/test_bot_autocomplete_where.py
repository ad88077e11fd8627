"""A turn command's autocomplete offers something only to a player of the game in
whose thread it is typed, once the game has started, and only while that player is to
act: nothing outside a game's thread, in a game's lobby, in a Cave Troll game's thread
(whose players have seats, but not at this game), nor to a member without a seat."""

from __future__ import annotations

from bot_harness import TableOf, open_game

from rules.steps import seats_to_act


async def test_turn_options_offer_nothing_where_the_user_does_not_play(table_of: TableOf) -> None:
    async with table_of("alice", "bob", "carl") as (env, bot, channel, players):
        alice, bob, carl = players
        assert await alice.autocomplete(channel, "mk act", "action", "") == []
        # a Cave Troll game: its players hold seats, of another game
        cave, _ = await open_game(env, [alice, bob], channel, game="cave-troll")
        for player in (alice, bob):
            assert await player.autocomplete(cave, "mk act", "action", "") == []
            assert await player.autocomplete(cave, "mk gate", "point", "") == []
        # a lobby: its creator holds a seat, and the game has no state yet
        assert (await carl.slash(channel, "mk new", players=2)).acknowledged
        lobby = channel.threads[-1]
        assert await carl.autocomplete(lobby, "mk act", "action", "") == []
        # a game under way: its player to act is offered its gates, no one else anything
        thread, game_id = await open_game(env, [alice, bob], channel)
        state = (await bot.service.load(game_id)).state
        assert state is not None
        seat = (await bot.service.info(game_id)).seats[seats_to_act(state)[0]]
        assert seat.seat == seats_to_act(state)[0]
        mover = alice if seat.user_id == alice.id else bob
        waiting = bob if mover is alice else alice
        assert await mover.autocomplete(thread, "mk gate", "point", "")
        for user in (waiting, carl):
            assert await user.autocomplete(thread, "mk gate", "point", "") == []
            assert await user.autocomplete(thread, "mk act", "action", "") == []
