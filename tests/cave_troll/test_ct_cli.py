"""`python -m cave_troll`: selfplay, replay, legal; errors never show a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cave_troll.cli import main


def test_selfplay_writes_a_record_that_replay_finishes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "game.json"
    done = subprocess.run(
        [sys.executable, "-m", "cave_troll", "selfplay", "--players", "3", "--seed", "1",
         "--out", str(out)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    record = json.loads(out.read_text())
    assert record["seed"] == 1 and record["config"]["players"] == 3
    assert main(["replay", str(out)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["phase"] == "over" and summary["winners"]
    assert summary["actions"] == len(record["actions"])
    assert len(summary["final"]["breakdown"]) == 3


def test_selfplay_with_the_delver_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--players", "2", "--seed", "2", "--ai", "delver,random"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["game"] == "cave-troll"


def test_legal_lists_the_actions_of_the_seat_awaited(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["selfplay", "--players", "2", "--seed", "3", "--out", str(tmp_path / "g")]) == 0
    record = json.loads((tmp_path / "g").read_text())
    record["actions"] = record["actions"][:5]
    (tmp_path / "part.json").write_text(json.dumps(record))
    capsys.readouterr()
    assert main(["legal", str(tmp_path / "part.json")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines and len({line.split()[0] for line in lines}) == 1


def test_errors_are_one_line_with_the_index_and_no_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["selfplay", "--players", "2", "--seed", "4", "--out", str(tmp_path / "g")]) == 0
    record = json.loads((tmp_path / "g").read_text())
    colour = record["actions"][2].split()[0]
    record["actions"][2] = f"{colour} kill blue-ogre@A1"
    (tmp_path / "bad.json").write_text(json.dumps(record))
    capsys.readouterr()
    assert main(["replay", str(tmp_path / "bad.json")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: action 2:") and "Traceback" not in err
    (tmp_path / "junk.json").write_bytes(b"\xff")
    assert main(["replay", str(tmp_path / "junk.json")]) == 1
    assert "UTF-8" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.json")]) == 1
    assert "cannot read" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["selfplay", "--players", "x", "--seed", "1"])
    assert main(["selfplay", "--players", "5", "--seed", "1"]) == 1
    assert "Cave Troll is for 2, 3, 4 players" in capsys.readouterr().err
