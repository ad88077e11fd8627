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
)
from bot.store.migrations import LATEST_VERSION
from bot.store.records import (
    GAME_STATUSES,
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
from bot.store.sqlite import SqliteStore

__all__ = [
    "GAME_STATUSES",
    "LATEST_VERSION",
    "ActionRecord",
    "ConflictError",
    "DuplicateInteractionError",
    "GameRecord",
    "GameStatus",
    "InteractionRecord",
    "MessageRecord",
    "NewGame",
    "NotificationPrefs",
    "ReminderRecord",
    "SchemaTooNewError",
    "SeatRecord",
    "SeqConflictError",
    "SnapshotRecord",
    "SqliteStore",
    "StatusConflictError",
    "Store",
    "StoreError",
    "StoredGame",
]
