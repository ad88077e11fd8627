"""The delivery worker: sends what the table is owed (`service.outbox`) and records it.

The service stores each owed message with the change that owes it; the courier turns it
into a Discord message through the maker its feature registered for that kind, sends it
and marks it delivered. It runs right after a command acted (for that game) and on
every scheduler round (for all games; at start-up for everything still owed).

- Order: a game's messages go out in the order they were owed; one that waits for a
  retry holds back the later messages of its game (the private answers excepted: they
  go to the player, not the thread).
- Slow messages: the game-over post takes seconds to make (the score sheet, the replay
  of every turn, the record). A command that acted delivers what it owes `quick`ly,
  leaving a slow message (and the game's public messages after it) to a delivery in the
  background (`deliver_later`), which it starts once its player has their answer: the
  answer to a game's last action comes as fast as any other. Left, the message is still
  owed and stored; a crash before it went out leaves it to the next start-up.
- Little back and forth: the command that acted hands the courier the game as its
  change stored it (`Fresh`: record, seats, the state at its version, the seats it
  awaits, its owed rows), and the messages that change owed are made from it: no
  second read of the game, no second rebuild of the state for the turn post. The rows
  owed are still read, so an earlier message of the game still owed goes first; every
  other delivery (a retry, another process, after a restart) reads the store. A game's
  record and seats are read once per pass, not once per message.
- No doubles: a delivery is recorded as begun before it is sent, and every channel
  message carries a stable nonce (Discord drops a second create with the same nonce
  for a few minutes). A message whose earlier delivery began but was never marked is
  first looked for in the channel's recent history: the process may have died after
  Discord took it, and the nonce window may have passed since.
- Refusals: an archived thread is unarchived and tried again; a thread that is gone or
  closed to the bot gets the post in the game's channel with a link; anything else is
  tried again later with backoff, logged once with the game id.
- Several processes: a game's delivery is a duty claimed in the store
  (`deliver:<game>`, bot/service/duties.py), renewed before each message and released
  after; while another process holds it, this one leaves the game's messages to it,
  and a holder looks again after letting go, so a message owed meanwhile is not left
  waiting for the next round. Each message is marked delivered only while the claim
  is still held. A holder too slow for its lease may be overtaken and the message
  sent twice; the nonce and the look at the channel's history above make the second
  send find the first instead (at least once, checked). A private answer is left to
  the process whose command gives it (`Reply.answered_by`) until it is due, unless
  that process is gone.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any
from weakref import WeakValueDictionary

import aiohttp
import discord

from bot.service import GameInfo, GameService, Owed, ServiceError
from bot.service.duties import duty
from bot.service.outbox import Fresh
from bot.store import DutyClaim, OwedKind

log = logging.getLogger(__name__)

HISTORY_LIMIT = 50
ARCHIVED_THREAD = 50083
NO_MENTIONS = discord.AllowedMentions.none()
# the kinds of message that take seconds to make (see "Slow messages" above)
SLOW_KINDS: frozenset[OwedKind] = frozenset({"over"})


@dataclass(frozen=True)
class Attachment:
    """A file a message carries, with what it shows in words: its description, which
    Discord gives screen readers as the image's alt text."""

    name: str
    data: bytes
    description: str

    def discord_file(self) -> discord.File:
        return discord.File(
            io.BytesIO(self.data), filename=self.name, description=self.description or None
        )


@dataclass(frozen=True)
class Outgoing:
    """One message as a maker builds it: for the game's thread, or, with `followup`
    (application id and token), the follow-up of the interaction that caused it.
    `edit` is a message to edit in place instead of sending a new one."""

    content: str
    files: Sequence[Attachment] = ()
    view: discord.ui.View | None = None
    mentions: discord.AllowedMentions = NO_MENTIONS
    followup: tuple[int, str] | None = None
    edit: tuple[int, int] | None = None
    on_sent: Callable[[discord.Message], Awaitable[None]] | None = None

    def discord_files(self) -> list[discord.File]:
        return [file.discord_file() for file in self.files]


# builds the message for one owed row; None: it is obsolete, nothing to send
Maker = Callable[[Owed, GameInfo], Awaitable[Outgoing | None]]


@dataclass
class Delivery:
    """What one delivery pass did (the command that acted reads `failed`; `left`: slow
    messages a quick delivery left for later, see `Courier.deliver_later`)."""

    delivered: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)
    held: list[int] = field(default_factory=list)
    left: list[int] = field(default_factory=list)

    def merge(self, other: Delivery) -> None:
        self.delivered += other.delivered
        self.failed += other.failed
        self.held += other.held
        self.left += other.left


class Courier:
    def __init__(self, client: discord.Client, service: GameService[Any, Any]) -> None:
        self.client = client
        self.service = service
        # how each kind of owed message looks: a game's own maker (by its rules' name),
        # else the table's (None)
        self.makers: dict[tuple[str | None, OwedKind], Maker] = {}
        self._locks: WeakValueDictionary[int, asyncio.Lock] = WeakValueDictionary()
        # the deliveries running in the background (`deliver_later`), kept until done
        self._later: set[asyncio.Task[Delivery]] = set()

    def register(self, kind: OwedKind, maker: Maker, *, game: str | None = None) -> None:
        """A feature says how its owed messages look (in its `game`'s games only)."""
        self.makers[game, kind] = maker

    def maker(self, kind: OwedKind, info: GameInfo) -> Maker | None:
        """How this game's message of this kind looks: its game's, else the table's."""
        return self.makers.get((info.rules, kind)) or self.makers.get((None, kind))

    async def deliver_due(self, *, everything: bool = False, limit: int = 200) -> Delivery:
        """Deliver what is due in every game (with `everything`: all that is owed, as
        at start-up, when no command of this process is still answering)."""
        owed = await self.service.outbox.owed(everything=everything, limit=limit)
        report = Delivery()
        for game_id in dict.fromkeys(o.game_id for o in owed):
            report.merge(await self.deliver(game_id, everything=everything))
        return report

    async def deliver(
        self,
        game_id: int,
        *,
        everything: bool = False,
        quick: bool = False,
        fresh: Fresh[Any] | None = None,
    ) -> Delivery:
        """Deliver one game's owed messages in order; never raises for a refusal. Does
        nothing while another process delivers the game (that one sends them). With
        `quick`, a slow message and the game's public messages after it are left
        (`Delivery.left`) for `deliver_later`. `fresh`: the change the command just
        stored (its messages are made from it, without reading the game again)."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        duties = self.service.duties
        report = Delivery()
        async with lock:
            # claimed only when there is something to send (an act that owes only its
            # answer, given by the command, writes no claim); after a pass, look again
            # once the claim is free: another process may have owed messages meanwhile
            # and left them to the holder. A change just stored that owes a message due now
            # needs no look before the first pass: the pass reads what is owed anyway.
            now = self.service.now()
            known = fresh is not None and any(
                self._sendable(o, now, everything, quick) for o in fresh.owed
            )
            while known or await self._to_send(game_id, everything, quick, report):
                known = False
                claim = await duties.claim(duty("deliver", game_id))
                if claim is None:
                    break  # another process delivers this game (and looks again after)
                try:
                    held = await self._deliver_held(game_id, claim, everything, quick, fresh)
                    report.merge(held)
                finally:
                    await duties.release(claim)
                fresh = None  # only the first pass follows the change at once
        return report

    def deliver_later(self, game_id: int) -> None:
        """Deliver the game's owed messages in a background task (what a quick delivery
        left): whoever waits for an answer does not wait for them."""
        task = asyncio.create_task(self._deliver_later(game_id), name=f"mk-deliver-{game_id}")
        self._later.add(task)
        task.add_done_callback(self._later.discard)

    async def _deliver_later(self, game_id: int) -> Delivery:
        try:
            return await self.deliver(game_id)
        except Exception as exc:  # still owed: the scheduler's next round tries again
            log.warning("game %s: a delivery in the background failed: %s", game_id, exc)
            return Delivery()

    async def close(self) -> None:
        """Stop the deliveries in the background (what they did not send stays owed)."""
        for task in list(self._later):
            task.cancel()
        await asyncio.gather(*self._later, return_exceptions=True)

    async def _to_send(self, game_id: int, everything: bool, quick: bool, report: Delivery) -> bool:
        """Whether the game owes a message to send now that this delivery has not yet
        dealt with."""
        seen = {*report.delivered, *report.failed, *report.held}
        owed = await self.service.outbox.owed(game_id=game_id, everything=True)
        now = self.service.now()
        return any(o.id not in seen and self._sendable(o, now, everything, quick) for o in owed)

    def _sendable(self, item: Owed, now: datetime, everything: bool, quick: bool = False) -> bool:
        """Due now (with `quick`, unless slow to make); with `everything` (at start-up),
        any message but an answer a command gives itself, here or in another process
        that may still run."""
        if quick and item.payload.kind in SLOW_KINDS:
            return False
        if item.record.due_at <= now:
            return True
        answered_by = getattr(item.payload, "answered_by", None)
        return everything and not self.service.duties.may_be_running(answered_by)

    async def _deliver_held(
        self,
        game_id: int,
        claim: DutyClaim,
        everything: bool,
        quick: bool,
        fresh: Fresh[Any] | None = None,
    ) -> Delivery:
        report = Delivery()
        owed = await self.service.outbox.owed(game_id=game_id, everything=True)
        if fresh is not None:
            # what the change just stored owes is made from it (the rows, read here,
            # are the truth: any earlier message still owed goes first, from the store)
            owed = [replace(o, fresh=fresh) if fresh.made(o) else o for o in owed]
        now = self.service.now()
        sending: list[Owed] = []
        held = False
        for item in owed:
            private = item.payload.kind == "reply"
            due = self._sendable(item, now, everything, quick)
            if not due or (held and not private):
                held = held or not private
                report.held.append(item.id)
                if quick and item.payload.kind in SLOW_KINDS:
                    report.left.append(item.id)
                continue
            sending.append(item)
        if sending:
            await self.service.outbox.trying(sending)
        held = False
        # the game's record and seats, read once for the pass (not for every message)
        infos: dict[int, GameInfo] = {}
        for number, item in enumerate(sending):
            private = item.payload.kind == "reply"
            if held and not private:
                report.held.append(item.id)
                continue
            renewed = await self.service.duties.keep(claim)
            if renewed is None:  # overtaken (this process was too slow): the rest is theirs
                report.held += [i.id for i in sending[number:]]
                break
            claim = renewed
            if await self._deliver_one(item, claim, infos):
                report.delivered.append(item.id)
            else:
                report.failed.append(item.id)
                held = held or not private
        return report

    async def _deliver_one(self, item: Owed, claim: DutyClaim, infos: dict[int, GameInfo]) -> bool:
        try:
            info = item.fresh.info if item.fresh else infos.get(item.game_id)
            if info is None:
                info = infos[item.game_id] = await self.service.info(item.game_id)
            maker = self.maker(item.payload.kind, info)
            if maker is None:
                raise RuntimeError(f"no maker for {item.payload.kind} messages")
            outgoing = await maker(item, info)
            if outgoing is None:
                await self.service.outbox.delivered(item.id, claim=claim)
                return True
            message: discord.Message | None
            if outgoing.followup is not None:
                message = await self._followup(item, outgoing)
            else:
                message = await self._to_thread(item, info, outgoing)
        except (
            discord.HTTPException,
            aiohttp.ClientError,
            OSError,
            TimeoutError,
            ServiceError,
            RuntimeError,
            ValueError,
        ) as exc:
            # a dropped connection leaves it unknown whether Discord took the message:
            # the next try looks for it first (`Owed.maybe_sent`)
            attempts = await self.service.outbox.failed(item, f"{type(exc).__name__}: {exc}")
            if attempts == 1:
                log.warning(
                    "game %s: could not deliver its %s message (%s): %s; it will be tried again",
                    item.game_id,
                    item.payload.kind,
                    item.id,
                    exc,
                )
            return False
        if message is not None and outgoing.on_sent is not None:
            await outgoing.on_sent(message)
        # False if this process was overtaken meanwhile: the new holder finds the message
        # (nonce, history) and records it
        await self.service.outbox.delivered(
            item.id,
            channel_id=None if message is None else message.channel.id,
            message_id=None if message is None else message.id,
            claim=claim,
        )
        return True

    async def _followup(self, item: Owed, outgoing: Outgoing) -> discord.WebhookMessage | None:
        """The private answer, with the interaction's token while Discord accepts it."""
        expires = getattr(item.payload, "expires_at", None)
        if outgoing.followup is None or (expires and expires <= self.service.now()):
            return None  # Discord would no longer accept it
        application_id, token = outgoing.followup
        # the same webhook discord.py builds for `interaction.followup`
        webhook = discord.Webhook.from_state(
            data={"id": application_id, "type": 3, "token": token},
            state=self.client._connection,
        )
        try:
            return await webhook.send(
                outgoing.content,
                ephemeral=True,
                wait=True,
                allowed_mentions=outgoing.mentions,
                files=outgoing.discord_files(),
            )
        except discord.NotFound:  # the token expired or the interaction is gone
            return None

    async def _to_thread(
        self, item: Owed, info: GameInfo, outgoing: Outgoing
    ) -> discord.Message | None:
        thread = await self.channel(info.thread_id or info.channel_id)
        if thread is None:
            return await self._to_channel(item, info, outgoing)
        try:
            return await self._post(item, thread, outgoing)
        except discord.HTTPException as exc:
            if exc.code == ARCHIVED_THREAD and isinstance(thread, discord.Thread):
                try:
                    await thread.edit(archived=False)
                except discord.HTTPException:
                    return await self._to_channel(item, info, outgoing)
                return await self._post(item, thread, outgoing)
            if isinstance(exc, discord.Forbidden | discord.NotFound):
                return await self._to_channel(item, info, outgoing)
            raise

    async def _to_channel(
        self, item: Owed, info: GameInfo, outgoing: Outgoing
    ) -> discord.Message | None:
        """The thread refused the post for good: the game's channel gets it, with a link
        to the thread."""
        if info.thread_id is None or info.channel_id in (None, info.thread_id):
            raise ServiceError(f"game {info.id} has no channel that accepts its posts")
        channel = await self.channel(info.channel_id)
        if channel is None:
            raise ServiceError(f"game {info.id}: its channel {info.channel_id} is gone")
        moved = Outgoing(
            content=f"{outgoing.content}\n-# Game #{info.id} · <#{info.thread_id}>"[:2000],
            files=outgoing.files,
            view=outgoing.view,
            mentions=outgoing.mentions,
            edit=outgoing.edit,
            on_sent=outgoing.on_sent,
        )
        return await self._post(item, channel, moved)

    async def _post(
        self, item: Owed, channel: discord.abc.Messageable, outgoing: Outgoing
    ) -> discord.Message | None:
        if outgoing.edit is not None:
            edited = await self._edit(channel, outgoing)
            if edited is not None:
                return edited
        if item.maybe_sent:
            earlier = await self._sent_before(item, channel, outgoing.content)
            if earlier is not None:
                return earlier
        kwargs: dict[str, Any] = {}
        if outgoing.view is not None:
            kwargs["view"] = outgoing.view
        return await channel.send(
            outgoing.content,
            files=outgoing.discord_files(),
            allowed_mentions=outgoing.mentions,
            nonce=item.nonce,
            **kwargs,
        )

    async def _edit(
        self, channel: discord.abc.Messageable, outgoing: Outgoing
    ) -> discord.Message | None:
        assert outgoing.edit is not None
        _, message_id = outgoing.edit
        if not isinstance(channel, discord.Thread | discord.TextChannel):
            return None
        try:
            return await channel.get_partial_message(message_id).edit(
                content=outgoing.content, view=outgoing.view, allowed_mentions=outgoing.mentions
            )
        except discord.NotFound:
            return None

    async def _sent_before(
        self, item: Owed, channel: discord.abc.Messageable, content: str
    ) -> discord.Message | None:
        """A message of ours with this content among the channel's messages since the
        game's last delivered one there (sent by a process that died before it could
        mark it delivered). Snowflakes grow with time, so an identical older message
        (the same ping a turn earlier) is never taken for it."""
        me = self.client.user
        channel_id = getattr(channel, "id", None)
        last = None
        if isinstance(channel_id, int):
            last = await self.service.outbox.last_message(item.game_id, channel_id)
        after = discord.Object(last) if last is not None else None
        async for message in channel.history(limit=HISTORY_LIMIT, after=after):
            if me is not None and message.author.id == me.id and message.content == content:
                return message
        return None

    async def channel(self, channel_id: int | None) -> discord.abc.Messageable | None:
        """A channel or thread we can post in, from the cache or Discord; None if it is
        gone or closed to the bot."""
        if channel_id is None:
            return None
        channel = self.client.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.client.fetch_channel(channel_id)
            except (discord.NotFound, discord.Forbidden):
                return None
        return channel if isinstance(channel, discord.abc.Messageable) else None
