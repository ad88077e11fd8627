"""What the store keeps of a server's community: each player's rating per server (a
table kept up to date as games end, read by the leaderboard through its index), which
finished games were rated, who hides their stats, and the rows a player's pace is
worked out from. Part of the shared `Store` (bot/store/base.py), written once over the
statements of bot/store/sql.py; neither driver overrides it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.store import sql
from bot.store.driver import Driver, Tx
from bot.store.records import GameRecord, GameStatus
from bot.store.sql import Row, dt, ts


@dataclass(frozen=True, slots=True)
class RatingRecord:
    """A player's OpenSkill rating on one server: `mu` and `sigma`, the `ordinal`
    the leaderboard sorts by (mu - 3 sigma), the rated games and the wins among them."""

    guild_id: int
    user_id: int
    mu: float
    sigma: float
    ordinal: float
    games: int
    wins: int
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A game a player sat in on a server: its status and the seat's colour."""

    game_id: int
    status: GameStatus
    seat: int
    colour: str | None


@dataclass(frozen=True, slots=True)
class Beat:
    """A log entry as a player's pace reads it: when, by whom, whether it ended a turn."""

    game_id: int
    seat: int
    user_id: int | None
    at: datetime
    ends_turn: bool


def rating_from(r: Row) -> RatingRecord:
    return RatingRecord(
        guild_id=r["guild_id"],
        user_id=r["user_id"],
        mu=float(r["mu"]),
        sigma=float(r["sigma"]),
        ordinal=float(r["ordinal"]),
        games=int(r["games"]),
        wins=int(r["wins"]),
        updated_at=dt(r["updated_at"]),
    )


class CommunityStore(Driver):
    """The community's rows (see the module's docstring)."""

    async def unrated_games(self, since: datetime, *, limit: int) -> list[GameRecord]:
        """Finished games (status over) not yet rated that ended at `since` or later,
        in the order they ended (one range of the index of finished games)."""
        rows = await self._rows(sql.UNRATED_GAMES, ts(since), limit)
        return [sql.game_from(r) for r in rows]

    async def ratings(self, guild_id: int, user_ids: Collection[int]) -> dict[int, RatingRecord]:
        """The ratings these players have on the server (players never rated absent)."""
        ids = sorted(set(user_ids))
        if not ids:
            return {}
        rows = await self._rows(
            f"{sql.RATINGS_OF} {self.dialect.any(2, 'bigint')}", guild_id, self.dialect.listed(ids)
        )
        return {int(r["user_id"]): rating_from(r) for r in rows}

    async def rate_game(
        self, game_id: int, guild_id: int | None, ratings: Sequence[RatingRecord], *, at: datetime
    ) -> bool:
        """Record that the game was looked at for ratings and, in the same transaction,
        store the players' new ratings (none: the game is not rated). False (nothing
        written) if it was already."""

        async def work(tx: Tx) -> bool:
            if await tx.run(sql.RATED_GAME, game_id, guild_id, ts(at), int(bool(ratings))) != 1:
                return False
            await tx.many(
                sql.PUT_RATING,
                [
                    (r.guild_id, r.user_id, r.mu, r.sigma, r.ordinal, r.games, r.wins, ts(at))
                    for r in ratings
                ],
            )
            return True

        return await self._write(work)

    async def leaderboard(
        self, guild_id: int, *, least_games: int, limit: int
    ) -> list[RatingRecord]:
        """The server's best ratings (by ordinal) of players with at least `least_games`
        rated games who do not hide their stats."""
        rows = await self._rows(sql.LEADERBOARD, guild_id, least_games, limit)
        return [rating_from(r) for r in rows]

    async def board_place(
        self, guild_id: int, ordinal: float, user_id: int, *, least_games: int
    ) -> tuple[int, int]:
        """Where a rating of `ordinal` held by `user_id` stands on the server's board:
        (how many shown players are above it, how many players the board shows)."""
        rows = await self._rows(sql.BOARD_PLACE, guild_id, least_games, ordinal, user_id)
        return int(rows[0]["above"] or 0), int(rows[0]["ranked"] or 0)

    async def played_games(self, guild_id: int, user_id: int) -> list[PlayedGame]:
        """The started games on the server where the user holds a seat, in order."""
        rows = await self._rows(sql.PLAYED_GAMES, guild_id, user_id)
        return [PlayedGame(r["game_id"], r["status"], r["seat"], r["colour"]) for r in rows]

    async def beats(self, guild_id: int, user_id: int) -> list[Beat]:
        """For the pace: in the server's games where the user holds a seat, every entry
        that ended a turn and every entry the user made, by game and in order."""
        rows = await self._rows(sql.BEATS, guild_id, user_id)
        return [
            Beat(r["game_id"], r["seat"], r["user_id"], dt(r["created_at"]), bool(r["ends_turn"]))
            for r in rows
        ]

    async def set_stats_hidden(self, user_id: int, hidden: bool, *, at: datetime) -> None:
        """Hide the user from leaderboards and from the cards others ask for (or not)."""
        if hidden:
            await self._write(lambda tx: tx.run(sql.HIDE_STATS, user_id, ts(at)))
        else:
            await self._write(lambda tx: tx.run(sql.SHOW_STATS, user_id))

    async def stats_hidden(self, user_id: int) -> bool:
        return bool(await self._rows(sql.STATS_HIDDEN, user_id))
