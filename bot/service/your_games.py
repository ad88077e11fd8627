"""A player's games as `/mk games` lists them, and their daily digest: when it is due,
and the digests due now (`service.your_games`, a part of the service).

The list puts the games where it is the player's move first (the longest waiting
first), then their other running games, then open lobbies, then the last finished ones.
The digest is due once a day at `DIGEST_HOUR` in the player's time zone (moved out of
their quiet hours), never sooner than `DIGEST_GAP` after the last one.

>>> from datetime import UTC, datetime
>>> from bot.store import NotificationPrefs
>>> now = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
>>> next_digest(now, NotificationPrefs(1, timezone="Europe/Warsaw"), None)
datetime.datetime(2026, 3, 3, 8, 0, tzinfo=datetime.timezone.utc)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any, Generic

from bot.service.arguments import ABSENT, check_arguments
from bot.service.duties import Duties, duty
from bot.service.notifications import Notifications
from bot.service.protocol import A, GameRules, S
from bot.service.reminders import next_reminder, zone
from bot.service.results import Digest, YourGame
from bot.service.seats import RUNNING, game_info
from bot.service.shelf import Shelf, shelf_of
from bot.store import GAME_STATUSES, NotificationPrefs, Store
from bot.store.records import DigestRecord

# the local hour the digest goes out, and the least time between two digests (a
# change of time zone must not bring a second one the same day)
DIGEST_HOUR = 9
DIGEST_GAP = timedelta(hours=20)
# finished games `/mk games` still shows, the most recent first
FINISHED_SHOWN = 3


def next_digest(now: datetime, prefs: NotificationPrefs, sent_at: datetime | None) -> datetime:
    """When the next digest is due (in UTC): the next `DIGEST_HOUR` o'clock in the
    player's time zone after now and at least `DIGEST_GAP` after the last one sent,
    moved to the end of their quiet hours if it falls inside them."""
    start = now if sent_at is None else max(now, sent_at + DIGEST_GAP)
    local = start.astimezone(zone(prefs.timezone))
    due = local.replace(hour=DIGEST_HOUR, minute=0, second=0, microsecond=0)
    if due <= local:
        # local wall-clock arithmetic: the same hour tomorrow, even across a DST change
        due = (local + timedelta(days=1)).replace(
            hour=DIGEST_HOUR, minute=0, second=0, microsecond=0
        )
    return next_reminder(due.astimezone(UTC), timedelta(0), prefs)


def listing_order(game: YourGame) -> tuple[int, float]:
    """Where a game goes in `/mk games`: your move (longest waiting first), your other
    running games (longest waiting first), open lobbies (oldest first), then finished
    games (most recent first)."""
    info = game.game
    if game.your_move:
        return 0, (game.since or info.created_at).timestamp()
    if info.status == "active":
        return 1, (game.since or info.updated_at).timestamp()
    if info.status == "open":
        return 2, info.created_at.timestamp()
    return 3, -info.updated_at.timestamp()


class YourGames(Generic[S, A]):
    """`service.your_games`: a player's games as `/mk games` lists them, their daily
    digest's setting, and the digests due now."""

    def __init__(
        self,
        store: Store,
        rules: GameRules[S, A] | Shelf[S, A, Any],
        clock: Callable[[], datetime],
        notifications: Notifications,
        duties: Duties,
    ) -> None:
        self.store = store
        self.games = shelf_of(rules)
        self._clock = clock
        self._notifications = notifications
        self._duties = duties

    async def listing(
        self, user_id: int, *, guild_id: int | None = None, finished: int = FINISHED_SHOWN
    ) -> list[YourGame]:
        """The user's games (in one server with `guild_id`): the ones where it is their
        move first, the longest waiting first; then their other running games, the
        lobbies they joined, and the last `finished` ended games, the newest first."""
        check_arguments(ABSENT, user_id, optional=(guild_id,))
        games = [
            g
            for g in await self.store.games_of_user(user_id, GAME_STATUSES)
            if self.games.has(g.rules) and (guild_id is None or g.guild_id == guild_id)
        ]
        running = [g for g in games if g.status in RUNNING]
        ended = sorted(
            (g for g in games if g.status not in RUNNING), key=lambda g: g.updated_at, reverse=True
        )
        out = []
        for game in running + ended[: max(0, finished)]:
            info = game_info(self.games, game, await self.store.seats(game.id))
            seat = info.seat_of(user_id) or next(
                (s for s in info.seats if s.user_id == user_id), None
            )
            if seat is None:
                continue
            rows = await self.store.reminders(game.id) if game.status == "active" else []
            by_seat = {s.seat: s for s in info.seats}
            awaited = tuple(by_seat[r.seat] for r in rows if r.seat in by_seat)
            mine = next((r for r in rows if r.seat == seat.seat), None)
            your_move = (
                mine is not None and seat.controller_id == user_id and not seat.machine_played
            )
            since = min((r.waiting_since for r in rows), default=None)
            if your_move and mine is not None:
                since = mine.waiting_since
            out.append(YourGame(info, seat, awaited, since, your_move))
        return sorted(out, key=listing_order)

    async def set_digest(self, user_id: int, on: bool | None = None) -> datetime | None:
        """Turn the user's daily digest on or off (None: leave it as it is, scheduled
        anew for their time zone and quiet hours as they are now). Returns when the next
        one is due (None: it is off)."""
        check_arguments(ABSENT, user_id)
        stored = await self.store.digest(user_id)
        current = stored or DigestRecord(user_id)
        if on is None:
            on = current.due_at is not None
        if not on and stored is None:
            return None
        due = None
        if on:
            prefs = await self._notifications.prefs(user_id)
            due = next_digest(self._clock(), prefs, current.sent_at)
        await self.store.put_digest(replace(current, due_at=due))
        return due

    async def claim_digests(self, *, limit: int = 100) -> list[Digest]:
        """The daily digests to send now. Each is claimed before it is returned (its
        next one scheduled, this one recorded as sent), so no restart and no second
        process sends a player two the same day; a send that fails is not tried again
        that day (at most once: a crash between this claim and the DM loses that day's
        digest, never doubles it). A player no game awaits gets none (and is asked
        again tomorrow). Cheap when nothing is due: one index lookup.

        Each digest is a duty (`digest:<user>`) while its games are looked up, so two
        processes do not both gather it; the store's claim, conditional on the digest
        still being due at `due_at`, is what only one of them can win."""
        now = self._clock()
        out = []
        for row in await self.store.due_digests(now, limit=limit):
            if row.due_at is None:
                continue
            async with self._duties.holding(duty("digest", row.user_id)) as held:
                if held is None:
                    continue
                digest = await self._claim_digest(row, now)
            if digest is not None:
                out.append(digest)
        return out

    async def _claim_digest(self, row: DigestRecord, now: datetime) -> Digest | None:
        assert row.due_at is not None
        games = tuple(g for g in await self.listing(row.user_id, finished=0) if g.your_move)
        sent = now if games else None
        prefs = await self._notifications.prefs(row.user_id)
        next_at = next_digest(now, prefs, sent or row.sent_at)
        claimed = await self.store.claim_digest(
            row.user_id, due_at=row.due_at, next_at=next_at, sent_at=sent
        )
        return Digest(row.user_id, games, prefs.language) if claimed and games else None
