"""Reminders, notification preferences and the messages the bot edits later.

The reminder schedule has one row per seat a game awaits; the service rewrites it in
the same transaction as each action that changes whom the game awaits, and the bot's
reminder loop reads and advances it through `Notifications`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from bot.i18n.catalogue import N_
from bot.service.arguments import ABSENT, check_arguments
from bot.service.errors import GameNotFoundError, InvalidSettingError, NotYourTurnError, echo
from bot.service.reminders import MINUTES_PER_DAY, is_time_zone, next_reminder
from bot.service.results import DueReminder
from bot.service.seats import label, seat_of_controller
from bot.store import (
    DutyClaim,
    GameRecord,
    NotificationPrefs,
    ReminderRecord,
    SeatRecord,
    Store,
)

# how long a user's language is trusted without asking the store again (another bot
# process may have stored a newer one)
LANGUAGE_MEMORY = timedelta(minutes=10)


class Notifications:
    """The bot's reminder loop and settings commands call this (`service.notifications`)."""

    def __init__(self, store: Store, clock: Callable[[], datetime]) -> None:
        self.store = store
        self._clock = clock
        # user -> (language, when it was last known to be stored, by the clock)
        self._languages: dict[int, tuple[str, datetime]] = {}

    async def remember_language(self, user_id: int, language: str) -> bool:
        """Keep the language of the user's latest interaction with their preferences
        (their direct messages are written in it). Written only when it changed, so
        most interactions cost no write; whether it was written."""
        known = self._languages.get(user_id)
        now = self._clock()
        if known is not None and known[0] == language and now - known[1] < LANGUAGE_MEMORY:
            return False
        stored = (await self.store.notification_prefs([user_id])).get(user_id)
        changed = stored is None or stored.language != language
        if changed:
            await self.store.put_language(user_id, language)
        self._languages[user_id] = (language, now)
        return changed

    async def due_reminders(
        self, *, now: datetime | None = None, limit: int = 100
    ) -> list[DueReminder]:
        """Reminders to send now (muted seats are skipped), the most overdue first."""
        out = []
        for r in await self.store.due_reminders(now or self._clock(), limit=limit):
            game = await self.store.game(r.game_id)
            seats = await self.store.seats(r.game_id)
            seat = next((s for s in seats if s.seat == r.seat), None)
            if game is None or seat is None:
                continue
            user = seat.controller_id
            prefs = await self.store.notification_prefs([] if user is None else [user])
            out.append(
                DueReminder(
                    game_id=r.game_id,
                    seat=r.seat,
                    label=label(seat),
                    user_id=user,
                    thread_id=game.thread_id,
                    channel_id=game.channel_id,
                    since=r.waiting_since,
                    missed=r.missed,
                    dm_opt_in=user is not None and user in prefs and prefs[user].dm_opt_in,
                    language=prefs[user].language if user is not None and user in prefs else None,
                )
            )
        return out

    async def still_due(self, due: DueReminder) -> bool:
        """Whether the reminder is still owed as it was listed (a process that claimed
        it after another one sent it finds it counted and moved on)."""
        now = self._clock()
        return any(
            r.seat == due.seat
            and r.waiting_since == due.since
            and r.missed == due.missed
            and r.next_at <= now
            and not r.muted_for_turn
            for r in await self.store.reminders(due.game_id)
        )

    async def reminder_sent(
        self, game_id: int, seat: int, *, claim: DutyClaim | None = None
    ) -> datetime | None:
        """Count a reminder as sent and schedule the next one; None if the seat is no
        longer awaited (or, with `claim`, if this process no longer holds the duty)."""
        game = await self.store.game(game_id)
        if game is None:
            raise GameNotFoundError(game_id)
        current = next((r for r in await self.store.reminders(game_id) if r.seat == seat), None)
        if current is None:
            return None
        seats = await self.store.seats(game_id)
        user = next((s.controller_id for s in seats if s.seat == seat), None)
        prefs = await self.store.notification_prefs([] if user is None else [user])
        interval = timedelta(seconds=game.reminder_seconds)
        nxt = next_reminder(self._clock(), interval, None if user is None else prefs.get(user))
        updated = replace(current, next_at=nxt, missed=current.missed + 1)
        return nxt if await self.store.put_reminder(updated, claim=claim) else None

    async def mute_turn(self, game_id: int, user_id: int, *, turn: int | None = None) -> None:
        """No more reminders to this user until the game awaits them anew. `turn` (a
        reminder's button carries it: `turn_version`) refuses a reminder of an earlier
        turn."""
        seat = seat_of_controller(await self.store.seats(game_id), user_id)
        current = next(
            (r for r in await self.store.reminders(game_id) if r.seat == seat.seat), None
        )
        if current is not None and turn is not None and turn_version(current) != turn:
            raise NotYourTurnError(N_("That reminder is from an earlier turn: nothing to mute."))
        if current is None or not await self.store.put_reminder(
            replace(current, muted_for_turn=True)
        ):
            raise NotYourTurnError(N_("It is not your turn, so there is nothing to mute."))

    async def prefs(self, user_id: int) -> NotificationPrefs:
        """The user's settings (the defaults if they never chose any)."""
        stored = await self.store.notification_prefs([user_id])
        return stored.get(user_id, NotificationPrefs(user_id))

    async def heads_up(self, user_id: int) -> bool:
        """Whether the user wants the "you're next" DM (bot/service/heads_up.py)."""
        check_arguments(ABSENT, user_id)
        return await self.store.heads_up(user_id)

    async def set_heads_up(self, user_id: int, on: bool) -> None:
        check_arguments(ABSENT, user_id)
        await self.store.set_heads_up(user_id, on, at=self._clock())

    async def set_prefs(self, prefs: NotificationPrefs) -> None:
        """DM opt-in, quiet hours (minutes after local midnight) and time zone."""
        for minute in (prefs.quiet_start, prefs.quiet_end):
            if minute is not None and not 0 <= minute < MINUTES_PER_DAY:
                raise InvalidSettingError(
                    N_("Quiet hours are times of day between 00:00 and 23:59.")
                )
        if (prefs.quiet_start is None) != (prefs.quiet_end is None):
            raise InvalidSettingError(N_("Give both ends of your quiet hours, or neither."))
        if not is_time_zone(prefs.timezone):
            raise InvalidSettingError(
                N_("Unknown time zone {timezone} (try e.g. Europe/Warsaw)."),
                timezone=echo(prefs.timezone),
            )
        await self.store.put_notification_prefs(prefs)


def turn_version(reminder: ReminderRecord) -> int:
    """Which turn a reminder is about: when the game began to await it, in
    milliseconds (a reminder's Mute button carries it)."""
    return int(reminder.waiting_since.timestamp() * 1000)


async def waiting_rows(
    store: Store,
    game: GameRecord,
    seats: Sequence[SeatRecord],
    to_act: Sequence[int],
    new: Sequence[int],
    now: datetime,
) -> list[ReminderRecord]:
    """Schedule rows for the seats now awaited. Only the rows of newly awaited seats
    are written (the store keeps the rows of seats awaited all along), so only their
    players' quiet hours are looked up. A seat the AI plays is due at once: its row is
    the scheduler's owed move."""
    machine = {s.seat for s in seats if s.machine_played}
    controllers = {s.seat: s.controller_id for s in seats}
    users = [u for s in new if (u := controllers.get(s)) is not None]
    prefs = await store.notification_prefs(users) if users else {}
    interval = timedelta(seconds=game.reminder_seconds)
    rows = []
    for seat in to_act:
        user = controllers.get(seat)
        at = now
        if seat not in machine:
            at = next_reminder(now, interval, None if user is None else prefs.get(user))
        rows.append(ReminderRecord(game.id, seat, now, at))
    return rows
