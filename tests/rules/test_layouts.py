"""A board side's features per rules edition: a game keeps the layout it began with, so
that games stored before a side was laid out anew replay to the same end."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from rules.content import BoardSide, load_content
from rules.game import Game, game_from_record
from rules.mountain import geo
from rules.state import EDITION

DATA = Path(__file__).parent / "data"


def _side(**features: Any) -> BoardSide:
    """The real winter side with these former layouts."""
    real = load_content().board("winter").model_dump()
    return BoardSide.model_validate({**real, "former_features": features})


def _features(side: BoardSide) -> dict[str, Any]:
    return {
        "rubble": side.rubble,
        "buried": side.buried,
        "statue_spots": side.statue_spots,
        "workshop_sites": side.workshop_sites,
    }


def test_a_game_is_laid_out_as_the_first_former_edition_that_applies() -> None:
    real = load_content().board("winter")
    two = {**_features(real), "rubble": real.rubble[:3]}
    three = {**_features(real), "rubble": real.rubble[:5]}
    side = _side(**{"2": two, "3": three})
    assert [side.layout(e) for e in (1, 2, 3, 4)] == [2, 2, 3, 0]
    assert side.laid_out(0) is side
    assert side.laid_out(2).rubble == real.rubble[:3]
    assert side.laid_out(3).rubble == real.rubble[:5]
    assert side.laid_out(3).statue_spots == real.statue_spots
    assert side.laid_out(3) is side.laid_out(3)  # kept, not copied per call


def test_a_former_layout_is_checked_like_the_current_one() -> None:
    real = load_content().board("winter")
    off = {**_features(real), "statue_spots": [*real.statue_spots[:-1], "A1"]}
    with pytest.raises(ValidationError, match=r"former_features 3: statue_spots: A1 is not on"):
        _side(**{"3": off})
    clash = {**_features(real), "workshop_sites": [real.statue_spots[0]]}
    with pytest.raises(ValidationError, match=r"former_features 3: statue_spots: .* already used"):
        _side(**{"3": clash})


def test_a_game_stored_before_the_winter_side_was_laid_out_anew_replays() -> None:
    """tests/rules/data/edition3-winter-4p.json was recorded with the edition-3 layout,
    before edition 4 changed the winter side's features."""
    stored = json.loads((DATA / "edition3-winter-4p.json").read_text(encoding="utf-8"))
    game = game_from_record(stored["record"])
    assert game.state.phase == "over"
    assert game.state.config.edition == 3
    assert game.state.board.statues == stored["statues"]
    assert [[list(b.seats), b.total] for b in game.outcome.breakdowns] == stored["scores"]


def test_each_edition_of_a_side_starts_on_its_own_layout() -> None:
    winter = load_content().board("winter")
    for edition in range(1, EDITION + 1):
        game = Game.new(players=4, seed=11, edition=edition)
        laid = winter.as_of(edition)
        g = geo(game.state)
        assert g.cells(g.rubble) == sorted(laid.rubble, key=g.bit)
        assert g.cells(g.sites) == sorted(laid.workshop_sites, key=g.bit)
        assert {g.names[b]: r.value for b, r in g.buried.items()} == laid.buried
        assert set(game.state.board.statues) == set(laid.statue_spots)
