"""The board image: the mountain with everything on it, from a player's view.

The empty mountain of each side (tiers, Heart, rubble, buried resources, workshop
sites, coordinates on every edge) is drawn once and cached; each render copies it and
draws the pieces, workshops, statues and highlights on the copy.

Every mark is drawn by one function of this module taking the box of its cell, so
the legend (`render.legend`) draws its samples with exactly the board's code. Marks
are sized for a phone, where Discord shows the whole board about 400 px wide (a cell
is then about 22 px): one large letter per tunnel for its owner, one mineral badge,
statues and pedestals with letters of at least 20 px.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Literal, TypedDict

from PIL import Image, ImageDraw

from render import theme
from render.draw import (
    MIN_SIZE,
    contrast,
    draw_block,
    draw_text,
    mix,
    paste,
    pedestal,
    png_bytes,
    resource_icon,
    statue_icon,
    text_center,
)
from render.theme import RGB
from render.words import (
    ENGLISH,
    Translator,
    clan_letter,
    colour_name,
    hall_short,
    player_letter,
    workshop_name,
    workshop_short,
)
from rules.content import load_content
from rules.grid import COLUMNS, cell_name, parse_cell
from rules.state import EDITION
from rules.view import View

C = theme.CELL
M = theme.MARGIN
HEADER = 84
FOOTER = 62
FOCUS_PAD = 2  # cells of context around a focus crop
FOCUS_MIN = 7  # a focus crop is at least this many cells wide and high
Box = tuple[int, int, int, int]


class PieceMarks(TypedDict):
    """What `draw_piece` reads of a piece: a view's piece (`rules.view.PieceView`) has
    it all, and the legend's samples give just this."""

    kind: Literal["gate", "tunnel", "hall"]
    name: str  # a hall's id (a tunnel's tile shape, a gate's start point)
    cells: list[str]
    mineral: str | None
    anchor: str | None
    pedestal: str | None
    altar: str | None


@dataclass(frozen=True)
class Preview:
    """A candidate tile drawn on the board for the dig confirmation step."""

    cells: tuple[str, ...]
    legal: bool
    reason_cell: str | None = None
    anchor: str | None = None


@dataclass(frozen=True)
class Grid:
    """Where cell A1 sits on an image: the board's grid, or a legend's sample grid."""

    left: int
    top: int

    def box(self, cell: str) -> Box:
        x, y = parse_cell(cell)
        left, top = self.left + x * C, self.top + y * C
        return left, top, left + C, top + C

    def centre(self, cell: str) -> tuple[float, float]:
        left, top, _, _ = self.box(cell)
        return left + C / 2, top + C / 2


BOARD = Grid(M, HEADER + M)


def board_png(
    view: View,
    *,
    highlight: Iterable[str] = (),
    preview: Preview | None = None,
    focus: bool = False,
    crop: bool = False,
    names: Mapping[int, str] | None = None,
    messages: Translator = ENGLISH,
) -> bytes:
    """PNG bytes of the board as `view` shows it.

    `highlight` outlines the cells that changed last turn; `preview` draws a candidate
    tunnel; `focus` (or its older name `crop`) keeps only the area around the preview's
    cells, or else the highlighted ones, with its own coordinates (the whole board when
    there are none); `names` (seat -> display name) labels the header chips; the words
    are in the language of `messages` (render.words)."""
    return png_bytes(
        board_image(
            view,
            highlight=highlight,
            preview=preview,
            focus=focus or crop,
            names=names,
            messages=messages,
        )
    )


def board_image(
    view: View,
    *,
    highlight: Iterable[str] = (),
    preview: Preview | None = None,
    focus: bool = False,
    crop: bool = False,
    names: Mapping[int, str] | None = None,
    messages: Translator = ENGLISH,
) -> Image.Image:
    highlight = tuple(highlight)
    side = _side(view)
    # the start points' marks and the features as the game's rules edition has them
    edition = int(view["config"].get("edition", EDITION))
    img = static_board(side, messages, edition).copy()
    d = ImageDraw.Draw(img)
    _draw_header(d, view, img.width, names or {}, messages)
    _draw_pieces(img, d, view, messages)
    _draw_workshops(d, view, messages)
    _draw_workshop_legend(d, view, img.width, img.height, messages)
    _draw_statues(img, d, view, messages)
    for cell in highlight:
        outline(d, BOARD.box(cell), theme.HIGHLIGHT)
    if preview is not None:
        _draw_preview(img, d, preview)
    if focus or crop:
        img = close_up(img, view, highlight, preview)
    return img


def close_up(
    img: Image.Image, view: View, highlight: Iterable[str], preview: Preview | None
) -> Image.Image:
    """The focus crop of a whole board `img` drawn from `view` (`board_image` without
    focus): around the preview's cells, or else the highlighted ones. A new image: the
    whole board is left as it is (render.cache crops the board it drew for the turn's
    whole-board image)."""
    return _crop(img, _side(view), preview.cells if preview is not None else tuple(highlight))


def _crop(img: Image.Image, side: str, cells: Iterable[str]) -> Image.Image:
    """The area around `cells` (at least FOCUS_MIN cells each way, so a phone shows
    each cell about 50 px wide) with its own coordinates on every edge, so a crop
    still says where it is; the whole board when no cell lies on it."""
    board = load_content().board(side)
    # cells typed by hand may lie off the board: crop around those that are on it
    on_board = []
    for cell in cells:
        try:
            x, y = parse_cell(cell)
        except ValueError:
            continue
        if 0 <= x < board.width and 0 <= y < board.height:
            on_board.append((x, y))
    if not on_board:
        return img
    x0, x1 = _span([x for x, _ in on_board], board.width)
    y0, y1 = _span([y for _, y in on_board], board.height)
    region = img.crop(
        (M + x0 * C, HEADER + M + y0 * C, M + (x1 + 1) * C, HEADER + M + (y1 + 1) * C)
    )
    out = Image.new("RGB", (region.width + 2 * M, region.height + 2 * M), theme.BACKGROUND)
    out.paste(region, (M, M))
    d = ImageDraw.Draw(out)
    for x in range(x0, x1 + 1):
        cx = M + (x - x0) * C + C / 2
        for cy in (M / 2, out.height - M / 2):
            text_center(d, (cx, cy), COLUMNS[x], 22, theme.INK)
    for y in range(y0, y1 + 1):
        cy = M + (y - y0) * C + C / 2
        for cx in (M / 2, out.width - M / 2):
            text_center(d, (cx, cy), str(y + 1), 20 if y < 9 else 17, theme.INK)
    return out


def _span(values: list[int], size: int) -> tuple[int, int]:
    """First and last row (or column) of a crop around `values`: FOCUS_PAD cells of
    context, widened to FOCUS_MIN cells, kept on the board."""
    low, high = min(values) - FOCUS_PAD, max(values) + FOCUS_PAD
    short = FOCUS_MIN - (high - low + 1)
    if short > 0:
        low -= short // 2
        high += short - short // 2
    if low < 0:
        low, high = 0, high - low
    if high > size - 1:
        low, high = low - (high - size + 1), size - 1
    return max(low, 0), high


def _side(view: View) -> str:
    config = view["config"]
    side = config.get("side")
    if side:
        return str(side)
    return "autumn" if config["players"] == 3 else "winter"


def cell_box(cell: str) -> Box:
    return BOARD.box(cell)


def cell_centre(cell: str) -> tuple[float, float]:
    return BOARD.centre(cell)


@cache
def static_board(side: str, messages: Translator = ENGLISH, edition: int = EDITION) -> Image.Image:
    """The empty mountain of one side with its words in one language, its start points
    marked and its features laid out as in that rules edition (cached: callers copy it,
    never draw on it)."""
    board = load_content().board(side).as_of(edition)
    marks = board.marks(edition)
    width = board.width * C + 2 * M
    height = HEADER + board.height * C + 2 * M + FOOTER
    img = Image.new("RGB", (width, height), theme.BACKGROUND)
    d = ImageDraw.Draw(img)
    for y, row in enumerate(board.tiers):
        for x, ch in enumerate(row):
            if ch != ".":
                tier_cell(d, BOARD.box(cell_name((x, y))), ch)
    heart = [
        BOARD.box(cell_name((x, y)))
        for y, row in enumerate(board.tiers)
        for x, ch in enumerate(row)
        if ch == "H"
    ]
    if heart:
        heart_block(
            d,
            (
                min(b[0] for b in heart),
                min(b[1] for b in heart),
                max(b[2] for b in heart),
                max(b[3] for b in heart),
            ),
            messages,
        )
    for cell in board.rubble:
        rubble(d, BOARD.box(cell))
    for cell, resource in board.buried.items():
        buried_resource(img, BOARD.box(cell), resource)
    for cell in board.workshop_sites:
        workshop_site(d, BOARD.box(cell), messages)
    for point in board.start_points:
        start_point(d, BOARD.box(point.cell), point.id, marks[point.id])
    # coordinates on all four edges
    for x in range(board.width):
        cx = M + x * C + C / 2
        for cy in (HEADER + M / 2, HEADER + M + board.height * C + M / 2):
            text_center(d, (cx, cy), COLUMNS[x], 22, theme.INK)
    for y in range(board.height):
        cy = HEADER + M + y * C + C / 2
        for cx in (M / 2, M + board.width * C + M / 2):
            text_center(d, (cx, cy), str(y + 1), 20 if y < 9 else 17, theme.INK)
    return img


# --- the marks, one function each (the legend draws them with the same code) --------


def tier_cell(d: ImageDraw.ImageDraw, box: Box, tier: str) -> None:
    """An empty cell of tier "1"-"5" (or "H", the Heart)."""
    fill = theme.HEART if tier == "H" else theme.TIER[tier]
    d.rectangle(box, fill=fill, outline=theme.GRID, width=1)


def heart_block(d: ImageDraw.ImageDraw, box: Box, messages: Translator = ENGLISH) -> None:
    """The Heart of the mountain as one labelled block."""
    x0, y0, x1, y1 = box
    d.rectangle(box, fill=theme.HEART, outline=theme.INK_DARK, width=3)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    inner = (x0 + 6, y0 + 4, x1 - 6, y1 - 4)
    if x1 - x0 > 2 * C:
        # TRANSLATORS: the Heart of the mountain, on the board: "HEART" large, in capitals
        heart = messages.pgettext("board", "HEART")
        text_center(d, (cx, cy - 12), heart, 28, theme.INK, box=(*inner[:3], cy + 3))
        # TRANSLATORS: under "HEART" on the board, the rest of "Heart of the mountain"
        rest = messages.pgettext("board", "of the mountain")
        text_center(
            d, (cx, cy + 18), rest, 15, theme.INK, "regular", box=(inner[0], cy + 5, *inner[2:])
        )
    else:
        text_center(d, (cx, cy), heart_letter(messages), 28, theme.INK, box=inner)


def heart_letter(messages: Translator) -> str:
    # TRANSLATORS: the Heart of the mountain in a letter or two, on a Heart one cell wide
    # (the legend's sample)
    return messages.pgettext("the Heart on the board", "H")


def rubble(d: ImageDraw.ImageDraw, box: Box) -> None:
    """Rubble: a ring of rocks around the cell's centre (a buried statue or resource
    may lie inside it)."""
    left, top, _, _ = box
    cx, cy = left + C / 2, top + C / 2
    r = 7
    for dx, dy in ((-15, -12), (0, -19), (15, -12), (19, 5), (7, 18), (-9, 18), (-19, 4)):
        d.ellipse(
            [cx + dx - r, cy + dy - r, cx + dx + r, cy + dy + r],
            fill=theme.RUBBLE,
            outline=theme.INK_DARK,
            width=2,
        )


def buried_resource(img: Image.Image, box: Box, resource: str) -> None:
    """A resource lying in the rock: whoever digs here takes it."""
    left, top, _, _ = box
    paste(img, resource_icon(resource, 30), (left + C / 2, top + C / 2))


def workshop_site(d: ImageDraw.ImageDraw, box: Box, messages: Translator = ENGLISH) -> None:
    """An empty workshop site: a double frame with the word "site"."""
    left, top, right, bottom = box
    d.rectangle([left + 3, top + 3, right - 3, bottom - 3], outline=theme.INK, width=3)
    d.rectangle([left + 8, top + 8, right - 8, bottom - 8], outline=theme.INK_DIM, width=1)
    text_center(
        d,
        ((left + right) / 2, (top + bottom) / 2),
        site_word(messages),
        18,
        theme.INK,
        stroke=theme.INK_DARK,
        box=(left + 4, top + 9, right - 4, bottom - 9),
        floor=MIN_SIZE,
    )


def site_word(messages: Translator) -> str:
    # TRANSLATORS: an empty workshop site on the board: one short word (a cell is 56 px)
    return messages.pgettext("board", "site")


def start_point(d: ImageDraw.ImageDraw, box: Box, name: str, players: Iterable[int]) -> None:
    """A start point for a gate (`W8`) and the player counts that use it (`5`)."""
    left, top, right, bottom = box
    d.rectangle([left + 2, top + 2, right - 2, bottom - 2], outline=theme.INK, width=2)
    label = "/".join(str(n) for n in players)
    text_center(d, ((left + right) / 2, top + 17), name, 18, theme.INK)
    text_center(d, ((left + right) / 2, bottom - 15), label, 16, theme.INK_DIM)


def workshop(d: ImageDraw.ImageDraw, box: Box, name: str, messages: Translator = ENGLISH) -> None:
    """An established workshop: a grey plate with its short name (full names are in
    the footer)."""
    left, top, right, bottom = box
    d.rectangle(
        [left + 2, top + 2, right - 2, bottom - 2],
        fill=theme.PANEL_LIGHT,
        outline=theme.INK,
        width=3,
    )
    text_center(
        d,
        ((left + right) / 2, (top + bottom) / 2),
        workshop_short(name, messages),
        20,
        theme.INK,
        "condensed",
        box=(left + 5, top + 5, right - 5, bottom - 5),
        floor=MIN_SIZE,
    )


def tunnel_cell(d: ImageDraw.ImageDraw, box: Box, colour: RGB) -> None:
    d.rectangle(box, fill=colour)


def hall_cell(img: Image.Image, box: Box, colour: RGB) -> None:
    """A great hall's cell: a diagonal hatch tells halls from tunnels without colour."""
    fill = hall_fill(colour)
    img.paste(_hatch(fill, mix(fill, colour, 0.6)), (box[0], box[1]))


def hall_fill(colour: RGB) -> RGB:
    return mix(colour, (255, 255, 255), 0.35)


def piece_edges(d: ImageDraw.ImageDraw, grid: Grid, cells: Iterable[str]) -> None:
    """A thick dark line where a piece ends."""
    mine = set(cells)
    for cell in mine:
        x, y = parse_cell(cell)
        left, top, right, bottom = grid.box(cell)
        for (nx, ny), edge in (
            ((x, y - 1), [(left, top), (right, top)]),
            ((x + 1, y), [(right, top), (right, bottom)]),
            ((x, y + 1), [(left, bottom), (right, bottom)]),
            ((x - 1, y), [(left, top), (left, bottom)]),
        ):
            if nx < 0 or ny < 0 or cell_name((nx, ny)) not in mine:
                d.line(edge, fill=theme.INK_DARK, width=4)


def owner_letter(
    d: ImageDraw.ImageDraw, centre: tuple[float, float], letter: str, fill: RGB, size: int = 34
) -> None:
    """A tunnel's owner, once per tunnel."""
    text_center(d, centre, letter, size, contrast(fill), box=around(centre, size * 1.3))


def around(
    centre: tuple[float, float], width: float, height: float | None = None
) -> tuple[float, float, float, float]:
    """The box of a mark drawn centred on `centre`."""
    cx, cy = centre
    h = width if height is None else height
    return (cx - width / 2, cy - h / 2, cx + width / 2, cy + h / 2)


def mineral_badge(
    d: ImageDraw.ImageDraw, centre: tuple[float, float], mineral: str, size: int = 32
) -> None:
    """A tunnel's mineral (S, I, H) on a square of its colour, once per tunnel."""
    cx, cy = centre
    h = size / 2
    d.rounded_rectangle(
        [cx - h, cy - h, cx + h, cy + h],
        radius=max(3, size // 8),
        fill=theme.MINERAL_FILL[mineral],
        outline=theme.INK_DARK,
        width=2,
    )
    text_center(d, (cx, cy), theme.RESOURCE_LETTER[mineral], round(size * 0.75), theme.INK_DARK)


def anchor_dot(
    d: ImageDraw.ImageDraw, centre: tuple[float, float], ring: RGB, size: int = 20
) -> None:
    """A tile's anchor that carries no pedestal: a black dot."""
    cx, cy = centre
    h = size / 2
    d.ellipse([cx - h, cy - h, cx + h, cy + h], fill=theme.INK_DARK, outline=ring, width=2)


def statue(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    box: Box,
    clan: str,
    buried: bool,
    shift: tuple[float, float] = (0, 0),
    messages: Translator = ENGLISH,
) -> None:
    """A statue with its clan letter; a buried one sits in a black circle."""
    left, top, right, bottom = box
    cx, cy = (left + right) / 2 + shift[0], (top + bottom) / 2 + shift[1]
    mark = clan_letter(clan, messages)
    if buried:
        d.ellipse([left + 4, top + 4, right - 4, bottom - 4], fill=theme.INK_DARK)
        paste(img, statue_icon(clan, 40, mark), (cx, cy))
    else:
        paste(img, statue_icon(clan, 46, mark), (cx, cy))


def gate(
    d: ImageDraw.ImageDraw,
    box: Box,
    colour: RGB,
    letter: str,
    covered: bool,
    messages: Translator = ENGLISH,
) -> None:
    """A player's gate: their letter in a frame (smaller when a statue stands on it)."""
    left, top, right, bottom = box
    ink = contrast(colour)
    d.rectangle([left + 5, top + 5, right - 5, bottom - 5], outline=ink, width=3)
    if covered:
        text_center(
            d, (left + 15, top + 15), letter, 18, ink, box=around((left + 15, top + 15), 20)
        )
        return
    cx = (left + right) / 2
    text_center(
        d,
        (cx, (top + bottom) / 2 - 5),
        letter,
        30,
        ink,
        box=(left + 8, top + 8, right - 8, bottom - 18),
    )
    # TRANSLATORS: under a player's letter on their gate tile (a cell is 56 px)
    word = messages.pgettext("board", "gate")
    text_center(
        d,
        (cx, bottom - 12),
        word,
        11,
        ink,
        "regular",
        box=(left + 8, bottom - 18, right - 8, bottom - 6),
    )


def altar(d: ImageDraw.ImageDraw, box: Box, fill: RGB, low: int, high: int) -> None:
    """A great hall's altar with its value without and with a statue on it."""
    left, top, right, bottom = box
    d.rectangle(
        [left + 6, top + 6, right - 6, bottom - 6],
        fill=mix(fill, (255, 255, 255), 0.5),
        outline=theme.INK_DARK,
        width=3,
    )
    text_center(
        d,
        ((left + right) / 2, bottom - 14),
        f"{low}/{high}",
        15,
        theme.INK_DARK,
        box=(left + 8, bottom - 24, right - 8, bottom - 6),
    )


def outline(d: ImageDraw.ImageDraw, box: Box, colour: RGB, width: int = 4) -> None:
    """The frame around a cell that changed last turn (or a previewed one)."""
    left, top, right, bottom = box
    d.rectangle([left + 1, top + 1, right - 1, bottom - 1], outline=theme.INK_DARK, width=width + 2)
    d.rectangle([left + 2, top + 2, right - 2, bottom - 2], outline=colour, width=width)


def header_chip(
    d: ImageDraw.ImageDraw,
    box: Box,
    seat_colour: str,
    score: int,
    label: str | None,
    active: bool,
    messages: Translator = ENGLISH,
) -> None:
    """One player in the header: their letter, honor on the track and name (or, with
    `label` None, their colour's word); the player to act has a white frame and an
    arrow."""
    x0, y0, x1, y1 = box
    colour = theme.PLAYER[seat_colour]
    d.rounded_rectangle(
        [x0, y0, x1, y1],
        radius=8,
        fill=colour,
        outline=theme.HIGHLIGHT if active else colour,
        width=4 if active else 1,
    )
    ink = contrast(colour)
    mid = (y0 + y1) / 2
    letter = player_letter(seat_colour, messages)
    text_center(d, (x0 + 22, mid), letter, 32, ink, box=(x0 + 5, y0 + 5, x0 + 40, y1 - 5))
    tx = x0 + 44
    tip = x1 - 9
    draw_text(
        d, (tx, y0 + 20), str(score), 24, ink, "bold", "lm", box=(tx, y0 + 3, tip - 16, mid + 3)
    )
    if active:
        d.polygon([(tip, y0 + 20), (tip - 13, y0 + 10), (tip - 13, y0 + 30)], fill=ink)
    word = label or colour_name(seat_colour, messages)
    draw_text(
        d, (tx, y1 - 18), word, 20, ink, "bold", "lm", box=(tx, mid + 3, x1 - 8, y1 - 3), floor=14
    )


# --- the board's layers ----------------------------------------------------------------


def _draw_header(
    d: ImageDraw.ImageDraw,
    view: View,
    width: int,
    names: Mapping[int, str],
    messages: Translator,
) -> None:
    d.rectangle([0, 0, width, HEADER - 6], fill=theme.PANEL)
    to_act = set(view.get("to_act", []))
    scores = view.get("scores", [])
    players = view["players"]
    gap = 10
    chip = (width - gap * (len(players) + 1)) // len(players)
    for i, p in enumerate(players):
        x = gap + i * (chip + gap)
        account = p["account"]
        score = scores[account] if account < len(scores) else 0
        header_chip(
            d,
            (x, 8, x + chip, HEADER - 14),
            p["colour"],
            score,
            names.get(p["seat"]),
            p["seat"] in to_act,
            messages,
        )


def _owner(view: View, owner: int | None, messages: Translator) -> tuple[RGB, str]:
    if owner is None:
        return theme.NOBODY, "?"
    colour = view["players"][owner]["colour"]
    return theme.PLAYER[colour], player_letter(colour, messages)


def _draw_pieces(
    img: Image.Image, d: ImageDraw.ImageDraw, view: View, messages: Translator
) -> None:
    statues = set(view["board"]["statues"])
    for piece in view["board"]["pieces"]:
        colour, letter = _owner(view, piece["owner"], messages)
        draw_piece(img, d, BOARD, piece, colour, letter, statues, messages)


def draw_piece(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    grid: Grid,
    piece: PieceMarks,
    colour: RGB,
    letter: str,
    statues: set[str],
    messages: Translator = ENGLISH,
) -> None:
    """A gate, tunnel or great hall (`piece` as in a view) in its owner's colour."""
    kind = piece["kind"]
    cells: list[str] = piece["cells"]
    for cell in cells:
        if kind == "hall":
            hall_cell(img, grid.box(cell), colour)
        else:
            tunnel_cell(d, grid.box(cell), colour)
    piece_edges(d, grid, cells)
    if kind == "gate":
        gate(d, grid.box(cells[0]), colour, letter, cells[0] in statues, messages)
        return
    if kind == "hall":
        _hall_marks(d, grid, piece, colour, letter, statues, messages)
        return
    anchor = piece.get("anchor")
    free = [c for c in cells if c != anchor and c not in statues]
    mineral = piece.get("mineral") or "stone"
    if len(free) >= 2:
        owner_letter(d, grid.centre(free[0]), letter, colour)
        mineral_badge(d, grid.centre(free[1]), mineral)
    elif free:
        cx, cy = grid.centre(free[0])
        owner_letter(d, (cx - 12, cy), letter, colour, 30)
        mineral_badge(d, (cx + 14, cy), mineral, 24)
    else:  # every cell holds a statue or the anchor: small, in the top corners
        left, top, right, _ = grid.box(cells[0])
        owner_letter(d, (left + 10, top + 11), letter, colour, 18)
        mineral_badge(d, (right - 11, top + 11), mineral, 18)
    if anchor:
        left, top, right, bottom = grid.box(anchor)
        ped = piece.get("pedestal")
        mark = clan_letter(ped, messages) if ped else None
        if anchor in statues:  # the statue stands in the middle: the mark in a corner
            if ped:
                pedestal(d, (right - 14, bottom - 14), ped, 26, mark)
            else:
                anchor_dot(d, (right - 10, bottom - 10), contrast(colour), 14)
        elif not free and anchor == cells[0]:  # the labels took the top of the cell
            low = ((left + right) / 2, bottom - 17)
            if ped:
                pedestal(d, low, ped, 30, mark)
            else:
                anchor_dot(d, low, contrast(colour), 18)
        elif ped:
            pedestal(d, grid.centre(anchor), ped, mark=mark)
        else:
            anchor_dot(d, grid.centre(anchor), contrast(colour))


def _hall_marks(
    d: ImageDraw.ImageDraw,
    grid: Grid,
    piece: PieceMarks,
    colour: RGB,
    letter: str,
    statues: set[str],
    messages: Translator,
) -> None:
    info = next(h for h in load_content().halls if h.id == piece["name"])
    fill = hall_fill(colour)
    cells: list[str] = piece["cells"]
    altar_cell = piece.get("altar")
    if altar_cell:
        altar(d, grid.box(altar_cell), fill, info.low, info.high)
    free = [c for c in cells if c != altar_cell and c not in statues] or cells
    left, top, right, bottom = grid.box(free[0])
    ink = contrast(fill)
    cx = (left + right) / 2
    text_center(
        d,
        (cx, top + 19),
        letter,
        24,
        ink,
        stroke=fill,
        box=(left + 3, top + 3, right - 3, top + 33),
    )
    short = hall_short(info.id, messages)
    text_center(
        d,
        (cx, bottom - 16),
        short,
        20,
        ink,
        stroke=fill,
        box=(left + 3, bottom - 29, right - 3, bottom - 3),
    )


@cache
def _hatch(fill: RGB, line: RGB) -> Image.Image:
    tile = Image.new("RGB", (C + 1, C + 1), fill)
    td = ImageDraw.Draw(tile)
    for k in range(-C, C + 1, 12):
        td.line([(k, C), (k + C, 0)], fill=line, width=2)
    return tile


def _draw_workshops(d: ImageDraw.ImageDraw, view: View, messages: Translator) -> None:
    for site, name in view["board"]["workshops"].items():
        workshop(d, BOARD.box(site), name, messages)


ENTRY_GAP = "   "  # between two workshops of the footer: one is never split over two lines


def _draw_workshop_legend(
    d: ImageDraw.ImageDraw, view: View, width: int, height: int, messages: Translator
) -> None:
    """Full names of the established workshops under the board (cells show short ones)."""
    top = height - FOOTER
    d.rectangle([0, top, width, height], fill=theme.PANEL)
    box = (12, top + 4, width - 12, height - 4)
    workshops = sorted(view["board"]["workshops"].items(), key=lambda kv: parse_cell(kv[0])[::-1])
    if not workshops:
        empty = messages.pgettext("board", "No workshops established yet")
        draw_block(d, box, empty, 18, theme.INK_DIM, "regular", align="centre", floor=13)
        return
    entries = [f"{site} {workshop_name(w, messages)}" for site, w in workshops]
    # TRANSLATORS: the footer under the board: the sites and full names of the workshops
    text = messages.pgettext("board", "Workshops: {list}", list=ENTRY_GAP.join(entries))
    draw_block(d, box, text, 18, theme.INK, "bold", floor=13, joiner=ENTRY_GAP)


def _draw_statues(
    img: Image.Image, d: ImageDraw.ImageDraw, view: View, messages: Translator
) -> None:
    pieces = view["board"]["pieces"]
    covered = {c for p in pieces for c in p["cells"]}
    # a statue on an anchor or an altar leaves room for that mark
    marked = {p["anchor"] for p in pieces if p.get("anchor")}
    altars = {p["altar"] for p in pieces if p.get("altar")}
    for cell, clan in view["board"]["statues"].items():
        shift = (-6.0, -4.0) if cell in marked else (0.0, -8.0) if cell in altars else (0.0, 0.0)
        statue(img, d, BOARD.box(cell), clan, cell not in covered, shift, messages)


def _draw_preview(img: Image.Image, d: ImageDraw.ImageDraw, preview: Preview) -> None:
    colour = theme.GOOD if preview.legal else theme.BAD
    overlay = Image.new("RGBA", img.size, (0, 0, 0, 0))
    od = ImageDraw.Draw(overlay)
    for cell in preview.cells:
        if _on_image(img, cell):
            od.rectangle(BOARD.box(cell), fill=(*colour, 110))
    img.paste(overlay, (0, 0), overlay)
    for cell in preview.cells:
        if _on_image(img, cell):
            outline(d, BOARD.box(cell), colour)
    if preview.anchor and _on_image(img, preview.anchor):
        anchor_dot(d, BOARD.centre(preview.anchor), colour, 22)
    if preview.reason_cell and _on_image(img, preview.reason_cell):
        left, top, right, bottom = BOARD.box(preview.reason_cell)
        d.line([(left + 8, top + 8), (right - 8, bottom - 8)], fill=theme.BAD, width=6)
        d.line([(left + 8, bottom - 8), (right - 8, top + 8)], fill=theme.BAD, width=6)


def _on_image(img: Image.Image, cell: str) -> bool:
    try:
        _, _, right, bottom = BOARD.box(cell)
    except ValueError:
        return False
    return right <= img.width - M and bottom <= img.height - M
