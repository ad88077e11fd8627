"""Rules engine benchmarks: prints medians (run: .venv/bin/python -m benchmarks.rules_bench).

- replay of a finished 4-player game record (budget: under 50 ms median), on the checked
  path (`game_from_record`) and on the trusted one (`Game.replay_trusted`)
- random self-play of whole 4-player games on one core (budget: at least 20 per second,
  the goal over 100), on the fast path (`play_random_game`: `engine.apply_trusted`) and
  on the checked one (`play_game(..., checked=True)`: every action on a copy, as players)
- every legal dig placement of a mid-game state (budget: under 10 ms median)
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from rules import tunnels
from rules.actions import EndTurn
from rules.engine import apply
from rules.game import Game, game_from_record, parse_moves
from rules.mountain import invalidate
from rules.selfplay import play_game, play_random_game
from rules.state import State, make_config, stored_config


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def bench_replay(records: list[dict[str, Any]], rounds: int = 5) -> tuple[float, float]:
    """Median ms to rebuild a game from its record, checked and trusted (parsing and
    setup included in both)."""
    checked, trusted = [], []
    for _ in range(rounds):
        for record in records:
            t = time.perf_counter()
            game_from_record(record)
            checked.append(time.perf_counter() - t)
            t = time.perf_counter()
            config = stored_config(record["config"])
            Game.replay_trusted(config, record["seed"], parse_moves(config, record["actions"]))
            trusted.append(time.perf_counter() - t)
    return _median_ms(checked), _median_ms(trusted)


def bench_selfplay(games: int, *, checked: bool = False) -> tuple[float, float]:
    """Games per second and the median ms a game: the fast path, or every action
    checked on a copy (`checked`)."""
    config = make_config(players=4)
    times = []
    for seed in range(games):
        t = time.perf_counter()
        if checked:
            play_game(config, seed, "random", checked=True)
        else:
            play_random_game(config, seed)
        times.append(time.perf_counter() - t)
    return len(times) / sum(times), _median_ms(times)


def mid_game_states(games: list[Game]) -> list[tuple[State, int]]:
    """For each game, the state halfway through its play phase, at a turn start."""
    out = []
    for game in games:
        replay = Game(game.config, game.seed)
        ends = [i for i, m in enumerate(game.moves) if isinstance(m.action, EndTurn)]
        stop = ends[len(ends) // 2]
        for move in game.moves[: stop + 1]:
            apply(replay.state, move.seat, move.action)
        seat = replay.state.current_seat
        assert seat is not None
        out.append((replay.state, seat))
    return out


def bench_placements(
    states: list[tuple[State, int]], rounds: int = 5
) -> tuple[float, float, float]:
    """Median ms for all placements, for all legal digs, and the mean placement count."""
    place_t, dig_t, counts = [], [], []
    for _ in range(rounds):
        for state, seat in states:
            invalidate(state.board)
            t = time.perf_counter()
            placed = list(tunnels.placements(state, seat))
            place_t.append(time.perf_counter() - t)
            counts.append(len(placed))
            # every dig option needs minerals: measure with a purse that can pay
            rich = state.clone()
            rich.account_of(seat).storage.update(stone=5, iron=5, heartstone=5, hammer=3)
            t = time.perf_counter()
            list(tunnels.dig_actions(rich, seat))
            dig_t.append(time.perf_counter() - t)
    return _median_ms(place_t), _median_ms(dig_t), statistics.mean(counts)


def main() -> None:
    config = make_config(players=4)
    games: list[Game] = [play_random_game(config, seed) for seed in range(20)]
    records = [g.record() for g in games]
    actions = statistics.median(len(g.moves) for g in games)
    checked_ms, trusted_ms = bench_replay(records)
    print(
        f"replay of a finished 4-player record ({actions:.0f} actions, median of 100): "
        f"{checked_ms:.2f} ms checked, {trusted_ms:.2f} ms trusted  (budget 50 ms)"
    )
    states = mid_game_states(games)
    placements_ms, digs_ms, count = bench_placements(states)
    print(
        f"legal dig placements, mid-game 4-player state (mean {count:.0f} placements): "
        f"{placements_ms:.2f} ms median  (budget 10 ms); every legal dig action with "
        f"minerals, pedestals and workshops: {digs_ms:.2f} ms"
    )
    rate, per_game = bench_selfplay(50)
    print(
        f"random self-play, 4 players, 50 games, fast path: {rate:.1f} games/s, "
        f"median {per_game:.1f} ms per game  (budget 20 games/s, goal 100)"
    )
    rate, per_game = bench_selfplay(20, checked=True)
    print(
        f"random self-play, 4 players, 20 games, every action checked on a copy: "
        f"{rate:.1f} games/s, median {per_game:.1f} ms per game"
    )


if __name__ == "__main__":
    main()
