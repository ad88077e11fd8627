"""Hostile records and notation end in one sentence: `python -m rules replay` (and
`legal`, `selfplay`) exit 1 with one line on stderr and no traceback, a huge file is
refused from its size without being read, and the parsers bound size, nesting depth
and digits before they work.

Each hostile record goes through the command line's `main` in this process (what
`python -m rules` runs: `sys.exit(main())`); a few go through a real `python -m rules`
process too, for what only a process shows (its exit status, an interpreter's
traceback, a read of a huge file or of /dev/zero)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rules.actions import MAX_ACTION_LENGTH, parse_action
from rules.cli import main
from rules.errors import NotationError, RecordError, RulesError
from rules.game import (
    MAX_RECORD_ACTIONS,
    MAX_RECORD_BYTES,
    MAX_RECORD_DEPTH,
    Game,
    ReplayError,
    game_from_record,
    record_from_bytes,
)
from rules.selfplay import play_random_game
from rules.state import make_config


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """`python -m rules` with these arguments, in a process of its own."""
    return subprocess.run(
        [sys.executable, "-m", "rules", *args], capture_output=True, text=True, timeout=60
    )


def run_main(capsys: pytest.CaptureFixture[str], *args: str) -> subprocess.CompletedProcess[str]:
    """The same in this process: `main`'s exit status (argparse's too) and what it
    wrote (about 0.6 s of CPU less each than starting Python and importing the rules)."""
    capsys.readouterr()
    try:
        code = main(list(args))
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out = capsys.readouterr()
    return subprocess.CompletedProcess(["python", "-m", "rules", *args], code, out.out, out.err)


def assert_one_refusal(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr[:2000]
    assert lines[0].startswith("error: ")
    assert len(lines[0]) < 400
    for word in words:
        assert word in lines[0]
    assert done.stdout == ""


def record_text(**changes: object) -> str:
    record: dict[str, object] = {"config": {"players": 2}, "seed": 1, "actions": []}
    record.update(changes)
    return json.dumps(record)


SEED_5000 = '{"config": {"players": 2}, "seed": ' + "9" * 5000 + ', "actions": []}'
HOSTILE: dict[str, tuple[bytes, str]] = {
    "deep-arrays": (b"[" * 100_000 + b"]" * 100_000, "nested more than"),
    "deep-objects": (b'{"a":' * 100_000 + b"1" + b"}" * 100_000, "nested more than"),
    "deep-unclosed": (b"[" * 100_000, "nested more than"),
    "deep-inside-config": (
        ('{"config": {"players": ' + "[" * 50_000 + "]" * 50_000 + "}}").encode(),
        "nested more than",
    ),
    "binary": (bytes(range(256)) * 40, "not UTF-8"),
    "invalid-utf8": (b'{"config": {"players": 2}, "seed": 1, "actions": ["\xff\xfe"]}', "UTF-8"),
    "nul-bytes": (b"\x00" * 1000, "not valid JSON"),
    "seed-5000-digits": (SEED_5000.encode(), "number of 5000 characters"),
    "count-5000-digits-in-config": (
        ('{"config": {"players": ' + "2" * 5000 + "}}").encode(),
        "number of 5000 characters",
    ),
    "float-5000-digits": (
        ('{"config": {"players": 2}, "seed": 1.' + "5" * 5000 + ', "actions": []}').encode(),
        "number of 5002 characters",
    ),
    "seed-beyond-64-bits": (record_text(seed=2**64).encode(), "signed 64-bit"),
    "seed-nan": (b'{"config": {"players": 2}, "seed": NaN, "actions": []}', "NaN"),
    "seed-text": (record_text(seed="1").encode(), "seed must be an integer"),
    "seed-true": (record_text(seed=True).encode(), "seed must be an integer"),
    "seed-float": (record_text(seed=1.5).encode(), "seed must be an integer"),
    "config-list": (record_text(config=[2]).encode(), "config must be an object"),
    "actions-object": (record_text(actions={"a": 1}).encode(), "actions must be a list"),
    "action-number": (record_text(actions=[7]).encode(), "must be text"),
    "action-huge-count": (
        record_text(actions=["blue trade " + "5" * 5000 + "stone>rune"]).encode(),
        f"at most {MAX_ACTION_LENGTH} characters",
    ),
    "action-long-colour": (record_text(actions=["x" * 100_000]).encode(), "at most"),
    "too-many-actions": (
        record_text(actions=["blue end"] * (MAX_RECORD_ACTIONS + 1)).encode(),
        "at most 20000",
    ),
    "newline-in-key": (
        b'{"config": {"players": 2, "a\\nb\\u2028c\\ud800": 1}, "seed": 1, "actions": []}',
        "Invalid game options",
    ),
    "not-an-object": (b"[1, 2, 3]", "JSON object with config"),
    "empty": (b"", "not valid JSON"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_record_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    content, words = HOSTILE[name]
    path = tmp_path / f"{name}.json"
    path.write_bytes(content)
    for command in ("replay", "legal"):
        assert_one_refusal(run_main(capsys, command, str(path)), words)


@pytest.mark.parametrize("name", ["deep-arrays", "invalid-utf8", "too-many-actions"])
def test_python_m_rules_refuses_a_hostile_record_in_one_line(tmp_path: Path, name: str) -> None:
    content, words = HOSTILE[name]
    path = tmp_path / f"{name}.json"
    path.write_bytes(content)
    for command in ("replay", "legal"):
        assert_one_refusal(run(command, str(path)), words)


def test_a_100_mb_record_is_refused_from_its_size_without_reading_it(tmp_path: Path) -> None:
    """The refusal names the size `stat` reports, before any byte is parsed (about
    0.2 s as a subprocess; docs/performance.md)."""
    path = tmp_path / "huge.json"
    with path.open("w") as out:  # one long JSON string: a valid record if it were read
        out.write('{"config": {"players": 2}, "seed": 1, "actions": ["')
        chunk = "x" * 1_000_000
        for _ in range(100):
            out.write(chunk)
        out.write('"]}')
    assert path.stat().st_size > 100_000_000
    done = run("replay", str(path))
    assert_one_refusal(done, "100,000,054 bytes", f"at most {MAX_RECORD_BYTES:,} bytes")


def test_a_stream_is_read_no_further_than_the_limit() -> None:
    done = run("replay", "/dev/zero")  # claims no size and never ends: run() would time out
    assert_one_refusal(done, "more than 1,000,000 bytes")


@pytest.mark.parametrize("where", ["missing", "directory"])
def test_an_unreadable_path_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    path = tmp_path / "nothing.json" if where == "missing" else tmp_path
    assert_one_refusal(run_main(capsys, "replay", str(path)), "cannot use")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--players", "2", "--seed", "9" * 5000), "is not a seed"),
        (("--players", "2", "--seed", str(2**63)), "is not a seed"),
        (("--players", "2", "--seed", "x"), "is not a seed"),
        (("--players", "2" * 5000, "--seed", "1"), "is not a number of players"),
        (("--players", "-2", "--seed", "1"), "is not a number of players"),
    ],
)
def test_selfplay_refuses_huge_or_bad_numbers_without_a_traceback(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], words: str
) -> None:
    done = run_main(capsys, "selfplay", *args)
    assert done.returncode == 2  # argparse's usage error
    assert "Traceback" not in done.stderr
    last = done.stderr.splitlines()[-1]
    assert words in last and len(last) < 300


def test_selfplay_takes_a_64_bit_seed_and_replay_reads_it_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "g.json"
    args = ("selfplay", "--players", "2", "--seed", str(-(2**63)), "--out", str(out))
    done = run_main(capsys, *args)
    assert done.returncode == 0, done.stderr
    assert json.loads(out.read_text())["seed"] == -(2**63)
    assert run_main(capsys, "replay", str(out)).returncode == 0


# --- the parsers themselves -------------------------------------------------------------


def test_a_finished_five_player_record_is_far_below_the_limits() -> None:
    game = play_random_game(make_config(players=5), 2)
    text = game.record_json()
    assert len(text.encode()) * 50 < MAX_RECORD_BYTES
    assert len(game.moves) * 20 < MAX_RECORD_ACTIONS
    assert max(len(str(m.action)) for m in game.moves) * 4 < MAX_ACTION_LENGTH
    again = game_from_record(record_from_bytes(text.encode()))
    assert again.state == game.state


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "nested more than"),
        (b'["[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["]', None),  # brackets inside a string
        (b"[" * MAX_RECORD_DEPTH + b"]" * MAX_RECORD_DEPTH, None),
        (b"[" * (MAX_RECORD_DEPTH + 1) + b"]" * (MAX_RECORD_DEPTH + 1), "nested more than"),
        (b"1" * 5000, "5000 characters"),
        (b"\xc3\x28", "not UTF-8"),
        (b"x" * (MAX_RECORD_BYTES + 1), "at most 1,000,000 bytes"),
        (b"\xef\xbb\xbf{}", None),  # a byte-order mark is allowed
    ],
)
def test_record_from_bytes_bounds_before_parsing(data: bytes, words: str | None) -> None:
    if words is None:
        record_from_bytes(data)
        return
    began = time.perf_counter()
    with pytest.raises(RecordError, match=words):
        record_from_bytes(data)
    assert time.perf_counter() - began < 0.5


@pytest.mark.parametrize(
    ("record", "words"),
    [
        ({"config": {"players": 2}, "seed": 10**5000, "actions": []}, "signed 64-bit"),
        ({"config": {"players": 2}, "seed": None, "actions": []}, "seed must be an integer"),
        ({"config": {"players": 2}, "seed": 1, "actions": "end"}, "actions must be a list"),
        ({"config": {2: 2}, "seed": 1, "actions": []}, "text keys"),
        ({"config": "2p", "seed": 1, "actions": []}, "config must be an object"),
        (
            {"config": {"players": 2}, "seed": 1, "actions": ["x"] * (MAX_RECORD_ACTIONS + 1)},
            "at most 20000",
        ),
    ],
)
def test_game_from_record_refuses_wrong_types_and_sizes(record: object, words: str) -> None:
    with pytest.raises(RecordError, match=words):
        game_from_record(record)


def test_a_long_action_in_a_record_is_a_replay_error_with_its_index() -> None:
    record = {"config": {"players": 2}, "seed": 1, "actions": ["blue " + "end " * 1000]}
    with pytest.raises(ReplayError) as caught:
        game_from_record(record)
    assert caught.value.index == 0
    assert "at most 500 characters" in str(caught.value)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("trade " + "5" * 5000 + "stone>rune", "at most 500 characters"),
        ("trade " + "5" * 400 + "stone>rune", "count of 2 to 99"),
        ("trade 100stone>rune", "count of 2 to 99"),
        ("use S3 " + "9" * 300 + "heartstone>cart", "count of 2 to 99"),
        ("end " * 200 + "end", "at most 500 characters"),
        ("x" * 10_000_000, "at most 500 characters"),
        (7, "must be text"),
        (None, "must be text"),
        (b"end", "must be text"),
    ],
)
def test_notation_refuses_huge_numbers_and_lengths_with_a_sentence(
    text: object, words: str
) -> None:
    began = time.perf_counter()
    with pytest.raises(NotationError, match=words):
        parse_action(text)  # type: ignore[arg-type]
    assert time.perf_counter() - began < 0.1


def test_a_spell_argument_with_a_huge_count_is_a_sentence() -> None:
    game = Game.new(players=2, seed=1)
    with pytest.raises(RulesError):
        game.play(0, "cast earth-ritual " + "9" * 400 + "iron")
