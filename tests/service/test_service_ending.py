"""The game-over post's summary (bot/mountain_king/ending.py) read from what the service
gives at the end, checked against the rules replaying the same game alone."""

from __future__ import annotations

import math
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest
from service_helpers import FakeClock, open_service, play_moves, record_for, started_game

from bot.mountain_king.ending import summary_text
from rules.actions import EndTurn, MoveStatue
from rules.game import Game
from rules.scoring import current_scores


def counted(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


@pytest.mark.sqlite_only  # the face's reading of the log and views: no store of its own
async def test_the_summary_tells_the_turns_days_best_turn_and_statues_of_the_log(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    async with open_service(tmp_path / "games.db", clock=clock) as service:
        info = await started_game(service)
        record = record_for(info)
        # the rules alone, move by move: the honor each turn of play earned (the most
        # any account gained between the end of the turn before and its own end)
        game = Game(record.config, record.seed)
        gains: list[tuple[int, int]] = []  # (gain, seat) per turn of play
        since: list[int] | None = None
        for move in record.moves:
            game.play(move.seat, move.action)
            if since is None and game.state.phase == "play":
                since = current_scores(game.state)
            if isinstance(move.action, EndTurn):
                assert since is not None
                now = current_scores(game.state)
                gains.append((max(b - a for a, b in zip(since, now, strict=True)), move.seat))
                since = now
            await play_moves(service, info, [move])
            clock.advance(timedelta(hours=2))
        carted = Counter(m.seat for m in record.moves if isinstance(m.action, MoveStatue))
        best = max(gains, key=lambda g: g[0])
        turn = gains.index(best) + 1

        entries = await service.history.log(info.id)
        frames = [view for view, _ in await service.history.turn_views(info.id)]
        outcome = (await service.view(info.id, None)).outcome
        assert outcome is not None
        done = await service.info(info.id)
        lines = summary_text(entries, frames, outcome, done.seats).splitlines()
        days = math.ceil((entries[-1].at - entries[0].at) / timedelta(days=1))
        assert days > 1
        statues = counted(sum(carted.values()), "statue carted", "statues carted")
        assert lines[0] == f"📜 {len(gains)} turns over {days} days, {statues}."
        colour = done.seats[best[1]].label.capitalize()
        assert lines[1] == f"Best turn: {colour} in turn {turn}, +{best[0]} honor."
        totals = {s: b["total"] for b in outcome["breakdown"] for s in b["seats"]}
        by_total = sorted(totals, key=lambda s: -totals[s])
        assert lines[2:] == [
            f"· {done.seats[s].label.capitalize()}: {totals[s]} honor,"
            f" {counted(carted[s], 'statue carted', 'statues carted')}"
            for s in by_total
        ]
