"""What the scheduler's reminders and the table's vote put in front of the players: the
Mute button under a reminder, and the vote about an absent player (skip this turn, or
autopilot from now on) with its ballots.

The scheduler (`bot.scheduler`) sends the reminders and, once a player has missed
enough of them, opens the vote; it closes the vote at its deadline. The vote's message
is an owed message like any other: the courier sends it (and edits it as ballots
come in) with `vote_message`, which the scheduler's cog registers, together with these
buttons, when it is loaded. So the scheduler owns what it starts and imports no feature.

A custom_id already posted keeps working: `mk:mute:<game>:<turn>:` and
`mk:vskip|vauto:<game>:<vote>:<seat>` (see `bot.buttons`).
"""

from __future__ import annotations

import re
from typing import Self

import discord

from bot.buttons import GameButton, template, view_of
from bot.client import MountainBot, game_language, reader
from bot.courier import Outgoing
from bot.i18n.catalogue import N_
from bot.service import GameInfo, Owed, ServiceError
from bot.service.owed import VoteNews
from bot.store import VoteChoice
from bot.texts import vote_text

# the custom_id word of each choice
VOTE_KINDS: dict[VoteChoice, str] = {"skip": "vskip", "autopilot": "vauto"}
VOTE_CHOICES: dict[str, VoteChoice] = {kind: choice for choice, kind in VOTE_KINDS.items()}
VOTE_LABELS: dict[VoteChoice, str] = {"skip": N_("Skip this turn"), "autopilot": N_("Autopilot")}
MUTE = N_("Mute this turn")
VOTE_OVER = N_("This vote is over.")


class MuteButton(GameButton, template=template("mute")):
    """No more reminders for the presser until the turn changes. Its version is the
    turn the reminder was about: a reminder of an earlier turn mutes nothing."""

    def __init__(self, game_id: int, turn: int, *, label: str = MUTE) -> None:
        super().__init__("mute", game_id, turn, label=label)

    @classmethod
    def rebuild(cls, match: re.Match[str], label: str | None) -> Self:
        return cls(int(match["game"]), int(match["seq"]), label=label or MUTE)

    async def press(self, interaction: discord.Interaction[MountainBot]) -> None:
        bot = interaction.client
        # a reminder drawn before turns carried a version (0) mutes the current turn
        turn = self.seq or None
        await bot.service.notifications.mute_turn(self.game_id, interaction.user.id, turn=turn)
        await bot.tell(
            interaction, reader(interaction).gettext("No more reminders for you this turn.")
        )


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
    def rebuild(cls, match: re.Match[str], label: str | None) -> Self:
        choice = VOTE_CHOICES[match["kind"]]
        label = label or VOTE_LABELS[choice]
        return cls(int(match["game"]), int(match["seq"]), int(match["seat"]), choice, label=label)

    async def press(self, interaction: discord.Interaction[MountainBot]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = interaction.client
        vote = await bot.service.store.vote(self.vote_id)
        if vote is None or vote.game_id != self.game_id or vote.seat != self.seat:
            raise ServiceError(VOTE_OVER)
        decided = await bot.service.votes.cast(
            self.vote_id, interaction.user.id, self.choice, admin=bot.is_admin(interaction)
        )
        await bot.delivered(self.game_id)
        m = reader(interaction)
        choice = m.gettext(VOTE_LABELS[self.choice])
        text = m.gettext("Your vote counts: {choice}.", choice=choice[:1].lower() + choice[1:])
        if decided.status != "open":
            text += " " + m.gettext("The table has decided.")
        await bot.tell(interaction, text)


async def vote_message(bot: MountainBot, owed: Owed, info: GameInfo) -> Outgoing | None:
    """The vote as its ballots stand: posted once, then edited in place; its buttons go
    once it is decided (the courier's maker of owed votes)."""
    news = owed.payload
    assert isinstance(news, VoteNews)
    votes = bot.service.votes
    tally = await votes.tally(news.vote_id)
    vote = tally.vote
    names = {}
    guild = bot.get_guild(info.guild_id) if info.guild_id else None
    for ballot in tally.ballots:
        member = guild.get_member(ballot.voter_id) if guild else None
        if member is not None:
            names[ballot.voter_id] = member.display_name
    view = None
    posts = game_language(info)
    if vote.status == "open":
        view = view_of(
            *(
                VoteButton(info.id, vote.id, vote.seat, c, label=posts.gettext(VOTE_LABELS[c]))
                for c in VOTE_KINDS
            )
        )

    async def posted(message: discord.Message) -> None:
        if vote.message_id is None:
            await votes.message_posted(vote.id, message.channel.id, message.id)

    edit = None
    if vote.channel_id is not None and vote.message_id is not None:
        edit = (vote.channel_id, vote.message_id)
    return Outgoing(vote_text(tally, names, posts), view=view, edit=edit, on_sent=posted)
