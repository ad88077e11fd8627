"""Whole games through the service: records made by random self-play, replayed by
their seated players through `GameService.act`, end in the record's exact state."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from service_checks import check_game, rebuild_snapshot
from service_helpers import (
    MODES,
    USERS,
    open_service,
    play_moves,
    raw,
    record_for,
    started_game,
)

from bot.service import GameStateError
from rules.game import game_from_record
from rules.scoring import final_outcome


@pytest.mark.parametrize("mode", list(MODES))
async def test_a_random_game_played_through_the_service_ends_in_the_records_state(
    tmp_path: Path, mode: str
) -> None:
    options: dict[str, Any] = MODES[mode]
    async with open_service(tmp_path / "games.db", rng_seed=len(mode)) as service:
        info = await started_game(service, **options)
        record = record_for(info)
        results = []
        for i, move in enumerate(record.moves):
            seat = info.seats[move.seat]
            assert seat.controller_id is not None
            # half the actions as values, half as notation typed by a player
            action = move.action if i % 2 else str(move.action)
            results.append(await service.act(info.id, seat.controller_id, action))

        assert [r.seq for r in results] == list(range(1, len(record.moves) + 1))
        assert results[-1].game_over and not any(r.game_over for r in results[:-1])
        assert results[-1].outcome == final_outcome(record.state).to_json()
        loaded = await service.load(info.id)
        assert loaded.state is not None
        assert loaded.state.to_json() == record.state.to_json()
        replayed = game_from_record(record.record())
        assert loaded.state.to_json() == replayed.state.to_json()
        log = await service.history.log(info.id)
        assert [str(e) for e in log] == record.record()["actions"]
        assert await check_game(service, info.id) == len(record.moves)
        final = await service.info(info.id)
        assert final.status == "over"
        assert (await service.history.turn_status(info.id)).waiting == ()
        with pytest.raises(GameStateError, match="over"):
            await service.act(info.id, USERS[0], "end")


async def test_a_game_reopened_from_its_file_continues_where_it_stopped(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    async with open_service(path) as service:
        info = await started_game(service, players=3)
        record = record_for(info)
        await play_moves(service, info, record.moves[:40])
    async with open_service(path) as service:
        assert (await service.load(info.id)).seq == 40
        await play_moves(service, info, record.moves[40:], as_text=True)
        loaded = await service.load(info.id)
        assert loaded.state is not None
        assert loaded.state.to_json() == record.state.to_json()


@pytest.mark.sqlite_only
async def test_the_game_rebuilds_from_its_log_when_the_snapshot_is_gone(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    async with open_service(path) as service:
        info = await started_game(service, players=2)
        record = record_for(info)
        await play_moves(service, info, record.moves[:30])
        expected = await service.load(info.id)
        raw(path).execute("DELETE FROM snapshots")
        rebuilt = await service.load(info.id)
        assert rebuilt.seq == 30
        assert rebuilt.state is not None and expected.state is not None
        assert rebuilt.state.to_json() == expected.state.to_json()
        assert await rebuild_snapshot(service, info.id) == 30
        await play_moves(service, info, record.moves[30:31])
        assert (await service.load(info.id)).seq == 31
