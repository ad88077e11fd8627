"""`mountain-king-bot --health` as a monitor runs it (a separate process, settings in
its environment): ok with exit status 0 when the settings are good and the database
opens at this bot's schema (SQLite file or PostgreSQL), else one "not ok" line naming
what is wrong and exit status 1; never the token or the database password, and nothing
written to the database."""

from __future__ import annotations

import asyncio
import io
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from service_helpers import Backend, open_service, started_game

import bot.health

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTIzNDU2.health-check.s3cr3t-t0ken"


def health(workdir: Path, **settings: str) -> subprocess.CompletedProcess[str]:
    """`python -m bot --health` in an empty folder (no .env), with only these settings."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DISCORD_", "DATABASE_", "LOG_LEVEL", "BACKUP_"))
    }
    env.update(settings, PYTHONPATH=str(ROOT))
    workdir.mkdir(parents=True, exist_ok=True)
    return subprocess.run(
        [sys.executable, "-m", "bot", "--health"],
        capture_output=True,
        text=True,
        env=env,
        cwd=workdir,
        timeout=120,
    )


def database_setting(backend: Backend, path: Path) -> dict[str, str]:
    if backend.name == "postgresql":
        return {"DATABASE_URL": backend.url(path)}
    return {"DATABASE_PATH": str(path)}


def written(backend: Backend, tmp_path: Path) -> dict[str, bytes]:
    """The database's content (a read-only SQLite reader may leave an empty -wal file
    beside it: no data)."""
    return {name: data for name, data in backend.snapshot_files(tmp_path).items() if data}


async def test_good_settings_and_a_database_of_this_schema_are_ok(
    tmp_path: Path, backend: Backend
) -> None:
    path = tmp_path / "games.db"
    async with open_service(path) as service:
        await started_game(service, players=2)
        await service.create_game(2001, {"players": 3})
    before = written(backend, tmp_path)
    done = health(tmp_path / "run", DISCORD_TOKEN=TOKEN, **database_setting(backend, path))
    assert done.returncode == 0, done.stdout + done.stderr
    line = done.stdout.strip()
    assert line.startswith("ok: DISCORD_TOKEN set; database ")
    assert line.endswith("holds 2 games: 1 running, 1 waiting to start")
    assert TOKEN not in done.stdout + done.stderr
    assert written(backend, tmp_path) == before  # read, never written


def check(monkeypatch: pytest.MonkeyPatch, workdir: Path, **settings: str) -> tuple[int, str]:
    """The same check in this process (quicker): its exit status and its line."""
    for name in list(os.environ):
        if name.startswith(("DISCORD_", "DATABASE_", "LOG_LEVEL", "BACKUP_")):
            monkeypatch.delenv(name)
    for name, value in settings.items():
        monkeypatch.setenv(name, value)
    workdir.mkdir(parents=True, exist_ok=True)
    monkeypatch.chdir(workdir)  # no .env
    out = io.StringIO()
    status = bot.health.command(out)
    return status, out.getvalue()


@pytest.mark.sqlite_only
def test_bad_settings_are_not_ok_each_named_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = tmp_path / "run"
    missing = tmp_path / "nowhere.db"
    status, line = check(monkeypatch, run, DATABASE_PATH=str(missing))
    assert status == 1
    assert line.startswith("not ok: DISCORD_TOKEN is not set; DATABASE_PATH: ")
    assert "there is no database file" in line and "first starts" in line
    assert not missing.exists()  # a health check makes no database
    status, line = check(monkeypatch, run, DISCORD_TOKEN=TOKEN, LOG_LEVEL="LOUD")
    assert status == 1
    assert line.strip() == (
        "not ok: LOG_LEVEL is 'LOUD': it must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL."
    )
    assert TOKEN not in line
    folder = tmp_path / "folder.db"
    folder.mkdir()
    status, line = check(monkeypatch, run, DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(folder))
    assert status == 1 and "DATABASE_PATH" in line and "folder" in line


@pytest.mark.sqlite_only
def test_an_unreachable_postgresql_is_not_ok_without_its_password(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"postgresql://bot:hunter2@/mk?host={tmp_path}"
    status, line = check(monkeypatch, tmp_path / "run", DISCORD_TOKEN=TOKEN, DATABASE_URL=url)
    assert status == 1
    assert line.startswith("not ok: DATABASE_URL: The database postgresql://bot:***@/mk")
    assert "cannot be reached" in line and "hunter2" not in line


async def older_schema(path: Path, backend: Backend) -> None:
    """A database a bot of schema version 4 left (a newer bot upgrades it at start)."""
    async with open_service(path):
        pass
    if backend.name == "postgresql":
        backend.postgres.psql("UPDATE mk_schema SET version = 4", backend.database(path))
    else:
        db = sqlite3.connect(path)
        db.execute("PRAGMA user_version = 4")
        db.commit()
        db.close()


def test_a_database_of_an_older_schema_is_not_ok_until_the_bot_upgrades_it(
    tmp_path: Path, backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "g.db"
    asyncio.run(older_schema(path, backend))
    database = database_setting(backend, path)
    status, line = check(monkeypatch, tmp_path / "run", DISCORD_TOKEN=TOKEN, **database)
    assert status == 1 and "schema version 4; start the bot once" in line
