"""Every budget in one run, as medians on this machine:

    .venv/bin/python -m benchmarks.all

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
ROOT = HERE.parent
BENCHMARKS = [
    ("rules engine: replay, self-play, legal digs", "rules_bench"),
    ("images: board, pyramid, market, score sheet", "render_bench"),
    ("service: one act, loading from 10,000 games, size", "service_bench"),
    ("bot: one turn through discord.py (SimCord)", "bot_bench"),
    ("AI: decision time, win rate, scores", "ai_bench"),
    ("load: 200 games acting at once on each store", "load_bench"),
    ("ratings: the leaderboard over 10,000 finished games", "ratings_bench"),
]


def main() -> int:
    cpu = platform.processor() or platform.machine()
    print(
        f"machine: {platform.system()} {platform.release()}, {cpu}, {os.cpu_count()} cores,"
        f" Python {platform.python_version()}"
    )
    failed = 0
    for title, name in BENCHMARKS:
        print(f"\n== {title} (benchmarks/{name}.py)")
        if not (HERE / f"{name}.py").exists():
            print("   (not present)")
            continue
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", f"benchmarks.{name}"], capture_output=True, text=True, cwd=ROOT
        )
        for line in done.stdout.splitlines():
            print(f"   {line}")
        if done.returncode != 0:
            failed += 1
            print(f"   FAILED (exit {done.returncode}): {done.stderr.strip().splitlines()[-1:]}")
        print(f"   ({time.perf_counter() - started:.0f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
