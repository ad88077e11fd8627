"""The `python -m rules` command line: selfplay, replay, legal; errors never show a
traceback. One test runs it as a process (`python -m rules` runs `sys.exit(main())`),
the others call `main` in this process (about 0.6 s of CPU less each than starting
Python and importing the rules); tests/rules/test_hostile_input.py runs a few more
refusals as processes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules.cli import main


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rules", *args], capture_output=True, text=True, timeout=60
    )


def run_main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """`main` with these arguments: its exit status, stdout and stderr."""
    capsys.readouterr()
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_selfplay_writes_a_record_that_replay_finishes(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    done = run("selfplay", "--players", "4", "--seed", "3", "--out", str(out))
    assert done.returncode == 0, done.stderr
    record = json.loads(out.read_text())
    assert record["seed"] == 3 and record["config"]["players"] == 4
    assert all(isinstance(a, str) for a in record["actions"])
    replay = run("replay", str(out))
    assert replay.returncode == 0, replay.stderr
    summary = json.loads(replay.stdout)
    assert summary["phase"] == "over"
    assert summary["winner"]
    assert len(summary["final"]["breakdown"]) == 4
    assert summary["actions"] == len(record["actions"])


def test_selfplay_team_mode_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--players", "4", "--teams", "--seed", "1"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["config"]["teams"] is True


def test_replay_reports_the_index_and_reason_of_an_illegal_action(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["selfplay", "--players", "3", "--seed", "2", "--out", str(tmp_path / "g")]) == 0
    record = json.loads((tmp_path / "g").read_text())
    # the first action after the draft and gates is the first player's; make it illegal
    index = next(i for i, a in enumerate(record["actions"]) if " recruit " in a)
    colour = record["actions"][index].split()[0]
    record["actions"][index] = f"{colour} recruit 1.1 A1"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    capsys.readouterr()
    assert main(["replay", str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"action {index}" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "content",
    [
        "not json",
        "[]",
        '{"config": {"players": 9}, "seed": 1, "actions": []}',
        '{"config": {"players": 2}, "seed": "x", "actions": []}',
        '{"config": {"players": 2}, "seed": 1, "actions": ["purple end"]}',
        '{"config": {"players": 2}, "seed": 1, "actions": ["blue dance"]}',
        '{"config": {"players": 2}, "seed": 1, "actions": [7]}',
    ],
)
def test_broken_records_give_a_message_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str
) -> None:
    path = tmp_path / "r.json"
    path.write_text(content)
    code, _, err = run_main(capsys, "replay", str(path))
    assert code == 1
    assert err.startswith("error:")
    assert "Traceback" not in err


def test_legal_lists_the_draft_choices_of_every_drafting_player(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "r.json"
    path.write_text('{"config": {"players": 2}, "seed": 5, "actions": []}')
    code, out, err = run_main(capsys, "legal", str(path))
    assert code == 0, err
    lines = out.splitlines()
    # two cards in hand x four empty bottom slots, for each of the two players
    assert len(lines) == 16
    assert {line.split()[0] for line in lines} == {"blue", "orange"}
    assert all(line.split()[1] == "keep" for line in lines)


def test_missing_file_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_main(capsys, "replay", str(tmp_path / "nope.json"))
    assert code == 1 and "error:" in err
