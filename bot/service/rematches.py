"""A finished game's rematch and a server's open lobbies: `service.rematches`.

A rematch is a new open game with the finished game's options (its config, reminders,
place, language, away policy and clock), made once however often its button is
pressed (the store keeps one per game, `Store.rematch`). Whoever presses first is its
creator and takes the first seat, the old game's AI seats are seated again, and the
old table is invited; the rematch starts by itself once its seats are full."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic

from bot.i18n.catalogue import N_
from bot.service.arguments import check_arguments
from bot.service.errors import GameNotFoundError, GameStateError, NotAllowedError, ServiceError
from bot.service.loading import game_and_seats
from bot.service.protocol import A, GameRules, S
from bot.service.results import GameInfo
from bot.service.seats import AI_NAMES, game_info
from bot.service.shelf import Shelf, shelf_of
from bot.store import SeatRecord, Store

# how many lobbies `/mk open` lists at most
OPEN_LISTED = 25
# starts a game: (game id, user id, admin) -> the game as it is now
Start = Callable[..., Awaitable[GameInfo]]


@dataclass(frozen=True, slots=True)
class Rematch:
    """The rematch of game `of`: `made` now by this press (False: made before), and
    the old table's people to invite (the seats' own players, in seat order)."""

    info: GameInfo
    of: int
    made: bool
    invited: tuple[int, ...]


class Rematches(Generic[S, A]):
    def __init__(
        self,
        store: Store,
        rules: GameRules[S, A] | Shelf[S, A, Any],
        clock: Callable[[], datetime],
        start: Start,
    ) -> None:
        self.store = store
        self.games = shelf_of(rules)
        self._clock = clock
        self._start = start

    async def make(self, game_id: int, user_id: int, *, name: str | None = None) -> Rematch:
        """The rematch of a finished game, asked for by someone who sat at its table
        (a seat's player or substitute): made by the first press, the same one for
        every later press. Anyone else, or a game not over, is refused, nothing made."""
        check_arguments(game_id, user_id)
        game, seats = await game_and_seats(self.store, game_id)
        if game.status != "over":
            raise GameStateError(N_("A rematch can be asked for once the game is over."))
        if not any(user_id in (s.user_id, s.substitute_id) for s in seats):
            raise NotAllowedError(
                N_("Only the players of game #{game} can ask for its rematch."), game=game_id
            )
        made = await self.store.rematch(
            game_id, user_id, at=self._clock(), seats=new_seats(seats, user_id, name)
        )
        if made is None:
            raise GameNotFoundError(game_id)
        record, now = made
        new, seated = await game_and_seats(self.store, record.id)
        invited = tuple(dict.fromkeys(s.user_id for s in seats if s.user_id is not None))
        return Rematch(game_info(self.games, new, seated), game_id, now, invited)

    async def started_when_full(self, info: GameInfo) -> GameInfo:
        """A rematch whose seats are all taken is started (by the table: nobody needs
        to press Start); any other game is returned as it is."""
        if info.status != "open" or len(info.seats) < info.seats_needed:
            return info
        if await self.store.rematch_of(info.id) is None:
            return info
        try:
            return await self._start(info.id, info.creator_id, admin=True)
        except ServiceError:
            # started meanwhile by another press, or a seat left: the game as it is
            game, seats = await game_and_seats(self.store, info.id)
            return game_info(self.games, game, seats)

    async def open_lobbies(self, guild_id: int) -> list[GameInfo]:
        """A server's games not started yet that have a free seat, oldest first."""
        check_arguments(guild_id)
        lobbies = []
        for game in await self.store.open_games(guild_id, limit=OPEN_LISTED * 4):
            info = game_info(self.games, game, await self.store.seats(game.id))
            if len(info.seats) < info.seats_needed:
                lobbies.append(info)
        return lobbies[:OPEN_LISTED]


def new_seats(
    seats: Sequence[SeatRecord], user_id: int, name: str | None
) -> list[tuple[int | None, str | None]]:
    """The rematch's first seats: whoever asked for it, then an AI for each AI seat of
    the old game (the same names)."""
    ais = [s.name or AI_NAMES[n % len(AI_NAMES)] for n, s in enumerate(s for s in seats if s.ai)]
    return [(user_id, name), *((None, ai) for ai in ais)]
