"""Setting up: `/mk gate` places a gate (each player in turn order), then `/mk draft`
shows the two starting trolls in hand with a Keep button for each empty slot (everyone
drafts at once, privately). Games of edition 1 drafted before the gates."""

from __future__ import annotations

import asyncio
import re
from functools import partial
from typing import Self

import discord
from discord import app_commands

from bot.buttons import GameButton, template, view_of
from bot.client import MountainBot, game_language, reader
from bot.courier import Attachment
from bot.features.base import Feature
from bot.i18n.catalogue import ENGLISH, Messages
from bot.mountain_king.alt import pyramid_alt
from bot.mountain_king.choices import StartPoint
from bot.mountain_king.stories import story_text
from bot.mountain_king.texts import (
    DRAFT_NOT_YET,
    DRAFT_OVER,
    draft_done_text,
    draft_text,
    keep_label,
)
from bot.mountain_king.turn import asking, play
from bot.service import GameInfo, NotInGameError
from bot.service.mountain_king import MountainKingRules
from bot.texts import NOT_STARTED, POST_LIMIT, called_in, done_text
from render import pyramid_png
from rules import asked
from rules.actions import Keep
from rules.legal import legal_actions
from rules.view import View

DraftMessage = tuple[str, discord.ui.View | None, discord.File | None]


class KeepButton(GameButton, template=template("keep", r"(?P<card>[^:]+):(?P<slot>[^:]+)")):
    """Keep one starting troll in a slot, then show the draft as it is now. Its version
    is the player's own (`GameService.seat_version`): the others draft at the same time,
    so only the player's own keeps make an older draft message stale."""

    def __init__(self, game_id: int, seq: int, card: str, slot: str) -> None:
        super().__init__("keep", game_id, seq, f"{card}:{slot}", label=keep_label(card, slot))
        self.card = card
        self.slot = slot

    @classmethod
    def rebuild(cls, match: re.Match[str], label: str | None) -> Self:
        return cls(int(match["game"]), int(match["seq"]), match["card"], match["slot"])

    async def press(self, interaction: discord.Interaction[MountainBot]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=False)
        bot = interaction.client
        user = interaction.user.id
        keep = asking("keep", asked.keep, self.card, self.slot)
        result, delivery = await bot.act(
            interaction, self.game_id, keep, expected_seat_seq=self.seq
        )
        info = await bot.service.info(self.game_id)
        messages = reader(interaction)
        content, view, file = await draft_message(bot, info, user, messages)
        done = done_text(result, story_text, post_pending=bool(delivery.failed), messages=messages)
        await bot.answer(
            interaction,
            result,
            delivery,
            content=f"{done}\n\n{content}"[:POST_LIMIT],
            view=view,
            attachments=[file] if file else [],
        )


class DraftCommands(Feature):
    """Placing gates and choosing starting trolls."""

    buttons = (KeepButton,)
    game = MountainKingRules.name

    @app_commands.command(name="draft", description="Choose your starting trolls (private)")
    async def draft(self, interaction: discord.Interaction[MountainBot]) -> None:
        game = await self.bot.game(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        content, view, file = await draft_message(
            self.bot, game, interaction.user.id, reader(interaction)
        )
        await interaction.followup.send(
            content,
            view=view or discord.utils.MISSING,
            files=[file] if file else [],
            ephemeral=True,
        )

    @app_commands.command(name="gate", description="Place your gate on a start point")
    @app_commands.describe(point="A free start point for this player count")
    async def gate(self, interaction: discord.Interaction[MountainBot], point: StartPoint) -> None:
        await play(interaction, asking("gate", asked.gate, point))


async def draft_message(
    bot: MountainBot, game: GameInfo, user_id: int, messages: Messages = ENGLISH
) -> DraftMessage:
    """The private draft message: the two cards in hand with a Keep button for each
    empty bottom slot, and the pyramid so far. Before the gates are all placed, when the
    draft begins; once the player has kept four trolls, what comes next."""
    seat = game.seat_of(user_id)
    if seat is None:
        raise NotInGameError()
    loaded = await bot.service.load(game.id)
    state = loaded.state
    if state is None:
        return messages.gettext(NOT_STARTED), None, None
    gates_first = state.config.gates_first
    drafted = len(state.players[seat.seat].pyramid) >= 4
    if state.phase == "gates" and gates_first:
        return messages.gettext(DRAFT_NOT_YET), None, None
    if state.phase != "draft" and not drafted:
        return messages.gettext(DRAFT_OVER), None, None
    keeps = [a for a in legal_actions(state, seat.seat, "keep") if isinstance(a, Keep)]
    view: View = bot.service.rules.view(state, seat.seat)
    image = await asyncio.to_thread(
        partial(pyramid_png, messages=game_language(game)), view, seat.seat
    )
    mine = called_in(seat.label, seat.name, seat.ai, messages)
    file = Attachment(
        "draft.png", image, pyramid_alt(view, seat.seat, mine, messages)
    ).discord_file()
    if not keeps:
        done = draft_done_text(state.phase, gates_first=gates_first, messages=messages)
        return done, None, file
    version = await bot.service.seat_version(game.id, seat.seat)
    items = [KeepButton(game.id, version, a.card, a.slot) for a in keeps]
    text = draft_text(state.players[seat.seat].draft_hand, messages)
    return text, view_of(*items), file
