"""What the store keeps of the "you're next" heads-up: the players who opted in
(`heads_up`) and, on each awaited seat's reminder row, the turn it was looked at for
(`reminders.heads_up_since`). Part of the shared `Store` (bot/store/base.py), written
once with its statements (bot/store/sql.py is at the 700 lines a module may hold);
neither driver overrides it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.store.driver import Driver, Tx
from bot.store.sql import ts

IS_ON = "SELECT user_id FROM heads_up WHERE user_id = $1"
TURN_ON = "INSERT INTO heads_up (user_id, since) VALUES ($1, $2) ON CONFLICT (user_id) DO NOTHING"
TURN_OFF = "DELETE FROM heads_up WHERE user_id = $1"
# awaited seats whose turn was not looked at yet, in games where someone opted in:
# read from the players who did (none opted in: an empty table, nothing else read)
DUE = (
    "SELECT r.game_id, r.seat, r.waiting_since FROM reminders r WHERE r.game_id IN ("
    "SELECT game_id FROM seats WHERE user_id IN (SELECT user_id FROM heads_up) UNION"
    " SELECT game_id FROM seats WHERE substitute_id IN (SELECT user_id FROM heads_up))"
    " AND (r.heads_up_since IS NULL OR r.heads_up_since < r.waiting_since)"
    " ORDER BY r.waiting_since, r.game_id, r.seat LIMIT $1"
)
MARK = (
    "UPDATE reminders SET heads_up_since = waiting_since"
    " WHERE game_id = $1 AND seat = $2 AND waiting_since = $3"
    " AND (heads_up_since IS NULL OR heads_up_since < waiting_since)"
)


@dataclass(frozen=True, slots=True)
class TurnBegun:
    """An awaited seat's turn not yet looked at for a heads-up (`since`: the stored
    value the mark compares with)."""

    game_id: int
    seat: int
    since: float


class HeadsUpStore(Driver):
    """Who wants the heads-up; the turns begun that were not looked at yet."""

    async def heads_up(self, user_id: int) -> bool:
        return bool(await self._rows(IS_ON, user_id))

    async def set_heads_up(self, user_id: int, on: bool, *, at: datetime) -> None:
        async def work(tx: Tx) -> None:
            if on:
                await tx.run(TURN_ON, user_id, ts(at))
            else:
                await tx.run(TURN_OFF, user_id)

        await self._write(work)

    async def turns_begun(self, *, limit: int) -> list[TurnBegun]:
        rows = await self._rows(DUE, limit)
        return [
            TurnBegun(int(r["game_id"]), int(r["seat"]), float(r["waiting_since"])) for r in rows
        ]

    async def mark_heads_up(self, turn: TurnBegun) -> bool:
        """Mark the turn looked at; False if it was already, or the turn is over."""

        async def work(tx: Tx) -> bool:
            return await tx.run(MARK, turn.game_id, turn.seat, turn.since) == 1

        return await self._write(work)
