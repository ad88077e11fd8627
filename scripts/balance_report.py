"""Balance report from self-played games:

    .venv/bin/python scripts/balance_report.py [--games 20] [--ai heuristic] [--out docs/balance.md]

Per player count: average final score and its spread, win rate by seat (first-player
advantage), average number of turns; and over all games how often each spell, workshop
and great hall was used. Prints markdown (and writes it with --out).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from pathlib import Path

from rules.actions import Cast, DedicateHall, EndTurn, UseWorkshop
from rules.content import load_content
from rules.selfplay import play_game
from rules.state import make_config

MODES = (
    ("2 players", {"players": 2}),
    ("3 players", {"players": 3}),
    ("4 players", {"players": 4}),
    ("5 players", {"players": 5}),
    ("4 players in teams", {"players": 4, "teams": True}),
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per player count")
    parser.add_argument("--ai", choices=("heuristic", "random"), default="heuristic")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    content = load_content()
    spells: Counter[str] = Counter()
    shops: Counter[str] = Counter()
    halls: Counter[str] = Counter()
    lines = [
        f"Self-play with the `{args.ai}` AI in every seat, {args.games} games per row"
        " (seeds 1..N).",
        "",
        "| table | mean score | spread (sd) | min-max | winner's mean | wins by seat |"
        " turns per player | s/game |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for label, options in MODES:
        config = make_config(**options)
        scores: list[int] = []
        winners: list[int] = []
        seat_wins: Counter[int] = Counter()
        turns: list[float] = []
        started = time.perf_counter()
        for seed in range(1, args.games + 1):
            game = play_game(config, seed, args.ai)
            outcome = game.outcome
            assert outcome is not None
            scores.extend(b.total for b in outcome.breakdowns)
            winners.append(max(b.total for b in outcome.breakdowns))
            for seat in outcome.winning_seats:
                seat_wins[seat] += 1
            turns.append(sum(isinstance(m.action, EndTurn) for m in game.moves) / config.players)
            sites = dict(game.state.board.workshops)
            for move in game.moves:
                if isinstance(move.action, Cast) and move.action.args != ("none",):
                    spells[move.action.spell] += 1
                elif isinstance(move.action, UseWorkshop):
                    shops[sites.get(move.action.site, "?")] += 1
                elif isinstance(move.action, DedicateHall):
                    halls[move.action.hall] += 1
        per_game = (time.perf_counter() - started) / args.games
        wins = " / ".join(str(seat_wins[s]) for s in range(config.players))
        lines.append(
            f"| {label} | {statistics.mean(scores):.1f} | {statistics.pstdev(scores):.1f} |"
            f" {min(scores)}-{max(scores)} | {statistics.mean(winners):.1f} | {wins} |"
            f" {statistics.mean(turns):.1f} | {per_game:.1f} |"
        )
    total_games = args.games * len(MODES)
    lines += [
        "",
        f"Uses over all {total_games} games (spells cast for their effect, workshop"
        " uses, great halls dedicated):",
        "",
        "| spell | casts | | workshop | uses |",
        "|---|---|---|---|---|",
    ]
    spell_rows = [(s.name, spells[s.id]) for s in content.spells]
    shop_rows = [(w.name, shops[w.id]) for w in content.workshops]
    for i in range(max(len(spell_rows), len(shop_rows))):
        left = spell_rows[i] if i < len(spell_rows) else ("", "")
        right = shop_rows[i] if i < len(shop_rows) else ("", "")
        lines.append(f"| {left[0]} | {left[1]} | | {right[0]} | {right[1]} |")
    lines += ["", "| great hall | dedicated |", "|---|---|"]
    lines += [f"| {h.name} | {halls[h.id]} |" for h in content.halls]
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
