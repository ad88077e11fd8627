"""Both games on one service (the table's shelf, `bot/service/games.py`): a finished
Cave Troll game is rated on its server's board with the Mountain King's games, its
players' cards count it, and a player's games list both."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from ct_service_helpers import play_by_ai
from service_helpers import USERS, FakeClock, current_backend

from bot.service import GameService
from bot.service.games import TABLE_GAMES

GUILD = 77


async def test_a_finished_cave_troll_game_is_rated_and_listed_beside_the_mountain_kings(
    tmp_path: Path,
) -> None:
    async with current_backend().store_at(tmp_path / "games.db") as store:
        service: GameService[Any, Any] = GameService(
            store, TABLE_GAMES, rng=random.Random(1), clock=FakeClock()
        )
        cave = await service.create_game(USERS[0], {"players": 2}, game="cave-troll")
        await service.seating.join(cave.id, USERS[1])
        await service.start(cave.id, USERS[0])
        cave = await service.set_place(cave.id, guild_id=GUILD, channel_id=1, thread_id=11)
        mountain = await service.create_game(USERS[0], {"players": 2}, guild_id=GUILD)
        assert (cave.rules, mountain.rules) == ("cave-troll", "mountain-king")

        state = await play_by_ai(service, cave, lambda s: s.phase == "over")
        outcome = service.games.of("cave-troll").outcome(state)
        assert outcome is not None
        winners = {cave.seats[s].user_id for s in outcome["winning_seats"]}

        assert await service.community.rate_finished() == 1
        board = await service.community.leaderboard(GUILD, USERS[0], least_games=1)
        assert {s.user_id for s in board.top} == {USERS[0], USERS[1]}
        for user in (USERS[0], USERS[1]):
            card = await service.community.stats(GUILD, user, user)
            assert (card.finished, card.rated_games) == (1, 1)
            assert card.wins == (1 if user in winners else 0)

        # the creator's games: both, each with its own rules
        listed = await service.your_games.listing(USERS[0], guild_id=GUILD)
        assert {g.game.rules for g in listed} == {"cave-troll", "mountain-king"}
