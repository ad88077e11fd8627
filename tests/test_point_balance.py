"""scripts/point_balance.py: the gates handed out clockwise and rotated over the seats."""

from __future__ import annotations

import pytest

from rules.content import load_content
from scripts import point_balance


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


def test_a_moved_statue_keeps_the_spot_it_started_on() -> None:
    spot_of = {"K7": "K7", "M7": "M7", "L9": "L9"}
    before = {"K7": "fire", "M7": "ice", "L9": "fire"}
    # one fire statue carried twice in one action (a spell), the ice one not at all
    now = {"K9": "fire", "M7": "ice", "L9": "fire"}
    point_balance.follow_statues(spot_of, before, now)
    assert spot_of == {"K9": "K7", "M7": "M7", "L9": "L9"}
    # two statues of different clans moved at once are told apart by clan
    before, now = now, {"K10": "fire", "M8": "ice", "L9": "fire"}
    point_balance.follow_statues(spot_of, before, now)
    assert spot_of == {"K10": "K7", "M8": "M7", "L9": "L9"}


def test_each_statue_spot_credits_the_honour_its_statue_scored() -> None:
    points = ("W5", "W6", "W7", "W8")
    game = point_balance.play_one((4, False, points, 1003, 0, "heuristic"))
    spots = set(load_content().board("winter").statue_spots)
    credited = [spot for s in game for spot, _ in s.spots]
    assert credited and set(credited) <= spots
    assert len(credited) == len(set(credited))  # a statue scores in one place only
    # what the spots brought a seat is its statue honour and its halls' altar bonuses
    for s in game:
        statues = s.parts[point_balance.PARTS.index("statues")]
        halls = s.parts[point_balance.PARTS.index("halls")]
        assert statues <= sum(v for _, v in s.spots) <= statues + halls


def _row(out: str, label: str) -> str:
    return next(line for line in out.splitlines() if line.startswith(f"| {label} |"))


def test_fixed_gives_every_seat_its_own_point_in_every_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["--players", "2", "--points", "W3,W1", "--games", "3", "--ai", "random", "--jobs", "1"]
    assert point_balance.main([*args, "--fixed"]) == 0
    out = capsys.readouterr().out
    assert "the same in every game" in out
    # seat 1 sat on W3 in all three games and seat 2 on W1: their rows are the points'
    assert _row(out, "seat 1").split("|")[2:] == _row(out, "W3").split("|")[2:]
    assert _row(out, "seat 2").split("|")[2:] == _row(out, "W1").split("|")[2:]


@pytest.mark.parametrize(
    ("args", "why"),
    [
        (["--players", "4", "--teams", "--points", "W5,W6,W8,W7", "--fixed"], "partner"),
        (["--players", "4", "--points", "W5,W6,W7,W1"], "for 2 or 5 players"),
        (["--players", "4", "--points", "W5,W5,W7,W8", "--fixed"], "already has a gate"),
    ],
)
def test_an_arrangement_the_rules_refuse_is_refused_before_any_game(
    args: list[str], why: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        point_balance.main([*args, "--games", "1", "--ai", "random", "--jobs", "1"])
    err = capsys.readouterr().err
    assert "the rules refuse this arrangement" in err and why in err
    assert "games/s" not in err  # no game was played


def test_the_seat_by_point_table_splits_each_seat_over_its_points() -> None:
    Seated = point_balance.Seated
    parts = (0,) * len(point_balance.PARTS)
    by_seat = {
        "seat 1": [
            Seated(0, "A1", 1.0, 90, parts),
            Seated(0, "A1", 0.0, 80, parts),
            Seated(0, "A2", 0.5, 85, parts),
        ],
        "seat 2": [Seated(1, "A2", 0.0, 70, parts), Seated(1, "A3", 0.5, 85, parts)],
    }
    lines = point_balance.seat_point_table(by_seat, ("A1", "A2", "A3"), 2)
    assert "| seat | A1 | A2 | A3 |" in lines
    assert "| seat 1 | 50.0% (2) | 50.0% (1) | - |" in lines
    assert "| seat 2 | - | 0.0% (1) | 50.0% (1) |" in lines


def test_a_spot_is_credited_to_the_seat_and_to_the_point_that_scored_it() -> None:
    parts = (0,) * len(point_balance.PARTS)
    one = point_balance.Seated(0, "W5", 1.0, 90, parts, (("K7", 10), ("M7", 4)))
    two = point_balance.Seated(1, "W6", 0.0, 80, parts, (("K7", 8),))
    by_seat = {"seat 1": [one], "seat 2": [two]}
    by_point = {"W5": [one], "W6": [two]}
    # over two games: K7 brought seat 1 10 and seat 2 8, 9 a game between them
    seats = point_balance.spot_seat_table(by_seat, 2, 2)
    assert "| K7 | 5.0 | 4.0 | 9.0 |" in seats and "| M7 | 2.0 | 0.0 | 2.0 |" in seats
    points = point_balance.spot_table(by_point, ("W5", "W6"), 2)
    assert "| K7 | 5.0 | 4.0 | 9.0 |" in points and "the point whose" in points[0]
    assert "the seat whose" in seats[0]
