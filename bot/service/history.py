"""What a game's table may read of its past: `service.history` gives the log as a
player may hear it (a secret draft's keeps left out until their reveal), the finished
game's record, what changed since a player's last turn, whom the game awaits, and the
table's view after every turn (a replay's frames)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Generic

from bot.i18n.catalogue import N_
from bot.service import stories
from bot.service.arguments import check_arguments
from bot.service.errors import GameStateError
from bot.service.loading import Loaded, check_sequence, corrupt, game_and_seats, load, standing
from bot.service.protocol import A, GameRules, S, StoryData, V
from bot.service.results import LogEntry, TurnStatus, Waiting
from bot.service.seats import label, log_entries, seat_of_controller
from bot.service.shelf import Shelf, shelf_of
from bot.store import ActionRecord, SeatRecord, Store


class History(Generic[S, A, V]):
    """`service.history`: the log, the record, the news since your last turn, the
    turn's status and the replay's frames. It only reads."""

    def __init__(self, store: Store, rules: GameRules[S, A, V] | Shelf[S, A, V]) -> None:
        self.store = store
        self.games = shelf_of(rules)

    async def log(self, game_id: int, user_id: int | None = None) -> list[LogEntry]:
        """The actions that stand, oldest first, as `user_id` may hear of them (None:
        as anyone at the table may): another seat's secret (a keep in the running
        draft) is left out, and told in the words of its reveal once revealed."""
        check_arguments(game_id, optional=(user_id,))
        loaded = await load(self.store, self.games, game_id)
        entries = await self.store.actions(game_id)
        try:
            check_sequence(entries, 0, entries[-1].seq if entries else 0)
            moves = standing(entries)
        except ValueError as exc:
            raise corrupt(game_id, exc) from exc
        moves = await stories.retold(
            self.store, loaded.rules, loaded.game, loaded.config, moves, entries
        )
        return self._heard(loaded, viewer(loaded.seats, user_id), moves)

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
            told = loaded.rules.told_to(state, viewer, entry.seat, entry.told)
            if told is not None:
                out.append(replace(entry, story=told))
        return out

    async def record(self, game_id: int) -> dict[str, Any]:
        """The finished game's record (config, seed, every standing action in notation),
        checked to replay to the stored outcome; raises `CorruptGameError` if it does
        not. Refused before the end (an abandoned game's ends there): a record tells
        every secret."""
        check_arguments(game_id)
        loaded = await load(self.store, self.games, game_id)
        if loaded.game.seed is None or loaded.state is None:
            raise GameStateError(N_("This game has not started yet."))
        if not loaded.rules.is_over(loaded.state) and loaded.game.status != "abandoned":
            raise GameStateError(N_("The game's record is given when the game is over."))
        entries = await self.store.actions(game_id)
        try:
            moves = [(e.seat, e.notation) for e in standing(entries)]
            record = loaded.rules.record(loaded.config, loaded.game.seed, moves)
            replayed = loaded.rules.record_outcome(record)
        except Exception as exc:
            raise corrupt(game_id, exc) from exc
        if replayed != loaded.rules.outcome(loaded.state):
            raise corrupt(game_id, ValueError("the record does not replay to the outcome"))
        return record

    async def changes_since_last_turn(self, game_id: int, user_id: int) -> list[LogEntry]:
        """What the others did since the user's previous turn ended (if it is the
        user's turn now, their actions so far in it do not count as a turn), as the
        user may hear it. The moves of a secret phase (the draft) end nobody's turn:
        once it is over they are told together, the user's own with the others'."""
        check_arguments(game_id, user_id)
        loaded = await load(self.store, self.games, game_id)
        seat = seat_of_controller(loaded.seats, user_id).seat
        entries = await self.store.actions(game_id)
        try:
            moves = standing([e for e in entries if e.seq <= loaded.seq])
        except ValueError as exc:
            raise corrupt(game_id, exc) from exc
        moves = await stories.retold(
            self.store, loaded.rules, loaded.game, loaded.config, moves, entries
        )

        state = loaded.state

        def told(move: ActionRecord) -> StoryData:
            return stories.read(move.story) or stories.played(move.notation)

        def ends_turn(move: ActionRecord) -> bool:
            return move.seat == seat and not loaded.rules.played_in_secret(told(move))

        end = len(moves)
        if state is not None and seat in loaded.rules.to_act(state):
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
                if m.seat != seat or loaded.rules.told_to(state, None, seat, told(m)) is not None
            ]
        return self._heard(loaded, seat, window)

    async def turn_status(self, game_id: int) -> TurnStatus:
        """Whom the game is waiting for, since when, and when each is reminded next."""
        check_arguments(game_id)
        game, seats = await game_and_seats(self.store, game_id)
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

    async def turn_views(self, game_id: int) -> list[tuple[V, tuple[str, ...]]]:
        """The table's view after every played turn, with the cells that turn changed,
        from the first turn's start to the end (the frames of the game's replay)."""
        check_arguments(game_id)
        loaded = await load(self.store, self.games, game_id)
        if loaded.game.seed is None:
            return []
        try:
            state = loaded.rules.new_state(loaded.config, loaded.game.seed)
            frames: list[tuple[V, tuple[str, ...]]] = []
            cells: set[str] = set()
            for entry in standing(await self.store.actions(game_id)):
                told = loaded.rules.announce(state)
                action = loaded.rules.parse_action(entry.notation)
                loaded.rules.replay(state, entry.seat, action)
                cells.update(loaded.rules.cells(action))
                if told == "full" and not entry.ends_turn:
                    continue
                if told != "full" and (frames or loaded.rules.announce(state) != "full"):
                    continue  # the setup: one frame once the mountain is ready
                frames.append((loaded.rules.view(state, None), tuple(sorted(cells))))
                cells = set()
        except Exception as exc:
            raise corrupt(game_id, exc) from exc
        return frames


def viewer(seats: Sequence[SeatRecord], user_id: int | None) -> int | None:
    """The seat whose secrets a user may hear (the one they play or hold), if any."""
    if user_id is None:
        return None
    for seat in seats:
        if user_id in (seat.controller_id, seat.user_id, seat.substitute_id):
            return seat.seat
    return None
