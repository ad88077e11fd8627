"""The images the render tests compare with committed references (one function, so
the test and `scripts/update_reference_images.py` always draw the same things).

English is drawn in every variant; each other language passed in (its texts, as
`bot.i18n.translator_for` gives them: render/ reads no catalogue) adds the board, a
pyramid, the market, the score sheet and the legend, named `<language>-<image>`."""

from __future__ import annotations

from collections.abc import Mapping

from render import board_png, legend_png, market_png, pyramid_png, score_png
from render.samples import SAMPLE_NAMES, dig_preview, positions, sample_game
from render.words import Translator


def reference_images(languages: Mapping[str, Translator] | None = None) -> dict[str, bytes]:
    game = sample_game(players=4, seed=11)
    early, middle, end = positions(game)
    outcome = game.outcome
    assert outcome is not None
    view, legal, illegal = dig_preview(game, len(game.moves) // 2)
    teams = sample_game(players=4, seed=5, teams=True)
    team_end = positions(teams)[-1]
    team_outcome = teams.outcome
    assert team_outcome is not None
    autumn = positions(sample_game(players=3, seed=2))[1]
    five = positions(sample_game(players=5, seed=3))[1]
    images = {
        "board-early": board_png(early.view, highlight=early.highlight),
        "board-end": board_png(end.view, highlight=end.highlight),
        "board-autumn": board_png(autumn.view, highlight=autumn.highlight),
        "board-five-names": board_png(five.view, highlight=five.highlight, names=SAMPLE_NAMES),
        "board-focus": board_png(end.view, highlight=end.highlight, focus=True),
        "pyramid-middle": pyramid_png(middle.view, middle.seat, names=SAMPLE_NAMES),
        "market-middle": market_png(middle.view),
        "score-sheet": score_png(end.view, outcome.to_json()),
        "score-sheet-teams": score_png(team_end.view, team_outcome.to_json(), names=SAMPLE_NAMES),
        "preview-legal": board_png(view, preview=legal, crop=True),
        "preview-illegal": board_png(view, preview=illegal),
        "legend": legend_png(),
    }
    for language, m in (languages or {}).items():
        translated = {
            "board-end": board_png(
                end.view, highlight=end.highlight, names=SAMPLE_NAMES, messages=m
            ),
            "board-five": board_png(five.view, highlight=five.highlight, messages=m),
            "pyramid-middle": pyramid_png(middle.view, middle.seat, names=SAMPLE_NAMES, messages=m),
            "market-middle": market_png(middle.view, messages=m),
            "score-sheet": score_png(end.view, outcome.to_json(), names=SAMPLE_NAMES, messages=m),
            "legend": legend_png(m),
        }
        images |= {f"{language}-{name}": data for name, data in translated.items()}
    return images
