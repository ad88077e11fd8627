"""The store interface: everything the game service persists, behind one abstract
class so another backend (PostgreSQL for several bot processes) can replace SQLite
and pass the same tests.

Every method is one transaction. Writes that must happen together (an action, its
snapshot, the interaction that caused it and the new reminder schedule) are one
method, so no backend can leave half of them behind.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Collection, Sequence
from datetime import datetime
from types import TracebackType
from typing import Self

from bot.store.records import (
    ActionRecord,
    GameRecord,
    GameStatus,
    InteractionRecord,
    MessageRecord,
    NewGame,
    NotificationPrefs,
    ReminderRecord,
    SeatRecord,
    SnapshotRecord,
    StoredGame,
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
        self, game_id: int, user_id: int, *, limit: int, at: datetime
    ) -> SeatRecord | None:
        """Seat a user in the next seat of an open game; None (and nothing written) if
        the game is not open, is full or already seats the user."""

    @abstractmethod
    async def remove_seat(self, game_id: int, seat: int, *, at: datetime) -> bool:
        """Remove a seat of an open game; later seats move up so seats stay 0..n-1."""

    @abstractmethod
    async def put_seat(self, seat: SeatRecord, *, at: datetime) -> None:
        """Overwrite a seat's user, substitute, colour, team and autopilot flag."""

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
    ) -> bool:
        """Open -> active in one transaction: the seed, the seats' colours and teams, the
        snapshot after setup and the seats now awaited. False if it was not open."""

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
    ) -> None:
        """Append one log entry and, in the same transaction, the snapshot after it, the
        interaction that caused it, the new status and the seats now awaited (None:
        unchanged; rows of seats still awaited are kept as they are).

        Raises `SeqConflictError` unless `action.seq` is exactly one past the log,
        `StatusConflictError` unless the game is active and `DuplicateInteractionError`
        if the interaction was already handled. Nothing is written then."""

    @abstractmethod
    async def put_snapshot(self, snapshot: SnapshotRecord) -> None:
        """Replace the cached snapshot (a rebuild), unless a later one is stored."""

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
    async def put_notification_prefs(self, prefs: NotificationPrefs) -> None: ...

    @abstractmethod
    async def reminders(self, game_id: int) -> list[ReminderRecord]:
        """The seats a game is waiting for, in seat order."""

    @abstractmethod
    async def due_reminders(self, now: datetime, *, limit: int) -> list[ReminderRecord]:
        """Reminders due at `now` (muted ones excluded), the most overdue first."""

    @abstractmethod
    async def put_reminder(self, reminder: ReminderRecord) -> bool:
        """Update the schedule of a seat still awaited; False if it no longer is."""
