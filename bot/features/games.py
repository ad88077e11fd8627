"""Your games: `/mk games` lists the caller's games in this server, the ones awaiting
their move first, with links to the threads (the daily digest DM that says the same
is a duty of the scheduler, switched on with `/mk notify digest:True`); `/mk games
open:True` lists the server's games waiting for players instead."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.client import MountainBot, reader
from bot.features.base import Feature
from bot.rematch_texts import NOT_IN_A_SERVER, open_lobbies_text
from bot.service import ServiceError
from bot.texts import NO_MENTIONS, your_games_text


class GamesCommands(Feature):
    """Finding your games from any channel."""

    @app_commands.command(
        name="games", description="Your games on this server, your move first (private)"
    )
    @app_commands.describe(open="This server's games waiting for players instead (private)")
    async def games(
        self, interaction: discord.Interaction[MountainBot], open: bool = False
    ) -> None:
        user = interaction.user.id
        guild = interaction.guild_id
        if open:
            await self.lobbies(interaction, guild)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        games = await self.bot.service.your_games.listing(user, guild_id=guild)
        text = your_games_text(games, user, here=guild is not None, messages=reader(interaction))
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_MENTIONS)

    async def lobbies(
        self, interaction: discord.Interaction[MountainBot], guild: int | None
    ) -> None:
        """The server's lobbies with a free seat: who opened each, its options, the
        seats taken and its thread (`/mk open` of the issue: the `/mk` group holds at
        most 25 commands, so it is an option of `/mk games`)."""
        if guild is None:
            raise ServiceError(NOT_IN_A_SERVER)
        await interaction.response.defer(ephemeral=True, thinking=True)
        lobbies = await self.bot.service.rematches.open_lobbies(guild)
        text = open_lobbies_text(lobbies, reader(interaction))
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_MENTIONS)
