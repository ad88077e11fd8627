"""A bot process for the crash test: plays a random game through the service against
a database file (or a PostgreSQL database, given its URL), printing `ack <seq>` after
each act returns, until it is killed.

    python tests/service/crash_worker.py <db path or postgresql:// URL> <players> <rng seed>
"""

from __future__ import annotations

import asyncio
import random
import sys

from bot.service import MOUNTAIN_KING, GameService
from bot.store import SqliteStore, Store
from bot.store.postgres import PostgresStore
from rules.selfplay import play_random_game
from rules.state import make_config

USERS = (1001, 1002, 1003, 1004, 1005)


async def main(place: str, players: int, rng_seed: int) -> None:
    store: Store = PostgresStore(place) if place.startswith("postgresql://") else SqliteStore(place)
    async with store:
        service = GameService(store, MOUNTAIN_KING, rng=random.Random(rng_seed))
        game = await service.create_game(USERS[0], {"players": players})
        for user in USERS[1:players]:
            await service.seating.join(game.id, user)
        info = await service.start(game.id, USERS[0])
        assert info.seed is not None
        record = play_random_game(make_config(**info.config), info.seed)
        print(f"game {info.id} {info.seed}", flush=True)
        for i, move in enumerate(record.moves):
            result = await service.act(
                info.id, USERS[move.seat], move.action, interaction_id=10_000 + i
            )
            print(f"ack {result.seq}", flush=True)
        print("done", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
