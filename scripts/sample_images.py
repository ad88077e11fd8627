"""Regenerate the sample images in docs/images from a seeded self-played game:

    .venv/bin/python -m scripts.sample_images

Writes the board early, in the middle and at the end of a 4-player game (last turn's
changes outlined), the acting player's pyramid and the market at the same points, a
turn in the middle as a turn post shows it (the board with the players' names and the
close-up around what the turn changed), a dig preview, the legend and the final score
sheet; and the turn's board and the legend in Polish, the board and the market in
Spanish (`*-pl.png`, `*-es.png`).
"""

from __future__ import annotations

from pathlib import Path

from bot.i18n import translator_for
from render import board_png, legend_png, market_png, pyramid_png, score_png
from render.samples import SAMPLE_NAMES, dig_preview, positions, sample_game, turn_with_changes

OUT = Path(__file__).resolve().parent.parent / "docs" / "images"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    game = sample_game()
    names = {seat: SAMPLE_NAMES[seat] for seat in range(game.config.players)}
    for pos in positions(game):
        (OUT / f"board-{pos.name}.png").write_bytes(board_png(pos.view, highlight=pos.highlight))
        (OUT / f"pyramid-{pos.name}.png").write_bytes(pyramid_png(pos.view, pos.seat))
        (OUT / f"market-{pos.name}.png").write_bytes(market_png(pos.view))
    turn = turn_with_changes(game)
    (OUT / "board-turn.png").write_bytes(
        board_png(turn.view, highlight=turn.highlight, names=names)
    )
    (OUT / "board-turn-crop.png").write_bytes(
        board_png(turn.view, highlight=turn.highlight, focus=True, names=names)
    )
    (OUT / "pyramid-turn.png").write_bytes(pyramid_png(turn.view, turn.seat, names=names))
    outcome = game.outcome
    assert outcome is not None
    end = positions(game)[-1]
    (OUT / "score-sheet.png").write_bytes(score_png(end.view, outcome.to_json(), names=names))
    view, legal, illegal = dig_preview(game, len(game.moves) // 2)
    (OUT / "dig-preview-legal.png").write_bytes(board_png(view, preview=legal, focus=True))
    (OUT / "dig-preview-illegal.png").write_bytes(board_png(view, preview=illegal, focus=True))
    (OUT / "legend.png").write_bytes(legend_png())
    pl, es = translator_for("pl"), translator_for("es")
    (OUT / "board-turn-pl.png").write_bytes(
        board_png(turn.view, highlight=turn.highlight, names=names, messages=pl)
    )
    (OUT / "legend-pl.png").write_bytes(legend_png(pl))
    (OUT / "board-turn-es.png").write_bytes(
        board_png(turn.view, highlight=turn.highlight, names=names, messages=es)
    )
    middle = positions(game)[1]
    (OUT / "market-middle-es.png").write_bytes(market_png(middle.view, messages=es))
    for path in sorted(OUT.glob("*.png")):
        print(f"{path.relative_to(OUT.parent.parent)}  {path.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main()
