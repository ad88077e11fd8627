"""Your games: `/mk games` lists the caller's games in this server, the ones awaiting
their move first, with links to the threads (the daily digest DM that says the same
is a duty of the scheduler, switched on with `/mk notify digest:True`)."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.client import MountainBot, reader
from bot.features.base import Feature
from bot.texts import NO_MENTIONS, your_games_text


class GamesCommands(Feature):
    """Finding your games from any channel."""

    @app_commands.command(
        name="games", description="Your games on this server, your move first (private)"
    )
    async def games(self, interaction: discord.Interaction[MountainBot]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        user = interaction.user.id
        guild = interaction.guild_id
        games = await self.bot.service.your_games.listing(user, guild_id=guild)
        text = your_games_text(games, user, here=guild is not None, messages=reader(interaction))
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_MENTIONS)
