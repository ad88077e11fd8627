"""Who sits at a game's table: `service.seating` seats players and AI players before
the start, lets them leave or removes them, and after the start hands a seat to a
substitute (at once, or by an offer its new player accepts), to the autopilot, or back
to its own player. Every change is stored with its announcement in the thread, under
the game's lock (`locks.GameLocks`, shared with the service)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, Generic

from bot.i18n.catalogue import N_
from bot.service.arguments import check_arguments
from bot.service.clock import seat_deadline
from bot.service.errors import GameMovedOnError, GameStateError, NotAllowedError, SeatingError
from bot.service.loading import game_and_seats, parse_config
from bot.service.locks import GameLocks
from bot.service.owed import OwedPayload, Ping, SeatChange, SeatHow, SeatNews
from bot.service.protocol import A, GameRules, S
from bot.service.reminders import next_reminder
from bot.service.results import GameInfo
from bot.service.seats import (
    Handover,
    SeatOffer,
    ai_name,
    game_info,
    handover,
    require_creator,
    require_seat_manager,
    require_status,
    seat_numbered,
    seat_of_member,
    seat_token,
    seat_user,
)
from bot.service.shelf import Shelf, shelf_of
from bot.service.table import player, stored
from bot.store import GameRecord, SeatRecord, Store


class Seating(Generic[S, A]):
    """`service.seating`: join, add AI players, leave and remove players; substitutes,
    seat offers and their acceptance, the autopilot and a seat's return to its player."""

    def __init__(
        self,
        store: Store,
        rules: GameRules[S, A] | Shelf[S, A, Any],
        clock: Callable[[], datetime],
        locks: GameLocks,
    ) -> None:
        self.store = store
        self.games = shelf_of(rules)
        self._clock = clock
        self._locks = locks

    async def _info(self, game_id: int) -> GameInfo:
        game, seats = await game_and_seats(self.store, game_id)
        return game_info(self.games, game, seats)

    async def join(self, game_id: int, user_id: int, *, name: str | None = None) -> GameInfo:
        """Take the next free seat of a game that has not started (`name`: the user's
        display name, shown beside the seat's colour)."""
        check_arguments(game_id, user_id)
        return await self._add_seat(game_id, user_id, name=name)

    async def add_ai(self, game_id: int, by_user_id: int, *, admin: bool = False) -> GameInfo:
        """Seat an AI player in the next free seat (the creator, or a server admin)."""
        check_arguments(game_id, by_user_id)

        def may_add(game: GameRecord) -> None:
            require_creator(
                game,
                by_user_id,
                admin,
                N_("Only the game's creator or a server admin can add AI players."),
            )

        return await self._add_seat(game_id, None, check=may_add)

    async def _add_seat(
        self,
        game_id: int,
        user_id: int | None,
        *,
        name: str | None = None,
        check: Callable[[GameRecord], None] | None = None,
    ) -> GameInfo:
        """Seat the user (None: an AI player) in the next free seat; `check` refuses,
        from the game as read under the lock, before anything is written."""
        async with self._locks(game_id):
            game, seats = await game_and_seats(self.store, game_id)
            if check is not None:
                check(game)
            need = self.games.of(game).seat_count(parse_config(game))
            if user_id is None:
                name = ai_name(seats)
            seat = await self.store.add_seat(
                game_id, user_id, limit=need, at=self._clock(), ai=user_id is None, name=name
            )
            if seat is None:
                game, seats = await game_and_seats(self.store, game_id)
                require_status(game, "open")
                if user_id is not None and any(s.user_id == user_id for s in seats):
                    raise SeatingError(N_("You are already in this game."))
                raise SeatingError(N_("This game is full ({count} players)."), count=need)
            return await self._info(game_id)

    async def leave(self, game_id: int, user_id: int) -> GameInfo:
        """Give up your seat before the game starts (later: a substitute or autopilot)."""
        check_arguments(game_id, user_id)
        async with self._locks(game_id):
            game, seats = await game_and_seats(self.store, game_id)
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
            return await self._info(game_id)

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
        async with self._locks(game_id):
            game, seats = await game_and_seats(self.store, game_id)
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
                return await self._info(game_id)
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
            return await self._info(game_id)

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
        the seat at once when nobody's acceptance is needed (`seats.handover`: a server
        admin assigns, the seat's own player takes it back, the creator takes a seat
        nobody plays); otherwise an offer is posted in the thread that only the user who
        must agree can accept (`accept_seat`), and nothing else changes."""
        check_arguments(game_id, by_user_id, seat, optional=(new_user_id,))
        async with self._locks(game_id):
            game, seats = await game_and_seats(self.store, game_id)
            require_status(game, "active")
            target = seat_numbered(seats, seat)
            user = seat_user(target, new_user_id)
            plan = handover(game, seats, target, by_user_id, user, admin)
            if plan.accepter_id is None:
                await self._hand_seat(game, target, user, plan, by_user_id, name, by_name)
                return SeatOffer(await self._info(game_id), seat, user, by_user_id)
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
            info = await self._info(game_id)
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
        async with self._locks(game_id):
            game, seats = await game_and_seats(self.store, game_id)
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
            return await self._info(game_id)

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
        async with self._locks(game_id):
            game, seats = await game_and_seats(self.store, game_id)
            require_status(game, "active")
            target = seat_numbered(seats, seat)
            require_seat_manager(game, target, by_user_id, admin)
            if target.ai:
                raise SeatingError(N_("That seat is an AI player's: the AI always plays it."))
            if not on and target.controller_id is None:
                raise SeatingError(N_("Nobody plays that seat: seat a substitute first."))
            if target.autopilot == on:
                return await self._info(game_id)
            change: SeatChange = "autopilot-on" if on else "autopilot-off"
            updated = replace(target, autopilot=on)
            await self._put_seat(
                game, target, updated, change, by_user_id, None, self._clock(), by_name=by_name
            )
            return await self._info(game_id)

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
            deadline = await seat_deadline(self.store, game.id, after.seat, after.controller_id)
            owed.append(Ping(player=player(after), next_reminder=next_at, deadline=deadline))
        moved = next_at if after.seat in awaited else None
        await self.store.put_seat(after, at=now, next_at=moved, owed=[stored(o) for o in owed])
