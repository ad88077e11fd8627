"""Running the table: `/mk admin` (autopilot, substitute, kick, abandon), `/mk notify`
(how you want reminders), the Mute button on a reminder, and the table's vote about
an absent player (skip this turn, or autopilot from now on)."""

from __future__ import annotations

import re
from typing import Literal, Self

import discord
from discord import app_commands

from bot.buttons import GameButton, PressedItem, label_of, template, view_of
from bot.client import MountainBot
from bot.features.base import Feature
from bot.service import ServiceError
from bot.store import NotificationPrefs
from bot.texts import NO_MENTIONS, decided_text, read_votes, vote_text, votes_text

Choice = Literal["skip", "autopilot"]
# the custom_id word of each choice (buttons already posted use them)
VOTE_KINDS: dict[Choice, str] = {"skip": "vskip", "autopilot": "vauto"}
VOTE_CHOICES: dict[str, Choice] = {kind: choice for choice, kind in VOTE_KINDS.items()}
DECIDED: dict[Choice, str] = {"skip": "skip this turn", "autopilot": "autopilot"}


class VoteButton(GameButton, template=template("(?P<kind>vskip|vauto)", r"(?P<seat>\d+)")):
    """One vote about an absent seat. The votes are kept in the vote message itself,
    so they survive restarts; a majority of the other players (or the creator, or a
    server admin, alone) decides."""

    def __init__(self, game_id: int, seq: int, seat: int, choice: Choice, *, label: str) -> None:
        kind = VOTE_KINDS[choice]
        super().__init__(kind, game_id, seq, str(seat), label=label)
        self.seat = seat
        self.choice = choice

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[discord.Client],
        item: PressedItem,
        match: re.Match[str],
        /,
    ) -> Self:
        choice = VOTE_CHOICES[match["kind"]]
        label = label_of(item, DECIDED[choice])
        return cls(int(match["game"]), int(match["seq"]), int(match["seat"]), choice, label=label)

    async def press(self, interaction: discord.Interaction[MountainBot]) -> None:
        await interaction.response.defer()
        bot = interaction.client
        service = bot.service
        info = await service.info(self.game_id)
        loaded = await service.load(self.game_id)
        if loaded.seq != self.seq:
            raise ServiceError("The game moved on: this vote is over.")
        voter = interaction.user.id
        voter_seat = info.seat_of(voter)
        decisive = voter == info.creator_id or bot.is_admin(interaction)
        if not decisive and (voter_seat is None or voter_seat.seat == self.seat):
            raise ServiceError("Only the other players at this table can vote.")
        message = interaction.message
        assert message is not None
        head, votes = read_votes(message.content)
        kind = VOTE_KINDS[self.choice]
        votes[str(voter)] = kind
        others = [s for s in info.seats if s.seat != self.seat and s.controller_id is not None]
        same = sum(1 for k in votes.values() if k == kind)
        if not decisive and same * 2 <= len(others):
            await interaction.edit_original_response(content=votes_text(head, votes))
            return
        await interaction.edit_original_response(
            content=decided_text(head, DECIDED[self.choice]), view=None
        )
        if self.choice == "skip":
            await bot.flow.skip_turn(self.game_id, self.seat)
        else:
            await service.set_autopilot(self.game_id, info.creator_id, self.seat, True, admin=True)
            await bot.flow.run_autopilots(self.game_id)


class MuteButton(GameButton, template=template("mute")):
    """No more reminders for the presser until the turn changes."""

    def __init__(self, game_id: int, *, label: str = "Mute this turn") -> None:
        super().__init__("mute", game_id, label=label)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[discord.Client],
        item: PressedItem,
        match: re.Match[str],
        /,
    ) -> Self:
        return cls(int(match["game"]), label=label_of(item, "Mute this turn"))

    async def press(self, interaction: discord.Interaction[MountainBot]) -> None:
        bot = interaction.client
        await bot.service.notifications.mute_turn(self.game_id, interaction.user.id)
        await bot.tell(interaction, "No more reminders for you this turn.")


async def call_vote(bot: MountainBot, game_id: int, seat: int, label: str) -> None:
    """Ask the table what to do about a seat that missed several reminders."""
    info = await bot.service.info(game_id)
    channel = await bot.thread_of(info)
    if channel is None:
        return
    seq = (await bot.service.load(game_id)).seq
    view = view_of(
        VoteButton(game_id, seq, seat, "skip", label="Skip this turn"),
        VoteButton(game_id, seq, seat, "autopilot", label=f"Autopilot for {label}"),
    )
    await channel.send(vote_text(label), view=view, allowed_mentions=NO_MENTIONS)


class AdminCommands(Feature):
    """Reminder settings and the game admin's tools."""

    buttons = (VoteButton, MuteButton)

    @app_commands.command(name="notify", description="How you want reminders")
    @app_commands.describe(
        dm="Send reminders as direct messages (falls back to the thread if DMs are closed)",
        quiet_from="Quiet hours start (hour 0-23, your time zone)",
        quiet_to="Quiet hours end (hour 0-23)",
        timezone="Your time zone, e.g. Europe/Warsaw",
    )
    async def notify(
        self,
        interaction: discord.Interaction[MountainBot],
        dm: bool,
        quiet_from: app_commands.Range[int, 0, 23] | None = None,
        quiet_to: app_commands.Range[int, 0, 23] | None = None,
        timezone: str = "UTC",
    ) -> None:
        prefs = NotificationPrefs(
            interaction.user.id,
            dm_opt_in=dm,
            quiet_start=None if quiet_from is None else quiet_from * 60,
            quiet_end=None if quiet_to is None else quiet_to * 60,
            timezone=timezone,
        )
        await self.bot.service.notifications.set_prefs(prefs)
        await interaction.response.send_message("Reminder settings saved.", ephemeral=True)

    @app_commands.command(
        name="admin", description="Game admin: autopilot, substitute, kick, abandon"
    )
    @app_commands.describe(
        what="What to do", player="The player concerned", substitute="Who takes the seat"
    )
    async def admin(
        self,
        interaction: discord.Interaction[MountainBot],
        what: Literal["autopilot-on", "autopilot-off", "substitute", "kick", "abandon"],
        player: discord.Member | None = None,
        substitute: discord.Member | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = self.bot
        service = bot.service
        game = await bot.game(interaction)
        admin = bot.is_admin(interaction)
        me = interaction.user.id
        if what == "abandon":
            await service.abandon(game.id, me, admin=admin)
            await interaction.followup.send("The game is abandoned.", ephemeral=True)
            return
        if player is None:
            raise ServiceError("Name the player concerned.")
        seat = game.seat_of(player.id)
        if seat is None:
            raise ServiceError("That player has no seat in this game.")
        if what in ("autopilot-on", "autopilot-off"):
            on = what == "autopilot-on"
            await service.set_autopilot(game.id, me, seat.seat, on, admin=admin)
            await interaction.followup.send(
                f"Autopilot is {'on' if on else 'off'} for {seat.label}.", ephemeral=True
            )
            await bot.flow.run_autopilots(game.id)
        elif what == "substitute":
            new = substitute.id if substitute else None
            await service.substitute(game.id, me, seat.seat, new, admin=admin)
            await interaction.followup.send(
                f"{seat.label} is now played by <@{new}>."
                if new
                else f"{seat.label} is back with its player.",
                ephemeral=True,
            )
        else:
            await service.kick(game.id, me, player.id, admin=admin)
            await interaction.followup.send(f"{player.display_name} was removed.", ephemeral=True)
