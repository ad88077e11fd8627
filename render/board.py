"""The board image: the mountain with everything on it, from a player's view.

The empty mountain of each side (tiers, Heart, rubble, buried resources, workshop
sites, coordinates on every edge) is drawn once and cached; each render copies it and
draws the pieces, workshops, statues and highlights on the copy.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from render import theme
from render.draw import (
    contrast,
    draw_text,
    font,
    mix,
    paste,
    png_bytes,
    resource_icon,
    statue_icon,
    text_center,
)
from rules.content import load_content
from rules.grid import COLUMNS, cell_name, parse_cell

C = theme.CELL
M = theme.MARGIN
HEADER = 64
FOOTER = 62


@dataclass(frozen=True)
class Preview:
    """A candidate tile drawn on the board for the dig confirmation step."""

    cells: tuple[str, ...]
    legal: bool
    reason_cell: str | None = None
    anchor: str | None = None


def board_png(
    view: dict[str, Any],
    *,
    highlight: Iterable[str] = (),
    preview: Preview | None = None,
    crop: bool = False,
) -> bytes:
    """PNG bytes of the board as `view` shows it; `highlight` outlines the cells that
    changed last turn; `preview` draws a candidate tunnel (and `crop` keeps only the
    area around it)."""
    return png_bytes(board_image(view, highlight=highlight, preview=preview, crop=crop))


def board_image(
    view: dict[str, Any],
    *,
    highlight: Iterable[str] = (),
    preview: Preview | None = None,
    crop: bool = False,
) -> Image.Image:
    side = _side(view)
    img = static_board(side).copy()
    d = ImageDraw.Draw(img)
    colours = [p["colour"] for p in view["players"]]
    _draw_header(d, view, img.width)
    _draw_pieces(img, d, view, colours)
    _draw_workshops(d, view)
    _draw_workshop_legend(d, view, img.width, img.height)
    _draw_statues(img, view)
    for cell in highlight:
        _outline(d, cell, theme.HIGHLIGHT, 4)
    if preview is not None:
        _draw_preview(img, d, preview)
        if crop:
            img = _crop(img, view, preview.cells)
    return img


def _crop(
    img: Image.Image, view: dict[str, Any], cells: tuple[str, ...], pad: int = 3
) -> Image.Image:
    """The area around `cells` with its own coordinates on every edge (so a cropped
    preview still says where it is)."""
    board = load_content().board(_side(view))
    # cells typed by hand may lie off the board: crop around those that are on it
    on_board = [
        (x, y)
        for x, y in (parse_cell(c) for c in cells)
        if 0 <= x < board.width and 0 <= y < board.height
    ]
    if not on_board:
        return img
    xs = [x for x, _ in on_board]
    ys = [y for _, y in on_board]
    x0, x1 = max(min(xs) - pad, 0), min(max(xs) + pad, board.width - 1)
    y0, y1 = max(min(ys) - pad, 0), min(max(ys) + pad, board.height - 1)
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


def _side(view: dict[str, Any]) -> str:
    config = view["config"]
    side = config.get("side")
    if side:
        return str(side)
    return "autumn" if config["players"] == 3 else "winter"


def cell_box(cell: str) -> tuple[int, int, int, int]:
    x, y = parse_cell(cell)
    left, top = M + x * C, HEADER + M + y * C
    return left, top, left + C, top + C


def cell_centre(cell: str) -> tuple[float, float]:
    left, top, _, _ = cell_box(cell)
    return left + C / 2, top + C / 2


@cache
def static_board(side: str) -> Image.Image:
    """The empty mountain of one side (cached: callers copy it, never draw on it)."""
    board = load_content().board(side)
    width = board.width * C + 2 * M
    height = HEADER + board.height * C + 2 * M + FOOTER
    img = Image.new("RGB", (width, height), theme.BACKGROUND)
    d = ImageDraw.Draw(img)
    for y, row in enumerate(board.tiers):
        for x, ch in enumerate(row):
            if ch == ".":
                continue
            box = cell_box(cell_name((x, y)))
            fill = theme.HEART if ch == "H" else theme.TIER[ch]
            d.rectangle(box, fill=fill, outline=theme.GRID, width=1)
    # the Heart as one red block with a label
    heart = [
        cell_name((x, y))
        for y, row in enumerate(board.tiers)
        for x, ch in enumerate(row)
        if ch == "H"
    ]
    if heart:
        boxes = [cell_box(c) for c in heart]
        x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
        x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
        d.rectangle([x0, y0, x1, y1], fill=theme.HEART, outline=theme.INK_DARK, width=3)
        text_center(d, ((x0 + x1) / 2, (y0 + y1) / 2 - 12), "HEART", 22, theme.INK)
        text_center(
            d, ((x0 + x1) / 2, (y0 + y1) / 2 + 14), "of the mountain", 13, theme.INK, "regular"
        )
    for cell in board.rubble:
        _rubble(d, cell)
    for cell, resource in board.buried.items():
        left, top, _, _ = cell_box(cell)
        icon = resource_icon(resource, 26)
        paste(img, icon, (left + C * 0.7, top + C * 0.7))
    for cell in board.workshop_sites:
        left, top, right, bottom = cell_box(cell)
        d.rectangle([left + 6, top + 6, right - 6, bottom - 6], outline=theme.INK, width=2)
        d.rectangle([left + 10, top + 10, right - 10, bottom - 10], outline=theme.INK_DIM, width=1)
        text_center(d, ((left + right) / 2, (top + bottom) / 2), "site", 13, theme.INK)
    for point in board.start_points:
        left, top, right, bottom = cell_box(point.cell)
        d.rectangle([left + 2, top + 2, right - 2, bottom - 2], outline=theme.INK, width=2)
        label = "/".join(str(n) for n in point.players)
        text_center(d, ((left + right) / 2, top + 14), point.id, 13, theme.INK)
        text_center(d, ((left + right) / 2, bottom - 14), label, 13, theme.INK_DIM)
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


def _rubble(d: ImageDraw.ImageDraw, cell: str) -> None:
    """Rubble: a ring of rocks around the cell's centre."""
    left, top, _, _ = cell_box(cell)
    cx, cy = left + C / 2, top + C / 2
    for dx, dy in ((-14, -10), (0, -16), (14, -10), (16, 6), (4, 16), (-12, 12), (-17, 0)):
        r = 6
        d.ellipse(
            [cx + dx - r, cy + dy - r, cx + dx + r, cy + dy + r],
            fill=(92, 84, 76),
            outline=theme.INK_DARK,
            width=1,
        )


def _owner_colour(view: dict[str, Any], owner: int | None) -> tuple[tuple[int, int, int], str]:
    if owner is None:
        return theme.NOBODY, "?"
    colour = view["players"][owner]["colour"]
    return theme.PLAYER[colour], theme.PLAYER_LETTER[colour]


def _draw_header(d: ImageDraw.ImageDraw, view: dict[str, Any], width: int) -> None:
    """One chip per player: letter, honor on the track and colour name; the player to
    act has a white frame and an arrow."""
    d.rectangle([0, 0, width, HEADER - 6], fill=theme.PANEL)
    to_act = set(view.get("to_act", []))
    scores = view.get("scores", [])
    players = view["players"]
    gap = 10
    chip = (width - gap * (len(players) + 1)) // len(players)
    mid = (10 + HEADER - 16) / 2
    for i, p in enumerate(players):
        x = gap + i * (chip + gap)
        colour = theme.PLAYER[p["colour"]]
        active = p["seat"] in to_act
        d.rounded_rectangle(
            [x, 10, x + chip, HEADER - 16],
            radius=8,
            fill=colour,
            outline=theme.HIGHLIGHT if active else colour,
            width=4 if active else 1,
        )
        ink = contrast(colour)
        account = p["account"]
        score = scores[account] if account < len(scores) else 0
        text_center(d, (x + 22, mid), theme.PLAYER_LETTER[p["colour"]], 26, ink)
        draw_text(d, (x + 42, mid), str(score), 24, ink, "bold", "lm")
        right = x + chip - (26 if active else 10)
        draw_text(d, (right, mid), p["colour"], 15, ink, "regular", "rm")
        if active:
            tip = x + chip - 8
            d.polygon([(tip, mid), (tip - 12, mid - 9), (tip - 12, mid + 9)], fill=ink)


def _draw_pieces(
    img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], colours: list[str]
) -> None:
    pieces = view["board"]["pieces"]
    where: dict[str, int] = {}
    for piece in pieces:
        for cell in piece["cells"]:
            where[cell] = piece["id"]
    halls = {h.id: h for h in load_content().halls}
    for piece in pieces:
        colour, letter = _owner_colour(view, piece["owner"])
        kind = piece["kind"]
        fill = colour if kind != "hall" else mix(colour, (255, 255, 255), 0.35)
        for cell in piece["cells"]:
            left, top, right, bottom = cell_box(cell)
            if kind == "hall":  # a diagonal hatch tells halls from tunnels without colour
                img.paste(_hatch(fill, mix(fill, colour, 0.6)), (left, top))
            else:
                d.rectangle([left, top, right, bottom], fill=fill)
        # borders where the piece ends
        for cell in piece["cells"]:
            x, y = parse_cell(cell)
            left, top, right, bottom = cell_box(cell)
            for (nx, ny), edge in (
                ((x, y - 1), [(left, top), (right, top)]),
                ((x + 1, y), [(right, top), (right, bottom)]),
                ((x, y + 1), [(left, bottom), (right, bottom)]),
                ((x - 1, y), [(left, top), (left, bottom)]),
            ):
                if nx < 0 or ny < 0 or where.get(cell_name((nx, ny))) != piece["id"]:
                    d.line(edge, fill=theme.INK_DARK, width=4)
        ink = contrast(fill)
        if kind == "gate":
            cell = piece["cells"][0]
            left, top, right, bottom = cell_box(cell)
            d.rectangle([left + 6, top + 6, right - 6, bottom - 6], outline=ink, width=3)
            text_center(d, cell_centre(cell), letter, 24, ink)
            text_center(d, (cell_centre(cell)[0], bottom - 12), "gate", 11, ink, "regular")
            continue
        if kind == "hall":
            info = halls[piece["name"]]
            first = piece["cells"][0]
            left, top, _, _ = cell_box(first)
            draw_text(d, (left + 4, top + 3), letter, 14, ink)
            altar = piece.get("altar")
            if altar:
                al, at, ar, ab = cell_box(altar)
                d.rectangle(
                    [al + 8, at + 8, ar - 8, ab - 8],
                    fill=mix(fill, (255, 255, 255), 0.5),
                    outline=theme.INK_DARK,
                    width=3,
                )
                text_center(d, (al + C / 2, ab - 10), f"{info.low}/{info.high}", 11, theme.INK_DARK)
            name_cell = next((c for c in piece["cells"] if c != altar), first)
            nl, nt, nr, nb = cell_box(name_cell)
            text_center(
                d, ((nl + nr) / 2, (nt + nb) / 2), _initials(info.name), 16, ink, stroke=fill
            )
            continue
        mineral = piece.get("mineral") or "stone"
        for cell in piece["cells"]:
            left, top, right, bottom = cell_box(cell)
            draw_text(d, (left + 4, top + 2), letter, 14, ink)
            badge = theme.MINERAL_FILL[mineral]
            d.rectangle(
                [right - 19, top + 3, right - 3, top + 19], fill=badge, outline=theme.INK_DARK
            )
            text_center(
                d, (right - 11, top + 11), theme.RESOURCE_LETTER[mineral], 12, theme.INK_DARK
            )
        anchor = piece.get("anchor")
        if anchor:
            left, top, right, bottom = cell_box(anchor)
            box = [right - 22, bottom - 22, right - 4, bottom - 4]
            pedestal = piece.get("pedestal")
            if pedestal:
                d.rectangle(
                    [right - 26, bottom - 26, right - 3, bottom - 3],
                    fill=theme.CLAN[pedestal],
                    outline=theme.INK_DARK,
                    width=2,
                )
                text_center(
                    d,
                    (right - 14.5, bottom - 14.5),
                    theme.CLAN_LETTER[pedestal],
                    14,
                    contrast(theme.CLAN[pedestal]),
                )
            else:
                d.ellipse(box, fill=theme.INK_DARK, outline=ink, width=2)


@cache
def _hatch(fill: tuple[int, int, int], line: tuple[int, int, int]) -> Image.Image:
    tile = Image.new("RGB", (C + 1, C + 1), fill)
    td = ImageDraw.Draw(tile)
    for k in range(-C, C + 1, 12):
        td.line([(k, C), (k + C, 0)], fill=line, width=2)
    return tile


def _initials(name: str) -> str:
    words = [w for w in name.replace("'", "").split() if w]
    return "".join(w[0] for w in words).upper()[:3]


def _draw_workshops(d: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    for site, workshop in view["board"]["workshops"].items():
        left, top, right, bottom = cell_box(site)
        d.rectangle(
            [left + 2, top + 2, right - 2, bottom - 2],
            fill=theme.PANEL_LIGHT,
            outline=theme.INK,
            width=2,
        )
        text_center(
            d,
            ((left + right) / 2, (top + bottom) / 2 - 4),
            theme.WORKSHOP_SHORT.get(workshop, "?"),
            16,
            theme.INK,
        )
        text_center(d, ((left + right) / 2, bottom - 10), "shop", 10, theme.INK_DIM, "regular")


def _draw_workshop_legend(
    d: ImageDraw.ImageDraw, view: dict[str, Any], width: int, height: int
) -> None:
    """Full names of the established workshops under the board (cells show short ones)."""
    content = load_content()
    entries = [
        f"{site} {content.workshop(w).name}"
        for site, w in sorted(
            view["board"]["workshops"].items(), key=lambda kv: parse_cell(kv[0])[::-1]
        )
    ]
    top = height - FOOTER
    d.rectangle([0, top, width, height], fill=theme.PANEL)
    if not entries:
        text_center(
            d,
            (width / 2, top + FOOTER / 2),
            "No workshops established yet",
            16,
            theme.INK_DIM,
            "regular",
        )
        return
    lines: list[str] = [""]
    for entry in entries:
        candidate = f"{lines[-1]}   {entry}" if lines[-1] else f"Workshops: {entry}"
        if d.textlength(candidate, font=font(16)) > width - 24 and lines[-1]:
            lines.append(entry)
        else:
            lines[-1] = candidate
    for i, line in enumerate(lines[:2]):
        draw_text(d, (12, top + 18 + 24 * i), line, 16, theme.INK, "bold", "lm")


def _draw_statues(img: Image.Image, view: dict[str, Any]) -> None:
    covered = {c for p in view["board"]["pieces"] for c in p["cells"]}
    d = ImageDraw.Draw(img)
    for cell, clan in view["board"]["statues"].items():
        centre = cell_centre(cell)
        if cell in covered:
            paste(img, statue_icon(clan, 40), centre)
        else:  # still buried: smaller, in a dark ring
            left, top, right, bottom = cell_box(cell)
            d.ellipse([left + 9, top + 9, right - 9, bottom - 9], fill=theme.INK_DARK)
            paste(img, statue_icon(clan, 30), centre)


def _outline(d: ImageDraw.ImageDraw, cell: str, colour: tuple[int, int, int], width: int) -> None:
    left, top, right, bottom = cell_box(cell)
    d.rectangle([left + 1, top + 1, right - 1, bottom - 1], outline=theme.INK_DARK, width=width + 2)
    d.rectangle([left + 2, top + 2, right - 2, bottom - 2], outline=colour, width=width)


def _draw_preview(img: Image.Image, d: ImageDraw.ImageDraw, preview: Preview) -> None:
    colour = theme.GOOD if preview.legal else theme.BAD
    overlay = Image.new("RGBA", img.size, (0, 0, 0, 0))
    od = ImageDraw.Draw(overlay)
    for cell in preview.cells:
        if _on_image(img, cell):
            od.rectangle(cell_box(cell), fill=(*colour, 110))
    img.paste(overlay, (0, 0), overlay)
    for cell in preview.cells:
        if _on_image(img, cell):
            _outline(d, cell, colour, 4)
    if preview.anchor and _on_image(img, preview.anchor):
        left, top, right, bottom = cell_box(preview.anchor)
        d.ellipse(
            [right - 22, bottom - 22, right - 4, bottom - 4],
            fill=theme.INK_DARK,
            outline=colour,
            width=3,
        )
    if preview.reason_cell and _on_image(img, preview.reason_cell):
        left, top, right, bottom = cell_box(preview.reason_cell)
        d.line([(left + 8, top + 8), (right - 8, bottom - 8)], fill=theme.BAD, width=6)
        d.line([(left + 8, bottom - 8), (right - 8, top + 8)], fill=theme.BAD, width=6)


def _on_image(img: Image.Image, cell: str) -> bool:
    try:
        _, _, right, bottom = cell_box(cell)
    except ValueError:
        return False
    return right <= img.width - M and bottom <= img.height - M
