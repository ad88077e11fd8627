"""The community part of the service (`service.community`): OpenSkill ratings per
server checked against the `openskill` package computed by hand here, the leaderboard
with its threshold and opt-out, a player's pace from the log's timestamps, and the
one-sentence refusals (an empty server, a player who never played here)."""

from __future__ import annotations

import statistics
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce
from service_helpers import (
    USERS,
    FakeClock,
    Service,
    open_service,
    record_for,
    started_game,
    user_of,
)

from bot.service import GameInfo
from bot.service.community import StatsError
from bot.store import NotificationPrefs, SnapshotRecord
from rules.scoring import final_outcome

GUILD = 77
A, B, C, D, E = USERS


async def game_here(service: Service, users: tuple[int, ...], **options: Any) -> GameInfo:
    """A started game on the server `GUILD` with these users seated in order."""
    info = await started_game(service, users, players=len(users), **options)
    return await service.set_place(info.id, guild_id=GUILD, channel_id=1, thread_id=None)


async def finish(service: Service, info: GameInfo) -> dict[str, Any]:
    """Finish the game: the position before the last move of the random record with
    its options and seed is stored as its snapshot (a game played to its last move),
    and that move is played through the service. Returns the outcome (by the rules)."""
    record = record_for(info)
    rules = service.rules
    state = rules.new_state(rules.make_config(info.config), info.seed or 0)
    for move in record.moves[:-1]:
        rules.replay(state, move.seat, move.action)
    assert await service.store.put_snapshot(SnapshotRecord(info.id, 0, rules.state_to_json(state)))
    last = record.moves[-1]
    if info.seats[last.seat].machine_played:
        result = await service.act_for_autopilot(info.id, last.seat, last.action)
    else:
        result = await service.act(info.id, user_of(info, last.seat), last.action)
    assert result.game_over
    return final_outcome(record.state).to_json()


def by_hand(
    model: PlackettLuce, ratings: dict[int, Any], outcome: dict[str, Any], users: dict[int, int]
) -> None:
    """Rate one game into `ratings` the way the docs say: each scoring line a team of
    its people (seat -> user in `users`; AI seats absent), winners first, then by
    total."""
    lines = [
        (
            [users[s] for s in line["seats"] if s in users],
            set(line["seats"]) <= set(outcome["winning_seats"]),
            line["total"],
        )
        for line in outcome["breakdown"]
    ]
    lines = [line for line in lines if line[0]]
    keys = [(won, total) for _, won, total in lines]
    ranks = [1 + sum(k > key for k in keys) for key in keys]
    teams = [[ratings.setdefault(u, model.rating()) for u in people] for people, _, _ in lines]
    for (people, _, _), new in zip(lines, model.rate(teams, ranks=ranks), strict=True):
        for user, rating in zip(people, new, strict=True):
            ratings[user] = rating


async def test_five_games_rate_the_board_as_openskill_does_and_opting_out_hides(
    tmp_path: Path,
) -> None:
    model = PlackettLuce()
    expected: dict[int, Any] = {}
    games = {u: 0 for u in USERS}
    wins = {u: 0 for u in USERS}
    async with open_service(tmp_path / "games.db") as service:
        community = service.community
        with pytest.raises(StatsError, match="Nobody has finished a rated game"):
            await community.leaderboard(GUILD, A)
        plays: list[tuple[GameInfo, dict[int, int]]] = []
        for users, options in (
            ((A, B), {}),
            ((B, C, A), {}),
            ((A, B, C, D), {"teams": True}),
            ((C, D), {}),
        ):
            info = await game_here(service, users, **options)
            plays.append((info, {s.seat: u for s, u in zip(info.seats, users, strict=True)}))
        # a game with an AI seat: the AI is left out of the ratings
        lobby = await service.create_game(D, {"players": 3})
        await service.seating.join(lobby.id, E)
        await service.seating.add_ai(lobby.id, D)
        ai_game = await service.start(lobby.id, D)
        ai_game = await service.set_place(ai_game.id, guild_id=GUILD, channel_id=1, thread_id=None)
        plays.append((ai_game, {0: D, 1: E}))
        # one abandoned game: never rated
        dropped = await game_here(service, (A, E))
        await service.abandon(dropped.id, A)

        for info, users in plays:
            outcome = await finish(service, info)
            by_hand(model, expected, outcome, users)
            for seat, user in users.items():
                games[user] += 1
                wins[user] += seat in outcome["winning_seats"]
        # a game marked over without a result (as a damaged one reads): looked at, not
        # rated, and it holds up none of the others
        odd = await game_here(service, (C, E))
        assert await service.store.set_status(
            odd.id, "over", only_from=("active",), at=service.now()
        )
        assert await community.rate_finished() == len(plays) + 1
        assert await community.rate_finished() == 0  # each game is rated once

        board = await community.leaderboard(GUILD, A, least_games=1)
        order = sorted(expected, key=lambda u: (-expected[u].ordinal(), u))
        assert [s.user_id for s in board.top] == order
        for place, standing in enumerate(board.top, start=1):
            want = expected[standing.user_id]
            assert standing.place == place
            assert standing.mu == pytest.approx(want.mu)
            assert standing.sigma == pytest.approx(want.sigma)
            assert standing.ordinal == pytest.approx(want.ordinal())
            assert (standing.games, standing.wins) == (
                games[standing.user_id],
                wins[standing.user_id],
            )
        assert board.yours is not None and board.yours.place == order.index(A) + 1
        assert games[A] == 3  # the abandoned game is not counted

        # the threshold: only players with three rated games are ranked
        three = await community.leaderboard(GUILD, E)
        assert [s.user_id for s in three.top] == [u for u in order if games[u] >= 3]
        assert three.yours is None and three.your_games == 1

        # opting out hides B from the board and from the cards others ask for
        await community.set_hidden(B, True)
        hidden = await community.leaderboard(GUILD, A, least_games=1)
        assert [s.user_id for s in hidden.top] == [u for u in order if u != B]
        with pytest.raises(StatsError, match="keeps their stats to themselves"):
            await community.stats(GUILD, B, A)
        own = await community.stats(GUILD, B, B)
        assert own.hidden and own.rating is not None and own.rating.place == 0
        assert (await community.leaderboard(GUILD, B, least_games=1)).yours is None
        await community.set_hidden(B, False)
        assert [
            s.user_id for s in (await community.leaderboard(GUILD, A, least_games=1)).top
        ] == order

        card = await community.stats(GUILD, A, C)
        assert (card.finished, card.abandoned, card.rated_games) == (3, 1, 3)
        assert card.rating is not None and card.rating.ordinal == pytest.approx(
            expected[A].ordinal()
        )
        with pytest.raises(StatsError, match="has not played a game on this server"):
            await community.stats(GUILD, 4242, A)
        with pytest.raises(StatsError, match="You have not played a game on this server"):
            await community.stats(GUILD + 1, A, A)
        with pytest.raises(StatsError, match="Nobody has finished a rated game"):
            await community.leaderboard(GUILD + 1, A)


async def test_the_pace_is_read_from_the_logs_timestamps(tmp_path: Path) -> None:
    """A turn is the player's from the entry that ended the turn before it until their
    entry that ends it: the median of A's, their turn count and the hours they acted
    at (in their time zone) come out of the log."""
    clock = FakeClock()
    async with open_service(tmp_path / "games.db", clock=clock) as service:
        info = await game_here(service, (A, B))
        await service.notifications.set_prefs(NotificationPrefs(A, timezone="Asia/Tokyo"))
        waits = [timedelta(minutes=m) for m in (50, 130, 310, 20, 545, 75, 400, 5)]
        mine: list[float] = []
        hours: list[int] = []
        turns = 0
        turn_began = None
        for n, move in enumerate(record_for(info).moves[:40]):
            clock.advance(waits[n % len(waits)])
            user = user_of(info, move.seat)
            result = await service.act(info.id, user, move.action)
            at = clock.now
            if user == A:
                hours.append((at + timedelta(hours=9)).hour)
            if result.turn_ended:
                if user == A:
                    turns += 1
                    if turn_began is not None:
                        mine.append((at - turn_began).total_seconds())
                turn_began = at
        stats = await service.community.stats(GUILD, A, A)
        pace = stats.pace
        assert pace.turns == turns and len(mine) >= 3
        assert pace.median is not None
        assert pace.median.total_seconds() == pytest.approx(statistics.median(mine), abs=1)
        assert sum(pace.hours) == len(hours)
        assert all(pace.hours[h] == hours.count(h) for h in set(hours))
        assert pace.timezone == "Asia/Tokyo"
        assert (stats.finished, stats.playing, stats.rating) == (0, 1, None)
