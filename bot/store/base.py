"""The store interface: everything the game service persists, behind one abstract
class so another backend (PostgreSQL for several bot processes) can replace SQLite
and pass the same tests.

Every method is one transaction. Writes that must happen together (an action, its
snapshot, the interaction that caused it, the new reminder schedule and the messages it
makes owed) are one method, so no backend can leave half of them behind.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Sequence
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Self

from bot.store.records import (
    ActionRecord,
    BallotRecord,
    DigestRecord,
    DutyClaim,
    GameRecord,
    GameStatus,
    InteractionRecord,
    MessageRecord,
    NewGame,
    NewOwed,
    NotificationPrefs,
    OwedMessage,
    ReminderRecord,
    SeatRecord,
    SnapshotRecord,
    StoredGame,
    VoteRecord,
    VoteStatus,
)


class Store(ABC):
    """Persistent games, seats, action logs and the bot's bookkeeping."""

    # --- lifecycle -------------------------------------------------------------------

    @abstractmethod
    async def open(self) -> None:
        """Connect and bring the schema up to date; raises `SchemaTooNewError` for a
        database written by a newer bot."""

    @abstractmethod
    async def close(self) -> None:
        """Close the connection (idempotent)."""

    @abstractmethod
    async def migrate(self) -> list[int]:
        """Apply pending migrations; returns the versions applied (none: a no-op)."""

    @abstractmethod
    async def schema_version(self) -> int:
        """The schema version the database holds."""

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # --- games and seats -------------------------------------------------------------

    @abstractmethod
    async def create_game(self, game: NewGame, *, seat_creator: bool) -> GameRecord:
        """Insert a new open game (and seat its creator first, if asked)."""

    @abstractmethod
    async def game(self, game_id: int) -> GameRecord | None: ...

    @abstractmethod
    async def game_in_thread(self, thread_id: int) -> GameRecord | None:
        """The most recent game played in a Discord thread."""

    @abstractmethod
    async def games_of_user(
        self, user_id: int, statuses: Collection[GameStatus]
    ) -> list[GameRecord]:
        """Games where the user holds a seat (as player or substitute)."""

    @abstractmethod
    async def set_place(
        self,
        game_id: int,
        *,
        guild_id: int | None,
        channel_id: int | None,
        thread_id: int | None,
        at: datetime,
    ) -> None:
        """Where the game lives on Discord."""

    @abstractmethod
    async def set_language(self, game_id: int, language: str, *, at: datetime) -> bool:
        """The language of the game's public posts; False if there is no such game."""

    @abstractmethod
    async def discard_game(self, game_id: int) -> bool:
        """Delete a game that has not started, with its seats; False if there is no
        such open game."""

    @abstractmethod
    async def set_status(
        self, game_id: int, status: GameStatus, *, only_from: Collection[GameStatus], at: datetime
    ) -> bool:
        """Change the status if it is one of `only_from`; returns whether it changed.
        A game that stops running loses its reminder schedule."""

    @abstractmethod
    async def seats(self, game_id: int) -> list[SeatRecord]:
        """The seats in seat order."""

    @abstractmethod
    async def add_seat(
        self,
        game_id: int,
        user_id: int | None,
        *,
        limit: int,
        at: datetime,
        ai: bool = False,
        name: str | None = None,
    ) -> SeatRecord | None:
        """Seat a user (or, with `ai`, the AI: `user_id` None) in the next seat of an
        open game; None (and nothing written) if the game is not open, is full or
        already seats the user."""

    @abstractmethod
    async def remove_seat(self, game_id: int, seat: int, *, at: datetime) -> bool:
        """Remove a seat of an open game; later seats move up so seats stay 0..n-1."""

    @abstractmethod
    async def put_seat(
        self,
        seat: SeatRecord,
        *,
        at: datetime,
        next_at: datetime | None = None,
        owed: Sequence[NewOwed] = (),
    ) -> None:
        """Overwrite a seat's user, substitute, colour, team, flags and name; with
        `next_at`, move the seat's reminder (if the game awaits it); store `owed`
        (at the game's current version) in the same transaction."""

    @abstractmethod
    async def start_game(
        self,
        game_id: int,
        *,
        seed: int,
        seats: Sequence[SeatRecord],
        snapshot: SnapshotRecord,
        waiting: Sequence[ReminderRecord],
        at: datetime,
        owed: Sequence[NewOwed] = (),
    ) -> bool:
        """Open -> active in one transaction: the seed, the seats' colours, teams and
        flags, the snapshot after setup, the seats now awaited and the messages the start
        makes owed. False (nothing written) if it was not open."""

    # --- the action log ----------------------------------------------------------------

    @abstractmethod
    async def load_game(self, game_id: int) -> StoredGame | None:
        """The game, its seats, its latest snapshot and the log after it, read in one
        consistent transaction."""

    @abstractmethod
    async def actions(self, game_id: int, *, after: int = 0) -> list[ActionRecord]:
        """The log entries with `seq > after`, in order."""

    @abstractmethod
    async def append_action(
        self,
        action: ActionRecord,
        snapshot: SnapshotRecord,
        *,
        interaction: InteractionRecord | None = None,
        status: GameStatus | None = None,
        waiting: Sequence[ReminderRecord] | None = None,
        renew: Collection[int] = (),
        seats: Sequence[SeatRecord] = (),
        owed: Sequence[NewOwed] = (),
    ) -> list[int]:
        """Append one log entry and, in the same transaction, the snapshot after it, the
        interaction that caused it, the new status, the seats now awaited (None:
        unchanged; rows of seats still awaited are kept as they are, except those of
        `renew`, awaited anew), changed seats and the messages the action makes owed.
        Returns the owed messages' ids, in order.

        Raises `SeqConflictError` unless `action.seq` is exactly one past the log,
        `StatusConflictError` unless the game is active and `DuplicateInteractionError`
        if the interaction was already handled. Nothing is written then."""

    @abstractmethod
    async def turn_actions(self, game_id: int, seat: int) -> list[ActionRecord]:
        """The log after the seat's last entry that ended its turn (every seat's
        entries, so undo entries can be paired), in order."""

    @abstractmethod
    async def put_snapshot(self, snapshot: SnapshotRecord) -> bool:
        """Replace the cached snapshot with one rebuilt from the log, in either direction
        (a snapshot ahead of the log is moved back), if the log still ends at its seq;
        the store computes its chain value and digest. Returns whether it was written
        (False: the log moved on, or is shorter)."""

    @abstractmethod
    async def game_ids(self, *, started: bool = True) -> list[int]:
        """Every stored game's id (only games that were dealt, by default), in order."""

    @abstractmethod
    async def game_counts(self, guild_ids: Collection[int] | None = None) -> dict[GameStatus, int]:
        """How many games there are of each status (only those of these Discord
        servers, if given); a status without games is absent."""

    @abstractmethod
    async def backup(self, target: str | Path) -> None:
        """Copy the whole database, consistently, into a new file `target` while other
        connections may go on writing."""

    # --- interactions ------------------------------------------------------------------

    @abstractmethod
    async def interaction(self, interaction_id: int) -> InteractionRecord | None: ...

    @abstractmethod
    async def prune_interactions(self, before: datetime) -> int:
        """Forget handled interactions older than `before` (Discord stops retrying
        within minutes); returns how many were removed."""

    # --- messages, notification preferences, reminders --------------------------------

    @abstractmethod
    async def put_message(self, message: MessageRecord) -> None:
        """Remember (or replace) the message of this kind for a game."""

    @abstractmethod
    async def messages(self, game_id: int) -> list[MessageRecord]: ...

    @abstractmethod
    async def delete_message(self, game_id: int, kind: str) -> bool: ...

    @abstractmethod
    async def notification_prefs(self, user_ids: Collection[int]) -> dict[int, NotificationPrefs]:
        """Stored preferences of these users (users without any are absent)."""

    @abstractmethod
    async def put_notification_prefs(self, prefs: NotificationPrefs) -> None:
        """Store a user's preferences (their language only if `prefs` gives one: None
        keeps the stored one)."""

    @abstractmethod
    async def put_language(self, user_id: int, language: str) -> None:
        """Remember the language of a user's last interaction (their other
        preferences stay as they are, or the defaults for a user without any)."""

    @abstractmethod
    async def reminders(self, game_id: int) -> list[ReminderRecord]:
        """The seats a game is waiting for, in seat order."""

    @abstractmethod
    async def due_reminders(self, now: datetime, *, limit: int) -> list[ReminderRecord]:
        """Reminders due at `now` for seats a person plays in active games (muted ones,
        and seats the AI plays, excluded), the most overdue first."""

    @abstractmethod
    async def owed_moves(self, now: datetime, *, limit: int) -> list[ReminderRecord]:
        """Awaited seats of active games that the AI plays now (AI seats, autopilot, a
        skipped turn, a seat nobody holds) whose next try is due, the longest due
        first."""

    @abstractmethod
    async def put_reminder(
        self, reminder: ReminderRecord, *, claim: DutyClaim | None = None
    ) -> bool:
        """Update the schedule of a seat still awaited; False if it no longer is. With
        `claim`, only while its owner still holds that duty (a reminder sent by a
        process whose claim was taken over is not counted twice)."""

    # --- owed messages -----------------------------------------------------------------

    @abstractmethod
    async def owed_messages(
        self, now: datetime | None, *, game_id: int | None = None, limit: int = 100
    ) -> list[OwedMessage]:
        """Undelivered messages due at `now` (None: all, due or not), of one game or of
        every game, oldest first."""

    @abstractmethod
    async def mark_delivered(
        self,
        owed_id: int,
        *,
        at: datetime,
        channel_id: int | None = None,
        message_id: int | None = None,
        claim: DutyClaim | None = None,
    ) -> bool:
        """Record that Discord accepted the message (or that it is obsolete); False if it
        was already marked, or if `claim` is given and its owner no longer holds that
        duty (another process took the delivery over and records it)."""

    @abstractmethod
    async def last_delivered_message(self, game_id: int, channel_id: int) -> int | None:
        """The newest message id a delivered owed message of this game got in this
        channel (a resend looks for its lost post only among later messages)."""

    @abstractmethod
    async def mark_tried(self, owed_ids: Collection[int], *, at: datetime) -> None:
        """Record that a delivery of these messages begins (one write for a batch)."""

    @abstractmethod
    async def mark_failed(self, owed_id: int, *, error: str, retry_at: datetime) -> int:
        """Record a failed attempt and when to try again; returns the attempts so far."""

    # --- votes ---------------------------------------------------------------------------

    @abstractmethod
    async def open_vote(
        self,
        game_id: int,
        seat: int,
        *,
        turn_since: datetime,
        at: datetime,
        deadline: datetime,
        owed: Callable[[int], Sequence[NewOwed]] = lambda vote_id: (),
    ) -> VoteRecord | None:
        """Open a vote about this turn of the seat, with the messages `owed(vote_id)`
        makes owed; None (nothing written) if the game already has an open vote or had
        one about this turn."""

    @abstractmethod
    async def vote(self, vote_id: int) -> VoteRecord | None: ...

    @abstractmethod
    async def open_votes(self, *, game_id: int | None = None) -> list[VoteRecord]:
        """Open votes (of one game, or all), the earliest deadline first."""

    @abstractmethod
    async def cast_ballot(
        self, ballot: BallotRecord, *, owed: Sequence[NewOwed] = ()
    ) -> list[BallotRecord] | None:
        """Record (or replace) a voter's ballot with its owed messages and return every
        ballot of the vote; None (nothing written) if the vote is not open."""

    @abstractmethod
    async def ballots(self, vote_id: int) -> list[BallotRecord]:
        """The ballots of a vote, in the order they were cast."""

    @abstractmethod
    async def close_vote(
        self,
        vote_id: int,
        status: VoteStatus,
        *,
        at: datetime,
        seat: SeatRecord | None = None,
        next_at: datetime | None = None,
        owed: Sequence[NewOwed] = (),
    ) -> bool:
        """Decide an open vote and, in the same transaction, change the seat it decided
        about (and its reminder's `next_at`) and store the owed messages; False (nothing
        written) if it was no longer open."""

    @abstractmethod
    async def set_vote_message(self, vote_id: int, channel_id: int, message_id: int) -> None:
        """Where the vote's message is, so later tallies edit it in place."""

    # --- the daily digest ----------------------------------------------------------------

    @abstractmethod
    async def digest(self, user_id: int) -> DigestRecord | None:
        """The user's digest schedule (None: they never opted in)."""

    @abstractmethod
    async def put_digest(self, digest: DigestRecord) -> None:
        """Store (or replace) the user's digest schedule."""

    @abstractmethod
    async def due_digests(self, now: datetime, *, limit: int) -> list[DigestRecord]:
        """Digests due at `now`, the longest due first (one index lookup: the scheduler
        asks every round)."""

    @abstractmethod
    async def claim_digest(
        self, user_id: int, *, due_at: datetime, next_at: datetime, sent_at: datetime | None
    ) -> bool:
        """Move a due digest on to `next_at` (and, with `sent_at`, record it as sent)
        if it is still due at `due_at`; False (nothing written) if another process
        claimed it first or the user changed it meanwhile."""

    # --- duty claims (several bot processes on one database) ---------------------------

    @abstractmethod
    async def claim_duty(
        self, duty: str, owner: str, *, now: datetime, until: datetime
    ) -> DutyClaim | None:
        """Claim `duty` for the process `owner` until `until` (its lease) in one
        conditional write, won if nobody holds the duty, if its holder's lease (or rest)
        ended by `now`, or if `owner` holds it already (then the lease is renewed). Of
        processes racing for one duty exactly one wins; the others get None."""

    @abstractmethod
    async def release_duty(self, claim: DutyClaim, *, rest_until: datetime | None = None) -> bool:
        """Give the duty up if `claim.owner` still holds it (False: it was taken over).
        With `rest_until`, nobody may claim it before then (a periodic duty was done;
        the next one is due then)."""

    @abstractmethod
    async def duty_claims(self, now: datetime) -> list[DutyClaim]:
        """The claims and rests still running at `now`, by duty."""

    @abstractmethod
    async def prune_duty_claims(self, before: datetime) -> int:
        """Forget claims whose lease ended before `before` (what crashed holders left
        behind); returns how many were removed."""
