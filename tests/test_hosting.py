"""Hosting as a service: `pip install .` is a runtime install (the test and lint tools
only in the `dev` extra) with the console script `mountain-king-bot`, which is the bot's
own entry point; the systemd unit passes `systemd-analyze verify` and keeps its
promises (restart on failure, the journal, a token file, its own user, hardening)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from pkgutil import resolve_name

import pytest

import bot.__main__

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "deploy" / "mountain-king.service"
DEV_TOOLS = ("pytest", "ruff", "mypy", "hypothesis", "simcord", "pytest-asyncio", "pytest-xdist")


def project() -> dict[str, object]:
    with (ROOT / "pyproject.toml").open("rb") as f:
        data: dict[str, object] = tomllib.load(f)["project"]
    return data


def names(requirements: object) -> set[str]:
    assert isinstance(requirements, list)
    return {re.split(r"[<>=!~\[; ]", r, maxsplit=1)[0].lower() for r in requirements}


def test_the_runtime_install_has_no_development_tools() -> None:
    runtime = names(project()["dependencies"])
    extras = project()["optional-dependencies"]
    assert isinstance(extras, dict)
    assert not runtime & set(DEV_TOOLS)
    assert set(DEV_TOOLS) <= names(extras["dev"])
    # what the bot imports to run
    assert {"discord.py", "pillow", "asyncpg", "pydantic", "pydantic-settings", "babel"} <= runtime


def test_the_console_script_is_the_bots_entry_point(tmp_path: Path) -> None:
    scripts = project()["scripts"]
    assert isinstance(scripts, dict)
    target = scripts["mountain-king-bot"]
    assert resolve_name(target) is bot.__main__.main
    # what pip's generated `mountain-king-bot` script does, with --health
    wrapper = (
        "import sys; from pkgutil import resolve_name;"
        f" sys.argv = ['mountain-king-bot', '--health']; sys.exit(resolve_name({target!r})())"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    done = subprocess.run(
        [sys.executable, "-c", wrapper],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )
    assert done.returncode == 1
    assert done.stdout.startswith("not ok: DISCORD_TOKEN is not set; DATABASE_PATH: ")


def unit() -> dict[str, list[str]]:
    """The unit's settings, each key with every value it is given."""
    settings: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            settings.setdefault(key, []).append(value)
    return settings


def test_the_unit_restarts_on_failure_logs_to_the_journal_and_runs_hardened() -> None:
    u = unit()
    assert u["ExecStart"] == ["/opt/mountain-king/bin/mountain-king-bot"]
    assert u["Restart"] == ["on-failure"] and u["RestartPreventExitStatus"] == ["2"]
    assert u["StandardOutput"] == u["StandardError"] == ["journal"]
    assert u["EnvironmentFile"] == ["/etc/mountain-king/bot.env"]
    assert u["User"] == u["Group"] == ["mountain-king"]
    assert u["StateDirectory"] == ["mountain-king"]
    assert u["KillSignal"] == ["SIGINT"]  # the bot's clean stop
    for setting in ("NoNewPrivileges", "ProtectHome", "PrivateTmp", "PrivateDevices"):
        assert u[setting] == ["yes"], setting
    assert u["ProtectSystem"] == ["strict"] and u["CapabilityBoundingSet"] == [""]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
def test_the_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    # verify wants the program to exist: this interpreter stands in for the venv's script
    text = UNIT.read_text().replace(
        "ExecStart=/opt/mountain-king/bin/mountain-king-bot", f"ExecStart={sys.executable} -m bot"
    )
    copy = tmp_path / "mountain-king.service"
    copy.write_text(text)
    done = subprocess.run(
        ["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert "mountain-king.service" not in done.stderr, done.stderr
