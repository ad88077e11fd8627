"""The offline demo: a whole 4-player game between AI players, with the images the
bot would post after every turn, the final score sheet and an animated replay of the
board, written to a folder. No Discord account needed.

    .venv/bin/python -m scripts.demo [--out out/demo] [--seed 1] [--ai heuristic]

Writes per turn turn-NNN-board.png, turn-NNN-focus.png (the close-up around what the
turn changed) and turn-NNN-<colour>-pyramid.png, then score-sheet.png, legend.png,
replay.webp (the board after every turn, as `render.replay_webp` makes it for the end
of a game) and game.json (replay it with `python -m rules replay`). `--names
alice,bob,...` shows display names on the images, as the bot does; `--language pl`
(or `es`) draws them in the game's language.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from bot.i18n import LANGUAGES, translator_for
from render import board_png, legend_png, pyramid_png, replay_webp, score_png
from rules import engine
from rules.actions import EndTurn, cells_touched
from rules.selfplay import play_game
from rules.setup import new_game
from rules.state import make_config
from rules.view import view


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path("out/demo"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--ai", choices=("heuristic", "random"), default="heuristic")
    parser.add_argument("--names", default="", help="display names by seat, comma-separated")
    parser.add_argument("--language", choices=LANGUAGES, default="en", help="the images' language")
    args = parser.parse_args(argv)
    m = translator_for(args.language)
    names = {seat: name for seat, name in enumerate(args.names.split(",")) if name}
    args.out.mkdir(parents=True, exist_ok=True)
    config = make_config(players=args.players)
    game = play_game(config, args.seed, args.ai)
    (args.out / "game.json").write_text(game.record_json() + "\n", encoding="utf-8")

    state = new_game(config, args.seed)
    frames: list[bytes] = []
    turn = 0
    cells: set[str] = set()
    for move in game.moves:
        engine.apply(state, move.seat, move.action)
        cells |= cells_touched(move.action)
        if not isinstance(move.action, EndTurn) and state.phase != "over":
            continue
        turn += 1
        seen = view(state, None)
        board = board_png(seen, highlight=sorted(cells), names=names, messages=m)
        focus = board_png(seen, highlight=sorted(cells), focus=True, names=names, messages=m)
        colour = state.players[move.seat].colour
        pyramid = pyramid_png(seen, move.seat, names=names, messages=m)
        (args.out / f"turn-{turn:03d}-board.png").write_bytes(board)
        (args.out / f"turn-{turn:03d}-focus.png").write_bytes(focus)
        (args.out / f"turn-{turn:03d}-{colour}-pyramid.png").write_bytes(pyramid)
        frames.append(board)
        cells = set()
    outcome = game.outcome
    assert outcome is not None
    sheet = score_png(view(state, None), outcome.to_json(), names=names, messages=m)
    (args.out / "score-sheet.png").write_bytes(sheet)
    (args.out / "legend.png").write_bytes(legend_png(m))
    started = time.perf_counter()
    replay = replay_webp(frames)
    took = time.perf_counter() - started
    (args.out / "replay.webp").write_bytes(replay)
    winners = ", ".join(state.players[s].colour for s in outcome.winning_seats)
    totals = ", ".join(
        f"{'+'.join(state.players[s].colour for s in b.seats)} {b.total}"
        for b in outcome.breakdowns
    )
    print(f"{turn} turns, {len(game.moves)} actions; winner: {winners} ({totals})")
    print(f"replay.webp: {len(frames)} frames, {len(replay) / 1e6:.2f} MB in {took:.1f} s")
    print(f"images, score sheet, legend, replay.webp and game.json are in {args.out}/")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
