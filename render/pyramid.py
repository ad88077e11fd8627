"""The pyramid image: one player's pyramid of troll cards (the rulebook's trollsmoot)
with what each troll holds or has room for, then their storage, pedestals, tokens and
honor."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from render import theme
from render.draw import (
    contrast,
    draw_text,
    fit_text,
    font,
    paste,
    pedestal,
    png_bytes,
    resource_icon,
    text_center,
    text_left,
)
from rules.actions import PYRAMID_ROWS
from rules.content import load_content
from rules.resources import RESOURCES

CARD_W, CARD_H, GAP = 204, 118, 12
PAD = 18
TITLE = 64
WIDTH = PAD * 2 + 4 * CARD_W + 3 * GAP
STORAGE_H = 196
HEIGHT = TITLE + 4 * (CARD_H + GAP) + STORAGE_H + PAD


def pyramid_png(
    view: dict[str, Any], seat: int, *, names: Mapping[int, str] | None = None
) -> bytes:
    """PNG bytes of the pyramid of the player in `seat`; `names` (seat -> display
    name) puts the player's name in the title."""
    return png_bytes(pyramid_image(view, seat, names=names))


def pyramid_image(
    view: dict[str, Any], seat: int, *, names: Mapping[int, str] | None = None
) -> Image.Image:
    player = view["players"][seat]
    account = view["accounts"][player["account"]]
    img = Image.new("RGB", (WIDTH, HEIGHT), theme.BACKGROUND)
    d = ImageDraw.Draw(img)
    colour = theme.PLAYER[player["colour"]]
    d.rectangle([0, 0, WIDTH, TITLE - 8], fill=colour)
    ink = contrast(colour)
    text_center(d, (34, (TITLE - 8) / 2), theme.PLAYER_LETTER[player["colour"]], 30, ink)
    pyramid = player["pyramid"]
    colour_word = player["colour"].capitalize()
    name = (names or {}).get(seat)
    right = f"{colour_word} · {len(pyramid)}/10 trolls" if name else f"{len(pyramid)}/10 trolls"
    draw_text(d, (WIDTH - PAD, (TITLE - 8) / 2), right, 22, ink, "bold", "rm")
    room = WIDTH - PAD - 62 - 24 - d.textlength(right, font=font(22))
    title = f"{name or colour_word}'s pyramid"
    text_left(d, (62, (TITLE - 8) / 2), fit_text(title, 26, "bold", room), 26, ink)
    open_slots = _open_slots(pyramid)
    for row_index, row in enumerate(PYRAMID_ROWS):
        y = TITLE + (3 - row_index) * (CARD_H + GAP)
        offset = PAD + row_index * (CARD_W + GAP) / 2
        for j, slot in enumerate(row):
            x = offset + j * (CARD_W + GAP)
            troll = pyramid.get(slot)
            if troll is None:
                _empty_slot(d, x, y, slot, slot in open_slots)
            else:
                _card(img, d, x, y, slot, troll)
    _storage(img, d, view, account, TITLE + 4 * (CARD_H + GAP))
    return img


def _open_slots(pyramid: dict[str, Any]) -> set[str]:
    out = set()
    for r in range(1, 4):
        for j, slot in enumerate(PYRAMID_ROWS[r]):
            below = PYRAMID_ROWS[r - 1][j : j + 2]
            if slot not in pyramid and all(b in pyramid for b in below):
                out.add(slot)
    return out


def _empty_slot(d: ImageDraw.ImageDraw, x: float, y: float, slot: str, is_open: bool) -> None:
    colour = theme.GOOD if is_open else theme.PANEL_LIGHT
    for k in range(0, CARD_W, 16):  # dashed frame
        d.line([(x + k, y), (x + min(k + 8, CARD_W), y)], fill=colour, width=2)
        d.line([(x + k, y + CARD_H), (x + min(k + 8, CARD_W), y + CARD_H)], fill=colour, width=2)
    for k in range(0, CARD_H, 16):
        d.line([(x, y + k), (x, y + min(k + 8, CARD_H))], fill=colour, width=2)
        d.line([(x + CARD_W, y + k), (x + CARD_W, y + min(k + 8, CARD_H))], fill=colour, width=2)
    text_center(d, (x + CARD_W / 2, y + CARD_H / 2 - 10), slot, 24, colour)
    if is_open:
        text_center(
            d, (x + CARD_W / 2, y + CARD_H / 2 + 18), "room for a recruit", 14, colour, "regular"
        )


def _card(
    img: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, slot: str, troll: dict[str, Any]
) -> None:
    card = load_content().trolls[troll["card"]]
    clan = card.clan.value
    colour = theme.CLAN[clan]
    d.rounded_rectangle(
        [x, y, x + CARD_W, y + CARD_H], radius=10, fill=theme.PANEL, outline=colour, width=3
    )
    d.rounded_rectangle([x, y, x + CARD_W, y + 34], radius=10, fill=colour)
    d.rectangle([x, y + 24, x + CARD_W, y + 34], fill=colour)
    ink = contrast(colour)
    text_left(d, (x + 10, y + 17), f"{slot} {theme.CLAN_NAME[clan]}", 18, ink)
    level = "start" if card.starting else "L" + str(card.level)
    draw_text(d, (x + CARD_W - 10, y + 17), level, 16, ink, "bold", "rm")
    n = len(card.produce)
    size = 40 if n <= 4 else 32
    spacing = (CARD_W - 16) / n
    for i, ((res, cart_clan), held) in enumerate(zip(card.produce, troll["held"], strict=True)):
        cx = x + 8 + spacing * (i + 0.5)
        cy = y + 34 + (CARD_H - 34) / 2 - 6
        paste(
            img,
            resource_icon(res.value, size, not held, cart_clan.value if cart_clan else None),
            (cx, cy),
        )
    held_count = sum(troll["held"])
    draw_text(
        d,
        (x + CARD_W - 8, y + CARD_H - 10),
        f"holds {held_count}/{n}",
        12,
        theme.INK_DIM,
        "regular",
        "rm",
    )


def _storage(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    account: dict[str, Any],
    top: int,
) -> None:
    d.rounded_rectangle([PAD, top, WIDTH - PAD, top + STORAGE_H - 10], radius=10, fill=theme.PANEL)
    text_left(d, (PAD + 14, top + 22), "Storage", 20, theme.INK)
    storage = account["storage"]
    step = (WIDTH - 2 * PAD - 28) / len(RESOURCES)
    for i, res in enumerate(RESOURCES):
        cx = PAD + 14 + step * (i + 0.5)
        paste(img, resource_icon(res.value, 44), (cx - 22, top + 66))
        n = storage.get(res.value, 0)
        draw_text(
            d, (cx + 4, top + 66), str(n), 28, theme.INK if n else theme.INK_DIM, "bold", "lm"
        )
    y = top + 122
    text_left(d, (PAD + 14, y), "Pedestals", 18, theme.INK)
    x = PAD + 130
    for clan in ("fire", "ice", "moon"):
        pedestal(d, (x + 14, y), clan, 30)
        draw_text(
            d, (x + 36, y), str(account["pedestals"].get(clan, 0)), 22, theme.INK, "bold", "lm"
        )
        x += 80
    tokens = account["tokens"]
    values = [t["value"] for t in tokens]
    if tokens and all(v is not None for v in values):
        token_text = f"Pedestal tokens: {len(tokens)} (worth {sum(values)})"
    else:
        token_text = f"Pedestal tokens: {len(tokens)} (face down)"
    text_left(d, (x + 20, y), token_text, 18, theme.INK)
    y2 = top + 160
    crowns = account["coronation"]
    crown_text = "Coronation: " + (
        ", ".join(f"{c} honor" for c in crowns) if crowns else "none yet"
    )
    text_left(d, (PAD + 14, y2), crown_text, 18, theme.INK)
    honor = account["tunnel_honor"] + account["spell_honor"]
    draw_text(
        d, (WIDTH - PAD - 14, y2), f"Honor on the track: {honor}", 20, theme.INK, "bold", "rm"
    )
