"""The game service: everything a Discord command does, without Discord.

    service = GameService(SqliteStore("data/games.db"), MOUNTAIN_KING)
    game = await service.create_game(creator, {"players": 2})
    await service.seating.join(game.id, friend)
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
from collections.abc import Callable, Collection, Mapping
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any, Generic

from bot.i18n.catalogue import N_, SOURCE_LANGUAGE
from bot.service import stories
from bot.service.appending import Keep, again_if_overtaken, append, earlier_result
from bot.service.arguments import ABSENT, check_arguments, check_language
from bot.service.away import Away
from bot.service.clock import TurnClock, with_deadlines
from bot.service.community import Community
from bot.service.decisions import Decisions
from bot.service.duties import Duties, duty
from bot.service.errors import (
    CannotUndoError,
    GameMovedOnError,
    GameNotFoundError,
    GameStateError,
    NotAllowedError,
    SeatingError,
    SeatMovedOnError,
    ServiceError,
)
from bot.service.history import History
from bot.service.loading import (
    UNDO,
    Loaded,
    corrupt,
    game_and_seats,
    game_record,
    load,
    parse_config,
    replay_log,
    standing,
)
from bot.service.locks import GameLocks
from bot.service.notifications import Notifications, waiting_rows
from bot.service.outbox import Fresh, Outbox
from bot.service.owed import StartPost
from bot.service.protocol import A, Asked, GameRules, S, StoryData, V
from bot.service.rematches import Rematches
from bot.service.results import (
    ActionPreview,
    ActResult,
    GameInfo,
    GameView,
    ReplyTo,
)
from bot.service.seating import Seating
from bot.service.seats import (
    RUNNING,
    game_info,
    label,
    not_your_turn,
    require_creator,
    require_current,
    require_status,
    seat_numbered,
    seat_of_controller,
    started,
)
from bot.service.shelf import Shelf, shelf_of
from bot.service.table import Commit, player, stored
from bot.service.tidy import Tidy
from bot.service.votes import Votes
from bot.service.your_games import YourGames
from bot.store import (
    GameStatus,
    NewGame,
    SeatRecord,
    SnapshotRecord,
    Store,
)

DEFAULT_REMINDER_INTERVAL = timedelta(hours=24)
SEED_LIMIT = 2**31
# a failed AI move is tried again after this (doubling is not needed: a bug, not a load)
AUTOPILOT_RETRY = timedelta(minutes=10)
# how long a handled interaction's answer is kept (Discord retries within minutes)
INTERACTIONS_KEPT = timedelta(days=1)
# how long a delivered message's row is kept (a resend comes within minutes; after two
# weeks the outbox holds only what is owed and the last fortnight, not every post ever)
DELIVERED_KEPT = timedelta(days=14)

# picks the acting seat (and the user acting, None for the autopilot) from a loaded game
Chooser = Callable[[Loaded[S]], tuple[SeatRecord, int | None]]


class GameService(Generic[S, A, V]):
    """The games of a shelf (one game's rules, or several) over a `Store`. `rng` picks
    each game's seed at start (default: `secrets`); `clock` gives an aware datetime.
    The service itself keeps a game's life: create, start, act, undo, preview, the
    AI's owed moves and the views. Its parts: who sits where in `service.seating`,
    the log, record and turn status in `service.history`, a player's games and daily
    digest in `service.your_games`; reminders, notification settings and remembered
    messages in `service.notifications`, the messages the table owes in
    `service.outbox`, the table's votes in `service.votes`."""

    def __init__(
        self,
        store: Store,
        rules: GameRules[S, A, V] | Shelf[S, A, V],
        *,
        rng: random.Random | None = None,
        clock: Callable[[], datetime] | None = None,
        reminder_interval: timedelta = DEFAULT_REMINDER_INTERVAL,
        vote_after_reminders: int = 3,
    ) -> None:
        self.store = store
        self.games = games = shelf_of(rules)  # every game the table plays
        self.rules = games.first  # the default game's
        self.reminder_interval = reminder_interval
        self._rng = rng
        self._clock = clock or _utc_now
        self.notifications = Notifications(store, self._clock)
        self.outbox = Outbox(store, self._clock)
        # this process's claims on the scheduler's duties (several processes may share
        # the store)
        self.duties = Duties(store, self._clock)
        self.votes = Votes(store, self._clock, self.duties, after_reminders=vote_after_reminders)
        self.away = Away(store, self._clock, self.duties)
        self.clock = TurnClock(store, self._clock, self.duties)
        self.tidy = Tidy(store, self._clock, self.duties)
        self.decisions = Decisions(store, games, self._clock)
        # one lock per game, shared with the parts that change a game (seating)
        self._locks = GameLocks()
        self.seating = Seating(store, games, self._clock, self._locks)
        self.history = History(store, games)
        self.rematches = Rematches(store, games, self._clock, self.start)
        self.your_games = YourGames(store, games, self._clock, self.notifications, self.duties)
        self.community = Community(store, games, self._clock, self.duties, self.notifications)

    def now(self) -> datetime:
        """The service's time (the clock it was given): what owed messages and
        reminders are due against."""
        return self._clock()

    # --- the game's life ---------------------------------------------------------------

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
        game: str | None = None,
    ) -> GameInfo:
        """A new game open for players to join (the creator takes the first seat
        unless `join=False`), its public posts in `language`; `game` names which of the
        table's games (its rules' name; None: the first). Bad options raise the
        rules' config error."""
        check_arguments(ABSENT, creator_id, optional=(guild_id, channel_id, thread_id))
        check_language(language)
        rules = self.rules if game is None else self.games.of(game)
        config = rules.make_config(options)
        interval = reminder_interval or self.reminder_interval
        record = await self.store.create_game(
            NewGame(
                rules=rules.name,
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

    async def start(self, game_id: int, user_id: int, *, admin: bool = False) -> GameInfo:
        """Deal the game (its creator only): seats get colours in join order and the
        seed is drawn now and stored."""
        check_arguments(game_id, user_id)
        async with self._locks(game_id):
            game, seats = await game_and_seats(self.store, game_id)
            require_creator(
                game,
                user_id,
                admin,
                N_("Only the game's creator or a server admin can start the game."),
            )
            require_status(game, "open")
            rules = self.games.of(game)
            config = parse_config(game)
            need = rules.seat_count(config)
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
                state = rules.new_state(config, seed)
                labels = rules.seat_labels(config)
                teams = rules.seat_teams(state)
                snapshot = rules.state_to_json(state)
            except Exception as exc:  # the config was validated when the game was made
                raise corrupt(game_id, exc) from exc
            dealt = [replace(s, colour=labels[s.seat], team=teams[s.seat]) for s in seats]
            to_act = rules.to_act(state)
            post = StartPost(
                players=tuple(player(s) for s in dealt), to_act=to_act, phase=rules.phase(state)
            )
            # with the turn clock's deadline of whoever is called first
            owed = await with_deadlines(self.store, game.clock_seconds, [post], now)
            started = await self.store.start_game(
                game_id,
                seed=seed,
                seats=dealt,
                snapshot=SnapshotRecord(game_id, 0, snapshot),
                waiting=await waiting_rows(self.store, game, dealt, to_act, to_act, now),
                at=now,
                owed=[stored(o) for o in owed],
            )
            if not started:
                raise GameMovedOnError(game_id)
            return await self.info(game_id)

    async def abandon(self, game_id: int, user_id: int, *, admin: bool = False) -> GameInfo:
        """End a game without a result (its creator, or a server admin)."""
        check_arguments(game_id, user_id)
        async with self._locks(game_id):
            game = await game_record(self.store, game_id)
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
        async with self._locks(game_id):
            game = await game_record(self.store, game_id)
            require_creator(
                game, user_id, False, N_("Only the game's creator can take back the game.")
            )
            return await self.store.discard_game(game_id)

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
        async with self._locks(game_id):
            game = await game_record(self.store, game_id)
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
        action: A | str | Asked[A],
        *,
        interaction_id: int | None = None,
        expected_seq: int | None = None,
        expected_seat_seq: int | None = None,
        reply_to: ReplyTo | None = None,
        name: str | None = None,
        keep: Keep[S] | None = None,
    ) -> ActResult:
        """Play an action (a value, its notation, or as a command's options ask for it:
        `Asked`) for the user's seat. In a
        simultaneous phase any awaited seat may act; otherwise only the seat whose turn
        it is. `expected_seq` (a button's version) refuses a stale view of the game;
        `expected_seat_seq` a stale view of the player's own moves (see `seat_version`:
        a draft button stays good while the others draft). With `reply_to`, the private
        answer is owed and stored with the action (see `ActResult.reply_id`). Without
        `expected_seq`, an action that another bot process overtook (it stored a move of
        the game first) is tried again on the game as it now stands. Once the action is
        stored, `keep` is given the game as it now stands (`Fresh`), for the delivery of
        what it owes that follows."""
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
                keep=keep,
            )

        # a player who named no version acts on the game as it stands
        return await again_if_overtaken(attempt, again=expected_seq is None)

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
        keep: Keep[S] | None = None,
    ) -> ActResult:
        """Take back your last action of this turn. The log keeps both: the action and
        an `undo` entry, so versions only ever grow. `keep` as for `act`."""
        check_arguments(game_id, user_id, optional=(interaction_id,))
        async with self._locks(game_id):
            loaded = await load(self.store, self.games, game_id)
            earlier = await earlier_result(self.store, game_id, interaction_id)
            if earlier is not None:
                return earlier
            require_current(loaded, expected_seq)
            seat = seat_of_controller(loaded.seats, user_id)
            state = started(loaded)
            entries = await self.store.actions(game_id)
            if (entries[-1].seq if entries else 0) != loaded.seq:
                raise GameMovedOnError(game_id)
            try:
                moves = standing(entries)
            except ValueError as exc:
                raise corrupt(game_id, exc) from exc
            last = moves[-1] if moves else None
            if last is None or not loaded.rules.can_undo(state, seat.seat, last.seat):
                raise CannotUndoError()
            try:
                before = replay_log(loaded.rules, loaded.game, loaded.config, moves[:-1])
                taken = loaded.rules.parse_action(last.notation)
            except Exception as exc:
                raise corrupt(game_id, exc) from exc
            told = loaded.rules.describe(before, seat.seat, taken)
            story = stories.took_back(told)
            commit = Commit(state, before, seat, user_id, UNDO, story, (), last.notation, told)
            return await self._append(loaded, commit, interaction_id, reply_to, keep)

    async def seat_version(self, game_id: int, seat: int) -> int:
        """The version of one seat's own moves: the number of the log's last entry by
        that seat (0 before its first). Buttons of a simultaneous phase carry it."""
        check_arguments(game_id, seat)
        entries = await self.store.actions(game_id)
        return max((e.seq for e in entries if e.seat == seat), default=0)

    async def preview(
        self, game_id: int, user_id: int, action: A | str | Asked[A]
    ) -> ActionPreview[A, V]:
        """Judge an action without playing it (a dig before its Confirm): legal, or the
        refusal with its cell. Bad notation and not-your-turn raise as `act` does."""
        check_arguments(game_id, user_id, action=action)
        loaded = await load(self.store, self.games, game_id)
        require_status(loaded.game, "active")
        seat = seat_of_controller(loaded.seats, user_id)
        state = started(loaded)
        to_act = loaded.rules.to_act(state)
        if seat.seat not in to_act:
            raise not_your_turn(loaded.seats, to_act)
        value = self._read(loaded.rules, state, seat.seat, action)
        refusal: ValueError | None = None
        story: StoryData | None = None
        try:
            loaded.rules.play(state, seat.seat, value)
            story = loaded.rules.describe(state, seat.seat, value)
        except ValueError as exc:  # the rules' refusal, with its sentence
            refusal = exc
        return ActionPreview(
            game_id=game_id,
            seq=loaded.seq,
            seat=seat.seat,
            action=value,
            notation=loaded.rules.notation(value),
            cells=loaded.rules.cells(value),
            story=story,
            refusal=refusal,
            refusal_cell=None if refusal is None else getattr(refusal, "cell", None),
            view=loaded.rules.view(state, seat.seat),
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
        loaded = await load(self.store, self.games, game_id)
        state = loaded.state
        target = next((s for s in loaded.seats if s.seat == seat), None)
        if (
            loaded.game.status != "active"
            or state is None
            or target is None
            or not target.machine_played
            or seat not in loaded.rules.to_act(state)
        ):
            return None
        try:
            action = await asyncio.to_thread(
                loaded.rules.choose_action, state, seat, loaded.seq * 7919 + seat
            )
            return await self.act_for_autopilot(game_id, seat, action, expected_seq=loaded.seq)
        except GameMovedOnError:
            return None
        except Exception:
            await self._postpone(game_id, seat, self._clock() + AUTOPILOT_RETRY)
            raise

    # --- reading ---------------------------------------------------------------------

    async def info(self, game_id: int) -> GameInfo:
        """The game's metadata and seats (no state is loaded)."""
        check_arguments(game_id)
        game, seats = await game_and_seats(self.store, game_id)
        return game_info(self.games, game, seats)

    async def load(self, game_id: int) -> Loaded[S]:
        """The stored game with its state rebuilt (snapshot plus later log entries)."""
        check_arguments(game_id)
        return await load(self.store, self.games, game_id)

    async def view(
        self,
        game_id: int,
        viewer_id: int | None,
        *,
        at_seq: int | None = None,
        fresh: Fresh[S] | None = None,
    ) -> GameView[V]:
        """What a user may see (a spectator unless seated), with the game's metadata:
        everything the board, pyramid, market and score images need. With `at_seq`,
        the game as it was at that version (a turn post delivered late shows the board
        of its turn); that rebuilds the state from the log, so it is the rare path.
        With `fresh` at that version (a change this process just stored), nothing is
        read: its state is the one the log rebuilds at that version."""
        check_arguments(game_id, optional=(viewer_id,))
        if fresh is not None and fresh.info.id == game_id and fresh.seq == at_seq:
            seat = fresh.info.seat_of(viewer_id) if viewer_id is not None else None
            viewer = None if seat is None else seat.seat
            rules = self.games.of(fresh.info.rules)
            view = rules.view(fresh.state, viewer)
            return GameView(fresh.info, fresh.seq, viewer, view, rules.outcome(fresh.state))
        loaded = await load(self.store, self.games, game_id)
        info = game_info(self.games, loaded.game, loaded.seats)
        seat = info.seat_of(viewer_id) if viewer_id is not None else None
        viewer = None if seat is None else seat.seat
        state = loaded.state
        seq = loaded.seq
        if state is not None and at_seq is not None and 0 <= at_seq < loaded.seq:
            entries = [e for e in await self.store.actions(game_id) if e.seq <= at_seq]
            try:
                state = replay_log(loaded.rules, loaded.game, loaded.config, entries)
            except Exception as exc:
                raise corrupt(game_id, exc) from exc
            seq = at_seq
        if state is None:
            return GameView(info, seq, viewer, None, None)
        return GameView(
            info, seq, viewer, loaded.rules.view(state, viewer), loaded.rules.outcome(state)
        )

    async def game_counts(self, guild_ids: Collection[int] | None = None) -> dict[GameStatus, int]:
        """How many games there are of each status, of these Discord servers (None:
        of all): what a process serves (its ready line, the health check)."""
        return await self.store.game_counts(guild_ids)

    async def game_in_thread(self, thread_id: int) -> GameInfo | None:
        """The most recent game played in a Discord thread."""
        check_arguments(ABSENT, thread_id)
        game = await self.store.game_in_thread(thread_id)
        if game is None:
            return None
        return game_info(self.games, game, await self.store.seats(game.id))

    async def game_id_in_thread(self, thread_id: int) -> int | None:
        """The id of the most recent game played in a Discord thread: one read, all a
        command that acts needs to find its game."""
        check_arguments(ABSENT, thread_id)
        game = await self.store.game_in_thread(thread_id)
        return None if game is None else game.id

    async def handled(self, interaction_id: int) -> bool:
        """Whether an action this interaction caused is stored (so an error after it
        must not tell the player that nothing was changed)."""
        check_arguments(ABSENT, interaction_id)
        return await self.store.interaction(interaction_id) is not None

    async def prune(self) -> int:
        """Forget answers to interactions older than a day (Discord retries within
        minutes) and the rows of messages delivered more than `DELIVERED_KEPT` ago (their
        post is on Discord; a row only tells a resend where to look, and a resend comes
        within minutes); returns how many rows were forgotten."""
        now = self._clock()
        pruned = await self.store.prune_interactions(now - INTERACTIONS_KEPT)
        return pruned + await self.store.prune_delivered(now - DELIVERED_KEPT)

    # --- private helpers -------------------------------------------------------------

    async def _append(
        self,
        loaded: Loaded[S],
        commit: Commit[S],
        interaction_id: int | None,
        reply_to: ReplyTo | None,
        keep: Keep[S] | None,
    ) -> ActResult:
        """Store the commit on the game as loaded (`appending.append`) at the clock's now."""
        return await append(
            self.store,
            loaded.rules,
            self._clock(),
            loaded,
            commit,
            interaction_id,
            reply_to,
            keep,
        )

    def _new_seed(self) -> int:
        if self._rng is not None:
            return self._rng.randrange(SEED_LIMIT)
        return secrets.randbelow(SEED_LIMIT)

    async def _act(
        self,
        game_id: int,
        chooser: Chooser[S],
        action: A | str | Asked[A],
        interaction_id: int | None,
        expected_seq: int | None,
        *,
        expected_seat_seq: int | None = None,
        reply_to: ReplyTo | None = None,
        name: str | None = None,
        keep: Keep[S] | None = None,
    ) -> ActResult:
        async with self._locks(game_id):
            loaded = await load(self.store, self.games, game_id)
            try:
                require_current(loaded, expected_seq)
                seat, user_id = chooser(loaded)
                if expected_seat_seq is not None and expected_seat_seq != await self.seat_version(
                    game_id, seat.seat
                ):
                    raise SeatMovedOnError()
                state = started(loaded)
                to_act = loaded.rules.to_act(state)
                if seat.seat not in to_act:
                    raise not_your_turn(loaded.seats, to_act)
                value = self._read(loaded.rules, state, seat.seat, action)
                after = loaded.rules.play(state, seat.seat, value)
                if name and name != seat.name:
                    seat = replace(seat, name=name)
                commit = Commit(
                    before=state,
                    after=after,
                    seat=seat,
                    user_id=user_id,
                    notation=loaded.rules.notation(value),
                    story=loaded.rules.describe(state, seat.seat, value),
                    cells=loaded.rules.cells(value),
                )
                if reply_to is not None:
                    # this process answers the player itself (see `ReplyTo.answered_by`)
                    reply_to = replace(reply_to, answered_by=self.duties.owner)
                return await self._append(loaded, commit, interaction_id, reply_to, keep)
            except (ServiceError, ValueError):
                # A retried interaction whose action is stored (perhaps by another
                # process) is refused by the game as it is now (not your turn, the game
                # moved on), or by the log's key on the interaction if the action is
                # still legal: then its stored answer is the answer. Looked up only
                # then, after the load that saw the action: not on every act.
                earlier = await earlier_result(self.store, game_id, interaction_id)
                if earlier is not None:
                    return earlier
                raise

    def _read(
        self, rules: GameRules[S, Any, Any], state: S, seat: int, action: A | str | Asked[A]
    ) -> A:
        """The action asked for: notation, or a command's options, is read where the
        game stands, so that what the moment refuses comes before what the text gets
        wrong."""
        if isinstance(action, str | Asked):
            read: A = rules.read_action(state, seat, action)
            return read
        return action

    async def _postpone(self, game_id: int, seat: int, at: datetime) -> None:
        for row in await self.store.reminders(game_id):
            if row.seat == seat:
                await self.store.put_reminder(replace(row, next_at=at))


def _utc_now() -> datetime:
    return datetime.now(UTC)
