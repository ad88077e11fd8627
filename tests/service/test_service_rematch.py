"""A finished game's rematch (made once, by the old table only, with the old game's
options and AI seats, started by itself once full) and a server's open lobbies."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import pytest
from service_helpers import START, STRANGER, USERS, FakeClock, open_service, started_game

from bot.service import GameStateError, NotAllowedError

GUILD = 77


async def test_a_rematch_is_made_once_with_the_options_and_starts_when_the_table_is_full(
    tmp_path: Path,
) -> None:
    async with open_service(tmp_path / "games.db", clock=FakeClock()) as service:
        old = await service.create_game(
            USERS[0],
            {"players": 3, "side": "autumn"},
            guild_id=GUILD,
            channel_id=5,
            reminder_interval=timedelta(hours=6),
            language="pl",
        )
        await service.seating.join(old.id, USERS[1], name="bob")
        await service.seating.add_ai(old.id, USERS[0])
        await service.start(old.id, USERS[0])
        # not over yet: refused, nothing made
        with pytest.raises(GameStateError):
            await service.rematches.make(old.id, USERS[1])
        assert await service.store.open_games(GUILD, limit=10) == []
        await service.store.set_status(old.id, "over", only_from=("active",), at=START)

        with pytest.raises(NotAllowedError, match="Only the players of game"):
            await service.rematches.make(old.id, STRANGER)
        # two presses at once, then one more: one rematch
        first, second = await asyncio.gather(
            service.rematches.make(old.id, USERS[1], name="bob"),
            service.rematches.make(old.id, USERS[0], name="alice"),
        )
        once_more = await service.rematches.make(old.id, USERS[0])
        assert first.info.id == second.info.id == once_more.info.id != old.id
        assert [first.made, second.made, once_more.made].count(True) == 1
        made = first if first.made else second
        # taken back (Discord refused its thread): the next press makes it anew
        assert await service.discard_new_game(made.info.id, made.info.creator_id)
        again = await service.rematches.make(old.id, made.info.creator_id)
        assert again.made  # (SQLite may give it the id the discarded game had)
        new = again.info
        assert new.status == "open"
        assert new.config == old.config
        assert (new.reminder_seconds, new.language, new.guild_id, new.channel_id) == (
            6 * 3600,
            "pl",
            GUILD,
            5,
        )
        assert new.thread_id is None
        # whoever pressed first created it and sits first; the AI seat is back
        assert new.creator_id == new.seats[0].user_id
        assert [s.ai for s in new.seats] == [False, True]
        assert again.invited == (USERS[0], USERS[1])
        assert await service.store.rematch_of(new.id) == old.id
        assert await service.store.rematch_of(old.id) is None

        # the last old player joins: the rematch starts by itself
        other = USERS[0] if made.info.creator_id == USERS[1] else USERS[1]
        info = await service.seating.join(new.id, other)
        assert info.status == "open"
        started = await service.rematches.started_when_full(info)
        assert started.status == "active"
        assert started.seed is not None


async def test_open_lobbies_lists_the_servers_games_with_free_seats(tmp_path: Path) -> None:
    async with open_service(tmp_path / "games.db") as service:
        assert await service.rematches.open_lobbies(GUILD) == []
        free = await service.create_game(USERS[0], {"players": 3}, guild_id=GUILD)
        full = await service.create_game(USERS[1], {"players": 2}, guild_id=GUILD)
        await service.seating.join(full.id, USERS[2])
        await service.create_game(USERS[3], {"players": 2}, guild_id=GUILD + 1)
        await started_game(service)  # running: not a lobby
        lobbies = await service.rematches.open_lobbies(GUILD)
        assert [(g.id, len(g.seats), g.seats_needed) for g in lobbies] == [(free.id, 1, 3)]
        # a game that is not a rematch is not started when full
        info = await service.info(full.id)
        assert (await service.rematches.started_when_full(info)).status == "open"
