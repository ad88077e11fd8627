"""The animated replay: the board after every turn as one animated WebP, for the end
of a game (Discord plays animated WebP inline)."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

WIDTH = 510  # half the board: the whole game still reads on a phone
FRAME_MS = 600
LAST_MS = 4000  # the final position stays up a while before the loop starts again
MAX_BYTES = 7_500_000  # under Discord's 8 MB upload limit for a bot without boosts
# each encoding tried in turn until the file fits (lossless, quality): lossless first,
# the boards' own pixels, at libwebp's least lossless effort (quality 0; METHOD 2): for
# three sample games (32, 60 and 65 boards) 27% less CPU than lossy at 70 (1.80 -> 1.32 s)
# for 9% more bytes (902 -> 985 KiB), with no blur around the letters; then lossy, at
# lower and lower quality
ENCODINGS = ((True, 0), (False, 70), (False, 50), (False, 35))
# libwebp's effort (0 fastest to 6 smallest): 2 encodes a game's replay in about half the
# CPU of 4 (1.63 -> 0.87 s for 60 boards) for files about 5% larger
METHOD = 2
# no key frames after the first: libwebp's default for lossy animations (gif2webp's kmin 3,
# kmax 5) encodes every frame from the third on twice, as a whole key frame and as the
# rectangle that changed, and keeps a whole frame at least every fifth; a turn changes a
# few cells, so without them a game's replay takes about 40% less encoding CPU (1.17 ->
# 0.66 s for 60 boards) and half the bytes (669 -> 317 KB) for the same pictures (mean
# error against the boards 3.6 either way). A key frame only serves seeking, and Discord
# plays the replay from its start. 0 turns key frames off (libwebp: kmax <= 0).
KEY_FRAMES = 0


def replay_webp(
    boards: Sequence[bytes | Image.Image],
    *,
    width: int = WIDTH,
    frame_ms: int = FRAME_MS,
    last_ms: int = LAST_MS,
    max_bytes: int = MAX_BYTES,
) -> bytes:
    """An animated WebP of `boards` (PNG bytes or images, one per turn), each scaled
    to `width` pixels wide, shown `frame_ms` each and the last `last_ms`, looping.
    Lossless if it fits in `max_bytes`, else lossy at a lower and lower quality, then
    smaller, until it fits."""
    if not boards:
        raise ValueError("a replay needs at least one board")
    originals = [_rgb(b) for b in boards]
    durations = [frame_ms] * (len(originals) - 1) + [last_ms]
    data = b""
    while True:
        frames = [_scaled(f, width) for f in originals]
        for lossless, quality in ENCODINGS:
            data = _encode(frames, durations, quality, lossless)
            if len(data) <= max_bytes:
                return data
        if width <= 200:
            return data
        width = width * 3 // 4


def _rgb(board: bytes | Image.Image) -> Image.Image:
    img = Image.open(io.BytesIO(board)) if isinstance(board, bytes) else board
    return img.convert("RGB")


def _scaled(img: Image.Image, width: int) -> Image.Image:
    if img.width <= width:
        return img
    factor = img.width // width
    if img.width == width * factor:  # an exact fraction: averaging is fast and sharp
        return img.reduce(factor)
    height = round(img.height * width / img.width)
    return img.resize((width, height), Image.Resampling.LANCZOS, reducing_gap=2.0)


def _encode(
    frames: list[Image.Image], durations: list[int], quality: int, lossless: bool = False
) -> bytes:
    buf = io.BytesIO()
    frames[0].save(
        buf,
        format="WEBP",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        lossless=lossless,
        quality=quality,
        method=METHOD,
        kmin=KEY_FRAMES,
        kmax=KEY_FRAMES,
    )
    return buf.getvalue()
