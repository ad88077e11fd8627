"""The game service: everything a Discord command does, without Discord.

    service = GameService(SqliteStore("data/games.db"), MOUNTAIN_KING)
    game = await service.create_game(creator, {"players": 2})
    await service.join(game.id, friend)
    await service.start(game.id, creator)
    result = await service.act(game.id, creator, "keep blue-3 A2", interaction_id=...)

Every change to a game happens under a per-game asyncio lock: load (snapshot plus the
log after it), validate on the rules' checked path, then append the log entry and the
new snapshot in one store transaction. Several processes sharing a database do not
share the lock; the store's `(game_id, seq)` key makes the slower one fail, and it is
told "the game moved on". A retried Discord interaction gets the stored answer.
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any, Generic
from weakref import WeakValueDictionary

from bot.service.errors import (
    CannotUndoError,
    GameMovedOnError,
    GameNotFoundError,
    GameStateError,
    NotAllowedError,
    NotYourTurnError,
    SeatingError,
)
from bot.service.loading import (
    UNDO,
    Loaded,
    check_sequence,
    corrupt,
    load,
    parse_config,
    replay_log,
    standing,
)
from bot.service.notifications import Notifications, waiting_rows
from bot.service.protocol import A, GameRules, S
from bot.service.results import ActResult, GameInfo, GameView, LogEntry, TurnStatus, Waiting
from bot.service.seats import (
    game_info,
    label,
    log_entries,
    not_your_turn,
    require_creator,
    require_seat_manager,
    require_status,
    seat_numbered,
    seat_of_controller,
    seat_of_member,
)
from bot.store import (
    ActionRecord,
    DuplicateInteractionError,
    GameRecord,
    GameStatus,
    InteractionRecord,
    NewGame,
    SeatRecord,
    SeqConflictError,
    SnapshotRecord,
    StatusConflictError,
    Store,
)

DEFAULT_REMINDER_INTERVAL = timedelta(hours=24)
SEED_LIMIT = 2**31
RUNNING: tuple[GameStatus, ...] = ("open", "active")

# picks the acting seat (and the user acting, None for the autopilot) from a loaded game
Chooser = Callable[[Loaded[S]], tuple[SeatRecord, int | None]]


class GameService(Generic[S, A]):
    """Games of one rules package over a `Store`. `rng` (default: `secrets`) picks
    each game's seed at start; `clock` returns the time as an aware datetime.
    Reminders, notification settings and remembered messages live in
    `service.notifications`."""

    def __init__(
        self,
        store: Store,
        rules: GameRules[S, A],
        *,
        rng: random.Random | None = None,
        clock: Callable[[], datetime] | None = None,
        reminder_interval: timedelta = DEFAULT_REMINDER_INTERVAL,
    ) -> None:
        self.store = store
        self.rules = rules
        self.reminder_interval = reminder_interval
        self._rng = rng
        self._clock = clock or _utc_now
        self.notifications = Notifications(store, self._clock)
        # a lock lives while someone holds it or waits for it: no growth with old games
        self._locks: WeakValueDictionary[int, asyncio.Lock] = WeakValueDictionary()

    # --- creating and seating -------------------------------------------------------

    async def create_game(
        self,
        creator_id: int,
        options: Mapping[str, Any],
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        thread_id: int | None = None,
        join: bool = True,
        reminder_interval: timedelta | None = None,
    ) -> GameInfo:
        """A new game open for players to join (the creator takes the first seat
        unless `join=False`). Bad options raise the rules' config error."""
        config = self.rules.make_config(options)
        interval = reminder_interval or self.reminder_interval
        record = await self.store.create_game(
            NewGame(
                rules=self.rules.name,
                config=json.dumps(config, separators=(",", ":"), sort_keys=True),
                creator_id=creator_id,
                reminder_seconds=max(1, round(interval.total_seconds())),
                created_at=self._clock(),
                guild_id=guild_id,
                channel_id=channel_id,
                thread_id=thread_id,
            ),
            seat_creator=join,
        )
        return await self.info(record.id)

    async def join(self, game_id: int, user_id: int) -> GameInfo:
        """Take the next free seat of a game that has not started."""
        async with self._lock(game_id):
            game, _ = await self._game_and_seats(game_id)
            need = self.rules.seat_count(parse_config(game))
            seat = await self.store.add_seat(game_id, user_id, limit=need, at=self._clock())
            if seat is None:
                game, seats = await self._game_and_seats(game_id)
                require_status(game, "open")
                if any(s.user_id == user_id for s in seats):
                    raise SeatingError("You are already in this game.")
                raise SeatingError(f"This game is full ({need} players).")
            return await self.info(game_id)

    async def leave(self, game_id: int, user_id: int) -> GameInfo:
        """Give up your seat before the game starts (later: a substitute or autopilot)."""
        async with self._lock(game_id):
            game, seats = await self._game_and_seats(game_id)
            seat = seat_of_member(seats, user_id)
            if game.status != "open":
                raise GameStateError(
                    "The game has started: ask its creator to seat a substitute or hand your"
                    " seat to the autopilot."
                )
            if not await self.store.remove_seat(game_id, seat.seat, at=self._clock()):
                raise GameMovedOnError(game_id)
            return await self.info(game_id)

    async def start(self, game_id: int, user_id: int, *, admin: bool = False) -> GameInfo:
        """Deal the game (its creator only): seats get colours in join order and the
        seed is drawn now and stored."""
        async with self._lock(game_id):
            game, seats = await self._game_and_seats(game_id)
            require_creator(game, user_id, admin, "start the game")
            require_status(game, "open")
            config = parse_config(game)
            need = self.rules.seat_count(config)
            if len(seats) != need:
                raise SeatingError(f"The table needs {need} players and {len(seats)} have joined.")
            seed = self._new_seed()
            now = self._clock()
            try:
                state = self.rules.new_state(config, seed)
                labels = self.rules.seat_labels(config)
                teams = self.rules.seat_teams(state)
                snapshot = self.rules.state_to_json(state)
            except Exception as exc:  # the config was validated when the game was made
                raise corrupt(game_id, exc) from exc
            dealt = [replace(s, colour=labels[s.seat], team=teams[s.seat]) for s in seats]
            to_act = self.rules.to_act(state)
            started = await self.store.start_game(
                game_id,
                seed=seed,
                seats=dealt,
                snapshot=SnapshotRecord(game_id, 0, snapshot),
                waiting=await waiting_rows(self.store, game, dealt, to_act, to_act, now),
                at=now,
            )
            if not started:
                raise GameMovedOnError(game_id)
            return await self.info(game_id)

    async def abandon(self, game_id: int, user_id: int, *, admin: bool = False) -> GameInfo:
        """End a game without a result (its creator, or a server admin)."""
        async with self._lock(game_id):
            game, _ = await self._game_and_seats(game_id)
            require_creator(game, user_id, admin, "abandon the game")
            if game.status not in RUNNING:
                raise GameStateError("This game is already over.")
            now = self._clock()
            if not await self.store.set_status(game_id, "abandoned", only_from=RUNNING, at=now):
                raise GameMovedOnError(game_id)
            return await self.info(game_id)

    async def kick(
        self, game_id: int, by_user_id: int, user_id: int, *, admin: bool = False
    ) -> GameInfo:
        """Remove a player (creator or admin). Before the start their seat goes; after
        it they lose the seat, and a seat nobody plays goes to the autopilot."""
        async with self._lock(game_id):
            game, seats = await self._game_and_seats(game_id)
            require_creator(game, by_user_id, admin, "remove players")
            seat = seat_of_member(seats, user_id, "That user is not playing in this game.")
            now = self._clock()
            if game.status == "open":
                if not await self.store.remove_seat(game_id, seat.seat, at=now):
                    raise GameMovedOnError(game_id)
                return await self.info(game_id)
            require_status(game, "active")
            if seat.substitute_id == user_id:
                seat = replace(seat, substitute_id=None)
            else:
                seat = replace(seat, user_id=None)
            if seat.controller_id is None:
                seat = replace(seat, autopilot=True)
            await self.store.put_seat(seat, at=now)
            return await self.info(game_id)

    async def substitute(
        self,
        game_id: int,
        by_user_id: int,
        seat: int,
        new_user_id: int | None,
        *,
        admin: bool = False,
    ) -> GameInfo:
        """Another user takes over a seat (None: give it back to its own player). The
        seat's player, the creator or an admin may do this."""
        async with self._lock(game_id):
            game, seats = await self._game_and_seats(game_id)
            require_status(game, "active")
            target = seat_numbered(seats, seat)
            require_seat_manager(game, target, by_user_id, admin)
            if new_user_id is None or new_user_id == target.user_id:
                updated = replace(target, substitute_id=None)
            else:
                if any(s.controller_id == new_user_id for s in seats if s.seat != seat):
                    raise SeatingError("That user already plays a seat in this game.")
                updated = replace(target, substitute_id=new_user_id, autopilot=False)
            await self.store.put_seat(updated, at=self._clock())
            return await self.info(game_id)

    async def set_autopilot(
        self, game_id: int, by_user_id: int, seat: int, on: bool, *, admin: bool = False
    ) -> GameInfo:
        """Hand a seat to the AI, or take it back (the seat's player, the creator or an
        admin)."""
        async with self._lock(game_id):
            game, seats = await self._game_and_seats(game_id)
            require_status(game, "active")
            target = seat_numbered(seats, seat)
            require_seat_manager(game, target, by_user_id, admin)
            if not on and target.controller_id is None:
                raise SeatingError("Nobody plays that seat: seat a substitute first.")
            await self.store.put_seat(replace(target, autopilot=on), at=self._clock())
            return await self.info(game_id)

    async def set_place(
        self,
        game_id: int,
        *,
        guild_id: int | None,
        channel_id: int | None,
        thread_id: int | None,
    ) -> GameInfo:
        """Record where the game lives on Discord (e.g. once its thread exists)."""
        await self._game_and_seats(game_id)
        await self.store.set_place(
            game_id, guild_id=guild_id, channel_id=channel_id, thread_id=thread_id, at=self._clock()
        )
        return await self.info(game_id)

    # --- playing ---------------------------------------------------------------------

    async def act(
        self,
        game_id: int,
        user_id: int,
        action: A | str,
        *,
        interaction_id: int | None = None,
        expected_seq: int | None = None,
    ) -> ActResult:
        """Play an action (a value or its notation) for the user's seat. In a
        simultaneous phase any awaited seat may act; otherwise only the seat whose turn
        it is. `expected_seq` (a button's version) refuses a stale view."""

        def chooser(loaded: Loaded[S]) -> tuple[SeatRecord, int | None]:
            return seat_of_controller(loaded.seats, user_id), user_id

        return await self._act(game_id, chooser, action, interaction_id, expected_seq)

    async def act_for_autopilot(
        self, game_id: int, seat: int, action: A | str, *, expected_seq: int | None = None
    ) -> ActResult:
        """The AI plays a seat that is on autopilot."""

        def chooser(loaded: Loaded[S]) -> tuple[SeatRecord, int | None]:
            target = seat_numbered(loaded.seats, seat)
            if not target.autopilot:
                raise NotAllowedError(f"Seat {label(target)} is not on autopilot.")
            return target, None

        return await self._act(game_id, chooser, action, None, expected_seq)

    async def undo(
        self,
        game_id: int,
        user_id: int,
        *,
        interaction_id: int | None = None,
        expected_seq: int | None = None,
    ) -> ActResult:
        """Take back your last action of this turn. The log keeps both: the action and
        an `undo` entry, so versions only ever grow."""
        async with self._lock(game_id):
            loaded = await load(self.store, self.rules, game_id)
            earlier = await self._earlier_result(game_id, interaction_id)
            if earlier is not None:
                return earlier
            self._require_current(loaded, expected_seq)
            seat = seat_of_controller(loaded.seats, user_id)
            state = _started(loaded)
            entries = await self.store.actions(game_id)
            if (entries[-1].seq if entries else 0) != loaded.seq:
                raise GameMovedOnError(game_id)
            try:
                moves = standing(entries)
            except ValueError as exc:
                raise corrupt(game_id, exc) from exc
            last = moves[-1] if moves else None
            if last is None or not self.rules.can_undo(state, seat.seat, last.seat):
                raise CannotUndoError()
            try:
                before = replay_log(self.rules, loaded.game, loaded.config, moves[:-1])
            except Exception as exc:
                raise corrupt(game_id, exc) from exc
            return await self._append(
                loaded, state, before, seat, user_id, UNDO, interaction_id, undone=last.notation
            )

    async def legal_actions(self, game_id: int, user_id: int) -> list[str]:
        """The user's legal actions now, in notation (none when it is not their turn)."""
        loaded = await load(self.store, self.rules, game_id)
        seat = seat_of_controller(loaded.seats, user_id).seat
        state = loaded.state
        if loaded.game.status != "active" or state is None or seat not in self.rules.to_act(state):
            return []
        return [self.rules.notation(a) for a in self.rules.legal_actions(state, seat)]

    # --- reading ---------------------------------------------------------------------

    async def info(self, game_id: int) -> GameInfo:
        """The game's metadata and seats (no state is loaded)."""
        game, seats = await self._game_and_seats(game_id)
        return game_info(self.rules, game, seats)

    async def load(self, game_id: int) -> Loaded[S]:
        """The stored game with its state rebuilt (snapshot plus later log entries)."""
        return await load(self.store, self.rules, game_id)

    async def view(self, game_id: int, viewer_id: int | None) -> GameView:
        """What a user may see (a spectator unless seated), with the game's metadata:
        everything the board, pyramid, market and score images need."""
        loaded = await load(self.store, self.rules, game_id)
        info = game_info(self.rules, loaded.game, loaded.seats)
        seat = info.seat_of(viewer_id) if viewer_id is not None else None
        viewer = None if seat is None else seat.seat
        if loaded.state is None:
            return GameView(info, loaded.seq, viewer, None, None)
        state = self.rules.view(loaded.state, viewer)
        return GameView(info, loaded.seq, viewer, state, self.rules.outcome(loaded.state))

    async def log(self, game_id: int) -> list[LogEntry]:
        """The actions that stand, in notation, oldest first."""
        _, seats = await self._game_and_seats(game_id)
        entries = await self.store.actions(game_id)
        try:
            check_sequence(entries, 0, entries[-1].seq if entries else 0)
            return log_entries(seats, standing(entries))
        except ValueError as exc:
            raise corrupt(game_id, exc) from exc

    async def changes_since_last_turn(self, game_id: int, user_id: int) -> list[LogEntry]:
        """What the others did since the user's previous turn ended (if it is the
        user's turn now, their actions so far in it do not count as a turn)."""
        loaded = await load(self.store, self.rules, game_id)
        seat = seat_of_controller(loaded.seats, user_id).seat
        entries = await self.store.actions(game_id)
        try:
            moves = standing([e for e in entries if e.seq <= loaded.seq])
        except ValueError as exc:
            raise corrupt(game_id, exc) from exc
        end = len(moves)
        if loaded.state is not None and seat in self.rules.to_act(loaded.state):
            while end and moves[end - 1].seat == seat:
                end -= 1
        start = end
        while start and moves[start - 1].seat != seat:
            start -= 1
        return log_entries(loaded.seats, moves[start:end])

    async def turn_status(self, game_id: int) -> TurnStatus:
        """Whom the game is waiting for, since when, and when each is reminded next."""
        game, seats = await self._game_and_seats(game_id)
        by_seat = {s.seat: s for s in seats}
        waiting = tuple(
            Waiting(
                seat=r.seat,
                label=label(by_seat[r.seat]),
                user_id=by_seat[r.seat].controller_id,
                autopilot=by_seat[r.seat].autopilot,
                since=r.waiting_since,
                next_reminder=r.next_at,
                missed=r.missed,
                muted=r.muted_for_turn,
            )
            for r in await self.store.reminders(game_id)
            if r.seat in by_seat
        )
        return TurnStatus(game_id, game.status, waiting)

    async def game_in_thread(self, thread_id: int) -> GameInfo | None:
        """The most recent game played in a Discord thread."""
        game = await self.store.game_in_thread(thread_id)
        return None if game is None else await self.info(game.id)

    async def games_of_user(self, user_id: int, *, finished: bool = False) -> list[GameInfo]:
        """The user's running games (or, with `finished`, their ended ones)."""
        statuses: tuple[GameStatus, ...] = ("over", "abandoned") if finished else RUNNING
        games = await self.store.games_of_user(user_id, statuses)
        return [await self.info(g.id) for g in games if g.rules == self.rules.name]

    # --- maintenance -------------------------------------------------------------------

    async def check_game(self, game_id: int) -> int:
        """Replay the whole log and compare it with the snapshot; returns the log length
        or raises `CorruptGameError`."""
        loaded = await load(self.store, self.rules, game_id)
        if loaded.state is None:
            return 0
        entries = (await self.store.actions(game_id))[: loaded.seq]
        try:
            check_sequence(entries, 0, loaded.seq)
            rebuilt = replay_log(self.rules, loaded.game, loaded.config, entries)
            same = self.rules.state_to_json(rebuilt) == self.rules.state_to_json(loaded.state)
        except Exception as exc:
            raise corrupt(game_id, exc) from exc
        if not same:
            raise corrupt(game_id, ValueError("the snapshot differs from a replay of the log"))
        return loaded.seq

    async def rebuild_snapshot(self, game_id: int) -> int:
        """Rewrite a game's snapshot from its log (the snapshot is only a cache);
        returns the log length."""
        async with self._lock(game_id):
            game, _ = await self._game_and_seats(game_id)
            config = parse_config(game)
            if game.status == "open":
                return 0
            entries = await self.store.actions(game_id)
            seq = entries[-1].seq if entries else 0
            try:
                check_sequence(entries, 0, seq)
                text = self.rules.state_to_json(replay_log(self.rules, game, config, entries))
            except Exception as exc:
                raise corrupt(game_id, exc) from exc
            await self.store.put_snapshot(SnapshotRecord(game_id, seq, text))
            return seq

    async def prune_interactions(self, older_than: timedelta = timedelta(days=1)) -> int:
        """Forget answers to interactions older than this (Discord retries within
        minutes); returns how many were forgotten."""
        return await self.store.prune_interactions(self._clock() - older_than)

    # --- private helpers -------------------------------------------------------------

    def _lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    def _new_seed(self) -> int:
        if self._rng is not None:
            return self._rng.randrange(SEED_LIMIT)
        return secrets.randbelow(SEED_LIMIT)

    async def _game_and_seats(self, game_id: int) -> tuple[GameRecord, list[SeatRecord]]:
        game = await self.store.game(game_id)
        if game is None:
            raise GameNotFoundError(game_id)
        return game, await self.store.seats(game_id)

    async def _act(
        self,
        game_id: int,
        chooser: Chooser[S],
        action: A | str,
        interaction_id: int | None,
        expected_seq: int | None,
    ) -> ActResult:
        async with self._lock(game_id):
            loaded = await load(self.store, self.rules, game_id)
            # looked up after the load: if the load saw the action this interaction
            # caused (perhaps in another process), the lookup sees its stored answer
            earlier = await self._earlier_result(game_id, interaction_id)
            if earlier is not None:
                return earlier
            self._require_current(loaded, expected_seq)
            seat, user_id = chooser(loaded)
            state = _started(loaded)
            to_act = self.rules.to_act(state)
            if seat.seat not in to_act:
                raise NotYourTurnError(not_your_turn(loaded.seats, to_act))
            value = self.rules.parse_action(action) if isinstance(action, str) else action
            after = self.rules.play(state, seat.seat, value)
            notation = self.rules.notation(value)
            return await self._append(loaded, state, after, seat, user_id, notation, interaction_id)

    async def _append(
        self,
        loaded: Loaded[S],
        before: S,
        after: S,
        seat: SeatRecord,
        user_id: int | None,
        notation: str,
        interaction_id: int | None,
        *,
        undone: str | None = None,
    ) -> ActResult:
        """Persist one accepted action, its snapshot, the interaction's answer and the
        new reminder schedule in one transaction; return the events."""
        game = loaded.game
        seq = loaded.seq + 1
        now = self._clock()
        awaited = self.rules.to_act(before)
        to_act = self.rules.to_act(after)
        over = self.rules.is_over(after)
        result = ActResult(
            game_id=game.id,
            seq=seq,
            seat=seat.seat,
            label=label(seat),
            user_id=user_id,
            notation=notation,
            turn_ended=over or seat.seat not in to_act,
            to_act=to_act,
            newly_to_act=tuple(s for s in to_act if s not in awaited),
            game_over=over,
            outcome=self.rules.outcome(after) if over else None,
            undone=undone,
        )
        waiting = None
        if set(awaited) != set(to_act):
            new = result.newly_to_act
            waiting = await waiting_rows(self.store, game, loaded.seats, to_act, new, now)
        interaction = None
        if interaction_id is not None:
            interaction = InteractionRecord(interaction_id, game.id, seq, result.to_json(), now)
        try:
            await self.store.append_action(
                ActionRecord(game.id, seq, seat.seat, notation, now, user_id, interaction_id),
                SnapshotRecord(game.id, seq, self.rules.state_to_json(after)),
                interaction=interaction,
                status="over" if over else None,
                waiting=waiting,
            )
        except (SeqConflictError, StatusConflictError, DuplicateInteractionError):
            # another process got there first; if it handled this very interaction,
            # its answer is the answer
            earlier = await self._earlier_result(game.id, interaction_id)
            if earlier is not None:
                return earlier
            raise GameMovedOnError(game.id) from None
        return result

    async def _earlier_result(self, game_id: int, interaction_id: int | None) -> ActResult | None:
        if interaction_id is None:
            return None
        record = await self.store.interaction(interaction_id)
        if record is None:
            return None
        if record.game_id != game_id:
            raise GameMovedOnError(game_id)
        try:
            return ActResult.from_json(record.result).as_repeated()
        except (ValueError, TypeError, KeyError) as exc:
            raise corrupt(game_id, exc) from exc

    @staticmethod
    def _require_current(loaded: Loaded[S], expected_seq: int | None) -> None:
        # a stale view hears that the game moved on, even if it moved on to its end
        if expected_seq is not None and expected_seq != loaded.seq:
            raise GameMovedOnError(loaded.game.id)
        require_status(loaded.game, "active")


def _started(loaded: Loaded[S]) -> S:
    if loaded.state is None:
        raise GameStateError("This game has not started yet.")
    return loaded.state


def _utc_now() -> datetime:
    return datetime.now(UTC)
