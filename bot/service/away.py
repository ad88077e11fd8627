"""Away (`/mk away`): a player away until a date gets no reminders, votes or digests;
each of their running games posts once that they are away and once that they are
back, and follows its away policy meanwhile: it waits (`wait`, the default), or the AI
plays their turns (`ai`). Acting in a game ends the away at once (bot/service/
appending.py); so does `/mk away off`, and its end date (a duty of the scheduler,
`away:<user>`). The end is a local day: the player is back at its midnight in their
time zone.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime, time, timedelta

from bot.i18n.catalogue import N_
from bot.service.clock import TurnClock
from bot.service.duties import Duties, duty
from bot.service.errors import GameNotFoundError, InvalidSettingError
from bot.service.owed import SeatNews, VoteNews
from bot.service.reminders import zone
from bot.service.seats import require_creator
from bot.service.table import player, stored
from bot.store import AwayPolicy, AwayRecord, SeatRecord, Store

# the longest away, in days
MOST_DAYS = 60
AWAYS_PER_ROUND = 100


async def come_back(
    store: Store, clock: Callable[[], datetime], user_id: int
) -> list[SeatRecord] | None:
    """End the player's away now: their seats are theirs again, each game hears it
    once, their clocks go on. None if they were not away (or another process ended
    it first)."""
    now = clock()
    ended = await store.come_back(
        user_id,
        at=now,
        notice=lambda seat: [stored(SeatNews(change="back", player=player(seat)))],
    )
    if ended is None:
        return None
    record, seats = ended
    await TurnClock(store, clock, Duties(store, clock)).resume(seats, record.began_at)
    return seats


def read_day(text: str) -> date:
    """A day as the player typed it (YYYY-MM-DD), or a refusal."""
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise InvalidSettingError(
            N_("Give the day as YYYY-MM-DD, for example {example}."), example="2026-12-24"
        ) from None


class Away:
    """`service.away`: go away, come back, the games' away policy."""

    def __init__(self, store: Store, clock: Callable[[], datetime], duties: Duties) -> None:
        self.store = store
        self._clock = clock
        self.duties = duties

    async def leave(
        self, user_id: int, *, until: date | None = None, days: int | None = None
    ) -> tuple[AwayRecord, list[SeatRecord]]:
        """Away until the local day `until`, or for `days` days (back at the midnight
        that starts that day, in the player's time zone). Refused, with nothing
        changed, for a day not after today or more than `MOST_DAYS` ahead. Setting the
        same end again changes nothing; another end is told anew. Returns the away and
        the seats whose games were told."""
        if (until is None) == (days is None):
            raise InvalidSettingError(N_("Say until which day you are away, or for how many days."))
        prefs = (await self.store.notification_prefs([user_id])).get(user_id)
        tz = zone("UTC" if prefs is None else prefs.timezone)
        now = self._clock()
        today = now.astimezone(tz).date()
        back = until if until is not None else today + timedelta(days=days or 0)
        if back <= today:
            raise InvalidSettingError(N_("That day is not in the future: give a later one."))
        if back > today + timedelta(days=MOST_DAYS):
            raise InvalidSettingError(
                N_("You can be away for at most {days} days."), days=MOST_DAYS
            )
        ends = datetime.combine(back, time(0), tzinfo=tz).astimezone(UTC)
        current = await self.store.away(user_id)
        if current is not None and current.ends_at == ends:
            return current, []
        seats = await self._mark(user_id, now, ends, untold_only=False)
        return AwayRecord(user_id, now if current is None else current.began_at, ends), seats

    async def tell_late(self) -> int:
        """Mark and tell the running games of players away that were not told (they
        began, or the player took a seat there, while the player was away); each under
        the player's duty `away:<user>`. Returns how many seats were marked."""
        marked = 0
        for away in await self.store.aways_untold(limit=AWAYS_PER_ROUND):
            async with self.duties.holding(duty("away", away.user_id)) as claim:
                if claim is not None:
                    now = self._clock()
                    told = await self._mark(away.user_id, now, away.ends_at, untold_only=True)
                    marked += len(told)
        return marked

    async def _mark(
        self, user_id: int, at: datetime, ends: datetime, *, untold_only: bool
    ) -> list[SeatRecord]:
        return await self.store.go_away(
            user_id,
            at=at,
            ends_at=ends,
            notice=lambda seat: [stored(SeatNews(change="away", player=player(seat), until=ends))],
            void_notice=lambda vote_id: [stored(VoteNews(vote_id=vote_id))],
            untold_only=untold_only,
        )

    async def back(self, user_id: int) -> list[SeatRecord]:
        """`/mk away off`: the seats the player is back in."""
        seats = await come_back(self.store, self._clock, user_id)
        if seats is None:
            raise InvalidSettingError(N_("You are not away."))
        return seats

    async def of(self, user_id: int) -> AwayRecord | None:
        return await self.store.away(user_id)

    async def end_due(self) -> int:
        """End every away whose day has come (each under its duty `away:<user>`; the
        store ends it once, whoever gets there). Returns how many ended."""
        ended = 0
        for away in await self.store.aways_due(self._clock(), limit=AWAYS_PER_ROUND):
            async with self.duties.holding(duty("away", away.user_id)) as claim:
                if claim is not None and await come_back(self.store, self._clock, away.user_id):
                    ended += 1
        return ended

    async def set_policy(
        self, game_id: int, user_id: int, policy: AwayPolicy, *, admin: bool = False
    ) -> None:
        """What the game does while a player is away (its creator or a server admin)."""
        if policy not in ("wait", "ai"):
            raise InvalidSettingError(N_("While a player is away the game waits or the AI plays."))
        game = await self.store.game(game_id)
        if game is None:
            raise GameNotFoundError(game_id)
        require_creator(
            game,
            user_id,
            admin,
            N_(
                "Only the game's creator or a server admin can change what the game does"
                " while a player is away."
            ),
        )
        interval = timedelta(seconds=game.reminder_seconds)
        await self.store.set_away_policy(game_id, policy, at=self._clock(), interval=interval)
