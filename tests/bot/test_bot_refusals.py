"""Refusals through the bot: the wrong player, the wrong turn, an illegal move,
garbage in options, a stale button. Each gets an ephemeral sentence and the game's
log does not change. And the dig preview: a private image, then Confirm."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot_harness import buttons_of, guild_table, open_game, pngs, running_bot, set_up

from bot.mountain_king.texts import DRAFT_NOT_YET
from rules.legal import legal_actions
from rules.steps import seats_to_act


async def _started(env: Any, bot: Any) -> tuple[Any, Any, dict[int, Any], Any, int, Any]:
    """A 2-player game as it starts: the first gate is to be placed."""
    channel, (alice, bob, carol) = guild_table(env, "alice", "bob", "carol")  # carol: not seated
    thread, game_id = await open_game(env, [alice, bob], channel)
    info = await bot.service.info(game_id)
    by_seat = {s.seat: (alice if s.user_id == alice.id else bob) for s in info.seats}
    return alice, bob, by_seat, thread, game_id, carol


async def _log_length(bot: Any, game_id: int) -> int:
    return len(await bot.service.history.log(game_id))


async def test_wrong_player_wrong_turn_illegal_move_and_garbage_change_nothing(
    tmp_path: Path,
) -> None:
    async with running_bot(tmp_path / "db.sqlite3") as (env, bot):
        _, _, by_seat, thread, game_id, carol = await _started(env, bot)
        state = (await bot.service.load(game_id)).state
        mover = by_seat[seats_to_act(state)[0]]
        other = next(p for p in by_seat.values() if p is not mover)
        gate = str(legal_actions(state, seats_to_act(state)[0], "gate")[0]).split()[1]
        before = await _log_length(bot, game_id)
        cases = [
            (carol, "mk gate", {"point": gate}, "not playing"),
            (other, "mk gate", {"point": gate}, "turn"),
            (mover, "mk gate", {"point": "Z99"}, "no start point"),
            (mover, "mk act", {"action": "keep blue-3 A1"}, "once every gate is placed"),
            (other, "mk draft", {}, DRAFT_NOT_YET),
            # a turn's action while the gates are placed: refused for the moment first
            (mover, "mk act", {"action": "recruit 9.9 Q1"}, "turns have not begun"),
            (mover, "mk act", {"action": "🙂 \x00"}, ""),
            (
                mover,
                "mk dig",
                {"tile": "T4", "cells": "garbage", "mineral": "stone"},
                "turns have not begun",
            ),
        ]
        for actor, command, options, words in cases:
            result = await actor.slash(thread, command, **options)
            assert result.acknowledged
            assert result.ephemeral
            text = result.response.content if result.response else ""
            assert words.lower() in text.lower(), text
            assert "Traceback" not in text
        assert await _log_length(bot, game_id) == before
        # a command outside a game's thread
        lobby_channel = env.guild.channels["games"]
        result = await mover.slash(lobby_channel, "mk end")
        assert "game's thread" in result.response.content
        assert not env.errors


async def test_stale_confirm_button_says_the_game_moved_on(tmp_path: Path) -> None:
    async with running_bot(tmp_path / "db.sqlite3") as (env, bot):
        alice, bob, by_seat, thread, game_id, _ = await _started(env, bot)
        await set_up(bot, [alice, bob], thread, game_id)
        state = (await bot.service.load(game_id)).state
        seat = seats_to_act(state)[0]
        player = by_seat[seat]
        digs = legal_actions(state, seat, "dig")
        assert digs, "the starting resources allow a first dig in this seed"
        dig = digs[0]
        words = str(dig).split()
        preview = await player.slash(
            thread, "mk dig", tile=words[1], cells=words[2], mineral=words[3]
        )
        message = preview.response
        assert "Dig" in message.content
        images = await pngs(message.message)
        assert len(images) == 1
        # the game moves on before Confirm: recruit instead
        recruit = legal_actions(state, seat, "recruit")[0]
        await player.slash(thread, "mk act", action=str(recruit))
        before = await _log_length(bot, game_id)
        confirm = [c for c in buttons_of(message) if c["label"] == "Confirm"]
        result = await player.click(message.message, custom_id=confirm[0]["custom_id"])
        assert result.acknowledged
        assert "moved on" in (
            result.followups[-1].content if result.followups else result.response.content
        )
        assert await _log_length(bot, game_id) == before


# --- refusals that fit the moment (issue 28) ---------------------------------------

LONG = "q" * 300
# the longest a player's words are quoted back: 60 characters, quotes and "…" included
ECHOED = "q" * 58


def _said(result: Any) -> str:
    """The private answer: the deferred reply (the first follow-up replaces it)."""
    assert result.acknowledged and result.ephemeral
    texts = [m.content for m in [result.response, *result.followups] if m is not None]
    assert texts, result
    return texts[-1]


async def test_in_play_a_gate_a_pedestal_and_a_tile_are_refused_for_what_is_wrong_now(
    tmp_path: Path,
) -> None:
    """During play: `/mk gate` with any point (garbage, 300 characters) is told the gates
    are all placed; a bad dig pedestal is named; a bad tile is told after the colon in
    lower case, with no preview image; no answer quotes more than 60 characters of what
    was typed."""
    async with running_bot(tmp_path / "db.sqlite3") as (env, bot):
        alice, bob, by_seat, thread, game_id, _ = await _started(env, bot)
        # while the gates are placed, a point that does not exist lists the free ones
        state = (await bot.service.load(game_id)).state
        mover = by_seat[seats_to_act(state)[0]]
        free = [str(a).split()[1] for a in legal_actions(state, seats_to_act(state)[0], "gate")]
        said = _said(await mover.slash(thread, "mk gate", point="xyz"))
        assert said.startswith("There is no start point 'xyz': choose one of "), said
        assert all(p in said for p in free), said
        said = _said(await mover.slash(thread, "mk gate", point=LONG))
        assert ECHOED not in said and "…" in said, said
        # and a turn's action is told which part of the setup runs
        said = _said(await mover.slash(thread, "mk act", action=f"dig {LONG}"))
        assert said == "The turns have not begun: the gates are still being placed.", said

        await set_up(bot, [alice, bob], thread, game_id)
        state = (await bot.service.load(game_id)).state
        seat = seats_to_act(state)[0]
        mover = by_seat[seat]
        before = await _log_length(bot, game_id)
        for point in ("W1", "garbage", LONG, "💥 x"):
            said = _said(await mover.slash(thread, "mk gate", point=point))
            assert said == "The gates are all placed: the game is in play.", (point, said)

        dig = str(legal_actions(state, seat, "dig")[0]).split()
        options = {"tile": dig[1], "cells": dig[2], "mineral": dig[3]}
        result = await mover.slash(thread, "mk dig", **options, pedestal="garbage")
        said = _said(result)
        assert said == "'garbage' is not a pedestal clan (fire, ice or moon).", said
        result = await mover.slash(thread, "mk dig", **{**options, "tile": "XYZ"})
        said = _said(result)
        assert said == "That tunnel is not allowed: there is no tunnel tile 'XYZ'.", said
        answers = [m for m in [result.response, *result.followups] if m is not None]
        assert all(not m.attachments for m in answers), "a refused dig shows no preview"
        result = await mover.slash(thread, "mk dig", **{**options, "tile": LONG})
        said = _said(result)
        assert said.startswith("That tunnel is not allowed: there is no tunnel tile 'qqq")
        assert ECHOED not in said, said
        assert all(not m.attachments for m in [result.response, *result.followups] if m)
        # a legal dig still shows its preview
        preview = await mover.slash(thread, "mk dig", **options)
        assert len(await pngs(preview.response.message)) == 1
        assert await _log_length(bot, game_id) == before
        assert not env.errors


# every option of every command that takes typed words, with its other options
TYPED: list[tuple[str, dict[str, Any], list[str]]] = [
    ("mk act", {}, ["action"]),
    ("mk recruit", {"troll": "1.1", "slot": "B1"}, ["troll", "slot", "pedestal"]),
    (
        "mk dig",
        {"tile": "I2", "cells": "F7*+G7", "mineral": "stone"},
        ["tile", "cells", "mineral", "pedestal", "workshop"],
    ),
    ("mk cast", {"spell": "earth-ritual"}, ["spell", "choice"]),
    ("mk use", {"site": "S1", "conversion": "stone>iron"}, ["site", "conversion"]),
    ("mk trade", {"give": "4stone", "get": "rune"}, ["give"]),
    ("mk hall", {"hall": "trove", "cells": "F7"}, ["hall", "cells"]),
    ("mk move", {"statue": "F7", "to": "G7"}, ["statue", "to"]),
    ("mk gate", {"point": "W1"}, ["point"]),
]


async def test_a_300_character_input_is_quoted_back_at_most_60_characters(
    tmp_path: Path,
) -> None:
    """300 characters typed in any option of any turn command, in the setup and in
    play, by the player to act and by another: no answer quotes more than 60."""
    async with running_bot(tmp_path / "db.sqlite3") as (env, bot):
        alice, bob, by_seat, thread, game_id, _ = await _started(env, bot)

        async def every_option() -> int:
            state = (await bot.service.load(game_id)).state
            mover = by_seat[seats_to_act(state)[0]]
            other = next(p for p in by_seat.values() if p is not mover)
            checked = 0
            for player in (mover, other):
                for command, base, options in TYPED:
                    for option in options:
                        for long in (LONG, "q" * 200 + " " + "q" * 99):
                            result = await player.slash(thread, command, **{**base, option: long})
                            said = _said(result)
                            assert ECHOED not in said, (command, option, said)
                            checked += 1
            return checked

        assert await every_option() > 50
        await set_up(bot, [alice, bob], thread, game_id)
        assert await every_option() > 50
        # the bot's own refusals quote what was typed the same way
        for command, options in (
            ("mk notify", {"timezone": LONG}),
            ("mk admin", {"what": "autopilot-on", "seat": LONG}),
        ):
            said = _said(await alice.slash(thread, command, **options))
            assert "qqq" in said and ECHOED not in said, (command, said)
        assert not env.errors
