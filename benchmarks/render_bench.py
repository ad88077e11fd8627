"""Image benchmarks: prints medians (run: .venv/bin/python -m benchmarks.render_bench).

Budgets: board PNG under 80 ms, pyramid under 30 ms, market under 40 ms, every PNG
under 1 MB.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import render
from bot.i18n import translator_for
from render import cache as image_cache

# the drawing functions themselves: render's own names would hand back cached bytes
# after the first round (render.cache)
from render.board import board_png
from render.market import market_png
from render.pyramid import pyramid_png
from render.samples import SAMPLE_NAMES, positions, sample_game
from render.scoresheet import score_png
from rules.actions import EndTurn, cells_touched
from rules.game import Game
from rules.view import View, view


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
    replay_with_and_without_the_cache()
    whole_game()


def _turn_frames(players: int, seed: int) -> list[tuple[View, tuple[str, ...], int]]:
    """The table's view after every turn of a seeded game, the cells the turn changed
    and the seat that played it (what the bot's turn posts and replay draw)."""
    game = sample_game(players=players, seed=seed)
    frames = []
    for cut, move in enumerate(game.moves):
        if isinstance(move.action, EndTurn):
            partial = Game(game.config, game.seed, game.moves[: cut + 1])
            cells = {c for m in partial.last_turn_moves() for c in cells_touched(m.action)}
            frames.append((view(partial.state, None), tuple(sorted(cells)), move.seat))
    return frames


def whole_game() -> None:
    """A 4-player game's images as the bot draws them through render's cached names:
    after every turn the whole board, the player's pyramid and the close-up of the
    changed cells (bot/mountain_king/turn.py), then the game-over replay; CPU seconds,
    the least of three runs, each from empty caches."""
    frames = _turn_frames(4, 7)
    names = {seat: name for seat, name in SAMPLE_NAMES.items() if seat < 4}
    posts, replays = [], []
    for _ in range(3):
        image_cache.IMAGES = image_cache.ImageCache()
        image_cache.BOARDS = image_cache.DrawnBoards()
        c0 = time.process_time()
        for v, cells, seat in frames:
            render.board_png(v, highlight=cells, names=names)
            render.pyramid_png(v, seat, names=names)
            if cells:
                render.board_png(v, highlight=cells, focus=True, names=names)
        c1 = time.process_time()
        render.replay_webp([render.board_frame(v, highlight=c, names=names) for v, c, _ in frames])
        posts.append(c1 - c0)
        replays.append(time.process_time() - c1)
    print(
        f"whole game of {len(frames)} turns: turn posts {min(posts):5.2f} s CPU, replay"
        f" {min(replays):5.2f} s CPU, both {min(posts) + min(replays):5.2f} s"
    )


def replay_with_and_without_the_cache() -> None:
    """The game-over replay as the bot makes it (`render.board_frame` for the board after
    every turn, then `render.replay_webp`), of a 4-player game: every board drawn (an
    empty cache), then after the turn posts drew them (render.cache holds them)."""
    frames = [(v, cells) for v, cells, _ in _turn_frames(4, 7)]

    def animate() -> bytes:
        return render.replay_webp([render.board_frame(v, highlight=c) for v, c in frames])

    timed = {}
    for label, posted in (("every board drawn", False), ("after the turn posts", True)):
        times, cpu = [], []
        for _ in range(3):
            image_cache.IMAGES = image_cache.ImageCache()
            image_cache.BOARDS = image_cache.DrawnBoards()
            if posted:
                for v, c in frames:
                    render.board_png(v, highlight=c)
            t, c0 = time.perf_counter(), time.process_time()
            timed[label] = animate()
            times.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c0)
        print(
            f"replay of {len(frames)} boards, {label:20} {statistics.median(times):5.2f} s"
            f" median ({statistics.median(cpu):5.2f} s CPU)"
        )
    assert len(set(timed.values())) == 1, "the same bytes either way"


if __name__ == "__main__":
    main()
