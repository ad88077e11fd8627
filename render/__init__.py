"""Images of the game: pure functions from a player's view (`rules.view.view`) to PNG
bytes. The same view always gives the same bytes.

    board_png(view, highlight=..., preview=..., focus=..., names=...)   the mountain
    pyramid_png(view, seat, names=...)       one player's pyramid (the rulebook's trollsmoot)
    market_png(view)                         horde, spellbook, supplies
    score_png(view, outcome, names=...)      the final score sheet
    legend_png(messages)                     how to read the board, drawn by the board's code
    replay_webp(boards)                      the board turn by turn, an animated WebP
    board_frame(view, highlight=..., names=...)   a board for replay_webp: the PNG a
                                             turn post drew, or the drawing unencoded

`names` maps a seat to the player's display name ("alice", an AI's name): the board's
header chips, the score sheet's rows and winner line and the pyramid's title show it
beside the colour; without it they show colours only.

`messages` (a keyword of each, and legend_png's argument) is the texts of the language
to draw in: `bot.i18n.translator_for("pl")` or anything with gettext, ngettext,
pgettext and npgettext (render.words.Translator, the game's one vocabulary); English
without it. Each text is fitted to its box (render.draw): drawn smaller, down to a
floor, or on more lines, so a longer language never overflows.

A turn post's close-up is `board_png(view, highlight=cells, focus=True)`: the area
around the highlighted cells (at least 7 by 7 cells, so a phone shows each cell about
50 px wide) with its own coordinates on every edge, or the whole board when `cells` is
empty. With a `preview`, `focus=True` (or `crop=True`, its older name) crops around
the previewed tile instead.

These names draw each distinct image once (render.cache: a bounded cache keyed by a
digest of the view, the options and the language; the legend is cached per language
by render.legend): a turn post and the game's end draw each board once. The drawing
functions themselves, which always draw, are the modules' own (`render.board.board_png`,
`render.pyramid.pyramid_png`, ...).
"""

from render.board import Preview
from render.cache import (
    board_frame,
    board_png,
    market_png,
    pyramid_png,
    replay_webp,
    score_png,
)
from render.legend import legend_png

__all__ = [
    "Preview",
    "board_frame",
    "board_png",
    "legend_png",
    "market_png",
    "pyramid_png",
    "replay_webp",
    "score_png",
]
