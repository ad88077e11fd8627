"""Help inside Discord: `/mk help` without a topic explains how to start, a turn in
four steps, the end and the images; each topic answers privately; every notation
example parses; the card pyramid has one name; and every command and option of the
bot has a real description."""

from __future__ import annotations

from pathlib import Path

import pytest
from bot_harness import TableOf, running_bot
from discord import app_commands

import render
from bot.mountain_king.help import HELP, HELP_OVERVIEW, HELP_TOPICS, NOTATION_EXAMPLES
from rules.actions import parse_action

# Discord's limits: a message's content, and a description
MESSAGE_LIMIT = 2000
DESCRIPTION_LIMIT = 100


async def test_help_without_a_topic_covers_start_turn_end_and_images(table_of: TableOf) -> None:
    async with table_of("alice") as (env, _, channel, (alice,)):
        result = await alice.slash(channel, "mk help")
        assert result.acknowledged and result.ephemeral
        text = result.response.content
        assert text == HELP_OVERVIEW
        for words in ("/mk new", "**Join**", "**Start**", "/mk draft", "/mk gate"):
            assert words in text, words
        assert text.index("/mk gate") < text.index("/mk draft"), "the gates come first"
        for step in ("1. ", "2. ", "3. ", "4. "):
            assert f"\n{step}" in text, step
        for words in ("**The end.**", "coronation", "**Reading the images.**", "share:True"):
            assert words in text, words
        assert not env.errors


async def test_every_help_topic_answers_privately(table_of: TableOf) -> None:
    async with table_of("alice") as (env, _, channel, (alice,)):
        for topic, _ in HELP_TOPICS:
            result = await alice.slash(channel, "mk help", topic=topic)
            assert result.acknowledged and result.ephemeral, topic
            assert result.response.content == HELP[topic]
            names = [a.filename for a in result.response.attachments]
            assert names == (["legend.png"] if topic == "images" else [])
            if names:
                data = await result.response.attachments[0].read()
                assert data == render.legend_png(), "the board's own legend"
        assert not env.errors


def test_every_topic_is_offered_and_fits_a_message() -> None:
    assert [topic for topic, _ in HELP_TOPICS] == list(HELP)
    assert len(HELP_TOPICS) <= 25  # Discord's most choices
    for topic, text in [("overview", HELP_OVERVIEW), *HELP.items()]:
        assert 0 < len(text) <= MESSAGE_LIMIT - 100, topic


@pytest.mark.parametrize("example", [example for example, _ in NOTATION_EXAMPLES])
def test_every_notation_example_parses_as_written(example: str) -> None:
    assert str(parse_action(example)) == example
    assert f"`{example}`" in HELP["notation"]


def test_the_draft_and_gates_help_say_what_players_ask() -> None:
    draft = HELP["draft"]
    for words in ("A1 A2 A3 A4", "inner slots activate more", "**Keeping**", "storage"):
        assert words in draft, words
    assert "/mk gate" in HELP["gates"] and "start point" in HELP["gates"]
    # the gates come before the draft, in the help as at the table
    assert "after the last gate everyone drafts" in HELP["gates"]
    assert "Once every gate is placed, `/mk draft`" in draft
    assert [t for t, _ in HELP_TOPICS][:2] == ["gates", "draft"]
    for words in ("coronation", "pedestal tokens", "great halls", "statues", "tie"):
        assert words in HELP["scoring"].lower(), words


def test_the_card_pyramid_has_one_name() -> None:
    """ "Pyramid" everywhere; the help says once that the rulebook calls it the
    trollsmoot."""
    texts = [HELP_OVERVIEW, *HELP.values()]
    assert sum(text.lower().count("trollsmoot") for text in texts) == 1
    assert "rulebook calls it the *trollsmoot*" in HELP["draft"]


async def test_every_command_and_option_has_a_real_description(tmp_path: Path) -> None:
    async with running_bot(tmp_path / "db.sqlite3") as (_, bot):
        lacking: list[str] = []
        commands = 0
        for command in bot.tree.walk_commands():
            commands += 1
            described = [(f"/{command.qualified_name}", command.description)]
            if isinstance(command, app_commands.Command):
                described += [
                    (f"/{command.qualified_name} {p.name}:", p.description)
                    for p in command.parameters
                ]
            for name, description in described:
                text = description.strip()
                if not text or text == "…" or len(text) > DESCRIPTION_LIMIT:
                    lacking.append(f"{name} {description!r}")
                if "trollsmoot" in text.lower():
                    lacking.append(f"{name} says trollsmoot, not pyramid")
        assert commands > 20
        assert not lacking, "commands and options without a real description: " + ", ".join(lacking)
