"""Crash safety: a bot process killed with SIGKILL in the middle of a stream of acts
leaves a database that opens, replays, and holds every act it acknowledged."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest
from processes import spawn_python
from service_checks import check_game
from service_helpers import USERS, Backend, open_service, random_record, raw

WORKER = Path(__file__).with_name("crash_worker.py")
ROOT = Path(__file__).parents[2]
PLAYERS = 3
HUNG_WORKER_SECONDS = 120


@pytest.mark.parametrize("kill_after", [1, 30, 100])
async def test_a_killed_process_loses_no_acknowledged_act(
    tmp_path: Path, kill_after: int, backend: Backend
) -> None:
    path = tmp_path / "games.db"
    place = backend.url(path) if backend.name == "postgresql" else str(path)
    # `python crash_worker.py ...` as a fork of this worker's fork server
    # (tests/processes.py): a separate process, without importing the bot again
    read_end, write_end = os.pipe()
    try:
        proc = spawn_python(
            [str(WORKER), place, str(PLAYERS), str(kill_after)],
            cwd=ROOT,
            # the checkout's own packages, as pytest's pythonpath gives the tests
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdout=write_end,
            stderr=2,
        )
    finally:
        os.close(write_end)
    stdout = asyncio.StreamReader()
    transport, _ = await asyncio.get_running_loop().connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(stdout), os.fdopen(read_end, "rb", 0)
    )
    header = (await _line(stdout)).split()
    assert header[0] == "game", header
    game_id, seed = int(header[1]), int(header[2])
    acked = 0
    while acked < kill_after:
        line = (await _line(stdout)).split()
        assert line and line[0] == "ack", f"the worker stopped early: {line}"
        acked = int(line[1])
    # the worker keeps acting while we kill it: it dies mid-stream, often mid-commit
    proc.kill()
    assert await proc.wait_async() == -signal.SIGKILL
    transport.close()

    record = random_record(seed, players=PLAYERS)
    if backend.name == "sqlite":
        assert raw(path).execute("PRAGMA integrity_check").fetchone() == ("ok",)
    async with open_service(path) as service:
        loaded = await service.load(game_id)
        assert loaded.seq >= acked
        log = await service.history.log(game_id)
        assert [str(e) for e in log] == record.record()["actions"][: loaded.seq]
        assert await check_game(service, game_id) == loaded.seq
        for i in range(acked):
            stored = await service.store.interaction(10_000 + i)
            assert stored is not None and stored.seq == i + 1
        # the game goes on from where the dead process left it
        for move in record.moves[loaded.seq :]:
            await service.act(game_id, USERS[move.seat], move.action)
        final = await service.load(game_id)
        assert final.state is not None
        assert final.state.to_json() == record.state.to_json()


async def _line(stream: asyncio.StreamReader) -> str:
    # a guard so a hung worker fails the test instead of hanging the suite
    return (await asyncio.wait_for(stream.readline(), HUNG_WORKER_SECONDS)).decode()
