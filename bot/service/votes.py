"""The table's vote about an absent player: skip this turn (the AI plays it once) or
hand the seat to the autopilot. Votes are rows, one ballot per voter.

The rule (`decide`): the game's creator or a server admin decides alone; otherwise a
choice wins as soon as more than half of the other players chose it. At the deadline
the choice with most ballots wins (a tie skips the turn, the milder choice), and a vote
nobody answered expires. If the absent player acts first, the vote is void.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from bot.i18n.catalogue import N_
from bot.service.duties import Duties, duty
from bot.service.errors import GameNotFoundError, NotAllowedError, ServiceError
from bot.service.owed import Player, VoteNews
from bot.service.table import player, stored
from bot.store import (
    BallotRecord,
    ReminderRecord,
    SeatRecord,
    Store,
    VoteChoice,
    VoteRecord,
    VoteStatus,
)


@dataclass(frozen=True, slots=True)
class Ballot:
    voter_id: int
    name: str | None
    choice: VoteChoice


@dataclass(frozen=True, slots=True)
class VoteTally:
    """A vote as its message shows it: about whom, the ballots with the voters' names
    (None where the voter holds no seat), and how it ended."""

    vote: VoteRecord
    player: Player
    ballots: tuple[Ballot, ...]
    voters: int


def decide(ballots: Sequence[BallotRecord], voters: Collection[int]) -> VoteChoice | None:
    """The choice more than half of the `voters` made, if any.

    >>> from datetime import UTC, datetime
    >>> now = datetime(2026, 1, 1, tzinfo=UTC)
    >>> decide([BallotRecord(1, 10, "skip", now)], {10, 11, 12})
    >>> decide([BallotRecord(1, 10, "skip", now), BallotRecord(1, 11, "skip", now)], {10, 11, 12})
    'skip'
    """
    counts = Counter(b.choice for b in ballots if b.voter_id in voters)
    for choice, n in counts.most_common():
        if 2 * n > len(voters):
            return choice
    return None


def decide_at_deadline(ballots: Sequence[BallotRecord], voters: Collection[int]) -> VoteStatus:
    """Most ballots win; a tie skips the turn; no ballot at all: the vote expires."""
    counts = Counter(b.choice for b in ballots if b.voter_id in voters)
    if not counts:
        return "expired"
    best = max(counts.values())
    return "skip" if counts["skip"] == best else "autopilot"


class Votes:
    """`service.votes`: open, cast, decide and read votes."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], datetime],
        duties: Duties,
        *,
        after_reminders: int,
    ) -> None:
        self.store = store
        self._clock = clock
        self.duties = duties
        self.after_reminders = after_reminders

    async def open_if_due(self, reminder: ReminderRecord) -> VoteRecord | None:
        """After enough missed reminders, open the table's vote about this turn (once:
        never a second vote about the same turn, never two at once in a game)."""
        if reminder.missed < self.after_reminders:
            return None
        game = await self.store.game(reminder.game_id)
        if game is None or game.status != "active":
            return None
        now = self._clock()
        return await self.store.open_vote(
            game.id,
            reminder.seat,
            turn_since=reminder.waiting_since,
            at=now,
            deadline=now + timedelta(seconds=game.reminder_seconds),
            owed=lambda vote_id: [stored(VoteNews(vote_id=vote_id))],
        )

    async def cast(
        self, vote_id: int, voter_id: int, choice: VoteChoice, *, admin: bool = False
    ) -> VoteRecord:
        """Record a ballot and decide the vote if the rule says so; returns the vote as
        it stands. Raises a `ServiceError` with a sentence if the ballot is refused."""
        vote = await self._open(vote_id)
        game = await self.store.game(vote.game_id)
        if game is None:
            raise GameNotFoundError(vote.game_id)
        seats = await self.store.seats(vote.game_id)
        voters = _voters(seats, vote.seat)
        decisive = admin or voter_id == game.creator_id
        if not decisive and voter_id not in voters:
            raise NotAllowedError(N_("Only the other players at this table can vote."))
        ballot = BallotRecord(vote_id, voter_id, choice, self._clock())
        ballots = await self.store.cast_ballot(ballot, owed=[stored(VoteNews(vote_id=vote_id))])
        if ballots is None:
            raise ServiceError(N_("This vote is over."))
        decision = choice if decisive else decide(ballots, voters)
        if decision is not None:
            await self._close(vote, decision, seats)
        return await self._vote(vote_id)

    async def close_due(self) -> int:
        """Close votes whose deadline passed or whose turn is over; returns how many.
        Each is a duty (`vote:<id>`) claimed while it is decided, so two processes do
        not both count it; the store closes a vote only while it is open, so it is
        decided exactly once whoever gets there."""
        now = self._clock()
        closed = 0
        # one read finds them, whatever the number of open votes (bot/store/sql.py)
        for vote in await self.store.votes_due(now):
            async with self.duties.holding(duty("vote", vote.id)) as claim:
                if claim is not None:
                    closed += await self._close_due(vote.id, now)
        return closed

    async def _close_due(self, vote_id: int, now: datetime) -> int:
        vote = await self.store.vote(vote_id)  # as it stands now that it is ours
        if vote is None or vote.status != "open":
            return 0
        seats = await self.store.seats(vote.game_id)
        if not await self._still_awaited(vote):
            return await self._close(vote, "void", seats)
        if vote.deadline <= now:
            ballots = await self.store.ballots(vote.id)
            status = decide_at_deadline(ballots, _voters(seats, vote.seat))
            return await self._close(vote, status, seats)
        return 0

    async def tally(self, vote_id: int) -> VoteTally:
        """The vote with its ballots and the voters' names, for its message."""
        vote = await self._vote(vote_id)
        seats = await self.store.seats(vote.game_id)
        names = {s.controller_id: s.name for s in seats if s.controller_id is not None}
        target = next(s for s in seats if s.seat == vote.seat)
        ballots = tuple(
            Ballot(b.voter_id, names.get(b.voter_id), b.choice)
            for b in await self.store.ballots(vote_id)
        )
        return VoteTally(vote, player(target), ballots, len(_voters(seats, vote.seat)))

    async def message_posted(self, vote_id: int, channel_id: int, message_id: int) -> None:
        await self.store.set_vote_message(vote_id, channel_id, message_id)

    # --- private helpers -------------------------------------------------------------

    async def _vote(self, vote_id: int) -> VoteRecord:
        vote = await self.store.vote(vote_id)
        if vote is None:
            raise ServiceError(N_("That vote does not exist any more."))
        return vote

    async def _open(self, vote_id: int) -> VoteRecord:
        vote = await self._vote(vote_id)
        if vote.status == "open" and not await self._still_awaited(vote):
            seats = await self.store.seats(vote.game_id)
            await self._close(vote, "void", seats)
            vote = await self._vote(vote_id)
        if vote.status != "open":
            raise ServiceError(N_("This vote is over."))
        return vote

    async def _still_awaited(self, vote: VoteRecord) -> bool:
        game = await self.store.game(vote.game_id)
        if game is None or game.status != "active":
            return False
        rows = await self.store.reminders(vote.game_id)
        return any(r.seat == vote.seat and r.waiting_since == vote.turn_since for r in rows)

    async def _close(
        self, vote: VoteRecord, status: VoteStatus, seats: Sequence[SeatRecord]
    ) -> int:
        target = next(s for s in seats if s.seat == vote.seat)
        changed: SeatRecord | None = None
        if status == "skip":
            changed = replace(target, skip_turn=True)
        elif status == "autopilot":
            changed = replace(target, autopilot=True)
        now = self._clock()
        done = await self.store.close_vote(
            vote.id,
            status,
            at=now,
            seat=changed,
            next_at=now if changed is not None else None,
            owed=[stored(VoteNews(vote_id=vote.id))],
        )
        return int(done)


def _voters(seats: Sequence[SeatRecord], absent: int) -> set[int]:
    """The people who may vote about an absent seat: those who play the other seats."""
    return {
        s.controller_id
        for s in seats
        if s.seat != absent and s.controller_id is not None and not s.machine_played
    }
