"""What the store keeps of players away (`/mk away`) and of the games' turn clocks: who
is away until when, each seat's away mode, each game's policies, each awaited seat's
clock. Part of the shared `Store` (bot/store/base.py), written once over the statements
of bot/store/sql.py; neither driver overrides it.

Going away and coming back are each one transaction over every running game of the
player: the seats marked, the reminders and votes about them, and each game's notice
owed, together; of two processes ending one away, exactly one deletes its row and so
owes the notices.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from bot.store import sql
from bot.store.driver import Driver, Tx, insert_owed, one
from bot.store.records import (
    AwayPolicy,
    AwayRecord,
    ClockPolicy,
    ClockRecord,
    NewOwed,
    SeatRecord,
)
from bot.store.sql import Row, dt, maybe_dt, maybe_ts, ts

# the messages a seat's change owes its game, and those a voided vote owes
Notice = Callable[[SeatRecord], Sequence[NewOwed]]
VoidNotice = Callable[[int], Sequence[NewOwed]]


def away_from(r: Row) -> AwayRecord:
    return AwayRecord(r["user_id"], dt(r["began_at"]), dt(r["ends_at"]))


def clock_from(r: Row) -> ClockRecord:
    return ClockRecord(
        game_id=r["game_id"],
        seat=r["seat"],
        waiting_since=dt(r["waiting_since"]),
        since=maybe_dt(r["clock_since"]),
        due=maybe_dt(r["clock_due"]),
        warn=maybe_dt(r["clock_warn"]),
        stage=int(r["clock_stage"]),
        clock_seconds=int(r["clock_seconds"]),
        clock_policy=r["clock_policy"],
        user_id=r["user_id"],
    )


class AwayStore(Driver):
    """Players away and the games' turn clocks."""

    async def away(self, user_id: int) -> AwayRecord | None:
        rows = await self._rows(sql.AWAY, user_id)
        return away_from(rows[0]) if rows else None

    async def aways_untold(self, *, limit: int) -> list[AwayRecord]:
        """Players away who play a seat of a running game that was not told (it began,
        or they took the seat, while they were away)."""
        return [away_from(r) for r in await self._rows(sql.AWAYS_UNTOLD, limit)]

    async def aways_due(self, now: datetime, *, limit: int) -> list[AwayRecord]:
        """Aways whose end has come, the earliest first (one lookup on their index)."""
        return [away_from(r) for r in await self._rows(sql.AWAYS_DUE, ts(now), limit)]

    async def go_away(
        self,
        user_id: int,
        *,
        at: datetime,
        ends_at: datetime,
        notice: Notice,
        void_notice: VoidNotice,
        untold_only: bool = False,
    ) -> list[SeatRecord]:
        """The player is away from `at` until `ends_at` (a player already away keeps
        when they left): every seat they play in a running game is marked with its game's
        policy, in the same transaction as each game's `notice`; where the AI plays, its
        move is owed at once; an open vote about such a seat is void (`void_notice`).
        Returns the seats marked. With `untold_only`, only the seats not marked yet, and
        only while the player is still away."""

        async def work(tx: Tx) -> list[SeatRecord]:
            if untold_only and await one(tx, sql.AWAY, user_id) is None:
                return []
            await tx.run(sql.PUT_AWAY, user_id, ts(at), ts(ends_at))
            marked = []
            played = self.dialect.fill(sql.SEATS_PLAYED)
            for row in await tx.rows(played, user_id, not untold_only):
                policy: AwayPolicy = row["away_policy"]
                seat = replace(sql.seat_from(row), away=policy)
                await tx.run(sql.SET_SEAT_AWAY, policy, seat.game_id, seat.seat)
                if policy == "ai":
                    await tx.run(sql.MOVE_REMINDER, ts(at), seat.game_id, seat.seat)
                for voided in await tx.rows(sql.VOID_VOTE_ABOUT, ts(at), seat.game_id, seat.seat):
                    await insert_owed(tx, seat.game_id, None, void_notice(int(voided["id"])), at)
                await insert_owed(tx, seat.game_id, None, notice(seat), at)
                marked.append(seat)
            return marked

        return await self._write(work)

    async def come_back(
        self, user_id: int, *, at: datetime, notice: Notice
    ) -> tuple[AwayRecord, list[SeatRecord]] | None:
        """End the player's away: their seats are theirs again (a reminder due no
        sooner than one interval from now), with each game's `notice`, in one
        transaction. None (nothing written) if they were not away: another process
        ended it first."""

        async def work(tx: Tx) -> tuple[AwayRecord, list[SeatRecord]] | None:
            ended = await one(tx, sql.END_AWAY, user_id)
            if ended is None:
                return None
            back = []
            for row in await tx.rows(self.dialect.fill(sql.SEATS_AWAY), user_id):
                seat = replace(sql.seat_from(row), away=None)
                await tx.run(sql.SET_SEAT_AWAY, None, seat.game_id, seat.seat)
                later = at + timedelta(seconds=int(row["reminder_seconds"]))
                await tx.run(sql.DEFER_REMINDER, ts(later), seat.game_id, seat.seat)
                await insert_owed(tx, seat.game_id, None, notice(seat), at)
                back.append(seat)
            return away_from(ended), back

        return await self._write(work)

    async def set_away_policy(
        self, game_id: int, policy: AwayPolicy, *, at: datetime, interval: timedelta
    ) -> bool:
        """The game's away policy; a seat away now follows it at once (the AI's move is
        owed now, or its player is reminded no sooner than `interval` from now). False
        if there is no such game."""

        async def work(tx: Tx) -> bool:
            if await one(tx, self.dialect.fill(sql.LOCK_GAME), game_id) is None:
                return False
            await tx.run(sql.SET_AWAY_POLICY, policy, ts(at), game_id)
            await tx.run(sql.SEATS_AWAY_IN_GAME, policy, game_id)
            for seat in await tx.rows(sql.AWAY_SEATS_OF_GAME, game_id):
                if policy == "ai":
                    await tx.run(sql.MOVE_REMINDER, ts(at), game_id, seat["seat"])
                else:
                    await tx.run(sql.DEFER_REMINDER, ts(at + interval), game_id, seat["seat"])
            return True

        return await self._write(work)

    async def set_clock(
        self, game_id: int, seconds: int | None, policy: ClockPolicy, *, at: datetime
    ) -> bool:
        """The turn clock of a game not yet started; False if it is not open."""

        async def work(tx: Tx) -> bool:
            return await tx.run(sql.SET_CLOCK, seconds, policy, ts(at), game_id) == 1

        return await self._write(work)

    async def clocks_due(self, now: datetime, *, limit: int) -> list[ClockRecord]:
        """Clocks to set for a new turn, to remind of, or run out; a clock another
        process is moving on right now is left to it."""
        rows = await self._rows(self.dialect.fill(sql.CLOCKS_DUE), ts(now), limit)
        return [clock_from(r) for r in rows]

    async def clocks(self, game_id: int) -> list[ClockRecord]:
        """The clocks of a game's awaited seats, in seat order (none without a clock)."""
        return [clock_from(r) for r in await self._rows(sql.CLOCKS_OF_GAME, game_id)]

    async def set_clock_row(
        self,
        clock: ClockRecord,
        *,
        due: datetime | None,
        warn: datetime | None,
        stage: int,
    ) -> bool:
        """Set the seat's clock for the turn `clock.waiting_since`; False if the game no
        longer awaits that turn."""

        async def work(tx: Tx) -> bool:
            changed = await tx.run(
                sql.SET_CLOCK_ROW,
                ts(clock.waiting_since),
                maybe_ts(due),
                maybe_ts(warn),
                stage,
                clock.game_id,
                clock.seat,
                ts(clock.waiting_since),
            )
            return changed == 1

        return await self._write(work)

    async def advance_clock(
        self,
        clock: ClockRecord,
        stage: int,
        *,
        at: datetime,
        seat: SeatRecord | None = None,
        owed: Sequence[NewOwed] = (),
    ) -> bool:
        """Move the clock on from its stage to `stage` (reminded, ran out) if it still
        stands there for the same turn, with the seat's change (its reminder then due
        at once: the AI plays) and the owed messages; False (nothing written) if another
        process moved it first or the turn is over."""

        async def work(tx: Tx) -> bool:
            await one(tx, self.dialect.fill(sql.LOCK_GAME), clock.game_id)
            moved = await tx.run(
                sql.ADVANCE_CLOCK,
                stage,
                clock.game_id,
                clock.seat,
                ts(clock.waiting_since),
                clock.stage,
            )
            if moved != 1:
                return False
            if seat is not None:
                await tx.run(sql.UPDATE_SEAT, *sql.seat_update_params(seat))
                await tx.run(sql.MOVE_REMINDER, ts(at), clock.game_id, clock.seat)
            await insert_owed(tx, clock.game_id, None, owed, at)
            return True

        return await self._write(work)
