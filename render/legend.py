"""The legend: how to read the board, each mark drawn by the board's own drawing
functions (render/board.py) beside a few words, so the legend cannot drift from the
board."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache
from typing import Literal

from PIL import Image, ImageDraw

from render import board, theme
from render.board import C, Grid, PieceMarks
from render.draw import draw_block, png_bytes, text_block, text_center
from render.words import (
    ENGLISH,
    Translator,
    clan_letter,
    clan_name,
    colour_name,
    player_letter,
    tier_name,
)
from rules.resources import STATUE_CLANS

WIDTH = 720
PAD = 20
SAMPLE_W = 4 * C  # the widest sample: four cells
TEXT_X = PAD + SAMPLE_W + 24
TEXT_W = WIDTH - TEXT_X - PAD
TEXT_SIZE = 22
ROW_GAP = 16
TITLE_H = 64

Draw = Callable[[Image.Image, ImageDraw.ImageDraw, Grid, Translator], None]


def legend_png(messages: Translator = ENGLISH) -> bytes:
    """PNG bytes of the board's legend in the language of `messages` (the same every
    time)."""
    return _legend_bytes(messages)


@cache
def _legend_bytes(messages: Translator) -> bytes:
    return png_bytes(legend_image(messages))


def legend_image(messages: Translator = ENGLISH) -> Image.Image:
    rows = _rows(messages)
    heights = [
        max(
            _cells_high(cells) * C, math.ceil(text_block(text, TEXT_SIZE, "regular", TEXT_W).height)
        )
        for cells, _, text in rows
    ]
    height = TITLE_H + sum(heights) + ROW_GAP * len(rows) + PAD
    img = Image.new("RGB", (WIDTH, height), theme.BACKGROUND)
    d = ImageDraw.Draw(img)
    title = messages.pgettext("legend", "How to read the board")
    text_center(
        d, (WIDTH / 2, TITLE_H / 2), title, 30, theme.INK, box=(PAD, 8, WIDTH - PAD, TITLE_H - 8)
    )
    y = TITLE_H
    for (cells, sample, text), h in zip(rows, heights, strict=True):
        top = y + (h - _cells_high(cells) * C) // 2
        grid = Grid(PAD, top)
        for cell, tier in cells.items():
            board.tier_cell(d, grid.box(cell), tier)
        sample(img, d, grid, messages)
        draw_block(d, (TEXT_X, y, WIDTH - PAD, y + h), text, TEXT_SIZE, theme.INK)
        y += h + ROW_GAP
    return img


def _cells_high(cells: dict[str, str]) -> int:
    return max(int(c[1:]) for c in cells)


def _row(*cells: str, tier: str = "2") -> dict[str, str]:
    return dict.fromkeys(cells, tier)


BLUE = theme.PLAYER["blue"]
ORANGE = theme.PLAYER["orange"]


def _tiers(img: Image.Image, d: ImageDraw.ImageDraw, grid: Grid, m: Translator) -> None:
    for k, cell in enumerate(("A1", "B1", "C1", "D1")):
        text_center(d, grid.centre(cell), str(k + 1), 22, theme.INK)


def _tier5_heart(img: Image.Image, d: ImageDraw.ImageDraw, grid: Grid, m: Translator) -> None:
    text_center(d, grid.centre("A1"), "5", 22, theme.INK)
    board.heart_block(d, grid.box("B1"), m)


def _piece(
    kind: Literal["gate", "tunnel", "hall"],
    cells: list[str],
    *,
    name: str = "",
    mineral: str | None = None,
    anchor: str | None = None,
    pedestal: str | None = None,
    altar: str | None = None,
) -> PieceMarks:
    """A sample piece as a view has it, for `board.draw_piece`."""
    return {
        "kind": kind,
        "name": name,
        "cells": cells,
        "mineral": mineral,
        "anchor": anchor,
        "pedestal": pedestal,
        "altar": altar,
    }


def _tunnel(img: Image.Image, d: ImageDraw.ImageDraw, grid: Grid, m: Translator) -> None:
    piece = _piece("tunnel", ["A1", "B1", "C1"], anchor="C1", mineral="iron")
    board.draw_piece(img, d, grid, piece, BLUE, player_letter("blue", m), set(), m)


def _pedestal(img: Image.Image, d: ImageDraw.ImageDraw, grid: Grid, m: Translator) -> None:
    piece = _piece("tunnel", ["A1", "B1", "C1"], anchor="B1", mineral="heartstone", pedestal="fire")
    board.draw_piece(img, d, grid, piece, ORANGE, player_letter("orange", m), set(), m)


def _rubble(img: Image.Image, d: ImageDraw.ImageDraw, grid: Grid, m: Translator) -> None:
    board.rubble(d, grid.box("A1"))


def _buried(img: Image.Image, d: ImageDraw.ImageDraw, grid: Grid, m: Translator) -> None:
    board.buried_resource(img, grid.box("A1"), "coin")
    board.buried_resource(img, grid.box("B1"), "heartstone")


def _buried_statue(img: Image.Image, d: ImageDraw.ImageDraw, grid: Grid, m: Translator) -> None:
    board.statue(img, d, grid.box("A1"), "ice", True, messages=m)
    board.rubble(d, grid.box("B1"))
    board.statue(img, d, grid.box("B1"), "moon", True, messages=m)


def _statue(img: Image.Image, d: ImageDraw.ImageDraw, grid: Grid, m: Translator) -> None:
    piece = _piece("tunnel", ["A1", "B1", "C1"], anchor="C1", mineral="stone")
    board.draw_piece(img, d, grid, piece, BLUE, player_letter("blue", m), {"C1"}, m)
    board.statue(img, d, grid.box("C1"), "ice", False, (-6, -4), m)


def _sites(img: Image.Image, d: ImageDraw.ImageDraw, grid: Grid, m: Translator) -> None:
    board.workshop_site(d, grid.box("A1"), m)
    board.workshop(d, grid.box("C1"), "stonemill", m)


def _start(img: Image.Image, d: ImageDraw.ImageDraw, grid: Grid, m: Translator) -> None:
    board.start_point(d, grid.box("A1"), "W8", (5,))
    gate = _piece("gate", ["C1"])
    board.draw_piece(img, d, grid, gate, BLUE, player_letter("blue", m), set(), m)


def _hall(img: Image.Image, d: ImageDraw.ImageDraw, grid: Grid, m: Translator) -> None:
    piece = _piece("hall", ["A1", "B1", "A2", "B2"], name="shamans-lodge", altar="A1")
    board.draw_piece(img, d, grid, piece, ORANGE, player_letter("orange", m), set(), m)


def _nobody(img: Image.Image, d: ImageDraw.ImageDraw, grid: Grid, m: Translator) -> None:
    piece = _piece("tunnel", ["A1", "B1"], anchor="A1", mineral="stone")
    board.draw_piece(img, d, grid, piece, theme.NOBODY, "?", set(), m)


def _highlight(img: Image.Image, d: ImageDraw.ImageDraw, grid: Grid, m: Translator) -> None:
    piece = _piece("tunnel", ["A1", "B1"], anchor="B1", mineral="stone")
    board.draw_piece(img, d, grid, piece, BLUE, player_letter("blue", m), set(), m)
    for cell in ("A1", "B1"):
        board.outline(d, grid.box(cell), theme.HIGHLIGHT)


def _chips(img: Image.Image, d: ImageDraw.ImageDraw, grid: Grid, m: Translator) -> None:
    left, top, _, _ = grid.box("A1")
    chip = board.HEADER - 22  # as tall as on the board
    d.rectangle([left, top, left + SAMPLE_W, top + 3 * C], fill=theme.PANEL)
    # TRANSLATORS: two players' names on the legend's sample chips (any names)
    alice, bob = m.pgettext("legend", "alice"), m.pgettext("legend", "bob")
    for k, (colour, honor, name, to_act) in enumerate(
        (("blue", 12, alice, False), ("orange", 8, bob, True))
    ):
        y = top + 12 + k * (chip + 14)
        box = (left + 8, y, left + SAMPLE_W - 8, y + chip)
        board.header_chip(d, box, colour, honor, name, to_act, m)


def _rows(m: Translator) -> list[tuple[dict[str, str], Draw, str]]:
    blue = {"letter": player_letter("blue", m), "colour": colour_name("blue", m)}
    # a letter and its clan stay on one line (a no-break space between)
    clans = ", ".join(f"{clan_letter(c, m)}\u00a0{clan_name(c, m)}" for c in STATUE_CLANS)
    low, high = 0, 11  # the Shaman's Lodge of the sample
    return [
        (
            {"A1": "1", "B1": "2", "C1": "3", "D1": "4"},
            _tiers,
            m.pgettext(
                "legend",
                "Tiers 1 to 4 of the mountain, from its edge inward: {names}. Inner tiers are"
                " worth more.",
                names=", ".join(tier_name(tier, m) for tier in (1, 2, 3, 4)),
            ),
        ),
        (
            {"A1": "5", "B1": "H"},
            _tier5_heart,
            m.pgettext(
                "legend",
                "Tier 5 ({name}) around the Heart of the mountain ({letter}): nothing may"
                " cover the Heart.",
                name=tier_name(5, m),
                letter=board.heart_letter(m),
            ),
        ),
        (
            _row("A1", "B1", "C1"),
            _tunnel,
            # TRANSLATORS: keep the letters S, I and H: they are drawn on the board
            m.pgettext(
                "legend",
                "A tunnel: its owner's letter ({letter}: {colour}) once, its mineral once"
                " (S\u00a0stone, I\u00a0iron, H\u00a0heartstone). Dot: the tile's anchor,"
                " without a"
                " pedestal.",
                **blue,
            ),
        ),
        (
            _row("A1", "B1", "C1"),
            _pedestal,
            m.pgettext(
                "legend",
                "A pedestal on a tunnel's anchor, with its clan ({clans}): a statue of that"
                " clan on it scores double.",
                clans=clans,
            ),
        ),
        (
            _row("A1", "B1", "C1"),
            _statue,
            m.pgettext(
                "legend",
                "A statue dug out, with its clan letter: carts move it along tunnels. On an"
                " anchor it stands beside the mark.",
            ),
        ),
        (
            _row("A1", "B1"),
            _buried_statue,
            m.pgettext(
                "legend", "Black circle: a statue still buried. Digging over it unearths it."
            ),
        ),
        (
            _row("A1"),
            _rubble,
            m.pgettext(
                "legend", "Rubble (a ring of rocks): a tunnel over it costs one hammer per cell."
            ),
        ),
        (
            _row("A1", "B1"),
            _buried,
            m.pgettext("legend", "A buried resource: whoever digs over it takes it."),
        ),
        (
            _row("A1", "B1", "C1"),
            _sites,
            m.pgettext(
                "legend",
                "A workshop site (\u201c{site}\u201d), and an established workshop: a plate"
                " with its short name (full names under the board).",
                site=board.site_word(m),
            ),
        ),
        (
            _row("A1", "B1", "C1"),
            _start,
            # TRANSLATORS: {point} is W8 and {count} 5, the sample start point's
            m.pgettext(
                "legend",
                "A start point for a gate ({point}, used with {count} players), and a gate:"
                " its player's network starts there.",
                point="W8",
                count=5,
            ),
        ),
        (
            _row("A1", "B1", "A2", "B2"),
            _hall,
            m.pgettext(
                "legend",
                "A great hall, hatched, with its owner and initials. Its altar shows what"
                " the hall scores: {low} without a statue on it, {high} with one.",
                low=low,
                high=high,
            ),
        ),
        (
            _row("A1", "B1"),
            _nobody,
            m.pgettext(
                "legend", "A gray tunnel with ?: cut off from every gate, it belongs to nobody yet."
            ),
        ),
        (
            _row("A1", "B1"),
            _highlight,
            m.pgettext("legend", "White frames: the cells that changed in the last turn."),
        ),
        (
            _row("A1", "A3"),
            _chips,
            m.pgettext(
                "legend",
                "Above the board, one chip per player: letter, honor on the track and name."
                " White frame and \u25b6: the player to act.",
            ),
        ),
    ]
