"""The images' cache (render.cache): a hit hands back the very bytes the first call
drew, which are what drawing draws; any other view, option or language is drawn
anew; the cache keeps within its bounds, least recently used out first; and while
texts are recorded every image is drawn."""

from __future__ import annotations

import copy
import io
import threading
from concurrent.futures import ThreadPoolExecutor
from functools import cache

import pytest
from PIL import Image

import render
from render import board
from render import cache as image_cache
from render.board import board_png as draw_board
from render.cache import DrawnBoards, ImageCache
from render.draw import recording
from render.pyramid import pyramid_png as draw_pyramid
from render.replay import replay_webp as draw_replay
from render.samples import SAMPLE_NAMES, Position, positions, sample_game
from render.words import ENGLISH, Translator

NAMES = {seat: name for seat, name in SAMPLE_NAMES.items() if seat < 2}


@cache
def _positions() -> list[Position]:
    return positions(sample_game(players=2, seed=3))


@pytest.fixture
def images(monkeypatch: pytest.MonkeyPatch) -> ImageCache:
    """An empty cache of this test's own in front of the entry points."""
    fresh = ImageCache()
    monkeypatch.setattr(image_cache, "IMAGES", fresh)
    return fresh


class Shouting:
    """A language of its own: every text in capitals."""

    def gettext(self, message: str, /, **params: object) -> str:
        return ENGLISH.gettext(message, **params).upper()

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        return ENGLISH.ngettext(singular, plural, n, **params).upper()

    def pgettext(self, context: str, message: str, /, **params: object) -> str:
        return ENGLISH.pgettext(context, message, **params).upper()


def test_a_hit_returns_the_bytes_drawn_the_first_time(images: ImageCache) -> None:
    pos = _positions()[1]
    first = render.board_png(pos.view, highlight=pos.highlight, names=NAMES)
    assert (images.hits, images.misses) == (0, 1)
    # an equal view, cells and names built anew
    again = render.board_png(
        copy.deepcopy(pos.view), highlight=tuple(list(pos.highlight)), names=dict(NAMES)
    )
    assert again is first and (images.hits, images.misses) == (1, 1)
    assert first == draw_board(pos.view, highlight=pos.highlight, names=NAMES)
    assert render.pyramid_png(pos.view, pos.seat) is render.pyramid_png(pos.view, pos.seat)
    assert render.pyramid_png(pos.view, pos.seat) == draw_pyramid(pos.view, pos.seat)
    assert len(images) == 2 and images.size == len(first) + len(
        render.pyramid_png(pos.view, pos.seat)
    )


def test_another_view_option_or_language_is_drawn_anew(images: ImageCache) -> None:
    early, middle, _ = _positions()
    board = render.board_png(middle.view, highlight=middle.highlight)
    others = [
        render.board_png(early.view, highlight=middle.highlight),
        render.board_png(middle.view),
        render.board_png(middle.view, highlight=middle.highlight, focus=True),
        render.board_png(middle.view, highlight=middle.highlight, names=NAMES),
        render.board_png(middle.view, highlight=middle.highlight, messages=Shouting()),
    ]
    assert images.hits == 0 and images.misses == 6
    assert all(other != board for other in others)
    # the same data with other types is another view: seat 0 as the float 0.0
    changed = copy.deepcopy(middle.view)
    changed["players"][0]["seat"] = float(changed["players"][0]["seat"])
    assert changed == middle.view
    render.board_png(changed, highlight=middle.highlight)
    assert images.hits == 0 and images.misses == 7


def test_a_view_changed_after_the_call_changes_nothing_cached(images: ImageCache) -> None:
    pos = _positions()[1]
    view = copy.deepcopy(pos.view)
    board = render.board_png(view)
    view["players"][0]["colour"], view["players"][1]["colour"] = (
        view["players"][1]["colour"],
        view["players"][0]["colour"],
    )
    swapped = render.board_png(view)
    assert swapped != board and images.misses == 2
    assert render.board_png(pos.view) is board == draw_board(pos.view)


def test_the_cache_keeps_within_its_bounds_least_recently_used_out_first() -> None:
    kept = ImageCache(max_bytes=25, max_entries=3)
    for key in "abc":
        kept.get(key, lambda k=key: k.encode() * 5)
    assert (len(kept), kept.size) == (3, 15)
    kept.get("a", lambda: pytest.fail("a is held"))  # a is now the most recently used
    kept.get("d", lambda: b"d" * 5)  # a fourth entry: b goes
    assert len(kept) == 3
    assert kept.get("b", lambda: b"B" * 5) == b"B" * 5  # drawn again; c goes
    assert kept.get("a", lambda: b"?") == b"a" * 5
    assert kept.get("c", lambda: b"C") == b"C"
    kept.get("e", lambda: b"e" * 20)  # 20 bytes: only the most recent others fit beside it
    assert kept.size <= 25 and len(kept) == 2
    assert kept.get("c", lambda: b"?") == b"C"
    huge = kept.get("f", lambda: b"f" * 26)  # more than the whole bound: never held
    assert huge == b"f" * 26 and kept.get("f", lambda: b"F") == b"F"
    kept.clear()
    assert (len(kept), kept.size, kept.hits, kept.misses) == (0, 0, 0, 0)


def test_while_texts_are_recorded_every_image_is_drawn(images: ImageCache) -> None:
    pos = _positions()[2]
    render.board_png(pos.view)
    with recording() as drawn:
        again = render.board_png(pos.view)
    assert drawn, "the board was drawn, its texts recorded"
    assert again == render.board_png(pos.view)
    assert (images.hits, images.misses, len(images)) == (1, 1, 1)


def test_a_replay_of_the_same_boards_is_encoded_once(images: ImageCache) -> None:
    boards = [render.board_png(p.view, highlight=p.highlight) for p in _positions()]
    replay = render.replay_webp(boards)
    assert render.replay_webp(list(boards)) is replay
    assert replay == draw_replay(boards)
    assert render.replay_webp(boards[:2]) != replay
    assert render.replay_webp(boards, frame_ms=300) != replay
    assert images.misses == len(boards) + 3


def test_a_board_and_its_close_up_are_drawn_once(
    images: ImageCache, monkeypatch: pytest.MonkeyPatch
) -> None:
    pos = _positions()[1]
    drawn = DrawnBoards()
    monkeypatch.setattr(image_cache, "BOARDS", drawn)
    whole = render.board_png(pos.view, highlight=pos.highlight, names=NAMES)
    close = render.board_png(pos.view, highlight=pos.highlight, focus=True, names=NAMES)
    assert (drawn.hits, drawn.misses) == (1, 1)
    assert whole == draw_board(pos.view, highlight=pos.highlight, names=NAMES)
    assert close == draw_board(pos.view, highlight=pos.highlight, focus=True, names=NAMES)
    assert close != whole
    # a turn post asks for both at once, from two threads: the second waits for the
    # first one's drawing
    monkeypatch.setattr(image_cache, "IMAGES", ImageCache())
    monkeypatch.setattr(image_cache, "BOARDS", DrawnBoards())
    started, draws = threading.Barrier(2, timeout=30), []
    real = board.board_image

    def counted(*args: object, **kwargs: object) -> object:
        draws.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(board, "board_image", counted)

    def ask(focus: bool) -> bytes:
        started.wait()
        return render.board_png(pos.view, highlight=pos.highlight, focus=focus, names=NAMES)

    with ThreadPoolExecutor(2) as pool:
        both = list(pool.map(ask, (False, True)))
    assert both == [whole, close] and len(draws) == 1


def test_a_board_keeps_few_drawings() -> None:
    kept = DrawnBoards(keep=2)
    made = [kept.get(key, lambda: Image.new("RGB", (1, 1))) for key in "abc"]
    assert len(kept) == 2 and kept.get("c", lambda: pytest.fail("c is held")) is made[2]
    assert kept.get("a", lambda: made[1]) is made[1]  # a went first: drawn again

    def failing() -> Image.Image:
        raise RuntimeError("no board")

    with pytest.raises(RuntimeError):
        kept.get("d", failing)
    assert kept.get("d", lambda: made[0]) is made[0]  # a failed drawing is not kept


def test_a_replay_frame_is_the_held_board_or_the_board_unencoded(images: ImageCache) -> None:
    early, middle, end = _positions()
    posted = render.board_png(middle.view, highlight=middle.highlight, names=NAMES)
    frames = [
        render.board_frame(p.view, highlight=p.highlight, names=NAMES) for p in (early, middle, end)
    ]
    assert frames[1] is posted  # the turn post's bytes
    assert isinstance(frames[0], Image.Image) and isinstance(frames[2], Image.Image)
    assert (images.hits, images.misses, len(images)) == (1, 1, 1)  # nothing drawn added
    # the same pixels as the PNG: the same replay either way, and no key for images
    boards = [draw_board(p.view, highlight=p.highlight, names=NAMES) for p in (early, middle, end)]
    decoded = Image.open(io.BytesIO(boards[0]))
    assert frames[0].convert("RGB").tobytes() == decoded.convert("RGB").tobytes()
    assert render.replay_webp(frames) == draw_replay(boards)
    assert image_cache.digest(frames) is None and len(images) == 1


def test_an_unhashable_language_is_drawn_every_time(images: ImageCache) -> None:
    class Unhashable(Shouting):
        __hash__ = None  # type: ignore[assignment]

    pos = _positions()[0]
    language: Translator = Unhashable()
    first = render.pyramid_png(pos.view, pos.seat, messages=language)
    assert render.pyramid_png(pos.view, pos.seat, messages=language) == first
    assert len(images) == 0
