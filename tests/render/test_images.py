"""Images: every PNG decodes, has the expected size, stays under 1 MB, is the same
bytes for the same view, leaves the cached layers untouched, and matches the
committed reference images, in English, Polish and Spanish (a deliberate change
regenerates them with scripts/update_reference_images.py in the same commit)."""

from __future__ import annotations

import hashlib
import io
from functools import cache
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.i18n import translator_for
from bot.i18n.catalogue import TRANSLATED
from render import Preview, board_png, market_png, pyramid_png, score_png
from render.board import static_board
from render.draw import resource_icon, statue_icon
from render.references import reference_images
from render.samples import positions, sample_game
from render.theme import PLAYER
from render.words import ENGLISH, player_letter

REFERENCE = Path(__file__).parent / "reference"
MAX_BYTES = 1_000_000


@cache
def _images() -> dict[str, bytes]:
    return reference_images({language: translator_for(language) for language in TRANSLATED})


def _decode(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def test_every_image_is_a_png_under_one_megabyte() -> None:
    for name, data in _images().items():
        assert data[:8] == b"\x89PNG\r\n\x1a\n", name
        img = _decode(data)
        assert img.format == "PNG"
        # full images fill a phone's width; a cropped preview may be narrower
        assert img.width >= (200 if name.startswith("preview") else 400), name
        assert img.height >= 200, name
        assert len(data) < MAX_BYTES, f"{name} is {len(data)} bytes"


def test_board_sizes_follow_the_grid() -> None:
    images = _images()
    board = _decode(images["board-end"])
    assert board.size == static_board("winter").size
    assert _decode(images["pl-board-end"]).size == board.size, "the same board in Polish"
    autumn = _decode(images["board-autumn"])
    assert autumn.size == static_board("autumn").size
    # a cropped preview is smaller than the whole board
    assert _decode(images["preview-legal"]).width < board.width


def test_same_view_gives_the_same_bytes() -> None:
    game = sample_game(players=3, seed=4)
    pos = positions(game)[1]
    assert board_png(pos.view, highlight=pos.highlight) == board_png(
        pos.view, highlight=pos.highlight
    )
    assert pyramid_png(pos.view, pos.seat) == pyramid_png(pos.view, pos.seat)
    assert market_png(pos.view) == market_png(pos.view)


def test_rendering_never_draws_on_the_cached_layers() -> None:
    layers = [
        static_board("winter"),
        static_board("autumn"),
        resource_icon("coin", 44),
        resource_icon("cart", 40, True, "fire"),
        statue_icon("ice", 40),
    ]
    before = [hashlib.sha256(layer.tobytes()).hexdigest() for layer in layers]
    game = sample_game(players=4, seed=3)
    for pos in positions(game):
        board_png(
            pos.view,
            highlight=pos.highlight,
            preview=Preview(pos.highlight[:2] or ("E5",), False, None),
        )
        pyramid_png(pos.view, pos.seat)
        market_png(pos.view)
    outcome = game.outcome
    assert outcome is not None
    score_png(positions(game)[-1].view, outcome.to_json())
    after = [hashlib.sha256(layer.tobytes()).hexdigest() for layer in layers]
    assert before == after


def test_changes_show_in_the_image() -> None:
    """A highlight, a preview and a different player's view change the pixels."""
    pos = positions(sample_game(players=4, seed=11))[1]
    plain = board_png(pos.view)
    assert board_png(pos.view, highlight=("E5",)) != plain
    assert board_png(pos.view, preview=Preview(("E5", "F5"), True)) != plain
    assert pyramid_png(pos.view, 0) != pyramid_png(pos.view, 1)


def test_players_differ_by_letter_as_well_as_colour() -> None:
    assert len({player_letter(colour, ENGLISH) for colour in PLAYER}) == len(PLAYER)
    assert len(set(PLAYER.values())) == len(PLAYER)


@pytest.mark.parametrize("name", sorted(p.stem for p in REFERENCE.glob("*.png")))
def test_images_match_the_committed_references(name: str) -> None:
    images = _images()
    assert name in images, f"reference {name}.png is no longer drawn: remove it"
    new = _decode(images[name]).convert("RGB")
    ref = _decode((REFERENCE / f"{name}.png").read_bytes()).convert("RGB")
    assert new.size == ref.size, f"{name}: size {new.size} != reference {ref.size}"
    diff = ImageChops.difference(new, ref).convert("L").point(lambda v: 255 if v > 24 else 0)
    changed = (new.width * new.height - diff.histogram()[0]) / (new.width * new.height)
    assert changed < 0.002, f"{name}: {changed:.2%} of pixels differ from the reference"


def test_every_drawn_image_has_a_reference() -> None:
    missing = [n for n in _images() if not (REFERENCE / f"{n}.png").exists()]
    assert not missing, f"run scripts/update_reference_images.py and commit: {missing}"
