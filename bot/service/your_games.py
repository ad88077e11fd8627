"""A player's games as `/mk games` lists them, and when their daily digest is due.

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

from datetime import UTC, datetime, timedelta

from bot.service.reminders import next_reminder, zone
from bot.service.results import YourGame
from bot.store import NotificationPrefs

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
