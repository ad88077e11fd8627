"""Cave Troll's stories, texts and alt texts read directly (no Discord): every kind of
story a seeded game of three tells, with its effects, in the three voices and the
three languages, every field filled; an artifact found is named to its finder only and
never in a public post; the flight's call names the room, the pieces and the deadline."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime

import pytest

from bot.cave_troll.alt import cave_alt, panel_alt
from bot.cave_troll.help import HELP_TOPICS, help_text
from bot.cave_troll.stories import in_public, story_text
from bot.cave_troll.texts import FlightFacts, start_text, turn_post_text
from bot.cave_troll.texts import told as told_in_post
from bot.cave_troll.words import told
from bot.i18n import translator_for
from bot.service.owed import Player, StartPost, TurnPost
from bot.service.protocol import Voice
from cave_troll import describe, view
from cave_troll.actions import Place
from cave_troll.ai import choose_action
from cave_troll.errors import CaveTrollError
from cave_troll.game import Game
from cave_troll.turns import to_act

LANGUAGES = ("en", "pl", "es")
VOICES: tuple[Voice, ...] = ("they", "you", "ask")
FIELD = re.compile(r"\{\w+\}")


def stories_of_a_game(seed: int = 9) -> list[dict[str, object]]:
    """One story of each kind and set of effects a seeded game of three tells."""
    game = Game.new(players=3, seed=seed)
    rng = random.Random(seed)
    seen: dict[tuple[object, ...], dict[str, object]] = {}
    while game.state.phase != "over":
        seat = to_act(game.state)[0]
        action = choose_action(game.state, seat, rng)
        story = describe(game.state, seat, action).to_json()
        effects = tuple(e["effect"] for e in story["effects"])
        seen.setdefault((story["kind"], story.get("artifact"), effects), story)
        game.play(seat, action)
    return list(seen.values())


STORIES = stories_of_a_game()


def test_the_game_tells_every_kind_of_story() -> None:
    kinds = {s["kind"] for s in STORIES}
    assert kinds >= {"draw", "place", "move", "kill", "play", "end", "stay", "flee"}, kinds


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("voice", VOICES)
def test_every_story_is_told_in_each_voice_and_language(language: str, voice: Voice) -> None:
    m = translator_for(language)
    english = translator_for("en")
    for story in STORIES:
        text = story_text(story, voice, m)
        assert text and not FIELD.search(text), (story, text)
        if language != "en" and voice != "ask":
            assert text != story_text(story, voice, english), (language, story)


def test_an_artifact_found_is_named_to_its_finder_and_kept_secret_in_a_post() -> None:
    found = next(
        s
        for s in STORIES
        if any(e["effect"] == "found" and e["artifact"] for e in s["effects"])  # type: ignore[index, union-attr, attr-defined]
    )
    you = story_text(found, "you")
    assert "you find the " in you
    public = story_text(in_public(found), "they")
    assert "finds an artifact, kept secret" in public and "finds the " not in public


def test_the_flight_call_names_the_room_the_pieces_and_the_deadline() -> None:
    called = Player(seat=1, label="orange", user_id=7, name="bob")
    post = TurnPost(
        player=Player(seat=0, label="blue", user_id=5, name="alice"),
        sentences=({"kind": "place", "token": "troll", "at": "B5", "effects": []},),
        cells=("B5",),
        seq=9,
        calls=(called,),
        call_phase="flight",
    )
    deadline = datetime(2026, 11, 22, 12, tzinfo=UTC)
    flight = FlightFacts("B5", (("orange", "knight"), ("blue", "dwarf")), deadline)
    for language in LANGUAGES:
        text = turn_post_text(post, flight, translator_for(language))
        assert "B5" in text and "<@7>" in text and f"<t:{int(deadline.timestamp())}:R>" in text
    text = turn_post_text(post, flight)
    assert "Orange Knight and Blue Dwarf" in text and "`/cave flee`" in text
    polish = turn_post_text(post, flight, translator_for("pl"))
    assert "`/jaskinia uciekaj`" in polish and "Rycerz (Pomarańczowy)" in polish, polish


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_alt_texts_and_help_are_whole_in_each_language(language: str) -> None:
    m = translator_for(language)
    game = Game.new(players=3, seed=2)
    seen = view(game.state, 0)
    for text in (cave_alt(seen, ("NW", "A1"), {0: "alice"}, m), panel_alt(seen, 0, "alice", m)):
        assert text and len(text) <= 1024 and not FIELD.search(text)
    for topic in (None, *(t for t, _ in HELP_TOPICS)):
        text = help_text(topic, m)
        assert text and len(text) <= 1900 and not FIELD.search(text.replace("{", "")), topic


def test_a_refusal_is_told_with_the_games_words_in_the_readers_language() -> None:
    game = Game.new(players=3, seed=2)
    seat = to_act(game.state)[0]
    with pytest.raises(CaveTrollError) as refused:
        game.play(seat, Place("NW"))  # nothing was drawn
    error = refused.value
    assert told(error.template, error.params, translator_for("pl")).startswith("Nie masz nic")
    assert told(error.template, error.params, translator_for("es")).startswith("No tienes nada")


def test_a_turn_post_tells_a_pieces_moves_one_after_another_as_one_walk() -> None:
    def moved(start: str, to: str) -> dict[str, object]:
        piece = {"colour": "blue", "kind": "dwarf"}
        return {"kind": "move", "piece": piece, "start": start, "path": [to], "effects": []}

    drew = {"kind": "draw", "token": "orc", "effects": []}
    stories = (moved("SW", "D3"), moved("D3", "D4"), moved("D4", "D7"), drew, moved("D7", "D5"))
    assert told_in_post(stories) == (
        "moved Blue Dwarf from SW to D3 → D4 → D7; drew Orc; moved Blue Dwarf from D7 to D5"
    )


def test_the_start_post_calls_the_first_player_with_the_turn_clock() -> None:
    players = (
        Player(seat=0, label="blue", user_id=5, name="alice"),
        Player(seat=1, label="orange", user_id=7, name="bob"),
        Player(seat=2, label="green", user_id=9, name="carol"),
    )
    deadline = datetime(2026, 11, 22, 12, tzinfo=UTC)
    post = StartPost(players=players, to_act=(1,), phase="play", deadline=deadline)
    text = start_text(post)
    assert "1. bob (Orange)\n2. carol (Green)\n3. alice (Blue)" in text
    assert "In the first round the players have 1, 4, 4 actions" in text
    assert text.endswith(f"Turn clock: runs out <t:{int(deadline.timestamp())}:R>.")
    assert "<@7> (Orange): you play first: `/cave draw`" in text
    polish = start_text(post, translator_for("pl"))
    assert "`/jaskinia dobierz`" in polish and "zaczynasz" in polish
