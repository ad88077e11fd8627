"""scripts/gate_arrangements.py: the AI's gates per table, without playing the games."""

from __future__ import annotations

import pytest

from rules.actions import PlaceGate
from rules.selfplay import play_game
from rules.state import make_config
from scripts import gate_arrangements
from scripts.balance_report import table_config


class _GatesDone(Exception):
    pass


def _gates_in_selfplay(key: str, seed: int) -> list[str]:
    """The gates the heuristic AI placed in the self-played game of `seed`."""
    config = table_config(key)
    placed: dict[int, str] = {}

    def watch(state: object, seat: int, action: object) -> None:
        if isinstance(action, PlaceGate):
            placed[seat] = action.point
            if len(placed) == config.players:
                raise _GatesDone

    with pytest.raises(_GatesDone):
        play_game(config, seed, "heuristic", on_action=watch)
    return [placed[seat] for seat in range(config.players)]


@pytest.mark.parametrize("key", ["2", "3", "4", "5", "teams"])
def test_the_arrangement_is_the_one_self_play_makes(key: str) -> None:
    for seed in (1001, 1002):
        got = gate_arrangements.arrangement(table_config(key), seed)
        assert got == _gates_in_selfplay(key, seed)
        assert len(set(got)) == len(got) == table_config(key).players


def test_team_partners_sit_beside_each_other() -> None:
    got = gate_arrangements.arrangement(make_config(players=4, teams=True), 1001)
    ring = ["W5", "W6", "W7", "W8"]
    beside = {frozenset((ring[i], ring[(i + 1) % 4])) for i in range(4)}
    # seats 1 and 4 play for one team, 2 and 3 for the other
    assert frozenset((got[0], got[3])) in beside and frozenset((got[1], got[2])) in beside


def test_the_script_prints_each_table_and_refuses_an_unknown_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert gate_arrangements.main(["--tables", "2,teams"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == ["2 players", "4 players in teams"]
    with pytest.raises(SystemExit):
        gate_arrangements.main(["--tables", "6"])
    assert "unknown table 6" in capsys.readouterr().err
