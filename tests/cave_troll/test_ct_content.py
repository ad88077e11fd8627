"""Our content (the map, the token mix, the artifact pile: docs/cave-troll.md) and its
validation when loaded."""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path
from typing import Any

import pytest
from ct_helpers import quotes

from cave_troll import content
from cave_troll.board import load_board
from cave_troll.content import (
    ARTIFACTS,
    DATA_DIR,
    BoardInfo,
    ContentError,
    MixInfo,
    QuarterInfo,
    load_content,
)


@quotes(
    17,
    "Pod koniec gry (i do 4 razy podczas gry) gracze otrzymują złoto za pomieszczenia, które"
    " kontrolują.",
)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_loot_is_counted_at_most_four_times_in_play(players: int) -> None:
    mix = load_content().mix
    tallies = mix.stack(players)["tally"] * players
    assert 3 <= tallies <= 4


def test_the_first_round_of_four_players_is_the_rulebooks_and_always_begins_with_one() -> None:
    content = load_content()
    assert content.mix.first_round[4] == content.text.first_round_actions == (1, 2, 3, 4)
    assert all(actions[0] == 1 for actions in content.mix.first_round.values())
    mix = json.loads((DATA_DIR / "mix.json").read_text(encoding="utf-8"))
    mix["first_round"]["3"] = [2, 3, 4]
    with pytest.raises(ValueError, match="the first player's 1"):
        MixInfo.model_validate(mix)


def test_the_map_has_four_fold_symmetry() -> None:
    board = load_board()
    turn = board.quarter_turn
    for location in board.locations:
        turned = turn(location)
        assert board.value.get(turned) == board.value.get(location)
        assert {turn(n) for n in board.doors[location]} == set(board.doors[turned])
        assert {turn(n) for n in board.steps[location]} == set(board.steps[turned])
    assert [turn(turn(turn(turn(x)))) for x in board.locations] == list(board.locations)


def test_every_place_is_reachable_and_doors_join_touching_places() -> None:
    board = load_board()
    seen = {board.entrances[0]}
    todo = deque(seen)
    while todo:
        for nxt in board.steps[todo.popleft()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    assert seen == set(board.locations)
    for location, doors in board.doors.items():
        for other in doors:
            assert location in board.doors[other]
            assert any(
                abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
                for a in board.cells[location]
                for b in board.cells[other]
            ), (location, other)


def test_the_pit_opens_on_the_richest_rooms_and_entrances_on_the_poorest() -> None:
    board = load_board()
    assert {board.value[r] for r in board.doors[board.pit]} == {max(board.value.values())}
    for entrance in board.entrances:
        rooms = [r for r in board.doors[entrance]]
        assert {board.value[r] for r in rooms} == {min(board.value.values())}


def test_the_token_mix_and_the_pile() -> None:
    mix = load_content().mix
    stack = mix.stack(4)
    assert sum(stack.values()) == 20
    assert stack["troll"] == 1
    assert set(mix.artifact_pile) == set(ARTIFACTS)
    finds = max(mix.stack(n)["find"] * n for n in mix.players)
    assert finds <= sum(mix.artifact_pile.values()), "the pile never runs out"


def _quarter() -> dict[str, Any]:
    data = json.loads((DATA_DIR / "board.json").read_text(encoding="utf-8"))
    return dict(data["quarter"])


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda q: q["rooms"].pop(), "cover the whole quarter"),
        (lambda q: q["doors"].append(["1", "7"]), "do not touch"),
        (lambda q: q["doors"].append(["1", "9"]), "no such rooms"),
        (lambda q: q["doors_to_next"].append(["1", "6"]), "do not touch"),
        (lambda q: q["rooms"][0]["cells"].append([5, 5]), "also pit"),
        (lambda q: q["rooms"][2].update(cells=[[0, 1], [1, 2], [0, 2]][:2]), "one piece"),
        (lambda q: q["doors"].append(["2", "1"]), "listed twice"),
    ],
)
def test_a_broken_quarter_is_refused_when_loaded(change: Any, problem: str) -> None:
    quarter = _quarter()
    quarter["rooms"] = [dict(r, cells=list(r["cells"])) for r in quarter["rooms"]]
    quarter["doors"] = list(quarter["doors"])
    quarter["doors_to_next"] = list(quarter["doors_to_next"])
    change(quarter)
    with pytest.raises(ValueError, match=problem):
        QuarterInfo.model_validate(quarter)


def test_broken_content_files_name_the_file_and_the_field(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("rules.json", "board.json", "mix.json"):
        (tmp_path / name).write_text((DATA_DIR / name).read_text(encoding="utf-8"))
    mix = json.loads((tmp_path / "mix.json").read_text())
    mix["per_colour"]["tally"] = 3
    (tmp_path / "mix.json").write_text(json.dumps(mix))
    monkeypatch.setattr(content, "DATA_DIR", tmp_path)
    content.load_content.cache_clear()
    try:
        with pytest.raises(ContentError, match="more than 4 times"):
            content.load_content()
        (tmp_path / "board.json").write_text("{")
        with pytest.raises(ContentError, match=r"board\.json"):
            content.load_content()
    finally:
        monkeypatch.undo()
        content.load_content.cache_clear()
    assert load_content().mix.per_colour["tally"] == 1


def test_a_mix_must_count_every_kind_and_a_board_name_its_quarters() -> None:
    mix = json.loads((DATA_DIR / "mix.json").read_text(encoding="utf-8"))
    del mix["per_colour"]["orc"]
    with pytest.raises(ValueError, match="every kind"):
        MixInfo.model_validate(mix)
    board = json.loads((DATA_DIR / "board.json").read_text(encoding="utf-8"))
    board["corners"] = ["NW", "NW", "SE", "SW"]
    with pytest.raises(ValueError, match="must differ"):
        BoardInfo.model_validate(board)
