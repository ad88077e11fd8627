"""Each distinct image drawn once: a bounded cache in front of the entry points the
bot calls (`render.board_png`, `pyramid_png`, `market_png`, `score_png`,
`replay_webp`), so a turn post and the game's end draw each board once (the replay
animates the board after every turn, which the turn posts drew already), and a board
several players look at is drawn once.

An image is kept under a digest of everything it is drawn from: the view and the
options (highlighted cells, preview, focus, names; the boards of a replay), pickled
without memo (equal bytes only for equal data of the same types, so a key never stands
for two different calls; the same view built in another order, or cells given as a
list instead of a tuple, only miss), and the language (the `Translator` object itself:
hashable, one per language in the bot). The cache holds PNG or WebP bytes only, which
are immutable: a caller cannot change what another is handed, and the arguments are
read when the call is made (a caller changing its view afterwards changes nothing
cached). A hit returns the very bytes the first call drew.

It is bounded by the bytes it holds (`CACHE_BYTES`, about 400 boards) and by entries
(`MAX_ENTRIES`); the least recently used image goes first. While texts are being
recorded (`render.draw.recording`, the language tests) nothing is taken from or put in
the cache: every image is drawn, so every text is seen.

A turn post shows the whole board and its close-up (`focus=True`) of the same view,
cells and names, asked for at the same time from two worker threads: the close-up is a
crop of the whole board (`render.board.close_up`), so both are made from one drawing
(`BOARDS`, a few drawn boards, each drawn by the first thread to ask while the other
waits for it). The bytes are those of `render.board.board_png` either way.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import io
import pickle
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import Any, Generic, ParamSpec

from PIL import Image

from render import board, market, pyramid, replay, scoresheet
from render.draw import _drawn as _recorded
from render.draw import paletted, png_bytes
from render.words import ENGLISH, Translator
from rules.view import View

CACHE_BYTES = 32 * 1024 * 1024  # about 400 boards of 70-85 KiB, or 60 replays
MAX_ENTRIES = 1024


class ImageCache:
    """Images by key, least recently used first out once `max_bytes` or `max_entries`
    is exceeded; safe to use from several threads (the bot draws in worker threads).
    Two threads asking for the same missing image may both draw it; the first one
    stored is kept and handed to both (they are equal bytes)."""

    def __init__(self, max_bytes: int = CACHE_BYTES, max_entries: int = MAX_ENTRIES) -> None:
        self.max_bytes = max_bytes
        self.max_entries = max_entries
        self._items: OrderedDict[Hashable, bytes] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._items)

    @property
    def size(self) -> int:
        """The bytes of the images held."""
        return self._bytes

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._bytes = 0
            self.hits = self.misses = 0

    def _held(self, key: Hashable) -> bytes | None:
        """The image under `key` if it is held (counted as a hit), else None; called
        with the lock held."""
        found = self._items.get(key)
        if found is not None:
            self._items.move_to_end(key)
            self.hits += 1
        return found

    def peek(self, key: Hashable) -> bytes | None:
        """The image under `key` if it is held (counted as a hit), else None."""
        with self._lock:
            return self._held(key)

    def get(self, key: Hashable, draw: Callable[[], bytes]) -> bytes:
        """The image under `key`, drawn by `draw` if it is not held."""
        with self._lock:
            found = self._held(key)
            if found is not None:
                return found
            self.misses += 1
        made = draw()
        with self._lock:
            kept = self._items.get(key)
            if kept is not None:  # another thread drew it meanwhile
                self._items.move_to_end(key)
                return kept
            if len(made) > self.max_bytes:
                return made  # never held: it would push out everything else
            self._items[key] = made
            self._bytes += len(made)
            while self._bytes > self.max_bytes or len(self._items) > self.max_entries:
                _, dropped = self._items.popitem(last=False)
                self._bytes -= len(dropped)
        return made


IMAGES = ImageCache()
P = ParamSpec("P")


class _Pickler(pickle.Pickler):
    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, Image.Image):  # its pixels would be pickled: no key
            raise TypeError("an image is not a key")
        return NotImplemented


def digest(data: Any) -> bytes | None:
    """A digest of plain data (a view: dicts, lists, strings, numbers; names, cells, a
    preview), or None when it cannot be pickled or holds an image (such a call is
    drawn without the cache). The pickle has no memo ("fast" mode), so it depends on
    the values alone, not on which of them happen to be one object (a view read from
    JSON and the same view built from the state give the same digest)."""
    out = io.BytesIO()
    pickler = _Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.fast = True  # no memo: equal data, equal bytes (a cycle raises ValueError)
    try:
        pickler.dump(data)
    except (pickle.PicklingError, TypeError, ValueError, AttributeError, RecursionError):
        return None
    return hashlib.blake2b(out.getbuffer(), digest_size=20).digest()


class DrawnOnce(Generic[P]):
    """`draw` behind `IMAGES`: the key is the function, a digest of its arguments by
    name (defaults filled in) and the language (`messages`, by its own hash). A call
    whose arguments cannot be pickled (a generator of cells, an image) or whose
    language is not hashable is drawn every time; so is every call while texts are
    recorded."""

    def __init__(self, draw: Callable[P, bytes]) -> None:
        self.draw = draw
        self.signature = inspect.signature(draw)
        self.name = f"{draw.__module__}.{draw.__qualname__}"
        functools.update_wrapper(self, draw)

    def key(self, *args: P.args, **kwargs: P.kwargs) -> Hashable | None:
        """The call's key in `IMAGES`, or None if it is drawn every time."""
        if _recorded.get() is not None:
            return None
        bound = self.signature.bind(*args, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        language = arguments.pop("messages", None)
        found = digest(arguments)
        if found is None:
            return None
        key = (self.name, found, language)
        try:
            hash(key)
        except TypeError:
            return None
        return key

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> bytes:
        key = self.key(*args, **kwargs)
        if key is None:
            return self.draw(*args, **kwargs)
        return IMAGES.get(key, lambda: self.draw(*args, **kwargs))

    def held(self, *args: P.args, **kwargs: P.kwargs) -> bytes | None:
        """The image of this call if `IMAGES` holds it (a hit), else None (not drawn)."""
        key = self.key(*args, **kwargs)
        return None if key is None else IMAGES.peek(key)


def drawn_once(draw: Callable[P, bytes]) -> DrawnOnce[P]:
    return DrawnOnce(draw)


class _Drawing:
    """One board being drawn, or drawn: whoever asks for it meanwhile waits."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.image: Image.Image | None = None  # None once done: the drawing failed


class DrawnBoards:
    """The last `keep` boards drawn, as images (about 3.5 MB each), so that a board's
    close-up is cropped from the whole board drawn for the same turn post instead of
    drawn again. A board asked for while another thread draws it is waited for, not
    drawn twice. The images are shared: callers crop or encode them, never draw on
    them."""

    def __init__(self, keep: int = 4) -> None:
        self.keep = keep
        self._items: OrderedDict[Hashable, _Drawing] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: Hashable, draw: Callable[[], Image.Image]) -> Image.Image:
        with self._lock:
            drawing = self._items.get(key)
            mine = drawing is None
            if drawing is None:
                drawing = self._items[key] = _Drawing()
                self.misses += 1
                while len(self._items) > self.keep:
                    self._items.popitem(last=False)
            else:
                self._items.move_to_end(key)
                self.hits += 1
        if not mine:
            drawing.done.wait()
            return drawing.image if drawing.image is not None else draw()
        try:
            drawing.image = draw()
        except BaseException:
            with self._lock:
                if self._items.get(key) is drawing:
                    del self._items[key]
            raise
        finally:
            drawing.done.set()
        return drawing.image


BOARDS = DrawnBoards()


@functools.wraps(board.board_png)
def _board_png(
    view: View,
    *,
    highlight: Iterable[str] = (),
    preview: board.Preview | None = None,
    focus: bool = False,
    crop: bool = False,
    names: Mapping[int, str] | None = None,
    messages: Translator = ENGLISH,
) -> bytes:
    """`render.board.board_png`, the whole board and its close-up made from one
    drawing (`BOARDS`); drawn alone while texts are recorded, or when the view or the
    language cannot be a key."""
    highlight = tuple(highlight)
    found = None if _recorded.get() is not None else digest((view, highlight, preview, names))
    try:
        key = (found, messages)
        hash(key)
    except TypeError:
        found = None
    if found is None:
        return board.board_png(
            view,
            highlight=highlight,
            preview=preview,
            focus=focus or crop,
            names=names,
            messages=messages,
        )
    whole = BOARDS.get(
        key,
        lambda: board.board_image(
            view, highlight=highlight, preview=preview, names=names, messages=messages
        ),
    )
    if focus or crop:
        return png_bytes(board.close_up(whole, view, highlight, preview))
    return png_bytes(whole)


board_png = drawn_once(_board_png)
pyramid_png = drawn_once(pyramid.pyramid_png)
market_png = drawn_once(market.market_png)
score_png = drawn_once(scoresheet.score_png)
replay_webp = drawn_once(replay.replay_webp)


def board_frame(
    view: View,
    *,
    highlight: Iterable[str] = (),
    names: Mapping[int, str] | None = None,
    messages: Translator = ENGLISH,
) -> bytes | Image.Image:
    """A frame of the replay (`replay_webp` takes either): the whole board's PNG bytes
    if `IMAGES` holds them (the turn post drew them), else the board drawn in its PNG's
    colours (`render.draw.paletted`), the very pixels the PNG would have, without
    encoding a PNG to decode it again (a bot started again since, or a cache that
    dropped the game's first turns)."""
    held = board_png.held(view, highlight=highlight, names=names, messages=messages)
    if held is not None:
        return held
    return paletted(board.board_image(view, highlight=highlight, names=names, messages=messages))
