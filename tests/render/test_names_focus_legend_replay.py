"""Names on the images, the close-up of a turn, the legend and the animated replay."""

from __future__ import annotations

import io
from functools import cache

import pytest
from PIL import Image, ImageChops, ImageDraw

from render import board_png, legend_png, pyramid_png, replay_webp, score_png, theme
from render.board import BOARD, FOCUS_MIN, HEADER, board_image, header_chip, static_board
from render.draw import fit_text, font
from render.legend import legend_image
from render.samples import SAMPLE_NAMES, Position, positions, sample_game
from render.scoresheet import winner_line
from render.words import ENGLISH, colour_name
from rules.content import load_content
from rules.grid import COLUMNS, parse_cell

LONG = "Bartholomew the Magnificent of the Hall Under the Mountain"
C = BOARD.box("B1")[0] - BOARD.box("A1")[0]


def _decode(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


@cache
def _game_positions(players: int = 4, seed: int = 11) -> list[Position]:
    return positions(sample_game(players=players, seed=seed))


# --- names ---------------------------------------------------------------------------


def test_fit_text_cuts_long_names_with_an_ellipsis() -> None:
    assert fit_text("alice", 20, "bold", 200) == "alice"
    cut = fit_text(LONG, 20, "bold", 120)
    assert cut.endswith("…") and LONG.startswith(cut[:-1])
    assert font(20, "bold").getlength(cut) <= 120
    assert fit_text("W" * 40, 20, "bold", 5) == "…"


@pytest.mark.parametrize("width", [150, 192, 237])
def test_a_long_name_stays_inside_its_header_chip(width: int) -> None:
    """A chip 150 px wide is narrower than any board's (five players on 1020 px get
    192 px): nothing of a long name is drawn outside it."""
    img = Image.new("RGB", (width + 40, 100), (0, 0, 0))
    box = (20, 10, 20 + width, 72)
    for active in (False, True):
        header_chip(ImageDraw.Draw(img), box, "white", 123, LONG, active)
        outside = img.copy()
        ImageDraw.Draw(outside).rectangle(box, fill=(0, 0, 0))
        assert outside.getbbox() is None, "the chip drew outside its box"


def test_names_show_in_the_header_and_only_there() -> None:
    pos = _game_positions(5, 3)[1]
    plain = board_image(pos.view, highlight=pos.highlight)
    named = board_image(pos.view, highlight=pos.highlight, names=SAMPLE_NAMES)
    assert plain.size == named.size
    changed = ImageChops.difference(plain, named).getbbox()
    assert changed is not None and changed[3] <= HEADER
    # a name for one seat changes that seat's chip only
    one = board_image(pos.view, highlight=pos.highlight, names={2: "alice"})
    left, _, right, _ = ImageChops.difference(plain, one).getbbox() or (0, 0, 0, 0)
    chip = (plain.width - 10 * 6) // 5
    assert 10 + 2 * (chip + 10) <= left and right <= 10 + 3 * (chip + 10)


def test_without_names_the_chips_show_colour_words() -> None:
    pos = _game_positions()[1]
    colours = {p["seat"]: colour_name(p["colour"], ENGLISH) for p in pos.view["players"]}
    assert colours[0] == "Blue"
    assert board_png(pos.view, names=colours) == board_png(pos.view)


def test_winner_line_names_the_winners() -> None:
    view = _game_positions()[-1].view
    assert winner_line(view, [2], None) == f"Winner: {view['players'][2]['colour'].capitalize()}"
    assert winner_line(view, [0], {0: "alice"}) == "Winner: alice (Blue)"
    assert winner_line(view, [3, 1], {1: "bob", 3: "dora"}) == (
        "Winners: bob (Orange) & dora (Magenta)"
    )


def test_score_sheet_and_pyramid_take_names() -> None:
    game = sample_game(players=4, seed=11)
    end = positions(game)[-1]
    outcome = game.outcome
    assert outcome is not None
    plain = score_png(end.view, outcome.to_json())
    named = score_png(end.view, outcome.to_json(), names={0: LONG, 1: "bob"})
    assert plain != named and _decode(plain).size == _decode(named).size
    assert pyramid_png(end.view, 0, names={0: LONG}) != pyramid_png(end.view, 0)
    # another seat's name leaves the pyramid as it was
    assert pyramid_png(end.view, 0, names={1: "bob"}) == pyramid_png(end.view, 0)


# --- the close-up of a turn ------------------------------------------------------------


def _corner_cell(img: Image.Image, x0: int, y0: int, col: int, row: int) -> Image.Image:
    """Cell (col, row) of a focus crop whose first cell is (x0, y0)."""
    m = BOARD.left
    left, top = m + (col - x0) * C, m + (row - y0) * C
    return img.crop((left, top, left + C, top + C))


def test_focus_crops_around_the_cells_with_the_boards_own_pixels() -> None:
    pos = _game_positions()[1]
    cells = ("H8", "I8", "J9")
    full = board_image(pos.view, highlight=cells)
    crop = board_image(pos.view, highlight=cells, focus=True)
    assert crop.size == (FOCUS_MIN * C + 2 * BOARD.left,) * 2
    # columns F..L and rows 6..12: the cells plus two of context each way
    x0, y0 = parse_cell("F6")
    for cell in (*cells, "F6", "L12"):
        x, y = parse_cell(cell)
        assert _corner_cell(crop, x0, y0, x, y).tobytes() == full.crop(BOARD.box(cell)).tobytes()


def test_focus_writes_its_own_coordinates() -> None:
    pos = _game_positions()[1]
    crop = board_image(pos.view, highlight=("H8",), focus=True)
    m = BOARD.left
    # the column letters F..L above and below, the row numbers 5..11 on both sides
    for k in range(FOCUS_MIN):
        for y in (m / 2, crop.height - m / 2):
            band = crop.crop((m + k * C, round(y) - 10, m + (k + 1) * C, round(y) + 10))
            assert band.convert("L").getextrema()[1] > 200, f"no letter over column {k}"
        for x in (m / 2, crop.width - m / 2):
            band = crop.crop((round(x) - 14, m + k * C + 12, round(x) + 14, m + (k + 1) * C - 12))
            assert band.convert("L").getextrema()[1] > 200, f"no number beside row {k}"
    # the letters are the right ones: redraw "E" and "5" where they should be
    background = crop.getpixel((2, 2))
    for text, box, size in (("E", (m, 0, m + C, m), 22), ("5", (0, m, m, m + C), 20)):
        drawn = crop.crop(box)
        for guess, should_match in ((text, True), ("K" if text == "E" else "6", False)):
            expected = Image.new("RGB", drawn.size, background)
            ImageDraw.Draw(expected).text(
                (drawn.width / 2, drawn.height / 2),
                guess,
                font=font(size),
                anchor="mm",
                fill=theme.INK,
            )
            worst = ImageChops.difference(drawn, expected).convert("L").getextrema()[1]
            assert (worst < 40) == should_match, f"{guess} at {box}: {worst}"


def test_focus_stays_on_the_board_at_its_corners() -> None:
    pos = _game_positions()[1]
    board = load_content().board("winter")
    for cell in ("A1", f"{COLUMNS[board.width - 1]}{board.height}"):
        crop = board_image(pos.view, highlight=(cell,), focus=True)
        assert crop.size == (FOCUS_MIN * C + 2 * BOARD.left,) * 2
        full = board_image(pos.view, highlight=(cell,))
        x, y = parse_cell(cell)
        x0 = 0 if x == 0 else board.width - FOCUS_MIN
        y0 = 0 if y == 0 else board.height - FOCUS_MIN
        assert _corner_cell(crop, x0, y0, x, y).tobytes() == full.crop(BOARD.box(cell)).tobytes()


def test_focus_without_cells_is_the_whole_board() -> None:
    pos = _game_positions()[1]
    whole = board_png(pos.view)
    assert board_png(pos.view, focus=True) == whole
    assert board_png(pos.view, highlight=("Z99",), focus=True) == whole
    assert _decode(whole).size == static_board("winter").size


def test_focus_of_scattered_cells_spans_them_all() -> None:
    pos = _game_positions()[1]
    crop = board_image(pos.view, highlight=("B2", "P15"), focus=True)
    board = load_content().board("winter")
    assert crop.size == (board.width * C + 2 * BOARD.left, board.height * C + 2 * BOARD.left)


# --- the legend --------------------------------------------------------------------------


def test_legend_is_a_phone_sized_png() -> None:
    data = legend_png()
    img = _decode(data)
    assert img.format == "PNG"
    assert 600 <= img.width <= 1000 and 900 <= img.height <= 2200
    assert len(data) < 300_000
    assert legend_png() == data


def test_legend_draws_the_boards_marks() -> None:
    """The legend's samples are drawn by the board's functions: the tiers, the Heart,
    the players' and the marks' colours are all in it, unchanged."""
    colours = {c for _, c in legend_image().getcolors(1 << 20) or []}
    wanted = {
        **{f"tier {k}": v for k, v in theme.TIER.items()},
        "the Heart": theme.HEART,
        "blue": theme.PLAYER["blue"],
        "orange": theme.PLAYER["orange"],
        "nobody": theme.NOBODY,
        "rubble": theme.RUBBLE,
        "fire pedestal": theme.CLAN["fire"],
        **{f"{m} badge": v for m, v in theme.MINERAL_FILL.items()},
        "highlight": theme.HIGHLIGHT,
    }
    missing = [name for name, rgb in wanted.items() if rgb not in colours]
    assert not missing, f"the legend shows no {missing}"


# --- the replay --------------------------------------------------------------------------


def test_replay_is_an_animated_webp_with_a_frame_per_board() -> None:
    boards = [board_png(p.view, highlight=p.highlight) for p in _game_positions()]
    data = replay_webp(boards)
    img = _decode(data)
    assert img.format == "WEBP"
    assert getattr(img, "is_animated", False) and getattr(img, "n_frames", 1) == len(boards)
    assert img.width == 510
    durations = []
    for k in range(len(boards)):
        img.seek(k)
        img.load()
        durations.append(img.info["duration"])
    assert durations[:-1] == [600] * (len(boards) - 1) and durations[-1] > 600
    # images work as well as PNG bytes, and the same boards give the same bytes
    assert replay_webp([_decode(b) for b in boards]) == data


def test_replay_shrinks_to_fit_its_budget() -> None:
    boards = [board_png(p.view, highlight=p.highlight) for p in _game_positions()]
    budget = len(replay_webp(boards)) // 3
    small = replay_webp(boards, max_bytes=budget)
    assert len(small) <= budget
    assert _decode(small).width < 510


def test_replay_needs_a_board() -> None:
    with pytest.raises(ValueError):
        replay_webp([])
