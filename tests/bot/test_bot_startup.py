"""Start-up as a host sees it, with the real `python -m bot` process: a bad setting or a
database path the bot cannot use is one line naming the setting, a non-zero exit and no
traceback; a Discord that answers 5xx or cannot be reached is tried again, waiting
longer each time (capped), with one log line per try; a refused token is one line and
a non-zero exit; discord.py's voice warnings never show. And the client mentions
nobody unless a message says whom."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import re
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from datetime import timedelta
from pathlib import Path

import discord
import pytest
from fake_discord import CHANNEL_ID, GUILD_ID, FakeDiscord, user
from process_harness import BotProcess, _die_with_parent
from pydantic import ValidationError
from wire_game import ALICE

import bot.__main__ as bot_main
from bot.__main__ import RECONNECT, OneLineReconnect, backoff, point_at
from bot.app import create_bot
from bot.client import MountainBot
from bot.service import GameService, MountainKingRules
from bot.settings import Settings, problems
from bot.store.sqlite import SqliteStore
from bot.texts import mention_only
from rules.actions import Action
from rules.state import State

TOKEN = "startup-test-token-4711"
RETRY = "Discord unreachable ("
VOICE = ("PyNaCl", "davey", "voice will NOT be supported", "audioop", "DeprecationWarning")


def environment(tmp_path: Path, fake: FakeDiscord | None = None, **settings: str) -> dict[str, str]:
    """The environment BotProcess gives the bot (none of the developer's settings), with
    `settings` on top; without a fake, Discord is a port nobody listens on."""
    process = BotProcess(fake or FakeDiscord(), tmp_path, env=settings)
    process.token = TOKEN
    return process.environment()


def rundir(tmp_path: Path) -> Path:
    path = tmp_path / "run"  # an empty working directory: no .env is read
    path.mkdir(exist_ok=True)
    return path


def lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.strip()]


def closed_port() -> int:
    """A loopback port nobody listens on (connection refused)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def run_to_exit(env: dict[str, str], cwd: Path, timeout: float = 60) -> tuple[int, str]:
    """Run `python -m bot` to its end without blocking the loop (a fake may run in it)."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        preexec_fn=_die_with_parent,
    )
    try:
        out, _ = await asyncio.wait_for(proc.communicate(), timeout)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.returncode is not None
    return proc.returncode, out.decode(errors="replace")


# settings the bot refuses as it reads them (before it logs, opens or reaches anything)
BAD_VALUES = [
    ("LOG_LEVEL", "verbose", "must be one of DEBUG, INFO"),
    ("REMINDER_HOURS", "abc", "valid number"),
    ("REMINDER_HOURS", "-1", "greater than 0"),
    ("REMINDER_HOURS", "inf", ""),
    ("INACTIVITY_REMINDERS", "many", "valid integer"),
    ("DEV_GUILD_ID", "my-server", "valid integer"),
    ("DISCORD_RETRY_SECONDS", "0", "greater than 0"),
]


def bad_paths(tmp_path: Path) -> list[tuple[str, str, str]]:
    """Database paths the bot finds it cannot use when it opens the database."""
    a_file = tmp_path / "a-file"
    a_file.write_text("not a folder")
    return [
        ("DATABASE_PATH", str(tmp_path), "folder, not a file"),
        ("DATABASE_PATH", "/proc/mountain-king/db.sqlite3", "/proc"),
        ("DATABASE_PATH", str(a_file / "db.sqlite3"), f"goes through {a_file}, which is a file"),
    ]


def assert_one_line_naming(name: str, words: str, code: int, output: str) -> None:
    assert code != 0, output
    assert "Traceback" not in output, output
    assert TOKEN not in output
    (line,) = lines(output)
    assert line.startswith(f"{name} is "), line
    assert words in line, line


@pytest.mark.parametrize("case", range(len(BAD_VALUES)))
def test_a_bad_setting_is_one_line_naming_it(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    case: int,
) -> None:
    """What `python -m bot` runs (`bot.__main__.start`), in this process with the
    environment the process would have: a value is refused as the settings are read.
    (A process costs about 2 s of CPU to import the bot; the bad paths below and
    `test_every_bad_setting_gets_its_own_line` run as processes.)"""
    name, value, words = BAD_VALUES[case]
    env = environment(tmp_path, **{name: value})
    for variable in list(os.environ):
        monkeypatch.delenv(variable)
    for variable, setting in env.items():
        monkeypatch.setenv(variable, setting)
    monkeypatch.chdir(rundir(tmp_path))

    async def accepted(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"{name}={value!r} was accepted: the bot went on to start")

    monkeypatch.setattr(bot_main, "run", accepted)
    code = bot_main.start()
    out = capsys.readouterr()
    assert_one_line_naming(name, words, code, out.out + out.err)


@pytest.mark.parametrize("case", range(3))
async def test_a_database_path_the_bot_cannot_use_is_one_line_naming_it(
    tmp_path: Path, case: int
) -> None:
    name, value, words = bad_paths(tmp_path)[case]
    code, output = await run_to_exit(environment(tmp_path, **{name: value}), rundir(tmp_path))
    assert_one_line_naming(name, words, code, output)


async def test_every_bad_setting_gets_its_own_line(tmp_path: Path) -> None:
    env = environment(tmp_path, LOG_LEVEL="loud", REMINDER_HOURS="soon")
    code, output = await run_to_exit(env, rundir(tmp_path))
    assert code != 0 and "Traceback" not in output, output
    assert sorted(line.split()[0] for line in lines(output)) == ["LOG_LEVEL", "REMINDER_HOURS"]


def test_the_log_level_is_read_in_any_case() -> None:
    assert Settings(log_level="debug").log_level == "DEBUG"


@pytest.mark.parametrize("status", [401, 404])
async def test_a_refused_login_is_one_line_and_no_retry(tmp_path: Path, status: int) -> None:
    async with FakeDiscord() as fake:
        fake.fail("GET", "/users/@me", status)
        env = environment(tmp_path, fake, DISCORD_RETRY_SECONDS="0.05")
        code, output = await run_to_exit(env, rundir(tmp_path))
        tries = [r for r in fake.requests if r.path == "/users/@me"]
    assert code != 0, output
    assert "Traceback" not in output and TOKEN not in output, output
    assert RETRY not in output, output
    assert len(tries) == 1
    (line,) = [line for line in lines(output) if "ERROR" in line]
    if status == 401:
        assert "DISCORD_TOKEN" in line, line
    else:
        assert "404" in line, line
    for words in VOICE:
        assert words not in output, output


async def test_discord_answering_500_is_tried_again_until_it_answers(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        fake.fail("GET", "/users/@me", 500, times=3, allow_retried_status=True)
        env = {"DISCORD_RETRY_SECONDS": "0.05", "DISCORD_RETRY_MAX_SECONDS": "1"}
        async with BotProcess(fake, tmp_path, env=env) as process:
            began = time.monotonic()
            await process.start()  # synced /mk and identified: connected
            took = time.monotonic() - began
            log = process.log_paths[-1].read_text()
    retries = [line for line in log.splitlines() if RETRY in line]
    assert [re.sub(r".*\); ", "", line) for line in retries] == [
        "retrying in 0.05 s",
        "retrying in 0.1 s",
        "retrying in 0.2 s",
    ], log
    assert all("it answered 500 Internal Server Error" in line for line in retries), log
    assert took < 15, "discord.py's own slow 5xx retries were not in the way"
    assert "Traceback" not in log and process.token not in log
    for words in VOICE:
        assert words not in log, log


@pytest.mark.parametrize("where", ["refused", "dns"])
async def test_an_unreachable_discord_is_tried_again_with_a_capped_backoff(
    tmp_path: Path, where: str
) -> None:
    host = f"127.0.0.1:{closed_port()}" if where == "refused" else "mountain-king.invalid"
    env = environment(
        tmp_path,
        DISCORD_API_BASE=f"http://{host}/api/v10",
        DISCORD_RETRY_SECONDS="0.05",
        DISCORD_RETRY_MAX_SECONDS="0.2",
    )
    log_path = tmp_path / "bot.log"
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "bot"],
            cwd=rundir(tmp_path),
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            preexec_fn=_die_with_parent,
        )
    try:
        deadline = time.monotonic() + 30
        while log_path.read_text().count(RETRY) < 5:
            assert proc.poll() is None, log_path.read_text()
            assert time.monotonic() < deadline, log_path.read_text()
            await asyncio.sleep(0.05)
        assert proc.poll() is None, "it keeps trying"
    finally:
        proc.terminate()
        with suppress(subprocess.TimeoutExpired):
            proc.wait(10)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    text = log_path.read_text()
    retries = [line for line in text.splitlines() if RETRY in line][:5]
    waits = [re.sub(r".*retrying in ", "", line) for line in retries]
    assert waits == ["0.05 s", "0.1 s", "0.2 s", "0.2 s", "0.2 s"], text
    reason = "connection refused" if where == "refused" else "mountain-king.invalid"
    assert all(reason in line for line in retries), text
    assert "Traceback" not in text and TOKEN not in text, text


def test_the_backoff_doubles_up_to_its_cap() -> None:
    delays = backoff(5, 300)
    assert [next(delays) for _ in range(9)] == [5, 10, 20, 40, 80, 160, 300, 300, 300]


@asynccontextmanager
async def bot_in_process(tmp_path: Path) -> AsyncIterator[tuple[FakeDiscord, MountainBot]]:
    fake = FakeDiscord()
    fake.users = {ALICE: user(ALICE, "alice")}
    await fake.start()
    saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    store = SqliteStore(tmp_path / "db.sqlite3")
    await store.open()
    service: GameService[State, Action] = GameService(
        store, MountainKingRules(), rng=random.Random(1), reminder_interval=timedelta(hours=12)
    )
    point_at(fake.api_base, fake.gateway_url)
    bot = create_bot(
        service, Settings(discord_token=None), scheduler_poll=0, guild_ready_timeout=0.05
    )
    task = asyncio.create_task(bot.start(TOKEN))
    try:
        for _ in range(750):
            if bot.is_ready() or task.done():
                break
            await asyncio.sleep(0.02)
        if task.done():
            task.result()
        assert bot.is_ready()
        yield fake, bot
    finally:
        await bot.close()
        await asyncio.wait([task], timeout=10)
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved
        await store.close()
        await fake.stop()


async def test_a_message_that_names_no_mentions_pings_nobody(tmp_path: Path) -> None:
    async with bot_in_process(tmp_path) as (fake, bot):
        channel = bot.get_channel(int(CHANNEL_ID))
        assert isinstance(channel, discord.TextChannel)
        text = f"@everyone @here <@{ALICE}> <@&{GUILD_ID}>"
        await channel.send(text)  # no allowed_mentions: the client's default
        await channel.send(f"<@{ALICE}>, it's your turn", allowed_mentions=mention_only(int(ALICE)))
        posts = [
            r.json
            for r in fake.requests
            if r.method == "POST" and r.path == f"/channels/{CHANNEL_ID}/messages"
        ]
    forgot, ping = posts
    assert forgot["content"] == text
    mentions = forgot["allowed_mentions"]
    assert mentions["parse"] == [], mentions
    assert not mentions.get("users") and not mentions.get("roles"), mentions
    assert not mentions.get("replied_user"), mentions
    # a ping still names its player, and only them
    assert ping["allowed_mentions"]["parse"] == []
    assert [int(u) for u in ping["allowed_mentions"]["users"]] == [int(ALICE)]
    assert not ping["allowed_mentions"].get("roles")


def test_the_client_default_mentions_nobody(tmp_path: Path) -> None:
    bot = create_bot(None, Settings(discord_token=None), scheduler_poll=0)  # type: ignore[arg-type]
    default = bot.allowed_mentions
    assert default is not None
    assert default.to_dict()["parse"] == []
    assert not default.everyone and not default.users and not default.roles


def test_a_lost_gateway_is_one_line_with_its_reason() -> None:
    """discord.py logs a failed gateway connection with a traceback before it tries
    again; the bot's log handler makes it one line."""
    error = ConnectionResetError(104, "Connection reset by peer")
    record = logging.LogRecord(
        "discord.client", logging.ERROR, "client.py", 1, RECONNECT, (2.5,), (OSError, error, None)
    )
    assert OneLineReconnect().filter(record)
    assert record.getMessage() == (
        "Discord unreachable ([Errno 104] Connection reset by peer); retrying in 2.5 s"
    )
    assert record.exc_info is None


def test_a_secret_setting_is_never_shown() -> None:
    with pytest.raises(ValidationError) as caught:
        Settings(discord_token=12345)  # type: ignore[arg-type]
    (line,) = problems(caught.value)
    assert line.startswith("DISCORD_TOKEN: ") and "12345" not in line


async def test_the_host_tools_name_a_bad_setting_in_one_line(tmp_path: Path) -> None:
    env = environment(tmp_path, DATABASE_PATH=str(tmp_path))
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "check",
        cwd=rundir(tmp_path),
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    out, _ = await asyncio.wait_for(proc.communicate(), 60)
    output = out.decode(errors="replace")
    assert proc.returncode == 2 and "Traceback" not in output, output
    (line,) = lines(output)
    assert line.startswith("check: DATABASE_PATH is ") and "folder" in line, line


def test_database_url_must_be_postgresql_and_is_never_shown() -> None:
    url = "postgresql://bot:hunter2@db.example/mk"
    assert Settings(database_url=url).database_url is not None
    assert "hunter2" not in repr(Settings(database_url=url))
    assert Settings(database_url="  ").database_url is None
    with pytest.raises(ValidationError) as caught:
        Settings(database_url="mysql://bot:hunter2@db.example/mk")
    (line,) = problems(caught.value)
    assert line.startswith("DATABASE_URL: it must be a PostgreSQL URL"), line
    assert "hunter2" not in line
