"""Refusals through the bot: the wrong player, the wrong turn, an illegal move,
garbage in options, a stale button. Each gets an ephemeral sentence and the game's
log does not change. And the dig preview: a private image, then Confirm."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot_harness import buttons_of, open_game, pngs, running_bot, set_up

from bot.texts import DRAFT_NOT_YET
from rules.legal import legal_actions
from rules.steps import seats_to_act


async def _started(env: Any, bot: Any) -> tuple[Any, Any, dict[int, Any], Any, int, Any]:
    """A 2-player game as it starts: the first gate is to be placed."""
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    carol = guild.add_member(env.create_user("carol"))  # not seated
    thread, game_id = await open_game(env, [alice, bob], channel)
    info = await bot.service.info(game_id)
    by_seat = {s.seat: (alice if s.user_id == alice.id else bob) for s in info.seats}
    return alice, bob, by_seat, thread, game_id, carol


async def _log_length(bot: Any, game_id: int) -> int:
    return len(await bot.service.log(game_id))


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
            (mover, "mk act", {"action": "recruit 9.9 Q1"}, "horde slot"),
            (mover, "mk act", {"action": "🙂 \x00"}, ""),
            (mover, "mk dig", {"tile": "T4", "cells": "garbage", "mineral": "stone"}, "cell"),
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
