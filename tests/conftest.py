"""Fixtures for every test folder: a throwaway PostgreSQL server (one per test process,
on a Unix socket of its own) when its programs are installed, and a closing line that
says how many PostgreSQL tests ran.

Every test process also runs with `time.monotonic()` as on a machine booted a minute
ago (it starts at 60 s and runs at the real pace): a decision that compared the
machine's uptime with a fixed number instead of reading the injected clock would fail
here as it would on a new server, not only after an hour's uptime.

Where the environment says not to write bytecode (PYTHONDONTWRITEBYTECODE, which keeps
__pycache__ folders out of the checkout), the tests keep it in a folder of the system's
temporary directory instead (PYTHONPYCACHEPREFIX, for this process and every process
it starts: the test workers, `python -m bot`, `python -m rules`): otherwise each of
them compiles every module of the project again (about 7 s of CPU for each test
worker's collection, 0.5 s for each bot process)."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import settings
from pg_server import PgServer, find_bindir

BOOTED_AGO = 60.0


def _as_if_just_booted() -> None:
    """Shift `time.monotonic()` so that it reads `BOOTED_AGO` now and keeps its pace
    (the event loop's time is read through it too, so every timer stays consistent)."""
    real = time.monotonic
    offset = real() - BOOTED_AGO
    time.monotonic = lambda: real() - offset


_as_if_just_booted()


def _bytecode_outside_the_checkout() -> None:
    if not sys.dont_write_bytecode or sys.pycache_prefix is not None:
        return  # bytecode is written as the environment says
    prefix = os.path.join(tempfile.gettempdir(), f"mountain-king-pycache-{os.getuid()}")
    sys.pycache_prefix = prefix
    sys.dont_write_bytecode = False
    os.environ["PYTHONPYCACHEPREFIX"] = prefix
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


_bytecode_outside_the_checkout()

# Hypothesis fails an example that takes longer than 200 ms by default: a timed check,
# which a loaded machine (three test workers on two cores, a PostgreSQL server beside
# them) fails now and then with nothing wrong in the code. Speed is measured by the
# benchmarks, not by the tests, so the suite's property tests have no deadline.
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")

PG_BINDIR = find_bindir()
PG_MISSING = (
    "PostgreSQL store: its tests were left out: no server programs (initdb, pg_ctl, postgres) in"
    " `pg_config --bindir`, /usr/lib/postgresql/*/bin or $PG_BINDIR;"
    " install Debian's `postgresql` package to run them"
)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """The test process's own PostgreSQL server; skips the test when none can run
    (fails instead where MK_REQUIRE_POSTGRES=1, as in CI)."""
    if PG_BINDIR is None:
        if _postgres_required():
            pytest.fail(PG_MISSING.replace("were left out", "are required (MK_REQUIRE_POSTGRES=1)"))
        pytest.skip(PG_MISSING)
    server = PgServer(PG_BINDIR)
    try:
        server.start()
    except BaseException:
        server.stop()
        raise
    yield server
    server.stop()


# test files whose tests one worker runs together under pytest-xdist: they share what
# they compute (test_ai's games, kept by `mode_game`) instead of each worker computing it
ONE_WORKER_FILES = ("tests/test_ai.py",)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """`-n` deals tests out one by one as `--dist load` does, except that each file of
    ONE_WORKER_FILES goes to one worker whole (and first: the longest unit). xdist's
    own `xdist_group` marks name no group under this pytest (the node ids it would
    suffix stay as they are), hence the files by name."""
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class OneWorkerFiles(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return path if path in ONE_WORKER_FILES else nodeid

    return OneWorkerFiles(config, log)


def _is_postgres(nodeid: str) -> bool:
    _, bracket, params = nodeid.partition("[")
    return bool(bracket) and "postgresql" in params.rstrip("]").split("-")


def _postgres_required() -> bool:
    return os.environ.get("MK_REQUIRE_POSTGRES") == "1"


# the files of the longest single tests (20-45 s each on a loaded 2-core machine, whole
# games through Discord): under -n their tests are dealt out first, so that no worker
# is still in one of them while the other has nothing left (the last tests dealt are
# the short ones)
LONG_FIRST_FILES = (
    "tests/bot/test_bot_suggestions_legal.py",
    "tests/bot/test_bot_restart_and_teams.py",
    "tests/bot/test_bot_friends.py",
    "tests/bot/test_bot_turn_messages.py",
    "tests/bot/test_bot_ai_seats.py",
    "tests/bot/test_bot_crash.py",
    "tests/bot/test_bot_i18n_game.py",
    "tests/bot/test_bot_away_clock.py",
    "tests/bot/test_bot_processes.py",
    "tests/service/test_service_processes.py",
    "tests/bot/test_bot_images_language.py",
    "tests/bot/test_bot_i18n_plurals.py",
    "tests/test_point_balance.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without a server, the PostgreSQL variants are left out (the closing line says
    so once) instead of each being reported as skipped. In a test worker of -n, the
    tests of LONG_FIRST_FILES come first (the scheduler deals tests out in the order
    the workers collected them); a run without -n keeps the files' order."""
    if PG_BINDIR is None and not _postgres_required():
        dropped = [item for item in items if _is_postgres(item.nodeid)]
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = [item for item in items if not _is_postgres(item.nodeid)]
    if hasattr(config, "workerinput"):
        items.sort(key=lambda item: item.nodeid.split("::", 1)[0] not in LONG_FIRST_FILES)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if PG_BINDIR is None and not _postgres_required():
        terminalreporter.write_line(PG_MISSING)
        return
    outcomes: dict[str, set[str]] = {}
    for outcome in ("passed", "failed", "error", "skipped"):
        for report in terminalreporter.stats.get(outcome, []):
            nodeid = getattr(report, "nodeid", "")
            if _is_postgres(nodeid):
                outcomes.setdefault(outcome, set()).add(nodeid)
    if not outcomes:
        return
    ran = outcomes.get("passed", set()) | outcomes.get("failed", set())
    parts = [f"{len(v)} {k}" for k, v in outcomes.items()]
    terminalreporter.write_line(
        f"PostgreSQL store: {len(ran)} tests ran against a real server ({', '.join(parts)})"
    )
