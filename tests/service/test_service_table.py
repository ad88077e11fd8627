"""What the table is owed after a change, stored in the same transaction as the change:
turn posts told from stored stories, pings, the private answer, the game-over post,
seat changes; the AI's owed moves; and reminders that only people get."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest
from service_checks import substitute
from service_helpers import (
    USERS,
    FakeClock,
    open_service,
    place_gates,
    play_moves,
    record_for,
    setup_moves,
    started_game,
    user_of,
)

from bot.service import GameMovedOnError, ReplyTo, SeatMovedOnError
from bot.service.outbox import Owed
from bot.service.owed import GameOver, Ping, Reply, SeatNews, StartPost, TurnPost
from bot.store import SqliteStore
from bot.store.migrations import MIGRATIONS
from rules.legal import legal_actions

A, B, C, D = USERS[:4]
REPLY = ReplyTo(application_id=77, token="tok-1")


async def owed(service: object, game_id: int) -> list[Owed]:
    return await service.outbox.owed(game_id=game_id, everything=True)  # type: ignore[attr-defined]


async def to_play_phase(service, info):  # type: ignore[no-untyped-def]
    """Play the record's setup (gates and draft) so the first play turn is next."""
    record = record_for(info)
    setup = setup_moves(record)
    await play_moves(service, info, setup)
    return record, len(setup)


async def test_the_start_owes_one_post_naming_every_player(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db") as service:
        info = await started_game(service)
        [start] = await owed(service, info.id)
        assert isinstance(start.payload, StartPost)
        assert [p.user_id for p in start.payload.players] == [A, B]
        # the first gate is the first seat's
        assert start.payload.phase == "gates" and start.payload.to_act == (0,)


async def test_a_turn_end_owes_its_post_calling_the_next_player_and_the_answer(
    tmp_path: Path,
) -> None:
    async with open_service(tmp_path / "g.db") as service:
        info = await started_game(service)
        record, done = await to_play_phase(service, info)
        for o in await owed(service, info.id):
            await service.outbox.delivered(o.id)
        turn = []
        for move in record.moves[done:]:
            turn.append(move)
            if str(move.action) == "end":
                break
        await play_moves(service, info, turn[:-1])
        mover = user_of(info, turn[0].seat)
        result = await service.act(info.id, mover, "end", interaction_id=5, reply_to=REPLY)
        assert result.turn_ended and result.reply_id is not None
        # one public message: the turn post, no separate ping
        post, reply = await owed(service, info.id)
        # the turn post tells every action of the turn from the stored stories
        assert isinstance(post.payload, TurnPost)
        log = await service.history.log(info.id)
        stories = [e.story for e in log[-len(turn) :]]
        assert list(post.payload.sentences) == stories
        assert post.payload.sentences[-1] == {"kind": "end"}
        assert post.payload.player.user_id == mover and post.payload.seq == result.seq
        assert post.payload.images == "all"
        # it calls the next player itself, with the reminder time the schedule holds
        other = 1 - turn[0].seat
        [called] = post.payload.calls
        assert called.seat == other and called.user_id == user_of(info, other)
        assert post.payload.call_phase == "play"
        status = await service.history.turn_status(info.id)
        assert post.payload.next_reminder == status.waiting[0].next_reminder
        # the private answer comes last, and only if the command does not send it itself
        assert isinstance(reply.payload, Reply) and reply.id == result.reply_id
        assert reply.payload.token == "tok-1" and reply.payload.turn_ended
        assert reply.record.due_at > reply.record.created_at
        assert [o.id for o in await service.outbox.owed(game_id=info.id)] == [post.id]


async def test_an_undone_action_is_left_out_of_the_turn_post(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db") as service:
        info = await started_game(service)
        record, done = await to_play_phase(service, info)
        for o in await owed(service, info.id):
            await service.outbox.delivered(o.id)
        loaded = await service.load(info.id)
        seat = record.moves[done].seat
        user = user_of(info, seat)
        # a dig reveals nothing hidden, so it can be taken back
        dig = legal_actions(loaded.state, seat, "dig")[0]
        await service.act(info.id, user, dig)
        await service.undo(info.id, user)
        log = await service.history.log(info.id)
        assert all(e.notation != str(dig) for e in log)
        # play the recorded turn to its end
        for move in record.moves[done:]:
            await service.act(info.id, user, move.action)
            if str(move.action) == "end":
                break
        post = next(o for o in await owed(service, info.id) if o.payload.kind == "turn")
        assert isinstance(post.payload, TurnPost)
        turn = [m for m in record.moves[done:] if m.seat == seat]
        turn = turn[: [str(m.action) for m in turn].index("end") + 1]
        assert len(post.payload.sentences) == len(turn)


async def test_each_gate_calls_the_next_the_draft_stays_private_then_one_post_opens_play(
    tmp_path: Path,
) -> None:
    async with open_service(tmp_path / "g.db") as service:
        info = await started_game(service, players=3, users=(A, B, C))
        record = record_for(info)
        gates = [m for m in record.moves if str(m.action).startswith("gate")]
        keeps = [m for m in record.moves if str(m.action).startswith("keep")]
        assert [m.seat for m in gates] == [0, 1, 2], "gates first, in turn order"
        assert record.moves[: len(gates)] == gates
        # each gate owes one short post, no image, that tells it and calls the next
        # placer itself (no separate ping); the last one calls everyone to the draft
        for n, gate in enumerate(gates):
            await play_moves(service, info, [gate])
            [post] = [o.payload for o in await owed(service, info.id)][n + 1 :]
            assert isinstance(post, TurnPost) and post.images == "none"
            [line] = post.lines
            assert line.player.seat == gate.seat and len(line.sentences) == 1
            point = str(gate.action).split()[1]
            told = line.sentences[0]
            assert isinstance(told, dict) and told["kind"] == "gate" and told["point"] == point
            if n + 1 < len(gates):
                assert [p.seat for p in post.calls] == [n + 1] and post.call_phase == "gates"
            else:
                assert [p.seat for p in post.calls] == [0, 1, 2] and post.call_phase == "draft"
            assert post.next_reminder is not None
        told = len(gates) + 1
        # nothing is told while anyone still drafts
        await play_moves(service, info, keeps[:-1])
        assert len(await owed(service, info.id)) == told
        await play_moves(service, info, keeps[-1:])
        # one post reveals every player's four keeps, shows the board (the mountain is
        # ready) and calls the first player to the first turn, with no ping of its own
        [post] = [o.payload for o in await owed(service, info.id)][told:]
        assert isinstance(post, TurnPost) and post.images == "board"
        assert [t.player.seat for t in post.lines] == [s.seat for s in info.seats]
        kept = [t.sentences[0] for t in post.lines if len(t.sentences) == 1]
        assert len(kept) == len(post.lines)
        assert all(isinstance(k, dict) and k["kind"] == "kept" for k in kept)
        assert all(
            sorted(t["slot"] for t in k["trolls"]) == ["A1", "A2", "A3", "A4"]  # type: ignore[index]
            for k in kept
        )
        loaded = await service.load(info.id)
        assert loaded.state is not None and loaded.state.phase == "play"
        assert loaded.state.current_seat == 0
        assert [p.seat for p in post.calls] == [0] and post.call_phase == "play"
        assert post.seq == loaded.seq and len(loaded.state.board.gates) == 3


async def test_a_stale_draft_button_is_refused_while_others_draft(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db") as service:
        info = await started_game(service)
        await place_gates(service, info)
        loaded = await service.load(info.id)
        mine = await service.seat_version(info.id, 0)
        # another player's keep does not make my button stale
        await service.act(info.id, B, legal_actions(loaded.state, 1, "keep")[0])
        first = legal_actions(loaded.state, 0, "keep")[0]
        await service.act(info.id, A, first, expected_seat_seq=mine)
        # but my own keep does: an older draft message's button is refused, nothing changes
        loaded = await service.load(info.id)
        before = loaded.seq
        with pytest.raises(SeatMovedOnError, match="draft moved on"):
            await service.act(
                info.id, A, legal_actions(loaded.state, 0, "keep")[0], expected_seat_seq=mine
            )
        assert isinstance(SeatMovedOnError(), GameMovedOnError)
        assert (await service.load(info.id)).seq == before


async def test_the_game_over_is_owed_with_the_winners(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db") as service:
        info = await started_game(service)
        record = record_for(info)
        await play_moves(service, info, record.moves)
        last = (await owed(service, info.id))[-1]
        assert isinstance(last.payload, GameOver)
        assert record.outcome is not None
        assert [p.seat for p in last.payload.winners] == list(record.outcome.winning_seats)
        # the record the post attaches replays to the stored outcome
        stored = await service.history.record(info.id)
        assert stored["seed"] == info.seed and len(stored["actions"]) == len(record.moves)


async def test_ai_seats_are_a_flag_and_the_ai_owes_their_moves(tmp_path: Path) -> None:
    clock = FakeClock()
    async with open_service(tmp_path / "g.db", clock=clock) as service:
        game = await service.create_game(A, {"players": 3})
        await service.seating.join(game.id, B)
        info = await service.seating.add_ai(game.id, A)
        assert info.seats[2].ai and info.seats[2].user_id is None
        with pytest.raises(Exception, match="creator"):
            await service.seating.add_ai(game.id, B)
        info = await service.start(game.id, A)
        # the people place the first gates; then the AI's gate is owed at once
        assert await service.owed_moves() == []
        for seat in (0, 1):
            state = (await service.load(info.id)).state
            await service.act(info.id, user_of(info, seat), legal_actions(state, seat, "gate")[0])
        assert await service.owed_moves() == [(info.id, 2)]
        result = await service.play_owed_move(info.id, 2)
        assert result is not None and result.seat == 2 and result.user_id is None
        assert result.notation.startswith("gate")
        # so is the AI's draft; the people are reminded later
        assert await service.owed_moves() == [(info.id, 2)]
        assert await service.notifications.due_reminders() == []
        while await service.owed_moves():
            await service.play_owed_move(info.id, 2)
        # the stored log: while the others draft, the table hears nothing of the AI's keeps
        assert not [e for e in await service.history.log(info.id) if e.notation[:4] == "keep"]
        stored = await service.store.actions(info.id)
        kept = [e for e in stored if e.seat == 2 and e.notation[:4] == "keep"]
        assert len(kept) == 4 and all(e.story for e in kept)
        clock.advance(timedelta(days=2))
        due = await service.notifications.due_reminders()
        assert sorted(d.seat for d in due) == [0, 1]


async def test_kicking_the_player_to_move_hands_the_turn_to_the_ai(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db") as service:
        info = await started_game(service)
        await to_play_phase(service, info)
        loaded = await service.load(info.id)
        seat = loaded.state.turn.seat
        user = user_of(info, seat)
        await service.seating.kick(info.id, A if user != A else B, user, admin=True)
        assert await service.owed_moves() == [(info.id, seat)]
        news = (await owed(service, info.id))[-1]
        assert isinstance(news.payload, SeatNews) and news.payload.change == "kicked"
        assert news.payload.other_user_id == user
        while (await service.load(info.id)).state.turn.seat == seat:
            assert await service.play_owed_move(info.id, seat) is not None
        # a substitute takes the vacant seat by its number and is pinged when it is awaited
        await substitute(service, info.id, B, seat, C, admin=True, name="carol")
        seated = await service.info(info.id)
        assert seated.seats[seat].controller_id == C and seated.seats[seat].name == "carol"


async def test_a_substitute_for_the_seat_to_move_is_pinged(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db") as service:
        info = await started_game(service)
        await to_play_phase(service, info)
        seat = (await service.load(info.id)).state.turn.seat
        await substitute(service, info.id, A, seat, C, admin=True, name="carol")
        ping = (await owed(service, info.id))[-1]
        assert isinstance(ping.payload, Ping) and ping.payload.player.user_id == C
        assert ping.payload.player.name == "carol"


async def test_many_stalled_ai_games_never_crowd_out_a_reminder(tmp_path: Path) -> None:
    clock = FakeClock()
    async with open_service(tmp_path / "g.db", clock=clock) as service:
        stalled = []
        for n in range(120):
            game = await service.create_game(10_000 + n, {"players": 2}, join=False)
            await service.seating.add_ai(game.id, 10_000 + n)
            await service.seating.add_ai(game.id, 10_000 + n)
            stalled.append((await service.start(game.id, 10_000 + n)).id)
        humans = await started_game(service)
        await place_gates(service, humans)  # both humans draft now
        clock.advance(timedelta(days=3))
        due = await service.notifications.due_reminders(limit=100)
        assert {(d.game_id, d.seat) for d in due} == {(humans.id, 0), (humans.id, 1)}
        moves = await service.owed_moves(limit=500)
        assert {g for g, _ in moves} == set(stalled)


@pytest.mark.sqlite_only
async def test_old_ai_seats_under_negative_ids_become_the_flag(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    db = sqlite3.connect(path)
    for statement in MIGRATIONS[0].statements:
        db.execute(statement)
    db.execute("PRAGMA user_version = 1")
    db.execute(
        "INSERT INTO games (id, rules, config, status, creator_id, reminder_seconds,"
        " created_at, updated_at) VALUES (1, 'mountain-king', '{}', 'open', 1, 60, 0, 0)"
    )
    db.execute("INSERT INTO seats (game_id, seat, user_id, joined_at) VALUES (1, 0, 1, 0)")
    db.execute("INSERT INTO seats (game_id, seat, user_id, joined_at) VALUES (1, 1, -1, 0)")
    db.commit()
    db.close()
    async with SqliteStore(path) as store:
        seats = await store.seats(1)
    assert [(s.user_id, s.ai) for s in seats] == [(1, False), (None, True)]
