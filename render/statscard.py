"""A player's card on a server (`/mk stats`): their games, rating and pace, in the
look of the game's other images. Gentle by design: it shows one player's own pace,
never a comparison with anyone else's.

The bot hands it the numbers (`StatsCard`); the words are the reader's language's.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from render import theme
from render.draw import contrast, draw_block, png_bytes, text_center, text_left
from render.words import COLOURS, ENGLISH, PLAYER_LETTERS, Translator

WIDTH = 800
HEIGHT = 560
BARS_TOP = 410
BARS_HEIGHT = 100


@dataclass(frozen=True, slots=True)
class StatsCard:
    """What the card shows. `hours` counts the player's actions in each hour of the
    day in their time zone; `usual` is the window they act in most (start, end);
    `place` 0 means not on the board (too few rated games, or hidden)."""

    name: str
    server: str
    colour: str | None
    finished: int
    abandoned: int
    playing: int
    wins: int
    rated_games: int
    turns: int
    median_hours: float | None
    hours: tuple[int, ...]
    timezone: str
    usual: tuple[int, int] | None
    ordinal: float | None
    place: int
    ranked: int
    least_games: int


def pace_line(card: StatsCard, m: Translator = ENGLISH) -> str:
    """ "Usually finishes a turn within about 5 hours", gently rounded."""
    hours = card.median_hours
    if hours is None:
        return m.pgettext("stats card", "No turn of theirs timed yet")
    if hours < 1:
        return m.pgettext("stats card", "Usually finishes a turn within the hour")
    if hours < 48:
        n = round(hours)
        return m.ngettext(
            "Usually finishes a turn within about {n} hour",
            "Usually finishes a turn within about {n} hours",
            n,
            n=n,
        )
    days = round(hours / 24)
    return m.ngettext(
        "Usually finishes a turn within about {n} day",
        "Usually finishes a turn within about {n} days",
        days,
        n=days,
    )


def hours_line(card: StatsCard, m: Translator = ENGLISH) -> str:
    """ "Most active 19:00-22:00 (Europe/Warsaw)"."""
    if card.usual is None:
        return m.pgettext("stats card", "No actions yet")
    start, end = card.usual
    return m.pgettext(
        "stats card",
        "Most active {start}:00-{end}:00 ({zone})",
        start=f"{start:02d}",
        end=f"{end:02d}",
        zone=card.timezone,
    )


def rating_line(card: StatsCard, m: Translator = ENGLISH) -> str:
    """ "Rating 12.3 · 2nd of 7 on the board", or why it is not on the board."""
    if card.ordinal is None:
        return m.pgettext("stats card", "Not rated yet: a rated game needs two people")
    rating = f"{card.ordinal:.1f}"
    if card.place:
        return m.pgettext(
            "stats card",
            "Rating {rating} · place {place} of {ranked}",
            rating=rating,
            place=card.place,
            ranked=card.ranked,
        )
    if card.rated_games < card.least_games:
        return m.ngettext(
            "Rating {rating} · on the board after {n} more rated game",
            "Rating {rating} · on the board after {n} more rated games",
            card.least_games - card.rated_games,
            rating=rating,
            n=card.least_games - card.rated_games,
        )
    return m.pgettext("stats card", "Rating {rating} · not shown on the board", rating=rating)


def figures(card: StatsCard, m: Translator = ENGLISH) -> list[tuple[str, str]]:
    """The four big numbers and their labels."""
    return [
        (str(card.finished), m.pgettext("stats card", "finished")),
        (f"{card.wins}/{card.rated_games}", m.pgettext("stats card", "won / rated")),
        (str(card.abandoned), m.pgettext("stats card", "abandoned")),
        (str(card.turns), m.pgettext("stats card", "turns played")),
    ]


def stats_png(card: StatsCard, *, messages: Translator = ENGLISH) -> bytes:
    return png_bytes(stats_image(card, messages=messages))


def stats_image(card: StatsCard, *, messages: Translator = ENGLISH) -> Image.Image:
    m = messages
    img = Image.new("RGB", (WIDTH, HEIGHT), theme.BACKGROUND)
    d = ImageDraw.Draw(img)
    # the player's favourite colour as a badge with its letter (never colour alone)
    x = 30
    if card.colour in theme.PLAYER:
        fill = theme.PLAYER[card.colour]
        d.rounded_rectangle([30, 24, 98, 92], radius=12, fill=fill)
        text_center(d, (64, 58), m.pgettext(*PLAYER_LETTERS[card.colour]), 34, contrast(fill))
        x = 116
    text_left(d, (x, 46), card.name, 34, theme.INK, box=(x, 22, WIDTH - 30, 70))
    if card.colour in theme.PLAYER:
        sub = m.pgettext(
            "stats card",
            "on {server} · favourite colour {colour}",
            server=card.server,
            colour=m.pgettext(*COLOURS[card.colour]),
        )
    else:
        sub = m.pgettext("stats card", "on {server}", server=card.server)
    text_left(d, (x, 80), sub, 18, theme.INK_DIM, "regular", box=(x, 68, WIDTH - 30, 94))
    # the big numbers
    top = 120
    width = (WIDTH - 60) / 4
    for i, (value, label) in enumerate(figures(card, m)):
        left = 30 + width * i
        panel = [left + 4, top, left + width - 4, top + 112]
        d.rounded_rectangle(panel, radius=10, fill=theme.PANEL)
        box = (left + 10, top + 6, left + width - 10, top + 66)
        text_center(d, (left + width / 2, top + 40), value, 40, theme.INK, box=box)
        room = (left + 8, top + 70, left + width - 8, top + 106)
        draw_block(d, room, label, 17, theme.INK_DIM, "regular", align="centre", floor=12)
    if card.playing:
        playing = m.ngettext("{n} game in play", "{n} games in play", card.playing, n=card.playing)
        text_left(d, (36, 250), playing, 16, theme.INK_DIM, "regular", box=(36, 240, 400, 262))
    # rating and pace, one line each
    lines = (rating_line(card, m), pace_line(card, m), hours_line(card, m))
    for k, line in enumerate(lines):
        y = 284 + 33 * k
        ink = theme.GOOD if k == 0 and card.place else theme.INK
        text_left(d, (36, y), line, 22, ink, box=(36, y - 15, WIDTH - 30, y + 15))
    _hour_bars(d, card, m)
    return img


def _hour_bars(d: ImageDraw.ImageDraw, card: StatsCard, m: Translator) -> None:
    """A bar for each hour of the day, the usual window lit, hours marked every six."""
    left, right = 40, WIDTH - 40
    step = (right - left) / 24
    peak = max(card.hours) if any(card.hours) else 1
    bottom = BARS_TOP + BARS_HEIGHT
    usual: set[int] = set()
    if card.usual is not None:
        start, end = card.usual
        usual = {(start + k) % 24 for k in range((end - start) % 24 or 24)}
    d.line([left, bottom, right, bottom], fill=theme.PANEL_LIGHT, width=2)
    for hour, count in enumerate(card.hours):
        x0 = left + step * hour + 3
        x1 = left + step * (hour + 1) - 3
        h = BARS_HEIGHT * count / peak
        fill = theme.GOOD if hour in usual else theme.PANEL_LIGHT
        if count:
            d.rectangle([x0, bottom - max(h, 3), x1, bottom], fill=fill)
        if hour % 6 == 0:
            text_center(d, (x0 + step / 2 - 3, bottom + 16), f"{hour:02d}", 15, theme.INK_DIM)
    label = m.pgettext("stats card", "Actions by hour of the day")
    text_left(d, (left, BARS_TOP - 16), label, 15, theme.INK_DIM, "regular")
