"""Creating, joining, leaving, starting, undoing, viewing and ending games."""

from __future__ import annotations

from pathlib import Path

import pytest
from service_checks import check_game, games_of_user
from service_helpers import (
    STRANGER,
    USERS,
    FakeClock,
    open_service,
    play_moves,
    raw,
    record_for,
    started_game,
    user_of,
)

from bot.service import (
    UNDO,
    CannotUndoError,
    GameNotFoundError,
    GameStateError,
    NotAllowedError,
    SeatingError,
)
from bot.service.service import SEED_LIMIT
from rules.actions import Dig, EndTurn
from rules.errors import ConfigError

A, B, C, D = USERS[:4]


async def test_players_join_in_order_and_get_colours_in_join_order(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db") as service:
        game = await service.create_game(A, {"players": 3}, channel_id=5)
        assert game.status == "open" and [s.user_id for s in game.seats] == [A]
        await service.seating.join(game.id, C)
        await service.seating.join(game.id, B)
        started = await service.start(game.id, A)
        assert [s.user_id for s in started.seats] == [A, C, B]
        assert [s.label for s in started.seats] == ["blue", "orange", "green"]
        assert started.status == "active" and started.channel_id == 5


async def test_the_seed_is_drawn_at_start_from_the_injected_generator(tmp_path: Path) -> None:
    import random

    async with open_service(tmp_path / "g.db", rng_seed=123) as service:
        game = await service.create_game(A, {"players": 2})
        assert game.seed is None
        await service.seating.join(game.id, B)
        started = await service.start(game.id, A)
    assert started.seed == random.Random(123).randrange(SEED_LIMIT)
    async with open_service(tmp_path / "g.db") as service:
        assert (await service.info(game.id)).seed == started.seed


async def test_without_a_generator_seeds_come_from_secrets(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db", rng_seed=None) as service:
        seeds = {(await started_game(service)).seed for _ in range(3)}
    assert len(seeds) == 3 and all(s is not None and 0 <= s < SEED_LIMIT for s in seeds)


async def test_bad_options_are_refused_with_the_rules_sentence(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db") as service:
        with pytest.raises(ConfigError, match="team mode needs exactly 4 players"):
            await service.create_game(A, {"players": 3, "teams": True})
        with pytest.raises(GameNotFoundError, match="no game #1"):
            await service.info(1)


async def test_joining_is_refused_when_seated_full_or_started(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db") as service:
        game = await service.create_game(A, {"players": 2})
        with pytest.raises(SeatingError, match="already in this game"):
            await service.seating.join(game.id, A)
        await service.seating.join(game.id, B)
        with pytest.raises(SeatingError, match="full"):
            await service.seating.join(game.id, C)
        await service.start(game.id, A)
        with pytest.raises(GameStateError, match="already started"):
            await service.seating.join(game.id, C)


async def test_only_the_creator_starts_and_only_a_full_table(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db") as service:
        game = await service.create_game(A, {"players": 3})
        await service.seating.join(game.id, B)
        with pytest.raises(NotAllowedError, match="creator"):
            await service.start(game.id, B)
        with pytest.raises(SeatingError, match="needs 3 players and only 2 have joined"):
            await service.start(game.id, A)
        await service.seating.join(game.id, C)
        with pytest.raises(NotAllowedError):
            await service.start(game.id, C)
        assert (await service.info(game.id)).status == "open"
        await service.start(game.id, A)
        with pytest.raises(GameStateError):
            await service.start(game.id, A)


async def test_leaving_before_the_start_frees_the_seat(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db") as service:
        game = await service.create_game(A, {"players": 3})
        await service.seating.join(game.id, B)
        await service.seating.join(game.id, C)
        after = await service.seating.leave(game.id, B)
        assert [(s.seat, s.user_id) for s in after.seats] == [(0, A), (1, C)]
        await service.seating.join(game.id, D)
        started = await service.start(game.id, A)
        with pytest.raises(GameStateError, match="substitute"):
            await service.seating.leave(started.id, C)


@pytest.mark.sqlite_only
async def test_undo_takes_back_your_own_action_and_the_log_keeps_it(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db") as service:
        info = await started_game(service, players=2)
        record = record_for(info)
        # the first dig of the play phase: digging reveals nothing, so it can be undone
        i = next(k for k, m in enumerate(record.moves) if isinstance(m.action, Dig))
        await play_moves(service, info, record.moves[:i])
        before = await service.load(info.id)
        assert before.state is not None
        digger = user_of(info, record.moves[i].seat)
        other = user_of(info, 1 - record.moves[i].seat)
        with pytest.raises(CannotUndoError):
            await service.undo(info.id, digger)  # nothing of this turn to take back yet
        dug = await service.act(info.id, digger, record.moves[i].action)
        with pytest.raises(CannotUndoError):
            await service.undo(info.id, other)
        result = await service.undo(info.id, digger)
        assert (result.notation, result.undone) == (UNDO, str(record.moves[i].action))
        assert result.seq == dug.seq + 1 and not result.turn_ended
        after = await service.load(info.id)
        assert after.seq == dug.seq + 1
        assert after.state is not None
        assert after.state.to_json() == before.state.to_json()
        assert [e.seq for e in await service.history.log(info.id)] == list(range(1, i + 1))
        assert await check_game(service, info.id) == dug.seq + 1
        # without the snapshot the whole log (with its undo entry) replays the same
        raw(tmp_path / "g.db").execute("DELETE FROM snapshots")
        rebuilt = await service.load(info.id)
        assert rebuilt.state is not None
        assert rebuilt.state.to_json() == before.state.to_json()
        await play_moves(service, info, record.moves[i:])
        final = await service.load(info.id)
        assert final.state is not None
        assert final.state.to_json() == record.state.to_json()
        assert [str(e) for e in await service.history.log(info.id)] == record.record()["actions"]


async def test_views_hide_what_the_viewer_may_not_see(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db") as service:
        info = await started_game(service, players=2)
        mine = await service.view(info.id, A)
        spectator = await service.view(info.id, STRANGER)
        assert mine.viewer_seat == 0 and spectator.viewer_seat is None
        assert mine.state is not None and spectator.state is not None
        assert isinstance(mine.state["players"][0]["draft_hand"], list)
        assert spectator.state["players"][0]["draft_hand"] == 2  # only the count
        assert isinstance(mine.state["players"][1]["draft_hand"], int)
        assert mine.game.seats[1].user_id == B and mine.outcome is None and mine.seq == 0
        opened = await service.create_game(C, {"players": 2})
        assert (await service.view(opened.id, C)).state is None


async def test_changes_since_my_last_turn_are_the_others_actions(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db") as service:
        info = await started_game(service, players=3)
        record = record_for(info)
        ends = [i for i, m in enumerate(record.moves) if isinstance(m.action, EndTurn)]
        # stop right after seat 0's second turn ends, then after the next two turns
        seat0_ends = [i for i in ends if record.moves[i].seat == 0]
        stop = seat0_ends[1] + 1
        await play_moves(service, info, record.moves[:stop])
        assert await service.history.changes_since_last_turn(info.id, A) == []
        nxt = seat0_ends[2]
        turn_start = max(i for i in ends if i < nxt) + 1
        await play_moves(service, info, record.moves[stop : turn_start + 1])
        # seat 0 is playing its turn: its own first action does not count as a turn
        changes = await service.history.changes_since_last_turn(info.id, A)
        expected = [str(m.action) for m in record.moves[stop:turn_start]]
        assert [e.notation for e in changes] == expected
        assert {e.seat for e in changes} == {1, 2}
        with pytest.raises(Exception, match="not playing"):
            await service.history.changes_since_last_turn(info.id, STRANGER)


async def test_abandon_needs_the_creator_or_an_admin(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db") as service:
        info = await started_game(service)
        with pytest.raises(NotAllowedError):
            await service.abandon(info.id, B)
        done = await service.abandon(info.id, B, admin=True)
        assert done.status == "abandoned"
        assert (await service.history.turn_status(info.id)).waiting == ()
        with pytest.raises(GameStateError, match="abandoned"):
            await service.act(info.id, A, "keep x A1")
        with pytest.raises(GameStateError, match="already over"):
            await service.abandon(info.id, A)


async def test_a_game_abandoned_before_its_start_can_still_be_looked_at(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db") as service:
        game = await service.create_game(A, {"players": 2})
        await service.abandon(game.id, A)
        view = await service.view(game.id, A)
        assert view.game.status == "abandoned" and view.state is None
        assert await service.history.log(game.id) == []
        with pytest.raises(GameStateError, match="abandoned"):
            await service.seating.join(game.id, B)


async def test_games_are_found_by_thread_and_player(tmp_path: Path) -> None:
    clock = FakeClock()
    async with open_service(tmp_path / "g.db", clock=clock) as service:
        info = await started_game(service)
        await service.set_place(info.id, guild_id=1, channel_id=2, thread_id=3)
        found = await service.game_in_thread(3)
        assert found is not None and found.id == info.id
        assert [g.id for g in await games_of_user(service, B)] == [info.id]
        assert await games_of_user(service, B, finished=True) == []


async def test_a_game_opened_without_a_thread_is_taken_back_whole(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db") as service:
        game = await service.create_game(A, {"players": 2}, channel_id=5)
        with pytest.raises(NotAllowedError):
            await service.discard_new_game(game.id, B)
        assert await service.discard_new_game(game.id, A)
        with pytest.raises(GameNotFoundError):
            await service.info(game.id)
        assert await games_of_user(service, A) == []
        # a game that has started is never deleted this way
        started = await started_game(service)
        assert not await service.discard_new_game(started.id, started.creator_id)
        assert (await service.info(started.id)).status == "active"
