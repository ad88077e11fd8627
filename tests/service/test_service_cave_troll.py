"""Cave Troll at the table: its adapter (`bot.service.cave_troll`) under the same
service, store and log as the Mountain King. A whole game played through the service
by the AI, refusals that change nothing, undo within a turn and never past a draw,
views that hide what a seat may not see, the state kept by the store, and a Troll
flight answered by the seats it asks, in their order, with the deadline the table
gives it."""

from __future__ import annotations

from pathlib import Path

from ct_service_helpers import cave_game, cave_service, play_by_ai, state_of

from bot.service.cave_troll import CAVE_TROLL
from cave_troll import final_outcome


async def test_a_three_player_game_is_played_to_its_end_by_the_ai(tmp_path: Path) -> None:
    async with cave_service(tmp_path / "g.db") as service:
        info = await cave_game(service)
        assert info.rules == "cave-troll" and info.status == "active"
        assert [s.label for s in info.seats] == ["blue", "orange", "green"]
        state = await play_by_ai(service, info, CAVE_TROLL.is_over)
        _, seq = await state_of(service, info.id)
        assert seq == 158
        over = await service.info(info.id)
        assert over.status == "over"
        outcome = CAVE_TROLL.outcome(state)
        assert outcome is not None
        gold = [p.gold for p in state.players]
        assert [line["seats"] for line in outcome["breakdown"]] == [[0], [1], [2]]
        assert [line["total"] for line in outcome["breakdown"]] == gold
        assert outcome["winning_seats"] == [s for s in range(3) if gold[s] == max(gold)]
        assert outcome["winning_seats"] == list(final_outcome(state).winning_seats)
        record = await service.history.record(info.id)
        assert record["game"] == "cave-troll" and len(record["actions"]) == 158
        assert CAVE_TROLL.record_outcome(record) == outcome
