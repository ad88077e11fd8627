"""What the store keeps to tidy a server: its idle-days setting (`server_settings`),
when each running game was warned that it is idle (`games.idle_warned_at`), and the
writes that warn a game, end it as abandoned and close a lobby never started, each with
the post it owes in the same transaction. Part of the shared `Store`
(bot/store/base.py), written once with its statements (bot/store/sql.py is at the 700
lines a module may hold, and they are used nowhere else); neither driver overrides it.

A game is idle from its last change (`games.updated_at`, which every appended action
moves on). Each write is conditional on what the sweep read (the same last change, the
same warning), so a move in between, or a second process, makes it write nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.store.driver import Driver, Tx, insert_owed
from bot.store.records import NewOwed
from bot.store.sql import dt, ts

IDLE_DAYS = "SELECT idle_days FROM server_settings WHERE guild_id = $1"
PUT_IDLE_DAYS = (
    "INSERT INTO server_settings (guild_id, idle_days, updated_at) VALUES ($1, $2, $3)"
    " ON CONFLICT (guild_id) DO UPDATE SET idle_days = excluded.idle_days,"
    " updated_at = excluded.updated_at"
)
# running games idle past their server's days and not warned since their last change,
# or warned and idle `$4` seconds more; the index `games_idle` (its "> 0" stated) bounds
# the range to games idle at least the shortest setting (`$1`)
IDLE_DUE = (
    "SELECT g.id, g.guild_id, g.updated_at, g.idle_warned_at,"
    " COALESCE(s.idle_days, CAST($5 AS INTEGER)) AS idle_days"
    " FROM games g LEFT JOIN server_settings s ON s.guild_id = g.guild_id"
    " WHERE g.status = 'active' AND g.updated_at > 0 AND g.updated_at < $1"
    " AND g.updated_at < CAST($2 AS DOUBLE PRECISION)"
    " - COALESCE(s.idle_days, CAST($5 AS INTEGER)) * 86400.0"
    " AND (g.idle_warned_at IS NULL OR g.idle_warned_at < g.updated_at"
    " OR g.idle_warned_at < CAST($2 AS DOUBLE PRECISION) - CAST($4 AS DOUBLE PRECISION))"
    " ORDER BY g.updated_at LIMIT $3"
)
WARN_IDLE = (
    "UPDATE games SET idle_warned_at = $1 WHERE id = $2 AND status = 'active' AND updated_at = $3"
)
END_IDLE = (
    "UPDATE games SET status = 'abandoned', updated_at = $1"
    " WHERE id = $2 AND status = 'active' AND idle_warned_at = $3 AND updated_at <= $3"
)
DROP_REMINDERS = "DELETE FROM reminders WHERE game_id = $1"
# lobbies opened before `$1` and never started, oldest first (the index `games_lobby_age`)
STALE_LOBBIES = (
    "SELECT id FROM games WHERE status = 'open' AND created_at > 0 AND created_at < $1"
    " ORDER BY created_at LIMIT $2"
)
CLOSE_LOBBY = (
    "UPDATE games SET status = 'abandoned', updated_at = $1"
    " WHERE id = $2 AND status = 'open' AND created_at < $3"
)


@dataclass(frozen=True, slots=True)
class IdleGame:
    """A running game the idle sweep found due: warned (`warned` None or older than its
    last change: it is to be warned) or to be ended. `stamp` and `warned_stamp` are the
    stored values the conditional writes compare with."""

    game_id: int
    guild_id: int | None
    idle_days: int
    stamp: float
    warned_stamp: float | None

    @property
    def last_change(self) -> datetime:
        return dt(self.stamp)

    @property
    def to_warn(self) -> bool:
        return self.warned_stamp is None or self.warned_stamp < self.stamp


class TidyStore(Driver):
    """A server's idle setting; idle games warned and ended; stale lobbies closed."""

    async def idle_days(self, guild_id: int) -> int | None:
        """The server's idle days, None if it never set them (the default holds)."""
        rows = await self._rows(IDLE_DAYS, guild_id)
        return int(rows[0]["idle_days"]) if rows else None

    async def set_idle_days(self, guild_id: int, days: int, *, at: datetime) -> None:
        async def work(tx: Tx) -> None:
            await tx.run(PUT_IDLE_DAYS, guild_id, days, ts(at))

        await self._write(work)

    async def idle_due(
        self,
        now: datetime,
        *,
        default_days: int,
        least_days: int,
        grace: timedelta,
        limit: int,
    ) -> list[IdleGame]:
        """Running games to warn, or (warned, no change since, `grace` gone) to end."""
        since = ts(now - timedelta(days=least_days))
        rows = await self._rows(
            IDLE_DUE, since, ts(now), limit, grace.total_seconds(), default_days
        )
        return [
            IdleGame(
                int(r["id"]),
                r["guild_id"],
                int(r["idle_days"]),
                float(r["updated_at"]),
                None if r["idle_warned_at"] is None else float(r["idle_warned_at"]),
            )
            for r in rows
        ]

    async def warn_idle(self, game: IdleGame, *, at: datetime, owed: Sequence[NewOwed]) -> bool:
        """Mark the game warned, with its post; False (nothing written) if it changed
        since the sweep read it (a move) or another process warned it."""

        async def work(tx: Tx) -> bool:
            if await tx.run(WARN_IDLE, ts(at), game.game_id, game.stamp) != 1:
                return False
            await insert_owed(tx, game.game_id, None, owed, at)
            return True

        return await self._write(work)

    async def end_idle(self, game: IdleGame, *, at: datetime, owed: Sequence[NewOwed]) -> bool:
        """End the warned game as abandoned (its reminders dropped), with its post;
        False (nothing written) if it moved since the warning or is no longer running."""
        assert game.warned_stamp is not None

        async def work(tx: Tx) -> bool:
            if await tx.run(END_IDLE, ts(at), game.game_id, game.warned_stamp) != 1:
                return False
            await tx.run(DROP_REMINDERS, game.game_id)
            await insert_owed(tx, game.game_id, None, owed, at)
            return True

        return await self._write(work)

    async def stale_lobbies(self, opened_before: datetime, *, limit: int) -> list[int]:
        """The lobbies opened before then and never started, oldest first."""
        rows = await self._rows(STALE_LOBBIES, ts(opened_before), limit)
        return [int(r["id"]) for r in rows]

    async def close_lobby(
        self, game_id: int, opened_before: datetime, *, at: datetime, owed: Sequence[NewOwed]
    ) -> bool:
        """Close a lobby never started (abandoned), with its post; False if it started
        or closed meanwhile."""

        async def work(tx: Tx) -> bool:
            if await tx.run(CLOSE_LOBBY, ts(at), game_id, ts(opened_before)) != 1:
                return False
            await insert_owed(tx, game_id, None, owed, at)
            return True

        return await self._write(work)
