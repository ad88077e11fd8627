"""The look of Cave Troll's images, as data and small cached pictures: the cave's
colours, each player's shape, the pieces and tokens.

The players' colours are the table's (`render.theme.PLAYER`: blue, orange, green,
magenta, chosen and tested for colour-blind players with the Mountain King), and the
rooms are the Mountain King's dark tier colours, one a gold value (1 dark gray to 5
olive gold), so a piece stands out from every room for everyone: the test
(tests/render/test_ct_images.py) checks each player colour against each floor of the
cave for normal vision and simulated deuteranopia, protanopia and tritanopia, as
test_palette.py does for the mountain. Nothing is told by colour alone: each colour
has its own shape (blue a circle, orange a square, green a diamond, magenta a
triangle), each kind of piece its letter (render.cave_troll.words), and a monster is
drawn hollow (dark inside, its player's colour around) where an adventurer is solid.
"""

from __future__ import annotations

import math
from functools import cache

from PIL import Image, ImageDraw

from render import theme
from render.draw import MIN_SIZE, contrast, text_center
from render.theme import RGB

ROOM: dict[int, RGB] = {int(tier): rgb for tier, rgb in theme.TIER.items()}
ENTRANCE: RGB = (60, 34, 28)  # dark red earth: blue is too dark for a gray
PIT: RGB = (10, 10, 14)
WALL: RGB = (8, 8, 10)
DOOR: RGB = (214, 178, 120)
COIN: RGB = (232, 190, 40)
TROLL_HATCH: RGB = (12, 4, 4)
FLIGHT: RGB = (255, 214, 10)
CHANGED: RGB = theme.HIGHLIGHT
MONSTER_FILL: RGB = (20, 20, 24)
NEUTRAL: RGB = (176, 176, 180)  # the map key's pieces, of no player
FLOORS: dict[str, RGB] = {
    **{f"room worth {value}": rgb for value, rgb in ROOM.items()},
    "an entrance": ENTRANCE,
    "the pit": PIT,
}

SHAPES = ("circle", "square", "diamond", "triangle")
SHAPE: dict[str, str] = {
    "blue": "circle",
    "orange": "square",
    "green": "diamond",
    "magenta": "triangle",
}
GROWN = {"triangle": 1.12}
# the side of the square a letter has inside each shape, as a share of the shape's
INSIDE = {"circle": 0.7, "square": 0.7, "diamond": 0.56, "triangle": 0.5}
SCALE = 4  # tokens are drawn this much larger, then shrunk: smooth edges


def player_rgb(colour: str) -> RGB:
    return theme.PLAYER.get(colour, theme.NOBODY)


def shape_of(colour: str) -> str:
    return SHAPE.get(colour, "circle")


def _outline(shape: str, s: float) -> list[tuple[float, float]] | tuple[float, ...]:
    """The shape's points in a square of side `s` (a circle: its bounding box)."""
    if shape == "circle":
        m = s * 0.06
        return (m, m, s - m, s - m)
    if shape == "square":
        m = s * 0.12
        return [(m, m), (s - m, m), (s - m, s - m), (m, s - m)]
    if shape == "diamond":
        m = s * 0.01
        return [(s / 2, m), (s - m, s / 2), (s / 2, s - m), (m, s / 2)]
    # an upward triangle, its base a little wider than the square's side
    return [(s / 2, s * 0.02), (s * 0.99, s * 0.9), (s * 0.01, s * 0.9)]


def _letter_centre(shape: str, size: int) -> tuple[float, float]:
    return (size / 2, size * (0.63 if shape == "triangle" else 0.5))


def letter_size(shape: str, size: int) -> int:
    """The letter that fits inside the shape."""
    share = {"circle": 0.62, "square": 0.62, "diamond": 0.52, "triangle": 0.48}[shape]
    return max(11, round(size * share))


@cache
def token(colour: RGB, shape: str, letter: str, monster: bool, size: int) -> Image.Image:
    """A piece: `shape` filled with `colour` and its letter (an adventurer), or dark
    inside with a thick ring of `colour` and a light letter (a monster). Cached: paste it, never
    draw on it."""
    # a triangle covers less of its square than the other shapes: drawn larger, so
    # that all four look alike in size and its letter fits
    size = round(size * GROWN.get(shape, 1.0))
    s = size * SCALE
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    points = _outline(shape, s)
    fill = MONSTER_FILL if monster else colour
    ring = colour if monster else WALL
    width = round(s * ((0.11 if shape == "triangle" else 0.16) if monster else 0.06))
    if shape == "circle":
        assert isinstance(points, tuple)
        d.ellipse(points, fill=(*fill, 255), outline=(*ring, 255), width=width)
    else:
        assert isinstance(points, list)
        d.polygon(points, fill=(*fill, 255), outline=(*ring, 255), width=width)
    small = img.resize((size, size), Image.Resampling.LANCZOS)
    if letter:
        ink = theme.INK if monster else contrast(colour)
        cx, cy = _letter_centre(shape, size)
        half = size * INSIDE[shape] / 2
        text_center(
            ImageDraw.Draw(small),
            (cx, cy),
            letter,
            letter_size(shape, size),
            ink,
            box=(cx - half, cy - half, cx + half, cy + half),
            floor=MIN_SIZE,
        )
    return small


@cache
def treasure(size: int, label: str) -> Image.Image:
    """A Treasure: a gold chest with its bonus written on it ("+4")."""
    s = size * SCALE
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    box = (s * 0.04, s * 0.2, s * 0.96, s * 0.84)
    d.rounded_rectangle(
        box, radius=s * 0.12, fill=(*COIN, 255), outline=(*WALL, 255), width=s // 16
    )
    d.line((box[0], s * 0.42, box[2], s * 0.42), fill=(*WALL, 255), width=s // 24)
    small = img.resize((size, size), Image.Resampling.LANCZOS)
    text_center(ImageDraw.Draw(small), (size / 2, size * 0.6), label, round(size * 0.4), WALL)
    return small


@cache
def mark(colour: RGB, shape: str, size: int) -> Image.Image:
    """A Mark of El'darra: a star in its player's colour on their shape."""
    s = size * SCALE
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    points = _outline(shape, s)
    if isinstance(points, tuple):
        d.ellipse(points, fill=(*MONSTER_FILL, 255), outline=(*colour, 255), width=s // 12)
    else:
        d.polygon(points, fill=(*MONSTER_FILL, 255), outline=(*colour, 255), width=s // 12)
    cx, cy = s / 2, s * (0.58 if shape == "triangle" else 0.5)
    r = s * (0.24 if shape in ("diamond", "triangle") else 0.32)
    star = []
    for k in range(16):
        reach = r if k % 2 == 0 else r * 0.42
        angle = k * math.pi / 8
        star.append((cx + reach * math.sin(angle), cy - reach * math.cos(angle)))
    d.polygon(star, fill=(*colour, 255))
    return img.resize((size, size), Image.Resampling.LANCZOS)


@cache
def event(kind: str, size: int) -> Image.Image:
    """An event token of a stack: "Count the Loot!" as a pile of coins, "Find an
    Artifact" as a face-down card with a question mark."""
    s = size * SCALE
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    line = (*WALL, 255)
    if kind == "tally":
        for cx, cy in ((0.32, 0.68), (0.68, 0.68), (0.5, 0.36)):
            r = s * 0.22
            d.ellipse(
                (s * cx - r, s * cy - r, s * cx + r, s * cy + r),
                fill=(*COIN, 255),
                outline=line,
                width=s // 20,
            )
        return img.resize((size, size), Image.Resampling.LANCZOS)
    d.rounded_rectangle(
        (s * 0.2, s * 0.06, s * 0.8, s * 0.94),
        radius=s * 0.1,
        fill=(*NEUTRAL, 255),
        outline=line,
        width=s // 16,
    )
    small = img.resize((size, size), Image.Resampling.LANCZOS)
    text_center(ImageDraw.Draw(small), (size / 2, size / 2), "?", round(size * 0.5), WALL)
    return small
