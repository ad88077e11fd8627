"""Looking at the game at any time: the board, a trollsmoot, the market, the scores,
the log, your own status, and rules help."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord
from discord import app_commands

from bot.client import MountainBot
from bot.features.base import Feature
from bot.service import GameInfo, GameView, ServiceError
from bot.texts import HELP, HELP_STEPS, NO_MENTIONS, NOT_STARTED, log_text, scores_text, status_text
from render import board_png, market_png, pyramid_png, score_png
from rules.legal import legal_kinds

HELP_CHOICES = [app_commands.Choice(name=name, value=value) for value, name in HELP_STEPS]


class LookingCommands(Feature):
    """Images and summaries of the game; none of them changes it."""

    @app_commands.command(name="board", description="Show the mountain")
    async def board(self, interaction: discord.Interaction[MountainBot]) -> None:
        _, _, state = await self.started_view(interaction)
        await send_png(interaction, await asyncio.to_thread(board_png, state), "board.png")

    @app_commands.command(
        name="pyramid", description="Show a player's trollsmoot (yours by default)"
    )
    @app_commands.describe(player="Whose trollsmoot")
    async def pyramid(
        self, interaction: discord.Interaction[MountainBot], player: discord.Member | None = None
    ) -> None:
        game, _, state = await self.started_view(interaction)
        seat = game.seat_of(player.id if player else interaction.user.id)
        if seat is None:
            raise ServiceError("That player has no seat in this game.")
        image = await asyncio.to_thread(pyramid_png, state, seat.seat)
        await send_png(interaction, image, "trollsmoot.png")

    @app_commands.command(name="market", description="Show the horde, spellbook and supplies")
    async def market(self, interaction: discord.Interaction[MountainBot]) -> None:
        _, _, state = await self.started_view(interaction)
        await send_png(interaction, await asyncio.to_thread(market_png, state), "market.png")

    @app_commands.command(
        name="scores", description="Honor so far (the score sheet once the game is over)"
    )
    async def scores(self, interaction: discord.Interaction[MountainBot]) -> None:
        _, view, state = await self.started_view(interaction)
        if view.outcome is not None:
            image = await asyncio.to_thread(score_png, state, view.outcome)
            await send_png(interaction, image, "scores.png")
            return
        honor = ((p["colour"], state["scores"][p["account"]]) for p in state["players"])
        await interaction.followup.send(scores_text(honor), allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="log", description="The game's actions in notation")
    async def log(self, interaction: discord.Interaction[MountainBot]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game = await self.bot.game(interaction)
        entries = await self.bot.service.log(game.id)
        await interaction.followup.send(log_text(entries), ephemeral=True)

    @app_commands.command(
        name="status", description="Your resources, options and what changed (private)"
    )
    async def status(self, interaction: discord.Interaction[MountainBot]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        service = self.bot.service
        game, state, seat = await self.bot.seated(interaction)
        changes = await service.changes_since_last_turn(game.id, interaction.user.id)
        text = status_text(
            state.players[seat].colour,
            state.account_of(seat).storage,
            legal_kinds(state, seat),
            changes,
        )
        view = service.rules.view(state, seat)
        image = await asyncio.to_thread(pyramid_png, view, seat)
        await interaction.followup.send(
            text,
            file=discord.File(io.BytesIO(image), filename="my-trollsmoot.png"),
            ephemeral=True,
        )

    @app_commands.command(name="help", description="Rules help for a step of the turn")
    @app_commands.choices(step=HELP_CHOICES)
    async def help(self, interaction: discord.Interaction[MountainBot], step: str) -> None:
        await interaction.response.send_message(HELP[step], ephemeral=True)

    async def started_view(
        self, interaction: discord.Interaction[MountainBot]
    ) -> tuple[GameInfo, GameView, dict[str, Any]]:
        """Defer publicly, then the game here, what this user may see of it, and that
        view's state (refused before the game starts)."""
        await interaction.response.defer(thinking=True)
        game = await self.bot.game(interaction)
        view = await self.bot.service.view(game.id, interaction.user.id)
        if view.state is None:
            raise ServiceError(NOT_STARTED)
        return game, view, view.state


async def send_png(interaction: discord.Interaction[MountainBot], data: bytes, name: str) -> None:
    await interaction.followup.send(file=discord.File(io.BytesIO(data), filename=name))
