"""A player's private panel (their artifacts in hand with their worth at the end, the
tokens left in their stack kind by kind, their gold) and everyone's chips (gold,
stack, artifacts held) as a strip of their own, from a view
(`cave_troll.view.CaveView`).

The panel shows what the view shows: the viewer's own artifacts by name, another
seat's as a number face down (the view holds no more). Sized like the map for a phone:
720 px wide, shown about 400 px wide, its smallest text 18 px.
"""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image, ImageDraw

from cave_troll.content import ADVENTURERS, KINDS, PIECE_KINDS, load_content
from cave_troll.view import CaveView
from render import theme
from render.cave_troll import look
from render.cave_troll import words as ct
from render.cave_troll.cave import CHIP, PAD, chips, places, player_label
from render.draw import draw_text, paste, png_bytes
from render.words import ENGLISH, Translator

WIDTH = 720
TITLE = 64
CARD = 50
ITEM = 46


def panel_png(
    view: CaveView,
    seat: int,
    *,
    names: Mapping[int, str] | None = None,
    messages: Translator = ENGLISH,
) -> bytes:
    """PNG bytes of `seat`'s panel as `view` shows it (their own view: the artifacts by
    name; anyone else's: how many, face down)."""
    return png_bytes(panel_image(view, seat, names=names, messages=messages))


def panel_image(
    view: CaveView,
    seat: int,
    *,
    names: Mapping[int, str] | None = None,
    messages: Translator = ENGLISH,
) -> Image.Image:
    player = view["players"][seat]
    held = player["artifacts"]
    left = [k for k in KINDS if player["stack_left"].get(k)]
    cards = max(1, len(held)) if isinstance(held, list) else 1
    items_rows = -(-len(left) // 2)
    height = TITLE + 14 + cards * CARD + 20 + ITEM + items_rows * ITEM + 16
    img = Image.new("RGB", (WIDTH, height), theme.BACKGROUND)
    d = ImageDraw.Draw(img)
    colour = player["colour"]
    rgb, shape = look.player_rgb(colour), look.shape_of(colour)
    paste(img, look.token(rgb, shape, "", False, 40), (PAD + 20, TITLE / 2))
    gold = ct.gold(player["gold"], messages)
    ink = draw_text(
        d,
        (WIDTH - PAD, TITLE / 2),
        gold,
        26,
        look.COIN,
        anchor="rm",
        box=(WIDTH - PAD - 320, 8, WIDTH - PAD, TITLE - 8),
    )
    title = ct.hand_title(player_label(view, seat, names, messages), messages)
    draw_text(
        d,
        (PAD + 52, TITLE / 2),
        title,
        26,
        theme.INK,
        anchor="lm",
        box=(PAD + 52, 8, ink[0] - 16, TITLE - 8),
    )
    y = TITLE + 14
    text = load_content().text
    if isinstance(held, int) or not held:
        line = (
            ct.hidden_artifacts(held, messages)
            if isinstance(held, int)
            else ct.no_artifacts(messages)
        )
        _card(d, y, line, None, theme.INK_DIM)
        y += CARD
    else:
        for artifact in held:
            worth = ct.worth(text.artifact(artifact).gold, messages)
            _card(d, y, ct.artifact_name(artifact, messages), worth, theme.INK)
            y += CARD
    y += 20
    heading = ct.stack_left(player["stack"], messages)
    draw_text(
        d,
        (PAD, y + ITEM / 2),
        heading,
        22,
        theme.INK,
        anchor="lm",
        box=(PAD, y, WIDTH - PAD, y + ITEM),
    )
    y += ITEM
    column_w = (WIDTH - 2 * PAD) / 2
    bonus = f"+{text.treasure_bonus}"
    for k, kind in enumerate(left):
        row, column = divmod(k, 2)
        x0, cy = PAD + column * column_w, y + row * ITEM + ITEM / 2
        if kind in PIECE_KINDS:
            icon = look.token(
                rgb, shape, ct.kind_letter(kind, messages), kind not in ADVENTURERS, 36
            )
        elif kind == "treasure":
            icon = look.treasure(36, bonus)
        else:
            icon = look.event(kind, 36)
        paste(img, icon, (x0 + 20, cy))
        label = f"{player['stack_left'][kind]} × {ct.kind_name(kind, messages)}"
        draw_text(
            d,
            (x0 + 46, cy),
            label,
            20,
            theme.INK,
            anchor="lm",
            box=(x0 + 46, cy - ITEM / 2 + 2, x0 + column_w - 8, cy + ITEM / 2 - 2),
        )
    return img


def _card(d: ImageDraw.ImageDraw, top: float, name: str, worth: str | None, ink: theme.RGB) -> None:
    """An artifact in hand (or the line that stands for none): its name and worth."""
    box = (PAD, top, WIDTH - PAD, top + CARD - 8)
    d.rounded_rectangle(box, radius=8, fill=theme.PANEL, outline=theme.PANEL_LIGHT, width=2)
    cy = (box[1] + box[3]) / 2
    split = WIDTH - PAD - (290 if worth else 0)
    draw_text(
        d,
        (PAD + 14, cy),
        name,
        22,
        ink,
        anchor="lm",
        box=(PAD + 14, box[1] + 3, split - 10, box[3] - 3),
    )
    if worth:
        draw_text(
            d,
            (WIDTH - PAD - 14, cy),
            worth,
            18,
            look.COIN,
            anchor="rm",
            box=(split, box[1] + 3, WIDTH - PAD - 14, box[3] - 3),
        )


def chips_png(
    view: CaveView,
    *,
    names: Mapping[int, str] | None = None,
    messages: Translator = ENGLISH,
) -> bytes:
    """PNG bytes of everyone's chips (the map's header alone): gold, tokens left in
    the stack and artifacts held, the seat awaited outlined."""
    width = places().side + 2 * PAD
    img = Image.new("RGB", (width, len(view["players"]) * CHIP + 12), theme.BACKGROUND)
    chips(ImageDraw.Draw(img), img, view, (PAD, 6, width - PAD), names, messages)
    return png_bytes(img)
