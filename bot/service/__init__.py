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
    ServiceError,
)
from bot.service.loading import UNDO, Loaded
from bot.service.mountain_king import MOUNTAIN_KING, MountainKingRules
from bot.service.notifications import Notifications
from bot.service.protocol import GameRules
from bot.service.results import (
    ActResult,
    DueReminder,
    GameInfo,
    GameView,
    LogEntry,
    SeatInfo,
    TurnStatus,
    Waiting,
)
from bot.service.service import DEFAULT_REMINDER_INTERVAL, GameService

__all__ = [
    "DEFAULT_REMINDER_INTERVAL",
    "MOUNTAIN_KING",
    "UNDO",
    "ActResult",
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
    "SeatInfo",
    "SeatingError",
    "ServiceError",
    "TurnStatus",
    "Waiting",
]
