"""Your games through the real bot: `/mk games` lists a player's games from any channel,
privately, the ones awaiting their move first with links to the threads; the daily
digest DM goes out once a day to a player who opted in and is awaited somewhere, and a
refused DM is logged once and not tried again that day."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from bot_harness import TableOf, open_game, place_gates, run_duties
from service_checks import legal_actions

from bot.client import MountainBot
from bot.service import GameInfo, SeatInfo
from bot.service.results import YourGame
from bot.texts import POST_LIMIT, digest_text, your_games_text


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def play_until_not_awaited(bot: MountainBot, game_id: int, user_id: int) -> None:
    """The user plays legal actions (through the service) until the game no longer
    waits for them."""
    service = bot.service
    for _ in range(40):
        seat = (await service.info(game_id)).seat_of(user_id)
        assert seat is not None
        if seat.seat not in {w.seat for w in (await service.history.turn_status(game_id)).waiting}:
            return
        await service.act(game_id, user_id, (await legal_actions(service, game_id, user_id))[0])
    raise AssertionError("the game kept waiting for the user")


def dms(user: Any) -> list[Any]:
    return list(user.dm_channel.history())


async def test_your_games_lists_your_moves_first_with_links_privately(table_of: TableOf) -> None:
    async with table_of("alice", "bob", "carol") as (env, bot, channel, (alice, bob, carol)):
        first, first_id = await open_game(env, [alice, bob], channel)
        second, second_id = await open_game(env, [alice, bob], channel)
        # the second game's gates are placed: everyone drafts, it waits for both
        await place_gates(bot, [alice, bob], second, second_id)
        # in the first game alice has played: it waits for bob only
        await play_until_not_awaited(bot, first_id, alice.id)
        info = await bot.service.info(first_id)
        bobs = info.seat_of(bob.id)
        assert bobs is not None

        # from the channel (not a game's thread): private, alice's move first
        result = await alice.slash(channel, "mk games")
        assert result.acknowledged and result.ephemeral
        text = result.response.content
        lines = text.splitlines()
        assert "1 game awaits your move" in lines[0]
        assert f"#{second_id} <#{second.id}>" in lines[1] and "your move" in lines[1]
        assert f"#{first_id} <#{first.id}>" in lines[2] and "your move" not in lines[2]
        assert f"waiting for {bobs.called}" in lines[2] and "<t:" in lines[2]
        you = (await bot.service.info(second_id)).seat_of(alice.id)
        assert you is not None and f"you are {you.label.capitalize()}" in lines[1]
        assert result.response.message.raw_mentions == []

        # from a game's thread too; bob is awaited in both games
        result = await bob.slash(first, "mk games")
        assert result.ephemeral
        assert "2 games await your move" in result.response.content
        assert result.response.content.count("your move**") == 2

        # someone with no games hears how to open or join one
        result = await carol.slash(channel, "mk games")
        assert result.ephemeral
        assert "no games on this server" in result.response.content
        assert "/mk new" in result.response.content and "Join" in result.response.content


async def test_the_daily_digest_goes_out_once_a_day_to_who_opted_in(table_of: TableOf) -> None:
    clock = Clock()  # 12:00 UTC
    async with table_of("alice", "bob", clock=clock) as (env, bot, channel, (alice, bob)):
        guild = channel.guild
        users = {p.name: p.user for p in (alice, bob)}
        thread, game_id = await open_game(env, [alice, bob], channel)

        result = await alice.slash(channel, "mk notify", digest=True)
        assert result.ephemeral
        assert "daily digest of the games awaiting your move: on" in result.response.content
        await run_duties(bot)
        assert dms(users["alice"]) == []  # due tomorrow at nine

        clock.now += timedelta(days=1)
        await run_duties(bot)
        [digest] = dms(users["alice"])
        assert digest.content.startswith(f"Your move in 1 game: #{game_id} (")
        assert f"https://discord.com/channels/{guild.id}/{thread.id}" in digest.content
        # once a day: another round, later the same day, sends nothing
        await run_duties(bot)
        clock.now += timedelta(hours=6)
        await run_duties(bot)
        assert len(dms(users["alice"])) == 1
        assert dms(users["bob"]) == []  # bob never opted in

        # the next day, still awaited: the next digest; turned off: none
        clock.now += timedelta(days=1)
        await run_duties(bot)
        assert len(dms(users["alice"])) == 2
        result = await alice.slash(channel, "mk notify", digest=False)
        assert "digest of the games awaiting your move: off" in result.response.content
        clock.now += timedelta(days=1)
        await run_duties(bot)
        assert len(dms(users["alice"])) == 2


async def test_a_refused_digest_is_logged_once_and_not_retried_that_day(
    table_of: TableOf, caplog: pytest.LogCaptureFixture
) -> None:
    clock = Clock()
    async with table_of("alice", "bob", clock=clock) as (env, bot, channel, (alice, bob)):
        users = {p.name: p.user for p in (alice, bob)}
        await open_game(env, [alice, bob], channel)
        await alice.slash(channel, "mk notify", digest=True)
        # alice accepts no direct messages from the bot
        dm = users["alice"].dm_channel
        env.inject_error("POST", f"/channels/{dm.id}/messages", status=403, code=50007, times=None)
        clock.now += timedelta(days=1)
        with caplog.at_level(logging.WARNING, logger="bot.scheduler"):
            await run_duties(bot)
            clock.now += timedelta(minutes=30)
            await run_duties(bot)
        refusals = [r for r in caplog.records if "digest was refused" in r.getMessage()]
        assert len(refusals) == 1 and str(alice.id) in refusals[0].getMessage()
        assert dms(users["alice"]) == []
        # DMs open again: the next day's digest arrives
        env.backend.faults.clear()
        clock.now += timedelta(days=1)
        await run_duties(bot)
        assert len(dms(users["alice"])) == 1


def test_a_long_list_fits_one_message_and_says_how_many_more() -> None:
    at = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
    seats = (
        SeatInfo(0, "blue", 1, None, None, False, name="alice"),
        SeatInfo(1, "orange", 2, None, None, False, name="bob"),
    )
    games = [
        YourGame(
            GameInfo(
                n, "mountain-king", "active", {}, 1, 1, seats, 2, 3600, 5, 6, 10**18 + n, at, at
            ),
            seats[0],
            seats[1:] if n % 2 else seats,
            at,
            your_move=not n % 2,
        )
        for n in range(1, 61)
    ]
    text = your_games_text(games, 1)
    assert len(text) <= POST_LIMIT
    shown = text.count("\n#") + text.count("\n▶")
    assert text.endswith(f"…and {60 - shown} more.") and 10 < shown < 60
    digest = digest_text(games)
    assert len(digest) <= POST_LIMIT and " more." in digest
    assert digest.startswith("Your move in 60 games: #1 (https://discord.com/channels/5/")
