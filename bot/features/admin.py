"""Running the table: `/mk admin` (autopilot, substitute, kick, abandon), `/mk notify`
(how you want reminders), the Mute button on a reminder, and the table's vote about
an absent player (skip this turn, or autopilot from now on)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Literal, Self

import discord
from discord import app_commands

from bot.buttons import GameButton, PressedItem, label_of, template, view_of
from bot.choices import SeatColour
from bot.client import MountainBot
from bot.courier import Maker, Outgoing
from bot.features.base import Feature
from bot.service import GameInfo, Owed, SeatInfo, ServiceError
from bot.service.owed import SeatNews, VoteNews
from bot.store import OwedKind, VoteChoice
from bot.texts import NO_MENTIONS, notify_text, seat_text, vote_text

# the custom_id word of each choice
VOTE_KINDS: dict[VoteChoice, str] = {"skip": "vskip", "autopilot": "vauto"}
VOTE_CHOICES: dict[str, VoteChoice] = {kind: choice for choice, kind in VOTE_KINDS.items()}
VOTE_LABELS: dict[VoteChoice, str] = {"skip": "Skip this turn", "autopilot": "Autopilot"}


class VoteButton(GameButton, template=template("(?P<kind>vskip|vauto)", r"(?P<seat>\d+)")):
    """A ballot in the table's vote about an absent seat. Its version is the vote's id;
    the ballots are rows in the service, one per voter (a later click replaces it),
    and the vote message is edited in place with the names."""

    def __init__(
        self, game_id: int, vote_id: int, seat: int, choice: VoteChoice, *, label: str
    ) -> None:
        super().__init__(VOTE_KINDS[choice], game_id, vote_id, str(seat), label=label)
        self.vote_id = vote_id
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
        label = label_of(item, VOTE_LABELS[choice])
        return cls(int(match["game"]), int(match["seq"]), int(match["seat"]), choice, label=label)

    async def press(self, interaction: discord.Interaction[MountainBot]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = interaction.client
        vote = await bot.service.store.vote(self.vote_id)
        if vote is None or vote.game_id != self.game_id or vote.seat != self.seat:
            raise ServiceError("This vote is over.")
        decided = await bot.service.votes.cast(
            self.vote_id, interaction.user.id, self.choice, admin=bot.is_admin(interaction)
        )
        await bot.delivered(self.game_id)
        text = f"Your vote counts: {VOTE_LABELS[self.choice].lower()}."
        if decided.status != "open":
            text += " The table has decided."
        await bot.tell(interaction, text)


class MuteButton(GameButton, template=template("mute")):
    """No more reminders for the presser until the turn changes. Its version is the
    turn the reminder was about: a reminder of an earlier turn mutes nothing."""

    def __init__(self, game_id: int, turn: int, *, label: str = "Mute this turn") -> None:
        super().__init__("mute", game_id, turn, label=label)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[discord.Client],
        item: PressedItem,
        match: re.Match[str],
        /,
    ) -> Self:
        return cls(int(match["game"]), int(match["seq"]), label=label_of(item, "Mute this turn"))

    async def press(self, interaction: discord.Interaction[MountainBot]) -> None:
        bot = interaction.client
        # a reminder drawn before turns carried a version (0) mutes the current turn
        turn = self.seq or None
        await bot.service.notifications.mute_turn(self.game_id, interaction.user.id, turn=turn)
        await bot.tell(interaction, "No more reminders for you this turn.")


class AdminCommands(Feature):
    """Reminder settings and the game admin's tools."""

    buttons = (VoteButton, MuteButton)

    def makers(self) -> dict[OwedKind, Maker]:
        return {"seat": self.seat_news, "vote": self.vote_message}

    async def seat_news(self, owed: Owed, info: GameInfo) -> Outgoing | None:
        news = owed.payload
        assert isinstance(news, SeatNews)
        return Outgoing(seat_text(news))

    async def vote_message(self, owed: Owed, info: GameInfo) -> Outgoing | None:
        """The vote as its ballots stand: posted once, then edited in place; its
        buttons go once it is decided."""
        news = owed.payload
        assert isinstance(news, VoteNews)
        votes = self.bot.service.votes
        tally = await votes.tally(news.vote_id)
        vote = tally.vote
        names = {}
        guild = self.bot.get_guild(info.guild_id) if info.guild_id else None
        for ballot in tally.ballots:
            member = guild.get_member(ballot.voter_id) if guild else None
            if member is not None:
                names[ballot.voter_id] = member.display_name
        view = None
        if vote.status == "open":
            view = view_of(
                *(
                    VoteButton(info.id, vote.id, vote.seat, c, label=VOTE_LABELS[c])
                    for c in VOTE_KINDS
                )
            )

        async def posted(message: discord.Message) -> None:
            if vote.message_id is None:
                await votes.message_posted(vote.id, message.channel.id, message.id)

        edit = None
        if vote.channel_id is not None and vote.message_id is not None:
            edit = (vote.channel_id, vote.message_id)
        return Outgoing(vote_text(tally, names), view=view, edit=edit, on_sent=posted)

    @app_commands.command(
        name="notify", description="How you want reminders, and the daily digest of your moves"
    )
    @app_commands.describe(
        dm="Send reminders as direct messages (falls back to the thread if DMs are closed)",
        quiet_from="Quiet hours start (hour 0-23, your time zone; the same hour twice: none)",
        quiet_to="Quiet hours end (hour 0-23)",
        timezone="Your time zone, e.g. Europe/Warsaw",
        digest="A direct message each morning listing the games that await your move",
    )
    async def notify(
        self,
        interaction: discord.Interaction[MountainBot],
        dm: bool | None = None,
        quiet_from: app_commands.Range[int, 0, 23] | None = None,
        quiet_to: app_commands.Range[int, 0, 23] | None = None,
        timezone: str | None = None,
        digest: bool | None = None,
    ) -> None:
        """Change the settings given (the others stay as they are) and say what they
        are now; the digest is scheduled anew for the time zone and quiet hours."""
        service = self.bot.service
        current = await service.notifications.prefs(interaction.user.id)
        prefs = replace(
            current,
            dm_opt_in=current.dm_opt_in if dm is None else dm,
            quiet_start=current.quiet_start if quiet_from is None else quiet_from * 60,
            quiet_end=current.quiet_end if quiet_to is None else quiet_to * 60,
            timezone=current.timezone if timezone is None else timezone.strip(),
        )
        await service.notifications.set_prefs(prefs)
        due = await service.set_digest(interaction.user.id, digest)
        quiet = None
        if prefs.quiet_start is not None and prefs.quiet_end is not None:
            quiet = (prefs.quiet_start, prefs.quiet_end)
        text = notify_text(dm=prefs.dm_opt_in, quiet=quiet, timezone=prefs.timezone, digest_at=due)
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(
        name="admin", description="Game admin: autopilot, substitute, kick, abandon"
    )
    @app_commands.describe(
        what="What to do",
        player="The player concerned",
        seat="Or the seat concerned, by colour (a seat nobody holds after a kick)",
        substitute="Who takes the seat",
    )
    async def admin(
        self,
        interaction: discord.Interaction[MountainBot],
        what: Literal["autopilot-on", "autopilot-off", "substitute", "kick", "abandon"],
        player: discord.Member | None = None,
        seat: SeatColour | None = None,
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
        target = _seat_named(game, player, seat)
        if what in ("autopilot-on", "autopilot-off"):
            on = what == "autopilot-on"
            await service.set_autopilot(game.id, me, target.seat, on, admin=admin)
            text = f"Autopilot is {'on' if on else 'off'} for {target.label}."
        elif what == "substitute":
            new = substitute.id if substitute else None
            name = substitute.display_name if substitute else None
            await service.substitute(game.id, me, target.seat, new, admin=admin, name=name)
            text = (
                f"{target.label.capitalize()} is now played by {name}."
                if new
                else f"{target.label.capitalize()} is back with its player."
            )
        else:
            if target.controller_id is None:
                raise ServiceError("Nobody plays that seat: there is nobody to remove.")
            await service.kick(game.id, me, target.controller_id, admin=admin)
            text = f"{who_plays(target)} was removed; the AI plays {target.label} for now."
        await bot.delivered(game.id)
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_MENTIONS)


def _seat_named(game: GameInfo, player: discord.Member | None, colour: str | None) -> SeatInfo:
    """The seat an admin named: by its player, or by its colour."""
    if player is not None:
        seat = game.seat_of(player.id) or next(
            (s for s in game.seats if player.id in (s.user_id, s.substitute_id)), None
        )
        if seat is None:
            raise ServiceError("That player has no seat in this game.")
        return seat
    if colour is not None:
        seat = game.seat_labelled(colour)
        if seat is None:
            colours = ", ".join(s.label for s in game.seats)
            raise ServiceError(f"There is no {colour} seat in this game (seats: {colours}).")
        return seat
    raise ServiceError("Name the player concerned, or the seat by its colour.")


def who_plays(seat: SeatInfo) -> str:
    return seat.name or seat.label.capitalize()
