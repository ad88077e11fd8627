"""The store: everything the game service persists, each method written once over the
SQL both databases speak (bot/store/sql.py).

A driver (`SqliteStore`, `PostgresStore`) supplies what differs between the databases:
connecting and migrating, running a read (`_rows`) and a write transaction (`_write`,
whose work gets a `Tx`), the locking words of its dialect, and the three things each
does its own way for speed: loading a game in one statement, appending to the log and
backing up. Everything else (seats, votes, reminders, the outbox, duties) is here.

Every method is one transaction. Writes that must happen together (an action, its
snapshot, the interaction that caused it, the new reminder schedule and the messages it
makes owed) are one method, so no driver can leave half of them behind. A write to a
game's rows first locks the game's row (`{lock}`: PostgreSQL's `FOR UPDATE`; SQLite
has one writer, which is lock enough), so racing writers of one game queue on it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any, TypeVar

from bot.store import sql
from bot.store.away import AwayStore
from bot.store.community import CommunityStore
from bot.store.driver import (
    Tx,
    insert_owed,
    one,
    put_snapshot,
    replace_waiting,
    seats_of,
    update_seats,
)
from bot.store.heads_up import HeadsUpStore
from bot.store.integrity import genesis
from bot.store.records import (
    RESTING,
    ActionRecord,
    BallotRecord,
    DigestRecord,
    DutyClaim,
    GameRecord,
    GameStatus,
    InteractionRecord,
    NewGame,
    NewOwed,
    NotificationPrefs,
    OwedMessage,
    ReminderRecord,
    SeatRecord,
    SnapshotRecord,
    VoteRecord,
    VoteStatus,
)
from bot.store.rematches import RematchStore
from bot.store.sql import Row, ts
from bot.store.tidy import TidyStore

T = TypeVar("T")
R = TypeVar("R")

# rows deleted by one write of a prune: the acts queued meanwhile commit between them
PRUNE_BATCH = 500


class Store(HeadsUpStore, TidyStore, RematchStore, CommunityStore, AwayStore):
    """Persistent games, seats, action logs and the bot's bookkeeping (and, from
    `CommunityStore`, the ratings and the rows of a player's stats; from `AwayStore`,
    players away and the games' turn clocks; from `RematchStore`, rematches and a
    server's lobbies; from `TidyStore`, idle games and stale lobbies; from `HeadsUpStore`,
    the heads-up)."""

    # --- games and seats -------------------------------------------------------------

    async def create_game(self, game: NewGame, *, seat_creator: bool) -> GameRecord:
        """Insert a new open game (and seat its creator first, if asked)."""
        at = ts(game.created_at)

        async def work(tx: Tx) -> GameRecord:
            g = game
            place = (g.guild_id, g.channel_id, g.thread_id)
            row = await one(
                tx,
                sql.CREATE_GAME,
                g.rules,
                g.config,
                g.creator_id,
                g.reminder_seconds,
                *place,
                at,
                g.language,
            )
            assert row is not None
            if seat_creator:
                await tx.run(sql.SEAT_CREATOR, row["id"], game.creator_id, at, game.creator_name)
            return sql.game_from(row)

        return await self._write(work)

    async def game(self, game_id: int) -> GameRecord | None:
        return await self._first(sql.game_from, sql.GAME, game_id)

    async def game_in_thread(self, thread_id: int) -> GameRecord | None:
        """The most recent game played in a Discord thread."""
        return await self._first(sql.game_from, sql.GAME_IN_THREAD, thread_id)

    async def games_of_user(
        self, user_id: int, statuses: Collection[GameStatus]
    ) -> list[GameRecord]:
        """Games where the user holds a seat (as player or substitute)."""
        wanted = list(statuses)
        if not wanted:
            return []
        rows = await self._rows(
            f"SELECT {sql.GAME_COLUMNS} FROM games WHERE status {self.dialect.any(1, 'text')}"
            " AND id IN (SELECT game_id FROM seats WHERE user_id = $2 OR substitute_id = $2)"
            " ORDER BY id",
            self.dialect.listed(wanted),
            user_id,
        )
        return [sql.game_from(r) for r in rows]

    async def set_place(
        self,
        game_id: int,
        *,
        guild_id: int | None,
        channel_id: int | None,
        thread_id: int | None,
        at: datetime,
    ) -> None:
        """Where the game lives on Discord."""
        await self._change(sql.SET_PLACE, guild_id, channel_id, thread_id, ts(at), game_id)

    async def set_language(self, game_id: int, language: str, *, at: datetime) -> bool:
        """The language of the game's public posts; False if there is no such game."""
        return await self._change(sql.SET_LANGUAGE, language, ts(at), game_id) == 1

    async def discard_game(self, game_id: int) -> bool:
        """Delete a game that has not started, with its seats; False if there is no
        such open game."""
        return await self._change(sql.DISCARD_GAME, game_id) == 1

    async def set_status(
        self, game_id: int, status: GameStatus, *, only_from: Collection[GameStatus], at: datetime
    ) -> bool:
        """Change the status if it is one of `only_from`; returns whether it changed.
        A game that stops running loses its reminder schedule."""
        allowed = list(only_from)
        if not allowed:
            return False

        async def work(tx: Tx) -> bool:
            changed = (
                await tx.run(
                    "UPDATE games SET status = $1, updated_at = $2"
                    f" WHERE id = $3 AND status {self.dialect.any(4, 'text')}",
                    status,
                    ts(at),
                    game_id,
                    self.dialect.listed(allowed),
                )
                == 1
            )
            if changed and status != "active":
                await tx.run("DELETE FROM reminders WHERE game_id = $1", game_id)
            return changed

        return await self._write(work)

    async def seats(self, game_id: int) -> list[SeatRecord]:
        """The seats in seat order."""
        return await self._all(sql.seat_from, sql.SEATS, game_id)

    async def add_seat(
        self,
        game_id: int,
        user_id: int | None,
        *,
        limit: int,
        at: datetime,
        ai: bool = False,
        name: str | None = None,
    ) -> SeatRecord | None:
        """Seat a user (or, with `ai`, the AI: `user_id` None) in the next seat of an
        open game; None (and nothing written) if the game is not open, is full or
        already seats the user."""

        async def work(tx: Tx) -> SeatRecord | None:
            status = await self._lock_game(tx, game_id)
            seats = await seats_of(tx, game_id)
            seated = user_id is not None and any(s.user_id == user_id for s in seats)
            if status != "open" or len(seats) >= limit or seated:
                return None
            seat = SeatRecord(game_id, len(seats), user_id, at, ai=ai, name=name)
            await tx.run(sql.INSERT_SEAT, *sql.seat_params(seat))
            await tx.run(sql.TOUCH, ts(at), game_id)
            return seat

        return await self._write(work)

    async def remove_seat(self, game_id: int, seat: int, *, at: datetime) -> bool:
        """Remove a seat of an open game; later seats move up so seats stay 0..n-1."""

        async def work(tx: Tx) -> bool:
            if await self._lock_game(tx, game_id) != "open":
                return False
            seats = await seats_of(tx, game_id)
            if not any(s.seat == seat for s in seats):
                return False
            # renumber by rewriting: shifting keys in place could collide mid-update
            kept = [s for s in seats if s.seat != seat]
            await tx.run("DELETE FROM seats WHERE game_id = $1", game_id)
            await tx.many(
                sql.INSERT_SEAT, [sql.seat_params(replace(s, seat=i)) for i, s in enumerate(kept)]
            )
            await tx.run(sql.TOUCH, ts(at), game_id)
            return True

        return await self._write(work)

    async def put_seat(
        self,
        seat: SeatRecord,
        *,
        at: datetime,
        next_at: datetime | None = None,
        owed: Sequence[NewOwed] = (),
    ) -> None:
        """Overwrite a seat's user, substitute, colour, team, flags and name; with
        `next_at`, move the seat's reminder (if the game awaits it); store `owed`
        (at the game's current version) in the same transaction."""

        async def work(tx: Tx) -> None:
            await self._lock_game(tx, seat.game_id)
            await update_seats(tx, [seat])
            if next_at is not None:
                await tx.run(sql.MOVE_REMINDER, ts(next_at), seat.game_id, seat.seat)
            await tx.run(sql.TOUCH, ts(at), seat.game_id)
            await insert_owed(tx, seat.game_id, None, owed, at)

        await self._write(work)

    async def start_game(
        self,
        game_id: int,
        *,
        seed: int,
        seats: Sequence[SeatRecord],
        snapshot: SnapshotRecord,
        waiting: Sequence[ReminderRecord],
        at: datetime,
        owed: Sequence[NewOwed] = (),
    ) -> bool:
        """Open -> active in one transaction: the seed, the seats' colours, teams and
        flags, the snapshot after setup, the seats now awaited and the messages the start
        makes owed. False (nothing written) if it was not open."""

        async def work(tx: Tx) -> bool:
            if await tx.run(sql.START_GAME, seed, ts(at), game_id) != 1:
                return False
            await update_seats(tx, seats)
            await put_snapshot(tx, snapshot, genesis(game_id), forward_only=True)
            await replace_waiting(tx, game_id, waiting)
            await insert_owed(tx, game_id, 0, owed, at)
            return True

        return await self._write(work)

    # --- the action log ----------------------------------------------------------------

    async def actions(self, game_id: int, *, after: int = 0) -> list[ActionRecord]:
        """The log entries with `seq > after`, in order."""
        return await self._all(sql.action_from, sql.ACTIONS_AFTER, game_id, after)

    async def turn_actions(self, game_id: int, seat: int) -> list[ActionRecord]:
        """The log after the seat's last entry that ended its turn (every seat's
        entries, so undo entries can be paired), in order."""
        return await self._all(sql.action_from, sql.TURN_ACTIONS, game_id, seat)

    async def put_snapshot(self, snapshot: SnapshotRecord) -> bool:
        """Replace the cached snapshot with one rebuilt from the log, in either direction
        (a snapshot ahead of the log is moved back), if the log still ends at its seq;
        the store computes its chain value and digest. Returns whether it was written
        (False: the log moved on, or is shorter)."""
        game_id = snapshot.game_id

        async def work(tx: Tx) -> bool:
            if await self._lock_game(tx, game_id) is None:
                return False
            head = await one(tx, sql.LAST_ENTRY, game_id)
            last, chain = (0, genesis(game_id)) if head is None else (head["seq"], head["chain"])
            if last != snapshot.seq:
                return False
            await put_snapshot(tx, snapshot, chain, forward_only=False)
            return True

        return await self._write(work)

    async def game_ids(self, *, started: bool = True) -> list[int]:
        """Every stored game's id (only games that were dealt, by default), in order."""
        where = " WHERE seed IS NOT NULL" if started else ""
        return [int(r["id"]) for r in await self._rows(f"SELECT id FROM games{where} ORDER BY id")]

    async def game_counts(self, guild_ids: Collection[int] | None = None) -> dict[GameStatus, int]:
        """How many games there are of each status (only those of these Discord
        servers, if given); a status without games is absent."""
        where, params = "", []
        if guild_ids is not None:
            where = f" WHERE guild_id {self.dialect.any(1, 'bigint')}"
            params = [self.dialect.listed(sorted(set(guild_ids)))]
        rows = await self._rows(
            f"SELECT status, COUNT(*) AS n FROM games{where} GROUP BY status", *params
        )
        return {r["status"]: int(r["n"]) for r in rows}

    # --- interactions ------------------------------------------------------------------

    async def interaction(self, interaction_id: int) -> InteractionRecord | None:
        return await self._first(sql.interaction_from, sql.INTERACTION, interaction_id)

    async def prune_interactions(self, before: datetime) -> int:
        """Forget handled interactions older than `before` (Discord stops retrying
        within minutes); returns how many were removed."""
        return await self._prune(sql.PRUNE_INTERACTIONS, before)

    async def prune_delivered(self, before: datetime) -> int:
        """Forget owed messages delivered before `before` (their post is on Discord;
        the row only told a resend where to look): returns how many were removed."""
        return await self._prune(sql.PRUNE_DELIVERED, before)

    async def _prune(self, statement: str, before: datetime) -> int:
        """In batches of `PRUNE_BATCH` rows through the index on their time, each a
        write of its own: the acts queued meanwhile are committed between them, never
        behind the whole prune (after a day down, one statement held every act for
        seconds). Rows another process is pruning right now are left to it."""
        statement = self.dialect.fill(statement)
        pruned = 0
        while True:
            done = await self._change(statement, ts(before), PRUNE_BATCH)
            pruned += done
            if done < PRUNE_BATCH:
                return pruned

    # --- notification preferences, reminders --------------------------------------------

    async def notification_prefs(self, user_ids: Collection[int]) -> dict[int, NotificationPrefs]:
        """Stored preferences of these users (users without any are absent)."""
        ids = sorted(set(user_ids))
        if not ids:
            return {}
        rows = await self._rows(
            f"SELECT {sql.PREFS_COLUMNS} FROM notification_prefs"
            f" WHERE user_id {self.dialect.any(1, 'bigint')}",
            self.dialect.listed(ids),
        )
        return {r["user_id"]: sql.prefs_from(r) for r in rows}

    async def put_notification_prefs(self, prefs: NotificationPrefs) -> None:
        """Store a user's preferences (their language only if `prefs` gives one: None
        keeps the stored one)."""
        await self._change(
            sql.PUT_PREFS,
            prefs.user_id,
            int(prefs.dm_opt_in),
            prefs.quiet_start,
            prefs.quiet_end,
            prefs.timezone,
            prefs.language,
        )

    async def put_language(self, user_id: int, language: str) -> None:
        """Remember the language of a user's last interaction (their other
        preferences stay as they are, or the defaults for a user without any)."""
        await self._change(sql.PUT_LANGUAGE, user_id, language)

    async def reminders(self, game_id: int) -> list[ReminderRecord]:
        """The seats a game is waiting for, in seat order."""
        return await self._all(sql.reminder_from, sql.REMINDERS, game_id)

    async def due_reminders(self, now: datetime, *, limit: int) -> list[ReminderRecord]:
        """Reminders due at `now` for seats a person plays in active games (muted ones,
        and seats the AI plays, excluded), the most overdue first."""
        return await self._awaited(now, limit, sql.DUE_REMINDERS)

    async def owed_moves(self, now: datetime, *, limit: int) -> list[ReminderRecord]:
        """Awaited seats of active games that the AI plays now (AI seats, autopilot, a
        skipped turn, a seat nobody holds) whose next try is due, the longest due
        first."""
        return await self._awaited(now, limit, sql.OWED_MOVES)

    async def _awaited(self, now: datetime, limit: int, statement: str) -> list[ReminderRecord]:
        # a reminder another transaction is rescheduling right now is left out
        rows = await self._rows(self.dialect.fill(statement), ts(now), limit)
        return [sql.reminder_from(r) for r in rows]

    async def put_reminder(
        self, reminder: ReminderRecord, *, claim: DutyClaim | None = None
    ) -> bool:
        """Update the schedule of a seat still awaited; False if it no longer is. With
        `claim`, only while its owner still holds that duty (a reminder sent by a
        process whose claim was taken over is not counted twice)."""

        async def work(tx: Tx) -> bool:
            if not await self._holds(tx, claim):
                return False
            changed = await tx.run(
                sql.PUT_REMINDER,
                ts(reminder.waiting_since),
                ts(reminder.next_at),
                reminder.missed,
                int(reminder.muted_for_turn),
                reminder.game_id,
                reminder.seat,
            )
            return changed == 1

        return await self._write(work)

    # --- owed messages -----------------------------------------------------------------

    async def owed_messages(
        self, now: datetime | None, *, game_id: int | None = None, limit: int = 100
    ) -> list[OwedMessage]:
        """Undelivered messages due at `now` (None: all, due or not), of one game or of
        every game, oldest first. A message whose delivery another process is
        recording is left to it."""
        due = float("inf") if now is None else ts(now)
        if game_id is None:
            rows = await self._rows(self.dialect.fill(sql.OWED_DUE), due, limit)
        else:
            rows = await self._rows(self.dialect.fill(sql.OWED_OF_GAME), game_id, due, limit)
        return [sql.owed_from(r) for r in rows]

    async def mark_delivered(
        self,
        owed_id: int,
        *,
        at: datetime,
        channel_id: int | None = None,
        message_id: int | None = None,
        claim: DutyClaim | None = None,
    ) -> bool:
        """Record that Discord accepted the message (or that it is obsolete); False if it
        was already marked, or if `claim` is given and its owner no longer holds that
        duty (another process took the delivery over and records it)."""

        async def work(tx: Tx) -> bool:
            if not await self._holds(tx, claim):
                return False
            return await tx.run(sql.MARK_DELIVERED, ts(at), channel_id, message_id, owed_id) == 1

        return await self._write(work)

    async def last_delivered_message(self, game_id: int, channel_id: int) -> int | None:
        """The newest message id a delivered owed message of this game got in this
        channel (a resend looks for its lost post only among later messages)."""
        rows = await self._rows(sql.LAST_DELIVERED, game_id, channel_id)
        return None if not rows or rows[0]["id"] is None else int(rows[0]["id"])

    async def mark_tried(self, owed_ids: Collection[int], *, at: datetime) -> None:
        """Record that a delivery of these messages begins (one write for a batch)."""
        ids = sorted(set(owed_ids))
        if ids:
            await self._change(
                f"UPDATE outbox SET tried_at = $1 WHERE id {self.dialect.any(2, 'bigint')}",
                ts(at),
                self.dialect.listed(ids),
            )

    async def mark_failed(self, owed_id: int, *, error: str, retry_at: datetime) -> int:
        """Record a failed attempt and when to try again; returns the attempts so far."""

        async def work(tx: Tx) -> int:
            row = await one(tx, sql.MARK_FAILED, error[:500], ts(retry_at), owed_id)
            return 0 if row is None else int(row["attempts"])

        return await self._write(work)

    # --- votes ---------------------------------------------------------------------------

    async def open_vote(
        self,
        game_id: int,
        seat: int,
        *,
        turn_since: datetime,
        at: datetime,
        deadline: datetime,
        owed: Callable[[int], Sequence[NewOwed]] = lambda vote_id: (),
    ) -> VoteRecord | None:
        """Open a vote about this turn of the seat, with the messages `owed(vote_id)`
        makes owed; None (nothing written) if the game already has an open vote or had
        one about this turn."""

        async def work(tx: Tx) -> VoteRecord | None:
            await self._lock_game(tx, game_id)
            # no target: either unique rule (one open vote a game, one vote a turn) holds
            row = await one(tx, sql.OPEN_VOTE, game_id, seat, ts(turn_since), ts(at), ts(deadline))
            if row is None:
                return None
            vote = sql.vote_from(row)
            await insert_owed(tx, game_id, None, owed(vote.id), at)
            return vote

        return await self._write(work)

    async def vote(self, vote_id: int) -> VoteRecord | None:
        return await self._first(sql.vote_from, sql.VOTE, vote_id)

    async def open_votes(self, *, game_id: int | None = None) -> list[VoteRecord]:
        """Open votes (of one game, or all), the earliest deadline first; a vote
        another process is closing right now is left to it."""
        where = "status = 'open'" + ("" if game_id is None else " AND game_id = $1")
        params = () if game_id is None else (game_id,)
        rows = await self._rows(
            f"SELECT {sql.VOTE_COLUMNS} FROM votes WHERE {where} ORDER BY deadline, id"
            + self.dialect.skip_locked,
            *params,
        )
        return [sql.vote_from(r) for r in rows]

    async def votes_due(self, now: datetime) -> list[VoteRecord]:
        """Open votes to decide now, in one read: their deadline passed, their game
        stopped, or the turn they are about is over (the seat is no longer awaited
        since the vote's turn began); the earliest deadline first."""
        rows = await self._rows(self.dialect.fill(sql.VOTES_DUE), ts(now))
        return [sql.vote_from(r) for r in rows]

    async def cast_ballot(
        self, ballot: BallotRecord, *, owed: Sequence[NewOwed] = ()
    ) -> list[BallotRecord] | None:
        """Record (or replace) a voter's ballot with its owed messages and return every
        ballot of the vote; None (nothing written) if the vote is not open."""

        async def work(tx: Tx) -> list[BallotRecord] | None:
            row = await one(tx, self.dialect.fill(sql.LOCK_VOTE), ballot.vote_id)
            if row is None or row["status"] != "open":
                return None
            await tx.run(
                sql.PUT_BALLOT, ballot.vote_id, ballot.voter_id, ballot.choice, ts(ballot.cast_at)
            )
            await insert_owed(tx, int(row["game_id"]), None, owed, ballot.cast_at)
            return [sql.ballot_from(r) for r in await tx.rows(sql.BALLOTS, ballot.vote_id)]

        return await self._write(work)

    async def ballots(self, vote_id: int) -> list[BallotRecord]:
        """The ballots of a vote, in the order they were cast."""
        return await self._all(sql.ballot_from, sql.BALLOTS, vote_id)

    async def close_vote(
        self,
        vote_id: int,
        status: VoteStatus,
        *,
        at: datetime,
        seat: SeatRecord | None = None,
        next_at: datetime | None = None,
        owed: Sequence[NewOwed] = (),
    ) -> bool:
        """Decide an open vote and, in the same transaction, change the seat it decided
        about (and its reminder's `next_at`) and store the owed messages; False (nothing
        written) if it was no longer open."""

        async def work(tx: Tx) -> bool:
            row = await one(tx, "SELECT game_id FROM votes WHERE id = $1", vote_id)
            if row is None:
                return False
            game_id = int(row["game_id"])
            # the game's row first, as every write of a game's rows: no two writers of one
            # game can each hold a row the other waits for
            await self._lock_game(tx, game_id)
            if await tx.run(sql.CLOSE_VOTE, status, ts(at), vote_id) != 1:
                return False
            if seat is not None:
                await update_seats(tx, [seat])
                if next_at is not None:
                    await tx.run(sql.MOVE_REMINDER, ts(next_at), game_id, seat.seat)
            await insert_owed(tx, game_id, None, owed, at)
            return True

        return await self._write(work)

    async def set_vote_message(self, vote_id: int, channel_id: int, message_id: int) -> None:
        """Where the vote's message is, so later tallies edit it in place."""
        await self._change(sql.SET_VOTE_MESSAGE, channel_id, message_id, vote_id)

    # --- the daily digest ----------------------------------------------------------------

    async def digest(self, user_id: int) -> DigestRecord | None:
        """The user's digest schedule (None: they never opted in)."""
        return await self._first(sql.digest_from, sql.DIGEST, user_id)

    async def put_digest(self, digest: DigestRecord) -> None:
        """Store (or replace) the user's digest schedule."""
        await self._change(
            sql.PUT_DIGEST,
            digest.user_id,
            sql.maybe_ts(digest.due_at),
            sql.maybe_ts(digest.sent_at),
        )

    async def due_digests(self, now: datetime, *, limit: int) -> list[DigestRecord]:
        """Digests due at `now`, the longest due first (one index lookup: the scheduler
        asks every round); a digest another process is claiming is left to it."""
        rows = await self._rows(sql.DUE_DIGESTS + self.dialect.skip_locked, ts(now), limit)
        return [sql.digest_from(r) for r in rows]

    async def claim_digest(
        self, user_id: int, *, due_at: datetime, next_at: datetime, sent_at: datetime | None
    ) -> bool:
        """Move a due digest on to `next_at` (and, with `sent_at`, record it as sent)
        if it is still due at `due_at`; False (nothing written) if another process
        claimed it first or the user changed it meanwhile."""
        changed = await self._change(
            sql.CLAIM_DIGEST, ts(next_at), sql.maybe_ts(sent_at), user_id, ts(due_at)
        )
        return changed == 1

    # --- duty claims (several bot processes on one database) ---------------------------

    async def claim_duty(
        self, duty: str, owner: str, *, now: datetime, until: datetime
    ) -> DutyClaim | None:
        """Claim `duty` for the process `owner` until `until` (its lease) in one
        conditional write, won if nobody holds the duty, if its holder's lease (or rest)
        ended by `now`, or if `owner` holds it already (then the lease is renewed). Of
        processes racing for one duty exactly one wins; the others get None."""
        sql.check_claim(owner, now, until)
        won = await self._change(sql.CLAIM_DUTY, duty, owner, ts(now), ts(until))
        return DutyClaim(duty, owner, until) if won == 1 else None

    async def release_duty(self, claim: DutyClaim, *, rest_until: datetime | None = None) -> bool:
        """Give the duty up if `claim.owner` still holds it (False: it was taken over).
        With `rest_until`, nobody may claim it before then (a periodic duty was done;
        the next one is due then)."""
        if rest_until is None:
            return await self._change(sql.RELEASE_DUTY, claim.duty, claim.owner) == 1
        rest = await self._change(sql.REST_DUTY, RESTING, ts(rest_until), claim.duty, claim.owner)
        return rest == 1

    async def duty_claims(self, now: datetime) -> list[DutyClaim]:
        """The claims and rests still running at `now`, by duty."""
        return await self._all(sql.claim_from, sql.DUTY_CLAIMS, ts(now))

    async def prune_duty_claims(self, before: datetime) -> int:
        """Forget claims whose lease ended before `before` (what crashed holders left
        behind); returns how many were removed."""
        return await self._change(sql.PRUNE_DUTY_CLAIMS, ts(before))

    # --- helpers of the methods above ----------------------------------------------------

    async def _first(self, record: Callable[[Row], R], statement: str, *params: Any) -> R | None:
        """The first row of a read as a record (None: no row)."""
        rows = await self._rows(statement, *params)
        return record(rows[0]) if rows else None

    async def _all(self, record: Callable[[Row], R], statement: str, *params: Any) -> list[R]:
        """Every row of a read as a record."""
        return [record(r) for r in await self._rows(statement, *params)]

    async def _change(self, statement: str, *params: Any) -> int:
        """One writing statement in a write transaction of its own; the rows it changed."""

        async def work(tx: Tx) -> int:
            return await tx.run(statement, *params)

        return await self._write(work)

    async def _lock_game(self, tx: Tx, game_id: int) -> str | None:
        """Lock the game's row until the transaction ends; its status (None: no such
        game)."""
        row = await one(tx, self.dialect.fill(sql.LOCK_GAME), game_id)
        return None if row is None else str(row["status"])

    async def _holds(self, tx: Tx, claim: DutyClaim | None) -> bool:
        """Whether the claim's owner still holds its duty (True without a claim). On
        PostgreSQL the claim's row stays share-locked until the transaction ends, so a
        process taking the duty over waits for this done-mark to commit, and a
        done-mark that waited for a takeover sees the new holder and refuses."""
        if claim is None:
            return True
        row = await one(tx, self.dialect.fill(sql.HOLDS), claim.duty, claim.owner)
        return row is not None
