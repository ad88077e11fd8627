"""What every feature is: a cog over the bot whose slash commands become subcommands
of `/mk` (see `MountainBot.install`) and whose buttons work while it is loaded."""

from __future__ import annotations

from typing import ClassVar

from discord.ext import commands

from bot.buttons import GameButton
from bot.client import MountainBot


class Feature(commands.Cog):
    # the button behaviours this feature's commands draw
    buttons: ClassVar[tuple[type[GameButton], ...]] = ()

    def __init__(self, bot: MountainBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*self.buttons)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*self.buttons)
