"""The store's last faults (issue 29): `check` repairs the snapshot it finds drifted
(a wrong state under a valid digest, which a load trusts) and the next load plays on
the repaired state; a log entry edited below the snapshot is refused at load as a
damaged game while the others play on; the host's tools answer a bad path in one
line; `check --sample N` reads beside the writer."""

from __future__ import annotations

import logging
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from processes import run_python
from service_checks import check_game
from service_helpers import (
    Service,
    current_backend,
    game_in_play,
    open_service,
    play_moves,
    raw,
    read_only,
    record_for,
    started_game,
    user_of,
)

import bot.__main__
from bot.maintenance import check_games, check_sample
from bot.service import MOUNTAIN_KING, CorruptGameError, GameInfo
from bot.store import SnapshotRecord

ROOT = Path(__file__).resolve().parents[2]


async def drift(service: Service, info: GameInfo, played: int) -> tuple[int, str]:
    """Store a wrong state as the snapshot through the store, as lossy code would: the
    store binds it to the log's chain value and digests it, so it looks sound. The
    seat to move gets 40 of a good it lacks: (seat, good)."""
    state = (await service.load(info.id)).state
    assert state is not None and state.current_seat is not None
    seat = state.current_seat
    storage = state.account_of(seat).storage
    lacking = next(name for name, n in storage.items() if n == 0)
    storage[lacking] = 40
    text = MOUNTAIN_KING.state_to_json(state)
    assert await service.store.put_snapshot(SnapshotRecord(info.id, played, text))
    return seat, lacking


async def holding(service: Service, info: GameInfo, seat: int, good: str) -> int:
    state = (await service.load(info.id)).state
    assert state is not None
    return state.account_of(seat).storage[good]


def edit(path: Path, sql: str) -> None:
    """Change rows behind the store's back: in the SQLite file, or in the PostgreSQL
    database standing for it."""
    backend = current_backend()
    if backend.name == "sqlite":
        db = raw(path)
        db.execute(sql)
        db.close()
    else:
        backend.postgres.psql(sql, backend.database(path))


def run_bot(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`python -m bot ARGS` on the database `path`, as a fork of this worker's fork
    server (tests/processes.py): a new process running the same entry point, without
    importing the bot again (about 1.7 s of CPU each)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    env |= {"DATABASE_PATH": str(path), "DISCORD_TOKEN": ""}
    return run_python(["-m", "bot", *args], env=env, cwd=ROOT, timeout=120)


# --- 1. a drifted snapshot under a valid digest: check repairs it -------------------------


async def test_a_drifted_snapshot_with_a_valid_digest_is_repaired_by_the_check(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        info, played = await game_in_play(service)
        other, _ = await game_in_play(service, moves=8)
        seat, good = await drift(service, info, played)
        # the load trusts it (a hash and a compare, no replay): the fault
        assert await holding(service, info, seat, good) == 40
        found = await check_games(service.store, MOUNTAIN_KING)
        assert [d.game_id for d in found.drifted] == [info.id]
        assert "differs from a replay of the log" in found.drifted[0].reason
        assert found.repaired == () and found.failed
        assert await holding(service, info, seat, good) == 40  # nothing written without repair

        repaired = await check_games(service.store, MOUNTAIN_KING, repair=True)
        assert repaired.repaired == (info.id,) and repaired.broken == ()
        assert not repaired.failed
        # the next load plays on the repaired state: the log's
        assert await holding(service, info, seat, good) == 0
        await play_moves(service, info, record_for(info).moves[played : played + 4])
        assert await check_game(service, info.id) == played + 4
        again = await check_games(service.store, MOUNTAIN_KING)
        assert again.checked == 2 and again.drifted == () and not again.failed
        assert await check_game(service, other.id) >= 8


async def test_the_start_up_sample_repairs_a_drifted_snapshot(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        info, played = await game_in_play(service)
        seat, good = await drift(service, info, played)
        with caplog.at_level(logging.INFO):
            report = await check_sample(service.store, MOUNTAIN_KING, size=5)
        assert report.repaired == (info.id,)
        assert f"game {info.id}: the snapshot: its state differs" in caplog.text
        assert "rebuilt from the log" in caplog.text
        assert await holding(service, info, seat, good) == 0


@pytest.mark.sqlite_only
async def test_the_check_command_repairs_a_drifted_snapshot_and_a_second_run_is_clean(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        info, played = await game_in_play(service)
        seat, good = await drift(service, info, played)
    done = run_bot(path, "check")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines == [
        f"game {info.id}: REPAIRED: the snapshot: its state differs from a replay of the"
        " log; rewritten from the log",
        "1 games checked: 0 broken, 1 with a snapshot rebuilt from the log.",
    ]
    assert done.stderr == ""
    async with open_service(path) as service:
        assert await holding(service, info, seat, good) == 0
        await play_moves(service, info, record_for(info).moves[played : played + 3])
        assert await check_game(service, info.id) == played + 3
    again = run_bot(path, "check")
    assert again.returncode == 0, again.stdout + again.stderr
    assert again.stdout.splitlines() == ["1 games checked: 0 broken."]


@pytest.mark.sqlite_only
async def test_a_drifted_snapshot_the_check_cannot_rewrite_exits_1_saying_what_to_do(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        info, played = await game_in_play(service)
        await drift(service, info, played)
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    with read_only(path):
        done = run_bot(path, "check")
    assert done.returncode == 1, done.stdout + done.stderr
    first, summary = done.stdout.splitlines()
    assert first.startswith(f"game {info.id}: NOT REPAIRED: the snapshot: its state differs")
    assert "cannot be written" in first and "run the check again where it can be" in first
    assert summary == "1 games checked: 0 broken, 1 with a snapshot that disagrees with the log."
    assert "Traceback" not in done.stderr


# --- 2. an entry edited below the snapshot is refused at load -----------------------------


async def test_an_entry_edited_below_the_snapshot_is_refused_at_load(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        good, _ = await game_in_play(service, moves=10)
        bad, played = await game_in_play(service, moves=10)
    # the snapshot stands at the last entry; entry 1 is far below it
    record = record_for(bad)
    other = next(m.action for m in record.moves[1:] if m.seat == record.moves[0].seat)
    edit(path, f"UPDATE actions SET notation = '{other}' WHERE game_id = {bad.id} AND seq = 1")
    async with open_service(path) as service:  # the bot started again
        with caplog.at_level(logging.ERROR), pytest.raises(CorruptGameError) as caught:
            await service.load(bad.id)
        assert caught.value.game_id == bad.id
        assert "log entry 1 does not match the log's chain" in caught.value.detail
        assert caught.value.message == (
            f"Game #{bad.id} cannot be loaded because its saved record is damaged; nothing"
            " was changed and the problem has been logged."
        )
        assert f"game {bad.id}: the stored record does not rebuild" in caplog.text
        move = record.moves[played]
        with pytest.raises(CorruptGameError):
            await service.act(bad.id, user_of(bad, move.seat), move.action)
        # the other game plays on
        following = record_for(good).moves
        done = await check_game(service, good.id)
        await play_moves(service, good, following[done : done + 4])
        assert await check_game(service, good.id) == done + 4
        report = await check_games(service.store, MOUNTAIN_KING)
        assert [b.game_id for b in report.broken] == [bad.id] and report.failed


@pytest.mark.sqlite_only
async def test_the_check_command_reports_an_entry_edited_below_the_snapshot(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        good, _ = await game_in_play(service, moves=8)
        bad, _ = await game_in_play(service, moves=8)
    edit(path, f"UPDATE actions SET notation = 'end' WHERE game_id = {bad.id} AND seq = 2")
    done = run_bot(path, "check")
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        f"game {bad.id}: BROKEN: ValueError: log entry 2 does not match the log's chain"
        " (edited or damaged)",
        "2 games checked: 1 broken.",
    ]
    assert good.id != bad.id


async def test_a_load_reads_the_whole_log_once_then_only_the_entries_added_since(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The chain below the snapshot costs a whole read of the log at the game's first
    load in a process, then nothing while the game stands still or after the process's
    own move (its chain value follows from the one verified), and one short read after
    another process's move."""
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        info, played = await game_in_play(service, moves=10)
    async with open_service(path) as service:
        reads: list[int] = []
        actions = service.store.actions

        async def counted(game_id: int, *, after: int = 0) -> Any:
            found = await actions(game_id, after=after)
            if game_id == info.id:
                reads.append(len(found))
            return found

        monkeypatch.setattr(service.store, "actions", counted)
        await service.load(info.id)
        assert reads == [played]  # the whole log
        await service.load(info.id)
        await service.view(info.id, None)
        assert reads == [played]  # nothing new: nothing read
        moves = record_for(info).moves
        move = moves[played]
        reads.clear()
        await service.act(info.id, user_of(info, move.seat), move.action)
        reads.clear()
        await service.load(info.id)
        assert reads == []  # its own move: nothing read
        async with open_service(path) as other:
            move = moves[played + 1]
            await other.act(info.id, user_of(info, move.seat), move.action)
        await service.load(info.id)
        assert reads == [2]  # another's move: the last entry verified and the new one


# --- 3. the host's tools: a bad path is one line ------------------------------------------


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    said = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert len(said) == 1, done.stdout + done.stderr
    return said[0]


@pytest.mark.sqlite_only
async def test_a_backup_into_a_missing_folder_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        await started_game(service)
    done = run_bot(path, "backup", "/missing/folder/x.db")
    assert done.returncode == 1
    assert one_line(done) == (
        "backup: The folder /missing/folder does not exist; create it or choose another"
        " place for the backup."
    )
    assert not Path("/missing").exists()


@pytest.mark.sqlite_only
@pytest.mark.parametrize(
    ("database", "args", "said"),
    [
        ("g.db", ["backup", "{tmp}/g.db/x.db"], "which is a file, not a folder"),
        ("g.db", ["backup", "/proc/x.db"], "a kernel file system"),
        ("g.db", ["backup", "{tmp}"], "already exists"),
        ("g.db", ["backup", "{tmp}/absent/deeper/x.db"], "does not exist"),
        ("absent.db", ["backup", "{tmp}/x.db"], "There is no database file"),
        ("absent.db", ["check"], "There is no database file"),
        (".", ["check"], "it is a folder, not a file"),
        (".", ["check", "--sample", "3"], "it is a folder, not a file"),
        ("g.db/inner.db", ["check"], "which is a file, not a folder"),
        ("text.db", ["check"], "cannot be read"),
        ("text.db", ["backup", "{tmp}/x.db"], "cannot be read"),
        ("g.db", ["migrate", "--from", "{tmp}/absent.db", "--to", "postgresql://u@[::1]:1/x"],
         "There is no SQLite database file"),
    ],
)  # fmt: skip
async def test_a_bad_path_is_one_line_from_each_tool(
    tmp_path: Path,
    database: str,
    args: list[str],
    said: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with open_service(tmp_path / "g.db") as service:
        await started_game(service)
    (tmp_path / "text.db").write_text("not a database at all\n" * 50)
    for name in list(os.environ):
        if name.startswith(("DISCORD_", "DATABASE_")):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)  # no .env: the settings come from here
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / database))
    argv = ["mountain-king-bot", *(a.format(tmp=tmp_path) for a in args)]
    monkeypatch.setattr(sys, "argv", argv)
    status = await_free(bot.__main__.main)
    out, err = capsys.readouterr()
    lines = [line for line in (out + err).splitlines() if line.strip()]
    assert status != 0
    assert len(lines) == 1, out + err
    assert said in lines[0]
    assert lines[0].startswith(f"{args[0]}: ")


def await_free(main: Callable[[], int]) -> int:
    """Run a synchronous entry point that calls `asyncio.run` from inside this
    test's event loop: in a thread of its own."""
    with ThreadPoolExecutor(1) as pool:
        status: int = pool.submit(main).result()
    return status


# --- check on a sample, beside the writer -------------------------------------------------


@pytest.mark.sqlite_only
async def test_check_on_a_sample_runs_while_another_connection_holds_the_writer(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        for _ in range(3):
            await started_game(service)
    writer = raw(path)
    writer.execute("BEGIN IMMEDIATE")  # the write lock, as the bot's writer in a batch
    writer.execute("UPDATE games SET config = config WHERE id = 1")
    try:
        done = run_bot(path, "check", "--sample", "2")
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines() == ["2 games checked (chosen at random of 3): 0 broken."]
    bad = run_bot(path, "check", "--sample", "0")
    assert bad.returncode == 2 and "--sample" in bad.stderr and "Traceback" not in bad.stderr
