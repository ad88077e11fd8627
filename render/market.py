"""The market image: the horde (with bribes, pedestals and the choose-a-pedestal
marker), the spellbook with the runes on each spell, the workshop supply, and the
tunnel tiles and great halls left."""

from __future__ import annotations

import textwrap
from collections import Counter
from typing import Any

from PIL import Image, ImageDraw

from render import theme
from render.draw import (
    contrast,
    draw_text,
    font,
    paste,
    pedestal,
    png_bytes,
    resource_icon,
    text_center,
    text_left,
)
from rules.content import load_content

WIDTH = 900
PAD = 16
HORDE_W, HORDE_H, GAP = 162, 104, 10
SPELL_W, SPELL_H = 278, 168


def market_png(view: dict[str, Any]) -> bytes:
    return png_bytes(market_image(view))


def market_image(view: dict[str, Any]) -> Image.Image:
    content = load_content()
    height = 1180
    img = Image.new("RGB", (WIDTH, height), theme.BACKGROUND)
    d = ImageDraw.Draw(img)
    y = PAD
    text_left(d, (PAD, y + 14), "The horde", 24, theme.INK)
    decks = view["decks"]
    draw_text(
        d,
        (WIDTH - PAD, y + 14),
        f"decks: L1 {decks[0]} · L2 {decks[1]} · L3 {decks[2]}",
        16,
        theme.INK_DIM,
        "regular",
        "rm",
    )
    y += 36
    for level in (3, 2, 1):
        row = view["horde"][level - 1]
        offset = (WIDTH - (len(row) * HORDE_W + (len(row) - 1) * GAP)) / 2
        for j, slot in enumerate(row):
            _horde_card(img, d, offset + j * (HORDE_W + GAP), y, f"{level}.{j + 1}", level, slot)
        y += HORDE_H + GAP
    bag = view["bag"]
    bag_text = (
        ", ".join(f"{n} {clan}" for clan, n in bag.items()) if isinstance(bag, dict) else str(bag)
    )
    text_left(d, (PAD, y + 10), f"Pedestal bag: {bag_text or 'empty'}", 16, theme.INK_DIM)
    crowns = view["coronation_left"]
    d.text(
        (WIDTH - PAD, y + 10),
        "Coronation tokens left: " + (", ".join(map(str, crowns)) or "none"),
        font=font(16),
        fill=theme.INK,
        anchor="rm",
    )
    y += 34
    text_left(d, (PAD, y + 14), "Spellbook", 24, theme.INK)
    draw_text(
        d,
        (WIDTH - PAD, y + 14),
        f"{view['spell_deck']} spells in the deck",
        16,
        theme.INK_DIM,
        "regular",
        "rm",
    )
    y += 34
    for i, slot in enumerate(view["spellbook"]):
        _spell_card(d, PAD + i * (SPELL_W + 11), y, slot)
    y += SPELL_H + 18
    text_left(d, (PAD, y + 14), "Workshops in the supply", 24, theme.INK)
    y += 36
    supply = Counter(view["workshop_supply"])
    x = PAD
    for workshop, n in sorted(supply.items()):
        name = content.workshop(workshop).name + (f" ×{n}" if n > 1 else "")
        w = round(d.textlength(name, font=font(16))) + 20
        if x + w > WIDTH - PAD:
            x = PAD
            y += 34
        d.rounded_rectangle([x, y, x + w, y + 28], radius=6, fill=theme.PANEL_LIGHT)
        text_center(d, (x + w / 2, y + 14), name, 16, theme.INK)
        x += w + 8
    if not supply:
        text_left(d, (PAD, y + 14), "none left", 16, theme.INK_DIM)
    y += 46
    text_left(d, (PAD, y + 14), "Tunnel tiles left", 24, theme.INK)
    y += 36
    x = PAD
    left = view["tunnels_left"]
    for tile in content.tunnels:
        n = left.get(tile.id, 0)
        w = _shape(
            d, x, y, tile.rows, 11, theme.MINERAL_FILL["stone"] if n else theme.PANEL_LIGHT, "o"
        )
        draw_text(
            d, (x + w + 4, y + 10), f"×{n}", 16, theme.INK if n else theme.INK_DIM, "bold", "lm"
        )
        text_left(d, (x, y + 46), tile.id, 12, theme.INK_DIM)  # under its shape
        x += max(w, 30) + 44
        if x > WIDTH - 90:
            x = PAD
            y += 84
    y += 90
    text_left(d, (PAD, y + 14), "Great halls left", 24, theme.INK)
    y += 36
    x = PAD
    for hall in content.halls:
        available = hall.id in view["halls_left"]
        colour = (200, 200, 200) if available else theme.PANEL_LIGHT
        w = _shape(d, x, y, hall.rows, 14, colour, "A")
        ink = theme.INK if available else theme.INK_DIM
        lines = textwrap.wrap(hall.name, 14)
        for k, line in enumerate(lines):
            text_left(d, (x, y + 58 + 16 * k), line, 13, ink)
        text_left(d, (x, y + 60 + 16 * len(lines)), f"{hall.low} / {hall.high} with altar", 12, ink)
        x += max(w, 128) + 20
    return img.crop((0, 0, WIDTH, y + 118))


def _horde_card(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    x: float,
    y: float,
    name: str,
    level: int,
    slot: dict[str, Any],
) -> None:
    card_id = slot["card"]
    if card_id is None:
        d.rounded_rectangle(
            [x, y, x + HORDE_W, y + HORDE_H], radius=8, outline=theme.PANEL_LIGHT, width=2
        )
        text_center(d, (x + HORDE_W / 2, y + HORDE_H / 2), f"{name} empty", 16, theme.INK_DIM)
        return
    card = load_content().trolls[card_id]
    clan = card.clan.value
    colour = theme.CLAN[clan]
    d.rounded_rectangle(
        [x, y, x + HORDE_W, y + HORDE_H], radius=8, fill=theme.PANEL, outline=colour, width=3
    )
    d.rectangle([x + 2, y + 2, x + HORDE_W - 2, y + 26], fill=colour)
    ink = contrast(colour)
    text_left(d, (x + 8, y + 14), f"{name} {theme.CLAN_NAME[clan]}", 16, ink)
    draw_text(d, (x + HORDE_W - 8, y + 14), f"L{card.level}", 15, ink, "bold", "rm")
    n = len(card.produce)
    step = (HORDE_W - 10) / n
    for i, (res, cart_clan) in enumerate(card.produce):
        paste(
            img,
            resource_icon(res.value, 30, False, cart_clan.value if cart_clan else None),
            (x + 5 + step * (i + 0.5), y + 48),
        )
    bribes = slot["bribes"]
    cost = {1: "free", 2: "2 bribes", 3: "5 bribes"}[level]
    text_left(d, (x + 8, y + 86), cost, 12, theme.INK_DIM)
    if bribes:
        counts = Counter(bribes)
        bx = x + 8 + d.textlength(cost, font=font(12)) + 16
        for res, k in sorted(counts.items()):
            paste(img, resource_icon(res, 20), (bx, y + 86))
            draw_text(d, (bx + 12, y + 86), f"×{k}", 13, theme.INK, "bold", "lm")
            bx += 42
    if slot.get("pedestal"):
        pedestal(d, (x + HORDE_W - 19, y + 85), slot["pedestal"], 24)
    elif level == 3:
        d.rectangle([x + HORDE_W - 30, y + 74, x + HORDE_W - 8, y + 96], outline=theme.INK, width=2)
        text_center(d, (x + HORDE_W - 19, y + 85), "?", 14, theme.INK)


def _spell_card(d: ImageDraw.ImageDraw, x: float, y: float, slot: dict[str, Any]) -> None:
    spell = load_content().spell(slot["spell"])
    d.rounded_rectangle(
        [x, y, x + SPELL_W, y + SPELL_H],
        radius=10,
        fill=theme.PANEL,
        outline=(140, 90, 200),
        width=3,
    )
    size = 18
    while size > 11 and d.textlength(spell.name, font=font(size)) > SPELL_W - 90:
        size -= 1
    text_left(d, (x + 10, y + 18), spell.name, size, theme.INK)
    runes = slot["runes"]
    for k in range(3):
        cx = x + SPELL_W - 20 - (2 - k) * 22
        filled = k < runes
        d.ellipse(
            [cx - 8, y + 10, cx + 8, y + 26],
            fill=theme.RESOURCE["rune"] if filled else theme.PANEL,
            outline=theme.INK if filled else theme.INK_DIM,
            width=2,
        )
    text_left(d, (x + 10, y + 40), f"runes {runes}/3", 12, theme.INK_DIM)
    lines = textwrap.wrap(spell.text, 36)[:7]
    for i, line in enumerate(lines):
        draw_text(d, (x + 10, y + 54 + i * 15), line, 13, theme.INK, "regular")


def _shape(
    d: ImageDraw.ImageDraw,
    x: float,
    y: float,
    rows: list[str],
    cell: int,
    colour: tuple[int, int, int],
    mark: str,
) -> int:
    """Draw a polyomino from its rows; return its width in pixels."""
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == ".":
                continue
            box = [x + c * cell, y + r * cell, x + (c + 1) * cell, y + (r + 1) * cell]
            d.rectangle(box, fill=colour, outline=theme.INK_DARK, width=1)
            if ch == mark:
                d.ellipse([box[0] + 3, box[1] + 3, box[2] - 3, box[3] - 3], fill=theme.INK_DARK)
    return max(len(row) for row in rows) * cell
