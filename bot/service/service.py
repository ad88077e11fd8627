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
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any, Generic
from weakref import WeakValueDictionary

from bot.i18n.catalogue import LANGUAGES, N_, SOURCE_LANGUAGE
from bot.service import stories
from bot.service.arguments import ABSENT, check_arguments
from bot.service.duties import Duties, duty
from bot.service.errors import (
    CannotUndoError,
    GameMovedOnError,
    GameNotFoundError,
    GameStateError,
    InvalidSettingError,
    NotAllowedError,
    SeatingError,
    SeatMovedOnError,
    ServiceError,
    echo,
)
from bot.service.loading import (
    UNDO,
    Loaded,
    check_sequence,
    corrupt,
    load,
    parse_config,
    rebuild_state,
    replay_log,
    standing,
    storage_full,
    verify,
)
from bot.service.notifications import Notifications, waiting_rows
from bot.service.outbox import Outbox
from bot.service.owed import OwedPayload, Ping, SeatChange, SeatHow, SeatNews, StartPost
from bot.service.protocol import A, GameRules, S, StoryData
from bot.service.reminders import next_reminder
from bot.service.results import (
    ActionPreview,
    ActResult,
    Digest,
    GameInfo,
    GameView,
    LogEntry,
    ReplyTo,
    TurnStatus,
    Waiting,
    YourGame,
)
from bot.service.seats import (
    Handover,
    SeatOffer,
    ai_name,
    game_info,
    handover,
    label,
    log_entries,
    not_your_turn,
    require_creator,
    require_seat_manager,
    require_status,
    seat_numbered,
    seat_of_controller,
    seat_of_member,
    seat_token,
)
from bot.service.table import REPLY_GRACE, REPLY_TTL, Commit, Telling, owed_after, player, stored
from bot.service.votes import Votes
from bot.service.your_games import FINISHED_SHOWN, listing_order, next_digest
from bot.store import (
    GAME_STATUSES,
    ActionRecord,
    DuplicateInteractionError,
    GameRecord,
    GameStatus,
    InteractionRecord,
    NewGame,
    ReminderRecord,
    SeatRecord,
    SeqConflictError,
    SnapshotRecord,
    StatusConflictError,
    Store,
    WriteFaultError,
)
from bot.store.records import DigestRecord

DEFAULT_REMINDER_INTERVAL = timedelta(hours=24)
SEED_LIMIT = 2**31
# a failed AI move is tried again after this (doubling is not needed: a bug, not a load)
AUTOPILOT_RETRY = timedelta(minutes=10)
RUNNING: tuple[GameStatus, ...] = ("open", "active")

# picks the acting seat (and the user acting, None for the autopilot) from a loaded game
Chooser = Callable[[Loaded[S]], tuple[SeatRecord, int | None]]
# how often an action is tried when other processes keep storing moves of its game first
OVERTAKEN_TRIES = 5


class _Overtaken(GameMovedOnError):
    """Another process stored a move of the game between this one's load and write."""


async def _again_if_overtaken(
    attempt: Callable[[], Awaitable[ActResult]], *, again: bool
) -> ActResult:
    """The attempt's result, trying it again (with `again`) while another bot process
    stores a move of the same game between its load and its write: in a simultaneous
    phase, or the AI of another seat. Each try loads the game anew and checks the
    action against it, so the action is refused if it no longer fits, as it is when
    one process serves both."""
    for tries in range(1, OVERTAKEN_TRIES + 1):
        try:
            return await attempt()
        except _Overtaken:
            if not again or tries == OVERTAKEN_TRIES:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


class GameService(Generic[S, A]):
    """Games of one rules package over a `Store`. `rng` (default: `secrets`) picks
    each game's seed at start; `clock` returns the time as an aware datetime.
    Reminders, notification settings and remembered messages live in
    `service.notifications`, the messages the table owes in `service.outbox`, the
    table's votes in `service.votes`."""

    def __init__(
        self,
        store: Store,
        rules: GameRules[S, A],
        *,
        rng: random.Random | None = None,
        clock: Callable[[], datetime] | None = None,
        reminder_interval: timedelta = DEFAULT_REMINDER_INTERVAL,
        vote_after_reminders: int = 3,
    ) -> None:
        self.store = store
        self.rules = rules
        self.reminder_interval = reminder_interval
        self._rng = rng
        self._clock = clock or _utc_now
        self.notifications = Notifications(store, self._clock)
        self.outbox = Outbox(store, self._clock)
        # this process's claims on the scheduler's duties (several processes may share
        # the store)
        self.duties = Duties(store, self._clock)
        self.votes = Votes(store, self._clock, self.duties, after_reminders=vote_after_reminders)
        # a lock lives while someone holds it or waits for it: no growth with old games
        self._locks: WeakValueDictionary[int, asyncio.Lock] = WeakValueDictionary()

    def now(self) -> datetime:
        """The service's time (the clock it was given): what owed messages and
        reminders are due against."""
        return self._clock()

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
        name: str | None = None,
        language: str = SOURCE_LANGUAGE,
    ) -> GameInfo:
        """A new game open for players to join (the creator takes the first seat
        unless `join=False`), its public posts in `language`. Bad options raise the
        rules' config error."""
        check_arguments(ABSENT, creator_id, optional=(guild_id, channel_id, thread_id))
        check_language(language)
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
                creator_name=name,
                language=language,
            ),
            seat_creator=join,
        )
        return await self.info(record.id)

    async def join(self, game_id: int, user_id: int, *, name: str | None = None) -> GameInfo:
        """Take the next free seat of a game that has not started (`name`: the user's
        display name, shown beside the seat's colour)."""
        check_arguments(game_id, user_id)
        return await self._add_seat(game_id, user_id, name=name)

    async def add_ai(self, game_id: int, by_user_id: int, *, admin: bool = False) -> GameInfo:
        """Seat an AI player in the next free seat (the creator, or a server admin)."""
        check_arguments(game_id, by_user_id)
        game, _ = await self._game_and_seats(game_id)
        require_creator(
            game,
            by_user_id,
            admin,
            N_("Only the game's creator or a server admin can add AI players."),
        )
        return await self._add_seat(game_id, None)

    async def _add_seat(
        self, game_id: int, user_id: int | None, *, name: str | None = None
    ) -> GameInfo:
        async with self._lock(game_id):
            game, seats = await self._game_and_seats(game_id)
            need = self.rules.seat_count(parse_config(game))
            if user_id is None:
                name = ai_name(seats)
            seat = await self.store.add_seat(
                game_id, user_id, limit=need, at=self._clock(), ai=user_id is None, name=name
            )
            if seat is None:
                game, seats = await self._game_and_seats(game_id)
                require_status(game, "open")
                if user_id is not None and any(s.user_id == user_id for s in seats):
                    raise SeatingError(N_("You are already in this game."))
                raise SeatingError(N_("This game is full ({count} players)."), count=need)
            return await self.info(game_id)

    async def leave(self, game_id: int, user_id: int) -> GameInfo:
        """Give up your seat before the game starts (later: a substitute or autopilot)."""
        check_arguments(game_id, user_id)
        async with self._lock(game_id):
            game, seats = await self._game_and_seats(game_id)
            seat = seat_of_member(seats, user_id)
            if game.status != "open":
                raise GameStateError(
                    N_(
                        "The game has started: ask its creator to seat a substitute or hand"
                        " your seat to the autopilot."
                    )
                )
            if not await self.store.remove_seat(game_id, seat.seat, at=self._clock()):
                raise GameMovedOnError(game_id)
            return await self.info(game_id)

    async def start(self, game_id: int, user_id: int, *, admin: bool = False) -> GameInfo:
        """Deal the game (its creator only): seats get colours in join order and the
        seed is drawn now and stored."""
        check_arguments(game_id, user_id)
        async with self._lock(game_id):
            game, seats = await self._game_and_seats(game_id)
            require_creator(
                game,
                user_id,
                admin,
                N_("Only the game's creator or a server admin can start the game."),
            )
            require_status(game, "open")
            config = parse_config(game)
            need = self.rules.seat_count(config)
            if len(seats) != need:
                if len(seats) == 1:
                    raise SeatingError(
                        N_("The table needs {count} players and only 1 has joined."), count=need
                    )
                raise SeatingError(
                    N_("The table needs {count} players and only {joined} have joined."),
                    count=need,
                    joined=len(seats),
                )
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
            post = StartPost(
                players=tuple(player(s) for s in dealt),
                to_act=to_act,
                phase=self.rules.phase(state),
            )
            started = await self.store.start_game(
                game_id,
                seed=seed,
                seats=dealt,
                snapshot=SnapshotRecord(game_id, 0, snapshot),
                waiting=await waiting_rows(self.store, game, dealt, to_act, to_act, now),
                at=now,
                owed=[stored(post)],
            )
            if not started:
                raise GameMovedOnError(game_id)
            return await self.info(game_id)

    async def abandon(self, game_id: int, user_id: int, *, admin: bool = False) -> GameInfo:
        """End a game without a result (its creator, or a server admin)."""
        check_arguments(game_id, user_id)
        async with self._lock(game_id):
            game, _ = await self._game_and_seats(game_id)
            require_creator(
                game,
                user_id,
                admin,
                N_("Only the game's creator or a server admin can abandon the game."),
            )
            if game.status not in RUNNING:
                raise GameStateError(N_("This game is already over."))
            now = self._clock()
            if not await self.store.set_status(game_id, "abandoned", only_from=RUNNING, at=now):
                raise GameMovedOnError(game_id)
            return await self.info(game_id)

    async def discard_new_game(self, game_id: int, user_id: int) -> bool:
        """Take back a game its creator just opened whose thread or lobby Discord
        refused: it is deleted, so no half-made game is left behind. False if it has
        started meanwhile, in which case nothing changes."""
        check_arguments(game_id, user_id)
        async with self._lock(game_id):
            game, _ = await self._game_and_seats(game_id)
            require_creator(
                game, user_id, False, N_("Only the game's creator can take back the game.")
            )
            return await self.store.discard_game(game_id)

    async def kick(
        self,
        game_id: int,
        by_user_id: int,
        user_id: int,
        *,
        admin: bool = False,
        by_name: str | None = None,
    ) -> GameInfo:
        """Remove a player (creator or admin). Before the start their seat goes; after
        it they lose the seat, and a seat nobody plays goes to the autopilot."""
        check_arguments(game_id, by_user_id, user_id)
        async with self._lock(game_id):
            game, seats = await self._game_and_seats(game_id)
            require_creator(
                game,
                by_user_id,
                admin,
                N_("Only the game's creator or a server admin can remove players."),
            )
            seat = seat_of_member(seats, user_id, N_("That user is not playing in this game."))
            now = self._clock()
            if game.status == "open":
                if not await self.store.remove_seat(game_id, seat.seat, at=now):
                    raise GameMovedOnError(game_id)
                return await self.info(game_id)
            require_status(game, "active")
            if seat.substitute_id == user_id:
                # the seat goes back to its player, whose name the service does not know
                updated = replace(seat, substitute_id=None, name=None)
            else:
                updated = replace(seat, user_id=None)
            # a seat nobody holds is the AI's until someone takes it
            await self._put_seat(
                game, seat, updated, "kicked", by_user_id, user_id, now, by_name=by_name
            )
            return await self.info(game_id)

    async def substitute(
        self,
        game_id: int,
        by_user_id: int,
        seat: int,
        new_user_id: int | None,
        *,
        admin: bool = False,
        name: str | None = None,
        by_name: str | None = None,
    ) -> GameInfo:
        """Seat another user (`name`: their display name) at once, or give the seat back
        to its own player (`new_user_id` None or theirs), when nobody's acceptance is
        needed (`seats.handover`): a server admin assigns, the seat's own player takes
        it back, the creator takes a seat nobody plays. Anything else needs acceptance
        and is refused here: `offer_seat` asks for it."""
        check_arguments(game_id, by_user_id, seat, optional=(new_user_id,))
        async with self._lock(game_id):
            game, seats = await self._game_and_seats(game_id)
            require_status(game, "active")
            target = seat_numbered(seats, seat)
            user = _seat_user(target, new_user_id)
            plan = handover(game, seats, target, by_user_id, user, admin)
            if plan.accepter_id is not None:
                raise NotAllowedError(
                    N_(
                        "Taking over a seat needs the new player's acceptance:"
                        " `/mk admin what:substitute` posts an offer they accept."
                    )
                )
            await self._hand_seat(game, target, user, plan, by_user_id, name, by_name)
            return await self.info(game_id)

    async def offer_seat(
        self,
        game_id: int,
        by_user_id: int,
        seat: int,
        new_user_id: int | None,
        *,
        admin: bool = False,
        name: str | None = None,
        by_name: str | None = None,
    ) -> SeatOffer:
        """`/mk admin substitute`: `new_user_id` (None: the seat's own player) plays
        the seat at once when nobody's acceptance is needed (see `substitute`);
        otherwise an offer is posted in the thread that only the user who must agree
        can accept (`accept_seat`), and nothing else changes."""
        check_arguments(game_id, by_user_id, seat, optional=(new_user_id,))
        async with self._lock(game_id):
            game, seats = await self._game_and_seats(game_id)
            require_status(game, "active")
            target = seat_numbered(seats, seat)
            user = _seat_user(target, new_user_id)
            plan = handover(game, seats, target, by_user_id, user, admin)
            if plan.accepter_id is None:
                await self._hand_seat(game, target, user, plan, by_user_id, name, by_name)
                return SeatOffer(await self.info(game_id), seat, user, by_user_id)
            token = seat_token(target)
            news = SeatNews(
                change="offered",
                player=player(target),
                before=player(target),
                by_user_id=by_user_id,
                by_name=by_name,
                other_user_id=user,
                how=plan.how,
                accepter_id=plan.accepter_id,
                token=token,
            )
            await self.store.put_seat(target, at=self._clock(), owed=[stored(news)])
            info = await self.info(game_id)
            return SeatOffer(info, seat, user, by_user_id, plan.accepter_id, token)

    async def accept_seat(
        self,
        game_id: int,
        user_id: int,
        seat: int,
        new_user_id: int,
        by_user_id: int,
        token: int,
        *,
        name: str | None = None,
        by_name: str | None = None,
    ) -> GameInfo:
        """`user_id` accepts the offer `by_user_id` made of `seat` to `new_user_id` (its
        Accept button): refused unless the seat is as it was when offered (`token`),
        the offer would still be allowed, and `user_id` is the one who must agree.
        `name` is the new player's display name."""
        check_arguments(game_id, user_id, seat, new_user_id, by_user_id)
        async with self._lock(game_id):
            game, seats = await self._game_and_seats(game_id)
            require_status(game, "active")
            target = seat_numbered(seats, seat)
            if seat_token(target) != token:
                raise SeatingError(
                    N_("This offer is no longer valid: the seat changed since it was made.")
                )
            plan = handover(game, seats, target, by_user_id, new_user_id, False)
            if plan.accepter_id is not None and plan.accepter_id != user_id:
                raise NotAllowedError(N_("This offer is for someone else."))
            await self._hand_seat(game, target, new_user_id, plan, by_user_id, name, by_name)
            return await self.info(game_id)

    async def set_autopilot(
        self,
        game_id: int,
        by_user_id: int,
        seat: int,
        on: bool,
        *,
        admin: bool = False,
        by_name: str | None = None,
    ) -> GameInfo:
        """Hand a seat to the AI, or take it back (the seat's player, the creator or an
        admin)."""
        check_arguments(game_id, by_user_id, seat)
        async with self._lock(game_id):
            game, seats = await self._game_and_seats(game_id)
            require_status(game, "active")
            target = seat_numbered(seats, seat)
            require_seat_manager(game, target, by_user_id, admin)
            if target.ai:
                raise SeatingError(N_("That seat is an AI player's: the AI always plays it."))
            if not on and target.controller_id is None:
                raise SeatingError(N_("Nobody plays that seat: seat a substitute first."))
            if target.autopilot == on:
                return await self.info(game_id)
            change: SeatChange = "autopilot-on" if on else "autopilot-off"
            updated = replace(target, autopilot=on)
            await self._put_seat(
                game, target, updated, change, by_user_id, None, self._clock(), by_name=by_name
            )
            return await self.info(game_id)

    async def _hand_seat(
        self,
        game: GameRecord,
        target: SeatRecord,
        user_id: int,
        plan: Handover,
        by_user_id: int,
        name: str | None,
        by_name: str | None,
    ) -> None:
        """`user_id` plays the seat from now on (its own player: back without a
        substitute or the autopilot), announced in the thread."""
        change: SeatChange
        if user_id == target.user_id:
            # a substitute's name is not its player's
            kept = target.name if target.substitute_id is None else None
            updated = replace(
                target, substitute_id=None, autopilot=False, name=name if name else kept
            )
            change = "returned"
        else:
            updated = replace(target, substitute_id=user_id, autopilot=False, name=name)
            change = "substitute"
        await self._put_seat(
            game,
            target,
            updated,
            change,
            by_user_id,
            user_id,
            self._clock(),
            how=plan.how,
            by_name=by_name,
        )

    async def set_place(
        self,
        game_id: int,
        *,
        guild_id: int | None,
        channel_id: int | None,
        thread_id: int | None,
    ) -> GameInfo:
        """Record where the game lives on Discord (e.g. once its thread exists)."""
        check_arguments(game_id, optional=(guild_id, channel_id, thread_id))
        await self._game_and_seats(game_id)
        await self.store.set_place(
            game_id, guild_id=guild_id, channel_id=channel_id, thread_id=thread_id, at=self._clock()
        )
        return await self.info(game_id)

    async def set_language(
        self, game_id: int, user_id: int, language: str, *, admin: bool = False
    ) -> GameInfo:
        """Write the game's public posts in another language from now on (its creator,
        or a server admin)."""
        check_arguments(game_id, user_id)
        check_language(language)
        async with self._lock(game_id):
            game, _ = await self._game_and_seats(game_id)
            require_creator(
                game,
                user_id,
                admin,
                N_("Only the game's creator or a server admin can change the game's language."),
            )
            if not await self.store.set_language(game_id, language, at=self._clock()):
                raise GameNotFoundError(game_id)
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
        expected_seat_seq: int | None = None,
        reply_to: ReplyTo | None = None,
        name: str | None = None,
    ) -> ActResult:
        """Play an action (a value or its notation) for the user's seat. In a
        simultaneous phase any awaited seat may act; otherwise only the seat whose turn
        it is. `expected_seq` (a button's version) refuses a stale view of the game;
        `expected_seat_seq` a stale view of the player's own moves (see `seat_version`:
        a draft button stays good while the others draft). With `reply_to`, the private
        answer is owed and stored with the action (see `ActResult.reply_id`). Without
        `expected_seq`, an action that another bot process overtook (it stored a move of
        the game first) is tried again on the game as it now stands."""
        check_arguments(game_id, user_id, optional=(interaction_id,), action=action)

        def chooser(loaded: Loaded[S]) -> tuple[SeatRecord, int | None]:
            return seat_of_controller(loaded.seats, user_id), user_id

        async def attempt() -> ActResult:
            return await self._act(
                game_id,
                chooser,
                action,
                interaction_id,
                expected_seq,
                expected_seat_seq=expected_seat_seq,
                reply_to=reply_to,
                name=name,
            )

        # a player who named no version acts on the game as it stands
        return await _again_if_overtaken(attempt, again=expected_seq is None)

    async def act_for_autopilot(
        self, game_id: int, seat: int, action: A | str, *, expected_seq: int | None = None
    ) -> ActResult:
        """The AI plays a seat it plays now (an AI seat, autopilot, a skipped turn, a
        seat nobody holds)."""
        check_arguments(game_id, seat, action=action)

        def chooser(loaded: Loaded[S]) -> tuple[SeatRecord, int | None]:
            target = seat_numbered(loaded.seats, seat)
            if not target.machine_played:
                raise NotAllowedError(
                    N_("Seat {seat} is played by its player."), seat=label(target)
                )
            return target, None

        return await self._act(game_id, chooser, action, None, expected_seq)

    async def undo(
        self,
        game_id: int,
        user_id: int,
        *,
        interaction_id: int | None = None,
        expected_seq: int | None = None,
        reply_to: ReplyTo | None = None,
    ) -> ActResult:
        """Take back your last action of this turn. The log keeps both: the action and
        an `undo` entry, so versions only ever grow."""
        check_arguments(game_id, user_id, optional=(interaction_id,))
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
                taken = self.rules.parse_action(last.notation)
            except Exception as exc:
                raise corrupt(game_id, exc) from exc
            told = self.rules.describe(before, seat.seat, taken)
            story = stories.took_back(told)
            commit = Commit(state, before, seat, user_id, UNDO, story, (), last.notation, told)
            return await self._append(
                loaded,
                commit,
                interaction_id,
                reply_to,
            )

    async def seat_version(self, game_id: int, seat: int) -> int:
        """The version of one seat's own moves: the number of the log's last entry by
        that seat (0 before its first). Buttons of a simultaneous phase carry it."""
        check_arguments(game_id, seat)
        entries = await self.store.actions(game_id)
        return max((e.seq for e in entries if e.seat == seat), default=0)

    async def preview(self, game_id: int, user_id: int, action: A | str) -> ActionPreview:
        """Judge an action without playing it (a dig before its Confirm): legal, or the
        refusal with its cell. Bad notation and not-your-turn raise as `act` does."""
        check_arguments(game_id, user_id, action=action)
        loaded = await load(self.store, self.rules, game_id)
        require_status(loaded.game, "active")
        seat = seat_of_controller(loaded.seats, user_id)
        state = _started(loaded)
        to_act = self.rules.to_act(state)
        if seat.seat not in to_act:
            raise not_your_turn(loaded.seats, to_act)
        value = self._read(state, seat.seat, action)
        refusal: ValueError | None = None
        story: StoryData | None = None
        try:
            self.rules.play(state, seat.seat, value)
            story = self.rules.describe(state, seat.seat, value)
        except ValueError as exc:  # the rules' refusal, with its sentence
            refusal = exc
        return ActionPreview(
            game_id=game_id,
            seq=loaded.seq,
            seat=seat.seat,
            notation=self.rules.notation(value),
            cells=self.rules.cells(value),
            story=story,
            refusal=refusal,
            refusal_cell=None if refusal is None else getattr(refusal, "cell", None),
            view=self.rules.view(state, seat.seat),
        )

    # --- the AI's moves ----------------------------------------------------------------

    async def owed_moves(self, *, limit: int = 100) -> list[tuple[int, int]]:
        """(game, seat) pairs the AI owes a move now, the longest waiting first."""
        rows = await self.store.owed_moves(self._clock(), limit=limit)
        return [(r.game_id, r.seat) for r in rows]

    async def play_owed_move(self, game_id: int, seat: int) -> ActResult | None:
        """One AI action for a seat the AI plays now (None if the game no longer awaits
        it, or another process is playing it). The AI thinks in a worker thread; its
        choice depends only on the position. If the AI fails, the move is tried again
        later and the error propagates.

        The game's AI moves are a duty claimed in the store (`move:<game>`), so two
        processes never think about the same position; a holder too slow for its lease
        may be overtaken, but the action is appended only at the seq it was chosen at
        (the log's next one), so each owed move is applied exactly once."""
        check_arguments(game_id, seat)
        async with self.duties.holding(duty("move", game_id)) as claim:
            if claim is None:
                return None
            return await self._play_owed_move(game_id, seat)

    async def _play_owed_move(self, game_id: int, seat: int) -> ActResult | None:
        loaded = await load(self.store, self.rules, game_id)
        state = loaded.state
        target = next((s for s in loaded.seats if s.seat == seat), None)
        if (
            loaded.game.status != "active"
            or state is None
            or target is None
            or not target.machine_played
            or seat not in self.rules.to_act(state)
        ):
            return None
        try:
            action = await asyncio.to_thread(
                self.rules.choose_action, state, seat, loaded.seq * 7919 + seat
            )
            return await self.act_for_autopilot(game_id, seat, action, expected_seq=loaded.seq)
        except GameMovedOnError:
            return None
        except Exception:
            await self._postpone(game_id, seat, self._clock() + AUTOPILOT_RETRY)
            raise

    async def legal_actions(self, game_id: int, user_id: int) -> list[str]:
        """The user's legal actions now, in notation (none when it is not their turn)."""
        check_arguments(game_id, user_id)
        loaded = await load(self.store, self.rules, game_id)
        seat = seat_of_controller(loaded.seats, user_id).seat
        state = loaded.state
        if loaded.game.status != "active" or state is None or seat not in self.rules.to_act(state):
            return []
        return [self.rules.notation(a) for a in self.rules.legal_actions(state, seat)]

    # --- reading ---------------------------------------------------------------------

    async def info(self, game_id: int) -> GameInfo:
        """The game's metadata and seats (no state is loaded)."""
        check_arguments(game_id)
        game, seats = await self._game_and_seats(game_id)
        return game_info(self.rules, game, seats)

    async def load(self, game_id: int) -> Loaded[S]:
        """The stored game with its state rebuilt (snapshot plus later log entries)."""
        check_arguments(game_id)
        return await load(self.store, self.rules, game_id)

    async def view(
        self, game_id: int, viewer_id: int | None, *, at_seq: int | None = None
    ) -> GameView:
        """What a user may see (a spectator unless seated), with the game's metadata:
        everything the board, pyramid, market and score images need. With `at_seq`,
        the game as it was at that version (a turn post delivered late shows the board
        of its turn); that rebuilds the state from the log, so it is the rare path."""
        check_arguments(game_id, optional=(viewer_id,))
        loaded = await load(self.store, self.rules, game_id)
        info = game_info(self.rules, loaded.game, loaded.seats)
        seat = info.seat_of(viewer_id) if viewer_id is not None else None
        viewer = None if seat is None else seat.seat
        state = loaded.state
        seq = loaded.seq
        if state is not None and at_seq is not None and 0 <= at_seq < loaded.seq:
            entries = [e for e in await self.store.actions(game_id) if e.seq <= at_seq]
            try:
                state = replay_log(self.rules, loaded.game, loaded.config, entries)
            except Exception as exc:
                raise corrupt(game_id, exc) from exc
            seq = at_seq
        if state is None:
            return GameView(info, seq, viewer, None, None)
        return GameView(
            info, seq, viewer, self.rules.view(state, viewer), self.rules.outcome(state)
        )

    async def turn_views(self, game_id: int) -> list[tuple[dict[str, Any], tuple[str, ...]]]:
        """The table's view after every played turn, with the cells that turn changed,
        from the first turn's start to the end (the frames of the game's replay)."""
        check_arguments(game_id)
        loaded = await load(self.store, self.rules, game_id)
        if loaded.game.seed is None:
            return []
        try:
            state = self.rules.new_state(loaded.config, loaded.game.seed)
            frames: list[tuple[dict[str, Any], tuple[str, ...]]] = []
            cells: set[str] = set()
            for entry in standing(await self.store.actions(game_id)):
                told = self.rules.announce(state)
                action = self.rules.parse_action(entry.notation)
                self.rules.replay(state, entry.seat, action)
                cells.update(self.rules.cells(action))
                if told == "full" and not entry.ends_turn:
                    continue
                if told != "full" and (frames or self.rules.announce(state) != "full"):
                    continue  # the setup: one frame once the mountain is ready
                frames.append((self.rules.view(state, None), tuple(sorted(cells))))
                cells = set()
        except Exception as exc:
            raise corrupt(game_id, exc) from exc
        return frames

    async def log(self, game_id: int, user_id: int | None = None) -> list[LogEntry]:
        """The actions that stand, oldest first, as `user_id` may hear of them (None:
        as anyone at the table may): another seat's secret (a keep in the running
        draft) is left out, and told in the words of its reveal once revealed."""
        check_arguments(game_id, optional=(user_id,))
        loaded = await load(self.store, self.rules, game_id)
        entries = await self.store.actions(game_id)
        try:
            check_sequence(entries, 0, entries[-1].seq if entries else 0)
            moves = standing(entries)
        except ValueError as exc:
            raise corrupt(game_id, exc) from exc
        moves = await self._told(loaded.game, loaded.config, moves, entries)
        return self._heard(loaded, self._viewer(loaded.seats, user_id), moves)

    def _viewer(self, seats: Sequence[SeatRecord], user_id: int | None) -> int | None:
        """The seat whose secrets a user may hear (the one they play or hold), if any."""
        if user_id is None:
            return None
        for seat in seats:
            if user_id in (seat.controller_id, seat.user_id, seat.substitute_id):
                return seat.seat
        return None

    def _heard(
        self, loaded: Loaded[S], viewer: int | None, moves: Sequence[ActionRecord]
    ) -> list[LogEntry]:
        """The moves' log entries as `viewer` may hear them in the game's position now
        (the rules' `told_to`): what is secret from them left out."""
        entries = log_entries(loaded.seats, moves)
        if loaded.state is None:
            return entries
        state = loaded.state
        out = []
        for entry in entries:
            told = self.rules.told_to(state, viewer, entry.seat, entry.told)
            if told is not None:
                out.append(replace(entry, story=told))
        return out

    async def record(self, game_id: int) -> dict[str, Any]:
        """The finished game's record (config, seed, every standing action in notation),
        checked to replay to the stored outcome; raises `CorruptGameError` if it does
        not. Refused before the end: a record tells every secret."""
        check_arguments(game_id)
        loaded = await load(self.store, self.rules, game_id)
        if loaded.game.seed is None or loaded.state is None:
            raise GameStateError(N_("This game has not started yet."))
        if not self.rules.is_over(loaded.state):
            raise GameStateError(N_("The game's record is given when the game is over."))
        entries = await self.store.actions(game_id)
        try:
            moves = [(e.seat, e.notation) for e in standing(entries)]
            record = self.rules.record(loaded.config, loaded.game.seed, moves)
            replayed = self.rules.record_outcome(record)
        except Exception as exc:
            raise corrupt(game_id, exc) from exc
        if replayed != self.rules.outcome(loaded.state):
            raise corrupt(game_id, ValueError("the record does not replay to the outcome"))
        return record

    async def changes_since_last_turn(self, game_id: int, user_id: int) -> list[LogEntry]:
        """What the others did since the user's previous turn ended (if it is the
        user's turn now, their actions so far in it do not count as a turn), as the
        user may hear it. The moves of a secret phase (the draft) end nobody's turn:
        once it is over they are told together, the user's own with the others'."""
        check_arguments(game_id, user_id)
        loaded = await load(self.store, self.rules, game_id)
        seat = seat_of_controller(loaded.seats, user_id).seat
        entries = await self.store.actions(game_id)
        try:
            moves = standing([e for e in entries if e.seq <= loaded.seq])
        except ValueError as exc:
            raise corrupt(game_id, exc) from exc
        moves = await self._told(loaded.game, loaded.config, moves, entries)

        state = loaded.state

        def told(move: ActionRecord) -> StoryData:
            return stories.read(move.story) or stories.played(move.notation)

        def ends_turn(move: ActionRecord) -> bool:
            return move.seat == seat and not self.rules.played_in_secret(told(move))

        end = len(moves)
        if state is not None and seat in self.rules.to_act(state):
            while end and ends_turn(moves[end - 1]):
                end -= 1
        start = end
        while start and not ends_turn(moves[start - 1]):
            start -= 1
        window = moves[start:end]
        if state is not None:
            # while a secret phase runs, the user's own secret moves are no news to them
            window = [
                m
                for m in window
                if m.seat != seat or self.rules.told_to(state, None, seat, told(m)) is not None
            ]
        return self._heard(loaded, seat, window)

    async def turn_status(self, game_id: int) -> TurnStatus:
        """Whom the game is waiting for, since when, and when each is reminded next."""
        check_arguments(game_id)
        game, seats = await self._game_and_seats(game_id)
        by_seat = {s.seat: s for s in seats}
        waiting = tuple(
            Waiting(
                seat=r.seat,
                label=label(by_seat[r.seat]),
                user_id=by_seat[r.seat].controller_id,
                autopilot=by_seat[r.seat].machine_played,
                since=r.waiting_since,
                next_reminder=r.next_at,
                missed=r.missed,
                muted=r.muted_for_turn,
            )
            for r in await self.store.reminders(game_id)
            if r.seat in by_seat
        )
        return TurnStatus(game_id, game.status, waiting)

    async def game_counts(self, guild_ids: Collection[int] | None = None) -> dict[GameStatus, int]:
        """How many games there are of each status, of these Discord servers (None:
        of all): what a process serves (its ready line, the health check)."""
        return await self.store.game_counts(guild_ids)

    async def game_in_thread(self, thread_id: int) -> GameInfo | None:
        """The most recent game played in a Discord thread."""
        check_arguments(ABSENT, thread_id)
        game = await self.store.game_in_thread(thread_id)
        return None if game is None else await self.info(game.id)

    async def games_of_user(self, user_id: int, *, finished: bool = False) -> list[GameInfo]:
        """The user's running games (or, with `finished`, their ended ones)."""
        check_arguments(ABSENT, user_id)
        statuses: tuple[GameStatus, ...] = ("over", "abandoned") if finished else RUNNING
        games = await self.store.games_of_user(user_id, statuses)
        return [await self.info(g.id) for g in games if g.rules == self.rules.name]

    # --- maintenance -------------------------------------------------------------------

    async def check_game(self, game_id: int) -> int:
        """Check every log entry against the chain and replay the whole log (a snapshot
        that disagrees is rebuilt by the load first); returns the log length or raises
        `CorruptGameError`."""
        check_arguments(game_id)
        await load(self.store, self.rules, game_id)
        checked = await verify(self.store, self.rules, game_id)
        if checked.snapshot_problem is not None:
            raise corrupt(game_id, ValueError(f"the snapshot: {checked.snapshot_problem}"))
        return checked.seq

    async def rebuild_snapshot(self, game_id: int) -> int:
        """Rewrite a game's snapshot from its log (the snapshot is only a cache), in
        either direction; returns the log length."""
        check_arguments(game_id)
        async with self._lock(game_id):
            game, _ = await self._game_and_seats(game_id)
            config = parse_config(game)
            if game.status == "open":
                return 0
            entries = await self.store.actions(game_id)
            try:
                state, seq = rebuild_state(self.rules, game, config, entries)
                text = self.rules.state_to_json(state)
            except Exception as exc:
                raise corrupt(game_id, exc) from exc
            try:
                await self.store.put_snapshot(SnapshotRecord(game_id, seq, text))
            except WriteFaultError as exc:
                raise storage_full(game_id, exc) from exc
            return seq

    async def handled(self, interaction_id: int) -> bool:
        """Whether an action this interaction caused is stored (so an error after it
        must not tell the player that nothing was changed)."""
        check_arguments(ABSENT, interaction_id)
        return await self.store.interaction(interaction_id) is not None

    async def prune_interactions(self, older_than: timedelta = timedelta(days=1)) -> int:
        """Forget answers to interactions older than this (Discord retries within
        minutes); returns how many were forgotten."""
        return await self.store.prune_interactions(self._clock() - older_than)

    # --- private helpers -------------------------------------------------------------

    async def _told(
        self,
        game: GameRecord,
        config: dict[str, Any],
        entries: Sequence[ActionRecord],
        log: Sequence[ActionRecord] | None = None,
    ) -> list[ActionRecord]:
        """The entries with the English sentences of an older game told anew as
        stories (`stories.restory`: the log is read and replayed only for those)."""
        if stories.all_told(entries):
            return list(entries)
        if log is None:
            log = await self.store.actions(game.id)
        return stories.restory(self.rules, game, config, log, entries)

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
        *,
        expected_seat_seq: int | None = None,
        reply_to: ReplyTo | None = None,
        name: str | None = None,
    ) -> ActResult:
        async with self._lock(game_id):
            loaded = await load(self.store, self.rules, game_id)
            try:
                self._require_current(loaded, expected_seq)
                seat, user_id = chooser(loaded)
                if expected_seat_seq is not None and expected_seat_seq != await self.seat_version(
                    game_id, seat.seat
                ):
                    raise SeatMovedOnError()
                state = _started(loaded)
                to_act = self.rules.to_act(state)
                if seat.seat not in to_act:
                    raise not_your_turn(loaded.seats, to_act)
                value = self._read(state, seat.seat, action)
                after = self.rules.play(state, seat.seat, value)
                if name and name != seat.name:
                    seat = replace(seat, name=name)
                commit = Commit(
                    before=state,
                    after=after,
                    seat=seat,
                    user_id=user_id,
                    notation=self.rules.notation(value),
                    story=self.rules.describe(state, seat.seat, value),
                    cells=self.rules.cells(value),
                )
                if reply_to is not None:
                    # this process answers the player itself (see `ReplyTo.answered_by`)
                    reply_to = replace(reply_to, answered_by=self.duties.owner)
                return await self._append(loaded, commit, interaction_id, reply_to)
            except (ServiceError, ValueError):
                # A retried interaction whose action is stored (perhaps by another
                # process) is refused by the game as it is now (not your turn, the game
                # moved on), or by the log's key on the interaction if the action is
                # still legal: then its stored answer is the answer. Looked up only
                # then, after the load that saw the action: not on every act.
                earlier = await self._earlier_result(game_id, interaction_id)
                if earlier is not None:
                    return earlier
                raise

    def _read(self, state: S, seat: int, action: A | str) -> A:
        """The action asked for: notation is read where the game stands, so that what
        the moment refuses comes before what the text gets wrong."""
        return self.rules.read_action(state, seat, action) if isinstance(action, str) else action

    def _telling(self, commit: Commit[S], seats: Sequence[SeatRecord]) -> Telling:
        """How the table hears of this action (see `table.Telling`)."""
        before = self.rules.announce(commit.before)
        after = self.rules.announce(commit.after)
        revealed: tuple[tuple[int, StoryData], ...] = ()
        if before == "secret" and after != "secret":
            revealed = tuple((s.seat, self.rules.revealed(commit.after, s.seat)) for s in seats)
        return Telling(before, after, self.rules.phase(commit.after), revealed)

    async def _append(
        self,
        loaded: Loaded[S],
        commit: Commit[S],
        interaction_id: int | None,
        reply_to: ReplyTo | None,
    ) -> ActResult:
        """Persist one accepted action with its story, its snapshot, the interaction's
        answer, the new reminder schedule and every message it makes owed, in one
        transaction; return the events."""
        game = loaded.game
        seq = loaded.seq + 1
        now = self._clock()
        seat = commit.seat
        to_act = self.rules.to_act(commit.after)
        over = self.rules.is_over(commit.after)
        # a new phase awaits every seat anew, even one that was awaited before
        new_phase = self.rules.phase(commit.before) != self.rules.phase(commit.after)
        awaited = () if new_phase else self.rules.to_act(commit.before)
        turn_ended = over or new_phase or seat.seat not in to_act
        newly = tuple(s for s in to_act if s not in awaited)
        # the seats as they stand after this action (a skipped turn is over when it ends)
        changed = [] if seat == seat_numbered(loaded.seats, seat.seat) else [seat]
        if turn_ended and seat.skip_turn:
            changed = [replace(seat, skip_turn=False)]
        seats = [next((c for c in changed if c.seat == s.seat), s) for s in loaded.seats]
        # the reads this may need: the new reminder rows if whom the game awaits changed,
        # the turn's entries if it ended (both at once: one wait, not two, under load)
        rescheduled = set(awaited) != set(to_act)
        waiting: list[ReminderRecord] | None = None
        turn: list[ActionRecord] = []
        if rescheduled and turn_ended:
            waiting, turn = await asyncio.gather(
                waiting_rows(self.store, game, seats, to_act, newly, now),
                self.store.turn_actions(game.id, seat.seat),
            )
        elif rescheduled:
            waiting = await waiting_rows(self.store, game, seats, to_act, newly, now)
        elif turn_ended:
            turn = await self.store.turn_actions(game.id, seat.seat)
        entry = ActionRecord(
            game.id,
            seq,
            seat.seat,
            commit.notation,
            now,
            commit.user_id,
            interaction_id,
            story=stories.stored(commit.story),
            ends_turn=turn_ended,
        )
        result = ActResult(
            game_id=game.id,
            seq=seq,
            seat=seat.seat,
            label=label(seat),
            user_id=commit.user_id,
            notation=commit.notation,
            turn_ended=turn_ended,
            to_act=to_act,
            newly_to_act=newly,
            game_over=over,
            outcome=self.rules.outcome(commit.after) if over else None,
            undone=commit.undone,
            story=commit.story,
            told=commit.told or commit.story,
        )
        turn = await self._told(loaded.game, loaded.config, turn)
        owed = owed_after(
            self.rules,
            result,
            seats,
            [*turn, entry],
            waiting or [],
            reply_to=reply_to,
            expires=now + REPLY_TTL,
            telling=self._telling(commit, seats),
        )
        interaction = None
        if interaction_id is not None:
            interaction = InteractionRecord(interaction_id, game.id, seq, result.to_json(), now)
        try:
            ids = await self.store.append_action(
                entry,
                SnapshotRecord(game.id, seq, self.rules.state_to_json(commit.after)),
                interaction=interaction,
                status="over" if over else None,
                waiting=waiting,
                renew=newly,
                seats=changed,
                owed=[stored(o, now + REPLY_GRACE if o.kind == "reply" else None) for o in owed],
            )
        except (SeqConflictError, StatusConflictError, DuplicateInteractionError) as exc:
            # another process got there first; if it handled this very interaction,
            # its answer is the answer
            earlier = await self._earlier_result(game.id, interaction_id)
            if earlier is not None:
                return earlier
            if isinstance(exc, SeqConflictError):
                raise _Overtaken(game.id) from None
            raise GameMovedOnError(game.id) from None
        except WriteFaultError as exc:  # no room (or no permission): nothing stored
            raise storage_full(game.id, exc) from exc
        return replace(result, reply_id=ids[-1] if reply_to is not None else None)

    async def _put_seat(
        self,
        game: GameRecord,
        before: SeatRecord,
        after: SeatRecord,
        change: SeatChange,
        by_user_id: int | None,
        other_user_id: int | None,
        now: datetime,
        *,
        how: SeatHow = "",
        by_name: str | None = None,
    ) -> None:
        """Store a change of who plays a seat with its announcement; a seat the game
        awaits is reminded anew (the AI's at once, a person's after the interval)."""
        next_at = now
        if not after.machine_played:
            prefs = await self.store.notification_prefs(
                [] if after.controller_id is None else [after.controller_id]
            )
            interval = timedelta(seconds=game.reminder_seconds)
            next_at = next_reminder(now, interval, prefs.get(after.controller_id or 0))
        news = SeatNews(
            change=change,
            player=player(after),
            by_user_id=by_user_id,
            other_user_id=other_user_id if other_user_id is not None else before.controller_id,
            before=player(before),
            by_name=by_name,
            how=how,
            owner_id=after.user_id,
        )
        owed: list[OwedPayload] = [news]
        awaited = {r.seat: r for r in await self.store.reminders(game.id)}
        if (
            after.seat in awaited
            and not after.machine_played
            and (before.machine_played or before.controller_id != after.controller_id)
        ):
            owed.append(Ping(player=player(after), next_reminder=next_at))
        moved = next_at if after.seat in awaited else None
        await self.store.put_seat(after, at=now, next_at=moved, owed=[stored(o) for o in owed])

    async def _postpone(self, game_id: int, seat: int, at: datetime) -> None:
        for row in await self.store.reminders(game_id):
            if row.seat == seat:
                await self.store.put_reminder(replace(row, next_at=at))

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

    # --- your games and the daily digest -------------------------------------------------

    async def your_games(
        self, user_id: int, *, guild_id: int | None = None, finished: int = FINISHED_SHOWN
    ) -> list[YourGame]:
        """The user's games (in one server with `guild_id`): the ones where it is their
        move first, the longest waiting first; then their other running games, the
        lobbies they joined, and the last `finished` ended games, the newest first."""
        check_arguments(ABSENT, user_id, optional=(guild_id,))
        games = [
            g
            for g in await self.store.games_of_user(user_id, GAME_STATUSES)
            if g.rules == self.rules.name and (guild_id is None or g.guild_id == guild_id)
        ]
        running = [g for g in games if g.status in RUNNING]
        ended = sorted(
            (g for g in games if g.status not in RUNNING), key=lambda g: g.updated_at, reverse=True
        )
        out = []
        for game in running + ended[: max(0, finished)]:
            info = game_info(self.rules, game, await self.store.seats(game.id))
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
            prefs = await self.notifications.prefs(user_id)
            due = next_digest(self._clock(), prefs, current.sent_at)
        await self.store.put_digest(replace(current, due_at=due))
        return due

    async def digest_due_at(self, user_id: int) -> datetime | None:
        """When the user's next daily digest is due (None: they have not opted in)."""
        check_arguments(ABSENT, user_id)
        stored = await self.store.digest(user_id)
        return None if stored is None else stored.due_at

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
            async with self.duties.holding(duty("digest", row.user_id)) as held:
                if held is None:
                    continue
                digest = await self._claim_digest(row, now)
            if digest is not None:
                out.append(digest)
        return out

    async def _claim_digest(self, row: DigestRecord, now: datetime) -> Digest | None:
        assert row.due_at is not None
        games = tuple(g for g in await self.your_games(row.user_id, finished=0) if g.your_move)
        sent = now if games else None
        prefs = await self.notifications.prefs(row.user_id)
        next_at = next_digest(now, prefs, sent or row.sent_at)
        claimed = await self.store.claim_digest(
            row.user_id, due_at=row.due_at, next_at=next_at, sent_at=sent
        )
        return Digest(row.user_id, games, prefs.language) if claimed and games else None


def _seat_user(seat: SeatRecord, user_id: int | None) -> int:
    """Who is to play a seat: `user_id`, or (None) the seat's own player."""
    if user_id is not None:
        return user_id
    if seat.user_id is None:
        raise SeatingError(N_("That seat has no player of its own: name who takes it."))
    return seat.user_id


def _started(loaded: Loaded[S]) -> S:
    if loaded.state is None:
        raise GameStateError(N_("This game has not started yet."))
    return loaded.state


def _utc_now() -> datetime:
    return datetime.now(UTC)


def check_language(language: object) -> None:
    """A language the game's posts can be written in (a catalogue's language)."""
    if language not in LANGUAGES:
        raise InvalidSettingError(
            N_("There is no language {language} here: choose one of {languages}."),
            language=echo(language),
            languages=", ".join(LANGUAGES),
        )
