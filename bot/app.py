"""Start-up and the one error handler.

`create_bot` builds the bot with every feature; `handle_error` answers every failed
slash command and button press: a refused move or a stale button gets its sentence,
a failed check its own, and anything unexpected is logged with the game id while the
player hears that nothing was changed.
"""

from __future__ import annotations

import logging
from contextlib import suppress
from functools import partial
from typing import Any

import discord
from discord import app_commands

from bot.buttons import game_pressed
from bot.cave_troll import FACE as CAVE_TROLL
from bot.cave_troll import FEATURES as CAVE_TROLL_FEATURES
from bot.client import FeatureMaker, MountainBot, ShardedMountainBot, reader
from bot.features.admin import AdminCommands
from bot.features.away import AwayCommands
from bot.features.community import CommunityCommands
from bot.features.games import GamesCommands
from bot.features.lobby import CHANNEL_PERMISSIONS, LobbyCommands
from bot.features.rematch import RematchCommands
from bot.features.replies import Replies
from bot.i18n.catalogue import N_
from bot.mountain_king import FACE as MOUNTAIN_KING
from bot.mountain_king import FEATURES as GAME_FEATURES
from bot.scheduler import Scheduler
from bot.service import CorruptGameError, GameService, ServiceError, StorageFullError
from bot.settings import Settings
from bot.store import StoreDamagedError, WriteFaultError

log = logging.getLogger("bot")

GENERIC_ERROR = N_("Something went wrong on our side; nothing was changed. Please try again.")
STORED_ERROR = N_(
    "Your action was stored, but something went wrong on our side while answering; the"
    " table's posts will follow. `/mk status` shows where the game stands."
)
CHECK_FAILED = N_("You may not use this command here.")
# what the invite URL asks for: the bot user, and its slash commands
SCOPES = ("bot", "applications.commands")
# the games the table plays, the default first
FACES = (MOUNTAIN_KING, CAVE_TROLL)
# in this order their subcommands are listed under /mk (a game's own under its group)
FEATURES: tuple[FeatureMaker, ...] = (
    LobbyCommands,
    *GAME_FEATURES,
    *CAVE_TROLL_FEATURES,
    GamesCommands,
    RematchCommands,
    AdminCommands,
    AwayCommands,
    CommunityCommands,
    Replies,
)


def create_bot(
    service: GameService[Any, Any],
    settings: Settings,
    *,
    scheduler_poll: float = 60.0,
    **discord_options: Any,
) -> MountainBot:
    """The Mountain King's bot with every feature and the scheduler (`scheduler_poll`
    0: no scheduler task; tests run `Scheduler.round` themselves).

    Its messages mention nobody unless they say whom (`texts.mention_only`): a send
    that forgets `allowed_mentions` cannot ping `@everyone`, a role or a player.

    With SHARD_COUNT set it is discord.py's sharded bot, running the shards SHARD_IDS
    names (all of them when unset)."""
    options: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions.none()}
    kind = MountainBot
    if settings.shard_count is not None:
        kind = ShardedMountainBot
        options["shard_count"] = settings.shard_count
        if settings.shard_ids is not None:
            options["shard_ids"] = list(settings.shard_ids)
    bot = kind(
        service,
        settings,
        faces=FACES,
        features=(*FEATURES, partial(Scheduler, poll=scheduler_poll)),
        on_error=handle_error,
        **(options | discord_options),
    )

    async def ready() -> None:
        log.info("%s", await ready_line(bot))

    bot.add_listener(ready, "on_ready")
    return bot


def invite_url(application_id: int) -> str:
    """The link a server admin opens to add the bot, asking for exactly the permissions
    `/mk new` checks (`CHANNEL_PERMISSIONS`)."""
    return discord.utils.oauth_url(application_id, permissions=CHANNEL_PERMISSIONS, scopes=SCOPES)


def log_invite(bot: MountainBot) -> None:
    """Log the invite URL once the bot has logged in (it holds no secret)."""
    if bot.application_id is None:
        return
    log.info(
        "Invite the bot to a server with %s (permissions %d; scopes %s)",
        invite_url(bot.application_id),
        CHANNEL_PERMISSIONS.value,
        " and ".join(SCOPES),
    )


async def ready_line(bot: MountainBot) -> str:
    """What a host reads once the bot is connected (at every new gateway session): who
    it is and what this process serves, its servers (those of its shards) and the
    games in them."""
    guild_ids = [guild.id for guild in bot.guilds]
    served = f"serving {len(guild_ids)} server{'' if len(guild_ids) == 1 else 's'}"
    try:
        counts = await bot.service.game_counts(guild_ids)
    except Exception as exc:  # the store is down: say so, the bot is connected anyway
        games = f" (its games could not be counted: {exc})"
    else:
        total = sum(counts.get(status, 0) for status in ("open", "active"))
        games = (
            f" and {total} game{'' if total == 1 else 's'}"
            f" ({counts.get('active', 0)} running, {counts.get('open', 0)} waiting to start)"
        )
    return f"Ready as {bot.user}: {served}{games}{shards_text(bot)}"


def shards_text(bot: discord.Client) -> str:
    """Which of the bot's Discord shards this process runs ("" when it is not sharded)."""
    count = bot.shard_count
    ids: list[int] | None = getattr(bot, "shard_ids", None)
    if ids is None and bot.shard_id is not None:
        ids = [bot.shard_id]
    if not count or not ids or count < 2:
        return ""
    return f" on shard{'' if len(ids) == 1 else 's'} {', '.join(map(str, ids))} of {count}"


async def handle_error(interaction: discord.Interaction[MountainBot], error: Exception) -> None:
    """The one answer to a failed slash command or button press."""
    bot = interaction.client
    # refusals are private: in the reader's language
    messages = reader(interaction)
    original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    refusing = next((f for f in bot.faces.values() if f.refuses(original)), None)
    if refusing is not None or isinstance(original, ServiceError):
        await bot.tell(interaction, (refusing or bot.face).refusal(original, messages))
        return
    if isinstance(original, app_commands.CheckFailure):
        await bot.tell(interaction, str(original) or messages.gettext(CHECK_FAILED))
        return
    game_id = game_pressed(interaction)
    if game_id is None:
        with suppress(Exception):
            game = await bot.game_here(interaction)
            game_id = game.id if game else None
    command = interaction.command
    if isinstance(original, WriteFaultError):
        # any change the store could not write (disk full, too big, read-only): rolled
        # back; the player reads one sentence, the host's log the reason
        log.warning("game %s: a change could not be saved: %s", game_id or "-", original)
        full = StorageFullError(game_id, original.reason)
        await bot.tell(interaction, bot.face.refusal(full, messages))
        return
    if isinstance(original, StoreDamagedError):
        # a damaged page of the file: this game (or this part of the table) cannot be
        # read; every other game plays on. One line for the host, one sentence here
        log.error("game %s: its saved record cannot be read: %s", game_id or "-", original)
        if game_id is None:
            await bot.tell(interaction, messages.gettext(GENERIC_ERROR))
        else:
            # the sentence alone: what SQLite said is for the host's log
            damaged = CorruptGameError(game_id, original.detail)
            await bot.tell(interaction, messages.gettext(damaged.template, **damaged.params))
        return
    log.error(
        "game %s: unexpected error in %s",
        game_id if game_id is not None else "-",
        f"/{command.qualified_name}" if command else "a button",
        exc_info=original,
    )
    # say "nothing was changed" only when it is true
    stored = False
    with suppress(Exception):
        stored = await bot.service.handled(interaction.id)
    await bot.tell(interaction, messages.gettext(STORED_ERROR if stored else GENERIC_ERROR))
