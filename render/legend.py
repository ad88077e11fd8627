"""The legend: how to read the board, each mark drawn by the board's own drawing
functions (render/board.py) beside a few words, so the legend cannot drift from the
board."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from PIL import Image, ImageDraw

from render import board, theme
from render.board import C, Grid
from render.draw import draw_text, png_bytes, text_center, wrap_text

WIDTH = 720
PAD = 20
SAMPLE_W = 4 * C  # the widest sample: four cells
TEXT_X = PAD + SAMPLE_W + 24
TEXT_SIZE = 22
LINE = 28
ROW_GAP = 16
TITLE_H = 64

Draw = Callable[[Image.Image, ImageDraw.ImageDraw, Grid], None]


def legend_png() -> bytes:
    """PNG bytes of the board's legend (the same every time)."""
    return _legend_bytes()


@cache
def _legend_bytes() -> bytes:
    return png_bytes(legend_image())


def legend_image() -> Image.Image:
    rows = _rows()
    heights = [max(_cells_high(cells) * C, _text_lines(text) * LINE) for cells, _, text in rows]
    height = TITLE_H + sum(heights) + ROW_GAP * len(rows) + PAD
    img = Image.new("RGB", (WIDTH, height), theme.BACKGROUND)
    d = ImageDraw.Draw(img)
    text_center(d, (WIDTH / 2, TITLE_H / 2), "How to read the board", 30, theme.INK)
    y = TITLE_H
    for (cells, sample, text), h in zip(rows, heights, strict=True):
        top = y + (h - _cells_high(cells) * C) // 2
        grid = Grid(PAD, top)
        for cell, tier in cells.items():
            board.tier_cell(d, grid.box(cell), tier)
        sample(img, d, grid)
        lines = wrap_text(text, TEXT_SIZE, "regular", WIDTH - TEXT_X - PAD)
        ty = y + (h - len(lines) * LINE) / 2 + LINE / 2
        for k, line in enumerate(lines):
            draw_text(d, (TEXT_X, ty + k * LINE), line, TEXT_SIZE, theme.INK, "regular", "lm")
        y += h + ROW_GAP
    return img


def _cells_high(cells: dict[str, str]) -> int:
    return max(int(c[1:]) for c in cells)


def _text_lines(text: str) -> int:
    return len(wrap_text(text, TEXT_SIZE, "regular", WIDTH - TEXT_X - PAD))


def _row(*cells: str, tier: str = "2") -> dict[str, str]:
    return dict.fromkeys(cells, tier)


BLUE = theme.PLAYER["blue"]
ORANGE = theme.PLAYER["orange"]


def _tiers(img: Image.Image, d: ImageDraw.ImageDraw, grid: Grid) -> None:
    for k, cell in enumerate(("A1", "B1", "C1", "D1")):
        text_center(d, grid.centre(cell), str(k + 1), 22, theme.INK)


def _tier5_heart(img: Image.Image, d: ImageDraw.ImageDraw, grid: Grid) -> None:
    text_center(d, grid.centre("A1"), "5", 22, theme.INK)
    board.heart_block(d, grid.box("B1"))


def _tunnel(img: Image.Image, d: ImageDraw.ImageDraw, grid: Grid) -> None:
    piece = {"kind": "tunnel", "cells": ["A1", "B1", "C1"], "anchor": "C1", "mineral": "iron"}
    board.draw_piece(img, d, grid, piece, BLUE, "B", set())


def _pedestal(img: Image.Image, d: ImageDraw.ImageDraw, grid: Grid) -> None:
    piece = {
        "kind": "tunnel",
        "cells": ["A1", "B1", "C1"],
        "anchor": "B1",
        "mineral": "heartstone",
        "pedestal": "fire",
    }
    board.draw_piece(img, d, grid, piece, ORANGE, "O", set())


def _rubble(img: Image.Image, d: ImageDraw.ImageDraw, grid: Grid) -> None:
    board.rubble(d, grid.box("A1"))


def _buried(img: Image.Image, d: ImageDraw.ImageDraw, grid: Grid) -> None:
    board.buried_resource(img, grid.box("A1"), "coin")
    board.buried_resource(img, grid.box("B1"), "heartstone")


def _buried_statue(img: Image.Image, d: ImageDraw.ImageDraw, grid: Grid) -> None:
    board.statue(img, d, grid.box("A1"), "ice", True)
    board.rubble(d, grid.box("B1"))
    board.statue(img, d, grid.box("B1"), "moon", True)


def _statue(img: Image.Image, d: ImageDraw.ImageDraw, grid: Grid) -> None:
    piece = {"kind": "tunnel", "cells": ["A1", "B1", "C1"], "anchor": "C1", "mineral": "stone"}
    board.draw_piece(img, d, grid, piece, BLUE, "B", {"C1"})
    board.statue(img, d, grid.box("C1"), "ice", False, (-6, -4))


def _sites(img: Image.Image, d: ImageDraw.ImageDraw, grid: Grid) -> None:
    board.workshop_site(d, grid.box("A1"))
    board.workshop(d, grid.box("C1"), "stonemill")


def _start(img: Image.Image, d: ImageDraw.ImageDraw, grid: Grid) -> None:
    board.start_point(d, grid.box("A1"), "W8", (5,))
    board.draw_piece(img, d, grid, {"kind": "gate", "cells": ["C1"]}, BLUE, "B", set())


def _hall(img: Image.Image, d: ImageDraw.ImageDraw, grid: Grid) -> None:
    piece = {
        "kind": "hall",
        "name": "shamans-lodge",
        "cells": ["A1", "B1", "A2", "B2"],
        "altar": "A1",
    }
    board.draw_piece(img, d, grid, piece, ORANGE, "O", set())


def _nobody(img: Image.Image, d: ImageDraw.ImageDraw, grid: Grid) -> None:
    piece = {"kind": "tunnel", "cells": ["A1", "B1"], "anchor": "A1", "mineral": "stone"}
    board.draw_piece(img, d, grid, piece, theme.NOBODY, "?", set())


def _highlight(img: Image.Image, d: ImageDraw.ImageDraw, grid: Grid) -> None:
    piece = {"kind": "tunnel", "cells": ["A1", "B1"], "anchor": "B1", "mineral": "stone"}
    board.draw_piece(img, d, grid, piece, BLUE, "B", set())
    for cell in ("A1", "B1"):
        board.outline(d, grid.box(cell), theme.HIGHLIGHT)


def _chips(img: Image.Image, d: ImageDraw.ImageDraw, grid: Grid) -> None:
    left, top, _, _ = grid.box("A1")
    chip = board.HEADER - 22  # as tall as on the board
    d.rectangle([left, top, left + SAMPLE_W, top + 3 * C], fill=theme.PANEL)
    for k, (colour, honor, name, to_act) in enumerate(
        (("blue", 12, "alice", False), ("orange", 8, "bob", True))
    ):
        y = top + 12 + k * (chip + 14)
        board.header_chip(
            d, (left + 8, y, left + SAMPLE_W - 8, y + chip), colour, honor, name, to_act
        )


def _rows() -> list[tuple[dict[str, str], Draw, str]]:
    return [
        (
            {"A1": "1", "B1": "2", "C1": "3", "D1": "4"},
            _tiers,
            "Tiers 1 to 4 of the mountain, from its edge inward: "
            + ", ".join(theme.TIER_NAME[t] for t in "1234")
            + ". Inner tiers are worth more.",
        ),
        (
            {"A1": "5", "B1": "H"},
            _tier5_heart,
            f"Tier 5 ({theme.TIER_NAME['5']}) around the Heart of the mountain (H): "
            "nothing may cover the Heart.",
        ),
        (
            _row("A1", "B1", "C1"),
            _tunnel,
            "A tunnel: its owner's letter (B: Blue) once, its mineral once (S stone, "
            "I iron, H heartstone). Dot: the tile's anchor, without a pedestal.",
        ),
        (
            _row("A1", "B1", "C1"),
            _pedestal,
            "A pedestal on a tunnel's anchor, with its clan (F fire, I ice, M moon): "
            "a statue of that clan on it scores double.",
        ),
        (
            _row("A1", "B1", "C1"),
            _statue,
            "A statue dug out, with its clan letter: carts move it along tunnels. "
            "On an anchor it stands beside the mark.",
        ),
        (
            _row("A1", "B1"),
            _buried_statue,
            "Black circle: a statue still buried. Digging over it unearths it.",
        ),
        (
            _row("A1"),
            _rubble,
            "Rubble (a ring of rocks): a tunnel over it costs one hammer per cell.",
        ),
        (
            _row("A1", "B1"),
            _buried,
            "A buried resource: whoever digs over it takes it.",
        ),
        (
            _row("A1", "B1", "C1"),
            _sites,
            "A workshop site (\u201csite\u201d), and an established workshop: a plate "
            "with its short name (full names under the board).",
        ),
        (
            _row("A1", "B1", "C1"),
            _start,
            "A start point for a gate (W8, used with 5 players), and a gate: its "
            "player's network starts there.",
        ),
        (
            _row("A1", "B1", "A2", "B2"),
            _hall,
            "A great hall, hatched, with its owner and initials. Its altar shows what "
            "the hall scores: 0 without a statue on it, 11 with one.",
        ),
        (
            _row("A1", "B1"),
            _nobody,
            "A gray tunnel with ?: cut off from every gate, it belongs to nobody yet.",
        ),
        (
            _row("A1", "B1"),
            _highlight,
            "White frames: the cells that changed in the last turn.",
        ),
        (
            _row("A1", "A3"),
            _chips,
            "Above the board, one chip per player: letter, honor on the track and "
            "name. White frame and \u25b6: the player to act.",
        ),
    ]
