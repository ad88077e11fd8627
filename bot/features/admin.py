"""Running the table: `/mk admin` (autopilot, substitute, return, kick, abandon), the
Accept button of a seat offer, and `/mk notify` (how you want reminders). The Mute
button on a reminder and the table's vote about an absent player are the scheduler's
(`bot.reminders`)."""

from __future__ import annotations

import json
import re
from contextlib import suppress
from dataclasses import replace
from typing import Literal, Self

import discord
from discord import app_commands

from bot.buttons import GameButton, template, view_of
from bot.client import MountainBot, game_language, reader
from bot.community_texts import stats_shown_text
from bot.courier import Attachment, Maker, Outgoing
from bot.features.away import time_news
from bot.features.base import Feature
from bot.features.lobby import LANGUAGE_CHOICES
from bot.i18n.catalogue import N_, Messages
from bot.offers import SeatColour
from bot.service import GameInfo, Owed, SeatInfo, ServiceError
from bot.service.errors import echo
from bot.service.owed import TIDY_CHANGES, TIME_CHANGES, SeatNews
from bot.service.seats import SeatOffer
from bot.store import OwedKind
from bot.texts import (
    NO_MENTIONS,
    language_name,
    mention_only,
    notify_text,
    seat_text,
)
from bot.tidy_texts import (
    heads_up_setting_text,
    idle_days_text,
    idle_record_alt,
    tidy_news_text,
)
from bot.time_texts import policy_text, time_options_text
from bot.words import colour_name

ACCEPT = N_("Accept")


class AcceptSeatButton(
    GameButton, template=template("seatok", r"(?P<seat>\d+):(?P<user>\d+):(?P<by>\d+)")
):
    """Accept an offer of a seat: `by` offered `seat` to `user`. Its version is the
    fingerprint of who held the seat when it was offered (`seats.seat_token`): once the
    seat changes the offer is stale. Only the user who must agree can press it: the
    offered user, or (when the creator asked for the seat for themselves) whoever
    plays it."""

    def __init__(
        self,
        game_id: int,
        token: int,
        seat: int,
        user_id: int,
        by_user_id: int,
        *,
        label: str = ACCEPT,
    ) -> None:
        super().__init__(
            "seatok",
            game_id,
            token,
            f"{seat}:{user_id}:{by_user_id}",
            label=label,
            style=discord.ButtonStyle.success,
        )
        self.seat = seat
        self.user_id = user_id
        self.by_user_id = by_user_id

    @classmethod
    def rebuild(cls, match: re.Match[str], label: str | None) -> Self:
        return cls(
            int(match["game"]),
            int(match["seq"]),
            int(match["seat"]),
            int(match["user"]),
            int(match["by"]),
            label=label or ACCEPT,
        )

    async def press(self, interaction: discord.Interaction[MountainBot]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = interaction.client
        info = await bot.service.info(self.game_id)
        seat = next((s for s in info.seats if s.seat == self.seat), None)
        # an offer to someone else is theirs to accept; the creator asking for a seat
        # for themselves needs whoever plays it
        accepter = self.user_id
        if self.user_id == self.by_user_id and seat is not None:
            accepter = seat.controller_id or self.user_id
        if interaction.user.id != accepter:
            name = await member_name(interaction, accepter) or f"<@{accepter}>"
            raise ServiceError(N_("This offer is for {name}."), name=name)
        after = await bot.service.seating.accept_seat(
            self.game_id,
            interaction.user.id,
            self.seat,
            self.user_id,
            self.by_user_id,
            self.seq,
            name=(
                interaction.user.display_name
                if interaction.user.id == self.user_id
                else await member_name(interaction, self.user_id)
            ),
            by_name=await member_name(interaction, self.by_user_id),
        )
        await bot.delivered(self.game_id)
        # the offer is settled: its button goes
        if interaction.message is not None:
            with suppress(discord.HTTPException):
                await interaction.message.edit(view=None)
        taken = next(s for s in after.seats if s.seat == self.seat)
        m = reader(interaction)
        colour = colour_name(taken.label, m)
        if interaction.user.id == self.user_id:
            await bot.tell(interaction, m.gettext("You play {seat} now.", seat=colour))
        else:
            await bot.tell(interaction, m.gettext("You handed {seat} over.", seat=colour))


async def member_name(interaction: discord.Interaction[MountainBot], user_id: int) -> str | None:
    """A member's display name in this server (asked of Discord when the bot has not
    seen them: it keeps no member list), None if unknown."""
    guild = interaction.guild
    if guild is None:
        return None
    member = guild.get_member(user_id)
    if member is None:
        with suppress(discord.HTTPException):
            member = await guild.fetch_member(user_id)
    return member.display_name if member is not None else None


class AdminCommands(Feature):
    """Reminder settings and the game admin's tools."""

    buttons = (AcceptSeatButton,)

    def makers(self) -> dict[OwedKind, Maker]:
        return {"seat": self.seat_news}

    async def seat_news(self, owed: Owed, info: GameInfo) -> Outgoing | None:
        """A change of who plays a seat (no pings); an offer of a seat pings only the
        user who must accept it, with the Accept button."""
        news = owed.payload
        assert isinstance(news, SeatNews)
        if news.change in TIME_CHANGES:
            return await time_news(self.bot, owed, news, info)
        if news.change in TIDY_CHANGES:
            return await self.tidy_news(news, info)
        posts = game_language(info)
        if news.change != "offered":
            return Outgoing(seat_text(news, posts))
        if news.accepter_id is None or news.other_user_id is None or news.by_user_id is None:
            return None
        button = AcceptSeatButton(
            info.id,
            news.token,
            news.player.seat,
            news.other_user_id,
            news.by_user_id,
            label=posts.gettext(ACCEPT),
        )
        return Outgoing(
            seat_text(news, posts), view=view_of(button), mentions=mention_only(news.accepter_id)
        )

    async def tidy_news(self, news: SeatNews, info: GameInfo) -> Outgoing:
        """An idle game warned or ended (with its record), a lobby closed: no pings."""
        posts = game_language(info)
        files: list[Attachment] = []
        if news.change == "idle-ended":
            record = await self.bot.service.history.record(info.id)
            data = json.dumps(record, indent=1).encode()
            files.append(Attachment(f"game-{info.id}.json", data, idle_record_alt(posts)))
        return Outgoing(tidy_news_text(news, posts), files=files, mentions=NO_MENTIONS)

    async def idle_days(self, interaction: discord.Interaction[MountainBot], days: int) -> None:
        """`/mk admin what:settings idle_days:`: the server's idle days (Manage Server)."""
        if interaction.guild is None:
            raise ServiceError(N_("Idle days are a server's setting: set them in a server."))
        if not self.bot.is_admin(interaction):
            raise ServiceError(N_("Only a server admin (Manage Server) can set the idle days."))
        days = await self.bot.service.tidy.set_idle_days(interaction.guild.id, days)
        await interaction.followup.send(idle_days_text(days, reader(interaction)), ephemeral=True)

    @app_commands.command(
        name="notify", description="How you want reminders, and the daily digest of your moves"
    )
    @app_commands.describe(
        dm="Send reminders as direct messages (falls back to the thread if DMs are closed)",
        quiet_from="Quiet hours start (hour 0-23, your time zone; the same hour twice: none)",
        quiet_to="Quiet hours end (hour 0-23)",
        timezone="Your time zone, e.g. Europe/Warsaw",
        digest="A direct message each morning listing the games that await your move",
        stats="Show your stats and rating to others and on leaderboards (False hides them)",
        heads_up="A direct message when the player before you starts their turn",
    )
    async def notify(
        self,
        interaction: discord.Interaction[MountainBot],
        dm: bool | None = None,
        quiet_from: app_commands.Range[int, 0, 23] | None = None,
        quiet_to: app_commands.Range[int, 0, 23] | None = None,
        timezone: str | None = None,
        digest: bool | None = None,
        stats: bool | None = None,
        heads_up: bool | None = None,
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
        due = await service.your_games.set_digest(interaction.user.id, digest)
        if stats is not None:
            await service.community.set_hidden(interaction.user.id, not stats)
        hidden = await service.community.hidden(interaction.user.id)
        if heads_up is not None:
            await service.notifications.set_heads_up(interaction.user.id, heads_up)
        wanted = await service.notifications.heads_up(interaction.user.id)
        quiet = None
        if prefs.quiet_start is not None and prefs.quiet_end is not None:
            quiet = (prefs.quiet_start, prefs.quiet_end)
        text = notify_text(
            dm=prefs.dm_opt_in,
            quiet=quiet,
            timezone=prefs.timezone,
            digest_at=due,
            messages=reader(interaction),
        )
        text += "\n" + stats_shown_text(hidden, reader(interaction))
        text += "\n" + heads_up_setting_text(wanted, reader(interaction))
        await interaction.response.send_message(text, ephemeral=True)

    async def settings(
        self,
        interaction: discord.Interaction[MountainBot],
        language: str | None = None,
        away: Literal["wait", "ai"] | None = None,
    ) -> None:
        """`/mk admin what:settings`: show the game's settings; change its language or its
        away policy (its creator or a server admin). Each player's private answers stay
        in their own client's language. Shown, the server's idle days come too (alone
        outside a game's thread). (A subcommand of its own no more: /mk holds at most 25,
        Discord's limit.)"""
        bot = self.bot
        m = reader(interaction)
        here = await bot.game_here(interaction)
        days = None
        if language is None and away is None and interaction.guild_id is not None:
            days = idle_days_text(await bot.service.tidy.idle_days(interaction.guild_id), m)
            if here is None:
                await interaction.followup.send(days, ephemeral=True)
                return
        game = here or await bot.game(interaction)  # none here: refused
        if away is not None:
            admin = bot.is_admin(interaction)
            await bot.service.away.set_policy(game.id, interaction.user.id, away, admin=admin)
            await bot.delivered(game.id)  # the AI may owe a player's move now
        if language is None and away is not None:
            text = policy_text(away, m)
        elif language is None:
            text = m.gettext(
                "The game's posts are in {language}. Its creator (or a server admin) changes"
                " that with `/mk admin what:settings language:`.",
                language=language_name(game.language),
            )
            text += "\n" + time_options_text(game, m)
            if days is not None:
                text += "\n" + days
        else:
            game = await bot.service.set_language(
                game.id, interaction.user.id, language, admin=bot.is_admin(interaction)
            )
            text = m.gettext(
                "From now on the game's posts are in {language}. Private answers come in"
                " each player's own language.",
                language=language_name(game.language),
            )
            if away is not None:
                text = policy_text(away, m) + "\n" + text
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(
        name="admin",
        description=(
            "Game admin: settings, autopilot, substitute (they accept; an admin assigns),"
            " return, kick, abandon"
        ),
    )
    @app_commands.describe(
        what=(
            "settings: language, away policy; substitute: offer a seat, they accept; return:"
            " take it back"
        ),
        player="The player concerned",
        seat="Or the seat concerned, by colour (a seat nobody holds after a kick)",
        substitute="Who is offered the seat (substitute); yourself to ask for it",
        language="settings: the language of the game's public posts",
        away="settings: while a player is away (/mk away), the game waits or the AI plays",
        idle_days="settings: days without a move before a game is warned (Manage Server)",
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def admin(
        self,
        interaction: discord.Interaction[MountainBot],
        what: Literal[
            "settings", "autopilot-on", "autopilot-off", "substitute", "return", "kick", "abandon"
        ],
        player: discord.Member | None = None,
        seat: SeatColour | None = None,
        substitute: discord.Member | None = None,
        language: str | None = None,
        away: Literal["wait", "ai"] | None = None,
        idle_days: app_commands.Range[int, 7, 365] | None = None,
    ) -> None:
        """The game admin's tools. Seats belong to their players (`seats.SEAT_RULE`):
        `substitute` offers a seat, which the new player accepts with a button (a server
        admin assigns it at once), and a seat's own player can always `return` to it."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        if what == "settings" and idle_days is not None:
            await self.idle_days(interaction, idle_days)
            if language is None and away is None:
                return
        if what == "settings":
            await self.settings(interaction, language, away)
            return
        if idle_days is not None:
            raise ServiceError(N_("`idle_days` is a server setting: give it with what:settings."))
        if language is not None or away is not None:
            raise ServiceError(
                N_("`language` and `away` are the game's settings: give them with what:settings.")
            )
        bot = self.bot
        service = bot.service
        game = await bot.game(interaction)
        admin = bot.is_admin(interaction)
        me = interaction.user.id
        by_name = interaction.user.display_name
        m = reader(interaction)
        if what == "abandon":
            await service.abandon(game.id, me, admin=admin)
            await interaction.followup.send(m.gettext("The game is abandoned."), ephemeral=True)
            return
        if what == "return" and player is None and seat is None:
            target = _own_seat(game, me)
        else:
            target = _seat_named(game, player, seat)
        if what in ("autopilot-on", "autopilot-off"):
            on = what == "autopilot-on"
            await service.seating.set_autopilot(
                game.id, me, target.seat, on, admin=admin, by_name=by_name
            )
            seat_colour = colour_name(target.label, m)
            text = (
                m.gettext("Autopilot is on for {seat}.", seat=seat_colour)
                if on
                else m.gettext("Autopilot is off for {seat}.", seat=seat_colour)
            )
        elif what in ("substitute", "return"):
            new = substitute.id if substitute is not None and what == "substitute" else None
            user = new if new is not None else target.user_id
            if substitute is not None and new is not None:
                name: str | None = substitute.display_name
            else:
                name = await member_name(interaction, user) if user is not None else None
            offer = await service.seating.offer_seat(
                game.id, me, target.seat, new, admin=admin, name=name, by_name=by_name
            )
            seat_colour = colour_name(target.label, m)
            if offer.accepter_id is None or offer.accepter_id == offer.user_id:
                text = _offer_text(offer, target, name, seat_colour, m)
            else:
                holder = await member_name(interaction, offer.accepter_id)
                text = (
                    m.gettext(
                        "You asked for {seat} in the thread: it is yours once {holder}, who"
                        " plays it, agrees.",
                        seat=seat_colour,
                        holder=holder,
                    )
                    if holder
                    else m.gettext(
                        "You asked for {seat} in the thread: it is yours once whoever plays it"
                        " agrees.",
                        seat=seat_colour,
                    )
                )
        else:
            if target.controller_id is None:
                raise ServiceError(N_("Nobody plays that seat: there is nobody to remove."))
            await service.seating.kick(
                game.id, me, target.controller_id, admin=admin, by_name=by_name
            )
            text = m.gettext(
                "{player} was removed; the AI plays {seat} for now.",
                player=target.name or colour_name(target.label, m),
                seat=colour_name(target.label, m),
            )
        await bot.delivered(game.id)
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_MENTIONS)


def _own_seat(game: GameInfo, user_id: int) -> SeatInfo:
    """The seat that is this user's own (a substitute may be playing it)."""
    seat = next((s for s in game.seats if s.user_id == user_id), None)
    if seat is None:
        raise ServiceError(N_("You have no seat of your own in this game to take back."))
    return seat


def _seat_named(game: GameInfo, player: discord.Member | None, colour: str | None) -> SeatInfo:
    """The seat an admin named: by its player, or by its colour."""
    if player is not None:
        seat = game.seat_of(player.id) or next(
            (s for s in game.seats if player.id in (s.user_id, s.substitute_id)), None
        )
        if seat is None:
            raise ServiceError(N_("That player has no seat in this game."))
        return seat
    if colour is not None:
        seat = game.seat_labelled(colour)
        if seat is None:
            colours = ", ".join(s.label for s in game.seats)
            raise ServiceError(
                N_("There is no {colour} seat in this game (seats: {colours})."),
                colour=echo(colour),
                colours=colours,
            )
        return seat
    raise ServiceError(N_("Name the player concerned, or the seat by its colour."))


def _offer_text(
    offer: SeatOffer, target: SeatInfo, name: str | None, seat: str, m: Messages
) -> str:
    """What `/mk admin substitute` or `return` did: the seat changed hands at once, or
    the offer waits for its new player (the holder's consent is told by the caller)."""
    if offer.accepter_id is None:
        if offer.user_id == target.user_id:
            return m.gettext("{seat} is back with its own player.", seat=seat)
        if name:
            return m.gettext("{seat} is now played by {player}.", seat=seat, player=name)
        return m.gettext("{seat} is now played by its new player.", seat=seat)
    if name:
        return m.gettext(
            "The offer of {seat} is posted in the thread: it changes hands once {player} accepts.",
            seat=seat,
            player=name,
        )
    return m.gettext(
        "The offer of {seat} is posted in the thread: it changes hands once they accept.",
        seat=seat,
    )
