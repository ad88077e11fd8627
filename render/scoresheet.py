"""The score sheet at the end: each player's (or team's) breakdown and the winner."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render import theme
from render.draw import contrast, font, png_bytes, text_center, text_left

COLUMNS = (
    ("tunnels", "Tunnels"),
    ("spells", "Rituals"),
    ("coronation", "Crown"),
    ("pedestals", "Pedestal"),
    ("sets", "Sets"),
    ("halls", "Halls"),
    ("statues", "Statues"),
    ("total", "Total"),
)
WIDTH = 900
ROW = 58
NAME_W = 190


def score_png(view: dict[str, Any], outcome: dict[str, Any]) -> bytes:
    """`outcome` is `rules.scoring.Outcome.to_json()`."""
    return png_bytes(score_image(view, outcome))


def score_image(view: dict[str, Any], outcome: dict[str, Any]) -> Image.Image:
    lines = outcome["breakdown"]
    height = 150 + ROW * (len(lines) + 1) + 40
    img = Image.new("RGB", (WIDTH, height), theme.BACKGROUND)
    d = ImageDraw.Draw(img)
    players = view["players"]
    winners = set(outcome["winning_seats"])
    names = " & ".join(players[s]["colour"].capitalize() for s in sorted(winners))
    text_center(d, (WIDTH / 2, 40), "The Mountain King is crowned", 30, theme.INK)
    text_center(d, (WIDTH / 2, 84), f"Winner: {names}", 28, theme.GOOD)
    top = 130
    col_w = (WIDTH - NAME_W - 30) / len(COLUMNS)
    d.rectangle([15, top, WIDTH - 15, top + ROW], fill=theme.PANEL_LIGHT)
    for i, (_, title) in enumerate(COLUMNS):
        text_center(d, (NAME_W + 15 + col_w * (i + 0.5), top + ROW / 2), title, 16, theme.INK)
    ranked = sorted(lines, key=lambda b: -b["total"])
    for r, line in enumerate(ranked):
        y = top + ROW * (r + 1)
        d.rectangle([15, y, WIDTH - 15, y + ROW], fill=theme.PANEL if r % 2 else theme.BACKGROUND)
        x = 24
        for seat in line["seats"]:
            colour = theme.PLAYER[players[seat]["colour"]]
            d.rounded_rectangle([x, y + 12, x + 34, y + ROW - 12], radius=6, fill=colour)
            text_center(
                d,
                (x + 17, y + ROW / 2),
                theme.PLAYER_LETTER[players[seat]["colour"]],
                20,
                contrast(colour),
            )
            x += 40
        label = "team" if len(line["seats"]) > 1 else players[line["seats"][0]]["colour"]
        winner = set(line["seats"]) == winners
        text_left(
            d,
            (x + 4, y + ROW / 2),
            label + (" ★" if winner else ""),
            16 if len(line["seats"]) > 1 else 18,
            theme.GOOD if winner else theme.INK,
        )
        for i, (key, _) in enumerate(COLUMNS):
            value = line[key]
            size = 24 if key == "total" else 20
            ink = theme.INK if value else theme.INK_DIM
            text_center(d, (NAME_W + 15 + col_w * (i + 0.5), y + ROW / 2), str(value), size, ink)
    d.text(
        (WIDTH / 2, height - 24),
        "Ties go to the lower sum of recruited troll levels, then to the later seat.",
        font=font(14, "regular"),
        fill=theme.INK_DIM,
        anchor="mm",
    )
    return img
