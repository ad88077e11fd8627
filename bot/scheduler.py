"""The timed duties, in one cog that owns its task: reminders for the players the game
waits for (by DM if they opted in, else in the thread), and the table's vote once a
player has missed several."""

from __future__ import annotations

import asyncio
import logging
from contextlib import suppress

import discord
from discord.ext import commands

from bot.ai_seats import is_ai
from bot.buttons import view_of
from bot.client import MountainBot
from bot.features.admin import MuteButton, call_vote
from bot.service import DueReminder
from bot.texts import mention_only, reminder_text

log = logging.getLogger("bot.scheduler")


class Scheduler(commands.Cog):
    """Every `poll` seconds, the duties that are due (no task at all with `poll` 0)."""

    def __init__(self, bot: MountainBot, *, poll: float = 60.0) -> None:
        self.bot = bot
        self.poll = poll
        self._task: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        if self.poll > 0:
            self._task = asyncio.create_task(self._run(), name="mk-scheduler")

    async def cog_unload(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def send_reminders(self) -> int:
        """Send every reminder that is due and report each back to the service; call a
        vote for a player who has now missed enough. Returns how many were sent."""
        sent = 0
        for due in await self.bot.service.notifications.due_reminders():
            if due.user_id is None or is_ai(due.user_id):
                continue
            if await self._remind(due):
                await self.bot.service.notifications.reminder_sent(due.game_id, due.seat)
                sent += 1
            if due.missed + 1 >= self.bot.settings.inactivity_reminders:
                await call_vote(self.bot, due.game_id, due.seat, due.label)
        return sent

    async def _run(self) -> None:
        await self.bot.wait_until_ready()
        while not self.bot.is_closed():
            try:
                await self.send_reminders()
            except Exception:
                log.exception("reminder round failed")
            await asyncio.sleep(self.poll)

    async def _remind(self, due: DueReminder) -> bool:
        """One reminder, by DM if the player opted in and DMs are open, else in the
        game's thread. Whether it was delivered."""
        text = reminder_text(due)
        mute = view_of(MuteButton(due.game_id))
        if due.dm_opt_in and due.user_id is not None:
            user = self.bot.get_user(due.user_id) or await self.bot.fetch_user(due.user_id)
            with suppress(discord.HTTPException):
                await user.send(text, view=mute)
                return True
        info = await self.bot.service.info(due.game_id)
        channel = await self.bot.thread_of(info)
        if channel is None:
            return False
        await channel.send(text, view=mute, allowed_mentions=mention_only(due.user_id))
        return True
