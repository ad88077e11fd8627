"""The stats card (`/mk stats card`): drawn in each language with every text inside
the image, its lines gentle (the player's own pace, never a comparison), and small."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image

from bot.i18n.catalogue import translator_for
from render.draw import recording
from render.statscard import HEIGHT, WIDTH, StatsCard, pace_line, rating_line, stats_png

HOURS = (0, 0, 0, 0, 0, 0, 1, 3, 5, 2, 1, 0, 4, 6, 2, 1, 3, 8, 14, 19, 22, 9, 3, 1)
CARD = StatsCard(
    name="Zbigniew Brzęczyszczykiewicz of the very long name",
    server="The Hall of the Mountain King's friends",
    colour="orange",
    finished=12,
    abandoned=1,
    playing=2,
    wins=5,
    rated_games=9,
    turns=340,
    median_hours=5.4,
    hours=HOURS,
    timezone="Europe/Warsaw",
    usual=(18, 21),
    ordinal=14.25,
    place=2,
    ranked=7,
    least_games=3,
)


@pytest.mark.parametrize("language", ["en", "pl", "es"])
def test_the_card_is_drawn_in_each_language_with_every_text_inside(language: str) -> None:
    m = translator_for(language)
    with recording() as drawn:
        png = stats_png(CARD, messages=m)
    image = Image.open(io.BytesIO(png))
    assert image.size == (WIDTH, HEIGHT) and len(png) < 200_000
    for text in drawn:
        left, top, right, bottom = text.ink
        assert left >= 0 and right <= WIDTH and top >= 0 and bottom <= HEIGHT, text
        if text.box is not None:
            assert text.box[0] - 1 <= left and right <= text.box[2] + 1, text
    shown = {t.text for t in drawn}
    assert rating_line(CARD, m) in shown and pace_line(CARD, m) in shown


def test_the_lines_say_the_players_own_pace_and_place_gently() -> None:
    assert rating_line(CARD) == "Rating 14.2 · place 2 of 7"
    assert pace_line(CARD) == "Usually finishes a turn within about 5 hours"
    slow = replace(CARD, median_hours=80.0, place=0, rated_games=1)
    assert pace_line(slow) == "Usually finishes a turn within about 3 days"
    assert rating_line(slow) == "Rating 14.2 · on the board after 2 more rated games"
    quick = replace(CARD, median_hours=0.2, ordinal=None)
    assert pace_line(quick) == "Usually finishes a turn within the hour"
    assert rating_line(quick) == "Not rated yet: a rated game needs two people"
