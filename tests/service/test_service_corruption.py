"""A damaged record is reported with its game id and never stops other games."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from service_checks import check_game, rebuild_snapshot
from service_helpers import (
    Service,
    open_service,
    play_moves,
    raw,
    record_for,
    started_game,
    user_of,
)

from bot.service import CorruptGameError, GameInfo

# the snapshot is a cache: damage to it alone is repaired from the log by the load
# (tests/service/test_service_integrity.py has more)
SNAPSHOT_DAMAGE = {
    "snapshot is garbage": "UPDATE snapshots SET state = 'garbage' WHERE game_id = :g",
    "snapshot is valid JSON of the wrong shape": (
        "UPDATE snapshots SET state = '{\"phase\": 3}' WHERE game_id = :g"
    ),
    "snapshot is ahead of the log": "UPDATE snapshots SET seq = seq + 5 WHERE game_id = :g",
}

DAMAGE = {
    "config is garbage": "UPDATE games SET config = '{{{' WHERE id = :g",
    "an action after the snapshot is garbage": (
        "UPDATE snapshots SET seq = 5 WHERE game_id = :g;"
        " UPDATE actions SET notation = 'dig the moon' WHERE game_id = :g AND seq = 8"
    ),
    "an action is unreplayable and the snapshot is gone": (
        "DELETE FROM snapshots WHERE game_id = :g;"
        " UPDATE actions SET notation = 'end' WHERE game_id = :g AND seq = 3"
    ),
    "an action is missing": (
        "DELETE FROM snapshots WHERE game_id = :g;"
        " DELETE FROM actions WHERE game_id = :g AND seq = 4"
    ),
}

# damage to log entries the snapshot already covers: loading trusts the snapshot (the
# cache), so the whole-log readers find it: the game log and `check_game`
DAMAGE_BEFORE_THE_SNAPSHOT = {
    "an undo undoes nothing": "UPDATE actions SET notation = 'undo' WHERE game_id = :g AND seq = 1",
    "an action is garbage": "UPDATE actions SET notation = '???' WHERE game_id = :g AND seq = 2",
    "an action is missing": "DELETE FROM actions WHERE game_id = :g AND seq = 4",
}


async def three_games(service: Service) -> list[GameInfo]:
    games = []
    for players in (2, 3, 2):
        info = await started_game(service, players=players)
        await play_moves(service, info, record_for(info).moves[:12])
        games.append(info)
    return games


def damage(path: Path, game_id: int, sql: str) -> None:
    db = raw(path)
    for statement in sql.split(";"):
        db.execute(statement, {"g": game_id})
    db.close()


@pytest.mark.sqlite_only
@pytest.mark.parametrize("what", list(DAMAGE))
async def test_a_damaged_game_is_reported_and_the_others_still_play(
    tmp_path: Path, what: str, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        good1, bad, good2 = await three_games(service)
        damage(path, bad.id, DAMAGE[what])
        with caplog.at_level(logging.ERROR), pytest.raises(CorruptGameError) as caught:
            await service.load(bad.id)
        assert caught.value.game_id == bad.id
        assert (
            f"#{bad.id}" in caught.value.message and "nothing was changed" in caught.value.message
        )
        assert f"game {bad.id}" in caplog.text
        move = record_for(bad).moves[12]
        with pytest.raises(CorruptGameError):
            await service.act(bad.id, user_of(bad, move.seat), move.action)
        for good in (good1, good2):
            following = record_for(good).moves[12:20]
            await play_moves(service, good, following)
            assert await check_game(service, good.id) == 20


@pytest.mark.sqlite_only
@pytest.mark.parametrize("what", list(DAMAGE_BEFORE_THE_SNAPSHOT))
async def test_damage_the_snapshot_covers_is_found_by_the_whole_log_check(
    tmp_path: Path, what: str
) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        good1, bad, good2 = await three_games(service)
        damage(path, bad.id, DAMAGE_BEFORE_THE_SNAPSHOT[what])
        with pytest.raises(CorruptGameError) as caught:
            await check_game(service, bad.id)
        assert caught.value.game_id == bad.id
        if what != "an action is garbage":  # the log shows text as it is stored
            with pytest.raises(CorruptGameError):
                await service.history.log(bad.id)
        for good in (good1, good2):
            assert await check_game(service, good.id) == 12


@pytest.mark.sqlite_only
async def test_an_edited_action_under_a_fresh_snapshot_is_found_by_the_check(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        _, bad, _ = await three_games(service)
        record = record_for(bad)
        # a different legal first keep: the log still replays, to a different state
        other = next(m.action for m in record.moves[1:] if m.seat == record.moves[0].seat)
        db = raw(path)
        db.execute(
            "UPDATE actions SET notation = ? WHERE game_id = ? AND seq = 1", (str(other), bad.id)
        )
        db.close()
        with pytest.raises(CorruptGameError) as caught:
            await check_game(service, bad.id)
        assert caught.value.game_id == bad.id


@pytest.mark.sqlite_only
@pytest.mark.parametrize("what", list(SNAPSHOT_DAMAGE))
async def test_a_damaged_snapshot_is_rebuilt_from_the_log(
    tmp_path: Path, what: str, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        _, bad, _ = await three_games(service)
        damage(path, bad.id, SNAPSHOT_DAMAGE[what])
        with caplog.at_level(logging.WARNING):
            assert (await service.load(bad.id)).seq == 12
        assert f"game {bad.id}: the snapshot disagrees with the log" in caplog.text
        assert await rebuild_snapshot(service, bad.id) == 12
        assert await check_game(service, bad.id) == 12
        await play_moves(service, bad, record_for(bad).moves[12:15])
        assert await check_game(service, bad.id) == 15
