"""Decisions out of turn with a deadline of their own (Cave Troll's Troll flight: each
player with pieces in the room answers in turn, whoever's turn it is).

A game's rules say how long such a decision may wait (`GameRules.decision_seconds`; None
for an ordinary turn, which the table's reminders, votes and optional turn clock keep).
The table keeps the deadline on what it keeps already: the awaited seat's reminder row
(`waiting_since` is when the decision became theirs). Its first reminder is due halfway
(`first_reminder`), later ones no later than the deadline (`Decisions.look`), and at the
reminder due at or after the deadline the seat's answer is left to the AI, whose choice
in such a decision is the rules' default answer: the seat is marked to skip its turn
(the table's owed move plays it, as a vote to skip does) and the table is told. All of it
is stored, so it survives restarts and runs in whichever process holds the reminder's
duty.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from bot.service.loading import load
from bot.service.owed import OwedPayload, Ping, SeatNews, TurnPost
from bot.service.seats import seat_numbered
from bot.service.shelf import AnyShelf
from bot.service.table import player, stored
from bot.store import ReminderRecord, Store


@dataclass(frozen=True, slots=True)
class Decision:
    """A seat awaited in a decision with a deadline: when it runs out, and whether the
    table has now left the answer to the AI (`settled`)."""

    deadline: datetime
    settled: bool = False


def first_reminder(rows: Sequence[ReminderRecord], seconds: int | None) -> list[ReminderRecord]:
    """The newly awaited seats' rows with their first reminder no later than halfway to
    the decision's deadline (`seconds` None: an ordinary turn, the rows as they are)."""
    if seconds is None:
        return list(rows)
    half = timedelta(seconds=seconds) / 2
    return [replace(r, next_at=min(r.next_at, r.waiting_since + half)) for r in rows]


def with_deadline(owed: Sequence[OwedPayload], deadline: datetime) -> list[OwedPayload]:
    """The turn post and pings of a decision, with its deadline (the turn clock's
    field: the face shows it)."""
    return [
        o.model_copy(update={"deadline": deadline}) if isinstance(o, TurnPost | Ping) else o
        for o in owed
    ]


class Decisions:
    """`service.decisions`: the deadline of a decision out of turn, looked at when the
    awaited seat's reminder is due."""

    def __init__(self, store: Store, games: AnyShelf, clock: Callable[[], datetime]) -> None:
        self.store = store
        self.games = games
        self._clock = clock

    async def look(self, game_id: int, seat: int, since: datetime) -> Decision | None:
        """At the seat's due reminder for the turn `since`: None if it is not awaited in
        a decision with a deadline (an ordinary reminder). Past the deadline, the seat's
        answer is left to the AI and the table told (`settled`; no reminder is sent
        then); before it, the decision's deadline, which the next reminder must not
        pass (`due_by`)."""
        loaded = await load(self.store, self.games, game_id)
        state: Any = loaded.state
        if state is None or loaded.game.status != "active":
            return None
        seconds = loaded.rules.decision_seconds(state)
        if seconds is None or seat not in loaded.rules.to_act(state):
            return None
        row = next((r for r in await self.store.reminders(game_id) if r.seat == seat), None)
        if row is None or row.waiting_since != since:
            return None
        deadline = since + timedelta(seconds=seconds)
        now = self._clock()
        target = seat_numbered(loaded.seats, seat)
        if now < deadline or target.machine_played:
            return Decision(deadline)
        news = SeatNews(change="late", player=player(target), until=deadline)
        await self.store.put_seat(
            replace(target, skip_turn=True), at=now, next_at=now, owed=[stored(news)]
        )
        return Decision(deadline, settled=True)

    async def due_by(self, game_id: int, seat: int, deadline: datetime) -> None:
        """The seat's next reminder no later than the decision's deadline."""
        for row in await self.store.reminders(game_id):
            if row.seat == seat and row.next_at > deadline:
                await self.store.put_reminder(replace(row, next_at=deadline))
