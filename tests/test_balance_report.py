"""scripts/balance_report.py: the Wilson interval and a tiny end-to-end run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scripts import balance_report

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("wins", "n", "low", "high"),
    [
        (118, 200, 0.5208, 0.6559),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (50, 100, 0.4038, 0.5962),
        (1, 4, 0.0456, 0.6994),
    ],
)
def test_wilson_interval_known_values(wins: int, n: int, low: float, high: float) -> None:
    got_low, got_high = balance_report.wilson_interval(wins, n)
    assert got_low == pytest.approx(low, abs=5e-4)
    assert got_high == pytest.approx(high, abs=5e-4)


def test_wilson_interval_edges() -> None:
    assert balance_report.wilson_interval(0, 0) == (0.0, 1.0)
    low, high = balance_report.wilson_interval(2.5, 10)  # shared wins are fractional
    assert 0 < low < 0.25 < high < 1


def _multinomial_pass(sides: int, games: int, bound: float) -> float:
    """The chance by enumerating every way the games can fall (small cases only)."""
    from itertools import product
    from math import factorial

    fair = 1 / sides
    total = 0.0
    for counts in product(range(games + 1), repeat=sides - 1):
        last = games - sum(counts)
        if last < 0:
            continue
        every = (*counts, last)
        if all(abs(c / games - fair) <= bound + 1e-12 for c in every):
            ways = factorial(games)
            for c in every:
                ways //= factorial(c)
            total += ways * fair**games
    return total


@pytest.mark.parametrize(
    ("sides", "games", "bound"), [(2, 30, 0.05), (3, 18, 0.1), (4, 12, 0.1), (5, 15, 0.08)]
)
def test_fair_pass_chance_matches_enumeration(sides: int, games: int, bound: float) -> None:
    got = balance_report.fair_pass_chance(sides, games, bound)
    assert got == pytest.approx(_multinomial_pass(sides, games, bound), rel=1e-9)
    assert 0 < got < 1


def test_fair_pass_chance_at_report_sizes() -> None:
    from math import comb

    # two sides: the binomial sum of 90..110 wins of 200 (45% to 55%)
    two = sum(comb(200, k) for k in range(90, 111)) / 2**200
    assert balance_report.fair_pass_chance(2, 200) == pytest.approx(two, rel=1e-9)
    # a fair 4-player table passes at 200 games only about three times in four; at
    # 1000 games nearly always
    assert 0.70 < balance_report.fair_pass_chance(4, 200) < 0.76
    assert balance_report.fair_pass_chance(4, 1000) > 0.99


def test_format_duration() -> None:
    assert balance_report.format_duration(7) == "7s"
    assert balance_report.format_duration(107) == "1m47s"
    assert balance_report.format_duration(3725) == "1h02m05s"


def test_tiny_run_end_to_end(tmp_path: Path) -> None:
    out, raw = tmp_path / "balance.md", tmp_path / "balance.json"
    args = ["--games", "2", "--tables", "2", "--ai", "random", "--jobs", "1"]
    args += ["--out", str(out), "--json", str(raw)]
    result = subprocess.run(
        [sys.executable, "-m", "scripts.balance_report", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    report = json.loads(raw.read_text(encoding="utf-8"))
    (table,) = report["tables"]
    assert table["key"] == "2"
    assert [g["seed"] for g in table["games"]] == [1001, 1002]
    assert sum(seat["wins"] for seat in table["seats"]) == pytest.approx(2)
    assert {u["kind"] for u in report["uses"]} == {"spell", "workshop", "great hall"}
    text = out.read_text(encoding="utf-8")
    assert "| seat | wins | win rate | 95% interval |" in text
    assert "| 2 players | 2 |" in text
    # where each seat's gate went: two points per game, each seat one in each game
    gates = [g["gates"] for g in table["games"]]
    assert all(len(pair) == 2 and len(set(pair)) == 2 for pair in gates)
    assert "Start points (games): seat 1 " in text
    assert "--games 2 --tables 2 --ai random --jobs 1" in text
    assert text == result.stdout
    assert "2 players: 2/2 games done" in result.stderr


def test_a_crashing_game_is_reported_and_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    real = balance_report.play_summary

    def crash_on_seed_1002(task: tuple[str, int, str]) -> object:
        if task[1] == 1002:
            raise ValueError("boom")
        return real(task)

    monkeypatch.setattr(balance_report, "play_summary", crash_on_seed_1002)
    run = balance_report.run_table("2", range(1001, 1003), "random", None)
    assert [g.seed for g in run.games] == [1001]
    (failure,) = run.failures
    assert (failure.seed, failure.error) == (1002, "ValueError: boom")
    figures = balance_report.table_figures(run)
    assert sum(r.wins for r in figures.seats) == pytest.approx(1)
    assert "| 2 players | 1 (+1 **failed**) |" in balance_report.summary_row(figures)
