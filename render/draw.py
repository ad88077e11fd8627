"""Drawing helpers shared by every image: the bundled fonts, centred text, resource
and statue icons (drawn once per size and cached), and PNG encoding.

Cached images are shared: callers paste them and never draw on them.
"""

from __future__ import annotations

import io
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from render import theme
from render.theme import RGB

FONT_DIR = Path(__file__).parent / "fonts"
_FONT_FILES = {
    "regular": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "condensed": "DejaVuSansCondensed-Bold.ttf",
}


@cache
def font(size: int, style: str = "bold") -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_DIR / _FONT_FILES[style]), size)


def text_center(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    style: str = "bold",
    stroke: RGB | None = None,
) -> None:
    """Draw `text` centred on `xy` (optionally with a thin outline for contrast)."""
    if stroke is not None:
        d.text(
            xy,
            text,
            font=font(size, style),
            fill=fill,
            anchor="mm",
            stroke_width=1,
            stroke_fill=stroke,
        )
        return
    draw_text(d, xy, text, size, fill, style, "mm")


def text_left(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    style: str = "bold",
) -> None:
    draw_text(d, xy, text, size, fill, style, "lm")


def draw_text(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    style: str = "bold",
    anchor: str = "la",
) -> None:
    """Text through a cache of rendered glyph masks: rendering text is most of the
    time an image takes, and the same labels come back in every image."""
    mask, left, top = _text_mask(text, size, style, anchor)
    if mask.width and mask.height:
        d.bitmap((round(xy[0] + left), round(xy[1] + top)), mask, fill=fill)


@lru_cache(maxsize=8192)
def _text_mask(text: str, size: int, style: str, anchor: str) -> tuple[Image.Image, int, int]:
    f = font(size, style)
    left, top, right, bottom = (int(v) for v in f.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(0, right - left), max(0, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor=anchor)
    return mask, left, top


def fit_text(text: str, size: int, style: str, width: float) -> str:
    """`text`, cut with an ellipsis if it is wider than `width` pixels."""
    f = font(size, style)
    if f.getlength(text) <= width:
        return text
    for end in range(len(text) - 1, 0, -1):
        cut = text[:end].rstrip() + "…"
        if f.getlength(cut) <= width:
            return cut
    return "…"


def wrap_text(text: str, size: int, style: str, width: float) -> list[str]:
    """`text` broken into lines no wider than `width` pixels (a word longer than a line
    stands alone on its line)."""
    f = font(size, style)
    lines: list[str] = []
    for word in text.split():
        if lines and f.getlength(f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


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
    name: str, size: int, hollow: bool = False, clan: str | None = None
) -> Image.Image:
    """A resource as a small picture: each has its own shape and letter, so it reads
    without colour. `hollow` is an empty symbol (room for the resource); `clan` marks a
    clan cart (its clan letter), a wild cart shows a star."""
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
        letter = theme.CLAN_LETTER[clan] if clan else "*"
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
def statue_icon(clan: str, size: int) -> Image.Image:
    """A statue: a figure in its clan colour, a small head on a broad body that carries
    the clan letter large enough to read on a phone."""
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
        theme.CLAN_LETTER[clan],
        font=font(int(s * 0.56)),
        fill=(*contrast(theme.CLAN[clan]), 255),
        anchor="mm",
    )
    return img.resize((size, size), Image.Resampling.LANCZOS)


def pedestal(
    d: ImageDraw.ImageDraw, centre: tuple[float, float], clan: str, size: int = 40
) -> None:
    """A pedestal of a clan: a plinth (cap, column, base) in the clan's colour with its
    letter, shaped unlike the square mineral badge."""
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
    text_center(d, (cx, cy), theme.CLAN_LETTER[clan], round(size * 0.55), contrast(colour))


def paste(base: Image.Image, icon: Image.Image, xy: tuple[float, float]) -> None:
    """Paste an RGBA icon centred on `xy`."""
    x = round(xy[0] - icon.width / 2)
    y = round(xy[1] - icon.height / 2)
    base.paste(icon, (x, y), icon)


def png_bytes(img: Image.Image) -> bytes:
    """Encode as PNG with fixed settings and no metadata, so equal images give equal
    bytes on every machine. zlib level 1: encoding is most of the time an image takes,
    and level 6 only saves about 15% of the bytes."""
    buf = io.BytesIO()
    # a 256-colour palette (our images use few colours) halves the bytes and the
    # encoding time; no dithering keeps flat areas flat and text crisp
    paletted = img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    paletted.save(buf, format="PNG", optimize=False, compress_level=1)
    return buf.getvalue()
