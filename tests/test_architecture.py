"""Dependencies point one way: the rules engine imports no I/O, Discord or imaging
libraries, so it stays a pure function of (config, seed, actions)."""

from __future__ import annotations

import ast
import inspect
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

import render.words

FORBIDDEN_FOR_RULES = ("discord", "PIL", "aiosqlite", "sqlite3", "render", "bot", "asyncio")


def test_rules_package_imports_nothing_from_outer_layers() -> None:
    code = (
        "import sys, rules, rules.cli, rules.legal, rules.options, rules.view, rules.selfplay;"
        "print('\\n'.join(sorted(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    modules = done.stdout.split()
    top = {m.split(".")[0] for m in modules}
    for name in FORBIDDEN_FOR_RULES:
        assert name not in top, f"rules pulls in {name}"


def test_the_images_import_neither_the_bot_nor_discord() -> None:
    """render/ draws from a view and the texts of a language it is handed (any object
    with gettext, ngettext, pgettext and npgettext: render.words.Translator); it never
    reads the bot's catalogue nor knows Discord, so it runs in scripts and tests alone."""
    code = (
        "import sys, render, render.references, render.samples, render.vision;"
        "print('\\n'.join(sorted(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    top = {m.split(".")[0] for m in done.stdout.split()}
    assert "render" in top, "the images were imported"
    for name in ("bot", "discord", "aiosqlite", "asyncpg", "babel"):
        assert name not in top, f"render pulls in {name}"


def test_the_games_words_are_one_vocabulary() -> None:
    """The game's words are written once, in render.words, which the images and the
    bot's face both import (render may not import the bot, nor the bot's catalogue the
    rest of the project): the catalogue's markers of a message with its context (`C_`,
    `NC_`) are defined there alone and imported from there, and every word takes its
    value first and the texts of a language last, `(value, messages)`."""
    markers = re.compile(r"^def N?C_\(", re.MULTILINE)
    defined = sorted(
        path.relative_to(ROOT).as_posix()
        for package in ("bot", "render", "rules", "cave_troll")
        for path in (ROOT / package).rglob("*.py")
        if markers.search(path.read_text(encoding="utf-8"))
    )
    assert defined == ["render/words.py"]
    imported = {
        target
        for found in _bot_imports().values()
        for target, _ in found
        if target.rpartition(".")[2] in ("C_", "NC_")
    }
    assert imported and imported <= {"render.words.C_", "render.words.NC_"}
    functions = inspect.getmembers(render.words, inspect.isfunction)
    worded = [(n, f) for n, f in functions if "messages" in inspect.signature(f).parameters]
    assert len(worded) > 20
    for name, function in worded:
        positional = [
            p.name
            for p in inspect.signature(function).parameters.values()
            if p.kind is p.POSITIONAL_OR_KEYWORD
        ]
        assert positional[-1] == "messages", name


def test_rules_never_uses_global_random() -> None:
    import rules

    root = Path(rules.__file__).parent
    for path in root.glob("*.py"):
        text = path.read_text()
        for call in ("random.random(", "random.choice(", "random.shuffle(", "random.randint("):
            assert call not in text, f"{path.name} uses the global random generator"


# --- the import graphs of the bot and of the rules ---------------------------------------

ROOT = Path(__file__).resolve().parent.parent
BOT = ROOT / "bot"
RULES = ROOT / "rules"
# the game's engine, reached only through the rules adapter of the service
ENGINE_MODULES = ("rules.engine", "rules.setup", "rules.game", "rules.ai")
RULES_ADAPTER = "bot.service.mountain_king"
# Cave Troll's engine (its play, AI and default answers), reached only through its adapter
CAVE_TROLL_ENGINE = (
    "cave_troll.engine",
    "cave_troll.game",
    "cave_troll.ai",
    "cave_troll.flight",
    "cave_troll.defaults",
)
CAVE_TROLL_ADAPTER = "bot.service.cave_troll"
ADAPTERS = (RULES_ADAPTER, CAVE_TROLL_ADAPTER)
# the packages of the games' rules: the table imports none of their modules but errors
RULES_PACKAGES = ("rules", "cave_troll")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


# the trees and import lists below are parsed once per test process and only read by
# the tests (parsing the bot's modules again for each test cost about 1 s of CPU each)
@cache
def _parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _modules(package: Path) -> dict[str, ast.Module]:
    return {_module_name(path): _parsed(path) for path in sorted(package.rglob("*.py"))}


def _bot_modules() -> dict[str, ast.Module]:
    return _modules(BOT)


def _imports(name: str, tree: ast.Module, is_package: bool) -> list[tuple[str, int]]:
    """Every module an import statement anywhere in the module names (at module level,
    in functions, under TYPE_CHECKING), relative ones resolved, with its line.
    `from a import b` names `a`, and `a.b` too (b may be a submodule)."""
    package = name if is_package else name.rpartition(".")[0]
    found: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            found.append((source, node.lineno))
            found += [(f"{source}.{alias.name}", node.lineno) for alias in node.names]
    return found


@cache
def _package_imports(package: Path) -> dict[str, list[tuple[str, int]]]:
    """Each module of a package with every module it names in an import, and the line."""
    packages = {_module_name(p) for p in package.rglob("__init__.py")}
    return {
        name: _imports(name, tree, name in packages) for name, tree in _modules(package).items()
    }


def _bot_imports() -> dict[str, list[tuple[str, int]]]:
    return _package_imports(BOT)


def _import_graph(package: Path = BOT) -> dict[str, set[str]]:
    """Which modules of the package each of its modules imports. A package that holds
    the importing module is left out (`from rules import tunnels` in rules.engine
    names the package `rules`, which is always set up before its modules run: only
    `rules.tunnels` is an edge)."""
    imports = _package_imports(package)
    return {
        name: {
            target
            for target, _ in found
            if target in imports and target != name and not name.startswith(target + ".")
        }
        for name, found in imports.items()
    }


def _find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle (its modules, the first repeated at the end), or None."""
    done: set[str] = set()
    path: list[str] = []
    on_path: set[str] = set()

    def visit(node: str) -> list[str] | None:
        path.append(node)
        on_path.add(node)
        for target in sorted(graph[node]):
            if target in on_path:
                return [*path[path.index(target) :], target]
            if target not in done:
                cycle = visit(target)
                if cycle:
                    return cycle
        path.pop()
        on_path.discard(node)
        done.add(node)
        return None

    for start in sorted(graph):
        if start not in done:
            cycle = visit(start)
            if cycle:
                return cycle
    return None


def test_find_cycle_reports_the_modules_of_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _find_cycle(graph) == ["a", "b", "c", "a"]
    assert _find_cycle({"a": {"b"}, "b": set()}) is None


def test_relative_imports_are_resolved() -> None:
    tree = ast.parse("from . import texts\nfrom .service import GameInfo\nfrom .. import x")
    found = [m for m, _ in _imports("bot.features.lobby", tree, is_package=False)]
    assert found[:2] == ["bot.features", "bot.features.texts"]
    assert "bot.features.service" in found and "bot" in found


def test_the_bot_has_no_import_cycle() -> None:
    graph = _import_graph()
    assert "bot.service" in graph["bot.client"], "the graph sees package imports"
    cycle = _find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def _imports_in_functions(package: Path) -> list[str]:
    found = []
    for name, tree in _modules(package).items():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                found += [
                    f"{name}:{inner.lineno} in {node.name}()"
                    for inner in ast.walk(node)
                    if isinstance(inner, ast.Import | ast.ImportFrom)
                ]
    return sorted(set(found))


def test_no_import_inside_a_function_in_the_bot() -> None:
    found = _imports_in_functions(BOT)
    assert not found, (
        "imports inside functions (move the name where its users expect it): " + ", ".join(found)
    )


def test_the_rules_have_no_import_cycle() -> None:
    graph = _import_graph(RULES)
    assert "rules.steps" in graph["rules.engine"], "the graph sees `from rules import x`"
    assert "rules" not in graph["rules.engine"], "the enclosing package is no edge"
    cycle = _find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_engine_does_not_reach_the_legal_move_generators() -> None:
    """The legal moves ask the engine (`in` checks an action on a copy); the engine
    asks `rules.steps` and the rule modules, never the generators, even indirectly."""
    graph = _import_graph(RULES)
    assert "rules.engine" in graph["rules.legal"]
    assert "rules.legal" not in _reachable(graph, "rules.engine")


def test_the_graph_finds_the_package_edge_that_is_not_an_ancestor() -> None:
    tree = ast.parse("from rules import tunnels\nfrom rules.ai import choose_action")
    found = [m for m, _ in _imports("rules.selfplay", tree, is_package=False)]
    assert found == ["rules", "rules.tunnels", "rules.ai", "rules.ai.choose_action"]
    graph = _import_graph(RULES)
    assert "rules.ai" in graph["rules.selfplay"] and "rules" not in graph["rules.selfplay"]


def test_no_import_inside_a_function_in_the_rules() -> None:
    found = _imports_in_functions(RULES)
    assert not found, "imports inside functions in rules/: " + ", ".join(found)


def _engine_importers(engine: tuple[str, ...] = ENGINE_MODULES) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for name, imports in _bot_imports().items():
        for target, line in imports:
            if any(target == m or target.startswith(m + ".") for m in engine):
                found.setdefault(name, []).append(f"{target} (line {line})")
    return found


@pytest.mark.parametrize(
    ("engine", "adapter"),
    [(ENGINE_MODULES, RULES_ADAPTER), (CAVE_TROLL_ENGINE, CAVE_TROLL_ADAPTER)],
    ids=["mountain-king", "cave-troll"],
)
def test_only_the_rules_adapter_reaches_the_engine(engine: tuple[str, ...], adapter: str) -> None:
    importers = _engine_importers(engine)
    assert adapter in importers, f"{adapter} plays the game"
    outside = {name: targets for name, targets in importers.items() if name != adapter}
    assert not outside, f"only {adapter} may import the engine: {outside}"


def _reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        for target in graph[todo.pop()] - seen:
            seen.add(target)
            todo.append(target)
    return seen


def test_the_bot_class_imports_no_feature() -> None:
    """Features import the bot; the bot is handed them (by bot.app), so it never
    imports one, even indirectly."""
    reached = _reachable(_import_graph(), "bot.client")
    features = {
        m
        for m in reached
        if m.startswith(("bot.features", "bot.mountain_king", "bot.cave_troll"))
        or m in ("bot.app", "bot.scheduler")
    }
    assert not features, f"bot.client reaches {sorted(features)}"


def test_message_texts_are_a_leaf() -> None:
    """bot.texts (the table's messages) reads plain values (the service's results, owed
    payloads and vote tallies) and imports no other part of the bot but the message
    catalogue and the table's words; the game's messages (bot.mountain_king.texts) add
    the game's stories and words, and the table's texts they build on."""
    graph = _import_graph()
    table = {
        "bot.service.results",
        "bot.service.owed",
        "bot.service.protocol",
        "bot.service.votes",
        "bot.i18n.catalogue",
        "bot.words",
    }
    assert graph["bot.texts"] <= table
    game = {"bot.texts", "bot.mountain_king.stories", "bot.mountain_king.words"}
    assert "bot.mountain_king.stories" in graph["bot.mountain_king.texts"]
    assert graph["bot.mountain_king.texts"] <= table | game


def test_stories_and_words_are_leaves() -> None:
    """bot.words names the table's words (lists, a seat's colour) from the catalogue;
    bot.mountain_king.words puts the game's words (render.words) in sentences;
    bot.mountain_king.stories tells the rules' stories with them: none imports Discord,
    the service's machinery or any other part of the bot."""
    graph = _import_graph()
    assert graph["bot.words"] == {"bot.i18n.catalogue"}
    assert graph["bot.mountain_king.words"] == {"bot.i18n.catalogue", "bot.words"}
    assert graph["bot.mountain_king.stories"] <= {
        "bot.i18n.catalogue",
        "bot.words",
        "bot.mountain_king.words",
        "bot.service.protocol",
    }
    for name in ("bot.words", "bot.mountain_king.words", "bot.mountain_king.stories"):
        tree = _bot_modules()[name]
        imported = {m.split(".")[0] for m, _ in _imports(name, tree, False)}
        assert "discord" not in imported, name


def test_cave_trolls_texts_stories_words_help_and_alt_are_leaves() -> None:
    """Cave Troll's face is built like the Mountain King's: its messages
    (bot.cave_troll.texts), stories, words, help and alt texts read plain values, the
    table's texts and words, and the game's own (cave_troll's content, effects, stories
    and view; render.cave_troll.words), never Discord nor the service's machinery."""
    graph = _import_graph()
    table = {
        "bot.service.results",
        "bot.service.owed",
        "bot.service.protocol",
        "bot.i18n.catalogue",
        "bot.words",
        "bot.texts",
    }
    face = {"bot.cave_troll.stories", "bot.cave_troll.words"}
    for name in ("texts", "stories", "words", "help", "alt"):
        module = f"bot.cave_troll.{name}"
        assert graph[module] <= table | face, (module, graph[module] - table - face)
        tree = _bot_modules()[module]
        imported = {m.split(".")[0] for m, _ in _imports(module, tree, False)}
        assert "discord" not in imported, module
        reached = {m for m, _ in _imports(module, tree, False) if m.startswith("cave_troll.")}
        engine = {m for m in reached if m.startswith(CAVE_TROLL_ENGINE)}
        assert not engine, (module, engine)


def test_help_texts_are_a_leaf() -> None:
    """bot.mountain_king.help (help, captions, the permissions refusal) reads plain
    values and the game's content, and imports no other part of the bot."""
    assert _import_graph()["bot.mountain_king.help"] <= {
        "bot.service.results",
        "bot.i18n.catalogue",
        "bot.words",
        "bot.mountain_king.words",
    }


# the game's face: every module of the bot that knows the Mountain King's rules
FACE = "bot.mountain_king"
# Cave Troll's face, where it will be
CAVE_TROLL_FACE = "bot.cave_troll"
# where the bot is put together: it hands the table the game's face and rules
COMPOSITION_ROOTS = ("bot.app", "bot.__main__", "bot.catalogue")


def _in_face(name: str) -> bool:
    return any(name == face or name.startswith(face + ".") for face in (FACE, CAVE_TROLL_FACE))


def _table_modules() -> dict[str, list[tuple[str, int]]]:
    """The table's modules (every module of the bot but the game's face and the rules'
    adapter) with what each imports."""
    return {
        name: found
        for name, found in _bot_imports().items()
        if not _in_face(name) and name not in ADAPTERS
    }


def test_the_table_imports_no_rules_beyond_their_errors() -> None:
    """Lobby, seats, the courier, the scheduler, the service and the store talk to the
    game through the protocol (`bot.service.protocol`) and the service's results: the
    only module of a game's rules they import is its errors (`rules.errors`, a refusal's
    sentence); Cave Troll's (`cave_troll/`) likewise."""
    table = _table_modules()
    assert "bot.courier" in table and "bot.features.lobby" in table
    found = [
        f"{name}:{line} imports {target}"
        for name, imports in table.items()
        for target, line in imports
        if (package := target.split(".")[0]) in RULES_PACKAGES
        and target != f"{package}.errors"
        and not target.startswith(f"{package}.errors.")
    ]
    assert not found, "the table reaches the rules: " + ", ".join(found)
    face = [n for n, imports in _bot_imports().items() if _in_face(n)]
    assert any(t.startswith("rules.") for n in face for t, _ in _bot_imports()[n]), (
        "the face is where the rules are read"
    )


def test_the_table_imports_no_part_of_the_games_face() -> None:
    """Only where the bot is put together (`bot.app`, `bot.__main__`, the catalogue's
    tool) is the game's face named; the table is handed it (`bot.face.GameFace`)."""
    found = [
        f"{name}:{line} imports {target}"
        for name, imports in _table_modules().items()
        if name not in COMPOSITION_ROOTS
        for target, line in imports
        if _in_face(target)
    ]
    assert not found, "the table reaches the game's face: " + ", ".join(found)
    assert any(_in_face(t) for t, _ in _bot_imports()["bot.app"]), "bot.app installs it"


def test_the_message_catalogue_is_a_leaf() -> None:
    """bot.i18n.catalogue (the gettext catalogues) imports no other part of the bot and
    no Discord, so every text module and the service may use it."""
    assert _import_graph()["bot.i18n.catalogue"] == set()
    tree = _bot_modules()["bot.i18n.catalogue"]
    imported = {m.split(".")[0] for m, _ in _imports("bot.i18n.catalogue", tree, False)}
    assert "discord" not in imported


# the project's own packages: what "another part of the project" may be
PROJECT_PACKAGES = ("bot", "rules", "render", "cave_troll")


def _reaching_out(package: str, imports: dict[str, list[tuple[str, int]]]) -> list[str]:
    """Each import, in a module of `package`, of a module of the project outside it (its
    own modules and the packages that hold it excepted: `from bot import words` names
    `bot`, which is no edge, and `bot.words`, which is)."""
    holders = {".".join(package.split(".")[:n]) for n in range(1, package.count(".") + 1)}
    found = []
    for name, targets in imports.items():
        if name != package and not name.startswith(package + "."):
            continue
        for target, line in targets:
            inside = target == package or target.startswith(package + ".")
            if target.split(".")[0] in PROJECT_PACKAGES and not inside and target not in holders:
                found.append(f"{name}:{line} imports {target}")
    return found


def test_reaching_out_finds_each_import_of_the_rest_of_the_project() -> None:
    source = (
        "import babel\nfrom bot import words\nfrom bot.i18n.catalogue import N_\n"
        "from . import plurals\nimport render.words\nfrom rules.errors import RulesError\n"
    )
    imports = {"bot.i18n.x": _imports("bot.i18n.x", ast.parse(source), is_package=False)}
    imports["bot.texts"] = _imports("bot.texts", ast.parse("import bot.store"), False)
    assert _reaching_out("bot.i18n", imports) == [
        "bot.i18n.x:2 imports bot.words",
        "bot.i18n.x:5 imports render.words",
        "bot.i18n.x:6 imports rules.errors",
        "bot.i18n.x:6 imports rules.errors.RulesError",
    ]


def test_the_catalogue_the_bot_reads_imports_no_other_part_of_the_bot() -> None:
    """bot.i18n (the catalogues, the commands' translator, the plural check) imports
    only the standard library, Babel, discord.py and its own modules; the developer's
    tool that builds the whole bot to extract the commands' texts is `bot.catalogue`,
    above it."""
    imports = _bot_imports()
    assert "bot.i18n.commands" in imports, "the package's modules are read"
    found = _reaching_out("bot.i18n", imports)
    assert not found, "bot.i18n reaches the rest of the project: " + ", ".join(found)


def _features_reached(graph: dict[str, set[str]], start: str) -> list[str]:
    """The feature modules `start` imports, directly or through other modules."""
    reached = _reachable(graph, start)
    return sorted(m for m in reached if m == "bot.features" or m.startswith("bot.features."))


def test_features_reached_sees_a_feature_behind_another_module() -> None:
    sources = {
        "bot.scheduler": "from bot.reminders import MuteButton\nimport discord",
        "bot.reminders": "from bot.buttons import view_of\nfrom bot.features.admin import MUTE",
        "bot.buttons": "",
        "bot.features.admin": "from bot.buttons import GameButton",
    }
    imports = {n: _imports(n, ast.parse(s), is_package=False) for n, s in sources.items()}
    graph = {n: {t for t, _ in found if t in imports} for n, found in imports.items()}
    assert _features_reached(graph, "bot.scheduler") == ["bot.features.admin"]
    graph["bot.reminders"].discard("bot.features.admin")
    assert _features_reached(graph, "bot.scheduler") == []


def test_the_scheduler_imports_no_feature() -> None:
    """The scheduler owns what its duties draw (the reminders' Mute button, the vote's
    ballots and message: `bot.reminders`) and registers them itself, so it imports no
    feature, even indirectly."""
    graph = _import_graph()
    assert "bot.reminders" in graph["bot.scheduler"]
    assert _features_reached(graph, "bot.scheduler") == []


# reading the time: the machine's clocks, which the bot never reads for a decision
_CLOCK_READS = {
    ("time", "monotonic"),
    ("time", "monotonic_ns"),
    ("time", "time"),
    ("time", "time_ns"),
    ("datetime", "now"),
    ("datetime", "utcnow"),
    ("datetime", "today"),
    ("date", "today"),
    ("loop", "time"),
}
# the one clock the service is given by default; the move script's timing of a copy
# (a measurement it prints, no decision) uses time.perf_counter, which is allowed
_THE_CLOCK = {("bot/service/service.py", "_utc_now")}


def _owner_name(node: ast.expr) -> str:
    """`time` of `time.monotonic()`, `loop` of `self.loop.time()` or
    `asyncio.get_running_loop().time()`."""
    if isinstance(node, ast.Name):
        name = node.id
    elif isinstance(node, ast.Attribute):
        name = node.attr
    elif isinstance(node, ast.Call):
        name = _owner_name(node.func)
    else:
        return ""
    return "loop" if "loop" in name else name


class _ClockReads(ast.NodeVisitor):
    """Each read of the machine's clock in a module, with the function it is in."""

    def __init__(self, rel: str) -> None:
        self.rel = rel
        self.function = "<module>"
        self.found: list[str] = []

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        outer, self.function = self.function, node.name
        self.generic_visit(node)
        self.function = outer

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        clocks = {"monotonic", "monotonic_ns", "time", "time_ns"}
        if node.module == "time" and {a.name for a in node.names} & clocks:
            self.found.append(f"{self.rel}:{node.lineno} imports a clock from time")

    def visit_Call(self, node: ast.Call) -> None:
        if isinstance(node.func, ast.Attribute):
            call = (_owner_name(node.func.value), node.func.attr)
            if call in _CLOCK_READS and (self.rel, self.function) not in _THE_CLOCK:
                self.found.append(f"{self.rel}:{node.lineno} in {self.function}: {call}")
        self.generic_visit(node)


def test_every_timed_decision_of_the_bot_reads_the_injected_clock() -> None:
    """Pruning, language memory, reminders, votes, leases and backoff compare times
    from the service's clock (`GameService(clock=...)`, `service.now()`), so a test
    moves them all and a machine booted a minute ago decides as one up for a year."""
    root = Path(__file__).resolve().parent.parent
    found = []
    for path in sorted((root / "bot").rglob("*.py")):
        reads = _ClockReads(path.relative_to(root).as_posix())
        reads.visit(_parsed(path))
        found += reads.found
    assert found == [], "the bot reads the machine's clock outside the injected clock"


def test_the_clock_check_finds_each_way_of_reading_the_machines_clock() -> None:
    source = (
        "import time\nfrom time import monotonic\n"
        "def f(loop):\n    return time.monotonic(), datetime.now(UTC), loop.time()\n"
        "async def g():\n    return asyncio.get_running_loop().time(), self.loop.time()\n"
        "def h():\n    return time.perf_counter(), self.clock()\n"
    )
    reads = _ClockReads("bot/x.py")
    reads.visit(ast.parse(source))
    assert len(reads.found) == 6, reads.found


# --- the tree's imports, and the host's command line --------------------------------------

# folders of the checkout that hold no code of ours (hidden ones, .venv and .git among
# them, are left out too)
_NOT_OURS = ("__pycache__", "build", "dist", "node_modules")


def _our_python_files(folder: Path = ROOT) -> list[Path]:
    found = []
    for entry in sorted(folder.iterdir()):
        if entry.is_dir():
            name = entry.name
            if not name.startswith(".") and name not in _NOT_OURS and ".egg-info" not in name:
                found += _our_python_files(entry)
        elif entry.suffix == ".py":
            found.append(entry)
    return found


def test_no_file_changes_the_import_path() -> None:
    """Scripts and benchmarks are packages run from the root (`python -m
    scripts.point_balance`, `python -m benchmarks.scale_bench`) that import each other
    and the tests' helpers (`tests.bot.fake_discord`) as packages: no file of the tree
    reaches code by changing `sys.path`."""
    changes = re.compile(r"\bsys\s*\.\s*path\s*\.\s*(insert|append)\b")
    files = _our_python_files()
    names = {path.relative_to(ROOT).as_posix() for path in files}
    assert {"scripts/point_balance.py", "benchmarks/scale_bench.py", "bot/__main__.py"} <= names
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in files
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if changes.search(line)
    ]
    assert found == [], "these lines change sys.path"


def test_the_bots_command_line_lists_each_subcommand() -> None:
    """`python -m bot --help` names each job of the one command line, with what it
    does; `run` is the default."""
    done = subprocess.run(
        [sys.executable, "-m", "bot", "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=True,
    )
    for command in ("run", "check", "backup", "migrate", "health"):
        assert re.search(rf"^ +{command} +\w", done.stdout, re.MULTILINE), command
    assert "Without a command: run." in done.stdout
