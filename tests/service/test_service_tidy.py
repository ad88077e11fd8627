"""Tidy servers (`service.tidy`): an idle game is warned once, ended as abandoned 7
days later with its record (a move in between resets it), a lobby never started closes
at 14 days, and a server sets its own idle days."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest
from service_helpers import USERS, FakeClock, open_service, play_moves, record_for, started_game

from bot.service import ServiceError
from bot.service.owed import SeatNews, read_payload
from bot.store import heads_up, sql, tidy
from bot.store.migrations import MIGRATIONS

DAY = timedelta(days=1)
MINUTE = timedelta(minutes=1)
GUILD = 77


async def news(service, game_id: int) -> list[str]:  # type: ignore[no-untyped-def]
    """The changes the game's owed seat news tell, in order."""
    rows = await service.store._rows(
        "SELECT payload FROM outbox WHERE game_id = $1 ORDER BY id", game_id
    )
    told = [read_payload(r["payload"]) for r in rows]
    return [n.change for n in told if isinstance(n, SeatNews)]


async def test_an_idle_game_is_warned_once_then_ended_and_a_move_resets_it(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    async with open_service(tmp_path / "g.db", clock=clock) as service:
        info = await started_game(service)
        clock.advance(29 * DAY)
        assert await service.tidy.run_due() == set()
        clock.advance(DAY + MINUTE)
        assert await service.tidy.run_due() == {info.id}
        assert await service.tidy.run_due() == set()  # warned once
        assert await news(service, info.id) == ["idle"]
        # a move three days later resets it: the warning's 7 days pass, nothing ends
        clock.advance(3 * DAY)
        await play_moves(service, info, record_for(info).moves[:1])
        clock.advance(5 * DAY)
        assert await service.tidy.run_due() == set()
        assert (await service.info(info.id)).status == "active"
        # idle again: warned anew, and 7 days later ended as abandoned
        clock.advance(30 * DAY)
        assert await service.tidy.run_due() == {info.id}
        clock.advance(7 * DAY - 2 * MINUTE)
        assert await service.tidy.run_due() == set()
        clock.advance(2 * MINUTE)
        assert await service.tidy.run_due() == {info.id}
        assert (await service.info(info.id)).status == "abandoned"
        assert await news(service, info.id) == ["idle", "idle", "idle-ended"]
        assert await service.store.reminders(info.id) == []
        assert await service.tidy.run_due() == set()
        # its record (the moves so far) is given; an abandoned game is not rated
        record = await service.history.record(info.id)
        assert len(record["actions"]) == 1
        await service.community.rate_finished()
        assert await service.store._rows("SELECT * FROM rated_games") == []


async def test_a_stale_lobby_closes_at_14_days_and_a_server_sets_its_idle_days(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    async with open_service(tmp_path / "g.db", clock=clock) as service:
        lobby = await service.create_game(USERS[0], {"players": 2}, guild_id=GUILD, channel_id=5)
        with pytest.raises(ServiceError, match="Idle days go from 7 to 365"):
            await service.tidy.set_idle_days(GUILD, 3)
        assert await service.tidy.set_idle_days(GUILD, 10) == 10
        assert (await service.tidy.idle_days(GUILD), await service.tidy.idle_days(5)) == (10, 30)
        game = await service.create_game(USERS[0], {"players": 2}, guild_id=GUILD, channel_id=5)
        await service.seating.join(game.id, USERS[1])
        await service.start(game.id, USERS[0])
        clock.advance(10 * DAY + MINUTE)
        assert await service.tidy.run_due() == {game.id}  # the server's 10 days
        clock.advance(3 * DAY)
        assert await service.tidy.run_due() == set()
        assert (await service.info(lobby.id)).status == "open"
        clock.advance(DAY)
        assert await service.tidy.run_due() == {lobby.id}
        assert (await service.info(lobby.id)).status == "abandoned"
        assert await news(service, lobby.id) == ["lobby-closed"]
        assert await service.tidy.run_due() == set()


@pytest.mark.sqlite_only
def test_the_sweeps_read_through_their_indexes() -> None:
    """A round with nothing due reads little: the idle games and the stale lobbies from
    their partial indexes, the heads-up's turns from the players who opted in."""
    db = sqlite3.connect(":memory:")
    for migration in MIGRATIONS:
        for statement in migration.statements:
            if "mk_" not in statement and "chain_fill" not in statement:
                db.execute(statement)  # (as test_store_away_clock builds it)
    plans = {}
    for name, statement, params in (
        ("idle", tidy.IDLE_DUE, (1.0, 2.0, 10, 3.0, 30)),
        ("lobbies", tidy.STALE_LOBBIES, (1.0, 10)),
        ("heads-up", heads_up.DUE, (10,)),
    ):
        plan = db.execute("EXPLAIN QUERY PLAN " + sql.for_sqlite(statement), params)
        plans[name] = [r[3] for r in plan]
    assert plans["idle"][0].startswith("SEARCH g USING INDEX games_idle")
    assert plans["lobbies"][0].startswith("SEARCH games USING INDEX games_lobby_age")
    assert not any(step.startswith("SCAN") for step in plans["heads-up"])
