"""Image benchmarks: prints medians (run: .venv/bin/python -m benchmarks.render_bench).

Budgets: board PNG under 80 ms, pyramid under 30 ms, market under 40 ms, every PNG
under 1 MB.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from bot.i18n import translator_for
from render import board_png, market_png, pyramid_png, score_png
from render.samples import positions, sample_game


def _time(fn: Callable[[], bytes], rounds: int = 15) -> tuple[float, int]:
    fn()  # warm the caches (static layers, icons, fonts)
    times, size = [], 0
    for _ in range(rounds):
        t = time.perf_counter()
        data = fn()
        times.append(time.perf_counter() - t)
        size = max(size, len(data))
    return statistics.median(times) * 1000, size


def main() -> None:
    game = sample_game(players=5, seed=3)
    outcome = game.outcome
    assert outcome is not None
    rows = []
    for pos in positions(game):
        rows.append(
            (
                f"board ({pos.name})",
                *_time(lambda p=pos: board_png(p.view, highlight=p.highlight)),
                80,
            )
        )
        rows.append(
            (f"pyramid ({pos.name})", *_time(lambda p=pos: pyramid_png(p.view, p.seat)), 30)
        )
        rows.append((f"market ({pos.name})", *_time(lambda p=pos: market_png(p.view)), 40))
    end = positions(game)[-1]
    rows.append(("score sheet", *_time(lambda: score_png(end.view, outcome.to_json())), 0))
    # in Polish: longer words, fitted to their boxes
    pl = translator_for("pl")
    board_pl = _time(lambda: board_png(end.view, highlight=end.highlight, messages=pl))
    rows.append(("board (end, pl)", *board_pl, 80))
    rows.append(("pyramid (end, pl)", *_time(lambda: pyramid_png(end.view, 0, messages=pl)), 30))
    rows.append(("market (end, pl)", *_time(lambda: market_png(end.view, messages=pl)), 40))
    for name, ms, size, budget in rows:
        limit = f"budget {budget} ms" if budget else "no budget"
        print(f"{name:22} {ms:6.1f} ms median  {size / 1024:6.0f} KiB  ({limit}; 1 MB max)")


if __name__ == "__main__":
    main()
