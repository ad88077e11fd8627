#!/usr/bin/env python3
"""Cave Troll by self-play: the balance report of docs/cave-troll.md, and the long
replay check.

    .venv/bin/python -m scripts.cave_troll_balance --games 500            # the report
    .venv/bin/python -m scripts.cave_troll_balance --games 500 --ai random
    .venv/bin/python -m scripts.cave_troll_balance --check 500            # replay check

The report plays `--games` seeded games per player count (2, 3, 4) with the same AI in
every seat (`--ai`: delver, the default, or random) and prints, per player count, the
win rate of each place in turn order (the first player is drawn at random, so places,
not seats: a shared win counts a share), how long games last (rounds, actions), the
gold of winners and the others, and what happened in them (tallies, Trolls, artifacts
played, pieces discarded). `--check N` plays N random games per player count to the end
instead, checking every invariant of tests/cave_troll after every action and replaying
each record (every action checked) to the same state.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter

from cave_troll.actions import Action
from cave_troll.ai import NAME
from cave_troll.effects import Discarded, Effect, FlightBegins
from cave_troll.game import game_from_record
from cave_troll.scoring import final_outcome
from cave_troll.selfplay import play_game
from cave_troll.state import State, make_config
from tests.cave_troll.ct_invariants import check_invariants  # the tests' invariants


def report(games: int, ai: str, counts: list[int]) -> None:
    who = f"{NAME} (`--ai delver`)" if ai == "delver" else "the random player (`--ai random`)"
    print(f"Self-play: {games} games per player count, {who} in every seat, seeds 0-{games - 1}.")
    print()
    for players in counts:
        started = time.perf_counter()
        config = make_config(players=players)
        wins = [0.0] * players
        rounds: list[int] = []
        actions: list[int] = []
        winner_gold: list[int] = []
        other_gold: list[int] = []
        margins: list[int] = []
        shared = 0
        ender_won = 0.0
        events = _Events()

        for seed in range(games):
            game = play_game(config, seed, ai, on_action=events.count)
            state = game.state
            outcome = final_outcome(state)
            share = 1 / len(outcome.winning_seats)
            shared += len(outcome.winning_seats) > 1
            for s in outcome.winning_seats:
                wins[(s - state.first) % players] += share
            if state.ended_by in outcome.winning_seats:
                ender_won += share
            rounds.append(state.turns // players + 1)
            actions.append(len(game.moves))
            totals = sorted((r.total for r in outcome.results), reverse=True)
            winner_gold.append(totals[0])
            other_gold.extend(totals[1:])
            margins.append(totals[0] - totals[1])
            events["tally"] += state.tallies
        took = time.perf_counter() - started
        print(f"### {players} players ({took:.0f} s)")
        print()
        print("| place in turn order | " + " | ".join(_nth(i) for i in range(players)) + " |")
        print("|---|" + "---|" * players)
        print("| wins | " + " | ".join(f"{w / games:.1%}" for w in wins) + " |")
        print()
        print(
            f"- length: {statistics.mean(rounds):.1f} rounds"
            f" (median {statistics.median(rounds):g}, {min(rounds)}-{max(rounds)}),"
            f" {statistics.mean(actions):.0f} actions"
        )
        print(
            f"- gold: winner {statistics.mean(winner_gold):.1f}, others"
            f" {statistics.mean(other_gold):.1f}, margin {statistics.mean(margins):.1f}"
            f" (median {statistics.median(margins):g}); shared wins {shared / games:.1%};"
            f" the player who ended the game won {ender_won / games:.1%}"
        )
        per_game = ", ".join(f"{k} {v / games:.2f}" for k, v in sorted(events.items()))
        print(f"- per game: {per_game}")
        print()


class _Events(Counter[str]):
    """What happened in the games: artifacts played, pushes, kills, flights, discards."""

    def count(self, state: State, seat: int, action: Action, fx: list[Effect]) -> None:
        words = str(action).split()
        if words[0] == "play":
            self[f"play {words[1]}"] += 1
        elif words[0] in ("push", "kill", "flee"):
            self[words[0]] += 1
        for effect in fx:
            if isinstance(effect, Discarded):
                self[f"discarded by {effect.by}"] += 1
            elif isinstance(effect, FlightBegins):
                self["troll placed"] += 1


def _check_invariants(state: State, seat: int, action: Action, fx: list[Effect]) -> None:
    check_invariants(state)


def check(games: int, counts: list[int]) -> None:
    for players in counts:
        started = time.perf_counter()
        config = make_config(players=players)
        n_actions = 0
        for seed in range(games):
            game = play_game(config, seed, on_action=_check_invariants)
            replayed = game_from_record(json.loads(game.record_json()))
            assert replayed.state.to_json() == game.state.to_json(), (players, seed)
            n_actions += len(game.moves)
        took = time.perf_counter() - started
        print(
            f"{players} players: {games} random games to the end, {n_actions} actions, every"
            f" invariant after every action, every record replayed to the same state"
            f" ({took:.0f} s)"
        )


def _nth(i: int) -> str:
    return ("1st", "2nd", "3rd", "4th")[i]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--ai", choices=("delver", "random"), default="delver")
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])
    parser.add_argument("--check", type=int, metavar="N", help="the replay check of N seeds")
    args = parser.parse_args()
    if args.check:
        check(args.check, args.players)
    else:
        report(args.games, args.ai, args.players)
    return 0


if __name__ == "__main__":
    sys.exit(main())
