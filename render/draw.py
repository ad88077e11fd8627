"""Drawing helpers shared by every image: the bundled fonts, text fitted to its box,
resource and statue icons (drawn once per size and cached), and PNG encoding.

Text that has a box (every word of the catalogue has one) stays inside it whatever
the language: a line is drawn smaller, down to a floor that still reads (MIN_SIZE),
then cut with an ellipsis (only a long player name comes to that); a paragraph is
wrapped, then drawn smaller. `recording()` keeps every text drawn with its measured
glyph box and its box, so the tests check each image in every language.

Cached images are shared: callers paste them and never draw on them.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from render import theme
from render.theme import RGB
from render.words import ENGLISH, clan_letter

FONT_DIR = Path(__file__).parent / "fonts"
_FONT_FILES = {
    "regular": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "condensed": "DejaVuSansCondensed-Bold.ttf",
}


@cache
def font(size: int, style: str = "bold") -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_DIR / _FONT_FILES[style]), size)


MIN_SIZE = 11  # px: no text is fitted smaller (the board's "gate" label has always been 11)
LEADING = 1.27  # the distance between two lines of a wrapped text, in font sizes
ELLIPSIS = "…"
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Drawn:
    """One piece of text as it was drawn (kept while `recording()`): what the caller
    gave, the line actually drawn (maybe smaller, cut or one line of several), its size,
    where its glyphs' bounding box lies on the image and the box it had to stay in
    (None for a mark placed by hand: a coordinate, a letter in a cell)."""

    text: str
    shown: str
    size: int
    ink: Box
    box: Box | None


_drawn: ContextVar[list[Drawn] | None] = ContextVar("render_drawn", default=None)


@contextmanager
def recording() -> Iterator[list[Drawn]]:
    """Every text drawn in the block, in order (the tests check that each lies inside
    its box and that every word came from the catalogue)."""
    drawn: list[Drawn] = []
    token = _drawn.set(drawn)
    try:
        yield drawn
    finally:
        _drawn.reset(token)


def text_center(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    style: str = "bold",
    stroke: RGB | None = None,
    *,
    box: Box | None = None,
    floor: int | None = None,
) -> Box:
    """Draw `text` centred on `xy` (optionally with a thin outline for contrast); kept
    inside `box` if one is given (see `draw_text`)."""
    return draw_text(d, xy, text, size, fill, style, "mm", box=box, floor=floor, stroke=stroke)


def text_left(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    style: str = "bold",
    *,
    box: Box | None = None,
    floor: int | None = None,
) -> Box:
    return draw_text(d, xy, text, size, fill, style, "lm", box=box, floor=floor)


def draw_text(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    style: str = "bold",
    anchor: str = "la",
    *,
    box: Box | None = None,
    floor: int | None = None,
    stroke: RGB | None = None,
) -> Box:
    """One line of text at `xy` by its anchor; where its glyphs lie. With a `box`, the
    text stays inside it: when it does not fit at `size`, it is drawn smaller, down to
    `floor` (by default two thirds of `size`, never under MIN_SIZE), and cut with an
    ellipsis at the floor if it still does not fit (a long name)."""
    shown = text
    if box is not None:
        room = (box[0] - xy[0], box[1] - xy[1], box[2] - xy[0], box[3] - xy[1])
        shown, size, (dx, dy) = fit_line(text, size, style, anchor, room, floor)
        xy = (xy[0] + dx, xy[1] + dy)
    return _put(d, xy, text, shown, size, fill, style, anchor, stroke, box)


def _put(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    shown: str,
    size: int,
    fill: RGB,
    style: str,
    anchor: str,
    stroke: RGB | None,
    box: Box | None,
) -> Box:
    """Text through a cache of rendered glyph masks: rendering text is most of the
    time an image takes, and the same labels come back in every image."""
    if stroke is not None:
        # as ImageDraw.text draws it (the outline, then the letters unless they are the
        # outline's colour), each mask rendered once for where the text starts within a
        # pixel
        start = (math.modf(xy[0])[0], math.modf(xy[1])[0])
        for width, colour in ((1, stroke), (0, fill)):
            if width == 0 and colour == stroke:
                break
            mask, dx, dy = _stroked_mask(shown, size, style, anchor, width, start)
            d.bitmap((int(xy[0]) + dx, int(xy[1]) + dy), mask, fill=colour)
        left, top, right, bottom = _stroked_bbox(shown, size, style, anchor)
        ink = (xy[0] + left, xy[1] + top, xy[0] + right, xy[1] + bottom)
    else:
        mask, left, top = _text_mask(shown, size, style, anchor)
        x, y = round(xy[0] + left), round(xy[1] + top)
        if mask.width and mask.height:
            d.bitmap((x, y), mask, fill=fill)
        ink = (x, y, x + mask.width, y + mask.height)
    drawn = _drawn.get()
    if drawn is not None:
        drawn.append(Drawn(text, shown, size, ink, box))
    return ink


@lru_cache(maxsize=2048)
def _stroked_mask(
    text: str, size: int, style: str, anchor: str, stroke_width: int, start: tuple[float, float]
) -> tuple[Image.Image, int, int]:
    """The mask ImageDraw.text draws a line of text with (its outline's with a
    `stroke_width`, filled as ImageDraw.text fills it) and where it goes from the
    whole pixel of the text's position."""
    core, (dx, dy) = font(size, style).getmask2(
        text, "L", None, None, None, stroke_width, anchor, 0, start, stroke_filled=True
    )
    mask = Image.new("L", core.size)
    mask.im = core
    return mask, dx, dy


@lru_cache(maxsize=2048)
def _stroked_bbox(text: str, size: int, style: str, anchor: str) -> tuple[float, ...]:
    return tuple(font(size, style).getbbox(text, anchor=anchor, stroke_width=1))


@lru_cache(maxsize=8192)
def text_length(text: str, size: int, style: str = "bold") -> float:
    """How far a line of text advances (`FreeTypeFont.getlength`), measured once."""
    return font(size, style).getlength(text)


@lru_cache(maxsize=8192)
def _text_mask(text: str, size: int, style: str, anchor: str) -> tuple[Image.Image, int, int]:
    f = font(size, style)
    left, top, right, bottom = (int(v) for v in f.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(0, right - left), max(0, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor=anchor)
    return mask, left, top


def default_floor(size: int) -> int:
    return min(size, max(MIN_SIZE, size * 2 // 3))


@lru_cache(maxsize=8192)
def fit_line(
    text: str, size: int, style: str, anchor: str, room: Box, floor: int | None = None
) -> tuple[str, int, tuple[float, float]]:
    """The text, the largest size from `size` down to `floor` at which its glyphs fit
    in `room` (a box relative to the anchor point), and how far to move it so they lie
    inside (a letter may reach past the anchor: the hook of "Ƥ"); at the floor, the
    text cut with an ellipsis until it fits."""
    floor = default_floor(size) if floor is None else min(floor, size)
    for s in range(size, floor - 1, -1):
        shift = _shift(font(s, style).getbbox(text, anchor=anchor), room)
        if shift is not None:
            return text, s, shift
    f = font(floor, style)
    for end in range(len(text) - 1, 0, -1):
        cut = text[:end].rstrip() + ELLIPSIS
        shift = _shift(f.getbbox(cut, anchor=anchor), room)
        if shift is not None:
            return cut, floor, shift
    return ELLIPSIS, floor, (0, 0)


def _shift(ink: tuple[float, float, float, float], room: Box) -> tuple[float, float] | None:
    """The smallest move that puts `ink` inside `room`, or None if it is too big."""
    if ink[2] - ink[0] > room[2] - room[0] or ink[3] - ink[1] > room[3] - room[1]:
        return None
    dx = max(0.0, room[0] - ink[0]) - max(0.0, ink[2] - room[2])
    dy = max(0.0, room[1] - ink[1]) - max(0.0, ink[3] - room[3])
    return dx, dy


def fit_text(text: str, size: int, style: str, width: float) -> str:
    """`text`, cut with an ellipsis if it is wider than `width` pixels."""
    if text_length(text, size, style) <= width:
        return text
    for end in range(len(text) - 1, 0, -1):
        cut = text[:end].rstrip() + ELLIPSIS
        if text_length(cut, size, style) <= width:
            return cut
    return ELLIPSIS


@dataclass(frozen=True)
class Block:
    """A text wrapped into lines at one size: `line` pixels from one line's middle to
    the next, `height` the lines take in all."""

    lines: tuple[str, ...]
    size: int
    line: float

    @property
    def height(self) -> float:
        return len(self.lines) * self.line


@lru_cache(maxsize=4096)
def text_block(
    text: str,
    size: int,
    style: str,
    width: float,
    height: float | None = None,
    floor: int | None = None,
    joiner: str = " ",
) -> Block:
    """`text` wrapped to `width` at the largest size from `size` down to `floor` whose
    lines fit in `height` (any height when None). The text breaks at `joiner` (a
    longer one keeps pieces such as "S3 Stonemill" whole). At the floor, a word wider
    than the box is cut with an ellipsis, and lines past the height are left out, the
    last one kept ending in an ellipsis."""
    floor = default_floor(size) if floor is None else min(floor, size)
    pieces = text.split(joiner)
    block = Block((), size, size * LEADING)
    for s in range(size, floor - 1, -1):
        lines, whole = _wrap(pieces, joiner, s, style, width)
        block = Block(tuple(lines), s, round(s * LEADING))
        if whole and (height is None or block.height <= height):
            return block
    keep = max(1, int((height or 0) // block.line))
    lines = list(block.lines[:keep])
    if len(block.lines) > keep:
        lines[-1] = fit_text(lines[-1] + ELLIPSIS, block.size, style, width)
    return Block(tuple(lines), block.size, block.line)


def _wrap(
    pieces: list[str], joiner: str, size: int, style: str, width: float
) -> tuple[list[str], bool]:
    """The lines, and whether every piece fitted whole (a wider one is cut)."""
    lines: list[str] = []
    whole = True
    for piece in pieces:
        if lines and _ink_width(lines[-1] + joiner + piece, size, style) <= width:
            lines[-1] += joiner + piece
        elif _ink_width(piece, size, style) <= width:
            lines.append(piece)
        else:
            lines.append(fit_text(piece, size, style, width))
            whole = False
    return lines, whole


def _ink_width(text: str, size: int, style: str) -> float:
    """How wide the glyphs of a line are (a letter may reach past its advance)."""
    left, right = _extent(text, size, style)
    return right - min(left, 0)


@lru_cache(maxsize=8192)
def _extent(text: str, size: int, style: str) -> tuple[float, float]:
    """Where a line's glyphs begin and end, from its left-middle anchor."""
    left, _, right, _ = font(size, style).getbbox(text, anchor="lm")
    return left, right


def draw_block(
    d: ImageDraw.ImageDraw,
    box: Box,
    text: str,
    size: int,
    fill: RGB,
    style: str = "regular",
    *,
    align: str = "left",
    middle: bool = True,
    floor: int | None = None,
    joiner: str = " ",
) -> Block:
    """`text` wrapped into `box` (see `text_block`), each line aligned left, centre or
    right, the lines centred in the box's height (or from its top); the block drawn."""
    left, top, right, bottom = box
    block = text_block(text, size, style, right - left, bottom - top, floor, joiner)
    y = top + ((bottom - top - block.height) / 2 if middle else 0) + block.line / 2
    for k, line in enumerate(block.lines):
        # placed by its glyphs, so that a letter reaching past its advance stays inside
        ink_left, ink_right = _extent(line, block.size, style)
        x = {
            "left": left - min(ink_left, 0),
            "centre": (left + right - ink_left - ink_right) / 2,
            "right": right - ink_right,
        }[align]
        _put(d, (x, y + k * block.line), text, line, block.size, fill, style, "lm", None, box)
    return block


def contrast(rgb: RGB) -> RGB:
    """Dark or light ink, whichever reads better on `rgb`."""
    r, g, b = rgb
    return theme.INK_DARK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else theme.INK


def mix(a: RGB, b: RGB, t: float) -> RGB:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


@cache
def resource_icon(
    name: str,
    size: int,
    hollow: bool = False,
    clan: str | None = None,
    clan_mark: str | None = None,
) -> Image.Image:
    """A resource as a small picture: each has its own shape and letter, so it reads
    without colour. `hollow` is an empty symbol (room for the resource); `clan` marks a
    clan cart (its colour and `clan_mark`, the clan's letter in the image's language,
    English by default), a wild cart shows a star."""
    scale = 4  # draw large, then shrink: smooth edges
    s = size * scale
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    colour = theme.RESOURCE[name]
    fill = (*colour, 255) if not hollow else (0, 0, 0, 0)
    line = (*theme.INK_DARK, 255) if not hollow else (*theme.INK_DIM, 255)
    w = max(2, s // 14)
    m = s // 10
    if name == "stone":
        pts = [
            (s * 0.2, s * 0.35),
            (s * 0.45, s * 0.12),
            (s * 0.82, s * 0.25),
            (s * 0.9, s * 0.7),
            (s * 0.55, s * 0.9),
            (s * 0.15, s * 0.75),
        ]
        d.polygon(pts, fill=fill, outline=line, width=w)
    elif name == "iron":
        d.polygon(
            [
                (s * 0.22, s * 0.28),
                (s * 0.78, s * 0.28),
                (s * 0.92, s * 0.78),
                (s * 0.08, s * 0.78),
            ],
            fill=fill,
            outline=line,
            width=w,
        )
    elif name == "heartstone":
        d.polygon(
            [(s / 2, m), (s - m, s / 2), (s / 2, s - m), (m, s / 2)],
            fill=fill,
            outline=line,
            width=w,
        )
    elif name == "coin":
        d.ellipse([m, m, s - m, s - m], fill=fill, outline=line, width=w)
    elif name == "cart":
        d.rectangle([s * 0.12, s * 0.22, s * 0.88, s * 0.62], fill=fill, outline=line, width=w)
        for cx in (0.3, 0.7):
            d.ellipse([s * cx - s * 0.13, s * 0.6, s * cx + s * 0.13, s * 0.86], fill=line)
    elif name == "hammer":
        d.rectangle([s * 0.44, s * 0.3, s * 0.58, s * 0.92], fill=fill, outline=line, width=w)
        d.rectangle([s * 0.14, s * 0.1, s * 0.86, s * 0.36], fill=fill, outline=line, width=w)
    else:  # rune: a rounded tablet
        d.rounded_rectangle(
            [s * 0.18, m, s * 0.82, s - m], radius=s // 6, fill=fill, outline=line, width=w
        )
    letter = theme.RESOURCE_LETTER[name]
    if name == "cart":
        letter = (clan_mark or clan_letter(clan, ENGLISH)) if clan else "*"
        if clan:
            d.rectangle(
                [s * 0.12, s * 0.22, s * 0.88, s * 0.62],
                fill=(*theme.CLAN[clan], 255) if not hollow else (0, 0, 0, 0),
                outline=line,
                width=w,
            )
        text_y = s * 0.42
    elif name == "hammer":
        letter = ""
        text_y = s / 2
    else:
        text_y = s * 0.54
    if letter:
        ink = contrast(theme.CLAN[clan] if clan else colour) if not hollow else theme.INK_DIM
        d.text((s / 2, text_y), letter, font=font(int(s * 0.42)), fill=(*ink, 255), anchor="mm")
    return img.resize((size, size), Image.Resampling.LANCZOS)


@cache
def statue_icon(clan: str, size: int, mark: str | None = None) -> Image.Image:
    """A statue: a figure in its clan colour, a small head on a broad body that carries
    the clan letter (`mark`, English by default) large enough to read on a phone."""
    scale = 4
    s = size * scale
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    colour = (*theme.CLAN[clan], 255)
    line = (*theme.INK_DARK, 255)
    w = max(2, s // 16)
    d.ellipse([s * 0.34, s * 0.02, s * 0.66, s * 0.32], fill=colour, outline=line, width=w)
    d.rounded_rectangle(
        [s * 0.12, s * 0.28, s * 0.88, s * 0.98], radius=s // 7, fill=colour, outline=line, width=w
    )
    d.text(
        (s / 2, s * 0.64),
        mark or clan_letter(clan, ENGLISH),
        font=font(int(s * 0.56)),
        fill=(*contrast(theme.CLAN[clan]), 255),
        anchor="mm",
    )
    return img.resize((size, size), Image.Resampling.LANCZOS)


def pedestal(
    d: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    clan: str,
    size: int = 40,
    mark: str | None = None,
) -> None:
    """A pedestal of a clan: a plinth (cap, column, base) in the clan's colour with its
    letter (`mark`, English by default), shaped unlike the square mineral badge."""
    cx, cy = centre
    h = size / 2
    colour = theme.CLAN[clan]
    slab = max(4, size // 7)
    inset = max(3, size // 8)
    line = max(1, size // 20)
    d.rectangle(
        [cx - h + inset, cy - h, cx + h - inset, cy + h],
        fill=colour,
        outline=theme.INK_DARK,
        width=line,
    )
    d.rectangle(
        [cx - h + 1, cy - h, cx + h - 1, cy - h + slab],
        fill=colour,
        outline=theme.INK_DARK,
        width=line,
    )
    d.rectangle(
        [cx - h, cy + h - slab, cx + h, cy + h], fill=colour, outline=theme.INK_DARK, width=line
    )
    text_center(
        d,
        (cx, cy),
        mark or clan_letter(clan, ENGLISH),
        round(size * 0.55),
        contrast(colour),
        box=(cx - h + inset, cy - h + slab, cx + h - inset, cy + h - slab),
    )


def paste(base: Image.Image, icon: Image.Image, xy: tuple[float, float]) -> None:
    """Paste an RGBA icon centred on `xy`."""
    x = round(xy[0] - icon.width / 2)
    y = round(xy[1] - icon.height / 2)
    base.paste(icon, (x, y), icon)


PALETTE_STEP = 3  # the palette is chosen from every third pixel of every third row


def png_bytes(img: Image.Image) -> bytes:
    """Encode as PNG with fixed settings and no metadata, so equal images give equal
    bytes on every machine. zlib level 1: encoding is most of the time an image takes,
    and level 6 only saves about 15% of the bytes."""
    buf = io.BytesIO()
    # a 256-colour palette (our images use few colours) halves the bytes and the
    # encoding time; no dithering keeps flat areas flat and text crisp
    paletted(img).save(buf, format="PNG", optimize=False, compress_level=1)
    return buf.getvalue()


def paletted(img: Image.Image) -> Image.Image:
    """`img` in 256 colours: an octree palette (Pillow's FASTOCTREE: the 192 most used
    colours and 64 for the rest of the colour space) chosen from a sample of the pixels
    (every PALETTE_STEP-th of every PALETTE_STEP-th row; 56 px cells are not a multiple
    of 3, so a mark drawn in every cell is sampled somewhere), each pixel then the
    nearest colour of the palette. Sampling takes the octree's tally, most of the CPU
    an image took, down by nine (a board: 18 -> 6 ms), and the nearest colour is no
    worse than the octree's own mapping to its cube's colour (a board's mean error
    against its drawing 0.79 -> 0.77 levels a channel, at most 22 instead of 29)."""
    if img.mode != "RGB" or min(img.size) < 2 * PALETTE_STEP:
        return img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    sample = img.resize(
        (img.width // PALETTE_STEP, img.height // PALETTE_STEP), Image.Resampling.NEAREST
    )
    palette = sample.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return img.quantize(palette=palette, dither=Image.Dither.NONE)
