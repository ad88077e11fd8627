"""The image tests draw every image: render's cache (render.cache, tested on its own in
test_render_cache.py) holds nothing here, so a test that draws the same view twice and
compares the bytes compares two drawings."""

from __future__ import annotations

import pytest

from render import cache as image_cache


@pytest.fixture(autouse=True)
def _every_image_drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(image_cache, "IMAGES", image_cache.ImageCache(max_bytes=0))
