"""The turn clock (`/mk new clock:`): hours of a player's playing time a turn. It runs
only outside the player's quiet hours (in their time zone; a window may cross
midnight) and never while they are away. One reminder when a quarter of it is left; at
zero the game's clock policy applies: the table's vote opens (`vote`), or the AI plays
that turn (`ai`). Running out never expels anyone.

Each awaited seat's clock is kept on its reminder row (bot/store/away.py): set by the
scheduler for the turn (`clock_since` is the turn's `waiting_since`: a seat awaited
anew is set anew), then moved on from stage 0 (set) to 1 (reminded) to 2 (ran out),
each step one conditional write that only one process wins, under the duty
`clock:<game>:<seat>`.

>>> from bot.store import NotificationPrefs
>>> night = NotificationPrefs(1, quiet_start=22 * 60, quiet_end=7 * 60)
>>> playing_deadline(datetime(2026, 1, 5, 20, 0, tzinfo=UTC), timedelta(hours=3), night)
datetime.datetime(2026, 1, 6, 8, 0, tzinfo=datetime.timezone.utc)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, time, timedelta

from bot.i18n.catalogue import N_
from bot.service.duties import Duties, duty
from bot.service.errors import GameNotFoundError, GameStateError, InvalidSettingError
from bot.service.owed import OwedPayload, Ping, Player, SeatNews, StartPost, TurnPost, VoteNews
from bot.service.reminders import MINUTES_PER_DAY, zone
from bot.service.seats import require_creator
from bot.service.table import player, stored
from bot.store import ClockPolicy, ClockRecord, NotificationPrefs, SeatRecord, Store

# the hours a turn's clock may have
CLOCK_HOURS = range(1, 24 * 30 + 1)
# the reminder comes when this share of the clock is left
WARN_SHARE = 0.25
CLOCKS_PER_ROUND = 200
SET, REMINDED, RAN_OUT = 0, 1, 2


def _quiet_spans(
    after: datetime, prefs: NotificationPrefs | None
) -> Iterator[tuple[datetime, datetime]]:
    """The player's quiet windows that end after `after`, in order, in UTC."""
    if prefs is None or prefs.quiet_start is None or prefs.quiet_end is None:
        return
    start, end = prefs.quiet_start, prefs.quiet_end
    length = (end - start) % MINUTES_PER_DAY
    if length == 0:
        return
    tz = zone(prefs.timezone)
    day = after.astimezone(tz).date() - timedelta(days=1)
    while True:
        opens = datetime.combine(day, time(start // 60, start % 60), tzinfo=tz)
        # wall-clock arithmetic in the zone, then a real instant (DST)
        closes = (opens + timedelta(minutes=length)).astimezone(UTC)
        if closes > after:
            yield max(opens.astimezone(UTC), after), closes
        day += timedelta(days=1)


def playing_deadline(
    start: datetime, playing: timedelta, prefs: NotificationPrefs | None
) -> datetime:
    """When `playing` time outside the player's quiet hours has passed after `start`."""
    at, left = start.astimezone(UTC), playing
    for opens, closes in _quiet_spans(at, prefs):
        run = max(timedelta(0), opens - at)
        if left <= run:
            return at + left
        left -= run
        at = max(at, closes)
    return at + left


def playing_time(start: datetime, end: datetime, prefs: NotificationPrefs | None) -> timedelta:
    """The time outside the player's quiet hours between `start` and `end`."""
    if end <= start:
        return timedelta(0)
    total = end - start
    for opens, closes in _quiet_spans(start, prefs):
        if opens >= end:
            break
        total -= min(closes, end) - opens
    return total


def check_clock(hours: object) -> None:
    """A turn clock's hours (None: no clock), or a refusal."""
    if hours is not None and hours not in CLOCK_HOURS:
        raise InvalidSettingError(
            N_("A turn clock is from 1 to {most} hours a turn."), most=CLOCK_HOURS[-1]
        )


async def with_deadlines(
    store: Store, seconds: int | None, owed: Sequence[OwedPayload], now: datetime
) -> list[OwedPayload]:
    """The start post's and the turn post's call and the pings of a game with a clock,
    with the deadline of whoever they call (their clock starts `now`, as the scheduler
    will set it; `seconds` None: no clock, the messages as they are)."""

    def calls(o: OwedPayload) -> tuple[Player, ...]:
        if isinstance(o, TurnPost):
            return o.calls
        if isinstance(o, StartPost):
            return tuple(p for p in o.players if p.seat in o.to_act and not p.ai)
        return (o.player,) if isinstance(o, Ping) else ()

    called = {p.user_id for o in owed for p in calls(o) if p.user_id is not None}
    if seconds is None or not called:
        return list(owed)
    prefs = await store.notification_prefs(called)
    whole = timedelta(seconds=seconds)

    def deadline(user_id: int | None) -> datetime:
        return playing_deadline(now, whole, None if user_id is None else prefs.get(user_id))

    out: list[OwedPayload] = []
    for o in owed:
        if isinstance(o, TurnPost | StartPost) and calls(o):
            o = o.model_copy(update={"deadline": min(deadline(p.user_id) for p in calls(o))})
        elif isinstance(o, Ping):
            o = o.model_copy(update={"deadline": deadline(o.player.user_id)})
        out.append(o)
    return out


async def seat_deadline(
    store: Store, game_id: int, seat: int, user_id: int | None
) -> datetime | None:
    """The deadline a call of an awaited seat shows, once it changed hands to `user_id`
    (the clock goes on: a new player takes over what is left of it): its clock's, or
    where the scheduler will set it (not set yet for this turn); None without a clock,
    or once it ran out."""
    for clock in await store.clocks(game_id):
        if clock.seat != seat:
            continue
        if clock.since == clock.waiting_since:
            return clock.due if clock.stage < RAN_OUT else None
        prefs = None
        if user_id is not None:
            prefs = (await store.notification_prefs([user_id])).get(user_id)
        whole = timedelta(seconds=clock.clock_seconds)
        return playing_deadline(clock.waiting_since, whole, prefs)
    return None


@dataclass(frozen=True, slots=True)
class ClockNews:
    """What a round of clocks did: the games whose messages are owed now."""

    games: frozenset[int] = frozenset()
    reminded: int = 0
    ran_out: int = 0


class TurnClock:
    """`service.clock`: set a game's clock, read its deadlines, run the clocks due."""

    def __init__(self, store: Store, clock: Callable[[], datetime], duties: Duties) -> None:
        self.store = store
        self._clock = clock
        self.duties = duties

    async def configure(
        self,
        game_id: int,
        user_id: int,
        hours: int | None,
        policy: ClockPolicy = "vote",
        *,
        admin: bool = False,
    ) -> None:
        """The clock of a game not yet started (`hours` None: none), by its creator."""
        check_clock(hours)
        if policy not in ("vote", "ai"):
            raise InvalidSettingError(N_("At zero the clock opens the vote or lets the AI play."))
        game = await self.store.game(game_id)
        if game is None:
            raise GameNotFoundError(game_id)
        require_creator(
            game, user_id, admin, N_("Only the game's creator or a server admin can set its clock.")
        )
        seconds = None if hours is None else hours * 3600
        if not await self.store.set_clock(game_id, seconds, policy, at=self._clock()):
            raise GameStateError(N_("The clock is set before the game starts."))

    async def deadlines(self, game_id: int) -> dict[int, datetime]:
        """The deadline of each awaited seat whose clock runs (seat -> when)."""
        return {
            c.seat: c.due
            for c in await self.store.clocks(game_id)
            if c.due is not None and c.since == c.waiting_since and c.stage < RAN_OUT
        }

    async def run_due(self) -> ClockNews:
        """Set the clocks of new turns, send each clock's one reminder, and apply the
        game's policy to each clock that ran out; each under its duty, each step a
        write only one process wins."""
        games: set[int] = set()
        reminded = ran_out = 0
        now = self._clock()
        for clock in await self.store.clocks_due(now, limit=CLOCKS_PER_ROUND):
            async with self.duties.holding(duty("clock", clock.game_id, clock.seat)) as claim:
                done = None if claim is None else await self._step(clock, now)
            if done is not None:
                games.add(clock.game_id)
                reminded += done == REMINDED
                ran_out += done == RAN_OUT
        return ClockNews(frozenset(games), reminded, ran_out)

    async def _step(self, clock: ClockRecord, now: datetime) -> int | None:
        """Set the clock for a new turn, or move it on: to its zero if that has come
        (a clock whose reminder is also due skips it), else to its reminder. The stage
        it reached (None: nothing to tell)."""
        if clock.since != clock.waiting_since:
            await self.start(clock, clock.waiting_since)
            return None
        if clock.due is not None and clock.due <= now:
            return RAN_OUT if await self._run_out(clock, now) else None
        if clock.warn is not None and clock.warn <= now:
            return REMINDED if await self._remind(clock, now) else None
        return None

    async def start(self, clock: ClockRecord, at: datetime, left: timedelta | None = None) -> bool:
        """Set the seat's clock for its turn from `at`, with `left` of it (all of it)."""
        prefs = await self._prefs(clock.user_id)
        whole = timedelta(seconds=clock.clock_seconds)
        left = whole if left is None else left
        due = playing_deadline(at, left, prefs)
        warn_left = whole * WARN_SHARE
        warn = playing_deadline(at, left - warn_left, prefs) if left > warn_left else None
        stage = SET if warn is not None else REMINDED
        return await self.store.set_clock_row(clock, due=due, warn=warn, stage=stage)

    async def resume(self, seats: Sequence[SeatRecord], began: datetime) -> None:
        """Their player is back from an away that began at `began`: each of their
        clocks goes on with what was left of it then (a turn that began while they were
        away gets all of it), from now."""
        now = self._clock()
        for seat in seats:
            for clock in await self.store.clocks(seat.game_id):
                if clock.seat != seat.seat:
                    continue
                left = None
                if clock.since == clock.waiting_since and clock.due is not None:
                    if clock.stage == RAN_OUT:
                        continue
                    prefs = await self._prefs(clock.user_id)
                    left = playing_time(max(began, clock.waiting_since), clock.due, prefs)
                await self.start(replace(clock, since=None), now, left)

    async def _remind(self, clock: ClockRecord, now: datetime) -> bool:
        seat = await self._seat(clock)
        if seat is None:
            return False
        news = SeatNews(change="clock", player=player(seat), until=clock.due)
        return await self.store.advance_clock(clock, REMINDED, at=now, owed=[stored(news)])

    async def _run_out(self, clock: ClockRecord, now: datetime) -> bool:
        seat = await self._seat(clock)
        if seat is None:
            return False
        news = stored(SeatNews(change="timeout", player=player(seat), until=clock.due))
        if clock.clock_policy == "ai":
            skipped = replace(seat, skip_turn=True)
            return await self.store.advance_clock(clock, RAN_OUT, at=now, seat=skipped, owed=[news])
        if not await self.store.advance_clock(clock, RAN_OUT, at=now, owed=[news]):
            return False
        game = await self.store.game(clock.game_id)
        if game is not None:
            await self.store.open_vote(
                clock.game_id,
                clock.seat,
                turn_since=clock.waiting_since,
                at=now,
                deadline=now + timedelta(seconds=game.reminder_seconds),
                owed=lambda vote_id: [stored(VoteNews(vote_id=vote_id))],
            )
        return True

    async def _seat(self, clock: ClockRecord) -> SeatRecord | None:
        seats = await self.store.seats(clock.game_id)
        return next((s for s in seats if s.seat == clock.seat), None)

    async def _prefs(self, user_id: int | None) -> NotificationPrefs | None:
        if user_id is None:
            return None
        return (await self.store.notification_prefs([user_id])).get(user_id)
