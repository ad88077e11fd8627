"""Errors the game service raises, each with a sentence a player can be shown.

Rules errors (`rules.errors.RulesError`) are not wrapped: they pass through unchanged
with the engine's own sentence. `CorruptGameError` is not the player's fault: the bot
logs it with the game id and tells the player nothing was changed.

What a player typed is quoted back in a refusal with `echo`, the rules' own (one place
cuts every quoted word short, whichever layer refuses).
"""

from __future__ import annotations

from bot.i18n.catalogue import N_
from rules.errors import echo as echo  # the bot's refusals quote with it too


class ServiceError(Exception):
    """Base class: the request was refused and nothing was changed.

    The sentence is a template of the message catalogue, filled with `params` (its
    `{fields}`), so the bot can tell it in the reader's language: a template marked
    `N_` is translated, any other stays English."""

    code = "service"

    def __init__(self, message: str, **params: object) -> None:
        super().__init__(message.format(**params) if params else message)
        self.template = message
        self.params = params

    @property
    def message(self) -> str:
        return str(self.args[0])


class GameNotFoundError(ServiceError):
    code = "game_not_found"

    def __init__(self, game_id: int) -> None:
        super().__init__(N_("There is no game #{game}."), game=game_id)
        self.game_id = game_id


class NotInGameError(ServiceError):
    code = "not_in_game"

    def __init__(self, message: str = N_("You are not playing in this game.")) -> None:
        super().__init__(message)


class NotYourTurnError(ServiceError):
    code = "not_your_turn"
    # the seats the game waits for: (colour label, player's name, whether the AI plays)
    waiting: tuple[tuple[str, str | None, bool], ...] = ()


class NotAllowedError(ServiceError):
    """Only the creator (or a server admin) may do this."""

    code = "not_allowed"


class GameStateError(ServiceError):
    """The game is not in a phase where this can be done (not started, over, ...)."""

    code = "wrong_status"


class SeatingError(ServiceError):
    """Joining, leaving or replacing players was refused (full table, already seated)."""

    code = "seating"


class CannotUndoError(GameStateError):
    code = "cannot_undo"

    def __init__(self) -> None:
        super().__init__(
            N_(
                "Nothing to undo: you can only take back your own actions of this turn, and"
                " not past one that revealed something hidden."
            )
        )


class InvalidSettingError(ServiceError):
    """A preference that cannot be stored (an unknown time zone, ...)."""

    code = "invalid_setting"


class GameMovedOnError(ServiceError):
    """Someone else acted first (a stale button, or another bot process)."""

    code = "moved_on"

    def __init__(self, game_id: int) -> None:
        super().__init__(
            N_(
                "The game moved on before your action arrived; nothing was changed. Look at"
                " the current board of game #{game} and try again."
            ),
            game=game_id,
        )
        self.game_id = game_id


class SeatMovedOnError(GameMovedOnError):
    """The player's own moves went on since the button was drawn (an older draft
    message's button, after asking for the draft again)."""

    code = "seat_moved_on"

    def __init__(self) -> None:
        ServiceError.__init__(
            self,
            N_(
                "Your draft moved on since that message: nothing was changed. Use the newest"
                " draft message (or ask again with `/mk draft`)."
            ),
        )


class CorruptGameError(ServiceError):
    """A stored game cannot be rebuilt: a damaged snapshot, log entry or config."""

    code = "corrupt"

    def __init__(self, game_id: int, detail: str) -> None:
        super().__init__(
            N_(
                "Game #{game} cannot be loaded because its saved record is damaged;"
                " nothing was changed and the problem has been logged."
            ),
            game=game_id,
        )
        self.game_id = game_id
        self.detail = detail

    def __str__(self) -> str:
        return f"{self.message} ({self.detail})"


class StorageFullError(ServiceError):
    """The server could not store a change (its disk is full, the database reached a
    size limit or became read-only): rolled back, nothing was changed. The host's log
    gets the reason with the game id."""

    code = "storage_full"

    def __init__(self, game_id: int | None, reason: str) -> None:
        super().__init__(
            N_(
                "The server could not save your move or change because its storage is full"
                " or unavailable; nothing was changed. The host has been told; please try"
                " again later."
            )
        )
        self.game_id = game_id
        self.reason = reason
