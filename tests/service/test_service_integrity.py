"""A game's state is always the log's: a snapshot that drifted from the log (changed
state, a seq ahead or behind, damaged bytes) is found by the load without a replay,
rebuilt from the log and rewritten with a warning; a gap or a damaged entry in the log
is a corrupt game, never played on. Also: the schema upgrade that adds the chain, the
host's `check` and a backup taken during play."""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
from pathlib import Path

import pytest
from processes import run_python
from service_checks import check_game, rebuild_snapshot
from service_helpers import (
    game_in_play,
    open_service,
    play_moves,
    raw,
    record_for,
    set_back_to_8,
    started_game,
    user_of,
)

from bot.maintenance import check_games, check_sample
from bot.service import MOUNTAIN_KING, CorruptGameError, GameInfo
from bot.store import LATEST_VERSION, SqliteStore
from bot.store.integrity import genesis, next_chain
from rules.errors import RulesError

ROOT = Path(__file__).resolve().parents[2]


def log_of(path: Path, game_id: int) -> list[tuple[int, int, str, str]]:
    db = raw(path)
    rows = db.execute(
        "SELECT seq, seat, notation, chain FROM actions WHERE game_id = ? ORDER BY seq",
        (game_id,),
    ).fetchall()
    db.close()
    return rows


def snapshot_row(path: Path, game_id: int) -> tuple[int, str | None, str | None]:
    db = raw(path)
    row = db.execute(
        "SELECT seq, chain, digest FROM snapshots WHERE game_id = ?", (game_id,)
    ).fetchone()
    db.close()
    return row


@pytest.mark.sqlite_only
async def test_more_coins_in_the_snapshot_are_not_spent(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        info, played = await game_in_play(service)
        loaded = await service.load(info.id)
        state = loaded.state
        assert state is not None and state.current_seat is not None
        seat = state.current_seat
        storage = state.account_of(seat).storage
        lacking = next(name for name, n in storage.items() if n == 0)
        other = next(name for name in storage if name != lacking)
        # a hand edit (or bit rot) gives the player to move 40 of what they lack
        storage[lacking] = 40
        db = raw(path)
        db.execute(
            "UPDATE snapshots SET state = ? WHERE game_id = ?",
            (MOUNTAIN_KING.state_to_json(state), info.id),
        )
        db.close()
        before = log_of(path, info.id)
        with caplog.at_level(logging.WARNING), pytest.raises(RulesError) as refused:
            await service.act(info.id, user_of(info, seat), f"trade 4{lacking}>{other}")
        assert refused.value.code == "cannot_afford"
        assert f"game {info.id}: the snapshot disagrees with the log" in caplog.text
        assert "digest" in caplog.text
        assert log_of(path, info.id) == before
        # repaired: the snapshot is the log's again, and the game plays on and replays
        rebuilt = (await service.load(info.id)).state
        assert rebuilt is not None and rebuilt.account_of(seat).storage[lacking] == 0
        assert await check_game(service, info.id) == played
        await play_moves(service, info, record_for(info).moves[played : played + 6])
        assert await check_game(service, info.id) == played + 6


@pytest.mark.sqlite_only
@pytest.mark.parametrize(
    ("what", "sql"),
    [
        ("seq ahead", "UPDATE snapshots SET seq = seq + 3 WHERE game_id = ?"),
        ("seq behind", "UPDATE snapshots SET seq = seq - 3 WHERE game_id = ?"),
        ("seq zero", "UPDATE snapshots SET seq = 0 WHERE game_id = ?"),
        (
            "invalid UTF-8",
            "UPDATE snapshots SET state = CAST(X'7B2270686173FF65223A' AS TEXT) WHERE game_id = ?",
        ),
        ("a blob", "UPDATE snapshots SET state = X'00FF00FF' WHERE game_id = ?"),
        ("bad JSON", "UPDATE snapshots SET state = state || '}}' WHERE game_id = ?"),
        ("no check values", "UPDATE snapshots SET chain = NULL, digest = NULL WHERE game_id = ?"),
        ("no snapshot", "DELETE FROM snapshots WHERE game_id = ?"),
    ],
)
async def test_a_drifted_snapshot_is_rebuilt_and_repaired(
    tmp_path: Path, what: str, sql: str, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        info, played = await game_in_play(service, moves=10)
        before = log_of(path, info.id)
        db = raw(path)
        db.execute(sql, (info.id,))
        db.close()
        with caplog.at_level(logging.INFO):
            loaded = await service.load(info.id)
        assert loaded.seq == played
        assert f"game {info.id}: the snapshot disagrees with the log" in caplog.text
        # moved back, forward or rewritten: the snapshot is the log's again
        seq, chain, digest = snapshot_row(path, info.id)
        assert seq == played and chain == before[-1][3] and digest is not None
        caplog.clear()
        await service.load(info.id)
        assert "disagrees" not in caplog.text
        assert log_of(path, info.id) == before
        await play_moves(service, info, record_for(info).moves[played : played + 4])
        assert await check_game(service, info.id) == played + 4


@pytest.mark.sqlite_only
async def test_a_deleted_log_entry_is_a_corrupt_game_never_played_on(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        info, played = await game_in_play(service, moves=10)
        db = raw(path)
        db.execute("DELETE FROM actions WHERE game_id = ? AND seq = 4", (info.id,))
        db.close()
        before = log_of(path, info.id)
        with pytest.raises(CorruptGameError) as caught:
            await service.load(info.id)
        assert caught.value.game_id == info.id and "missing" in caught.value.detail
        move = record_for(info).moves[played]
        with pytest.raises(CorruptGameError):
            await service.act(info.id, user_of(info, move.seat), move.action)
        with pytest.raises(CorruptGameError):
            await rebuild_snapshot(service, info.id)
        assert log_of(path, info.id) == before


@pytest.mark.sqlite_only
@pytest.mark.parametrize(
    "sql",
    [
        # an entry edited after the snapshot: the chain no longer matches it
        "UPDATE actions SET notation = 'end' WHERE game_id = :g AND seq = (SELECT MAX(seq)"
        " FROM actions WHERE game_id = :g); UPDATE snapshots SET seq = seq - 1, chain ="
        " (SELECT chain FROM actions WHERE game_id = :g AND seq = snapshots.seq - 1)"
        " WHERE game_id = :g",
        # damaged bytes in an entry (read as U+FFFD: the chain breaks)
        "UPDATE actions SET notation = CAST(X'656EFF64' AS TEXT) WHERE game_id = :g AND seq = 2;"
        " DELETE FROM snapshots WHERE game_id = :g",
        # an entry without a chain value
        "UPDATE actions SET chain = NULL WHERE game_id = :g AND seq = 3;"
        " DELETE FROM snapshots WHERE game_id = :g",
    ],
)
async def test_a_log_entry_that_breaks_the_chain_is_a_corrupt_game(
    tmp_path: Path, sql: str
) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        info, _ = await game_in_play(service, moves=10)
        db = raw(path)
        for statement in sql.split(";"):
            db.execute(statement, {"g": info.id})
        db.close()
        with pytest.raises(CorruptGameError) as caught:
            await service.load(info.id)
        assert "chain" in caught.value.detail


@pytest.mark.sqlite_only
async def test_the_chain_is_stored_with_every_entry(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        info, _ = await game_in_play(service, moves=8)
    value = genesis(info.id)
    for seq, seat, notation, chain in log_of(path, info.id):
        value = next_chain(value, seq, seat, notation)
        assert chain == value


@pytest.mark.sqlite_only
async def test_a_version_3_database_is_upgraded_and_its_logs_chained(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        info, played = await game_in_play(service, moves=10)
    expected = log_of(path, info.id)
    # the database as the bot of schema version 3 left it
    db = raw(path)
    db.execute("ALTER TABLE actions DROP COLUMN chain")
    db.execute("ALTER TABLE snapshots DROP COLUMN chain")
    db.execute("ALTER TABLE snapshots DROP COLUMN digest")
    db.execute("ALTER TABLE games DROP COLUMN language")  # migration 5
    db.execute("ALTER TABLE notification_prefs DROP COLUMN language")  # migration 6
    set_back_to_8(db)  # migration 9
    db.execute("DROP TABLE duty_claims")  # migration 7
    db.execute("PRAGMA user_version = 3")
    db.close()
    async with open_service(path) as service:
        assert await service.store.schema_version() == LATEST_VERSION
        assert log_of(path, info.id) == expected  # every chain value filled
        assert snapshot_row(path, info.id)[1:] == (None, None)
        with caplog.at_level(logging.INFO):
            assert (await service.load(info.id)).seq == played  # checked by replay, once
        assert "never checked" in caplog.text
        assert snapshot_row(path, info.id)[1] == expected[-1][3]
        await play_moves(service, info, record_for(info).moves[played : played + 3])
        assert await check_game(service, info.id) == played + 3


async def test_the_check_of_a_healthy_load_replays_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check is a hash and a compare, never a replay of the log (its cost is a
    figure `benchmarks/service_bench.py` prints: under 1 ms)."""
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        info, _ = await game_in_play(service, moves=30)
        await service.load(info.id)  # a first load may verify an unchecked snapshot
        replays = []
        real_replay, real_new = service.rules.replay, service.rules.new_state
        monkeypatch.setattr(
            service.rules, "replay", lambda *a: replays.append(a) or real_replay(*a)
        )
        monkeypatch.setattr(
            service.rules, "new_state", lambda *a: replays.append(a) or real_new(*a)
        )
        loaded = await service.load(info.id)
        assert loaded.state is not None and loaded.seq >= 30
        assert replays == []


# --- the host's check ---------------------------------------------------------------------


async def two_games_one_broken(path: Path) -> tuple[GameInfo, GameInfo]:
    async with open_service(path) as service:
        good, _ = await game_in_play(service, moves=8)
        bad, _ = await game_in_play(service, moves=8)
    db = raw(path)
    db.execute("DELETE FROM actions WHERE game_id = ? AND seq = 3", (bad.id,))
    db.close()
    return good, bad


def run_bot(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`python -m bot ARGS` on the database `path`, as a fork of this worker's fork
    server (tests/processes.py): a new process running the same entry point, without
    importing the bot again (about 1.7 s of CPU each)."""
    env = {**os.environ, "DATABASE_PATH": str(path), "DISCORD_TOKEN": ""}
    return run_python(["-m", "bot", *args], env=env, cwd=ROOT, timeout=120)


@pytest.mark.sqlite_only
async def test_check_reports_each_broken_game_and_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    good, bad = await two_games_one_broken(path)
    done = run_bot(path, "check")
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert any(line.startswith(f"game {bad.id}: BROKEN") for line in lines)
    assert not any(line.startswith(f"game {good.id}:") for line in lines)
    assert "2 games checked: 1 broken" in lines[-1]
    assert "Traceback" not in done.stderr
    # nothing was written by the check
    db = raw(path)
    assert db.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (bad.id,)).fetchone()[0]


@pytest.mark.sqlite_only
async def test_check_of_a_healthy_database_exits_0(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        await game_in_play(service, moves=8)
    done = run_bot(path, "check")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 games checked: 0 broken" in done.stdout


@pytest.mark.sqlite_only
async def test_the_start_up_sample_logs_broken_games(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "g.db"
    _, bad = await two_games_one_broken(path)
    async with SqliteStore(path) as store:
        with caplog.at_level(logging.INFO):
            report = await check_sample(store, MOUNTAIN_KING, size=5)
    assert [b.game_id for b in report.broken] == [bad.id]
    assert f"game {bad.id}: the stored record is broken" in caplog.text


# --- backups ----------------------------------------------------------------------------


@pytest.mark.sqlite_only
async def test_a_backup_taken_during_play_opens_and_every_game_replays(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        games = [await started_game(service, players=2) for _ in range(3)]

        async def play(info: GameInfo) -> None:
            for move in record_for(info).moves[:40]:
                await play_moves(service, info, [move])
                await asyncio.sleep(0)

        players = [asyncio.create_task(play(info)) for info in games]
        await asyncio.sleep(0.05)
        copies = []
        for n in range(3):  # while the acts run
            target = tmp_path / f"backup-{n}.db"
            await service.store.backup(target)
            copies.append(target)
            await asyncio.sleep(0.02)
        # another process backs up too, through the command
        done = run_bot(path, "backup", str(tmp_path / "cli.db"))
        await asyncio.gather(*players)
    assert done.returncode == 0, done.stderr
    copies.append(tmp_path / "cli.db")
    for copy in copies:
        assert not Path(f"{copy}-wal").exists() or Path(f"{copy}-wal").stat().st_size == 0
        async with SqliteStore(copy, read_only=True) as store:
            report = await check_games(store, MOUNTAIN_KING)
            assert report.checked == 3 and report.broken == () and report.drifted == ()
    # the bot's own copy is untouched by them
    async with open_service(path) as service:
        for info in games:
            assert await check_game(service, info.id) == 40


@pytest.mark.sqlite_only
async def test_a_backup_never_overwrites_a_file(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    async with open_service(path):
        pass
    (tmp_path / "taken.db").write_bytes(b"mine")
    done = run_bot(path, "backup", str(tmp_path / "taken.db"))
    assert done.returncode == 1 and "already exists" in done.stderr
    assert (tmp_path / "taken.db").read_bytes() == b"mine"
