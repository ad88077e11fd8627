"""The server's community: `/mk stats card [player]` answers with a player's card (an
image with its alt text: games, rating, pace; only the asker sees it unless shared)
and `/mk stats leaderboard` with the server's best ratings and the asker's own place.
Both are per server; a player hides from both with `/mk notify stats:False`.

The two are one group, `/mk stats`: Discord gives a command at most 25 subcommands,
and `/mk` had 24."""

from __future__ import annotations

import asyncio
import io
from functools import partial

import discord
from discord import app_commands

from bot.client import MountainBot, reader
from bot.community_texts import card_of, leaderboard_text, stats_alt, stats_caption
from bot.features.base import Feature
from bot.i18n.catalogue import N_, translator_for
from bot.service.community import LEAST_GAMES
from bot.texts import NO_MENTIONS
from render.statscard import stats_png

SHARED_NOTE = N_("Posted for everyone here.")


class CommunityCommands(Feature):
    """A player's card and the server's leaderboard."""

    stats = app_commands.Group(
        name="stats", description="Players' cards and the leaderboard of this server"
    )

    @stats.command(
        name="card",
        description="A player's games, rating and pace here (only you see it unless shared)",
    )
    @app_commands.describe(
        player="Whose card (yours if left out)", share="Post the card for everyone here"
    )
    async def card(
        self,
        interaction: discord.Interaction[MountainBot],
        player: discord.User | None = None,
        share: bool = False,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        asker = interaction.user
        who = player or asker
        community = self.bot.service.community
        stats = await community.stats(interaction.guild_id, who.id, asker.id)
        # a shared card speaks the server's language, a private one the asker's
        m = translator_for(interaction.guild_locale) if share else reader(interaction)
        server = interaction.guild.name if interaction.guild is not None else ""
        card = card_of(stats, who.display_name, server, LEAST_GAMES)
        png = await asyncio.to_thread(partial(stats_png, card, messages=m))
        image = discord.File(io.BytesIO(png), filename="stats.png", description=stats_alt(card, m))
        text = stats_caption(who.id, m)
        if share:
            # the first follow-up replaces the private "thinking..."; the next is public
            note = reader(interaction).gettext(SHARED_NOTE)
            await interaction.followup.send(note, ephemeral=True)
            await interaction.followup.send(text, file=image, allowed_mentions=NO_MENTIONS)
        else:
            await interaction.followup.send(
                text, file=image, ephemeral=True, allowed_mentions=NO_MENTIONS
            )

    @stats.command(
        name="leaderboard", description="The best ratings on this server, and your place (private)"
    )
    @app_commands.describe(least_games="Only players with at least this many rated games")
    async def leaderboard(
        self,
        interaction: discord.Interaction[MountainBot],
        least_games: app_commands.Range[int, 1, 100] = LEAST_GAMES,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        board = await self.bot.service.community.leaderboard(
            interaction.guild_id, interaction.user.id, least_games=least_games
        )
        text = leaderboard_text(board, reader(interaction))
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_MENTIONS)
