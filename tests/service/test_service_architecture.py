"""The service and the store are the application layer: no Discord, no images."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

FORBIDDEN = ("discord", "PIL", "render")
ROOT = Path(__file__).resolve().parents[2]
# the service in parts (issue 30): `GameService` keeps a game's life, its parts the rest
MOST_PUBLIC_METHODS = 30
MOST_LINES = 700
PARTS = ("seating", "history", "your_games", "appending", "locks", "rematches")


# modules of bot/ over the limit today, left to later steps of issue 30: the message
# texts, and the two stores (which another change is rewriting); none is the service's
@pytest.mark.sqlite_only
def test_service_and_store_import_nothing_from_discord_or_render() -> None:
    code = "import sys, bot.service, bot.store;print('\\n'.join(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    top = {m.split(".")[0] for m in done.stdout.split()}
    for name in FORBIDDEN:
        assert name not in top, f"the service pulls in {name}"


@pytest.mark.sqlite_only
def test_mountain_king_satisfies_the_game_protocol() -> None:
    from bot.service import MOUNTAIN_KING, GameRules
    from rules.actions import Action
    from rules.state import State

    # the annotation is the check: mypy --strict verifies the adapter fits the protocol
    rules: GameRules[State, Action] = MOUNTAIN_KING
    assert rules.name == "mountain-king"
    config = rules.make_config({"players": 2})
    state = rules.new_state(config, 1)
    assert rules.phase(state) == "gates" and rules.to_act(state) == (0,)  # the first gate
    assert rules.seat_labels(config) == ("blue", "orange")
    assert rules.state_from_json(rules.state_to_json(state)) == state


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


@pytest.mark.sqlite_only
def test_the_game_service_keeps_the_games_life_and_its_parts_the_rest() -> None:
    from bot.service import GameService
    from bot.service.history import History
    from bot.service.seating import Seating
    from bot.service.your_games import YourGames

    public = sorted(n for n, v in vars(GameService).items() if callable(v) and n[0] != "_")
    assert len(public) <= MOST_PUBLIC_METHODS, public
    # seating, history and a player's games are the parts' own, not the service's
    for moved in ("join", "kick", "offer_seat", "log", "record", "turn_status", "set_digest"):
        assert moved not in public
    parts = {p: vars(cls) for p, cls in (("seating", Seating), ("history", History))}
    assert {"join", "offer_seat", "accept_seat", "set_autopilot"} <= set(parts["seating"])
    assert {"log", "record", "changes_since_last_turn", "turn_status"} <= set(parts["history"])
    assert {"listing", "set_digest", "claim_digests"} <= set(vars(YourGames))


@pytest.mark.sqlite_only
def test_the_services_parts_do_not_import_the_service() -> None:
    # what they share (the locks, the loading, the stories' telling) is passed to them
    # or imported from below: no import cycle through bot.service.service
    for part in PARTS:
        tree = ast.parse((ROOT / "bot" / "service" / f"{part}.py").read_text(encoding="utf-8"))
        imported = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "bot.service":
                # `from bot.service import stories`: a module of the package, not its front
                imported |= {f"bot.service.{alias.name}" for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
        assert "bot.service.service" not in imported, part
        for module in imported:
            if module.startswith("bot.service."):
                assert (ROOT / (module.replace(".", "/") + ".py")).exists(), (part, module)


@pytest.mark.sqlite_only
def test_no_module_of_the_bot_is_over_700_lines() -> None:
    service = {
        str(p.relative_to(ROOT)): _lines(p) for p in sorted((ROOT / "bot" / "service").glob("*.py"))
    }
    assert max(service.values()) <= MOST_LINES, service
    assert service, "the service's modules are counted"
    over = {
        str(p.relative_to(ROOT)): _lines(p)
        for p in sorted((ROOT / "bot").rglob("*.py"))
        if _lines(p) > MOST_LINES
    }
    assert not over, over
