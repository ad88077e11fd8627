"""Tidy servers: `service.tidy`, the scheduler's sweeps of idle games and stale lobbies.

- A running game with no move for its server's idle days (`/mk admin what:settings
  idle_days:`, Manage Server; `IDLE_DAYS` by default) gets one warning post in its
  thread. A move resets it (the game's last change is then later than the warning).
- `IDLE_GRACE` after the warning, still without a move, the game ends as abandoned,
  as `/mk admin what:abandon` ends it (not rated: ratings read finished games only),
  with a post that carries its record.
- A lobby not started within `LOBBY_DAYS` closes itself (abandoned) with one post.

Each step is claimed as a duty (`idle:<game>`, `lobby:<game>`) and written by a store
write conditional on what the sweep read, with its post owed in the same transaction:
a second process, a restart or a move in between makes it write nothing. A round with
nothing due is two lookups on the partial indexes `games_idle` and `games_lobby_age`.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from bot.i18n.catalogue import N_
from bot.service.arguments import check_arguments
from bot.service.duties import Duties, duty
from bot.service.errors import ServiceError
from bot.service.owed import Player, SeatChange, SeatNews
from bot.service.table import stored
from bot.store import Store
from bot.store.tidy import IdleGame

IDLE_DAYS = 30
# the idle days a server may set
IDLE_DAYS_RANGE = (7, 365)
IDLE_GRACE = timedelta(days=7)
LOBBY_DAYS = 14
# rows a sweep handles a round, each kind
TIDY_PER_ROUND = 100


def news(change: SeatChange, creator_id: int, days: int, until: datetime | None = None) -> SeatNews:
    """The table's post about the game as a whole (no seat is concerned: the creator's
    stands in, mentioned by nobody)."""
    return SeatNews(
        change=change,
        player=Player(seat=0, label="", user_id=creator_id),
        days=days,
        until=until,
    )


class Tidy:
    def __init__(self, store: Store, clock: Callable[[], datetime], duties: Duties) -> None:
        self.store = store
        self._clock = clock
        self.duties = duties

    async def idle_days(self, guild_id: int) -> int:
        """The server's idle days (the default if it set none)."""
        check_arguments(guild_id)
        days = await self.store.idle_days(guild_id)
        return IDLE_DAYS if days is None else days

    async def set_idle_days(self, guild_id: int, days: int) -> int:
        """Set the server's idle days (the caller checked Manage Server)."""
        check_arguments(guild_id)
        least, most = IDLE_DAYS_RANGE
        if not least <= days <= most:
            raise ServiceError(N_("Idle days go from {least} to {most}."), least=least, most=most)
        await self.store.set_idle_days(guild_id, days, at=self._clock())
        return days

    async def run_due(self) -> set[int]:
        """Warn, end and close what is due; the games that now owe a post."""
        now = self._clock()
        touched: set[int] = set()
        due = await self.store.idle_due(
            now,
            default_days=IDLE_DAYS,
            least_days=IDLE_DAYS_RANGE[0],
            grace=IDLE_GRACE,
            limit=TIDY_PER_ROUND,
        )
        for game in due:
            if await self._idle(game, now):
                touched.add(game.game_id)
        opened_before = now - timedelta(days=LOBBY_DAYS)
        for game_id in await self.store.stale_lobbies(opened_before, limit=TIDY_PER_ROUND):
            async with self.duties.holding(duty("lobby", game_id)) as claim:
                if claim is None:
                    continue
                record = await self.store.game(game_id)
                if record is None:
                    continue
                post = news("lobby-closed", record.creator_id, LOBBY_DAYS)
                closed = await self.store.close_lobby(
                    game_id, opened_before, at=now, owed=[stored(post)]
                )
                if closed:
                    touched.add(game_id)
        return touched

    async def _idle(self, game: IdleGame, now: datetime) -> bool:
        async with self.duties.holding(duty("idle", game.game_id)) as claim:
            if claim is None:
                return False
            record = await self.store.game(game.game_id)
            if record is None:
                return False
            days = (now - game.last_change).days
            if game.to_warn:
                post = news("idle", record.creator_id, days, now + IDLE_GRACE)
                return await self.store.warn_idle(game, at=now, owed=[stored(post)])
            post = news("idle-ended", record.creator_id, days)
            return await self.store.end_idle(game, at=now, owed=[stored(post)])
