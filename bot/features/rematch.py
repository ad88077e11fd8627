"""After a game: the game-over post's Rematch button.

Rematch opens a new lobby with the finished game's options in a new thread of its
channel, as `/mk new` does, and calls the old table there, each player mentioned once;
the rematch starts by itself once its seats are full (the lobby's Join button asks
`service.rematches`). Pressed again, or by another player, it points to the rematch
already made; pressed by someone who did not play, it says so, and nothing is made."""

from __future__ import annotations

import logging
import re
from contextlib import suppress
from typing import Self

import discord

from bot.buttons import GameButton, template, view_of
from bot.client import MountainBot, game_language, reader
from bot.features.base import Feature
from bot.features.lobby import NO_THREAD, matching_tags, open_place
from bot.i18n.catalogue import Messages
from bot.rematch_texts import REMATCH, invitation_text, rematch_open_text
from bot.service import GameInfo, ServiceError
from bot.service.rematches import Rematch
from bot.texts import game_opened_text, mention_users

log = logging.getLogger(__name__)


def rematch_view(info: GameInfo, messages: Messages) -> discord.ui.View:
    """The game-over post's button (in the game's language)."""
    return view_of(RematchButton(info.id, label=messages.gettext(REMATCH)))


class RematchButton(GameButton, template=template("rematch")):
    """Open the finished game's rematch (once), or point to the one opened."""

    def __init__(self, game_id: int, *, label: str = REMATCH) -> None:
        super().__init__("rematch", game_id, label=label, style=discord.ButtonStyle.primary)

    @classmethod
    def rebuild(cls, match: re.Match[str], label: str | None) -> Self:
        return cls(int(match["game"]), label=label or REMATCH)

    async def press(self, interaction: discord.Interaction[MountainBot]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = interaction.client
        user = interaction.user
        rematch = await bot.service.rematches.make(self.game_id, user.id, name=user.display_name)
        messages = reader(interaction)
        if not rematch.made:
            await bot.tell(interaction, rematch_open_text(rematch.info, rematch.of, messages))
            return
        thread = await open_rematch(bot, rematch, user.display_name)
        await bot.tell(interaction, game_opened_text(rematch.info.id, thread.mention, messages))


async def open_rematch(bot: MountainBot, rematch: Rematch, asked_by: str) -> discord.Thread:
    """The rematch's thread in the old game's channel (a post, in a forum), with its
    lobby and the call to the old table. If Discord refuses them, the rematch is taken
    back (a later press makes it again) and the press refused."""
    info = rematch.info
    posts = game_language(info)
    thread: discord.Thread | None = None
    try:
        channel = bot.get_channel(info.channel_id or 0)
        if channel is None and info.channel_id is not None:
            channel = await bot.fetch_channel(info.channel_id)
        if not isinstance(channel, discord.TextChannel | discord.ForumChannel):
            raise ServiceError(NO_THREAD, reason="no channel")
        tags = None
        if isinstance(channel, discord.ForumChannel):
            # a forum's game is rematched in a new post, tagged for its player count
            tags = matching_tags(channel, info.seats_needed, None)
        info, thread = await open_place(bot, channel, info, tags=tags)
        seated = {s.user_id for s in info.seats}
        called = [u for u in rematch.invited if u not in seated]
        await thread.send(
            invitation_text(rematch.of, asked_by, called, posts),
            allowed_mentions=mention_users(called),
        )
    except Exception as exc:
        try:
            await bot.service.discard_new_game(info.id, info.creator_id)
        except Exception:
            log.exception("game %s: could not take back the rematch left without a lobby", info.id)
        if thread is not None:
            with suppress(discord.HTTPException):
                await thread.delete()
        if isinstance(exc, discord.HTTPException):
            log.warning("game %s: Discord refused the rematch's thread: %s", info.id, exc)
            raise ServiceError(NO_THREAD, reason=exc.text or exc.status) from exc
        raise
    return thread


class RematchCommands(Feature):
    """The game-over post's Rematch button."""

    buttons = (RematchButton,)
