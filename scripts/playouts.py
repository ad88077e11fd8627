"""Seeded random playouts of In the Hall of the Mountain King at every table of the
tests (tests/invariants.py MODES), with the checks of tests/rules/test_playouts.py:
every invariant after every action, the score sheet adding up, every record replayed
to the identical state. The suite plays 20 seeds a table; this plays as many as asked
and prints what it played.

    python -m scripts.playouts --games 500
    python -m scripts.playouts --games 100 --mode 5p --first 1000
"""

from __future__ import annotations

import argparse
import time

from rules.state import make_config
from tests.invariants import MODES, checked_random_playout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100, help="seeds a table")
    parser.add_argument("--first", type=int, default=0, help="the first seed")
    parser.add_argument("--mode", choices=sorted(MODES), action="append", help="tables")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    for mode in args.mode or sorted(MODES):
        config = make_config(**MODES[mode])
        begun = time.perf_counter()
        actions = 0
        for seed in range(args.first, args.first + args.games):
            actions += len(checked_random_playout(config, seed).record()["actions"])
        print(
            f"{mode}: {args.games} games to the end (seeds {args.first}-"
            f"{args.first + args.games - 1}), {actions:,} actions, every invariant after"
            f" every action, every record replayed to the same state"
            f" ({time.perf_counter() - begun:.1f} s)",
            flush=True,
        )
    print(f"all held, {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
