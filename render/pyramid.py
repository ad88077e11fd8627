"""The pyramid image: one player's pyramid of troll cards (the rulebook's trollsmoot)
with what each troll holds or has room for, then their storage, pedestals, tokens and
honor."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

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
    text_center,
    text_left,
    text_length,
)
from render.draw import _drawn as _recorded
from render.theme import RGB
from render.words import (
    ENGLISH,
    Translator,
    clan_letter,
    clan_name,
    colour_name,
    player_letter,
)
from rules.actions import PYRAMID_ROWS
from rules.content import load_content
from rules.resources import RESOURCES, STATUE_CLANS
from rules.view import AccountView, TrollView, View

CARD_W, CARD_H, GAP = 204, 118, 12
PAD = 18
TITLE = 64
WIDTH = PAD * 2 + 4 * CARD_W + 3 * GAP
STORAGE_H = 196
HEIGHT = TITLE + 4 * (CARD_H + GAP) + STORAGE_H + PAD


def pyramid_png(
    view: View,
    seat: int,
    *,
    names: Mapping[int, str] | None = None,
    messages: Translator = ENGLISH,
) -> bytes:
    """PNG bytes of the pyramid of the player in `seat`; `names` (seat -> display
    name) puts the player's name in the title; the words in the language of
    `messages`."""
    return png_bytes(pyramid_image(view, seat, names=names, messages=messages))


def pyramid_image(
    view: View,
    seat: int,
    *,
    names: Mapping[int, str] | None = None,
    messages: Translator = ENGLISH,
) -> Image.Image:
    m = messages
    player = view["players"][seat]
    account = view["accounts"][player["account"]]
    img = Image.new("RGB", (WIDTH, HEIGHT), theme.BACKGROUND)
    d = ImageDraw.Draw(img)
    colour = theme.PLAYER[player["colour"]]
    bar = TITLE - 8
    d.rectangle([0, 0, WIDTH, bar], fill=colour)
    ink = contrast(colour)
    letter = player_letter(player["colour"], m)
    text_center(d, (34, bar / 2), letter, 30, ink, box=(8, 4, 60, bar - 4))
    pyramid = player["pyramid"]
    colour_word = colour_name(player["colour"], m)
    name = (names or {}).get(seat)
    trolls = m.pgettext("pyramid", "{count}/10 trolls", count=len(pyramid))
    right = (
        m.pgettext("pyramid", "{colour} · {trolls}", colour=colour_word, trolls=trolls)
        if name
        else trolls
    )
    # the count on the right, the title in the room it leaves
    right_w = min(text_length(right, 22), WIDTH * 0.45)
    right_box = (WIDTH - PAD - right_w, 4, WIDTH - PAD, bar - 4)
    draw_text(d, (WIDTH - PAD, bar / 2), right, 22, ink, "bold", "rm", box=right_box)
    title = m.pgettext("pyramid", "{name}'s pyramid", name=name or colour_word)
    title_box = (62, 4, right_box[0] - 24, bar - 4)
    text_left(d, (62, bar / 2), title, 26, ink, box=title_box, floor=16)
    open_slots = _open_slots(pyramid)
    for row_index, row in enumerate(PYRAMID_ROWS):
        y = TITLE + (3 - row_index) * (CARD_H + GAP)
        offset = PAD + row_index * (CARD_W + GAP) / 2
        for j, slot in enumerate(row):
            x = offset + j * (CARD_W + GAP)
            troll = pyramid.get(slot)
            if troll is None:
                _empty_slot(d, x, y, slot, slot in open_slots, m)
            else:
                _put_card(img, d, int(x), y, slot, troll, m)
    _storage(img, d, account, TITLE + 4 * (CARD_H + GAP), m)
    return img


def _open_slots(pyramid: dict[str, TrollView]) -> set[str]:
    out = set()
    for r in range(1, 4):
        for j, slot in enumerate(PYRAMID_ROWS[r]):
            below = PYRAMID_ROWS[r - 1][j : j + 2]
            if slot not in pyramid and all(b in pyramid for b in below):
                out.add(slot)
    return out


def _empty_slot(
    d: ImageDraw.ImageDraw, x: float, y: float, slot: str, is_open: bool, m: Translator
) -> None:
    colour = theme.GOOD if is_open else theme.PANEL_LIGHT
    for k in range(0, CARD_W, 16):  # dashed frame
        d.line([(x + k, y), (x + min(k + 8, CARD_W), y)], fill=colour, width=2)
        d.line([(x + k, y + CARD_H), (x + min(k + 8, CARD_W), y + CARD_H)], fill=colour, width=2)
    for k in range(0, CARD_H, 16):
        d.line([(x, y + k), (x, y + min(k + 8, CARD_H))], fill=colour, width=2)
        d.line([(x + CARD_W, y + k), (x + CARD_W, y + min(k + 8, CARD_H))], fill=colour, width=2)
    text_center(d, (x + CARD_W / 2, y + CARD_H / 2 - 10), slot, 24, colour)
    if is_open:
        room = m.pgettext("pyramid", "room for a recruit")
        box = (x + 8, y + CARD_H / 2 + 6, x + CARD_W - 8, y + CARD_H - 4)
        draw_block(d, box, room, 14, colour, align="centre", floor=MIN_SIZE)


def troll_level(m: Translator, level: int, starting: bool) -> str:
    """A troll card's level as its corner shows it: "start", "L2"."""
    if starting:
        # TRANSLATORS: the corner of a starting troll's card (short: the card is narrow)
        return m.pgettext("troll level", "start")
    # TRANSLATORS: the corner of a troll card: "L2" is a level-2 troll
    return m.pgettext("troll level", "L{level}", level=level)


def card_header(
    d: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    label: str,
    level: str,
    sizes: tuple[int, int],
    ink: RGB,
) -> None:
    """A troll card's coloured band: its slot and clan on the left, its level in the
    right corner (pyramid and horde cards alike)."""
    left, top, right, bottom = box
    mid = (top + bottom) / 2
    level_w = min(text_length(level, sizes[1]), (right - left) / 3)
    draw_text(
        d,
        (right, mid),
        level,
        sizes[1],
        ink,
        "bold",
        "rm",
        box=(right - level_w, top, right, bottom),
    )
    text_left(d, (left, mid), label, sizes[0], ink, box=(left, top, right - level_w - 8, bottom))


def _put_card(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    x: int,
    y: int,
    slot: str,
    troll: TrollView,
    m: Translator,
) -> None:
    """A troll card at `x`, `y`, pasted from the card drawn once (`_card_tile`); drawn
    in place while texts are recorded, or for a language that is not hashable."""
    if _recorded.get() is None:
        try:
            tile, left, top = _card_tile(slot, troll["card"], tuple(troll["held"]), x, y, m)
        except TypeError:  # an unhashable language
            pass
        else:
            img.paste(tile, (left, top))
            return
    _card(img, d, x, y, slot, troll, m)


@lru_cache(maxsize=64)  # about 5 MB
def _card_tile(
    slot: str, card: str, held: tuple[bool, ...], x: int, y: int, m: Translator
) -> tuple[Image.Image, int, int]:
    """A troll card drawn on the background around it (about 80 KB), and where the tile
    goes: its corner an even number of pixels from the card's, so that every mark
    rounds as it does drawn in place (Python rounds halves to even). The cards stand
    GAP apart and nothing else is drawn within a few pixels of one, so pasting the
    tile gives the pixels drawing the card in place gives."""
    left, top = (x - 4) & ~1, (y - 4) & ~1
    tile = Image.new("RGB", (x + CARD_W + 6 - left, y + CARD_H + 6 - top), theme.BACKGROUND)
    troll: TrollView = {"card": card, "held": list(held)}
    _card(tile, ImageDraw.Draw(tile), x - left, y - top, slot, troll, m)
    return tile, left, top


def _card(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    x: float,
    y: float,
    slot: str,
    troll: TrollView,
    m: Translator,
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
    level = troll_level(m, card.level, card.starting)
    label = f"{slot} {clan_name(clan, m)}"
    card_header(d, (x + 10, y + 3, x + CARD_W - 10, y + 31), label, level, (18, 16), ink)
    n = len(card.produce)
    size = 40 if n <= 4 else 32
    spacing = (CARD_W - 16) / n
    for i, ((res, cart_clan), held) in enumerate(zip(card.produce, troll["held"], strict=True)):
        cx = x + 8 + spacing * (i + 0.5)
        cy = y + 34 + (CARD_H - 34) / 2 - 6
        mark = clan_letter(cart_clan.value, m) if cart_clan else None
        cart = cart_clan.value if cart_clan else None
        paste(img, resource_icon(res.value, size, not held, cart, mark), (cx, cy))
    held_count = sum(troll["held"])
    # TRANSLATORS: under a troll card: how many of its symbols hold a resource
    holds = m.pgettext("pyramid", "holds {held}/{count}", held=held_count, count=n)
    draw_text(
        d,
        (x + CARD_W - 8, y + CARD_H - 10),
        holds,
        12,
        theme.INK_DIM,
        "regular",
        "rm",
        box=(x + 8, y + CARD_H - 19, x + CARD_W - 6, y + CARD_H - 2),
    )


def _storage(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    account: AccountView,
    top: int,
    m: Translator,
) -> None:
    d.rounded_rectangle([PAD, top, WIDTH - PAD, top + STORAGE_H - 10], radius=10, fill=theme.PANEL)
    left, right = PAD + 14, WIDTH - PAD - 14
    storage_box = (left, top + 8, WIDTH / 2, top + 36)
    text_left(d, (left, top + 22), m.pgettext("pyramid", "Storage"), 20, theme.INK, box=storage_box)
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
    row = (y - 16, y + 16)
    label = m.pgettext("pyramid", "Pedestals")
    label_w = min(text_length(label, 18), 200)
    text_left(d, (left, y), label, 18, theme.INK, box=(left, row[0], left + label_w, row[1]))
    x = max(PAD + 130, left + label_w + 20)
    for clan in STATUE_CLANS:
        pedestal(d, (x + 14, y), clan, 30, clan_letter(clan, m))
        count = str(account["pedestals"].get(clan, 0))
        draw_text(
            d,
            (x + 36, y),
            count,
            22,
            theme.INK,
            "bold",
            "lm",
            box=(x + 32, row[0], x + 76, row[1]),
        )
        x += 80
    tokens = account["tokens"]
    # face up (the viewer's own) or face down (None): all alike in an account
    values = [t["value"] for t in tokens if t["value"] is not None]
    if tokens and len(values) == len(tokens):
        token_text = m.pgettext(
            "pyramid",
            "Pedestal tokens: {count} (worth {value})",
            count=len(tokens),
            value=sum(values),
        )
    else:
        token_text = m.pgettext(
            "pyramid", "Pedestal tokens: {count} (face down)", count=len(tokens)
        )
    text_left(d, (x + 20, y), token_text, 18, theme.INK, box=(x + 20, row[0], right, row[1]))
    y2 = top + 160
    row = (y2 - 16, y2 + 16)
    honor = account["tunnel_honor"] + account["spell_honor"]
    on_track = m.pgettext("pyramid", "Honor on the track: {honor}", honor=honor)
    track_w = min(text_length(on_track, 20), (right - left) / 2)
    track_box = (right - track_w, row[0], right, row[1])
    draw_text(d, (right, y2), on_track, 20, theme.INK, "bold", "rm", box=track_box)
    crowns = account["coronation"]
    if crowns:
        # TRANSLATORS: the honor of each coronation token a player holds: "5, 3"
        honors = ", ".join(map(str, crowns))
        crown_text = m.pgettext("pyramid", "Coronation tokens: {tokens}", tokens=honors)
    else:
        crown_text = m.pgettext("pyramid", "Coronation tokens: none yet")
    crown_box = (left, row[0], track_box[0] - 20, row[1])
    text_left(d, (left, y2), crown_text, 18, theme.INK, box=crown_box)
