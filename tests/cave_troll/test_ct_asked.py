"""The builders of a command's options (`cave_troll.asked`): every action built from its
fields as text is the action its notation reads to, and a field that is not one word of
the notation, or the wrong kind of word, is refused with a NotationError."""

from __future__ import annotations

import pytest
from ct_strategies import any_action
from hypothesis import given, settings

from cave_troll import asked
from cave_troll.actions import (
    Action,
    Draw,
    EndTurn,
    Flee,
    Kill,
    Move,
    Place,
    PlayChalice,
    PlayCloak,
    PlayEldarra,
    PlayHelm,
    PlaySword,
    PlayWand,
    Push,
    Send,
    Stay,
    parse_action,
)
from cave_troll.errors import NotationError


def built(action: Action) -> Action:
    """The action as a command's options would ask for it: each field as its text."""
    if isinstance(action, Draw):
        return asked.draw()
    if isinstance(action, Stay):
        return asked.stay()
    if isinstance(action, EndTurn):
        return asked.end()
    if isinstance(action, Place):
        return asked.place(action.at)
    if isinstance(action, Move):
        return asked.move(str(action.piece), ">".join(action.path))
    if isinstance(action, Push):
        return asked.push(str(action.target), action.to)
    if isinstance(action, Kill):
        return asked.kill(str(action.target))
    if isinstance(action, Send):
        return asked.send(str(action.piece), action.to)
    if isinstance(action, Flee):
        return asked.flee(str(action.piece), action.to)
    if isinstance(action, PlayHelm):
        return asked.play("helm", str(action.target), ">".join(action.path))
    if isinstance(action, PlayCloak):
        return asked.play("cloak", str(action.piece))
    if isinstance(action, PlayChalice):
        return asked.play("chalice", action.at)
    assert isinstance(action, PlayEldarra | PlayWand | PlaySword)
    name = {PlayEldarra: "eldarra", PlayWand: "wand", PlaySword: "sword"}[type(action)]
    return asked.play(name, action.room)


@given(any_action)
@settings(max_examples=300, deadline=None)
def test_an_action_built_from_its_fields_is_the_one_its_notation_reads_to(
    action: Action,
) -> None:
    made = built(action)
    assert made == action == parse_action(str(made))


@pytest.mark.parametrize(
    ("build", "code"),
    [
        (lambda: asked.place("NW A1"), "characters"),
        (lambda: asked.place("Z9"), "no_such_place"),
        (lambda: asked.move("blue-knight@A1", "A4"), "own_piece"),
        (lambda: asked.kill("knight@A1"), "whose_piece"),
        (lambda: asked.push("blue-knight@A1", ""), "empty"),
        (lambda: asked.play("spoon", "A1"), "no_artifact"),
        (lambda: asked.play("helm", "blue-orc@A7"), "usage"),
        (lambda: asked.play("wand"), "usage"),
        (lambda: asked.play("sword", "NW"), "not_a_room"),
        (lambda: asked.move("knight@A1", "A1>A2>A3>A4"), "long_path"),
        (lambda: asked.flee("x" * 300, "A1"), "too_long"),
    ],
)
def test_a_field_that_cannot_be_read_is_refused_with_a_sentence(build: object, code: str) -> None:
    with pytest.raises(NotationError) as refused:
        build()  # type: ignore[operator]
    assert refused.value.code == code and refused.value.message
