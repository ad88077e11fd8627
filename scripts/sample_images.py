"""Regenerate the sample images in docs/images from a seeded self-played game:

    .venv/bin/python scripts/sample_images.py

Writes the board early, in the middle and at the end of a 4-player game (last turn's
changes outlined), the acting player's trollsmoot and the market at the same points,
a dig preview, and the final score sheet.
"""

from __future__ import annotations

from pathlib import Path

from render import board_png, market_png, pyramid_png, score_png
from render.samples import dig_preview, positions, sample_game

OUT = Path(__file__).resolve().parent.parent / "docs" / "images"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    game = sample_game()
    for pos in positions(game):
        (OUT / f"board-{pos.name}.png").write_bytes(board_png(pos.view, highlight=pos.highlight))
        (OUT / f"pyramid-{pos.name}.png").write_bytes(pyramid_png(pos.view, pos.seat))
        (OUT / f"market-{pos.name}.png").write_bytes(market_png(pos.view))
    outcome = game.outcome
    assert outcome is not None
    end = positions(game)[-1]
    (OUT / "score-sheet.png").write_bytes(score_png(end.view, outcome.to_json()))
    view, legal, illegal = dig_preview(game, len(game.moves) // 2)
    (OUT / "dig-preview-legal.png").write_bytes(board_png(view, preview=legal, crop=True))
    (OUT / "dig-preview-illegal.png").write_bytes(board_png(view, preview=illegal, crop=True))
    for path in sorted(OUT.glob("*.png")):
        print(f"{path.relative_to(OUT.parent.parent)}  {path.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main()
