"""Actions built from a command's options (`rules.asked`): each builder gives the action
its options name, the same value `parse_action` reads from its notation, and refuses an
option that is not one field of the notation."""

from __future__ import annotations

import pytest

from rules import asked
from rules.actions import (
    NAME,
    Action,
    Cast,
    DedicateHall,
    Dig,
    EndTurn,
    Keep,
    MoveStatue,
    PlaceGate,
    Recruit,
    Trade,
    UseWorkshop,
    format_bundle,
    format_cells,
    parse_action,
)
from rules.errors import NotationError
from rules.selfplay import play_random_game
from rules.state import make_config


def _built(action: Action) -> Action:
    """The action built from the options a command would give for it."""
    if isinstance(action, Keep):
        return asked.keep(action.card, action.slot)
    if isinstance(action, PlaceGate):
        return asked.gate(action.point)
    if isinstance(action, Recruit):
        pedestal = None if action.pedestal is None else action.pedestal.value
        return asked.recruit(action.horde, action.slot, pedestal)
    if isinstance(action, Dig):
        cells = format_cells(action.cells, action.anchor)
        pedestal = None if action.pedestal is None else action.pedestal.value
        (workshop,) = [f"{s}={w}" for s, w in action.workshops] or [None]
        return asked.dig(action.shape, cells, NAME[action.mineral], pedestal, workshop)
    if isinstance(action, Cast):
        return asked.cast(action.spell, " ".join(action.args) or None)
    if isinstance(action, UseWorkshop):
        # `/mk use` gives the site apart from the conversion (rules.options)
        return asked.use(action.site, str(action).removeprefix(f"use {action.site} "))
    if isinstance(action, Trade):
        return asked.trade(format_bundle(action.give), action.get.value)
    if isinstance(action, DedicateHall):
        return asked.hall(action.hall, format_cells(action.cells, action.altar))
    if isinstance(action, MoveStatue):
        return asked.move(action.origin, action.target)
    assert isinstance(action, EndTurn)
    return asked.end()


@pytest.mark.parametrize("seed", [3, 11])
def test_every_action_of_a_game_is_built_from_its_options_as_parsed_from_its_notation(
    seed: int,
) -> None:
    kinds: set[str] = set()
    game = play_random_game(make_config(players=3), seed)
    for move in game.moves:
        action = move.action
        if getattr(action, "pay", None) is not None or (
            isinstance(action, Dig) and len(action.workshops) > 1
        ):
            continue  # a command names no payment, and one workshop at most
        built = _built(action)
        assert built == action == parse_action(str(built)), str(action)
        kinds.add(type(action).__name__)
    every_kind = {
        "Keep",
        "PlaceGate",
        "Recruit",
        "Dig",
        "Cast",
        "UseWorkshop",
        "Trade",
        "DedicateHall",
        "MoveStatue",
        "EndTurn",
    }
    assert kinds == every_kind, kinds


def test_a_cast_choice_may_hold_several_words_and_a_payment() -> None:
    cast = asked.cast("summon-rockeater", "I2 F7*+G7 stone pay rune@A1")
    assert cast == parse_action("cast summon-rockeater I2 F7*+G7 stone pay rune@A1")
    assert cast.args == ("I2", "F7*+G7", "stone") and cast.pay is not None


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: asked.recruit("2.3 B1", "B1"), "Unexpected characters in '2.3 B1'."),
        (lambda: asked.recruit("9.9", "B1"), "'9.9' is not a horde slot (1.1 to 3.3)."),
        (lambda: asked.recruit("2.3", "B1", "garbage"), "is not a pedestal clan"),
        (lambda: asked.gate("W1 W2"), "Unexpected characters in 'W1 W2'."),
        (lambda: asked.keep("blue-3", "B1"), "'B1' is not a bottom-row slot (A1 to A4)."),
        (lambda: asked.dig("I2", "F7*+G7", "coin"), "is not a mineral"),
        (lambda: asked.dig("I2", "G7+F7*", "stone"), "List the cells in reading order"),
        (
            lambda: asked.dig("I2", "F7*+G7", "stone", workshop="G6=forge pay coin@A1"),
            "Unexpected characters",
        ),
        (lambda: asked.trade("4stone", "gold"), "'gold' is not a resource."),
        (lambda: asked.move("F7", "nowhere"), "'nowhere' is not a cell such as F7."),
        (lambda: asked.use("S3", "heartstone"), "Write the conversion as give>get"),
        (lambda: asked.cast("earth-ritual", "  2iron"), "single spaces"),
    ],
)
def test_an_option_that_is_not_its_field_is_refused_with_a_sentence(
    build: object, message: str
) -> None:
    assert callable(build)
    with pytest.raises(NotationError) as refused:
        build()
    assert message in str(refused.value), str(refused.value)
