"""The messages the table owes, for the delivery worker: read them, and record what
Discord made of each (delivered, or refused and tried again later with backoff); and
what a change this process has just stored hands to the delivery that follows it
(`Fresh`)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Generic

from pydantic import ValidationError

from bot.service.owed import OwedPayload, read_payload
from bot.service.protocol import S
from bot.service.results import GameInfo
from bot.store import DutyClaim, OwedMessage, Store

log = logging.getLogger(__name__)

FIRST_RETRY = timedelta(seconds=30)
LONGEST_RETRY = timedelta(hours=1)


@dataclass(frozen=True, slots=True)
class Owed:
    """One owed message: its stored row and its payload; `fresh` when the change that
    owed it was stored by this process just now, for the delivery that follows it."""

    record: OwedMessage
    payload: OwedPayload
    fresh: Fresh[Any] | None = None

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def game_id(self) -> int:
        return self.record.game_id

    @property
    def maybe_sent(self) -> bool:
        """An earlier delivery began and was not marked: it may have reached Discord."""
        return self.record.tried_at is not None

    @property
    def nonce(self) -> str:
        """Stable for this message (Discord drops a second create with the same nonce
        for a few minutes, so a resend after a crash does not show twice)."""
        return f"mk-{self.record.id}"


@dataclass(frozen=True, slots=True)
class Fresh(Generic[S]):
    """A change as this process has just stored it, handed by the command that made it
    to the delivery that follows at once: the game's record and seats as that change's
    transaction left them (`info`), the state at its version `seq` (a version's state
    never changes: it is the one the log rebuilds), the (seat, user) pairs of the
    people the game awaits after it, and the messages it made owed (`owed`, as stored).
    The courier makes those messages from it instead of reading the game again and
    rebuilding the state; every other delivery of them (a retry, another process, after
    a restart) reads the store."""

    info: GameInfo
    seq: int
    state: S
    awaited: frozenset[tuple[int, int]]
    owed: tuple[Owed, ...]

    def made(self, item: Owed) -> bool:
        """Whether this change made the owed message `item` (of the same game)."""
        return item.game_id == self.info.id and any(o.id == item.id for o in self.owed)


def retry_delay(attempts: int) -> timedelta:
    """Backoff after `attempts` failed tries: 30 s, 1 min, 2 min, ... up to an hour.

    >>> [int(retry_delay(n).total_seconds()) for n in (1, 2, 3, 9)]
    [30, 60, 120, 3600]
    """
    delay: timedelta = FIRST_RETRY * 2 ** min(max(0, attempts - 1), 20)
    return min(delay, LONGEST_RETRY)


class Outbox:
    """`service.outbox`: what is owed, and what became of it."""

    def __init__(self, store: Store, clock: Callable[[], datetime]) -> None:
        self.store = store
        self._clock = clock

    async def owed(
        self, *, game_id: int | None = None, everything: bool = False, limit: int = 100
    ) -> list[Owed]:
        """Undelivered messages that are due (with `everything`, due or not: at
        start-up nobody else will send them), oldest first. A damaged payload is
        logged once and set aside, never retried."""
        rows = await self.store.owed_messages(
            None if everything else self._clock(), game_id=game_id, limit=limit
        )
        out = []
        for row in rows:
            try:
                out.append(Owed(row, read_payload(row.payload)))
            except ValidationError as exc:
                log.error("game %s: owed message %s is damaged: %s", row.game_id, row.id, exc)
                await self.store.mark_delivered(row.id, at=self._clock())
        return out

    async def delivered(
        self,
        owed_id: int,
        *,
        channel_id: int | None = None,
        message_id: int | None = None,
        claim: DutyClaim | None = None,
    ) -> bool:
        """Discord accepted it (or it is no longer worth sending); False if another
        delivery already recorded it, or (with the delivery's `claim`) if another
        process took the delivery over and records it itself."""
        return await self.store.mark_delivered(
            owed_id, at=self._clock(), channel_id=channel_id, message_id=message_id, claim=claim
        )

    async def last_message(self, game_id: int, channel_id: int) -> int | None:
        """The newest message a delivered message of this game became in the channel."""
        return await self.store.last_delivered_message(game_id, channel_id)

    async def trying(self, owed: list[Owed]) -> None:
        """A delivery of these begins: from now on a resend first looks for them."""
        await self.store.mark_tried([o.id for o in owed], at=self._clock())

    async def failed(self, owed: Owed, error: str) -> int:
        """Discord refused it: try again later. Returns the failed attempts so far."""
        attempts = owed.record.attempts + 1
        return await self.store.mark_failed(
            owed.id, error=error, retry_at=self._clock() + retry_delay(attempts)
        )
