"""scripts/point_balance.py: the gates handed out clockwise and rotated over the seats."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

import point_balance


def test_every_seat_sits_at_every_point_once_in_a_round_of_games() -> None:
    points = ("W5", "W6", "W7", "W8")
    games = [point_balance.play_one((4, False, points, 1001 + k, k, "random")) for k in range(4)]
    sat = {(s.seat, s.point) for game in games for s in game}
    assert sat == {(seat, point) for seat in range(4) for point in points}
    for k, game in enumerate(games):
        # clockwise order kept: seat i on the i-th point after the k-th
        assert {s.seat: s.point for s in game} == {i: points[(i + k) % 4] for i in range(4)}
        assert sum(s.win for s in game) == pytest.approx(1.0)


def test_in_team_mode_partners_sit_beside_each_other_and_split_the_win() -> None:
    points = ("W5", "W6", "W7", "W8")
    game = point_balance.play_one((4, True, points, 1002, 1, "random"))
    at = {s.seat: s.point for s in game}
    winners = [s for s in game if s.win]
    assert sum(s.win for s in game) == pytest.approx(1.0)
    # seats 1 and 4 play for one team, 2 and 3 for the other: neighbours on the ring
    assert {at[0], at[3]} in ({"W5", "W6"}, {"W6", "W7"}, {"W7", "W8"}, {"W8", "W5"})
    assert len(winners) in (2, 4) and all(s.win == pytest.approx(1 / len(winners)) for s in winners)


def test_the_report_lists_each_point_and_seat(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--players", "2", "--points", "W1,W3", "--games", "2", "--ai", "random", "--jobs", "1"]
    assert point_balance.main(args) == 0
    out = capsys.readouterr()
    assert "| W1 | 2 |" in out.out and "| W3 | 2 |" in out.out
    assert "| seat 1 | 2 |" in out.out and "| seat 2 | 2 |" in out.out
    assert "2/2 games" in out.err


def test_two_players_must_name_their_points() -> None:
    with pytest.raises(SystemExit):
        point_balance.main(["--players", "2", "--games", "1"])
