"""The real bot as a separate OS process (`python -m bot`) talking to a FakeDiscord, so
a test can SIGKILL it mid-delivery and start it again on the same database file.

    async with FakeDiscord() as fake, BotProcess(fake, tmp_path) as bot:
        await bot.start()     # returns once this process synced /mk and IDENTIFYed
        ...
        await bot.kill()      # SIGKILL, as a crash or an OOM kill would
        await bot.start()     # a new process, same database

Every start uses a fresh bot token, so the fake's records tell the processes apart
(`Request.auth`, the IDENTIFY payload's `token`). The child runs in an empty working
directory (a developer's `.env` in the project is never read) with every setting
given in its environment, and the project on PYTHONPATH. Its stdout and stderr go to
one log file per start (`bot.log_paths`, `bot.tail()`). No process outlives the test:
`__aexit__` kills it, an atexit hook kills any left over, and on Linux the child gets
SIGKILL if the test process dies (PR_SET_PDEATHSIG).

Two ways to launch it, the same program either way:

- `BotProcess(...)` (exec): `python -m bot` in a new interpreter, as a host runs it.
  The tests of the entry point itself use this: start-up lines, settings errors, the
  token never logged, retries while Discord is away (test_bot_startup.py,
  test_bot_hosting.py), and the benchmarks (which import this file as
  `tests.bot.process_harness`, outside pytest).
- `BotProcess(..., fork=True)`: a fork of this test worker's fork server
  (tests/processes.py), which imported the bot once; the child runs `python -m bot`'s
  entry point (`runpy` of `bot.__main__`, this environment, working directory and log
  file) as a fresh OS process: its own pid, sockets, event loop and database
  connections, `random` reseeded, no thread inherited, SIGKILL when the server or this
  worker dies. The tests that need "a real bot process, killed and started again" but
  are not about the interpreter's start-up use it, and save about 1.7 s of CPU per
  start: the crashes and resends (test_bot_crash.py), two processes on one database
  (test_bot_processes.py), shards (test_bot_shards.py) and the harness's own restart
  (test_fake_discord.py).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import ctypes
import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # so that benchmarks import this as tests.bot.process_harness too
    from fake_discord import FakeDiscord
    from processes import ExecProcess, ForkedProcess

PROJECT_ROOT = Path(__file__).resolve().parents[2]
# every setting bot/settings.py reads; the child gets each one explicitly
SETTINGS_VARS = (
    "DISCORD_TOKEN",
    "DATABASE_PATH",
    "DEV_GUILD_ID",
    "LOG_LEVEL",
    "REMINDER_HOURS",
    "INACTIVITY_REMINDERS",
    "DISCORD_API_BASE",
    "DISCORD_GATEWAY_URL",
)

_LIVE: set[subprocess.Popen[bytes] | ForkedProcess | ExecProcess] = set()


def _kill_leftovers() -> None:
    for proc in list(_LIVE):
        with contextlib.suppress(OSError):
            proc.kill()
            proc.wait(timeout=5)


atexit.register(_kill_leftovers)


def _die_with_parent() -> None:  # runs in the child between fork and exec
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


class BotProcessError(AssertionError):
    pass


class BotProcess:
    def __init__(
        self,
        fake: FakeDiscord,
        workdir: Path,
        *,
        database: Path | None = None,
        env: dict[str, str] | None = None,
        start_timeout: float = 30.0,
        fork: bool = False,
    ) -> None:
        self.fake = fake
        self.workdir = workdir
        self.database = database or workdir / "bot.sqlite3"
        self.extra_env = env or {}
        self.start_timeout = start_timeout
        self.fork = fork  # launched by the fork server instead of a new interpreter
        self.proc: subprocess.Popen[bytes] | ForkedProcess | ExecProcess | None = None
        self.token = ""
        self.starts = 0
        self.log_paths: list[Path] = []
        self.identify_index = -1  # index into fake.identifies of this process's IDENTIFY

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def environment(self) -> dict[str, str]:
        # none of the developer's settings leak in, including ones added later
        names = set(SETTINGS_VARS)
        with contextlib.suppress(Exception):
            from bot.settings import Settings

            names |= {n.upper() for n in Settings.model_fields}
        env = {
            k: v
            for k, v in os.environ.items()
            if k.upper() not in names and not k.upper().startswith("DISCORD_")
        }
        env.update(
            DISCORD_TOKEN=self.token,
            DISCORD_API_BASE=self.fake.api_base,
            DISCORD_GATEWAY_URL=self.fake.gateway_url,
            DATABASE_PATH=str(self.database),
            LOG_LEVEL="INFO",
            REMINDER_HOURS="12",
            INACTIVITY_REMINDERS="3",
            PYTHONPATH=os.pathsep.join(
                [str(PROJECT_ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
            ),
            PYTHONUNBUFFERED="1",
            PYTHONDONTWRITEBYTECODE="1",
        )
        env.update(self.extra_env)
        return env

    async def start(self) -> None:
        """Start `python -m bot`; return once the fake saw this process sync the
        commands (PUT .../commands) and IDENTIFY on the gateway. The bot's own on_ready
        comes `guild_ready_timeout` (2 s) later; interactions are handled before that."""
        if self.running:
            raise BotProcessError("the bot process is already running")
        self.starts += 1
        self.token = f"harness-{self.starts}-{secrets.token_hex(6)}"
        rundir = self.workdir / "run"  # an empty cwd: no .env is read
        rundir.mkdir(parents=True, exist_ok=True)
        log_path = self.workdir / f"bot-{self.starts}.log"
        self.log_paths.append(log_path)
        with log_path.open("wb") as log:
            if self.fork:
                # pytest's path only (tests/ is on it): the benchmarks never fork
                from processes import spawn_python

                forked = spawn_python(
                    ["-m", "bot"],
                    env=self.environment(),
                    cwd=rundir,
                    stdout=log.fileno(),
                    stderr=log.fileno(),
                )
                self.proc = forked
                _LIVE.add(forked)
                await forked.wait_started()
            else:
                # Popen in this (the loop's) thread: PDEATHSIG follows the forking thread
                self.proc = subprocess.Popen(
                    [sys.executable, "-m", "bot"],
                    cwd=rundir,
                    env=self.environment(),
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    preexec_fn=_die_with_parent,
                )
        _LIVE.add(self.proc)
        deadline = time.monotonic() + self.start_timeout
        while not (self.synced() and self.identified()):
            if self.proc.poll() is not None:
                raise BotProcessError(
                    f"the bot process exited with {self.proc.returncode} while starting\n"
                    + self.tail()
                )
            if time.monotonic() > deadline:
                raise BotProcessError(
                    f"the bot did not sync and identify within {self.start_timeout} s\n"
                    + self.tail()
                )
            await asyncio.sleep(0.02)

    def synced(self) -> bool:
        return any(
            r.method == "PUT" and r.path.endswith("/commands") and r.auth == self.token
            for r in self.fake.requests
        )

    def identified(self) -> bool:
        for i, payload in enumerate(self.fake.identifies):
            if payload.get("token") == self.token:
                self.identify_index = i
                return True
        return False

    async def wait_exit(self, timeout: float) -> int | None:
        """The exit status, or None if it is still running after `timeout` seconds."""
        assert self.proc is not None
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        if self.proc.poll() is not None:
            _LIVE.discard(self.proc)
        return self.proc.poll()

    async def kill(self) -> None:
        """SIGKILL: the process gets no chance to finish anything."""
        if self.proc is None or self.proc.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            self.proc.send_signal(signal.SIGKILL)
        if await self.wait_exit(10) is None:
            raise BotProcessError(f"pid {self.proc.pid} survived SIGKILL")

    async def stop(self, timeout: float = 5.0) -> None:
        """SIGTERM, then SIGKILL after `timeout` seconds."""
        if self.proc is None or self.proc.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            self.proc.send_signal(signal.SIGTERM)
        if await self.wait_exit(timeout) is None:
            await self.kill()

    def tail(self, lines: int = 60) -> str:
        """The end of each start's log, for failure messages."""
        out = []
        for path in self.log_paths:
            text = path.read_text(errors="replace") if path.exists() else ""
            out.append(f"--- {path.name} ---\n" + "\n".join(text.splitlines()[-lines:]))
        return "\n".join(out)

    async def __aenter__(self) -> BotProcess:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.kill()
