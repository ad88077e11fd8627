"""What the store keeps of rematches, and a server's lobbies: a finished game's one
rematch (the table `rematches`, keyed by the old game) and the games not started yet
on a server. Part of the shared `Store` (bot/store/base.py), written once with its
statements (here: bot/store/sql.py is at the 700 lines a module may hold, and they are
used nowhere else); neither driver overrides it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.store import sql
from bot.store.driver import Driver, Tx, one
from bot.store.records import GameRecord, SeatRecord
from bot.store.sql import GAME_COLUMNS, ts

# a finished game's one rematch (`rematches`' key), a new open game with its options:
# rules, config, reminders, place, language, away policy and turn clock
REMATCH_OF = (
    f"SELECT {GAME_COLUMNS} FROM games"
    " WHERE id = (SELECT rematch_id FROM rematches WHERE game_id = $1)"
)
CREATE_REMATCH = (
    "INSERT INTO games (rules, config, status, creator_id, reminder_seconds, guild_id,"
    " channel_id, created_at, updated_at, language, away_policy, clock_seconds, clock_policy)"
    " SELECT rules, config, 'open', $2, reminder_seconds, guild_id, channel_id, $3, $3,"
    " language, away_policy, clock_seconds, clock_policy FROM games WHERE id = $1"
    f" RETURNING {GAME_COLUMNS}"
)
ADD_REMATCH = "INSERT INTO rematches (game_id, rematch_id) VALUES ($1, $2)"
IS_REMATCH = "SELECT game_id FROM rematches WHERE rematch_id = $1"
# a server's games not started yet, oldest first (the partial index `games_open`)
OPEN_GAMES = (
    f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'open' AND guild_id = $1 ORDER BY id LIMIT $2"
)


class RematchStore(Driver):
    """A finished game's rematch, made once; a server's open games."""

    async def rematch(
        self,
        game_id: int,
        creator_id: int,
        *,
        at: datetime,
        seats: Sequence[tuple[int | None, str | None]],
    ) -> tuple[GameRecord, bool] | None:
        """A game's rematch: made now, a new open game with the old one's options and
        `seats` (user id, None for the AI; name) seated in order (True), or the one made
        before (False); the old game's row is locked meanwhile, so two presses, in any
        processes, make one. None: no such game."""

        async def work(tx: Tx) -> tuple[GameRecord, bool] | None:
            if await one(tx, self.dialect.fill(sql.LOCK_GAME), game_id) is None:
                return None
            made = await one(tx, REMATCH_OF, game_id)
            if made is not None:
                return sql.game_from(made), False
            row = await one(tx, CREATE_REMATCH, game_id, creator_id, ts(at))
            assert row is not None
            game = sql.game_from(row)
            for number, (user_id, name) in enumerate(seats):
                seat = SeatRecord(game.id, number, user_id, at, ai=user_id is None, name=name)
                await tx.run(sql.INSERT_SEAT, *sql.seat_params(seat))
            await tx.run(ADD_REMATCH, game_id, game.id)
            return game, True

        return await self._write(work)

    async def rematch_of(self, game_id: int) -> int | None:
        """The game this one is the rematch of, if it is one."""
        rows = await self._rows(IS_REMATCH, game_id)
        return int(rows[0]["game_id"]) if rows else None

    async def open_games(self, guild_id: int, *, limit: int) -> list[GameRecord]:
        """A server's games not started yet, oldest first."""
        return [sql.game_from(r) for r in await self._rows(OPEN_GAMES, guild_id, limit)]
