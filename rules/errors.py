"""The errors the engine raises. All of them are `ValueError`s with a sentence a player
understands and a short machine `code` the bot and tests can match on."""

from __future__ import annotations


class RulesError(ValueError):
    """Base class: something asked of the engine cannot be done."""

    code = "rules"
    cell: str | None = None  # the board cell the problem is at, when there is one

    def __init__(self, message: str, code: str | None = None, cell: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.cell = cell

    @property
    def message(self) -> str:
        return str(self.args[0])


class NotationError(RulesError):
    """A text action (or record) could not be parsed."""

    code = "notation"


class ConfigError(RulesError):
    """Game options that do not make a valid game."""

    code = "config"


class IllegalActionError(RulesError):
    """A well-formed action the rules do not allow now."""

    code = "illegal"


class NotYourTurnError(IllegalActionError):
    code = "not_your_turn"


class GameOverError(IllegalActionError):
    code = "game_over"


class UndoError(RulesError):
    code = "undo"


class RecordError(NotationError):
    """A game record (file or JSON) that is too large, too deep, not UTF-8 or not of
    the expected shape."""

    code = "record"
