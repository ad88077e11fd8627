"""The game service: the application layer the Discord bot calls (no Discord here).

>>> from bot.service import MOUNTAIN_KING, GameService
>>> from bot.store import SqliteStore
>>> service = GameService(SqliteStore("data/games.db"), MOUNTAIN_KING)
"""

from bot.service.errors import (
    CannotUndoError,
    CorruptGameError,
    GameMovedOnError,
    GameNotFoundError,
    GameStateError,
    InvalidSettingError,
    NotAllowedError,
    NotInGameError,
    NotYourTurnError,
    SeatingError,
    SeatMovedOnError,
    ServiceError,
    StorageFullError,
)
from bot.service.loading import UNDO, Loaded
from bot.service.mountain_king import MOUNTAIN_KING, MountainKingRules
from bot.service.notifications import Notifications
from bot.service.outbox import Outbox, Owed
from bot.service.protocol import Asked, GameRules
from bot.service.results import (
    ActionPreview,
    ActResult,
    DueReminder,
    GameInfo,
    GameView,
    LogEntry,
    ReplyTo,
    SeatInfo,
    TurnStatus,
    Waiting,
)
from bot.service.service import DEFAULT_REMINDER_INTERVAL, GameService
from bot.service.votes import Votes, VoteTally

__all__ = [
    "DEFAULT_REMINDER_INTERVAL",
    "MOUNTAIN_KING",
    "UNDO",
    "ActResult",
    "ActionPreview",
    "Asked",
    "CannotUndoError",
    "CorruptGameError",
    "DueReminder",
    "GameInfo",
    "GameMovedOnError",
    "GameNotFoundError",
    "GameRules",
    "GameService",
    "GameStateError",
    "GameView",
    "InvalidSettingError",
    "Loaded",
    "LogEntry",
    "MountainKingRules",
    "NotAllowedError",
    "NotInGameError",
    "NotYourTurnError",
    "Notifications",
    "Outbox",
    "Owed",
    "ReplyTo",
    "SeatInfo",
    "SeatMovedOnError",
    "SeatingError",
    "ServiceError",
    "StorageFullError",
    "TurnStatus",
    "VoteTally",
    "Votes",
    "Waiting",
]
