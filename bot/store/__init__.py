"""Persistence for games: an abstract `Store` and its SQLite implementation.

>>> from bot.store import SqliteStore
>>> store = SqliteStore("data/games.db")   # then: async with store: ...
"""

from bot.store.base import Store
from bot.store.errors import (
    ConflictError,
    DuplicateInteractionError,
    SchemaTooNewError,
    SeqConflictError,
    StatusConflictError,
    StoreError,
    StoreFullError,
    StoreReadOnlyError,
    StoreUnusableError,
    WriteFaultError,
)
from bot.store.migrations import LATEST_VERSION
from bot.store.records import (
    GAME_STATUSES,
    OWED_KINDS,
    VOTE_CHOICES,
    ActionRecord,
    BallotRecord,
    GameRecord,
    GameStatus,
    InteractionRecord,
    MessageRecord,
    NewGame,
    NewOwed,
    NotificationPrefs,
    OwedKind,
    OwedMessage,
    ReminderRecord,
    SeatRecord,
    SnapshotRecord,
    StoredGame,
    VoteChoice,
    VoteRecord,
    VoteStatus,
)
from bot.store.sqlite import SqliteStore

__all__ = [
    "GAME_STATUSES",
    "LATEST_VERSION",
    "OWED_KINDS",
    "VOTE_CHOICES",
    "ActionRecord",
    "BallotRecord",
    "ConflictError",
    "DuplicateInteractionError",
    "GameRecord",
    "GameStatus",
    "InteractionRecord",
    "MessageRecord",
    "NewGame",
    "NewOwed",
    "NotificationPrefs",
    "OwedKind",
    "OwedMessage",
    "ReminderRecord",
    "SchemaTooNewError",
    "SeatRecord",
    "SeqConflictError",
    "SnapshotRecord",
    "SqliteStore",
    "StatusConflictError",
    "Store",
    "StoreError",
    "StoreFullError",
    "StoreReadOnlyError",
    "StoreUnusableError",
    "StoredGame",
    "VoteChoice",
    "VoteRecord",
    "VoteStatus",
    "WriteFaultError",
]
