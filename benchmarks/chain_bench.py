"""What verifying a game's log chain at load costs (bot/service/loading.py), as medians:

    .venv/bin/python -m benchmarks.chain_bench [games]

Plays whole random 4-player games through the service on a SQLite file (about 200
entries each), then times: hashing the chain per entry; a game's first load in a
process (the whole log read and its chain recomputed); a later load with nothing new
(no read); a load after one new entry (one read of two entries); and one act.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.service import MOUNTAIN_KING, GameService, loading
from bot.store import SqliteStore
from bot.store.integrity import genesis
from rules.selfplay import play_random_game
from rules.state import make_config

USERS = (1001, 1002, 1003, 1004)
ROUNDS = 100


async def median_ms(
    ids: list[int], prepare: Callable[[int], None], work: Callable[[int], Awaitable[object]]
) -> float:
    times = []
    for _ in range(ROUNDS):
        for game_id in ids:
            prepare(game_id)
            started = time.perf_counter()
            await work(game_id)
            times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


async def main(games: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with SqliteStore(Path(folder) / "chain.db") as store:
            service = GameService(store, MOUNTAIN_KING, rng=random.Random(1))
            ids, acts = [], []
            for _ in range(games):
                game = await service.create_game(USERS[0], {"players": 4})
                for user in USERS[1:]:
                    await service.seating.join(game.id, user)
                info = await service.start(game.id, USERS[0])
                assert info.seed is not None
                for move in play_random_game(make_config(players=4), info.seed).moves:
                    started = time.perf_counter()
                    await service.act(info.id, USERS[move.seat], str(move.action))
                    acts.append(time.perf_counter() - started)
                ids.append(info.id)
            logs = {i: await store.actions(i) for i in ids}
            entries = statistics.mean(len(log) for log in logs.values())
            memory = loading._verified(store)

            hashing = []
            for _ in range(ROUNDS):
                for i in ids:
                    started = time.perf_counter()
                    loading.check_chain(i, logs[i], genesis(i), 0)
                    hashing.append((time.perf_counter() - started) / len(logs[i]))

            def forget(game_id: int) -> None:
                memory.pop(game_id, None)

            def one_behind(game_id: int) -> None:
                entry = logs[game_id][-2]
                assert entry.chain is not None
                memory[game_id] = (entry.seq, entry.chain)

            def load(game_id: int) -> Awaitable[object]:
                return loading.load(store, MOUNTAIN_KING, game_id)

            def read(game_id: int) -> Awaitable[object]:
                return store.actions(game_id)

            first = await median_ms(ids, forget, load)
            warm = await median_ms(ids, lambda _: None, load)
            after_move = await median_ms(ids, one_behind, load)
            whole_read = await median_ms(ids, lambda _: None, read)
    print(f"{games} games of {entries:.0f} entries on average")
    print(f"hashing the chain: {statistics.median(hashing) * 1e6:.2f} us per entry")
    print(
        f"reading the whole log: {whole_read:.2f} ms ({whole_read / entries * 1000:.1f} us"
        " per entry)"
    )
    print(f"a first load in a process (the whole chain): {first:.2f} ms")
    print(f"a later load, nothing new: {warm:.2f} ms")
    print(f"a load after one new entry: {after_move:.2f} ms")
    act = statistics.median(acts) * 1000
    print(f"one act through the service, median of {len(acts)}: {act:.2f} ms")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 3))
