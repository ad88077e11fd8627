"""The table's time: `/mk away` (away until a day, or for some days, in your time zone;
`off:True` to be back), and how a seat's news of time is posted (away, back, the turn
clock's one reminder and its zero). The turn clock itself is set at `/mk new` (bot/
features/lobby.py) and run by the scheduler."""

from __future__ import annotations

from contextlib import suppress

import discord
from discord import app_commands

from bot.client import MountainBot, game_language, reader
from bot.courier import Outgoing
from bot.features.base import Feature
from bot.i18n.catalogue import translator_for
from bot.service import GameInfo, Owed
from bot.service.away import read_day
from bot.service.owed import SeatNews
from bot.texts import NO_MENTIONS, mention_only
from bot.time_texts import away_text, back_text, clock_dm_text, time_news_text


async def time_news(
    bot: MountainBot, owed: Owed, news: SeatNews, info: GameInfo
) -> Outgoing | None:
    """A seat's news of time in the game's thread; the clock's reminder mentions its
    player alone, the rest nobody. A player who wants reminders by direct message gets
    the clock's reminder so, in the language they last used (in the thread if their
    DMs are closed), and the thread nothing."""
    text = time_news_text(news, game_language(info))
    user_id = news.player.user_id
    if news.change != "clock" or user_id is None:
        return Outgoing(text)
    prefs = await bot.service.notifications.prefs(user_id)
    if prefs.dm_opt_in:
        theirs = translator_for(prefs.language or info.language)
        dm = clock_dm_text(news, info.id, theirs, bot.face_of(info.rules).short_name)
        with suppress(discord.HTTPException):
            user = bot.get_user(user_id) or await bot.fetch_user(user_id)
            # the same nonce if sent again after a crash: Discord keeps the first
            await user.send(dm, allowed_mentions=NO_MENTIONS, nonce=f"mk-clock-{owed.id}")
            return None
    return Outgoing(text, mentions=mention_only(user_id))


class AwayCommands(Feature):
    """Being away from all your games at once."""

    @app_commands.command(
        name="away", description="Away from your games until a day: no reminders, no votes"
    )
    @app_commands.describe(
        until="The day you are back, YYYY-MM-DD (in your time zone, /mk notify)",
        days="Or for how many days (1-60)",
        off="True: you are back now",
    )
    async def away(
        self,
        interaction: discord.Interaction[MountainBot],
        until: str | None = None,
        days: int | None = None,
        off: bool = False,
    ) -> None:
        """Go away (each running game is told once and follows its away policy), come
        back, or hear whether you are away. A bad day is refused and changes nothing."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        away = self.bot.service.away
        me = interaction.user.id
        m = reader(interaction)
        told: set[int] = set()
        if off:
            told = {s.game_id for s in await away.back(me)}
            text = back_text(len(told), m)
        elif until is None and days is None:
            current = await away.of(me)
            text = away_text(None if current is None else current.ends_at, m)
        else:
            day = None if until is None else read_day(until)
            record, seats = await away.leave(me, until=day, days=days)
            told = {s.game_id for s in seats}
            text = away_text(record.ends_at, m)
        for game_id in sorted(told):
            await self.bot.delivered(game_id)
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_MENTIONS)
