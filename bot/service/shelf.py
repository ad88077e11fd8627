"""The games a table plays: each game's rules (`GameRules`) by its name.

A game's record names its rules (the games table's `rules` column: "mountain-king",
"cave-troll"); every part of the service that loads a game, or tells of it, takes the
rules from here by that name, so one service, one store and one scheduler run every
game the table has. The first game is the one `/mk new` opens when none is named.

    >>> from bot.service.mountain_king import MOUNTAIN_KING
    >>> shelf = Shelf(MOUNTAIN_KING)
    >>> shelf.names, shelf.of("mountain-king") is MOUNTAIN_KING
    (('mountain-king',), True)
"""

from __future__ import annotations

from typing import Any, Generic

from bot.service.errors import GameStateError
from bot.service.protocol import A, GameRules, S, V
from bot.store import GameRecord


class Shelf(Generic[S, A, V]):
    """The rules of every game this table plays, by name; `first` is the default."""

    def __init__(self, first: GameRules[S, A, V], *others: GameRules[S, A, V]) -> None:
        self.first = first
        self._by_name: dict[str, GameRules[S, A, V]] = {}
        for rules in (first, *others):
            if rules.name in self._by_name:
                raise ValueError(f"two games named {rules.name!r} on one shelf")
            self._by_name[rules.name] = rules

    @property
    def names(self) -> tuple[str, ...]:
        """The games' names, the first game's first."""
        return tuple(self._by_name)

    def has(self, name: str) -> bool:
        return name in self._by_name

    def of(self, game: str | GameRecord) -> GameRules[S, A, V]:
        """The rules of a game (its record, or its rules' name); a game this table does
        not play is refused as a game in the wrong state."""
        name = game if isinstance(game, str) else game.rules
        rules = self._by_name.get(name)
        if rules is None:
            which = "" if isinstance(game, str) else f"Game #{game.id} "
            raise GameStateError(f"{which}is a game of {name}, which this table does not play.")
        return rules


def shelf_of(games: GameRules[S, A, V] | Shelf[S, A, V]) -> Shelf[S, A, V]:
    """A shelf, from one game's rules or a shelf."""
    return games if isinstance(games, Shelf) else Shelf(games)


# a shelf of any games, as the table holds it
AnyShelf = Shelf[Any, Any, Any]
