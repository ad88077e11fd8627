"""Checks on the arguments of the service's public methods, made before any work.

Every id the service passes to the store ends in an SQLite INTEGER, a signed 64-bit
number: a larger one would raise `OverflowError` deep in the store. An action is text
in notation (bounded in length) or one of the rules' own action values; anything else
(a number, a dict, None, bytes...) would reach the rules engine and fail there with an
`AssertionError` or worse. Each refusal is a `ServiceError` with a sentence, raised
before the game is loaded, so nothing is stored. A game's language is one of the
catalogue's (`check_language`).

    check_arguments(game_id, user_id, optional=(interaction_id,), action=action)
"""

from __future__ import annotations

from typing import Final, TypeGuard

from bot.i18n.catalogue import LANGUAGES, N_
from bot.service.errors import GameNotFoundError, InvalidSettingError, ServiceError, echo

# SQLite's INTEGER is a signed 64-bit number
ID_MIN: Final = -(2**63)
ID_MAX: Final = 2**63 - 1
# the rules refuse actions longer than 500 characters with their own sentence; text
# beyond this never reaches them (a player's notation is under 100 characters)
MAX_ACTION_TEXT: Final = 1000


class _Absent:
    """Marks an argument a method does not take."""


ABSENT: Final = _Absent()


class InvalidArgumentError(ServiceError):
    """A method was called with an argument of the wrong type or out of range (a bug
    in the caller, or a hostile one): refused before anything was read or stored."""

    code = "invalid_argument"


def check_arguments(
    game_id: object = ABSENT,
    *ids: object,
    optional: tuple[object, ...] = (),
    action: object = ABSENT,
) -> None:
    """Refuse, with a sentence, a game id or other ids (users, seats, interactions,
    threads; `optional` ones may be None) that are not whole numbers in SQLite's range,
    and an action that is neither bounded text nor an action value. A game id out of
    range names a game that does not exist (`GameNotFoundError`)."""
    if not isinstance(game_id, _Absent):
        if not _is_int(game_id):
            raise InvalidArgumentError(
                N_("A game is named by its number (such as 12), not by {kind}."),
                kind=_kind(game_id),
            )
        if not ID_MIN <= game_id <= ID_MAX:
            raise GameNotFoundError(game_id)
    for value in (*ids, *(v for v in optional if v is not None)):
        if not _is_int(value):
            raise InvalidArgumentError(
                N_("An id must be a whole number (a Discord id), not {kind}."), kind=_kind(value)
            )
        if not ID_MIN <= value <= ID_MAX:
            raise InvalidArgumentError(
                N_(
                    "An id must be a whole number of at most 64 bits (a Discord id); this one"
                    " has {digits} digits."
                ),
                digits=len(str(abs(value))),
            )
    if not isinstance(action, _Absent):
        check_action(action)


def check_action(action: object) -> None:
    """Text of at most `MAX_ACTION_TEXT` characters, or a rules action value (an
    object of the rules' own classes: none of Python's built-in types)."""
    if isinstance(action, str):
        if len(action) > MAX_ACTION_TEXT:
            raise InvalidArgumentError(
                N_("An action is at most {limit} characters of notation; this one has {length}."),
                limit=MAX_ACTION_TEXT,
                length=len(action),
            )
        return
    if type(action).__module__ == "builtins":
        raise InvalidArgumentError(
            N_("An action must be text in notation (such as `end`), not {kind}."),
            kind=_kind(action),
        )


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _kind(value: object) -> str:
    """A short name for a value's type that never repeats the value itself."""
    if value is None:
        return "nothing (None)"
    return f"a value of type {type(value).__name__}"


def check_language(language: object) -> None:
    """A language the game's posts can be written in (a catalogue's language)."""
    if language not in LANGUAGES:
        raise InvalidSettingError(
            N_("There is no language {language} here: choose one of {languages}."),
            language=echo(language),
            languages=", ".join(LANGUAGES),
        )
