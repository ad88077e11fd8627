"""Rewrite Cave Troll's reference images (`tests/render/reference/cave-troll/*.png`, which
tests/render/test_ct_images.py compares against) and the README's
(`docs/images/cave-troll-*.png`):

    .venv/bin/python -m scripts.update_ct_images

Run it only for a deliberate visual change, look at every image it writes, and commit
them with the change.
"""

from __future__ import annotations

from pathlib import Path

from bot.i18n import translator_for
from bot.i18n.catalogue import TRANSLATED
from render.cave_troll import cave_png, panel_png
from render.cave_troll.samples import SAMPLE_NAMES, crowded, images, in_flight

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "tests" / "render" / "reference" / "cave-troll"
DOCS = ROOT / "docs" / "images"


def main() -> None:
    languages = {language: translator_for(language) for language in TRANSLATED}
    written = {REFERENCE / f"{name}.png": data for name, data in images(languages).items()}
    crowd = crowded()
    written |= {
        DOCS / "cave-troll-map.png": cave_png(crowd, changed=("A3",), names=SAMPLE_NAMES),
        DOCS / "cave-troll-flight.png": cave_png(in_flight()),
        DOCS / "cave-troll-panel.png": panel_png(crowd, 0, names=SAMPLE_NAMES),
        DOCS / "cave-troll-map-pl.png": cave_png(crowd, messages=translator_for("pl")),
    }
    for path, data in written.items():
        path.write_bytes(data)
        print(f"wrote {path.relative_to(ROOT)} ({len(data) // 1024} KiB)")


if __name__ == "__main__":
    main()
