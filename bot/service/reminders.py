"""When to remind a player: after the game's interval, moved out of their quiet hours.

>>> from datetime import UTC, datetime, timedelta
>>> from bot.store import NotificationPrefs
>>> night = NotificationPrefs(1, quiet_start=22 * 60, quiet_end=7 * 60)
>>> next_reminder(datetime(2026, 1, 5, 20, 0, tzinfo=UTC), timedelta(hours=3), night)
datetime.datetime(2026, 1, 6, 7, 0, tzinfo=datetime.timezone.utc)
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.store import NotificationPrefs

MINUTES_PER_DAY = 24 * 60


def next_reminder(
    after: datetime, interval: timedelta, prefs: NotificationPrefs | None
) -> datetime:
    """`after + interval`, or the end of the quiet hours it falls in (in UTC)."""
    due = (after + interval).astimezone(UTC)
    if prefs is None or prefs.quiet_start is None or prefs.quiet_end is None:
        return due
    start, end = prefs.quiet_start, prefs.quiet_end
    if start == end:
        return due
    local = due.astimezone(zone(prefs.timezone))
    minute = local.hour * 60 + local.minute
    # minutes since the quiet window opened, and its length (it may wrap past midnight)
    into = (minute - start) % MINUTES_PER_DAY
    length = (end - start) % MINUTES_PER_DAY
    if into >= length:
        return due
    wake = local.replace(second=0, microsecond=0) + timedelta(minutes=length - into)
    # adding minutes to a local time can land on a skipped or repeated hour (DST);
    # going through UTC keeps the result a real instant
    return wake.astimezone(UTC)


def zone(name: str) -> ZoneInfo:
    """The time zone named (UTC if it is unknown, so a bad setting never blocks)."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def is_time_zone(name: str) -> bool:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True
