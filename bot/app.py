"""The Discord bot: a `commands.Bot` over the game service.

One tree-level error handler turns expected errors (a refused move, a stale button,
not your turn) into an ephemeral sentence; anything else is logged with the game id and
the player is told nothing was changed. No game state lives in a View: buttons carry
the game id and version in their custom_id and the database holds everything.
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import suppress
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.buttons import GameButton, button, view_of
from bot.flow import NO_MENTIONS, GameFlow, is_ai, mention_only
from bot.service import GameInfo, GameService, ServiceError
from bot.settings import Settings
from rules.errors import RulesError

log = logging.getLogger("bot")

GENERIC_ERROR = "Something went wrong on our side; nothing was changed. Please try again."


class MountainBot(commands.Bot):
    def __init__(
        self,
        service: GameService[Any, Any],
        settings: Settings,
        *,
        autopilot_delay: float = 2.0,
        reminder_poll: float = 60.0,
        **options: Any,
    ) -> None:
        intents = discord.Intents.default()
        super().__init__(
            command_prefix=commands.when_mentioned, intents=intents, help_command=None, **options
        )
        self.service = service
        self.settings = settings
        self.autopilot_delay = autopilot_delay
        self.reminder_poll = reminder_poll
        self.flow = GameFlow(self)
        self._reminders: asyncio.Task[None] | None = None

    async def setup_hook(self) -> None:
        from bot.commands import MountainCommands

        self.add_dynamic_items(GameButton)
        self.tree.add_command(MountainCommands(self))
        self.tree.on_error = self.on_tree_error  # type: ignore[method-assign]
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        if self.reminder_poll > 0:
            self._reminders = asyncio.create_task(self.reminder_loop(), name="mk-reminders")

    async def close(self) -> None:
        if self._reminders is not None:
            self._reminders.cancel()
            with suppress(asyncio.CancelledError):
                await self._reminders
        await super().close()

    # --- errors ----------------------------------------------------------------------

    async def on_tree_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, RulesError | ServiceError):
            await self.tell(interaction, str(original))
            return
        if isinstance(error, app_commands.CheckFailure):
            await self.tell(interaction, str(error) or "You may not use this command here.")
            return
        game = await self.game_here(interaction)
        log.error(
            "game %s: unexpected error in /%s",
            game.id if game else "-",
            interaction.command.qualified_name if interaction.command else "?",
            exc_info=original,
        )
        await self.tell(interaction, GENERIC_ERROR)

    async def tell(self, interaction: discord.Interaction[Any], text: str, **kwargs: Any) -> None:
        """An ephemeral answer, whether or not the interaction was deferred."""
        text = text[:1900]
        if interaction.response.is_done():
            await interaction.followup.send(
                text, ephemeral=True, allowed_mentions=NO_MENTIONS, **kwargs
            )
        else:
            await interaction.response.send_message(
                text, ephemeral=True, allowed_mentions=NO_MENTIONS, **kwargs
            )

    async def game_here(self, interaction: discord.Interaction[Any]) -> GameInfo | None:
        channel_id = interaction.channel_id
        if channel_id is None:
            return None
        with suppress(ServiceError):
            return await self.service.game_in_thread(channel_id)
        return None

    # --- buttons ---------------------------------------------------------------------

    async def on_button(self, interaction: discord.Interaction[Any], item: GameButton) -> None:
        try:
            await self._button(interaction, item)
        except (RulesError, ServiceError) as exc:
            await self.tell(interaction, str(exc))
        except Exception:
            log.exception("game %s: unexpected error on button %s", item.game_id, item.kind)
            await self.tell(interaction, GENERIC_ERROR)

    async def _button(self, interaction: discord.Interaction[Any], item: GameButton) -> None:
        user = interaction.user.id
        game_id = item.game_id
        if item.kind in ("join", "leave", "start", "addai"):
            await interaction.response.defer()
            if item.kind == "join":
                info = await self.service.join(game_id, user)
            elif item.kind == "leave":
                info = await self.service.leave(game_id, user)
            elif item.kind == "addai":
                info = await self.service.info(game_id)
                if user != info.creator_id and not self.is_admin(interaction):
                    raise ServiceError("Only the game's creator can add AI players.")
                ai_seats = sum(1 for s in info.seats if is_ai(s.user_id))
                info = await self.service.join(game_id, -(ai_seats + 1))
            else:
                info = await self.service.start(game_id, user, admin=self.is_admin(interaction))
                for seat in info.seats:
                    if is_ai(seat.user_id):
                        await self.service.set_autopilot(
                            game_id, info.creator_id, seat.seat, True, admin=True
                        )
                info = await self.service.info(game_id)
            await interaction.edit_original_response(**lobby_message(info))
            if item.kind == "start":
                await self.announce_start(info)
            return
        if item.kind == "keep":
            await interaction.response.defer(ephemeral=True, thinking=False)
            info = await self.service.info(game_id)
            card, _, slot = item.arg.partition(":")
            await self.flow.act(info, user, f"keep {card} {slot}", interaction_id=interaction.id)
            from bot.commands import draft_message

            content, view, file = await draft_message(self, info, user)
            await interaction.edit_original_response(
                content=content, view=view, attachments=[file] if file else []
            )
            return
        if item.kind == "do":
            await interaction.response.defer(ephemeral=True, thinking=False)
            info = await self.service.info(game_id)
            await self.flow.act(
                info, user, item.arg, interaction_id=interaction.id, expected_seq=item.seq
            )
            await interaction.edit_original_response(
                content=f"Done: `{item.arg}`.", view=None, attachments=[]
            )
            return
        if item.kind == "cancel":
            await interaction.response.edit_message(
                content="Cancelled: nothing was changed.", view=None, attachments=[]
            )
            return
        if item.kind in ("vskip", "vauto"):
            await interaction.response.defer()
            await self.vote(interaction, item)
            return
        if item.kind == "mute":
            await self.service.notifications.mute_turn(game_id, user)
            await self.tell(interaction, "No more reminders for you this turn.")
            return
        await self.tell(interaction, "That button is not used any more.")

    def is_admin(self, interaction: discord.Interaction[Any]) -> bool:
        perms = getattr(interaction.user, "guild_permissions", None)
        return bool(perms and perms.manage_guild)

    async def announce_start(self, info: GameInfo) -> None:
        channel = await self.flow.thread_of(info)
        if channel is None:
            return
        users = [
            s.controller_id
            for s in info.seats
            if s.controller_id is not None and not is_ai(s.controller_id)
        ]
        mentions = " ".join(f"<@{u}>" for u in users)
        await channel.send(
            f"{mentions} the game has begun! Everyone chooses starting trolls at once: use"
            " `/mk draft`. Then gates are placed in turn order with `/mk gate`.",
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(u) for u in users]
            ),
        )
        await self.flow.run_autopilots(info.id)

    # --- reminders -------------------------------------------------------------------

    async def reminder_loop(self) -> None:
        await self.wait_until_ready()
        while not self.is_closed():
            try:
                await self.send_reminders()
            except Exception:
                log.exception("reminder round failed")
            await asyncio.sleep(self.reminder_poll)

    async def send_reminders(self) -> int:
        """Send every reminder that is due (DM if the player opted in and DMs are open,
        else in the game's thread) and report each back to the service."""
        sent = 0
        for due in await self.service.notifications.due_reminders():
            if due.user_id is None or is_ai(due.user_id):
                continue
            when = discord.utils.format_dt(due.since, "R")
            text = (
                f"<@{due.user_id}>, the Mountain King's game #{due.game_id} is waiting for you"
                f" ({due.label}) since {when}."
            )
            mute = view_of(button("Mute this turn", "mute", due.game_id))
            delivered = False
            if due.dm_opt_in:
                user = self.get_user(due.user_id) or await self.fetch_user(due.user_id)
                with suppress(discord.HTTPException):
                    await user.send(text, view=mute)
                    delivered = True
            if not delivered:
                info = await self.service.info(due.game_id)
                channel = await self.flow.thread_of(info)
                if channel is not None:
                    await channel.send(text, view=mute, allowed_mentions=mention_only(due.user_id))
                    delivered = True
            if delivered:
                await self.service.notifications.reminder_sent(due.game_id, due.seat)
                sent += 1
            if due.missed + 1 >= self.settings.inactivity_reminders:
                await self.call_vote(due.game_id, due.seat, due.label)
        return sent

    # --- the table decides about an absent player -----------------------------------

    async def call_vote(self, game_id: int, seat: int, label: str) -> None:
        info = await self.service.info(game_id)
        channel = await self.flow.thread_of(info)
        if channel is None:
            return
        seq = (await self.service.load(game_id)).seq
        items = [
            button("Skip this turn", "vskip", game_id, seq, str(seat)),
            button(f"Autopilot for {label}", "vauto", game_id, seq, str(seat)),
        ]
        await channel.send(
            f"{label.capitalize()} has missed several reminders. The table may vote: skip"
            " this turn (the autopilot plays it), or let the autopilot play the seat from now"
            " on. The game's creator or a server admin decides alone; a substitute can be"
            " seated with `/mk admin substitute`.\nVotes: none yet",
            view=view_of(*items),
            allowed_mentions=NO_MENTIONS,
        )

    async def vote(self, interaction: discord.Interaction[Any], item: GameButton) -> None:
        """Record a vote in the vote message itself (so it survives restarts) and act
        once a majority of the other players (or the creator, or an admin) agree."""
        info = await self.service.info(item.game_id)
        seat = int(item.arg)
        loaded = await self.service.load(item.game_id)
        if loaded.seq != item.seq:
            raise ServiceError("The game moved on: this vote is over.")
        voter = interaction.user.id
        voter_seat = info.seat_of(voter)
        decisive = voter == info.creator_id or self.is_admin(interaction)
        if not decisive and (voter_seat is None or voter_seat.seat == seat):
            raise ServiceError("Only the other players at this table can vote.")
        message = interaction.message
        assert message is not None
        head, _, votes_line = message.content.rpartition("\nVotes: ")
        votes = {} if votes_line == "none yet" else dict(v.split("=") for v in votes_line.split())
        votes[str(voter)] = item.kind
        others = [s for s in info.seats if s.seat != seat and s.controller_id is not None]
        same = sum(1 for k in votes.values() if k == item.kind)
        text = " ".join(f"{u}={k}" for u, k in sorted(votes.items()))
        if decisive or same * 2 > len(others):
            await interaction.edit_original_response(
                content=head
                + f"\nDecided: {'skip this turn' if item.kind == 'vskip' else 'autopilot'}.",
                view=None,
            )
            if item.kind == "vskip":
                await self.flow.skip_turn(item.game_id, seat)
            else:
                await self.service.set_autopilot(
                    item.game_id, info.creator_id, seat, True, admin=True
                )
                await self.flow.run_autopilots(item.game_id)
            return
        await interaction.edit_original_response(content=head + "\nVotes: " + text)


def lobby_message(info: GameInfo) -> dict[str, Any]:
    """The lobby: options, seats taken, and Join / Leave / Start buttons."""
    config = info.config
    lines = [
        f"**In the Hall of the Mountain King** · game #{info.id}",
        f"{config['players']} players"
        + (" in two teams" if config.get("teams") else "")
        + f" · board side: {config.get('side') or 'by player count'}"
        + f" · workshops: {config.get('workshops', 'random')}",
    ]
    seated = [s for s in info.seats if s.user_id is not None]
    names = [
        f"<@{s.user_id}>" if not is_ai(s.user_id) else f"AI player {n + 1}"
        for n, s in enumerate(seated)
    ]
    lines.append("Seats: " + (", ".join(names) or "none yet"))
    if info.status == "open":
        lines.append(
            f"{len(seated)}/{info.seats_needed} joined. The creator presses Start when all are in."
        )
        items = [
            button("Join", "join", info.id, style=discord.ButtonStyle.primary),
            button("Leave", "leave", info.id),
            button("Add AI player", "addai", info.id),
            button("Start", "start", info.id, style=discord.ButtonStyle.success),
        ]
        return {
            "content": "\n".join(lines),
            "view": view_of(*items),
            "allowed_mentions": NO_MENTIONS,
        }
    lines.append(f"Status: {info.status}.")
    return {"content": "\n".join(lines), "view": None, "allowed_mentions": NO_MENTIONS}
