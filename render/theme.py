"""Colours, sizes and letters: the look of every image, as data.

Player colours are bright and the mountain's tiers dark and earthy, so a tunnel stands
out from the rock it is dug in for everyone: tests/render/test_palette.py checks every
player colour against every tier, the Heart and each other, for normal vision and
simulated deuteranopia, protanopia and tritanopia (render/vision.py). Every colour also
comes with a letter (the players' and clans' are words of a language: render/words.py)
or a shape, so nothing is told by colour alone.
"""

from __future__ import annotations

from rules.content import load_content

RGB = tuple[int, int, int]

BACKGROUND: RGB = (24, 26, 32)
PANEL: RGB = (38, 41, 50)
PANEL_LIGHT: RGB = (58, 62, 74)
INK: RGB = (240, 240, 236)
INK_DIM: RGB = (170, 172, 178)
INK_DARK: RGB = (20, 20, 24)
HIGHLIGHT: RGB = (255, 255, 255)
GOOD: RGB = (120, 220, 140)
BAD: RGB = (255, 90, 90)

PLAYER: dict[str, RGB] = {
    "blue": (0, 76, 165),
    "orange": (250, 150, 0),
    "green": (40, 172, 138),
    "magenta": (190, 120, 220),
    "white": (236, 236, 232),
}
NOBODY: RGB = (150, 150, 150)

# tiers 1 (outermost, dark gray) to 5 (innermost, yellow), the rulebook's colours kept
# dark so that the players' colours stand out from them
TIER: dict[str, RGB] = {
    "1": (44, 44, 52),
    "2": (72, 70, 72),
    "3": (100, 76, 54),
    "4": (120, 52, 12),
    "5": (130, 96, 14),
}
HEART: RGB = (150, 20, 45)
OFF_BOARD: RGB = BACKGROUND
GRID: RGB = (30, 30, 34)
RUBBLE: RGB = (168, 158, 144)

CLAN: dict[str, RGB] = {
    "mud": (121, 96, 70),
    "fire": (213, 94, 0),
    "ice": (86, 180, 233),
    "moon": (150, 130, 210),
}
# resource letters come from the game content, so images and text agree

RESOURCE: dict[str, RGB] = {
    "stone": (150, 150, 146),
    "iron": (90, 120, 150),
    "heartstone": (200, 40, 70),
    "coin": (232, 190, 40),
    "cart": (150, 100, 55),
    "hammer": (178, 180, 188),
    "rune": (140, 90, 200),
}
RESOURCE_LETTER = {r.id: r.letter for r in load_content().resources}
MINERAL_FILL: dict[str, RGB] = {
    "stone": (168, 168, 162),
    "iron": (120, 150, 180),
    "heartstone": (220, 90, 110),
}


CELL = 56  # board cell size in pixels
MARGIN = 34  # board coordinate margins
