"""Builders for the service tests of Cave Troll: a service over this test's store that
plays Cave Troll (`bot.service.cave_troll.CAVE_TROLL`), a started game, and its actions
chosen by the game's AI and played through the service, in notation, by the user
seated where the game awaits.

With the service's seeds drawn from `random.Random(1)`, a 3-player game played so
(the AI's seed for an action: the log's length times 7919 plus the seat, as the
service's own AI moves do) finds an artifact at its 5th action, begins a Troll flight
that two seats answer at its 82nd and ends after 158.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from service_helpers import USERS, FakeClock, current_backend, user_of

from bot.service import GameInfo, GameService
from bot.service.cave_troll import CAVE_TROLL
from cave_troll import Action, CaveView, State

CaveService = GameService[State, Action, CaveView]
# the service's rng seed of the game the module's docstring describes
SEED = 1


@asynccontextmanager
async def cave_service(
    path: Path, *, clock: FakeClock | None = None, rng_seed: int = SEED
) -> AsyncIterator[CaveService]:
    """A service that plays Cave Troll over this test's store (SQLite or PostgreSQL)."""
    async with current_backend().store_at(path) as store:
        rng = random.Random(rng_seed)
        yield GameService(store, CAVE_TROLL, rng=rng, clock=clock or FakeClock())


async def cave_game(service: CaveService, players: int = 3, *, ai: int = 0) -> GameInfo:
    """A Cave Troll game made by the first user, the next ones seated in order and the
    last `ai` seats the AI's, started."""
    info = await service.create_game(USERS[0], {"players": players})
    for user in USERS[1 : players - ai]:
        await service.seating.join(info.id, user)
    for _ in range(ai):
        await service.seating.add_ai(info.id, USERS[0])
    return await service.start(info.id, USERS[0])


async def state_of(service: CaveService, game_id: int) -> tuple[State, int]:
    """The game's state as the service rebuilds it, and its version."""
    loaded = await service.load(game_id)
    assert loaded.state is not None
    return loaded.state, loaded.seq


async def play_by_ai(
    service: CaveService, info: GameInfo, until: Callable[[State], bool], *, limit: int = 400
) -> State:
    """Play the AI's choice for the seat awaited, in notation by the user seated there
    (an AI seat: the service's own owed move, the same choice), until `until` holds of
    the state (at most `limit` actions); returns that state."""
    for _ in range(limit):
        state, seq = await state_of(service, info.id)
        if until(state):
            return state
        seat = CAVE_TROLL.to_act(state)[0]
        if info.seats[seat].ai:
            assert await service.play_owed_move(info.id, seat) is not None
            continue
        action = CAVE_TROLL.choose_action(state, seat, seq * 7919 + seat)
        await service.act(info.id, user_of(info, seat), CAVE_TROLL.notation(action))
    raise AssertionError(f"not reached in {limit} actions")  # pragma: no cover
