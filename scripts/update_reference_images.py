"""Rewrite the reference images the render tests compare against, in English and in
each translated language (`pl-board-end.png`, `es-legend.png`...):

    .venv/bin/python -m scripts.update_reference_images

Run it only for a deliberate visual change, look at every image it writes (the Polish
and Spanish ones too: text fits, letters with diacritics draw), and commit them with
the change.
"""

from __future__ import annotations

from pathlib import Path

from bot.i18n import translator_for
from bot.i18n.catalogue import TRANSLATED
from render.references import reference_images

OUT = Path(__file__).resolve().parent.parent / "tests" / "render" / "reference"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    languages = {language: translator_for(language) for language in TRANSLATED}
    for name, data in reference_images(languages).items():
        (OUT / f"{name}.png").write_bytes(data)
        print(f"wrote tests/render/reference/{name}.png ({len(data) // 1024} KiB)")


if __name__ == "__main__":
    main()
