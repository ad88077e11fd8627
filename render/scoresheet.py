"""The score sheet at the end: each player's (or team's) breakdown and the winner."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from render import theme
from render.draw import contrast, fit_text, font, png_bytes, text_center, text_left

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
WIDTH = 1000
ROW = 62
NAME_W = 290


def score_png(
    view: dict[str, Any], outcome: dict[str, Any], *, names: Mapping[int, str] | None = None
) -> bytes:
    """`outcome` is `rules.scoring.Outcome.to_json()`; `names` (seat -> display name)
    labels each player "Blue · alice" and names the winners."""
    return png_bytes(score_image(view, outcome, names=names))


def player_label(view: dict[str, Any], seat: int, names: Mapping[int, str] | None) -> str:
    """ "Blue · alice", or "Blue" without a name."""
    colour = str(view["players"][seat]["colour"]).capitalize()
    name = (names or {}).get(seat)
    return f"{colour} · {name}" if name else colour


def winner_line(view: dict[str, Any], seats: list[int], names: Mapping[int, str] | None) -> str:
    """ "Winner: alice (Blue)", "Winners: alice (Blue) & bob (Magenta)" for a team, or
    the colours alone without names."""
    parts = []
    for seat in sorted(seats):
        colour = str(view["players"][seat]["colour"]).capitalize()
        name = (names or {}).get(seat)
        parts.append(f"{name} ({colour})" if name else colour)
    return ("Winners: " if len(parts) > 1 else "Winner: ") + " & ".join(parts)


def score_image(
    view: dict[str, Any], outcome: dict[str, Any], *, names: Mapping[int, str] | None = None
) -> Image.Image:
    lines = outcome["breakdown"]
    height = 150 + ROW * (len(lines) + 1) + 40
    img = Image.new("RGB", (WIDTH, height), theme.BACKGROUND)
    d = ImageDraw.Draw(img)
    players = view["players"]
    winners = set(outcome["winning_seats"])
    text_center(d, (WIDTH / 2, 40), "The Mountain King is crowned", 30, theme.INK)
    winner = fit_text(winner_line(view, sorted(winners), names), 28, "bold", WIDTH - 40)
    text_center(d, (WIDTH / 2, 84), winner, 28, theme.GOOD)
    top = 130
    col_w = (WIDTH - NAME_W - 30) / len(COLUMNS)
    d.rectangle([15, top, WIDTH - 15, top + ROW], fill=theme.PANEL_LIGHT)
    for i, (_, title) in enumerate(COLUMNS):
        text_center(d, (NAME_W + 15 + col_w * (i + 0.5), top + ROW / 2), title, 16, theme.INK)
    ranked = sorted(lines, key=lambda b: -b["total"])
    for r, line in enumerate(ranked):
        y = top + ROW * (r + 1)
        d.rectangle([15, y, WIDTH - 15, y + ROW], fill=theme.PANEL if r % 2 else theme.BACKGROUND)
        seats: list[int] = line["seats"]
        x = 24
        for seat in seats:
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
        won = set(seats) == winners
        ink = theme.GOOD if won else theme.INK
        room = NAME_W + 10 - (x + 4)
        size = 18 if len(seats) == 1 else 16
        star = " ★" if won else ""
        star_w = font(size).getlength(star)
        step = 22 if len(seats) > 1 else 0
        for k, seat in enumerate(seats):
            label = fit_text(player_label(view, seat, names), size, "bold", room - star_w)
            ly = y + ROW / 2 + (k - (len(seats) - 1) / 2) * step
            text_left(d, (x + 4, ly), label + (star if k == 0 else ""), size, ink)
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
