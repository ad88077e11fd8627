"""The score sheet at the end: each player's (or team's) breakdown and the winner."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from render import theme
from render.draw import (
    contrast,
    draw_block,
    draw_text,
    png_bytes,
    text_block,
    text_center,
    text_left,
    text_length,
)
from render.words import ENGLISH, Translator, colour_name, player_letter
from rules.view import View

COLUMNS = ("tunnels", "spells", "coronation", "pedestals", "sets", "halls", "statues", "total")
WIDTH = 1000
ROW = 62
NAME_W = 290
NOTE = 14  # the tie-break note's size


def column_titles(m: Translator) -> dict[str, str]:
    """Each column's title, by the outcome's key."""
    return {
        "tunnels": m.pgettext("score sheet", "Tunnels"),
        "spells": m.pgettext("score sheet", "Rituals"),
        "coronation": m.pgettext("score sheet", "Crown"),
        "pedestals": m.pgettext("score sheet", "Pedestal"),
        "sets": m.pgettext("score sheet", "Sets"),
        "halls": m.pgettext("score sheet", "Halls"),
        "statues": m.pgettext("score sheet", "Statues"),
        "total": m.pgettext("score sheet", "Total"),
    }


def score_png(
    view: View,
    outcome: dict[str, Any],
    *,
    names: Mapping[int, str] | None = None,
    messages: Translator = ENGLISH,
) -> bytes:
    """`outcome` is `rules.scoring.Outcome.to_json()`; `names` (seat -> display name)
    labels each player "Blue · alice" and names the winners; the words in the language
    of `messages`."""
    return png_bytes(score_image(view, outcome, names=names, messages=messages))


def player_label(
    view: View,
    seat: int,
    names: Mapping[int, str] | None,
    messages: Translator = ENGLISH,
) -> str:
    """ "Blue · alice", or "Blue" without a name."""
    colour = colour_name(view["players"][seat]["colour"], messages)
    name = (names or {}).get(seat)
    return (
        messages.pgettext("score sheet", "{colour} · {name}", colour=colour, name=name)
        if name
        else colour
    )


def winner_line(
    view: View,
    seats: list[int],
    names: Mapping[int, str] | None,
    messages: Translator = ENGLISH,
) -> str:
    """ "Winner: alice (Blue)", "Winners: alice (Blue) & bob (Magenta)" for a team, or
    the colours alone without names."""
    parts = []
    for seat in sorted(seats):
        colour = colour_name(view["players"][seat]["colour"], messages)
        name = (names or {}).get(seat)
        parts.append(
            messages.gettext("{name} ({colour})", name=name, colour=colour) if name else colour
        )
    return messages.ngettext(
        "Winner: {players}", "Winners: {players}", len(parts), players=" & ".join(parts)
    )


def score_image(
    view: View,
    outcome: dict[str, Any],
    *,
    names: Mapping[int, str] | None = None,
    messages: Translator = ENGLISH,
) -> Image.Image:
    m = messages
    lines = outcome["breakdown"]
    note = m.pgettext(
        "score sheet", "Ties go to the lower sum of recruited troll levels, then to the later seat."
    )
    note_h = text_block(note, NOTE, "regular", WIDTH - 40).height
    table_bottom = 130 + ROW * (len(lines) + 1)
    height = table_bottom + 16 + note_h + 12
    img = Image.new("RGB", (WIDTH, round(height)), theme.BACKGROUND)
    d = ImageDraw.Draw(img)
    players = view["players"]
    winners = set(outcome["winning_seats"])
    title = m.pgettext("score sheet", "The Mountain King is crowned")
    text_center(d, (WIDTH / 2, 40), title, 30, theme.INK, box=(20, 18, WIDTH - 20, 62))
    winner = winner_line(view, sorted(winners), names, m)
    text_center(d, (WIDTH / 2, 84), winner, 28, theme.GOOD, box=(20, 64, WIDTH - 20, 104))
    top = 130
    col_w = (WIDTH - NAME_W - 30) / len(COLUMNS)
    d.rectangle([15, top, WIDTH - 15, top + ROW], fill=theme.PANEL_LIGHT)
    titles = column_titles(m)
    for i, key in enumerate(COLUMNS):
        left = NAME_W + 15 + col_w * i
        box = (left + 3, top + 4, left + col_w - 3, top + ROW - 4)
        draw_block(d, box, titles[key], 16, theme.INK, "bold", align="centre", floor=12)
    ranked = sorted(lines, key=lambda b: -b["total"])
    for r, line in enumerate(ranked):
        y = top + ROW * (r + 1)
        d.rectangle([15, y, WIDTH - 15, y + ROW], fill=theme.PANEL if r % 2 else theme.BACKGROUND)
        seats: list[int] = line["seats"]
        x = 24
        for seat in seats:
            colour = theme.PLAYER[players[seat]["colour"]]
            d.rounded_rectangle([x, y + 12, x + 34, y + ROW - 12], radius=6, fill=colour)
            letter = player_letter(players[seat]["colour"], m)
            box = (x + 2, y + 14, x + 32, y + ROW - 14)
            text_center(d, (x + 17, y + ROW / 2), letter, 20, contrast(colour), box=box)
            x += 40
        won = set(seats) == winners
        ink = theme.GOOD if won else theme.INK
        size = 18 if len(seats) == 1 else 16
        star = "★" if won else ""
        star_w = text_length(" " + star, size) if star else 0
        step = 22 if len(seats) > 1 else 0
        for k, seat in enumerate(seats):
            label = player_label(view, seat, names, m)
            ly = y + ROW / 2 + (k - (len(seats) - 1) / 2) * step
            half = (step or ROW) / 2
            room = (x + 4, ly - half, NAME_W + 10 - star_w, ly + half)
            ink_box = text_left(d, (x + 4, ly), label, size, ink, box=room, floor=12)
            if star and k == 0:
                star_box = (ink_box[2], ly - half, NAME_W + 10, ly + half)
                draw_text(d, (ink_box[2] + star_w, ly), star, size, ink, "bold", "rm", box=star_box)
        for i, key in enumerate(COLUMNS):
            value = line[key]
            size = 24 if key == "total" else 20
            ink = theme.INK if value else theme.INK_DIM
            text_center(d, (NAME_W + 15 + col_w * (i + 0.5), y + ROW / 2), str(value), size, ink)
    note_box = (20, table_bottom + 12, WIDTH - 20, table_bottom + 16 + note_h)
    draw_block(d, note_box, note, NOTE, theme.INK_DIM, align="centre")
    return img
