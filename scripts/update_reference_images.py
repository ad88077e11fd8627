"""Rewrite the reference images the render tests compare against:

    .venv/bin/python scripts/update_reference_images.py

Run it only for a deliberate visual change, look at every image it writes, and commit
them with the change.
"""

from __future__ import annotations

from pathlib import Path

from render.references import reference_images

OUT = Path(__file__).resolve().parent.parent / "tests" / "render" / "reference"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, data in reference_images().items():
        (OUT / f"{name}.png").write_bytes(data)
        print(f"wrote tests/render/reference/{name}.png ({len(data) // 1024} KiB)")


if __name__ == "__main__":
    main()
