"""The end of a game through the real discord.py bot (SimCord): the game-over post's
summary and Rematch button; a rematch made once, by the old table only, in a new
thread with the old players called, started when they have joined; and `/mk open`."""

from __future__ import annotations

from typing import Any

from bot_harness import TableOf, button_id, buttons_on, finished, open_game


def said(result: Any) -> str:
    """The private answer to a command or a button press."""
    messages = result.followups or [result.response]
    return str(messages[-1].content)


async def test_rematch_and_open_lobbies_through_discord(table_of: TableOf) -> None:
    async with table_of("alice", "bob", "carol") as (env, bot, channel, (alice, bob, carol)):
        thread, game_id = await open_game(env, [alice, bob], channel)
        await finished(bot, game_id)
        await bot.delivered(game_id)
        over = thread.history()[-1]
        assert "The game is over" in over.content
        # the summary: turns and days, the best turn, a line per player
        assert "turns over 1 day" in over.content
        assert "Best turn: " in over.content
        for name in ("alice", "bob"):
            assert f"· {name} (" in over.content
        assert [label for _, label in buttons_on(over)] == ["Rematch"]
        rematch = button_id(over, "rematch")

        # someone who did not play: one private sentence, nothing made
        refused = await carol.click(over, custom_id=rematch)
        assert refused.ephemeral
        assert said(refused) == f"Only the players of game #{game_id} can ask for its rematch."
        assert len(channel.threads) == 1
        nothing = await carol.slash(channel, "mk games", open=True)
        assert said(nothing) == (
            "No game on this server is waiting for players. Open one with /mk new."
        )

        made = await alice.click(over, custom_id=rematch)
        assert "is open in" in said(made)
        assert len(channel.threads) == 2
        new = channel.threads[-1]
        lobby, call = new.history()[:2]
        new_id = int(new.name.split("#")[-1])
        assert f"game #{new_id}" in lobby.content
        # the old table called, each once: bob (alice asked for it and sits already)
        assert call.raw_mentions == [bob.id]
        assert f"Rematch of game #{game_id}, asked for by alice" in call.content

        # pressed again, by either player: the same rematch, nothing new
        for player in (alice, bob):
            again = await player.click(over, custom_id=rematch)
            assert said(again) == (
                f"The rematch of game #{game_id} is already open: game #{new_id} in <#{new.id}>."
            )
        assert len(channel.threads) == 2

        listed = said(await carol.slash(channel, "mk games", open=True))
        assert f"#{new_id} by <@{alice.id}>" in listed
        assert "2 players · board side: by player count" in listed
        assert "1 of 2 seats taken" in listed and f"<#{new.id}>" in listed

        # bob joins: the table is full and the rematch starts by itself
        await bob.click(lobby, custom_id=button_id(lobby, "join"))
        info = await bot.service.info(new_id)
        assert info.status == "active"
        assert not buttons_on(new.history()[0])
        start = next(m for m in new.history() if set(m.raw_mentions) == {alice.id, bob.id})
        assert start.author.bot
        assert "No game on this server" in said(await carol.slash(channel, "mk games", open=True))
