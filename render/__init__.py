"""Images of the game: pure functions from a player's view (`rules.view.view`) to PNG
bytes. The same view always gives the same bytes.

    board_png(view, highlight=..., preview=...)   the mountain
    pyramid_png(view, seat)                        one player's trollsmoot and storage
    market_png(view)                               horde, spellbook, supplies
    score_png(view, outcome)                       the final score sheet
"""

from render.board import Preview, board_png
from render.market import market_png
from render.pyramid import pyramid_png
from render.scoresheet import score_png

__all__ = ["Preview", "board_png", "market_png", "pyramid_png", "score_png"]
