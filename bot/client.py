"""The bot itself: a `commands.Bot` holding the game service, the settings, the one
`/mk` group and the helpers every feature uses.

It is told which features to install and which error handler to use (see
`bot.app.create_bot`) and imports none of them, so every feature can import it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from contextlib import suppress
from typing import Any, TypeGuard

import discord
from discord import app_commands
from discord.ext import commands

from bot.courier import Courier, Delivery
from bot.face import GameFace
from bot.i18n.catalogue import N_, Messages, language_of, translator_for
from bot.i18n.commands import CommandTranslator
from bot.service import (
    ActResult,
    Asked,
    GameInfo,
    GameService,
    ReplyTo,
    ServiceError,
)
from bot.service.outbox import Fresh
from bot.settings import Settings
from bot.store import StoreError
from bot.texts import NO_MENTIONS, POST_LIMIT, done_text

log = logging.getLogger(__name__)

GROUP = "mk"
GROUP_DESCRIPTION = "Play In the Hall of the Mountain King; open, join and manage any game here"
NOT_IN_THREAD = N_("Use this command in a game's thread (start one with `/mk new`).")
OTHER_GAME = N_("Game #{game} is a game of {title}: its commands are under `/{group}`.")

ErrorHandler = Callable[["discord.Interaction[MountainBot]", Exception], Awaitable[None]]
FeatureMaker = Callable[["MountainBot"], commands.Cog]


class MountainBot(commands.Bot):
    """The table's bot. `faces` are the games it plays (the first the default: `face`),
    `features` make the cogs to install; each cog's slash commands become subcommands of
    its group (the table's `/mk`, or a game's own). `on_error` answers every failed
    slash command and button press."""

    def __init__(
        self,
        service: GameService[Any, Any],
        settings: Settings,
        *,
        faces: Sequence[GameFace],
        features: Sequence[FeatureMaker],
        on_error: ErrorHandler,
        **options: Any,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            **options,
        )
        self.service = service
        self.settings = settings
        # how each game's stories and refusals read (its face: `bot.face`), by name
        self.faces = {face.name: face for face in faces}
        self.face = faces[0]
        # sends what the table is owed; every feature registers how its messages look
        self.courier = Courier(self, service)
        # set when the scheduler has work now (an AI seat to play, a message to send)
        self.duties_due = asyncio.Event()
        self.mk = app_commands.Group(name=GROUP, description=GROUP_DESCRIPTION)
        # the command groups by name: the table's, and each game's own
        self.groups = {GROUP: self.mk}
        for face in faces:
            if face.group not in self.groups:
                self.groups[face.group] = app_commands.Group(
                    name=face.group, description=face.group_description or face.title
                )
        self._features = tuple(features)
        self._on_error = on_error

    async def setup_hook(self) -> None:
        await self.add_commands()
        # names and descriptions in the Polish and Spanish clients' languages
        await self.tree.set_translator(CommandTranslator())
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def add_commands(self) -> None:
        """Install every feature: `/mk` and its subcommands on the tree (not synced)."""
        self.tree.error(self.report)
        for group in self.groups.values():
            self.tree.add_command(group)
        for make in self._features:
            await self.install(make(self))

    async def install(self, feature: commands.Cog) -> None:
        """Add a feature's cog, its slash commands as subcommands of its group (the
        feature's `group`, the table's `/mk` unless it names a game's)."""
        group = self.groups[getattr(feature, "group", GROUP)]
        for command in feature.get_app_commands():
            group.add_command(command)  # a subcommand named twice fails here
        # Adding a cog adds the root of each of its app commands to the tree; for these
        # that root is the group, already there. `override` lets the same group be
        # added again instead of raising CommandAlreadyRegistered.
        await self.add_cog(feature, override=True)

    async def on_interaction(self, interaction: discord.Interaction[MountainBot]) -> None:
        """Keep the language of each player's latest interaction (a command, a button):
        their direct messages are written in it. Autocomplete says nothing new."""
        if interaction.type == discord.InteractionType.autocomplete:
            return
        try:
            await self.service.notifications.remember_language(
                interaction.user.id, language_of(interaction.locale)
            )
        except StoreError as exc:
            log.warning("user %s: their language could not be kept: %s", interaction.user.id, exc)

    async def report(self, interaction: discord.Interaction[MountainBot], error: Exception) -> None:
        """Answer a failed slash command or button press (the one error handler)."""
        await self._on_error(interaction, error)

    # --- acting ---------------------------------------------------------------------

    async def act(
        self,
        interaction: discord.Interaction[MountainBot],
        game_id: int,
        action: str | Asked[Any],
        *,
        expected_seq: int | None = None,
        expected_seat_seq: int | None = None,
    ) -> tuple[ActResult, Delivery]:
        """Play an action for the user and deliver what it made owed (the turn post
        with its call to the next player). The private answer is stored with the
        action; the caller sends it (`answer`), or the courier does after a restart.
        What takes seconds to make (the game-over post) is left to the courier in the
        background, once the player is answered: the player does not wait for it. The
        messages are made from the game as the action left it, not read again."""
        kept: list[Fresh[Any]] = []
        result = await self.service.act(
            game_id,
            interaction.user.id,
            action,
            interaction_id=interaction.id,
            expected_seq=expected_seq,
            expected_seat_seq=expected_seat_seq,
            reply_to=reply_to(interaction),
            name=interaction.user.display_name,
            keep=kept.append,
        )
        fresh = kept[-1] if kept else None
        return result, await self.delivered(game_id, quick=True, fresh=fresh)

    async def undo(
        self, interaction: discord.Interaction[MountainBot], game_id: int
    ) -> tuple[ActResult, Delivery]:
        """Take back the user's last action of this turn and deliver what that made
        owed, as `act` does."""
        kept: list[Fresh[Any]] = []
        result = await self.service.undo(
            game_id,
            interaction.user.id,
            interaction_id=interaction.id,
            reply_to=reply_to(interaction),
            keep=kept.append,
        )
        fresh = kept[-1] if kept else None
        return result, await self.delivered(game_id, fresh=fresh)

    async def delivered(
        self, game_id: int, *, quick: bool = False, fresh: Fresh[Any] | None = None
    ) -> Delivery:
        """Deliver a game's owed messages now and let the scheduler play any AI seat.
        With `quick`, slow messages are left (`Delivery.left`): `answer` has them
        delivered in the background once the player is answered, and only then wakes
        the scheduler (whose round would make them at once). `fresh`: the change the
        command just stored, whose messages are made from it."""
        delivery = await self.courier.deliver(game_id, quick=quick, fresh=fresh)
        if not delivery.left:
            self.duties_due.set()
        return delivery

    async def answer(
        self,
        interaction: discord.Interaction[MountainBot],
        result: ActResult,
        delivery: Delivery,
        **kwargs: Any,
    ) -> None:
        """Tell the player their action was done (and, if a public post failed, that it
        will follow), then record that the stored answer was given; then what the
        delivery left for later (the game-over post) goes out in the background."""
        try:
            text = done_text(
                result,
                self.face_of(result.rules).tell,
                post_pending=bool(delivery.failed),
                messages=reader(interaction),
            )
            if kwargs:
                kwargs.setdefault("content", text)
                await interaction.edit_original_response(**kwargs)
            else:
                await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_MENTIONS)
            if result.reply_id is not None:
                await self.service.outbox.delivered(result.reply_id)
        finally:
            if delivery.left:
                self.courier.deliver_later(result.game_id)
                self.duties_due.set()

    def face_of(self, rules: str) -> GameFace:
        """A game's face, by its rules' name (the default game's for an unknown name)."""
        return self.faces.get(rules, self.face)

    async def close(self) -> None:
        await self.courier.close()
        await super().close()

    # --- helpers for features ------------------------------------------------------

    async def tell(self, interaction: discord.Interaction[MountainBot], text: str) -> None:
        """An ephemeral answer, whether or not the interaction was deferred."""
        text = text[:POST_LIMIT]
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_MENTIONS)
        else:
            await interaction.response.send_message(
                text, ephemeral=True, allowed_mentions=NO_MENTIONS
            )

    async def game_here(self, interaction: discord.Interaction[MountainBot]) -> GameInfo | None:
        """The game whose thread this interaction came from, if any."""
        channel_id = interaction.channel_id
        if channel_id is None:
            return None
        with suppress(ServiceError):
            return await self.service.game_in_thread(channel_id)
        return None

    async def game(self, interaction: discord.Interaction[MountainBot]) -> GameInfo:
        """The game here, or a refusal saying where to use the command: outside a
        game's thread, or a game's own command in a thread of another game."""
        game = await self.game_here(interaction)
        if game is None:
            raise ServiceError(NOT_IN_THREAD)
        command = interaction.command
        feature = command.binding if isinstance(command, app_commands.Command) else None
        wanted = getattr(feature, "game", None)
        if wanted is not None and wanted != game.rules:
            face, m = self.face_of(game.rules), reader(interaction)
            title = m.gettext(face.title)
            raise ServiceError(OTHER_GAME, game=game.id, title=title, group=face.group)
        return game

    async def game_id(self, interaction: discord.Interaction[MountainBot]) -> int:
        """The id of the game here (one read: what a command that acts needs), or a
        refusal saying where to use the command."""
        game_id = None
        if interaction.channel_id is not None:
            with suppress(ServiceError):
                game_id = await self.service.game_id_in_thread(interaction.channel_id)
        if game_id is None:
            raise ServiceError(NOT_IN_THREAD)
        return game_id

    def is_admin(self, interaction: discord.Interaction[MountainBot]) -> bool:
        """Whether the user may manage this server (game admin without being creator)."""
        user = interaction.user
        return isinstance(user, discord.Member) and user.guild_permissions.manage_guild

    async def thread_of(self, info: GameInfo) -> discord.abc.Messageable | None:
        """The game's thread (or channel), None if it is gone."""
        return await self.courier.channel(info.thread_id or info.channel_id)


class ShardedMountainBot(MountainBot, commands.AutoShardedBot):
    """The bot on Discord's sharded gateway (settings SHARD_COUNT and SHARD_IDS): one
    gateway connection per shard this process runs, each bringing the servers Discord
    assigns to it. Everything else is `MountainBot`'s; a game's duties are claimed in
    the store, so any process may do them over REST whichever shard its server is on."""


def reader(interaction: discord.Interaction[Any]) -> Messages:
    """The texts of the reader's language (their Discord client's), for private
    answers."""
    return translator_for(interaction.locale)


def game_language(info: GameInfo) -> Messages:
    """The texts of the game's language, for its public posts."""
    return translator_for(info.language)


def reply_to(interaction: discord.Interaction[Any]) -> ReplyTo:
    """Where (and in which language) an answer stored with an action goes."""
    return ReplyTo(interaction.application_id, interaction.token, language_of(interaction.locale))


def ours(
    interaction: discord.Interaction[discord.Client],
) -> TypeGuard[discord.Interaction[MountainBot]]:
    """Whether the interaction reached this bot (discord.py types a component's
    interaction by any client)."""
    return isinstance(interaction.client, MountainBot)
