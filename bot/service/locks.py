"""One asyncio lock per game, shared by the service and its parts (seating): every
change to a game happens while its lock is held, so two commands of one process never
interleave their load and their write."""

from __future__ import annotations

import asyncio
from weakref import WeakValueDictionary


class GameLocks:
    """`locks(game_id)`: the game's lock. A lock lives while someone holds it or waits
    for it: no growth with old games."""

    def __init__(self) -> None:
        self._locks: WeakValueDictionary[int, asyncio.Lock] = WeakValueDictionary()

    def __call__(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock
