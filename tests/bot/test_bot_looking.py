"""Looking commands through the bot: the board, a pyramid, the market and the scores
answer only the asker, with a caption; `share` posts them for the table; every refusal
stays private, shared or not; and a shared pyramid shows only what the table may see."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from bot_harness import guild_table, open_game, running_bot, set_up

from bot.mountain_king.help import SHARED
from bot.texts import NOT_STARTED
from render import pyramid_png
from rules.actions import Dig
from rules.legal import legal_actions
from rules.selfplay import random_action
from rules.steps import seats_to_act

LOOKS: list[tuple[str, dict[str, Any], str | None]] = [
    ("mk board", {}, "board.png"),
    ("mk market", {}, "market.png"),
    ("mk pyramid", {}, "pyramid-blue.png"),
    ("mk scores", {}, None),
]


async def _table(env: Any) -> tuple[Any, Any, Any, Any, Any]:
    channel, (alice, bob, carol) = guild_table(env, "alice", "bob", "carol")  # carol: not seated
    return channel, alice, bob, carol, channel.guild


async def _png(response: Any) -> bytes:
    (attachment,) = response.attachments
    data: bytes = await attachment.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return data


@pytest.mark.parametrize(("command", "options", "image"), LOOKS)
async def test_looking_is_private_by_default_and_shared_on_request_with_a_caption(
    tmp_path: Path, command: str, options: dict[str, Any], image: str | None
) -> None:
    async with running_bot(tmp_path / "db.sqlite3") as (env, bot):
        channel, alice, bob, _, _ = await _table(env)
        thread, game_id = await open_game(env, [alice, bob], channel)
        await set_up(bot, [alice, bob], thread, game_id)
        public = len(thread.history())

        private = await alice.slash(thread, command, **options)
        assert private.acknowledged and private.ephemeral
        answer = private.response
        assert answer.ephemeral
        first_line = answer.content.splitlines()[0]
        assert first_line.startswith(f"Game #{game_id} · ")
        assert "alice (Blue) to play" in first_line, first_line
        if image is not None:
            assert [a.filename for a in answer.attachments] == [image]
            # with what it shows in words, for screen readers
            assert all(a.description for a in answer.attachments), answer.attachments
            await _png(answer)
        else:
            assert "alice (Blue): 0 honor" in answer.content
            assert "bob (Orange): 0 honor" in answer.content
        assert len(thread.history()) == public, "nothing was posted for the table"

        shared = await alice.slash(thread, command, share=True, **options)
        assert shared.acknowledged
        assert shared.response.ephemeral and shared.response.content == SHARED
        (post,) = shared.followups
        assert not post.ephemeral
        assert post.content == answer.content, "the table sees the same caption"
        if image is not None:
            assert [a.filename for a in post.attachments] == [image]
            assert [a.description for a in post.attachments] == [
                a.description for a in answer.attachments
            ], "the same words as the asker's, in the same language"
        assert len(thread.history()) == public + 1
        assert any(m.id == post.id for m in thread.history())
        assert not env.errors


async def test_refusals_are_private_even_when_sharing(tmp_path: Path) -> None:
    async with running_bot(tmp_path / "db.sqlite3") as (env, bot):
        channel, alice, bob, carol, _ = await _table(env)
        # before the start: the lobby's thread has a game that has not begun
        await alice.slash(channel, "mk new", players=2)
        lobby_thread = channel.threads[-1]
        before = len(lobby_thread.history())
        for command, _, _ in LOOKS:
            result = await alice.slash(lobby_thread, command, share=True)
            assert result.ephemeral, command
            assert result.response.content == NOT_STARTED
            assert not result.followups
        assert len(lobby_thread.history()) == before

        thread, game_id = await open_game(env, [alice, bob], channel)
        await set_up(bot, [alice, bob], thread, game_id)
        public = len(thread.history())
        cases = [
            (alice, channel, "mk board", {"share": True}, "game's thread"),
            (alice, channel, "mk scores", {"share": True}, "game's thread"),
            (alice, thread, "mk pyramid", {"player": carol, "share": True}, "carol has no seat"),
            (carol, thread, "mk pyramid", {"share": True}, "You have no seat"),
            (carol, thread, "mk pyramid", {}, "You have no seat"),
        ]
        for actor, where, command, options, words in cases:
            result = await actor.slash(where, command, **options)
            assert result.acknowledged and result.ephemeral, (command, options)
            assert words in result.response.content, result.response.content
            assert not result.followups
        assert len(thread.history()) == public, "no refusal reached the table"
        assert not env.errors


async def _play_until_a_pedestal_token(bot: Any, game_id: int, seed: int = 5) -> int:
    """Play the game through the service (digging with a pedestal whenever one can)
    until some seat holds a pedestal token; that seat."""
    rng = random.Random(seed)
    info = await bot.service.info(game_id)
    user_of = {s.seat: s.controller_id for s in info.seats}
    for _ in range(3000):
        state = (await bot.service.load(game_id)).state
        for seat, player in enumerate(state.players):
            if state.accounts[player.account].tokens:
                return seat
        seat = seats_to_act(state)[0]
        action = random_action(state, seat, rng)
        if state.phase == "play" and not state.turn.main_done:
            digs = [
                a
                for a in legal_actions(state, seat, "dig")
                if isinstance(a, Dig) and a.pedestal is not None
            ]
            action = digs[0] if digs else action
        await bot.service.act(game_id, user_of[seat], str(action))
    raise AssertionError("nobody placed a pedestal")


async def test_a_shared_pyramid_keeps_pedestal_tokens_face_down(tmp_path: Path) -> None:
    async with running_bot(tmp_path / "db.sqlite3") as (env, bot):
        channel, alice, bob, _, _ = await _table(env)
        thread, game_id = await open_game(env, [alice, bob], channel)
        await set_up(bot, [alice, bob], thread, game_id)
        seat = await _play_until_a_pedestal_token(bot, game_id)
        info = await bot.service.info(game_id)
        owner = alice if info.seats[seat].user_id == alice.id else bob
        own_view = (await bot.service.view(game_id, owner.id)).state
        table_view = (await bot.service.view(game_id, None)).state
        account = own_view["players"][seat]["account"]
        assert all(t["value"] is not None for t in own_view["accounts"][account]["tokens"])
        assert all(t["value"] is None for t in table_view["accounts"][account]["tokens"])

        private = await owner.slash(thread, "mk pyramid")
        shared = await owner.slash(thread, "mk pyramid", share=True)
        mine = await _png(private.response)
        (post,) = shared.followups
        posted = await _png(post)
        names = {s.seat: s.name for s in info.seats if s.name}
        assert mine == pyramid_png(own_view, seat, names=names), "the owner sees their tokens"
        assert posted == pyramid_png(table_view, seat, names=names), "the table: face down"
        assert posted != mine
        assert not env.errors


async def test_scores_at_the_end_are_the_score_sheet(tmp_path: Path) -> None:
    async with running_bot(tmp_path / "db.sqlite3") as (env, bot):
        channel, alice, bob, _, _ = await _table(env)
        thread, game_id = await open_game(env, [alice, bob], channel)
        await set_up(bot, [alice, bob], thread, game_id)
        info = await bot.service.info(game_id)
        user_of = {s.seat: s.controller_id for s in info.seats}
        rng = random.Random(2)
        for _ in range(5000):
            state = (await bot.service.load(game_id)).state
            if state.phase == "over":
                break
            seat = seats_to_act(state)[0]
            await bot.service.act(game_id, user_of[seat], str(random_action(state, seat, rng)))
        result = await bob.slash(thread, "mk scores", share=True)
        (post,) = result.followups
        assert post.content == f"Game #{game_id} · the score sheet · at the end"
        assert [a.filename for a in post.attachments] == ["scores.png"]
        (sheet,) = post.attachments
        assert sheet.description is not None
        assert sheet.description.startswith("The score sheet: "), sheet.description
        assert "alice (Blue): " in sheet.description and "bob (Orange): " in sheet.description
        await _png(post)
        assert not env.errors
