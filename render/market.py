"""The market image: the horde (with bribes, pedestals and the choose-a-pedestal
marker), the spellbook with the runes on each spell, the workshop supply, and the
tunnel tiles and great halls left."""

from __future__ import annotations

import math
from collections import Counter

from PIL import Image, ImageDraw

from render import theme
from render.draw import (
    MIN_SIZE,
    contrast,
    draw_block,
    draw_text,
    paste,
    pedestal,
    png_bytes,
    resource_icon,
    text_block,
    text_center,
    text_left,
    text_length,
)
from render.pyramid import card_header
from render.words import (
    ENGLISH,
    Translator,
    clan_letter,
    clan_name,
    hall_name,
    spell_name,
    spell_text,
    workshop_name,
)
from rules.content import load_content
from rules.view import HordeSlotView, SpellSlotView, View

WIDTH = 900
PAD = 16
HORDE_W, HORDE_H, GAP = 162, 104, 10
SPELL_W, SPELL_H = 278, 168
SPELL_TEXT_TOP = 54  # where a spell's text starts on its card
SPELL_TEXT = 13  # its size: a longer text makes the three cards taller
HALL_W = 128


def market_png(view: View, *, messages: Translator = ENGLISH) -> bytes:
    """PNG bytes of the market, its words in the language of `messages`."""
    return png_bytes(market_image(view, messages=messages))


def market_image(view: View, *, messages: Translator = ENGLISH) -> Image.Image:
    m = messages
    content = load_content()
    height = 1400
    img = Image.new("RGB", (WIDTH, height), theme.BACKGROUND)
    d = ImageDraw.Draw(img)
    y = PAD
    decks = view["decks"]
    # TRANSLATORS: the troll decks left, by level ("L1" a level-1 troll, as on the cards)
    deck_text = m.pgettext(
        "market",
        "decks: L1 {one} · L2 {two} · L3 {three}",
        one=decks[0],
        two=decks[1],
        three=decks[2],
    )
    _heading(d, y, m.pgettext("market", "The horde"), deck_text)
    y += 36
    for level in (3, 2, 1):
        row = view["horde"][level - 1]
        offset = (WIDTH - (len(row) * HORDE_W + (len(row) - 1) * GAP)) / 2
        for j, slot in enumerate(row):
            x = offset + j * (HORDE_W + GAP)
            _horde_card(img, d, x, y, f"{level}.{j + 1}", level, slot, m)
        y += HORDE_H + GAP
    bag_text = ", ".join(f"{clan_name(clan, m)} ×{n}" for clan, n in view["bag"].items())
    bag_line = (
        m.pgettext("market", "Pedestal bag: {pedestals}", pedestals=bag_text)
        if bag_text
        else m.pgettext("market", "Pedestal bag: empty")
    )
    crowns = ", ".join(map(str, view["coronation_left"]))
    crown_line = (
        m.pgettext("market", "Coronation tokens left: {tokens}", tokens=crowns)
        if crowns
        else m.pgettext("market", "Coronation tokens left: none")
    )
    _two_sides(d, y + 10, (bag_line, 16, theme.INK_DIM), (crown_line, 16, theme.INK))
    y += 34
    in_deck = view["spell_deck"]
    deck_line = m.ngettext(
        "{count} spell in the deck", "{count} spells in the deck", in_deck, count=in_deck
    )
    _heading(d, y, m.pgettext("market", "Spellbook"), deck_line)
    y += 34
    spells = view["spellbook"]
    card_h = max([SPELL_H, *(math.ceil(_spell_height(slot, m)) for slot in spells)])
    for i, spell in enumerate(spells):
        _spell_card(d, PAD + i * (SPELL_W + 11), y, spell, card_h, m)
    y += card_h + 18
    _heading(d, y, m.pgettext("market", "Workshops in the supply"))
    y += 36
    supply = Counter(view["workshop_supply"])
    x = PAD
    for workshop, n in sorted(supply.items()):
        name = workshop_name(workshop, m) + (f" ×{n}" if n > 1 else "")
        w = min(round(text_length(name, 16)) + 20, WIDTH - 2 * PAD)
        if x + w > WIDTH - PAD:
            x = PAD
            y += 34
        d.rounded_rectangle([x, y, x + w, y + 28], radius=6, fill=theme.PANEL_LIGHT)
        text_center(
            d, (x + w / 2, y + 14), name, 16, theme.INK, box=(x + 4, y + 2, x + w - 4, y + 26)
        )
        x += w + 8
    if not supply:
        none_left = m.pgettext("market", "none left")
        text_left(d, (PAD, y + 14), none_left, 16, theme.INK_DIM, box=(PAD, y, WIDTH - PAD, y + 28))
    y += 46
    _heading(d, y, m.pgettext("market", "Tunnel tiles left"))
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
    _heading(d, y, m.pgettext("market", "Great halls left"))
    y += 36
    x = PAD
    bottom: float = y
    for hall in content.halls:
        available = hall.id in view["halls_left"]
        colour = (200, 200, 200) if available else theme.PANEL_LIGHT
        w = _shape(d, x, y, hall.rows, 14, colour, "A")
        ink = theme.INK if available else theme.INK_DIM
        column = (x, y + 50, x + max(w, HALL_W) - 4)
        bottom = max(
            bottom, _hall_label(d, column, hall_name(hall.id, m), hall.low, hall.high, ink, m)
        )
        x += max(w, HALL_W) + 20
    return img.crop((0, 0, WIDTH, max(y + 118, bottom + PAD)))


def _heading(d: ImageDraw.ImageDraw, y: float, title: str, note: str = "") -> None:
    """A section's title on the left, and a note about it on the right."""
    _two_sides(d, y + 14, (title, 24, theme.INK), (note, 16, theme.INK_DIM), "regular")


def _two_sides(
    d: ImageDraw.ImageDraw,
    y: float,
    left: tuple[str, int, theme.RGB],
    right: tuple[str, int, theme.RGB],
    right_style: str = "bold",
) -> None:
    """Two texts on one line, one from each side: the right one keeps its width (up
    to half the line), the left one fits in what is left."""
    text, size, ink = right
    row = (y - 16, y + 16)
    split = WIDTH / 2
    if text:
        width = min(text_length(text, size, right_style), (WIDTH - 2 * PAD) / 2)
        split = WIDTH - PAD - width
        box = (split, row[0], WIDTH - PAD, row[1])
        draw_text(d, (WIDTH - PAD, y), text, size, ink, right_style, "rm", box=box)
    text, size, ink = left
    text_left(d, (PAD, y), text, size, ink, box=(PAD, row[0], split - 16, row[1]))


def _hall_label(
    d: ImageDraw.ImageDraw,
    column: tuple[float, float, float],
    name: str,
    low: int,
    high: int,
    ink: theme.RGB,
    m: Translator,
) -> float:
    """A great hall's name and values under its shape; where the text ends."""
    left, top, right = column
    block = text_block(name, 13, "bold", right - left)
    draw_block(d, (left, top, right, top + block.height), name, 13, ink, "bold", middle=False)
    y = top + block.height
    # TRANSLATORS: under a great hall left in the market: what it scores without and with
    # a statue on its altar
    values = m.pgettext("market", "{low} / {high} with altar", low=low, high=high)
    values_box = (left, y, right, y + 18)
    text_left(d, (left, y + 9), values, 12, ink, box=values_box, floor=MIN_SIZE)
    return values_box[3]


def _horde_card(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    x: float,
    y: float,
    name: str,
    level: int,
    slot: HordeSlotView,
    m: Translator,
) -> None:
    card_id = slot["card"]
    if card_id is None:
        d.rounded_rectangle(
            [x, y, x + HORDE_W, y + HORDE_H], radius=8, outline=theme.PANEL_LIGHT, width=2
        )
        # TRANSLATORS: an empty place of the horde: "2.3 empty"
        empty = m.pgettext("market", "{slot} empty", slot=name)
        box = (x + 6, y + 6, x + HORDE_W - 6, y + HORDE_H - 6)
        draw_block(d, box, empty, 16, theme.INK_DIM, "bold", align="centre", floor=MIN_SIZE)
        return
    card = load_content().trolls[card_id]
    clan = card.clan.value
    colour = theme.CLAN[clan]
    d.rounded_rectangle(
        [x, y, x + HORDE_W, y + HORDE_H], radius=8, fill=theme.PANEL, outline=colour, width=3
    )
    d.rectangle([x + 2, y + 2, x + HORDE_W - 2, y + 26], fill=colour)
    ink = contrast(colour)
    level_text = m.pgettext("troll level", "L{level}", level=card.level)
    label = f"{name} {clan_name(clan, m)}"
    card_header(d, (x + 8, y + 3, x + HORDE_W - 8, y + 25), label, level_text, (16, 15), ink)
    n = len(card.produce)
    step = (HORDE_W - 10) / n
    for i, (res, cart_clan) in enumerate(card.produce):
        mark = clan_letter(cart_clan.value, m) if cart_clan else None
        cart = cart_clan.value if cart_clan else None
        paste(
            img, resource_icon(res.value, 30, False, cart, mark), (x + 5 + step * (i + 0.5), y + 48)
        )
    counts = Counter(slot["bribes"])
    cost = recruit_cost(m, level)
    # the cost, then the bribes lying on the card, then the pedestal (or its marker)
    marker = bool(slot.get("pedestal")) or level == 3
    width = x + HORDE_W - (34 if marker else 6) - 16 - (x + 8)
    # the bribes lying on the card move closer together to leave the cost its room;
    # a card too crowded even then leaves the cost out (its row's other cards and the
    # level on its header tell it): a cost is never drawn cut
    step = 42.0
    least = text_length(cost, MIN_SIZE) + 2  # a pixel or two for the ink past it
    if counts and width - step * len(counts) < least:
        step = max(32.0, (width - least) / len(counts))
    room = width - step * len(counts)
    cost_w = min(text_length(cost, 12), room)
    bx = x + 8
    if cost_w >= least:
        cost_box = (x + 8, y + 76, x + 8 + cost_w, y + 96)
        text_left(d, (x + 8, y + 86), cost, 12, theme.INK_DIM, box=cost_box, floor=MIN_SIZE)
        bx += cost_w + 16
    for bribe, k in sorted(counts.items()):
        paste(img, resource_icon(bribe, 20), (bx, y + 86))
        draw_text(d, (bx + 12, y + 86), f"×{k}", 13, theme.INK, "bold", "lm")
        bx += step
    ped = slot["pedestal"]
    if ped:
        pedestal(d, (x + HORDE_W - 19, y + 85), ped, 24, clan_letter(ped, m))
    elif level == 3:
        d.rectangle([x + HORDE_W - 30, y + 74, x + HORDE_W - 8, y + 96], outline=theme.INK, width=2)
        text_center(d, (x + HORDE_W - 19, y + 85), "?", 14, theme.INK)


def recruit_cost(m: Translator, level: int) -> str:
    """What recruiting a troll of the horde's row costs (the bribes on the trolls
    beneath it)."""
    if level == 1:
        return m.pgettext("market", "free")
    # TRANSLATORS: the bribes a level-2 troll of the horde costs
    two = m.pgettext("market", "2 bribes")
    # TRANSLATORS: the bribes a level-3 troll of the horde costs
    return two if level == 2 else m.pgettext("market", "5 bribes")


def _spell_height(slot: SpellSlotView, m: Translator) -> float:
    """How tall a spell's card must be for its whole text (at least SPELL_H)."""
    block = text_block(spell_text(slot["spell"], m), SPELL_TEXT, "regular", SPELL_W - 20)
    return SPELL_TEXT_TOP + block.height + 8


def _spell_card(
    d: ImageDraw.ImageDraw, x: float, y: float, slot: SpellSlotView, height: float, m: Translator
) -> None:
    d.rounded_rectangle(
        [x, y, x + SPELL_W, y + height],
        radius=10,
        fill=theme.PANEL,
        outline=(140, 90, 200),
        width=3,
    )
    name_box = (x + 10, y + 4, x + SPELL_W - 80, y + 32)
    text_left(
        d,
        (x + 10, y + 18),
        spell_name(slot["spell"], m),
        18,
        theme.INK,
        box=name_box,
        floor=MIN_SIZE,
    )
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
    # TRANSLATORS: how many runes lie on a spell of the spellbook (at 3 it disintegrates)
    on_it = m.pgettext("market", "runes {count}/3", count=runes)
    text_left(
        d,
        (x + 10, y + 40),
        on_it,
        12,
        theme.INK_DIM,
        box=(x + 10, y + 32, x + SPELL_W - 10, y + 48),
    )
    text_box = (x + 10, y + SPELL_TEXT_TOP - 6, x + SPELL_W - 10, y + height - 4)
    text = spell_text(slot["spell"], m)
    draw_block(d, text_box, text, SPELL_TEXT, theme.INK, middle=False)


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
