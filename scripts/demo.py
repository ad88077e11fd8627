"""The offline demo: a whole 4-player game between AI players, with the images the
bot would post after every turn, the final score sheet and an animated replay of the
board, written to a folder. No Discord account needed.

    .venv/bin/python scripts/demo.py [--out out/demo] [--seed 1] [--ai heuristic]

Writes turn-NNN-board.png and turn-NNN-<colour>.png per turn, score-sheet.png,
replay.webp (the board after every turn) and game.json (replay it with
`python -m rules replay`).
"""

from __future__ import annotations

import argparse
import io
from pathlib import Path

from PIL import Image

from render import board_png, pyramid_png, score_png
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
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    config = make_config(players=args.players)
    game = play_game(config, args.seed, args.ai)
    (args.out / "game.json").write_text(game.record_json() + "\n", encoding="utf-8")

    state = new_game(config, args.seed)
    frames: list[Image.Image] = []
    turn = 0
    cells: set[str] = set()
    for move in game.moves:
        engine.apply(state, move.seat, move.action)
        cells |= cells_touched(move.action)
        if not isinstance(move.action, EndTurn) and state.phase != "over":
            continue
        turn += 1
        seen = view(state, None)
        board = board_png(seen, highlight=sorted(cells))
        colour = state.players[move.seat].colour
        (args.out / f"turn-{turn:03d}-board.png").write_bytes(board)
        (args.out / f"turn-{turn:03d}-{colour}.png").write_bytes(pyramid_png(seen, move.seat))
        frame = Image.open(io.BytesIO(board)).convert("RGB")
        frames.append(frame.resize((frame.width // 2, frame.height // 2), Image.Resampling.LANCZOS))
        cells = set()
    outcome = game.outcome
    assert outcome is not None
    (args.out / "score-sheet.png").write_bytes(score_png(view(state, None), outcome.to_json()))
    frames[0].save(
        args.out / "replay.webp",
        save_all=True,
        append_images=frames[1:],
        duration=600,
        loop=0,
        quality=70,
    )
    winners = ", ".join(state.players[s].colour for s in outcome.winning_seats)
    totals = ", ".join(
        f"{'+'.join(state.players[s].colour for s in b.seats)} {b.total}"
        for b in outcome.breakdowns
    )
    print(f"{turn} turns, {len(game.moves)} actions; winner: {winners} ({totals})")
    print(f"images, score sheet, replay.webp and game.json are in {args.out}/")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
