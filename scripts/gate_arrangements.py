"""Where the AI puts the gates at each table, in about a second, without playing a game:

    .venv/bin/python -m scripts.gate_arrangements [--tables 2,3,4,5,teams] [--seed 1001]

The balance report (scripts/balance_report.py) lets the AI choose the gates in turn
order. Its values for a table's points lie within a few percent of each other, so it
makes the same arrangement in every game, and a small change to a board side can move
it (docs/balance.md). This plays each table's gate phase only, with the heuristic AI,
and prints the start point of each seat, first to last: run it before and after a board
change to see whether the balance report's tables will still play the arrangement they
played. The seed only breaks exact ties.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence

from rules import engine
from rules.actions import PlaceGate
from rules.ai import choose_action
from rules.setup import new_game
from rules.state import GameConfig
from scripts.balance_report import TABLES, table_config


def arrangement(config: GameConfig, seed: int) -> list[str]:
    """Each seat's start point, first to last, as the AI places the gates (with the
    generator seeded as self-play seeds it, so the games of that seed agree)."""
    state = new_game(config, seed)
    rng = random.Random(seed)
    placed: dict[int, str] = {}
    while state.phase == "gates" and state.gate_seat is not None:
        seat = state.gate_seat
        action = choose_action(state, seat, rng)
        assert isinstance(action, PlaceGate)
        engine.apply(state, seat, action)
        placed[seat] = action.point
    return [placed[seat] for seat in range(config.players)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default=",".join(TABLES), help="comma-separated")
    parser.add_argument("--seed", type=int, default=1001)
    args = parser.parse_args(argv)
    keys = args.tables.split(",")
    unknown = [k for k in keys if k not in TABLES]
    if unknown:
        parser.error(f"unknown table {', '.join(unknown)} (expected {', '.join(TABLES)})")
    for key in keys:
        print(f"{TABLES[key][0]}: {', '.join(arrangement(table_config(key), args.seed))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
