"""What the rules tell of an action (`rules.story`: a kind and its facts) and what they
refuse (`RulesError`: a template and its values), told by the bot in English, Polish
and Spanish: every story of whole random games in each voice, every refusal the engine
raises in them, stories stored as JSON and read back, and the English sentences of
games stored before stories were data."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import get_args

import pytest

from bot.i18n import ENGLISH, translator_for
from bot.mountain_king.refusals import refusal_text
from bot.mountain_king.stories import TELLERS, Voice, question, story_text, tell
from bot.mountain_king.texts import log_text, turn_post_text
from bot.service.owed import read_payload
from bot.service.results import LogEntry
from bot.texts import done_text
from rules import engine
from rules.actions import Action
from rules.errors import RulesError
from rules.game import Game
from rules.legal import legal_actions
from rules.selfplay import random_action
from rules.state import State
from rules.steps import seats_to_act
from rules.story import Story, describe, kept, read_story

VOICES: tuple[Voice, ...] = ("they", "you", "ask")
FIELD = re.compile(r"\{\w*\}")
# the English verbs of the stories: none may be left in a translated one
ENGLISH_VERBS = re.compile(
    r"\b(kept|placed|cast|used|traded|recruited|dug|established|dedicated|moved|ended|"
    r"keep|place|use|trade|recruit|dig|establish|dedicate|move|end|their|your)\b"
)


def _games(seeds: tuple[int, ...] = (3, 11)) -> Iterator[tuple[State, int, Action]]:
    """Every position of whole random games with the action played in it (2 and 3
    players, the autumn and winter sides)."""
    for seed in seeds:
        game = Game.new(players=2 + seed % 2, seed=seed)
        rng = random.Random(seed)
        while game.state.phase != "over":
            seat = seats_to_act(game.state)[0]
            action = random_action(game.state, seat, rng)
            yield game.state, seat, action
            game.play(seat, action)


@pytest.fixture(scope="module")
def stories() -> list[Story]:
    told = [describe(state, seat, action) for state, seat, action in _games()]
    kinds = {s.kind for s in told}
    assert {"keep", "gate", "recruit", "dig", "end", "trade"} <= kinds, kinds
    return told


def test_every_story_is_told_in_every_voice_and_language(stories: list[Story]) -> None:
    pl, es = translator_for("pl"), translator_for("es")
    kinds: set[str] = set()
    for story in stories:
        for voice in VOICES:
            english = tell(story, voice)
            assert english and not FIELD.search(english), english
            for messages in (pl, es):
                text = tell(story, voice, messages)
                assert not FIELD.search(text), text
                # the cells, slots and notation stay; the words are the language's
                assert not ENGLISH_VERBS.search(text), (messages.language, voice, text)
                assert text != english or story.kind == "played"
        kinds.add(story.kind)
    assert len(kinds) >= 7, kinds


def test_a_story_is_stored_as_json_and_read_back_as_it_was(stories: list[Story]) -> None:
    for story in stories:
        data = story.to_json()
        assert read_story(data) == story
        assert story_text(data, "you", translator_for("pl")) == tell(
            story, "you", translator_for("pl")
        )


def test_the_english_stories_read_as_before() -> None:
    """The English sentences did not change when stories became data (tests and
    players read them): articles included."""
    data = {"kind": "dig", "shape": "N5", "cells": ["K3", "K4"], "mineral": "iron", "honor": 6}
    assert story_text(data) == "dug an iron N5 tunnel on K3+K4 (+6 honor)"
    assert question(data) == "Dig an iron N5 tunnel on K3+K4 for 6 honor?"
    pedestal = {**data, "mineral": "stone", "honor": 0, "pedestal": "ice", "anchor": "K3"}
    assert story_text(pedestal, "you") == (
        "dug a stone N5 tunnel on K3+K4 (no honor) with an Ice pedestal on K3"
    )
    assert story_text({"kind": "end"}) == "ended their turn"
    assert story_text({"kind": "end"}, "you") == "ended your turn"
    trade = {"kind": "trade", "give": ["stone", "coin", "coin", "rune"], "get": "iron"}
    assert story_text(trade) == "traded 1 stone, 2 coins and 1 rune for 1 iron"
    assert question(
        {"kind": "trade", "give": ["stone"] * 4, "get": "coin"}, translator_for("es")
    ) == ("¿Intercambiar 4 piedras por 1 moneda?")


def test_the_revealed_draft_names_each_kept_troll() -> None:
    game = Game.new(players=2, seed=5)
    rng = random.Random(5)
    while game.state.phase in ("gates", "draft"):
        seat = seats_to_act(game.state)[0]
        game.play(seat, random_action(game.state, seat, rng))
    revealed = kept(game.state, 0)
    assert [t.slot for t in revealed.trolls] == ["A1", "A2", "A3", "A4"]
    english = tell(revealed)
    assert english.startswith("kept a") and english.count(" in A") == 4
    polish = tell(revealed, "they", translator_for("pl"))
    assert polish.startswith("zachowuje trolla ") and polish.count("na miejscu A") == 4


def test_a_story_of_an_older_game_is_told_as_it_was_stored() -> None:
    """Games stored before stories were data kept English sentences in their log and
    their owed messages: they are told as they are, in every language."""
    pl = translator_for("pl")
    assert story_text("recruited a level-2 Fire troll from 2.3 into B1", "they", pl) == (
        "recruited a level-2 Fire troll from 2.3 into B1"
    )
    old = read_payload(
        '{"kind": "turn", "player": {"seat": 0, "label": "blue", "name": "ola"},'
        ' "sentences": ["dug a stone I2 tunnel on C9+D9 (+1 honor)", "ended their turn"],'
        ' "cells": ["C9", "D9"], "seq": 9}'
    )
    assert (
        turn_post_text(old, pl) == "**ola (Niebieski)** dug a stone I2 tunnel on C9+D9 (+1 honor)."
    )
    reply = read_payload(
        '{"kind": "reply", "user_id": 1, "application_id": 2, "token": "t",'
        ' "expires_at": "2026-01-01T00:00:00Z", "notation": "end", "story": "ended your turn"}'
    )
    assert done_text(reply, story_text, messages=pl) == "Zrobione: ended your turn."  # type: ignore[arg-type]
    # an entry stored with no story at all is told by its notation
    at = datetime(2026, 1, 1, tzinfo=UTC)
    entry = LogEntry(4, 0, "blue", "end", 1, at, None, name="ola")
    assert log_text([entry]) == "4. ola (Blue) played `end` · `end`"
    assert "akcja `end`" in log_text([entry], pl)


def test_a_story_the_bot_cannot_read_is_told_so() -> None:
    assert story_text({"kind": "teleport"}) == "did something this version of the bot cannot tell"


def _refusals() -> Iterator[RulesError]:
    """The engine's refusals met in random games: each position's legal actions tried
    by the wrong seat, the last position's actions tried again, and broken notation."""
    previous: list[Action] = []
    for state, seat, action in _games((4,)):
        for tried in previous[:12]:
            try:
                engine.apply(state.clone(), seat, tried)
            except RulesError as error:
                yield error
        other = (seat + 1) % len(state.players)
        try:
            engine.apply(state.clone(), other, action)
        except RulesError as error:
            yield error
        previous = list(legal_actions(state, seat))[::7] or [action]


def test_every_refusal_of_a_game_is_told_in_polish_and_spanish() -> None:
    pl, es = translator_for("pl"), translator_for("es")
    codes: set[str] = set()
    for error in _refusals():
        codes.add(error.code)
        english = refusal_text(error, ENGLISH)
        assert english == str(error)
        for messages in (pl, es):
            # the template is in the catalogue, and every field was filled
            assert messages.lookup(error.template) is not None, error.template
            text = refusal_text(error, messages)
            assert text != english and not FIELD.search(text), text
            assert text[:1] == text[:1].upper(), text
    assert len(codes) >= 8, codes


def test_every_kind_of_story_has_its_telling() -> None:
    members = get_args(get_args(Story)[0])
    kinds = {m.model_fields["kind"].default for m in members}
    assert len(kinds) == len(members) == 13
    assert set(TELLERS) == kinds
