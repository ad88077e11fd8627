"""What the table asks of the rules besides playing them: the moment checked before a
command's options are read (`engine.check_moment`), and the undo limit as the table
keeps it (`game.may_undo`), a Troll flight's start and end being moments nobody takes
back."""

from __future__ import annotations

import pytest
from ct_helpers import played, scene, seat

from cave_troll import engine
from cave_troll.actions import Draw
from cave_troll.errors import CaveTrollError, NotationError, NotYourTurnError
from cave_troll.game import may_undo


def test_the_moment_is_checked_before_any_option_is_read() -> None:
    game = scene(
        stacks={"blue": ["explorer", "troll"]},
        pieces=[("orange", "explorer", "A4")],
    )
    engine.check_moment(game.state, seat("blue"), "draw")
    with pytest.raises(NotYourTurnError):
        engine.check_moment(game.state, seat("orange"), "move")
    with pytest.raises(CaveTrollError) as info:
        engine.check_moment(game.state, seat("blue"), "flee")
    assert info.value.code == "no_flight"
    with pytest.raises(NotationError) as unknown:
        engine.check_moment(game.state, seat("blue"), "dig")
    assert unknown.value.code == "unknown_verb"
    played(game, "blue", Draw(), "place A4")
    with pytest.raises(CaveTrollError) as flight:
        engine.check_moment(game.state, seat("orange"), "move")
    assert flight.value.code == "flight"
    engine.check_moment(game.state, seat("orange"), "flee")


def test_a_troll_flight_begun_or_over_is_not_taken_back_even_by_its_placer() -> None:
    game = scene(
        stacks={"blue": ["explorer", "explorer", "troll"]},
        pieces=[("blue", "explorer", "A4"), ("blue", "dwarf", "A4")],
    )
    blue = seat("blue")
    played(game, "blue", Draw(), "place A4")
    # the placer alone answers: the seat awaited stays the same, the flight began
    assert game.state.flight is not None and game.to_act == (blue,)
    assert not game.can_undo(blue)
    played(game, "blue", "flee explorer@A4 A1")
    assert game.can_undo(blue)  # an answer, while still answering
    assert may_undo(game.state, blue, blue) and not may_undo(game.state, blue, seat("orange"))
    played(game, "blue", "stay")
    assert game.state.flight is None and game.to_act == (blue,)
    assert not game.can_undo(blue)  # the flight is over: the Troll took the Dwarf
    played(game, "blue", Draw(), "place NW", "move explorer@NW A1")
    assert game.can_undo(blue)
