"""Cave Troll's images (render/cave_troll/): the map, a player's panel and everyone's
chips draw for real positions (a fresh game, seeded self-play of 2, 3 and 4 players in
the middle and at the end, a Troll flight pending, a crowded cave), as PNGs of the
expected sizes, the same bytes for the same view; a change and a flight show; every
room and the pit hold what they may with nothing overlapping; the pieces stand out
from every floor for colour-blind players too; every text stays in its box in English,
Polish, Spanish and a longer language, and every word drawn comes from the catalogue;
the images match the committed references (a deliberate change rewrites them with
scripts/update_ct_images.py in the same commit)."""

from __future__ import annotations

import io
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.i18n import translator_for
from cave_troll.board import load_board
from cave_troll.view import CaveView
from render import theme
from render.cave_troll import cave_png, chips_png, look, panel_png
from render.cave_troll.cave import PAD, C, S, layout_of, places
from render.cave_troll.samples import SAMPLE_NAMES, crowded, fresh, images, in_flight, played
from render.draw import ELLIPSIS, MIN_SIZE, Drawn, recording
from render.vision import VISIONS, Vision, seen_delta_e
from render.words import English, Translator

REFERENCE = Path(__file__).parent / "reference" / "cave-troll"
WIDTH = 12 * C + 2 * PAD


def _decode(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    assert img.format == "PNG"
    return img


@cache
def _positions() -> dict[str, CaveView]:
    return {
        "fresh 2": fresh(2),
        "fresh 4": fresh(4, viewer=None),
        "middle 2": played(2, 4, 0.5),
        "middle 3": played(3, 1, 0.5, viewer=2),
        "middle 4": played(4, 7, 0.5, viewer=None),
        "end 3": played(3, 1, 1.0),
        "flight": in_flight(),
        "crowded": crowded(),
    }


def test_every_position_draws_a_map_a_panel_and_chips() -> None:
    for name, seen in _positions().items():
        board = _decode(cave_png(seen, names=SAMPLE_NAMES))
        assert board.width == WIDTH, name
        assert 1400 < board.height < 1900, name
        n = len(seen["players"])
        for seat in range(n):
            panel = _decode(panel_png(seen, seat))
            assert panel.width == 720 and 200 < panel.height < 900, (name, seat)
        chips = _decode(chips_png(seen))
        assert chips.size == (WIDTH, n * 48 + 12), name
    assert len(cave_png(crowded())) < 400_000


def test_the_same_view_gives_the_same_bytes_and_changes_show() -> None:
    seen = _positions()["middle 3"]
    assert cave_png(seen) == cave_png(seen)
    assert panel_png(seen, 2) == panel_png(seen, 2)
    assert cave_png(seen, changed=("A3", "NW", "pit")) != cave_png(seen)
    assert cave_png(seen, names=SAMPLE_NAMES) != cave_png(seen)
    assert panel_png(seen, 2) != panel_png(seen, 1)  # one's own artifacts, face up


def test_a_pending_flight_outlines_its_room_and_names_who_answers() -> None:
    seen = _positions()["flight"]
    flight = seen["flight"]
    assert flight is not None
    img = _decode(cave_png(seen)).convert("RGB")
    layout = layout_of(seen)
    x, y = min(load_board().cells[flight["room"]])
    left, top = PAD + x * C, layout.board_top + y * C
    pixel = img.getpixel((left + 2, top + C // 2))
    assert isinstance(pixel, tuple)
    assert max(abs(a - b) for a, b in zip(pixel, look.FLIGHT, strict=True)) <= 4, pixel
    with recording() as drawn:
        cave_png(seen)
    assert any(f"Troll in {flight['room']}" in d.text for d in drawn)


def test_a_room_someone_controls_is_tagged_with_what_they_would_gain() -> None:
    seen = _positions()["crowded"]
    # A3: blue's Barbarian and Dwarf (3) over orange's 2 and green's 1; 1 gold doubled
    # by the Dwarf, and the Treasure's 4
    assert seen["rooms"]["A3"] == {"colour": "blue", "gold": 6}
    with recording() as drawn:
        cave_png(seen)
    tags = {d.text for d in drawn}
    assert {"+6", "+8", "+10", "+2"} <= tags


def test_every_place_holds_what_it_may_with_nothing_overlapping() -> None:
    """A room holds six pieces at most (five, and a Wraith pushing), a Treasure or two
    and the tag of who controls it (two slots) besides; the pit every monster of four
    players (two Orcs and a Wraith each). Each slot lies inside its own place's cells,
    apart from every other, and none is under a label."""
    p = places()
    board = p.board
    for loc, slots in p.slots.items():
        if board.is_entrance(loc):
            continue
        need = 12 if loc == board.pit else 10
        assert len(slots) >= need, loc
        assert len(set(slots)) == len(slots), loc
        cells = set(board.cells[loc])
        assert all((sx // 2, sy // 2) in cells for sx, sy in slots), loc
        x, y = p.label[loc]
        if loc == board.pit:  # its name on the middle of its top row
            assert len(slots) == 4 * len(cells) - 2 and (2 * x + 1, 2 * y) not in slots
        else:
            assert (2 * x, 2 * y) not in slots and (2 * x + 1, 2 * y) not in slots, loc
    assert S - 35 >= 2 * 3 - 4, "a piece keeps clear of the walls (3 px into each slot)"


@pytest.mark.parametrize("vision", VISIONS)
def test_every_piece_stands_out_from_every_floor(vision: Vision) -> None:
    """As test_palette.py asks of the mountain: 20 ΔE00 between each player colour and
    each floor of the cave, for normal vision and each simulated dichromacy; a
    monster's dark inside is as far from its ring."""
    floors = {**look.FLOORS, "a monster's inside": look.MONSTER_FILL}
    close = [
        f"{colour} vs {name}: {seen_delta_e(rgb, floor, vision):.1f}"
        for colour, rgb in theme.PLAYER.items()
        if colour in look.SHAPE
        for name, floor in floors.items()
        if seen_delta_e(rgb, floor, vision) < 20.0
    ]
    assert not close, f"{vision}: {', '.join(close)}"
    assert len(set(look.SHAPE.values())) == len(look.SHAPE), "each colour its own shape"


# --- the words ---------------------------------------------------------------------------


class Longer(English):
    """Every message half as long again (its fields filled in), as a longer language
    would write it; every text it gave out kept (English's other lookups come here)."""

    def __init__(self) -> None:
        self.given: set[str] = set()

    def gettext(self, message: str, /, **params: object) -> str:
        text = super().gettext(message, **params)
        text += "~" * (len(text) // 2)
        self.given.add(text)
        return text


# the positions drawn in every language: every kind of title line, chip and panel
WORDED = ("fresh 2", "end 3", "flight", "crowded")
LONG_NAMES = {0: "ola", 1: "Bartholomew the Magnificent", 2: "Łucja Żółkiewska", 3: "Ñandú"}


@cache
def _drawn(language: str) -> tuple[list[Drawn], Translator]:
    """Every text the maps, panels and chips of `WORDED` draw in `language` (`longer`:
    the `Longer` language, with no names, so that every word is the catalogue's)."""
    messages: Translator = Longer() if language == "longer" else translator_for(language)
    names = None if language == "longer" else LONG_NAMES
    look.token.cache_clear()  # the pieces' letters drawn again, and recorded
    with recording() as drawn:
        for name in WORDED:
            seen = _positions()[name]
            cave_png(seen, changed=("A3", "NE"), names=names, messages=messages)
            for seat in range(len(seen["players"])):
                panel_png(seen, seat, names=names, messages=messages)
            chips_png(seen, messages=messages)
    return drawn, messages


@pytest.mark.parametrize("language", ["en", "pl", "es", "longer"])
def test_every_text_stays_in_its_box(language: str) -> None:
    drawn, _ = _drawn(language)
    boxed = [d for d in drawn if d.box is not None]
    assert len(boxed) > 200
    outside = [
        f"{d.shown!r} {d.ink} not in {d.box}"
        for d in boxed
        if d.box is not None
        and (
            d.ink[0] < d.box[0] - 1
            or d.ink[1] < d.box[1] - 1
            or d.ink[2] > d.box[2] + 1
            or d.ink[3] > d.box[3] + 1
        )
    ]
    assert not outside, "; ".join(outside[:6])
    assert not [d.shown for d in boxed if d.size < MIN_SIZE]
    if language != "longer":
        cut = {d.text for d in drawn if d.shown.endswith(ELLIPSIS)}
        assert not {t for t in cut if not any(n in t for n in LONG_NAMES.values())}, cut


def test_every_word_drawn_comes_from_the_catalogue() -> None:
    """Take out of each drawn text every text the catalogue gave: what is left is the
    places' ids, numbers and signs (English written inline would be a word)."""
    drawn, longer = _drawn("longer")
    assert isinstance(longer, Longer)
    given = longer.given
    pieces = sorted({*given, *load_board().locations}, key=len, reverse=True)
    left = set()
    for d in drawn:
        text = d.text
        for piece in pieces:
            text = text.replace(piece, " ")
        if any(ch.isalpha() for ch in text):
            left.add(d.text)
        assert d.box is not None or not any(g in d.text for g in given if len(g) > 1), d.text
    assert not left, f"words past the catalogue: {sorted(left)}"


def test_the_images_import_neither_the_bot_nor_discord() -> None:
    code = "import sys, render.cave_troll.samples; print('\\n'.join(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    top = {m.split(".")[0] for m in done.stdout.split()}
    assert "render" in top and "cave_troll" in top
    assert not top & {"bot", "discord", "babel"}, top & {"bot", "discord", "babel"}


# --- the references ----------------------------------------------------------------------


@cache
def _references() -> dict[str, bytes]:
    return images({language: translator_for(language) for language in ("pl", "es")})


@pytest.mark.parametrize("name", sorted(p.stem for p in REFERENCE.glob("*.png")))
def test_images_match_the_committed_references(name: str) -> None:
    made = _references()
    assert name in made, f"reference {name}.png is no longer drawn: remove it"
    new = _decode(made[name]).convert("RGB")
    ref = _decode((REFERENCE / f"{name}.png").read_bytes()).convert("RGB")
    assert new.size == ref.size, f"{name}: size {new.size} != reference {ref.size}"
    diff = ImageChops.difference(new, ref).convert("L").point(lambda v: 255 if v > 24 else 0)
    changed = (new.width * new.height - diff.histogram()[0]) / (new.width * new.height)
    assert changed < 0.002, f"{name}: {changed:.2%} of pixels differ from the reference"


def test_every_reference_is_committed() -> None:
    missing = [n for n in _references() if not (REFERENCE / f"{n}.png").exists()]
    assert not missing, f"run scripts/update_ct_images.py and commit: {missing}"
