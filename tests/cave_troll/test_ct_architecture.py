"""Cave Troll's rules are pure like rules/: stdlib and pydantic only (no I/O library,
no Discord, no imaging, no asyncio, neither the bot nor the other game), and no global
random generator."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import cave_troll

ROOT = Path(cave_troll.__file__).parent
# pydantic and what it brings
ALLOWED_TOP = {
    "cave_troll",
    "pydantic",
    "pydantic_core",
    "typing_extensions",
    "typing_inspection",
    "annotated_types",
}


def test_cave_troll_imports_only_the_standard_library_and_pydantic() -> None:
    code = (
        "import sys; before = set(sys.modules);"
        "import cave_troll, cave_troll.cli, cave_troll.ai, cave_troll.selfplay, cave_troll.view;"
        "print('\\n'.join(sorted(set(sys.modules) - before)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    top = {m.split(".")[0] for m in done.stdout.split()}
    foreign = {
        name
        for name in top - ALLOWED_TOP
        if name not in sys.stdlib_module_names and not name.startswith("_")
    }
    assert not foreign, f"cave_troll pulls in {sorted(foreign)}"
    for name in (
        "discord",
        "PIL",
        "aiosqlite",
        "asyncpg",
        "sqlite3",
        "asyncio",
        "bot",
        "rules",
        "render",
    ):
        assert name not in top, f"cave_troll pulls in {name}"


def test_no_module_imports_inside_a_function_or_uses_the_global_random() -> None:
    for path in sorted(ROOT.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                for inner in ast.walk(node):
                    assert not isinstance(inner, ast.Import | ast.ImportFrom), (
                        f"{path.name}:{inner.lineno} imports inside {node.name}"
                    )
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
                and node.attr != "Random"
            ):
                raise AssertionError(f"{path.name}:{node.lineno} uses random.{node.attr}")
