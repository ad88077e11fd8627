"""The stores' shape: SQLite runs through aiosqlite's connections (no thread of the
project's own for it), and neither store reaches into the other's private names."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

pytestmark = pytest.mark.sqlite_only  # a test of the code, not of a store

BOT = Path(__file__).resolve().parents[2] / "bot"
# what starts a thread, or hands work to one
THREADS = {"threading", "_thread", "concurrent.futures"}
THREAD_CALLS = {"to_thread", "run_in_executor", "Thread", "ThreadPoolExecutor"}
SQLITE = {"sqlite3", "aiosqlite"}
STORES = {"bot.store.sqlite", "bot.store.group_commit", "bot.store.postgres"}


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(), filename=str(path))


def _imported(tree: ast.Module) -> list[tuple[str, list[str]]]:
    """Each import: the module and the names taken from it."""
    found: list[tuple[str, list[str]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            found.append((node.module, [alias.name for alias in node.names]))
    return found


def _thread_starts(tree: ast.Module) -> list[str]:
    starts = [m for m, _ in _imported(tree) if m in THREADS or m.split(".")[0] == "threading"]
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            called = node.func
            name = called.attr if isinstance(called, ast.Attribute) else getattr(called, "id", "")
            if name in THREAD_CALLS:
                starts.append(f"{name}() on line {node.lineno}")
    return starts


def _module(path: Path) -> str:
    return ".".join(path.relative_to(BOT.parent).with_suffix("").parts)


def test_no_module_that_touches_sqlite_starts_a_thread_of_its_own() -> None:
    touching = []
    for path in sorted(BOT.rglob("*.py")):
        tree = _tree(path)
        if not {m.split(".")[0] for m, _ in _imported(tree)} & SQLITE:
            continue
        touching.append(_module(path))
        assert not _thread_starts(tree), f"{_module(path)} starts threads beside SQLite"
    assert {"bot.store.sqlite", "bot.store.transfer"} <= set(touching)


def test_the_sqlite_store_runs_on_aiosqlite() -> None:
    imported = {m for m, _ in _imported(_tree(BOT / "store" / "sqlite.py"))}
    assert "aiosqlite" in imported
    assert not _thread_starts(_tree(BOT / "store" / "group_commit.py"))


def test_the_stores_import_no_private_name_of_each_other() -> None:
    for name in STORES:
        path = BOT.parent.joinpath(*name.split(".")).with_suffix(".py")
        for module, names in _imported(_tree(path)):
            if module in STORES - {name}:
                private = [n for n in names if n.startswith("_")]
                assert not private, f"{name} imports {private} from {module}"


def test_the_checks_see_a_thread_started_beside_sqlite() -> None:
    tree = ast.parse(
        "import asyncio, sqlite3\nasync def f():\n    await asyncio.to_thread(sqlite3.connect)"
    )
    assert _thread_starts(tree) == ["to_thread() on line 3"]
    assert _imported(ast.parse("from bot.store.sqlite import _x")) == [("bot.store.sqlite", ["_x"])]


def test_each_method_of_the_store_is_written_once() -> None:
    """The drivers supply connections, their dialect and their own load, append and
    backup; every other method is the shared `Store`'s, which no driver overrides."""
    from bot.store.base import Store
    from bot.store.driver import Driver
    from bot.store.postgres import PostgresStore
    from bot.store.sqlite import SqliteStore

    hooks = set(Driver.__abstractmethods__)
    assert {"load_game", "_append", "backup", "_rows", "_write"} <= hooks
    for driver in (SqliteStore, PostgresStore):
        own = {name for name, value in vars(driver).items() if callable(value)}
        assert not own & set(vars(Store)), driver
        public = {name for name in own if not name.startswith("_")}
        assert public <= hooks | {"transaction"}, (driver, public - hooks)


def test_no_row_is_read_by_position() -> None:
    """Rows are read by column name (`row["seq"]`), never as `row[0]`."""
    found = []
    for path in sorted((BOT / "store").glob("*.py")):
        for node in ast.walk(_tree(path)):
            if (
                isinstance(node, ast.Subscript)
                and isinstance(node.slice, ast.Constant)
                and isinstance(node.slice.value, int)
                and isinstance(node.value, ast.Name)
                and node.value.id in {"r", "row", "head", "found", "done"}
            ):
                found.append(f"{path.name}:{node.lineno}")
    assert not found, found
