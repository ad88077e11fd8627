"""Every timed duty of the table, in one cog that owns its task.

A round, in this order, each duty with its own query and limit so no kind of row
crowds out another:
1. owed messages (turn posts, pings, answers, seat news, votes) that are due;
2. reminders to the people the games wait for (by DM if they opted in, else in the
   thread), and the table's vote once someone has missed enough of them;
3. votes whose deadline passed (or whose turn is over); then the aways whose day has
   come (`/mk away`: each game hears the player is back; a game that began while they
   were away hears that they are away), and the turn clocks: each set
   for its turn, its one reminder, its zero (the vote, or the AI plays that turn);
4. one AI action for every seat the AI owes a move (AI seats, autopilot, skipped
   turns, seats nobody holds), then that game's owed messages;
5. forgetting stored interaction answers older than a day (hourly);
6. the daily digest DMs that are due ("your move in 3 games"), each claimed in the
   store before it is sent: at most one a day per player, across restarts.
7. a scheduled backup of the database when one is due (settings BACKUP_DIR,
   BACKUP_HOURS, BACKUP_KEEP; none without BACKUP_DIR);
8. rating the games that ended since the last round (OpenSkill, per server:
   bot/service/community.py), so the leaderboard reads a table kept up to date;
9. tidying servers (bot/service/tidy.py): idle games warned, then ended as abandoned,
   lobbies never started closed, each with its post;
10. the "you're next" heads-up DMs (bot/service/heads_up.py), each turn marked looked
   at before its DM is sent: at most one a turn, across restarts.

At start-up a background task also checks a random sample of the stored games (a
whole-log replay each) and logs any broken one, without delaying the first round.

The first round runs at start-up and delivers everything still owed. After that a
round runs every `poll` seconds, at once when a command sets `bot.duties_due`, and
again right away while AI seats still owe moves.

Several bot processes may share the database (shards, a rolling restart), each with
this scheduler: every duty is claimed in the store before it is done
(bot/service/duties.py), so exactly one process does it, and a round first releases
the claims of this machine's processes that died. Where a slow holder can be
overtaken once its lease ran out, the duty is one that may be done twice harmlessly:

| duty | claimed as | done twice? |
|---|---|---|
| owed messages | `deliver:<game>` | found by nonce and history, not sent again (courier) |
| reminders | `remind:<game>:<seat>` | the same nonce: Discord keeps the first |
| vote deadlines | `vote:<id>` | no: a vote closes only while open |
| aways ending | `away:<user>` | no: the away's row is deleted by the write that ends it |
| turn clocks | `clock:<game>:<seat>` | no: each step moves the clock only from where it stood |
| AI moves | `move:<game>` | no: appended only at the log's next seq |
| pruning | `prune`, then resting an hour | deletes what is already deleted |
| digests | `digest:<user>` | no: claimed while due, before the DM (at most once) |
| backups | `backup`, then resting `BACKUP_HOURS` | a second copy, in a new file |
| ratings | `ratings` | no: a game is marked rated in the write that rates it |
| idle games | `idle:<game>` | no: warned or ended only as the sweep read it |
| stale lobbies | `lobby:<game>` | no: closed only while open |
| heads-ups | `heads-up:<game>:<seat>` | no: the turn is marked looked at before the DM |
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import ClassVar

import discord
from discord.ext import commands

from bot.buttons import GameButton, view_of
from bot.client import MountainBot, game_language
from bot.i18n.catalogue import translator_for
from bot.maintenance import backup_if_due, check_sample
from bot.reminders import MUTE, MuteButton, VoteButton, vote_message
from bot.service import DueReminder
from bot.service.duties import duty
from bot.service.heads_up import HeadsUp
from bot.store import StoreError
from bot.texts import NO_MENTIONS, digest_text, mention_only, reminder_text
from bot.tidy_texts import heads_up_text

log = logging.getLogger("bot.scheduler")

PRUNE_EVERY = timedelta(hours=1)
# how often the scheduler looks whether a backup is due
BACKUP_LOOK_EVERY = timedelta(minutes=1)
# a backup of a large database takes a while: nobody else starts one meanwhile
BACKUP_LEASE = timedelta(hours=1)
MOVES_PER_ROUND = 200


@dataclass
class Round:
    """What one round did."""

    delivered: int = 0
    reminded: int = 0
    votes_closed: int = 0
    aways_ended: int = 0
    clocks: int = 0
    moves: int = 0
    pruned: int = 0
    digests: int = 0
    backups: int = 0
    rated: int = 0
    tidied: int = 0
    heads_ups: int = 0


class Scheduler(commands.Cog):
    """The table's timed duties (no task at all with `poll` 0: tests run rounds), and
    what they put in front of the players (`bot.reminders`): the reminders' Mute
    button, the vote's ballots and the vote's message, which work while the cog is
    loaded."""

    buttons: ClassVar[tuple[type[GameButton], ...]] = (MuteButton, VoteButton)

    def __init__(self, bot: MountainBot, *, poll: float = 60.0) -> None:
        self.bot = bot
        self.poll = poll
        self._task: asyncio.Task[None] | None = None
        # when this process last pruned and looked for a due backup (the service's
        # clock: never the machine's uptime)
        self._pruned_at: datetime | None = None
        self._backup_looked_at: datetime | None = None
        self._sample_task: asyncio.Task[None] | None = None
        service = bot.service
        self.heads_up = HeadsUp(service.store, service.games, service.now, service.duties)

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*self.buttons)
        self.bot.courier.register("vote", partial(vote_message, self.bot))
        if self.poll > 0:
            self._task = asyncio.create_task(self._run(), name="mk-scheduler")

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*self.buttons)
        if self._task is not None:
            self._task.cancel()
            with suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._sample_task is not None:
            self._sample_task.cancel()
            with suppress(asyncio.CancelledError):
                await self._sample_task
            self._sample_task = None

    async def round(self, *, startup: bool = False) -> Round:
        """Do every duty that is due once; `startup` delivers everything still owed."""
        done = Round()
        service = self.bot.service
        await service.duties.reap()
        done.delivered = len((await self.bot.courier.deliver_due(everything=startup)).delivered)
        done.reminded = await self.send_reminders()
        done.votes_closed = await service.votes.close_due()
        if done.votes_closed:
            await self.bot.courier.deliver_due()
        done.aways_ended = await service.away.end_due()
        if done.aways_ended + await service.away.tell_late():
            await self.bot.courier.deliver_due()
        clocks = await service.clock.run_due()
        done.clocks = clocks.reminded + clocks.ran_out
        for game_id in sorted(clocks.games):  # the clock's news, and the vote it opened
            await self.bot.courier.deliver(game_id)
        done.moves = await self.play_owed_moves()
        now = service.now()
        if startup or self._pruned_at is None or now - self._pruned_at > PRUNE_EVERY:
            self._pruned_at = now
            done.pruned = await self.prune()
        done.digests = await self.send_digests()
        done.backups = await self.back_up_if_due()
        done.rated = await service.community.rate_finished()
        tidied = await service.tidy.run_due()
        done.tidied = len(tidied)
        for game_id in sorted(tidied):  # the warning, the end with its record, the close
            await self.bot.courier.deliver(game_id)
        done.heads_ups = await self.send_heads_ups()
        return done

    async def send_reminders(self) -> int:
        """Send every reminder that is due and report each back to the service; open
        the table's vote for a player who has now missed enough. Returns how many were
        sent."""
        notifications = self.bot.service.notifications
        decisions = self.bot.service.decisions
        sent = 0
        for due in await notifications.due_reminders():
            async with self.bot.service.duties.holding(
                duty("remind", due.game_id, due.seat)
            ) as claim:
                # claimed, it may have been sent by the process that held it before
                if claim is None or not await notifications.still_due(due):
                    continue
                # a decision out of turn past its deadline: answered by default instead
                decision = await decisions.look(due.game_id, due.seat, due.since)
                if decision is not None and decision.settled:
                    await self.bot.courier.deliver(due.game_id)
                    self.bot.duties_due.set()
                    continue
                try:
                    delivered = await self._remind(due)
                except (discord.HTTPException, OSError) as exc:
                    log.warning("game %s: a reminder could not be sent: %s", due.game_id, exc)
                    continue
                if not delivered:
                    continue
                await notifications.reminder_sent(due.game_id, due.seat, claim=claim)
                if decision is not None:
                    await decisions.due_by(due.game_id, due.seat, decision.deadline)
            sent += 1
            rows = await self.bot.service.store.reminders(due.game_id)
            row = next((r for r in rows if r.seat == due.seat), None)
            if row is not None and await self.bot.service.votes.open_if_due(row):
                await self.bot.courier.deliver(due.game_id)
        return sent

    async def play_owed_moves(self) -> int:
        """One AI action for each seat the AI owes a move, then that game's messages.
        A failing AI is logged with the game id and tried again later."""
        played = 0
        for game_id, seat in await self.bot.service.owed_moves(limit=MOVES_PER_ROUND):
            try:
                result = await self.bot.service.play_owed_move(game_id, seat)
            except Exception:
                log.exception("game %s: the AI could not play seat %s", game_id, seat)
                continue
            if result is not None:
                played += 1
                if result.turn_ended or result.game_over:
                    await self.bot.courier.deliver(game_id)
        return played

    async def _run(self) -> None:
        await self.bot.wait_until_ready()
        self._sample_task = asyncio.create_task(self.check_sample(), name="mk-sample-check")
        startup = True
        while not self.bot.is_closed():
            self.bot.duties_due.clear()
            done = Round()
            try:
                done = await self.round(startup=startup)
            except Exception:
                log.exception("a scheduler round failed")
            startup = False
            if done.moves:
                await asyncio.sleep(0)  # the AI owes more: go on, letting commands in
                continue
            with suppress(TimeoutError):
                await asyncio.wait_for(self.bot.duties_due.wait(), timeout=self.poll)

    async def _remind(self, due: DueReminder) -> bool:
        """One reminder, by DM if the player opted in and DMs are open, else in the
        game's thread. Whether it was delivered. In the game's language in the thread;
        a DM in the language the player last used (the game's if never seen)."""
        info = await self.bot.service.info(due.game_id)
        posts, short = game_language(info), self.bot.face_of(info.rules).short_name
        if due.dm_opt_in and due.user_id is not None:
            theirs = translator_for(due.language or info.language)
            user = self.bot.get_user(due.user_id) or await self.bot.fetch_user(due.user_id)
            mute = view_of(MuteButton(due.game_id, due.turn, label=theirs.gettext(MUTE)))
            with suppress(discord.HTTPException):
                await user.send(reminder_text(due, theirs, short), view=mute, nonce=due.nonce)
                return True
        text = reminder_text(due, posts, short)
        mute = view_of(MuteButton(due.game_id, due.turn, label=posts.gettext(MUTE)))
        channel = await self.bot.thread_of(info)
        if channel is None:
            return False
        await channel.send(
            text, view=mute, allowed_mentions=mention_only(due.user_id), nonce=due.nonce
        )
        return True

    async def prune(self) -> int:
        """Forget stored interaction answers older than a day, delivered messages' rows
        older than two weeks and claims that crashed processes left long ago: once an
        hour whichever process claims it first (the claim then rests an hour). Returns
        how many rows were forgotten."""
        duties = self.bot.service.duties
        claim = await duties.claim("prune")
        if claim is None:
            return 0
        pruned = await self.bot.service.prune()
        await duties.forget_old()
        await duties.release(claim, rest=PRUNE_EVERY)
        return pruned

    async def send_digests(self) -> int:
        """DM each daily digest that is due (the service claimed it: a refused DM is
        logged once and not tried again that day). Returns how many were sent."""
        sent = 0
        for digest in await self.bot.service.your_games.claim_digests():
            user_id = digest.user_id
            try:
                user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
                # in the language the player last used
                text = digest_text(digest.games, translator_for(digest.language))
                await user.send(text, allowed_mentions=NO_MENTIONS)
            except (discord.Forbidden, discord.NotFound) as exc:
                log.warning(
                    "user %s: the daily digest was refused (%s); next one tomorrow", user_id, exc
                )
                continue
            except (discord.HTTPException, OSError) as exc:
                log.warning("user %s: the daily digest could not be sent: %s", user_id, exc)
                continue
            sent += 1
        return sent

    async def send_heads_ups(self) -> int:
        """DM each "you're next" heads-up owed (each turn was marked before: a refused
        DM is logged and not tried again). Returns how many were sent."""
        sent = 0
        for dm in await self.heads_up.due():
            try:
                user = self.bot.get_user(dm.user_id) or await self.bot.fetch_user(dm.user_id)
                text = heads_up_text(dm, translator_for(dm.language))
                await user.send(text, allowed_mentions=NO_MENTIONS)
            except (discord.HTTPException, OSError) as exc:
                log.warning("user %s: a heads-up could not be sent: %s", dm.user_id, exc)
                continue
            sent += 1
        return sent

    async def back_up_if_due(self) -> int:
        """Back up the database if a scheduled backup is due (looked at once a
        minute); 1 if one was made. A failed backup is logged and tried again later."""
        settings = self.bot.settings
        if settings.backup_dir is None or settings.backup_hours <= 0:
            return 0
        now = self.bot.service.now()
        looked = self._backup_looked_at
        if looked is not None and now - looked < BACKUP_LOOK_EVERY:
            return 0
        self._backup_looked_at = now
        duties = self.bot.service.duties
        every = timedelta(hours=settings.backup_hours)
        # one copy an interval whichever process makes it: the claim then rests
        claim = await duties.claim("backup", lease=max(duties.lease, BACKUP_LEASE))
        if claim is None:
            return 0
        made = None
        try:
            made = await backup_if_due(
                self.bot.service.store,
                settings.backup_dir,
                every=every,
                keep=settings.backup_keep,
                now=now,
            )
        except (StoreError, OSError) as exc:
            log.warning("the scheduled backup to %s failed: %s", settings.backup_dir, exc)
        await duties.release(claim, rest=every if made is not None else None)
        return 0 if made is None else 1

    async def check_sample(self) -> None:
        """Check a random sample of stored games in the background (start-up)."""
        service = self.bot.service
        try:
            await check_sample(service.store, service.games)
        except Exception:
            log.exception("the start-up check of stored games failed")
