"""The table's vote about an absent player, as rows: one ballot per voter, at most one
open vote per game and none twice about the same turn, decided by the rule in
`bot.service.votes`."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import pytest
from service_helpers import (
    START,
    STRANGER,
    USERS,
    FakeClock,
    open_service,
    play_moves,
    record_for,
    started_game,
)

from bot.service import NotAllowedError, ServiceError
from bot.service.votes import decide, decide_at_deadline
from bot.store import BallotRecord

A, B, C = USERS[:3]
DAY = timedelta(days=1)


async def absent_seat(service, clock, players: int = 3):  # type: ignore[no-untyped-def]
    """A game in its first play turn whose player missed three reminders."""
    info = await started_game(service, players=players)
    record = record_for(info)
    setup = [m for m in record.moves if str(m.action).split()[0] in ("keep", "gate")]
    await play_moves(service, info, setup)
    for _ in range(3):
        clock.advance(DAY)
        for due in await service.notifications.due_reminders():
            await service.notifications.reminder_sent(due.game_id, due.seat)
    [row] = await service.store.reminders(info.id)
    assert row.missed == 3
    return info, row


@pytest.mark.sqlite_only
def test_the_rule_needs_more_than_half_of_the_other_players() -> None:
    now = START
    one = [BallotRecord(1, A, "skip", now)]
    two = [*one, BallotRecord(1, B, "autopilot", now)]
    assert decide(one, {A}) == "skip"  # the only other player decides
    assert decide(one, {A, B}) is None
    assert decide(two, {A, B, C}) is None
    assert decide([*two, BallotRecord(1, C, "skip", now)], {A, B, C}) == "skip"
    assert decide([BallotRecord(1, STRANGER, "skip", now)], {A, B}) is None
    assert decide_at_deadline([], {A, B}) == "expired"
    assert decide_at_deadline(two, {A, B}) == "skip"  # a tie skips, the milder choice
    assert decide_at_deadline([BallotRecord(1, B, "autopilot", now)], {A, B}) == "autopilot"


async def test_a_vote_opens_once_per_turn_after_missed_reminders(tmp_path: Path) -> None:
    clock = FakeClock()
    async with open_service(tmp_path / "g.db", clock=clock) as service:
        info, row = await absent_seat(service, clock)
        service.votes.after_reminders = 4
        assert await service.votes.open_if_due(row) is None
        service.votes.after_reminders = 3
        vote = await service.votes.open_if_due(row)
        assert vote is not None and vote.seat == row.seat and vote.status == "open"
        # never a second one about the same turn, even after more reminders
        assert await service.votes.open_if_due(row) is None
        owed = await service.outbox.owed(game_id=info.id, everything=True)
        assert [o.payload.kind for o in owed].count("vote") == 1


async def test_two_players_voting_at_the_same_moment_both_count(tmp_path: Path) -> None:
    clock = FakeClock()
    async with open_service(tmp_path / "g.db", clock=clock) as service:
        info, row = await absent_seat(service, clock, players=4)
        vote = await service.votes.open_if_due(row)
        assert vote is not None
        others = [s.controller_id for s in info.seats if s.seat != row.seat]
        voters = [u for u in others if u != info.creator_id][:2]
        await asyncio.gather(*(service.votes.cast(vote.id, u, "skip") for u in voters))
        ballots = await service.store.ballots(vote.id)
        assert sorted(b.voter_id for b in ballots) == sorted(voters)
        # two of three other players is a majority: the turn is skipped
        decided = await service.store.vote(vote.id)
        assert decided is not None and decided.status == "skip"
        seat = (await service.info(info.id)).seats[row.seat]
        assert seat.skip_turn and seat.machine_played
        tally = await service.votes.tally(vote.id)
        assert [b.name for b in tally.ballots] == [None, None]  # nobody gave a name here
        assert tally.voters == 3


async def test_the_ai_plays_a_skipped_turn_then_hands_the_seat_back(tmp_path: Path) -> None:
    clock = FakeClock()
    async with open_service(tmp_path / "g.db", clock=clock) as service:
        info, row = await absent_seat(service, clock, players=2)
        vote = await service.votes.open_if_due(row)
        assert vote is not None
        other = next(s.controller_id for s in info.seats if s.seat != row.seat)
        assert other is not None
        await service.votes.cast(vote.id, other, "skip")
        assert await service.owed_moves() == [(info.id, row.seat)]
        for _ in range(200):
            if not await service.owed_moves():
                break
            await service.play_owed_move(info.id, row.seat)
        seat = (await service.info(info.id)).seats[row.seat]
        assert not seat.skip_turn and not seat.machine_played
        log = await service.history.log(info.id)
        assert log[-1].seat == row.seat and log[-1].notation == "end"


async def test_who_may_vote(tmp_path: Path) -> None:
    clock = FakeClock()
    async with open_service(tmp_path / "g.db", clock=clock) as service:
        info, row = await absent_seat(service, clock)
        vote = await service.votes.open_if_due(row)
        assert vote is not None
        absent = info.seats[row.seat].controller_id
        assert absent is not None
        with pytest.raises(NotAllowedError):
            await service.votes.cast(vote.id, STRANGER, "skip")
        if absent != info.creator_id:
            with pytest.raises(NotAllowedError):
                await service.votes.cast(vote.id, absent, "skip")
        # a server admin decides alone
        await service.votes.cast(vote.id, STRANGER, "autopilot", admin=True)
        decided = await service.store.vote(vote.id)
        assert decided is not None and decided.status == "autopilot"
        assert (await service.info(info.id)).seats[row.seat].autopilot
        with pytest.raises(ServiceError, match="over"):
            await service.votes.cast(vote.id, A, "skip", admin=True)


async def test_the_vote_is_void_when_the_absent_player_comes_back(tmp_path: Path) -> None:
    clock = FakeClock()
    async with open_service(tmp_path / "g.db", clock=clock) as service:
        info, row = await absent_seat(service, clock)
        vote = await service.votes.open_if_due(row)
        assert vote is not None
        record = record_for(info)
        done = len(await service.history.log(info.id))
        turn = []
        for move in record.moves[done:]:
            turn.append(move)
            if str(move.action) == "end":
                break
        await play_moves(service, info, turn)
        voter = next(s.controller_id for s in info.seats if s.seat not in (row.seat,))
        assert voter is not None
        with pytest.raises(ServiceError, match="over"):
            await service.votes.cast(vote.id, voter, "skip", admin=True)
        closed = await service.store.vote(vote.id)
        assert closed is not None and closed.status == "void"


async def test_at_the_deadline_most_ballots_win_and_silence_expires(tmp_path: Path) -> None:
    clock = FakeClock()
    async with open_service(tmp_path / "g.db", clock=clock) as service:
        info, row = await absent_seat(service, clock, players=4)
        vote = await service.votes.open_if_due(row)
        assert vote is not None
        voter = next(
            s.controller_id
            for s in info.seats
            if s.seat != row.seat and s.controller_id != info.creator_id
        )
        assert voter is not None
        await service.votes.cast(vote.id, voter, "autopilot")
        assert await service.votes.close_due() == 0
        clock.advance(2 * DAY)
        assert await service.votes.close_due() == 1
        closed = await service.store.vote(vote.id)
        assert closed is not None and closed.status == "autopilot"
