"""Notation: every action formats to text that parses back to the same action, and
anything else is refused with a NotationError that says why (never another exception),
quoting what was typed in at most 60 characters."""

from __future__ import annotations

import pytest
from ct_strategies import any_action
from hypothesis import given, settings
from hypothesis import strategies as st

from cave_troll.actions import Action, Move, Push, Ref, parse_action
from cave_troll.errors import ECHO_LIMIT, NotationError


@given(any_action)
@settings(max_examples=300, deadline=None)
def test_notation_round_trip(action: Action) -> None:
    text = str(action)
    assert parse_action(text) == action
    assert str(parse_action(text)) == text


@given(st.text(max_size=40))
@settings(max_examples=300, deadline=None)
def test_any_text_is_read_or_refused_with_a_sentence(text: str) -> None:
    try:
        action = parse_action(text)
    except NotationError as exc:
        assert exc.message and exc.code
    else:
        assert str(action) == text


WORDS = [
    "draw", "place", "move", "push", "kill", "play", "send", "flee", "stay", "end",
    "helm", "chalice", "eldarra", "wand", "cloak", "sword", "knight@A1", "blue-orc@A7",
    "explorer*@NW", "A4>A7", "pit", "NE", "Z9", "red-knight@A1", "troll@B4", "A1>A2>A3>A4",
    "@", ">", "-", "*", "blue-", "knight@",
]  # fmt: skip


@given(st.lists(st.sampled_from(WORDS), max_size=5).map(" ".join))
@settings(max_examples=400, deadline=None)
def test_word_salad_is_refused_cleanly_or_round_trips(text: str) -> None:
    try:
        action = parse_action(text)
    except NotationError:
        return
    assert str(action) == text


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "empty"),
        ("move  knight@A1 A4", "spaces"),
        ("jump", "unknown_verb"),
        ("move knight@A1", "usage"),
        ("move knight@Z9 A4", "no_such_place"),
        ("move ogre@A1 A4", "no_such_kind"),
        ("move blue-knight@A1 A4", "own_piece"),
        ("kill knight@A1", "whose_piece"),
        ("kill red-knight@A1", "no_such_colour"),
        ("move knight A4", "bad_piece"),
        ("move explorer*@A1 A4>A7>A5", "long_path"),
        ("play ring A1", "no_artifact"),
        ("play wand NW", "not_a_room"),
        ("draw now", "usage"),
        ("move knight@A1 A4;", "characters"),
        ("x" * 201, "too_long"),
    ],
)
def test_bad_notation_is_refused_with_a_reason(text: str, code: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_action(text)
    assert info.value.code == code


@pytest.mark.parametrize(
    "text", ["move knight@" + "Q" * 150 + " A4", "kill " + "z" * 150 + "-orc@A1", "w" * 150]
)
def test_what_was_typed_is_quoted_back_in_at_most_60_characters(text: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_action(text)
    for value in info.value.params.values():
        if isinstance(value, str) and value.startswith("'"):
            assert len(value) <= ECHO_LIMIT
    assert len(info.value.message) < 250


def test_notation_examples() -> None:
    assert str(Move(Ref("explorer", "A1", cloaked=True), ("A4", "A7"))) == "move explorer*@A1 A4>A7"
    assert parse_action("push blue-explorer@A3 A2") == Push(
        Ref("explorer", "A3", colour="blue"), "A2"
    )
