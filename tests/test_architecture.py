"""Dependencies point one way: the rules engine imports no I/O, Discord or imaging
libraries, so it stays a pure function of (config, seed, actions)."""

from __future__ import annotations

import subprocess
import sys

FORBIDDEN_FOR_RULES = ("discord", "PIL", "aiosqlite", "sqlite3", "render", "bot", "asyncio")


def test_rules_package_imports_nothing_from_outer_layers() -> None:
    code = (
        "import sys, rules, rules.cli, rules.legal, rules.view, rules.selfplay;"
        "print('\\n'.join(sorted(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    modules = done.stdout.split()
    top = {m.split(".")[0] for m in modules}
    for name in FORBIDDEN_FOR_RULES:
        assert name not in top, f"rules pulls in {name}"


def test_rules_never_uses_global_random() -> None:
    from pathlib import Path

    import rules

    root = Path(rules.__file__).parent
    for path in root.glob("*.py"):
        text = path.read_text()
        for call in ("random.random(", "random.choice(", "random.shuffle(", "random.randint("):
            assert call not in text, f"{path.name} uses the global random generator"
