"""The "you're next" heads-up: a player who opts in (`/mk notify heads_up:True`) gets
one DM when the player before them in turn order starts their turn.

The scheduler asks each round (`HeadsUp.due`): the awaited seats whose turn was not
looked at yet, in games where someone opted in (one read; none when nobody did). Each
such turn is claimed (`heads-up:<game>:<seat>`) and marked looked at before any DM is
sent (a write only one process wins), so a restart or a second process never sends a
second heads-up for the same turn; a crash between the mark and the DM loses it rather
than doubling it, as the daily digest does. No heads-up goes to an AI seat, to the
player who acts now (the seat after theirs is theirs too), to a player away, or to a
player in their quiet hours (`/mk notify quiet_from: quiet_to:`): a turn that begins
then is looked at and passed over, not told later (by the end of the quiet hours that
turn may be long over; the player's own call comes when their turn does).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Generic

from bot.service.duties import Duties, duty
from bot.service.loading import load
from bot.service.owed import Player
from bot.service.protocol import A, GameRules, S
from bot.service.reminders import next_reminder
from bot.service.results import GameInfo
from bot.service.seats import game_info
from bot.service.shelf import Shelf, shelf_of
from bot.service.table import player
from bot.store import Store
from bot.store.heads_up import TurnBegun

# turns looked at a round
HEADS_UP_PER_ROUND = 100


@dataclass(frozen=True, slots=True)
class HeadsUpDM:
    """One heads-up to send: to `user_id`, in `language`, about `game`, whose seat
    `starting` has just begun its turn."""

    user_id: int
    language: str
    game: GameInfo
    starting: Player


class HeadsUp(Generic[S, A]):
    def __init__(
        self,
        store: Store,
        rules: GameRules[S, A] | Shelf[S, A, Any],
        clock: Callable[[], datetime],
        duties: Duties,
    ) -> None:
        self.store = store
        self.games = shelf_of(rules)
        self._clock = clock
        self.duties = duties

    async def due(self) -> list[HeadsUpDM]:
        """The heads-ups owed now, each turn marked looked at (claimed) first."""
        out: list[HeadsUpDM] = []
        for turn in await self.store.turns_begun(limit=HEADS_UP_PER_ROUND):
            async with self.duties.holding(duty("heads-up", turn.game_id, turn.seat)) as claim:
                if claim is None:
                    continue
                dm = await self._look(turn)
                if await self.store.mark_heads_up(turn) and dm is not None:
                    out.append(dm)
        return out

    async def _look(self, turn: TurnBegun) -> HeadsUpDM | None:
        loaded = await load(self.store, self.games, turn.game_id)
        state = loaded.state
        if state is None or loaded.game.status != "active":
            return None
        if tuple(loaded.rules.to_act(state)) != (turn.seat,):
            return None
        after = loaded.rules.next_in_turn(state, turn.seat)
        seats = {s.seat: s for s in loaded.seats}
        starting, nxt = seats.get(turn.seat), seats.get(after) if after is not None else None
        if starting is None or nxt is None or nxt.machine_played or nxt.away is not None:
            return None
        user_id = nxt.controller_id
        if user_id is None or user_id == starting.controller_id:
            return None
        if not await self.store.heads_up(user_id):
            return None
        prefs = (await self.store.notification_prefs([user_id])).get(user_id)
        now = self._clock()
        if next_reminder(now, timedelta(0), prefs) > now:
            return None  # in their quiet hours
        language = prefs.language if prefs is not None else None
        return HeadsUpDM(
            user_id=user_id,
            language=language or loaded.game.language,
            game=game_info(self.games, loaded.game, loaded.seats),
            starting=player(starting),
        )
