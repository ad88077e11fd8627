"""Looking at a game of Cave Troll at any time: the cave, your panel, the log, your
status, and help. None of them changes the game.

The cave answers only the player who asks, unless they choose `share`: then it is drawn
from what the table may see and posted for everyone. The panel (your artifacts, your
stack) is always private. Every refusal is private.
"""

from __future__ import annotations

import asyncio
from functools import partial

import discord
from discord import app_commands

from bot.cave_troll.alt import cave_alt, panel_alt
from bot.cave_troll.help import HELP_TOPICS, help_text
from bot.cave_troll.seated import seated
from bot.cave_troll.texts import GROUP, log_text, status_text
from bot.cave_troll.turn import names_of
from bot.client import MountainBot, game_language, reader
from bot.courier import Attachment
from bot.features.base import Feature
from bot.i18n.catalogue import N_, translator_for
from bot.service import ServiceError
from bot.service.cave_troll import CaveTrollRules
from bot.service.results import GameView
from bot.texts import NO_MENTIONS, called_in, deadline_text
from cave_troll.legal import legal_kinds
from cave_troll.view import CaveView
from render.cave_troll import cave_png, panel_png

HELP_CHOICES = [app_commands.Choice(name=name, value=value) for value, name in HELP_TOPICS]
SHARE = "Post it for the table to see (by default only you see it)"
SHARED = N_("Posted for the table.")
NOT_STARTED = N_("The game has not started yet.")


class LookingCommands(Feature):
    """The cave, your panel, the log, your status and help."""

    group = GROUP
    game = CaveTrollRules.name

    @app_commands.command(
        name="board", description="The cave with every piece (only you see it unless shared)"
    )
    @app_commands.describe(share=SHARE)
    async def board(
        self, interaction: discord.Interaction[MountainBot], share: bool = False
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game = await self.bot.game(interaction)
        viewer = None if share else interaction.user.id
        got: GameView[CaveView] = await self.bot.service.view(game.id, viewer)
        if got.state is None:
            raise ServiceError(NOT_STARTED)
        m = game_language(game) if share else reader(interaction)
        names = names_of(game)
        image = await asyncio.to_thread(
            partial(cave_png, got.state, names=names, messages=game_language(game))
        )
        file = Attachment("cave.png", image, cave_alt(got.state, (), names, m)).discord_file()
        caption = m.gettext("Game #{game}: the cave.", game=game.id)
        if share:
            # the first follow-up replaces the private "thinking..."; the next is public
            await interaction.followup.send(reader(interaction).gettext(SHARED), ephemeral=True)
            await interaction.followup.send(caption, file=file, allowed_mentions=NO_MENTIONS)
        else:
            await interaction.followup.send(
                caption, file=file, ephemeral=True, allowed_mentions=NO_MENTIONS
            )

    @app_commands.command(
        name="panel", description="Your artifacts, your stack and your gold (only you see it)"
    )
    async def panel(self, interaction: discord.Interaction[MountainBot]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game, _, seat = await seated(self.bot, interaction)
        got: GameView[CaveView] = await self.bot.service.view(game.id, interaction.user.id)
        if got.state is None:
            raise ServiceError(NOT_STARTED)
        m = reader(interaction)
        me = game.seat_of(interaction.user.id)
        assert me is not None  # seated
        image = await asyncio.to_thread(
            partial(panel_png, got.state, seat, names=names_of(game), messages=m)
        )
        shows = panel_alt(got.state, seat, called_in(me.label, me.name, me.ai, m), m)
        await interaction.followup.send(
            m.gettext("Game #{game}: your panel.", game=game.id),
            file=Attachment("panel.png", image, shows).discord_file(),
            ephemeral=True,
            allowed_mentions=NO_MENTIONS,
        )

    @app_commands.command(name="log", description="The game's last actions, with their notation")
    async def log(self, interaction: discord.Interaction[MountainBot]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game = await self.bot.game(interaction)
        entries = await self.bot.service.history.log(game.id, interaction.user.id)
        await interaction.followup.send(
            log_text(entries, reader(interaction)), ephemeral=True, allowed_mentions=NO_MENTIONS
        )

    @app_commands.command(
        name="status", description="Your gold, stack and artifacts, what you can do now (private)"
    )
    async def status(self, interaction: discord.Interaction[MountainBot]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        service = self.bot.service
        game, state, seat = await seated(self.bot, interaction)
        changes = await service.history.changes_since_last_turn(game.id, interaction.user.id)
        got: GameView[CaveView] = await service.view(game.id, interaction.user.id)
        if got.state is None:
            raise ServiceError(NOT_STARTED)
        m = reader(interaction)
        me = game.seat_of(interaction.user.id)
        assert me is not None  # seated
        mine = dict(got.state["players"][seat])
        text = status_text(
            called_in(me.label, me.name, me.ai, m), mine, legal_kinds(state, seat), changes, m
        )
        text += deadline_text((await service.clock.deadlines(game.id)).get(seat), m)
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="help", description="How to play Cave Troll here; or one topic")
    @app_commands.describe(topic="What to explain (leave it out for the overview)")
    @app_commands.choices(topic=HELP_CHOICES)
    async def help(
        self, interaction: discord.Interaction[MountainBot], topic: str | None = None
    ) -> None:
        text = help_text(topic, translator_for(interaction.locale))
        await interaction.response.send_message(text, ephemeral=True)
