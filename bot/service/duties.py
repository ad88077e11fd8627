"""Duties claimed in the store, so that of several bot processes sharing one database
(shards, or the old and the new process of a rolling restart) exactly one does each
duty of the scheduler.

Every process has an id made when it starts (`process_id`: host, pid and a random
part). Before a duty is done it is claimed (`Store.claim_duty`): one conditional write
that only one process wins, holding the duty until its lease runs out. The winner does
the duty, marks it done conditional on still holding the claim, and releases it. A
process that crashes keeps its claims until their leases run out; then any process
takes the duties over. On the machine of the crashed process that happens at once: a
claim whose holder is a process of this machine that no longer runs is released by the
next scheduler round (`Duties.reap`), so a bot restarted after a crash does what the
dead one left at its very first round.

Taking a duty over after a lease ran out means the duty may be done twice (the first
holder was slow, not dead). Each kind of duty says why that is harmless, in the module
that does it: the courier (owed messages carry a nonce and are looked for in the
channel before a resend), the scheduler (reminders carry a nonce; pruning deletes what
is already deleted) and the service (an AI move is appended only at the log's next
seq, a vote closes only while open, a digest is moved on only while due).
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import socket
from collections.abc import AsyncIterator, Callable
from datetime import datetime, timedelta
from functools import cache
from pathlib import Path

from bot.store import RESTING, DutyClaim, Store

# how long a claim holds when its holder says nothing more (a delivery renews it as it
# goes): a crashed process's duties wait this long on another machine
LEASE = timedelta(minutes=1)
# leases that ran out this long ago are forgotten by the pruning duty
FORGET_AFTER = timedelta(days=1)


def process_id() -> str:
    """A new id for this process: `<host>:<pid>:<random>`. The host part also names
    the PID namespace on Linux, so that two containers sharing a host name never take
    each other's processes for their own."""
    return f"{_place()}:{os.getpid()}:{secrets.token_hex(4)}"


@cache
def _place() -> str:
    """This machine (and PID namespace): where a pid means one process."""
    host = re.sub(r"[^A-Za-z0-9.-]", "-", socket.gethostname()) or "localhost"
    with contextlib.suppress(OSError):
        namespace = os.readlink("/proc/self/ns/pid")  # "pid:[4026531836]"
        digits = re.sub(r"\D", "", namespace)
        if digits:
            return f"{host}~{digits}"
    return host


def is_gone(owner: str) -> bool:
    """Whether `owner` is a process of this machine that no longer runs (a zombie
    counts as gone). False for a process elsewhere: only its lease tells."""
    # "<place>:<pid>:<random>"
    place, _, pid_text = owner.rpartition(":")[0].rpartition(":")
    if place != _place() or not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return False  # this process: another service of it (tests run several)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False  # a process of another user holds that pid
    stat = Path(f"/proc/{pid}/stat")
    with contextlib.suppress(OSError, IndexError):
        # the state follows the command name in parentheses: "Z" is a zombie
        return stat.read_text().rsplit(")", 1)[1].split()[0] == "Z"
    return False


def duty(kind: str, *ids: int) -> str:
    """A duty's key, e.g. `duty("deliver", 12)` is "deliver:12"."""
    return ":".join([kind, *map(str, ids)])


class Duties:
    """`service.duties`: claim, renew and release duties as the process `owner` (by
    default a new `process_id`)."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], datetime],
        *,
        owner: str | None = None,
        lease: timedelta = LEASE,
    ) -> None:
        self.store = store
        self._clock = clock
        self.owner = owner or process_id()
        self.lease = lease

    async def claim(self, key: str, *, lease: timedelta | None = None) -> DutyClaim | None:
        """The duty, claimed for this process (a renewal if it already holds it);
        None if another process holds it or it rests."""
        now = self._clock()
        until = now + (lease or self.lease)
        return await self.store.claim_duty(key, self.owner, now=now, until=until)

    async def keep(self, claim: DutyClaim) -> DutyClaim | None:
        """The claim, renewed if less than half of its lease is left (one write then,
        none otherwise); None if another process took it over."""
        if claim.until - self._clock() > self.lease / 2:
            return claim
        return await self.claim(claim.duty)

    async def release(self, claim: DutyClaim, *, rest: timedelta | None = None) -> None:
        """Give the duty up; with `rest`, nobody may claim it for that long (a periodic
        duty done)."""
        until = None if rest is None else self._clock() + rest
        await self.store.release_duty(claim, rest_until=until)

    @contextlib.asynccontextmanager
    async def holding(self, key: str) -> AsyncIterator[DutyClaim | None]:
        """The duty claimed for the block (None: another process has it), released
        after it, even when the block fails."""
        claim = await self.claim(key)
        try:
            yield claim
        finally:
            if claim is not None:
                await self.release(claim)

    def may_be_running(self, owner: str | None) -> bool:
        """Whether the process `owner` may still be at work: False for nobody (None)
        and for a process of this machine that no longer runs."""
        return owner is not None and not is_gone(owner)

    async def reap(self) -> int:
        """Release the claims held by processes of this machine that no longer run (a
        crash, a kill), so their duties are done now rather than when the leases run
        out. Returns how many were released."""
        released = 0
        for claim in await self.store.duty_claims(self._clock()):
            if claim.owner != RESTING and claim.owner != self.owner and is_gone(claim.owner):
                released += await self.store.release_duty(claim)
        return released

    async def forget_old(self) -> int:
        """Forget claims whose lease ran out long ago (a crashed holder's)."""
        return await self.store.prune_duty_claims(self._clock() - FORGET_AFTER)
