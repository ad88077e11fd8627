"""Every budget in one run, as medians on this machine:

    .venv/bin/python benchmarks/all.py

Runs each benchmark script in turn (rules, images, service, bot, AI) with this
interpreter and prints their figures under one header with the machine's details.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPTS = [
    ("rules engine: replay, self-play, legal digs", "rules_bench.py"),
    ("images: board, pyramid, market, score sheet", "render_bench.py"),
    ("service: one act, loading from 10,000 games, size", "service_bench.py"),
    ("bot: one turn through discord.py (SimCord)", "bot_bench.py"),
    ("AI: decision time, win rate, scores", "ai_bench.py"),
    ("load: 200 games acting at once on each store", "load_bench.py"),
]


def main() -> int:
    cpu = platform.processor() or platform.machine()
    print(
        f"machine: {platform.system()} {platform.release()}, {cpu}, {os.cpu_count()} cores,"
        f" Python {platform.python_version()}"
    )
    failed = 0
    for title, script in SCRIPTS:
        path = HERE / script
        print(f"\n== {title} ({script})")
        if not path.exists():
            print("   (not present)")
            continue
        started = time.perf_counter()
        done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True)
        for line in done.stdout.splitlines():
            print(f"   {line}")
        if done.returncode != 0:
            failed += 1
            print(f"   FAILED (exit {done.returncode}): {done.stderr.strip().splitlines()[-1:]}")
        print(f"   ({time.perf_counter() - started:.0f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
