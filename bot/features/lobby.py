"""Opening a game: `/mk new` makes a thread with the lobby message, whose Join, Leave,
Add AI player and Start buttons fill the seats and deal the game. In a forum channel (or
one of its posts) the game is a new forum post: its first message is the lobby, its
thread the game's thread, with the forum's tags for the player count and the clock where
it has them."""

from __future__ import annotations

import logging
import re
from contextlib import suppress
from datetime import timedelta
from typing import Literal, Self

import discord
from discord import app_commands

from bot.buttons import GameButton, template, view_of
from bot.client import MountainBot, game_language, reader
from bot.courier import Maker, Outgoing
from bot.features.base import Feature
from bot.i18n.catalogue import LANGUAGES, N_, SOURCE_LANGUAGE, Messages, language_of
from bot.service import GameInfo, Owed, ServiceError
from bot.service.clock import check_clock
from bot.service.owed import StartPost
from bot.store import OwedKind
from bot.texts import (
    LANGUAGE_NAMES,
    NO_MENTIONS,
    game_opened_text,
    lobby_text,
    mention_users,
    missing_permissions_text,
    start_text,
)

log = logging.getLogger(__name__)

# What the bot needs in a game's channel (its threads inherit them), and why. The invite
# URL asks for exactly these (`bot.app.invite_url`); `/mk new` checks them first.
CHANNEL_PERMISSIONS = discord.Permissions(
    view_channel=True,  # see the channel and the game's thread
    send_messages=True,  # post in the channel when the game's thread is closed to the bot
    create_public_threads=True,  # `/mk new` gives each game its own thread
    # the lobby, turn posts, pings, reminders, votes; also reopening an archived thread
    send_messages_in_threads=True,
    attach_files=True,  # the board, pyramid and score sheet images of the turn posts
    read_message_history=True,  # after a crash, find a post already sent before resending
)
# In a forum (its posts inherit them): a post is a message sent in the forum
FORUM_PERMISSIONS = discord.Permissions(
    view_channel=True,  # see the forum and the game's post
    send_messages=True,  # `/mk new` makes each game a post whose first message is the lobby
    send_messages_in_threads=True,  # the turn posts, pings, reminders, votes in the post
    attach_files=True,  # the board, pyramid and score sheet images of the turn posts
    read_message_history=True,  # after a crash, find a post already sent before resending
)
# Discord applies at most this many tags to a forum post
MAX_TAGS = 5
# the tag names that count players ("2 players", "2p", "2-player", "2 graczy", "2 jugadores")
PLAYERS_TAG = r"{n}\s*-?\s*(?:p|pl|players?|graczy|gracze|jugador(?:es)?)?"
# the tag names of a turn clock ("clock", "turn clock", "24h", "24 hours")
CLOCK_TAG = r"(?:turn[\s-]*)?clock|timed|zegar|reloj|{hours}\s*(?:h|hours?)(?:\s*clock)?"
GameChannel = discord.TextChannel | discord.ForumChannel
NO_THREAD = N_(
    "Discord refused the game's thread or its first post ({reason}), so no game was opened."
    " Check the bot's permissions in this channel, then try again."
)
NOT_A_TEXT_CHANNEL = N_("Open a game from a server's text channel or forum.")
NOT_A_GAME = N_("This table plays {games}; pick one of them.")
# the languages a game's posts can be written in, each named as its speakers name it
LANGUAGE_CHOICES = [
    app_commands.Choice(name=LANGUAGE_NAMES[code], value=code) for code in LANGUAGES
]


def missing_permissions(
    granted: discord.Permissions, needed: discord.Permissions = CHANNEL_PERMISSIONS
) -> list[str]:
    """The permissions of `needed` (a text channel's by default) that `granted` lacks,
    in their order."""
    if granted.administrator:
        return []
    return [flag for flag, on in needed if on and not getattr(granted, flag)]


def matching_tags(
    forum: discord.ForumChannel, players: int, clock: int | None, *, moderate: bool = False
) -> list[discord.ForumTag]:
    """The forum's tags named for the game's player count or its turn clock (with
    `moderate`, the moderated ones too: applying those needs Manage Threads), at most
    Discord's `MAX_TAGS`, in the forum's order; none without matching tags."""
    patterns = [PLAYERS_TAG.format(n=players)]
    if clock is not None:
        patterns.append(CLOCK_TAG.format(hours=clock))
    return [
        tag
        for tag in forum.available_tags
        if (moderate or not tag.moderated)
        and any(re.fullmatch(p, tag.name.strip().casefold()) for p in patterns)
    ][:MAX_TAGS]


async def open_place(
    bot: MountainBot,
    channel: GameChannel,
    info: GameInfo,
    *,
    tags: list[discord.ForumTag] | None = None,
) -> tuple[GameInfo, discord.Thread]:
    """The game's thread with its lobby, and the game placed in it: in a text channel a
    new thread whose first message is the lobby; in a forum a post (with `tags`) whose
    first message is the lobby. If Discord refuses, the thread it made is deleted (when
    the bot may) and the refusal raised."""
    posts = game_language(info)
    face = bot.face_of(info.rules)
    name = posts.gettext("{title} #{game}", title=posts.gettext(face.short_name), game=info.id)
    view = lobby_view(info) or discord.utils.MISSING
    thread: discord.Thread | None = None
    try:
        if isinstance(channel, discord.ForumChannel):
            post = await channel.create_thread(
                name=name,
                content=lobby_text(info, posts, face.title),
                view=view,
                allowed_mentions=NO_MENTIONS,
                applied_tags=tags or [],
            )
            thread = post.thread
            info = await bot.service.set_place(
                info.id, guild_id=info.guild_id, channel_id=channel.id, thread_id=thread.id
            )
        else:
            thread = await channel.create_thread(name=name, type=discord.ChannelType.public_thread)
            info = await bot.service.set_place(
                info.id, guild_id=info.guild_id, channel_id=channel.id, thread_id=thread.id
            )
            await thread.send(
                lobby_text(info, posts, face.title), view=view, allowed_mentions=NO_MENTIONS
            )
    except Exception:
        if thread is not None:
            with suppress(discord.HTTPException):
                await thread.delete()
        raise
    return info, thread


def lobby_view(info: GameInfo) -> discord.ui.View | None:
    """The lobby's buttons while seats are open (in the game's language); none once
    the game is dealt."""
    if info.status != "open":
        return None
    m = game_language(info)
    return view_of(
        *(kind.labelled(info.id, m) for kind in (JoinButton, LeaveButton, AddAIButton, StartButton))
    )


class LobbyButton(GameButton, template=template("(?:join|leave|addai|start)")):
    """A lobby button: it changes the seats, then redraws the lobby message."""

    kind = ""
    default_label = ""
    button_style = discord.ButtonStyle.secondary

    def __init__(self, game_id: int, *, label: str | None = None) -> None:
        super().__init__(
            self.kind,
            game_id,
            label=label or self.default_label,
            style=self.button_style,
        )

    @classmethod
    def rebuild(cls, match: re.Match[str], label: str | None) -> Self:
        return cls(int(match["game"]), label=label or cls.default_label)

    @classmethod
    def labelled(cls, game_id: int, messages: Messages) -> Self:
        """The button as the lobby shows it, labelled in the game's language."""
        return cls(game_id, label=messages.gettext(cls.default_label))

    async def press(self, interaction: discord.Interaction[MountainBot]) -> None:
        await interaction.response.defer()
        info = await self.seat(interaction)
        await interaction.edit_original_response(
            content=lobby_text(
                info, game_language(info), interaction.client.face_of(info.rules).title
            ),
            view=lobby_view(info),
            allowed_mentions=NO_MENTIONS,
        )
        await self.then(interaction.client, info)

    async def seat(self, interaction: discord.Interaction[MountainBot]) -> GameInfo:
        """Change the seats; the game as it is now."""
        raise NotImplementedError

    async def then(self, bot: MountainBot, info: GameInfo) -> None:
        """What follows once the lobby is redrawn."""


class JoinButton(LobbyButton, template=template("join")):
    kind = "join"
    default_label = N_("Join")
    button_style = discord.ButtonStyle.primary

    async def seat(self, interaction: discord.Interaction[MountainBot]) -> GameInfo:
        service = interaction.client.service
        info = await service.seating.join(
            self.game_id, interaction.user.id, name=interaction.user.display_name
        )
        # a rematch starts by itself once its table is full
        return await service.rematches.started_when_full(info)

    async def then(self, bot: MountainBot, info: GameInfo) -> None:
        if info.status != "open":
            await bot.delivered(info.id)


class LeaveButton(LobbyButton, template=template("leave")):
    kind = "leave"
    default_label = N_("Leave")

    async def seat(self, interaction: discord.Interaction[MountainBot]) -> GameInfo:
        return await interaction.client.service.seating.leave(self.game_id, interaction.user.id)


class AddAIButton(LobbyButton, template=template("addai")):
    kind = "addai"
    default_label = N_("Add AI player")

    async def seat(self, interaction: discord.Interaction[MountainBot]) -> GameInfo:
        bot = interaction.client
        return await bot.service.seating.add_ai(
            self.game_id, interaction.user.id, admin=bot.is_admin(interaction)
        )


class StartButton(LobbyButton, template=template("start")):
    kind = "start"
    default_label = N_("Start")
    button_style = discord.ButtonStyle.success

    async def seat(self, interaction: discord.Interaction[MountainBot]) -> GameInfo:
        bot = interaction.client
        return await bot.service.start(
            self.game_id, interaction.user.id, admin=bot.is_admin(interaction)
        )

    async def then(self, bot: MountainBot, info: GameInfo) -> None:
        # the start post (owed with the start) tells the table; the AI seats place
        # their gates and draft
        await bot.delivered(info.id)


class LobbyCommands(Feature):
    """Opening a game and filling its seats."""

    buttons = (JoinButton, LeaveButton, AddAIButton, StartButton)

    def makers(self) -> dict[OwedKind, Maker]:
        return {"start": self.start_post}

    async def start_post(self, owed: Owed, info: GameInfo) -> Outgoing | None:
        """The game has begun: every seat named, each person mentioned once."""
        post = owed.payload
        assert isinstance(post, StartPost)
        people = [p.user_id for p in post.players if p.user_id is not None and not p.ai]
        return Outgoing(start_text(post, game_language(info)), mentions=mention_users(people))

    @app_commands.command(
        name="new", description="Open a new game in this channel (a thread is made for it)"
    )
    @app_commands.describe(
        players="How many players (2-5)",
        side="Board side (winter for 4-5 players, autumn for 3, either for 2)",
        teams="Team mode (exactly 4 players)",
        workshops="How the workshops in play are chosen",
        reminder_hours="Hours between reminders for the player whose turn it is",
        language="The language of the game's posts (default: the server's language)",
        clock="A turn clock: hours per turn in each player's playing hours (default: none)",
        clock_policy="When a turn clock runs out: open the table's vote, or the AI plays",
        away="While a player is away (/mk away): the game waits, or the AI plays",
        game="Which game (default: In the Hall of the Mountain King)",
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction[MountainBot],
        players: app_commands.Range[int, 2, 5],
        side: Literal["winter", "autumn"] | None = None,
        teams: bool = False,
        workshops: Literal["random", "unique"] | None = None,
        reminder_hours: app_commands.Range[float, 0.5, 168.0] | None = None,
        language: str | None = None,
        clock: int | None = None,
        clock_policy: Literal["vote", "ai"] = "vote",
        away: Literal["wait", "ai"] = "wait",
        game: str | None = None,
    ) -> None:
        if game is not None and game not in self.bot.faces:
            titles = [reader(interaction).gettext(f.title) for f in self.bot.faces.values()]
            raise ServiceError(NOT_A_GAME, games=", ".join(titles))
        channel = interaction.channel
        if isinstance(channel, discord.Thread) and isinstance(channel.parent, discord.ForumChannel):
            # typed in a forum post: the new game is a new post in that forum (Discord
            # sends a post's permissions as its forum's)
            channel = channel.parent
        if not isinstance(channel, discord.TextChannel | discord.ForumChannel):
            raise ServiceError(NOT_A_TEXT_CHANNEL)
        # Discord sends the bot's permissions in this channel with the interaction
        granted = interaction.app_permissions
        if isinstance(channel, discord.ForumChannel):
            missing = missing_permissions(granted, FORUM_PERMISSIONS)
        else:
            missing = missing_permissions(granted)
        if missing:
            # refused, nothing created: told in the asker's language
            text = missing_permissions_text(channel.mention, missing, reader(interaction))
            await self.bot.tell(interaction, text)
            return
        check_clock(clock)  # refused before anything is made
        await interaction.response.defer(ephemeral=True, thinking=True)
        service = self.bot.service
        # the options given (a game reads its own: one it has not is refused)
        given = {"side": side, "workshops": workshops}
        options = {"players": players, "teams": teams} | {
            k: v for k, v in given.items() if v is not None
        }
        hours = reminder_hours or self.bot.settings.reminder_hours
        info = await service.create_game(
            interaction.user.id,
            options,
            guild_id=interaction.guild_id,
            channel_id=channel.id,
            reminder_interval=timedelta(hours=hours),
            name=interaction.user.display_name,
            language=language or server_language(interaction),
            game=game,
        )
        tags = None
        if isinstance(channel, discord.ForumChannel):
            tags = matching_tags(channel, players, clock, moderate=granted.manage_threads)
        if clock is not None:
            await service.clock.configure(info.id, interaction.user.id, clock, clock_policy)
        if away != "wait":
            await service.away.set_policy(info.id, interaction.user.id, away)
        try:
            info, thread = await open_place(self.bot, channel, info, tags=tags)
        except Exception as exc:
            # no game may stay open without its thread and lobby
            await self.withdraw(interaction, info)
            if isinstance(exc, discord.HTTPException):
                log.warning("game %s: Discord refused its thread or lobby: %s", info.id, exc)
                raise ServiceError(NO_THREAD, reason=exc.text or exc.status) from exc
            raise
        await interaction.followup.send(
            game_opened_text(info.id, thread.mention, reader(interaction)), ephemeral=True
        )

    @new.autocomplete("game")
    async def game_offers(
        self, interaction: discord.Interaction[MountainBot], current: str
    ) -> list[app_commands.Choice[str]]:
        """The games this table plays, by their titles in the reader's language."""
        m, typed = reader(interaction), current.casefold()
        titles = ((m.gettext(f.title) or f.name, f.name) for f in self.bot.faces.values())
        return [
            app_commands.Choice(name=title, value=name)
            for title, name in titles
            if typed in title.casefold() or typed in name
        ][:25]

    async def withdraw(self, interaction: discord.Interaction[MountainBot], info: GameInfo) -> None:
        """Take back a game whose thread or lobby could not be made: the game is
        deleted (so it is never open without a place to play; its thread, if Discord
        made one, `open_place` deleted when the bot may)."""
        try:
            if not await self.bot.service.discard_new_game(info.id, interaction.user.id):
                await self.bot.service.abandon(info.id, interaction.user.id)
        except Exception:
            log.exception("game %s: could not abandon the game left without a lobby", info.id)


def server_language(interaction: discord.Interaction[MountainBot]) -> str:
    """The server's preferred language, when the game's creator chose none: English
    for a server whose language has no catalogue."""
    locale = interaction.guild_locale
    if locale is None and interaction.guild is not None:
        locale = interaction.guild.preferred_locale
    return language_of(locale) if locale is not None else SOURCE_LANGUAGE
