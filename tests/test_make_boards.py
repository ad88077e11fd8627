"""scripts/make_boards.py's writing side (its search takes minutes: `--check` runs it):
boards.json's own text, and the former layouts kept as history."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.content import BoardSide
from scripts import make_boards

SHIPPED = Path(__file__).resolve().parent.parent / "rules" / "data" / "boards.json"


def _sides() -> list[dict[str, object]]:
    sides: list[dict[str, object]] = json.loads(SHIPPED.read_text(encoding="utf-8"))["boards"]
    return sides


def test_the_writer_gives_boards_json_its_own_text() -> None:
    assert make_boards.render(_sides()) == SHIPPED.read_text(encoding="utf-8")


def test_retiring_keeps_the_present_layout_as_that_editions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "boards.json"
    out.write_text(SHIPPED.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(make_boards, "OUT", out)
    winter = next(s for s in _sides() if s["id"] == "winter")
    spots = winter["statue_spots"]
    assert isinstance(spots, list)
    moved = {**winter, "statue_spots": [*spots[:-1], "B8"]}  # a new layout of one spot
    # without --retire nothing is kept; the same features are never retired
    assert "former_features" not in make_boards.with_history(moved, None)
    assert "former_features" not in make_boards.with_history(winter, 3)
    kept = make_boards.with_history(moved, 3)
    former = kept["former_features"]
    assert isinstance(former, dict)
    assert former["3"]["statue_spots"] == spots
    # written, read back and validated: edition 3's games keep the old spot, new games not
    text = make_boards.render([kept])
    side = BoardSide.model_validate(json.loads(text)["boards"][0])
    assert side.as_of(3).statue_spots == spots
    assert side.as_of(4).statue_spots[-1] == "B8"
    # history stays: a second run keeps it, and will not overwrite it
    out.write_text(text, encoding="utf-8")
    assert make_boards.with_history(moved, None)["former_features"] == former
    with pytest.raises(SystemExit, match="edition 3 is already kept"):
        make_boards.with_history({**moved, "statue_spots": [*spots[:-1], "B7"]}, 3)


def _winter() -> tuple[make_boards.Board, make_boards.Layout, dict[str, object]]:
    side = next(s for s in _sides() if s["id"] == "winter")
    board = make_boards.Board(make_boards.WINTER)
    return board, board.from_json(side), side


@pytest.mark.parametrize("design", [make_boards.WINTER, make_boards.AUTUMN], ids=lambda d: d.id)
def test_the_shipped_features_read_back_as_a_layout_that_keeps_every_design_rule(
    design: make_boards.Design,
) -> None:
    side = next(s for s in _sides() if s["id"] == design.id)
    board = make_boards.Board(design)
    layout = board.from_json(side)
    assert board.valid(layout)
    again = board.to_json(layout)
    assert {k: again[k] for k in make_boards.FEATURES} == {k: side[k] for k in make_boards.FEATURES}


def test_a_hand_move_lands_only_where_the_design_rules_allow() -> None:
    board, layout, _ = _winter()
    # a tier-4 statue spot and the rubble guarding it, moved together
    moved = board.to_json(board.moved(layout, [("J6", "F10"), ("J5", "F9")]))
    spots, rubble = moved["statue_spots"], moved["rubble"]
    assert isinstance(spots, list) and isinstance(rubble, list)
    assert "F10" in spots and "J6" not in spots and "F9" in rubble and "J5" not in rubble
    with pytest.raises(ValueError, match="break a design rule"):
        board.moved(layout, [("J6", "F10")])  # J5 would guard nothing
    with pytest.raises(ValueError, match="break a design rule"):
        board.moved(layout, [("K3", "J3"), ("J6", "J4")])  # two spots sharing a side
    with pytest.raises(ValueError, match="no single feature on A1"):
        board.moved(layout, [("A1", "B2")])
    assert board.to_json(board.moved(layout, [])) == board.to_json(layout)
