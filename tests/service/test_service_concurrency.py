"""Racing acts: on one game and on many, from one service and from two services that
share the database file but not their locks. Exactly one of two racing acts wins, the
log stays a gapless sequence and every game replays to its snapshot."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from service_checks import check_game
from service_helpers import (
    USERS,
    Backend,
    Service,
    open_service,
    place_gates,
    record_for,
    started_game,
    user_of,
)

from bot.service import MOUNTAIN_KING, GameInfo, GameMovedOnError, GameService
from bot.store import SqliteStore, StoredGame
from bot.store.postgres import PostgresStore
from rules.game import Game
from rules.legal import legal_actions


async def race_through(services: list[Service], info: GameInfo, record: Game, workers: int) -> int:
    """Workers on several services all try to play the record's next action, naming
    the version they saw; returns how many acts succeeded."""
    wins = 0
    end = len(record.moves)

    async def worker(service: Service) -> None:
        nonlocal wins
        while True:
            seq = (await service.load(info.id)).seq
            if seq == end:
                return
            move = record.moves[seq]
            try:
                await service.act(info.id, user_of(info, move.seat), move.action, expected_seq=seq)
                wins += 1
            except GameMovedOnError:
                pass

    await asyncio.gather(*(worker(services[i % len(services)]) for i in range(workers)))
    return wins


def prefix(record: Game, n: int) -> Game:
    """The record cut after `n` actions."""
    return Game(record.config, record.seed, record.moves[:n])


async def assert_replays(service: Service, info: GameInfo, record: Game) -> None:
    """The game's log is exactly the record (gapless) and its snapshot is the state
    a replay of the log gives."""
    log = await service.history.log(info.id)
    assert [e.seq for e in log] == list(range(1, len(record.moves) + 1))
    assert [str(e) for e in log] == record.record()["actions"]
    assert await check_game(service, info.id) == len(record.moves)
    loaded = await service.load(info.id)
    assert loaded.state is not None
    assert loaded.state.to_json() == record.state.to_json()


async def test_many_racing_acts_on_one_game_apply_each_action_once(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db") as service:
        info = await started_game(service, players=3)
        record = prefix(record_for(info), 80)
        wins = await race_through([service], info, record, workers=10)
        assert wins == len(record.moves)
        await assert_replays(service, info, record)


async def test_racing_acts_from_two_services_on_one_file_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as one, open_service(path) as two:
        info = await started_game(one, players=2)
        record = record_for(info)
        wins = await race_through([one, two], info, record, workers=8)
        assert wins == len(record.moves)
        await assert_replays(two, info, record)


async def test_many_games_at_once_from_two_services(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    async with open_service(path, rng_seed=1) as one, open_service(path, rng_seed=2) as two:
        infos = []
        for k in range(6):
            users = [u + 100 * k for u in USERS]
            infos.append(await started_game(one if k % 2 else two, users, players=2 + k % 4))
        records = [prefix(record_for(info), 40) for info in infos]
        wins = await asyncio.gather(
            *(
                race_through([one, two], i, r, workers=3)
                for i, r in zip(infos, records, strict=True)
            )
        )
        assert wins == [len(r.moves) for r in records]
        for info, record in zip(infos, records, strict=True):
            await assert_replays(one, info, record)


class PausingSqliteStore(SqliteStore):
    """A store whose loads wait at a barrier: both services load the same version
    before either appends, so their appends truly collide. With `pauses` set, only
    that many loads wait (a load after that, to try again, goes on alone)."""

    def __init__(self, path: Path, barrier: asyncio.Barrier) -> None:
        super().__init__(path)
        self.barrier = barrier
        self.pauses: int | None = None

    async def load_game(self, game_id: int) -> StoredGame | None:
        stored = await super().load_game(game_id)
        await pause(self)
        return stored


class PausingPostgresStore(PostgresStore):
    """The same on PostgreSQL: the two stores are two pools, as two processes have."""

    def __init__(self, url: str, barrier: asyncio.Barrier) -> None:
        super().__init__(url, pool_size=2)
        self.barrier = barrier
        self.pauses: int | None = None

    async def load_game(self, game_id: int) -> StoredGame | None:
        stored = await super().load_game(game_id)
        await pause(self)
        return stored


Pausing = PausingSqliteStore | PausingPostgresStore


async def pause(store: Pausing) -> None:
    if store.pauses is None:
        await store.barrier.wait()
    elif store.pauses > 0:
        store.pauses -= 1
        await store.barrier.wait()


def pausing_store(backend: Backend, path: Path, barrier: asyncio.Barrier) -> Pausing:
    if backend.name == "postgresql":
        return PausingPostgresStore(backend.url(path), barrier)
    return PausingSqliteStore(path, barrier)


@asynccontextmanager
async def colliding(
    backend: Backend, path: Path
) -> AsyncIterator[tuple[tuple[Service, Pausing], tuple[Service, Pausing]]]:
    """Two services on the database, as two processes, whose loads meet at a barrier
    (each with its store, to set `pauses`)."""
    barrier = asyncio.Barrier(2)
    async with (
        pausing_store(backend, path, barrier) as store_a,
        pausing_store(backend, path, barrier) as store_b,
    ):
        yield (
            (GameService(store_a, MOUNTAIN_KING), store_a),
            (GameService(store_b, MOUNTAIN_KING), store_b),
        )


async def test_of_two_colliding_appends_one_wins_and_the_other_hears_it_moved_on(
    tmp_path: Path, backend: Backend
) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as setup:
        info = await started_game(setup, players=2)
        record = record_for(info)
    async with colliding(backend, path) as ((a, _), (b, _)):
        for seq, move in enumerate(record.moves[:12]):
            user = user_of(info, move.seat)
            # both name the version they saw (as a button does): no second try
            results = await asyncio.gather(
                a.act(info.id, user, move.action, expected_seq=seq),
                b.act(info.id, user, move.action, expected_seq=seq),
                return_exceptions=True,
            )
            won = [r for r in results if not isinstance(r, BaseException)]
            lost = [r for r in results if isinstance(r, BaseException)]
            assert len(won) == 1 and won[0].seq == seq + 1
            assert len(lost) == 1 and isinstance(lost[0], GameMovedOnError)
            assert "moved on" in str(lost[0])
    async with open_service(path) as check:
        assert [e.seq for e in await check.history.log(info.id)] == list(range(1, 13))
        assert await check_game(check, info.id) == 12


async def test_an_act_another_process_overtook_is_played_on_the_new_position(
    tmp_path: Path, backend: Backend
) -> None:
    """Two players draft at once, through two processes that both loaded the same
    version: the one whose write came second is not refused (its action still fits),
    it is checked and stored on the game as it now stands, as one process would."""
    path = tmp_path / "g.db"
    async with open_service(path) as setup:
        info = await started_game(setup, players=2)
        await place_gates(setup, info)
    async with colliding(backend, path) as ((a, store_a), (b, store_b)):
        for _ in range(4):  # each keeps four trolls
            store_a.pauses = 0
            loaded = await a.load(info.id)
            start, state = loaded.seq, loaded.state
            assert state is not None and state.phase == "draft"
            store_a.pauses = store_b.pauses = 1  # the first loads meet; a second try not
            results = await asyncio.gather(
                a.act(info.id, user_of(info, 0), legal_actions(state, 0, "keep")[0]),
                b.act(info.id, user_of(info, 1), legal_actions(state, 1, "keep")[0]),
            )
            assert sorted(r.seq for r in results) == [start + 1, start + 2]
    async with open_service(path) as check:
        log = await check.history.log(info.id)
        assert sum(1 for e in log if e.notation.startswith("keep")) == 8
        assert await check_game(check, info.id) == len(log)
        loaded = await check.load(info.id)
        assert loaded.state is not None and loaded.state.phase == "play"
