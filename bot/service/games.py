"""The games this table plays: every game's adapter on one shelf, the Mountain King's
first (the game `/mk new` opens when none is named). A new game registers here, with
its face in `bot.app`; nothing else of the table changes (docs/second-game.md)."""

from __future__ import annotations

from bot.service.cave_troll import CAVE_TROLL
from bot.service.mountain_king import MOUNTAIN_KING
from bot.service.shelf import AnyShelf, Shelf

TABLE_GAMES: AnyShelf = Shelf(MOUNTAIN_KING, CAVE_TROLL)
