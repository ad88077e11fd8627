"""Looking at the game at any time: the board, a pyramid, the market, the scores, the
log, your own status, and help.

The board, pyramid, market and scores answer only the player who asks, unless they
choose `share`: then the picture is posted for the table, drawn from what the table may
see (a shared pyramid keeps its pedestal tokens face down). Every answer carries a
caption saying which game, what and when; every refusal is private, shared or not.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from functools import partial
from typing import Any

import discord
from discord import app_commands

from bot.client import MountainBot, game_language, reader
from bot.courier import Attachment
from bot.features.base import Feature
from bot.i18n import Messages, translator_for
from bot.i18n.catalogue import N_
from bot.mountain_king.alt import board_alt, legend_alt, market_alt, pyramid_alt, score_alt
from bot.mountain_king.help import (
    HELP_TOPICS,
    NO_SEAT,
    NO_SEAT_YOU,
    SHARED,
    caption,
    help_text,
    moment,
    scores_lines,
)
from bot.mountain_king.seated import seated
from bot.mountain_king.texts import log_text, status_text
from bot.offers import SeatColour
from bot.service import GameInfo, GameView, SeatInfo, ServiceError
from bot.service.mountain_king import MountainKingRules
from bot.texts import NO_MENTIONS, NOT_STARTED, called_in, deadline_text
from render import board_png, legend_png, market_png, pyramid_png, score_png
from rules.legal import legal_kinds
from rules.view import View

HELP_CHOICES = [app_commands.Choice(name=name, value=value) for value, name in HELP_TOPICS]
SHARE = "Post it for the table to see (by default only you see it)"
SECRET_DRAFT = N_(
    "{player}'s starting trolls stay hidden until everyone has kept theirs: the draft is secret."
)


@dataclass(frozen=True)
class Look:
    """What one looking command shows: the game, the view it is drawn from (the
    asker's, or the table's when shared) and that view's state."""

    game: GameInfo
    view: GameView[View]
    state: View
    # the caption's language: the asker's, or the game's when shared with the table
    messages: Messages

    @property
    def names(self) -> dict[int, str]:
        return names_of(self.game)

    @property
    def language(self) -> Messages:
        """The images' language: the game's, whoever looks (as in its posts)."""
        return game_language(self.game)

    def called(self, seat: SeatInfo) -> str:
        return called_in(seat.label, seat.name, seat.ai, self.messages)

    def caption(self, subject: str) -> str:
        m = self.messages
        called = {s.seat: self.called(s) for s in self.game.seats}
        phase = self.state["phase"]
        waiting = [] if phase == "over" else [called[s] for s in self.state["to_act"]]
        when = moment(phase, self.state["n_actions"], m)
        return caption(self.game.id, subject, when, waiting, drafting=phase == "draft", messages=m)


class LookingCommands(Feature):
    """Images and summaries of the game; none of them changes it."""

    game = MountainKingRules.name

    @app_commands.command(
        name="board", description="The mountain, with a caption (only you see it unless shared)"
    )
    @app_commands.describe(share=SHARE)
    async def board(
        self, interaction: discord.Interaction[MountainBot], share: bool = False
    ) -> None:
        look = await self.look(interaction, share)
        image = await asyncio.to_thread(
            partial(board_png, look.state, names=look.names, messages=look.language)
        )
        subject = look.messages.gettext("the mountain")
        shown = Attachment("board.png", image, board_alt(look.state, (), look.messages))
        await show(interaction, look.caption(subject), shown, share)

    @app_commands.command(
        name="pyramid", description="A player's pyramid of trolls and storage (yours by default)"
    )
    @app_commands.describe(
        player="Whose pyramid (default: yours)",
        colour="Or the seat by its colour (also an AI player's)",
        share="Post it for the table; their pedestal tokens stay face down",
    )
    async def pyramid(
        self,
        interaction: discord.Interaction[MountainBot],
        player: discord.Member | None = None,
        colour: SeatColour | None = None,
        share: bool = False,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game = await self.bot.game(interaction)
        if colour is not None:
            seat = game.seat_labelled(colour)
            if seat is None:
                raise ServiceError(
                    N_("No seat of this game is {colour}: pick one from the list."), colour=colour
                )
        else:
            seat = game.seat_of(player.id if player else interaction.user.id)
        if seat is None:
            if player is not None:
                raise ServiceError(NO_SEAT, name=player.display_name)
            raise ServiceError(NO_SEAT_YOU)
        look = await self.seen(interaction, game, share)
        if look.state["players"][seat.seat]["secret"]:
            # the view of the secret draft holds nothing of it to draw
            raise ServiceError(SECRET_DRAFT, player=look.called(seat))
        image = await asyncio.to_thread(
            partial(pyramid_png, look.state, seat.seat, names=look.names, messages=look.language)
        )
        subject = look.messages.gettext("{player}'s pyramid", player=look.called(seat))
        shows = pyramid_alt(look.state, seat.seat, look.called(seat), look.messages)
        shown = Attachment(f"pyramid-{seat.label}.png", image, shows)
        await show(interaction, look.caption(subject), shown, share)

    @app_commands.command(
        name="market",
        description="The horde, spellbook and supplies (only you see it unless shared)",
    )
    @app_commands.describe(share=SHARE)
    async def market(
        self, interaction: discord.Interaction[MountainBot], share: bool = False
    ) -> None:
        look = await self.look(interaction, share)
        image = await asyncio.to_thread(partial(market_png, look.state, messages=look.language))
        subject = look.messages.gettext("the market")
        shown = Attachment("market.png", image, market_alt(look.messages))
        await show(interaction, look.caption(subject), shown, share)

    @app_commands.command(
        name="scores", description="Honor so far; the score sheet once the game is over"
    )
    @app_commands.describe(share=SHARE)
    async def scores(
        self, interaction: discord.Interaction[MountainBot], share: bool = False
    ) -> None:
        look = await self.look(interaction, share)
        state, outcome = look.state, look.view.outcome
        if outcome is not None:
            image = await asyncio.to_thread(
                partial(score_png, state, outcome, names=look.names, messages=look.language)
            )
            subject = look.messages.gettext("the score sheet")
            called = {s.seat: look.called(s) for s in look.game.seats}
            shows = score_alt(outcome, called, look.messages)
            await show(
                interaction, look.caption(subject), Attachment("scores.png", image, shows), share
            )
            return
        by_account: dict[int, list[str]] = {}
        called = {s.seat: look.called(s) for s in look.game.seats}
        for p in state["players"]:
            by_account.setdefault(p["account"], []).append(called.get(p["seat"], p["colour"]))
        lines = scores_lines(
            ((names, state["scores"][account]) for account, names in by_account.items()),
            look.messages,
        )
        subject = look.messages.gettext("honor on the track")
        await show(interaction, f"{look.caption(subject)}\n{lines}", None, share)

    @app_commands.command(name="log", description="The game's last actions, with their notation")
    async def log(self, interaction: discord.Interaction[MountainBot]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game = await self.bot.game(interaction)
        entries = await self.bot.service.history.log(game.id, interaction.user.id)
        await interaction.followup.send(
            log_text(entries, reader(interaction)), ephemeral=True, allowed_mentions=NO_MENTIONS
        )

    @app_commands.command(
        name="status", description="Your resources, options and what changed (private)"
    )
    async def status(self, interaction: discord.Interaction[MountainBot]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        service = self.bot.service
        game, state, seat = await seated(self.bot, interaction)
        changes = await service.history.changes_since_last_turn(game.id, interaction.user.id)
        me = game.seat_of(interaction.user.id)
        messages = reader(interaction)
        mine = (
            called_in(me.label, me.name, me.ai, messages)
            if me is not None
            else state.players[seat].colour
        )
        text = status_text(
            mine,
            state.account_of(seat).storage,
            legal_kinds(state, seat),
            changes,
            messages,
            language=game.language,
        )
        # the turn clock's zero, when the game has one and it runs for this seat
        text += deadline_text((await service.clock.deadlines(game.id)).get(seat), messages)
        view: View = service.rules.view(state, seat)
        image = await asyncio.to_thread(
            partial(pyramid_png, view, seat, names=names_of(game), messages=game_language(game))
        )
        await interaction.followup.send(
            text,
            file=Attachment(
                "my-pyramid.png", image, pyramid_alt(view, seat, mine, messages)
            ).discord_file(),
            ephemeral=True,
            allowed_mentions=NO_MENTIONS,
        )

    @app_commands.command(
        name="help", description="How to play: start, a turn, the end, the images; or one topic"
    )
    @app_commands.describe(topic="What to explain (leave it out for the overview)")
    @app_commands.choices(topic=HELP_CHOICES)
    async def help(
        self, interaction: discord.Interaction[MountainBot], topic: str | None = None
    ) -> None:
        # in the reader's own language (Polish and Spanish clients; English otherwise)
        text = help_text(topic, translator_for(interaction.locale))
        if topic != "images":
            await interaction.response.send_message(text, ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        legend = await asyncio.to_thread(legend_png, translator_for(interaction.locale))
        await interaction.followup.send(
            text,
            file=Attachment(
                "legend.png", legend, legend_alt(translator_for(interaction.locale))
            ).discord_file(),
            ephemeral=True,
        )

    async def look(self, interaction: discord.Interaction[MountainBot], share: bool) -> Look:
        """Defer privately (so that a refusal stays private), then the game here and
        what the asker may see of it, or the table when shared."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        game = await self.bot.game(interaction)
        return await self.seen(interaction, game, share)

    async def seen(
        self, interaction: discord.Interaction[MountainBot], game: GameInfo, share: bool
    ) -> Look:
        """The game as the asker sees it, or as anyone at the table may (shared);
        refused before the game starts."""
        viewer = None if share else interaction.user.id
        view: GameView[View] = await self.bot.service.view(game.id, viewer)
        if view.state is None:
            raise ServiceError(NOT_STARTED)
        messages = game_language(game) if share else reader(interaction)
        return Look(game, view, view.state, messages)


def names_of(game: GameInfo) -> dict[int, str]:
    """Each seat's player as the images name them (beside the colour)."""
    return {s.seat: s.name for s in game.seats if s.name}


async def show(
    interaction: discord.Interaction[MountainBot],
    text: str,
    image: Attachment | None,
    share: bool,
) -> None:
    """The answer to a looking command: to the asker alone, or (shared) a private note
    in place of the deferred answer and a follow-up for everyone."""
    kwargs: dict[str, Any] = {"allowed_mentions": NO_MENTIONS}
    if image is not None:
        kwargs["file"] = image.discord_file()
    if share:
        # the first follow-up replaces the private "thinking..."; the next is public
        await interaction.followup.send(reader(interaction).gettext(SHARED), ephemeral=True)
        await interaction.followup.send(text, **kwargs)
    else:
        await interaction.followup.send(text, ephemeral=True, **kwargs)
