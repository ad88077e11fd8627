"""A retried Discord interaction is answered with the earlier result and applied once,
whether the retry reaches the same bot process or another one."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from service_checks import check_game
from service_helpers import open_service, play_moves, raw, record_for, started_game, user_of

from bot.service import CorruptGameError


async def test_a_retried_interaction_returns_the_stored_result_and_is_applied_once(
    tmp_path: Path,
) -> None:
    async with open_service(tmp_path / "g.db") as service:
        info = await started_game(service, players=2)
        move = record_for(info).moves[0]
        user = user_of(info, move.seat)
        first = await service.act(info.id, user, move.action, interaction_id=111)
        again = await service.act(info.id, user, move.action, interaction_id=111)
        assert not first.repeated and again.repeated
        assert again.to_json() == first.to_json()
        assert [e.seq for e in await service.history.log(info.id)] == [1]


async def test_a_retry_after_the_game_moved_on_still_gets_its_answer(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db") as service:
        info = await started_game(service, players=2)
        moves = record_for(info).moves
        first = await service.act(
            info.id, user_of(info, moves[0].seat), moves[0].action, interaction_id=1
        )
        await play_moves(service, info, moves[1:5])
        # even a different (now stale) action under the same id changes nothing
        again = await service.act(info.id, user_of(info, moves[0].seat), "end", interaction_id=1)
        assert again.repeated and again.seq == first.seq == 1
        assert (await service.load(info.id)).seq == 5


async def test_a_retry_whose_action_is_legal_now_is_answered_not_played(tmp_path: Path) -> None:
    """The stored answer is looked up when the game refuses an action, and when the
    interaction's key refuses its entry: a retry that the game would accept (here the
    next legal action under the same interaction id) is still not played."""
    async with open_service(tmp_path / "g.db") as service:
        info = await started_game(service, players=2)
        moves = record_for(info).moves
        first = await service.act(
            info.id, user_of(info, moves[0].seat), moves[0].action, interaction_id=5
        )
        again = await service.act(
            info.id, user_of(info, moves[1].seat), moves[1].action, interaction_id=5
        )
        assert again.repeated and again.to_json() == first.to_json()
        assert (await service.load(info.id)).seq == 1
        await play_moves(service, info, moves[1:3])  # the game goes on from there
        assert (await service.load(info.id)).seq == 3


async def test_concurrent_retries_in_one_process_apply_once(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db") as service:
        info = await started_game(service, players=2)
        move = record_for(info).moves[0]
        user = user_of(info, move.seat)
        results = await asyncio.gather(
            *(service.act(info.id, user, move.action, interaction_id=42) for _ in range(10))
        )
        assert sum(not r.repeated for r in results) == 1
        assert {r.seq for r in results} == {1}
        assert (await service.load(info.id)).seq == 1


async def test_retries_reaching_two_processes_apply_once(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as one, open_service(path) as two:
        info = await started_game(one, players=2)
        moves = record_for(info).moves
        for i, move in enumerate(moves[:20]):
            user = user_of(info, move.seat)
            results = await asyncio.gather(
                one.act(info.id, user, move.action, interaction_id=1000 + i),
                two.act(info.id, user, move.action, interaction_id=1000 + i),
                return_exceptions=True,
            )
            # one process applies it; the other answers with the stored result
            applied = [r for r in results if not isinstance(r, BaseException) and not r.repeated]
            assert len(applied) == 1
            for r in results:
                assert not isinstance(r, BaseException), r
                assert r.seq == i + 1 and r.to_json() == applied[0].to_json()
        assert [e.seq for e in await one.history.log(info.id)] == list(range(1, 21))
        assert await check_game(two, info.id) == 20


@pytest.mark.sqlite_only
async def test_a_damaged_stored_result_is_reported_with_the_game_id(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        info = await started_game(service, players=2)
        move = record_for(info).moves[0]
        await service.act(info.id, user_of(info, move.seat), move.action, interaction_id=9)
        raw(path).execute("UPDATE interactions SET result = 'garbage'")
        with pytest.raises(CorruptGameError) as caught:
            await service.act(info.id, user_of(info, move.seat), move.action, interaction_id=9)
        assert caught.value.game_id == info.id
