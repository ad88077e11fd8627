"""Seats belong to their players, through the real bot: an offer of a seat is posted in
the thread for the one user who may accept it, a server admin assigns a seat at once,
the creator cannot take a player's seat without them, and the seat's own player takes
it back whenever they like. Every change is told in the thread with names."""

from __future__ import annotations

from typing import Any

import discord
from bot_harness import TableOf, buttons_of, open_game, place_gates


def said(result: Any) -> str:
    """The private answer to a command or a button press."""
    messages = result.followups or [result.response]
    return str(messages[-1].content)


def offer_post(thread: Any) -> Any:
    """The newest offer of a seat in the thread."""
    return next(m for m in reversed(thread.history()) if "Press **Accept**" in m.content)


def news(thread: Any, words: str) -> str:
    """The newest post in the thread that says these words."""
    return str(next(m.content for m in reversed(thread.history()) if words in m.content))


async def keep_one(player: Any, thread: Any) -> None:
    """The player keeps one starting troll for the seat they play (the draft)."""
    draft = await player.slash(thread, "mk draft")
    assert draft.acknowledged
    buttons = buttons_of(draft.response)
    assert buttons, draft.response.content
    click = await player.click(draft.response.message, custom_id=buttons[0]["custom_id"])
    assert click.acknowledged


async def moves_by(bot: Any, game_id: int, seat: int) -> list[int | None]:
    """Who kept the seat's starting trolls (the gates are placed before any seat changes
    hands): from the stored log, which holds the secret draft's keeps too."""
    log = await bot.service.store.actions(game_id)
    return [e.user_id for e in log if e.seat == seat and e.notation.startswith("keep")]


async def test_an_offered_seat_is_taken_only_by_its_accepter_and_given_back(
    table_of: TableOf,
) -> None:
    async with table_of("alice", "bob", "carol") as (env, bot, channel, (alice, bob, carol)):
        guild = channel.guild
        thread, game_id = await open_game(env, [alice, bob], channel)
        await place_gates(bot, [alice, bob], thread, game_id)
        info = await bot.service.info(game_id)
        seat = next(s for s in info.seats if s.user_id == bob.id)
        # the creator offers bob's seat to carol: a post that pings only carol
        result = await alice.slash(
            thread, "mk admin", what="substitute", seat=seat.label, substitute=carol
        )
        assert "carol" in said(result)
        offer = offer_post(thread)
        assert offer.raw_mentions == [carol.id]
        assert "alice offers you" in offer.content and "bob" in offer.content
        assert (await bot.service.info(game_id)).seats[seat.seat].controller_id == bob.id
        # anyone else's press is refused in private and changes nothing
        for other in (bob, alice):
            refused = await other.click(offer, label="Accept")
            assert refused.acknowledged and refused.ephemeral
            assert "This offer is for carol" in said(refused)
        assert (await bot.service.info(game_id)).seats[seat.seat].controller_id == bob.id
        accepted = await carol.click(offer, label="Accept")
        assert "You play" in said(accepted)
        assert (await bot.service.info(game_id)).seats[seat.seat].controller_id == carol.id
        assert "in place of bob" in news(thread, "carol accepted alice's offer")
        # carol acts for the seat; bob no longer can
        await keep_one(carol, thread)
        assert await moves_by(bot, game_id, seat.seat) == [carol.id]
        refused = await bob.slash(thread, "mk draft")
        assert not buttons_of(refused.response)
        # the accepted offer loses its button
        settled = next(m for m in thread.history() if m.id == offer.id)
        assert not settled.components
        # another offer, to dave; bob takes his seat back and plays it again, and the
        # offer, made before that change, is stale
        dave = guild.add_member(env.create_user("dave"))
        await alice.slash(thread, "mk admin", what="substitute", seat=seat.label, substitute=dave)
        stale = offer_post(thread)
        assert stale.raw_mentions == [dave.id]
        back = await bob.slash(thread, "mk admin", what="return")
        assert "back with its own player" in said(back)
        assert (await bot.service.info(game_id)).seats[seat.seat].controller_id == bob.id
        assert news(thread, f"bob takes {seat.label.capitalize()} back from carol")
        await keep_one(bob, thread)
        assert await moves_by(bot, game_id, seat.seat) == [carol.id, bob.id]
        late = await dave.click(stale, label="Accept")
        assert "no longer valid" in said(late)
        assert (await bot.service.info(game_id)).seats[seat.seat].controller_id == bob.id


async def test_a_server_admin_assigns_a_seat_at_once(table_of: TableOf) -> None:
    async with table_of("alice", "bob", "carol") as (env, bot, channel, (alice, bob, carol)):
        guild = channel.guild
        mods = guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
        mod = guild.add_member(env.create_user("mod"), roles=[mods])
        thread, game_id = await open_game(env, [alice, bob], channel)
        await place_gates(bot, [alice, bob], thread, game_id)
        info = await bot.service.info(game_id)
        seat = next(s for s in info.seats if s.user_id == bob.id)
        result = await mod.slash(
            thread, "mk admin", what="substitute", seat=seat.label, substitute=carol
        )
        assert "now played by carol" in said(result)
        assert (await bot.service.info(game_id)).seats[seat.seat].controller_id == carol.id
        told = news(thread, "carol now plays")
        assert "assigned by mod (server admin)" in told
        assert not any("Press **Accept**" in m.content for m in thread.history())
        await keep_one(carol, thread)
        assert await moves_by(bot, game_id, seat.seat) == [carol.id]


async def test_the_creator_cannot_take_a_players_seat_without_their_consent(
    table_of: TableOf,
) -> None:
    async with table_of("boss", "alice", "bob") as (_, bot, channel, (boss, alice, bob)):
        # the creator opens the game, then leaves the lobby: alice and bob play
        created = await boss.slash(channel, "mk new", players=2)
        assert created.acknowledged
        thread = channel.threads[-1]
        game_id = int(thread.name.rsplit("#", 1)[1])
        await boss.click(thread.history()[0], label="Leave")
        for p in (alice, bob):
            await p.click(thread.history()[0], label="Join")
        await boss.click(thread.history()[0], label="Start")
        await place_gates(bot, [alice, bob], thread, game_id)
        info = await bot.service.info(game_id)
        assert info.status == "active" and info.seat_of(boss.id) is None
        seat = next(s for s in info.seats if s.user_id == alice.id)
        # asking for alice's seat only asks alice: nothing changes until she agrees
        asked = await boss.slash(
            thread, "mk admin", what="substitute", seat=seat.label, substitute=boss
        )
        assert "alice" in said(asked) and "agrees" in said(asked)
        request = offer_post(thread)
        assert request.raw_mentions == [alice.id]
        assert "boss asks to take over" in request.content
        for other in (boss, bob):
            refused = await other.click(request, label="Accept")
            assert "This offer is for alice" in said(refused)
        assert (await bot.service.info(game_id)).seats[seat.seat].controller_id == alice.id
        await keep_one(alice, thread)
        # alice agrees; later she takes the seat back by naming herself
        agreed = await alice.click(request, label="Accept")
        assert "You handed" in said(agreed)
        assert (await bot.service.info(game_id)).seats[seat.seat].controller_id == boss.id
        assert news(thread, "alice agreed to hand it over")
        back = await alice.slash(
            thread, "mk admin", what="substitute", seat=seat.label, substitute=alice
        )
        assert back.acknowledged
        assert (await bot.service.info(game_id)).seats[seat.seat].controller_id == alice.id
        assert news(thread, "alice takes")
