"""For the tests of several bot processes on one database: ids of processes that are
gone (bot/service/duties.py releases their claims at once on their own machine)."""

from __future__ import annotations

import subprocess

from bot.service.duties import process_id


def dead_process_id() -> str:
    """The id a process of this machine had, taken by a process that has exited."""
    proc = subprocess.Popen(["true"])
    proc.wait()
    place, _, rest = process_id().rsplit(":", 2)
    return f"{place}:{proc.pid}:{rest}"
