"""Several bot processes on one database: two services, each with its own store (as two
processes have), do the same duties at the same time, and each is done once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from processes import dead_process_id
from service_checks import check_game
from service_helpers import USERS, Backend, FakeClock, Service, open_service, started_game

from bot.service import MOUNTAIN_KING
from bot.service.duties import duty
from rules.state import State

GAMES = 3
# AI actions each game gets before the test stops looking
ACTIONS = 40


@asynccontextmanager
async def two_processes(
    path: Path, clock: FakeClock | None = None
) -> AsyncIterator[tuple[Service, Service]]:
    """Two services on one database, each with its own store, as two processes have
    (sharing the test's clock, if given)."""
    async with open_service(path, clock=clock) as first, open_service(path, clock=clock) as second:
        yield first, second


async def all_ai_game(service: Service, creator: int) -> int:
    game = await service.create_game(creator, {"players": 2}, join=False)
    await service.seating.add_ai(game.id, creator)
    await service.seating.add_ai(game.id, creator)
    return (await service.start(game.id, creator)).id


async def play_duties(service: Service, games: list[int], played: list[int]) -> None:
    """What a scheduler does with owed moves, round after round, until each game has
    `ACTIONS` entries."""
    while True:
        logs = [len(await service.history.log(g)) for g in games]
        if min(logs) >= ACTIONS:
            return
        for game_id, seat in await service.owed_moves(limit=50):
            if len(await service.history.log(game_id)) >= ACTIONS:
                continue
            if await service.play_owed_move(game_id, seat) is not None:
                played.append(game_id)
        await asyncio.sleep(0)


async def test_two_processes_play_each_owed_ai_move_once_and_think_about_it_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "g.db"
    thoughts: list[tuple[int, int]] = []
    choose = MOUNTAIN_KING.choose_action

    def counted(state: State, seat: int, seed: int) -> Any:
        thoughts.append((seat, seed))
        return choose(state, seat, seed)

    monkeypatch.setattr(MOUNTAIN_KING, "choose_action", counted)
    async with two_processes(path) as (first, second):
        assert first.duties.owner != second.duties.owner
        games = [await all_ai_game(first, USERS[n]) for n in range(GAMES)]
        played: list[list[int]] = [[], []]
        await asyncio.gather(
            play_duties(first, games, played[0]), play_duties(second, games, played[1])
        )
        # both processes played; no position was thought about twice (each move was
        # claimed by one of them) and no thought was wasted on a move already made
        assert played[0] and played[1]
        entries = {g: await first.history.log(g) for g in games}
        assert sum(len(e) for e in entries.values()) == len(played[0]) + len(played[1])
        assert len(thoughts) == len(played[0]) + len(played[1])
        for game_id in games:
            # the log is the single-process trajectory: every entry is the AI's choice
            # at its position, each position played once (the check replays it)
            assert await check_game(first, game_id) == len(entries[game_id])
            assert [e.seq for e in entries[game_id]] == list(range(1, len(entries[game_id]) + 1))
        # nothing is left claimed
        assert await first.store.duty_claims(first.now()) == []


async def test_a_move_claimed_by_another_process_is_left_to_it_until_its_lease_runs_out(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    path = tmp_path / "g.db"
    async with two_processes(path, clock) as (mine, theirs):
        game_id = await all_ai_game(mine, USERS[0])
        held = await theirs.duties.claim(duty("move", game_id))
        assert held is not None
        assert await mine.owed_moves() != []
        assert await mine.play_owed_move(game_id, 0) is None
        assert await mine.play_owed_move(game_id, 1) is None
        assert len(await mine.history.log(game_id)) == 0
        # the other process died without a word (on another machine: only its lease
        # tells); once the lease ran out, this one plays
        clock.advance(mine.duties.lease)
        played = [p for s in (0, 1) if (p := await mine.play_owed_move(game_id, s))]
        assert played
        assert len(await mine.history.log(game_id)) == len(played)
        # the overtaken process, late, finds nothing of its own to give up
        assert not await theirs.store.release_duty(held)


@pytest.mark.sqlite_only
async def test_claims_of_a_dead_process_of_this_machine_are_released_at_once(
    tmp_path: Path, backend: Backend
) -> None:
    async with open_service(tmp_path / "g.db") as service:
        dead = dead_process_id()
        elsewhere = "other-host:1:ab12cd34"
        now = service.now()
        for n, owner in enumerate((dead, elsewhere, service.duties.owner)):
            until = now + timedelta(hours=1)
            assert await service.store.claim_duty(f"deliver:{n}", owner, now=now, until=until)
        assert not service.duties.may_be_running(dead)
        assert service.duties.may_be_running(elsewhere)
        assert service.duties.may_be_running(service.duties.owner)
        assert await service.duties.reap() == 1
        left = {c.owner for c in await service.store.duty_claims(service.now())}
        assert left == {elsewhere, service.duties.owner}


async def test_a_reminder_both_processes_list_is_sent_by_the_one_that_claims_it(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    path = tmp_path / "g.db"
    async with two_processes(path, clock) as (a, b):
        await started_game(a)
        clock.advance(timedelta(days=2))
        [due] = await a.notifications.due_reminders()
        assert await b.notifications.due_reminders() == [due]
        key = duty("remind", due.game_id, due.seat)
        sent = []
        # the scheduler's steps, in each process: claim, look again, send, count
        async with a.duties.holding(key) as claim_a:
            assert claim_a is not None
            async with b.duties.holding(key) as claim_b:
                assert claim_b is None  # a holds it
            assert await a.notifications.still_due(due)
            sent.append("a")
            assert await a.notifications.reminder_sent(due.game_id, due.seat, claim=claim_a)
        async with b.duties.holding(key) as claim_b:
            assert claim_b is not None  # free again, but
            assert not await b.notifications.still_due(due)  # a sent it already
        assert sent == ["a"]
        [row] = [r for r in await b.store.reminders(due.game_id) if r.seat == due.seat]
        assert row.missed == 1 and row.next_at > clock.now
        # the same reminder has the same nonce wherever it is sent from (Discord keeps
        # the first of two sends within minutes); the next one has another
        again = await b.notifications.due_reminders(now=row.next_at)
        assert again[0].nonce != due.nonce and len(due.nonce) <= 25
        assert due.nonce == replace(due, label="other").nonce
