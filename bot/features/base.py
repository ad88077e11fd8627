"""What every feature is: a cog over the bot whose slash commands become subcommands
of its group (`/mk`, or its game's own: see `MountainBot.install`), whose buttons work
while it is loaded, and whose makers build the owed messages of its kinds for the
courier (of its game's games only, if it names one)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from discord.ext import commands

from bot.buttons import GameButton
from bot.client import GROUP, MountainBot
from bot.courier import Maker
from bot.service import GameInfo
from bot.service.outbox import Fresh
from bot.service.owed import Player
from bot.store import OwedKind


class Feature(commands.Cog):
    # the button behaviours this feature's commands draw
    buttons: ClassVar[tuple[type[GameButton], ...]] = ()
    # the slash command group its commands are in: the table's, or its game's own
    group: ClassVar[str] = GROUP
    # the game whose owed messages its makers make (None: the table's, of any game)
    game: ClassVar[str | None] = None

    def __init__(self, bot: MountainBot) -> None:
        self.bot = bot

    def makers(self) -> dict[OwedKind, Maker]:
        """How the owed messages of this feature look (see `bot.courier`)."""
        return {}

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*self.buttons)
        for kind, maker in self.makers().items():
            self.bot.courier.register(kind, maker, game=self.game)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*self.buttons)

    async def still_awaited(
        self, info: GameInfo, players: Sequence[Player], fresh: Fresh[Any] | None = None
    ) -> list[int]:
        """The users of these players whom the game still awaits in the same seat (as
        the change just stored left it, with `fresh`): whom a post or a ping mentions
        (a post sent late, after they acted, notifies nobody)."""
        if not players:
            return []
        awaited: set[tuple[int, int | None]]
        if fresh is not None:
            awaited = set(fresh.awaited)
        else:
            status = await self.bot.service.history.turn_status(info.id)
            awaited = {(w.seat, w.user_id) for w in status.waiting if not w.autopilot}
        return [
            p.user_id for p in players if p.user_id is not None and (p.seat, p.user_id) in awaited
        ]
