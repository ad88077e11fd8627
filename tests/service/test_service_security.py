"""Only the seated player acts, only on their turn (the gates in turn order, then the
draft is simultaneous); every refusal leaves the game exactly as it was."""

from __future__ import annotations

from pathlib import Path

import pytest
from service_checks import legal_actions as offered_actions
from service_checks import substitute
from service_helpers import (
    STRANGER,
    USERS,
    Service,
    open_service,
    play_moves,
    raw,
    record_for,
    setup_moves,
    started_game,
    user_of,
)

from bot.service import (
    GameInfo,
    NotAllowedError,
    NotInGameError,
    NotYourTurnError,
    SeatingError,
)
from rules.actions import EndTurn
from rules.errors import IllegalActionError, NotationError, RulesError
from rules.legal import legal_actions

A, B, C = USERS[:3]


async def fingerprint(service: Service, path: Path, game_id: int) -> tuple[object, ...]:
    """Everything an act could change: the log, the snapshot, the reminders."""
    db = raw(path)
    log = db.execute("SELECT * FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)).fetchall()
    snap = db.execute("SELECT seq, state FROM snapshots WHERE game_id = ?", (game_id,)).fetchall()
    waiting = db.execute("SELECT * FROM reminders WHERE game_id = ?", (game_id,)).fetchall()
    handled = db.execute("SELECT COUNT(*) FROM interactions").fetchall()
    db.close()
    return (log, snap, waiting, handled, (await service.load(game_id)).seq)


@pytest.mark.sqlite_only
async def test_a_user_without_a_seat_is_refused_and_nothing_changes(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        info = await started_game(service, players=2)
        state = (await service.load(info.id)).state
        assert state is not None
        legal = legal_actions(state, 0)
        before = await fingerprint(service, path, info.id)
        with pytest.raises(NotInGameError, match="not playing in this game"):
            await service.act(info.id, STRANGER, legal[0], interaction_id=5)
        with pytest.raises(NotInGameError):
            await service.undo(info.id, STRANGER)
        assert await fingerprint(service, path, info.id) == before


@pytest.mark.sqlite_only
async def test_a_player_off_turn_is_refused_and_nothing_changes(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        info = await started_game(service, players=3)
        record = record_for(info)
        # the gates go in turn order: only seat 0 places the first one
        first_gate = record.moves[0]
        assert first_gate.seat == 0 and type(first_gate.action).__name__ == "PlaceGate"
        before = await fingerprint(service, path, info.id)
        for seat in (1, 2):
            with pytest.raises(NotYourTurnError, match=f"{info.seats[0].called} is to play"):
                await service.act(info.id, user_of(info, seat), first_gate.action)
        assert await fingerprint(service, path, info.id) == before
        await play_moves(service, info, setup_moves(record))  # gates and draft: play
        loaded = await service.load(info.id)
        assert loaded.state is not None and loaded.state.phase == "play"
        on_turn = loaded.state.current_seat
        assert on_turn is not None
        off_turn = (on_turn + 1) % 3
        before = await fingerprint(service, path, info.id)
        for action in ("end", *map(str, legal_actions(loaded.state, on_turn)[:5])):
            with pytest.raises(NotYourTurnError, match=f"{info.seats[on_turn].called} is to play"):
                await service.act(info.id, user_of(info, off_turn), action)
        assert await fingerprint(service, path, info.id) == before


@pytest.mark.sqlite_only
async def test_in_the_draft_any_drafting_seat_acts_but_not_one_that_finished(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        info = await started_game(service, players=3)
        record = record_for(info)
        gates = [m for m in record.moves if type(m.action).__name__ == "PlaceGate"]
        await play_moves(service, info, gates)
        keeps = [m for m in record.moves if type(m.action).__name__ == "Keep"]
        # seats keep in any order: the last seat first, then seat 0
        for seat in (2, 0):
            for move in [m for m in keeps if m.seat == seat]:
                result = await service.act(info.id, user_of(info, seat), move.action)
        assert result.turn_ended and set(result.to_act) == {1}
        before = await fingerprint(service, path, info.id)
        with pytest.raises(NotYourTurnError):
            await service.act(info.id, user_of(info, 0), "keep blue-1 A1")
        assert await fingerprint(service, path, info.id) == before


@pytest.mark.sqlite_only
async def test_an_illegal_action_passes_the_engines_sentence_and_changes_nothing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        info = await started_game(service, players=2)
        before = await fingerprint(service, path, info.id)
        with pytest.raises(NotationError, match="Unknown action"):
            await service.act(info.id, A, "fly to the moon")
        with pytest.raises(IllegalActionError, match="begins once every gate is placed"):
            await service.act(info.id, A, "keep orange-1 A1")
        with pytest.raises(RulesError):
            await service.act(info.id, A, EndTurn())
        assert await fingerprint(service, path, info.id) == before
        # in the draft
        gates = [m for m in record_for(info).moves if type(m.action).__name__ == "PlaceGate"]
        await play_moves(service, info, gates)
        before = await fingerprint(service, path, info.id)
        with pytest.raises(IllegalActionError, match="not in your hand"):
            await service.act(info.id, A, "keep orange-1 A1")
        with pytest.raises(IllegalActionError, match="gates are all placed: the starting-troll"):
            await service.act(info.id, A, gates[0].action)
        with pytest.raises(RulesError):
            await service.act(info.id, A, EndTurn())
        assert await fingerprint(service, path, info.id) == before


async def test_a_kicked_player_is_refused_and_a_substitute_plays_the_seat(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        info = await started_game(service, players=2)
        record = record_for(info)
        with pytest.raises(NotAllowedError):
            await service.seating.kick(info.id, B, A)
        kicked = await service.seating.kick(info.id, A, B)
        assert kicked.seats[1].controller_id is None and kicked.seats[1].machine_played
        at = next(i for i, m in enumerate(record.moves) if m.seat == 1)
        first_b = record.moves[at]
        await play_moves(service, info, record.moves[:at])  # seat 0's gate comes first
        with pytest.raises(NotInGameError):
            await service.act(info.id, B, first_b.action)
        # the autopilot may play the vacant seat
        await service.act_for_autopilot(info.id, 1, first_b.action)
        with pytest.raises(SeatingError, match="already plays a seat"):
            await substitute(service, info.id, A, 1, A)
        with pytest.raises(NotAllowedError):
            await substitute(service, info.id, C, 1, C)
        subbed = await offered_and_accepted(service, info.id, A, 1, C)
        assert subbed.seats[1].controller_id == C and not subbed.seats[1].autopilot
        with pytest.raises(NotAllowedError, match="played by its player"):
            await service.act_for_autopilot(info.id, 1, "end")
        rest = record.moves[at + 1 :]
        replaced = await service.info(info.id)
        await play_moves(service, replaced, rest)
        loaded = await service.load(info.id)
        assert loaded.state is not None
        assert loaded.state.to_json() == record.state.to_json()
        assert {e.user_id for e in await service.history.log(info.id) if e.seat == 1} == {None, C}


async def test_a_player_hands_their_own_seat_over_and_gets_it_back(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db") as service:
        info = await started_game(service, players=2)
        handed = await offered_and_accepted(service, info.id, B, 1, C)
        assert handed.seat_of(C) is not None and handed.seat_of(B) is None
        back = await substitute(service, info.id, A, 1, None)
        assert back.seat_of(B) is not None and back.seat_of(C) is None


async def test_only_the_seat_or_the_creator_changes_the_autopilot(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db") as service:
        info = await started_game(service, players=3)
        with pytest.raises(NotAllowedError):
            await service.seating.set_autopilot(info.id, C, 1, True)
        assert (await service.seating.set_autopilot(info.id, B, 1, True)).seats[1].autopilot
        assert not (await service.seating.set_autopilot(info.id, A, 1, False)).seats[1].autopilot
        assert (
            (await service.seating.set_autopilot(info.id, C, 1, True, admin=True))
            .seats[1]
            .autopilot
        )


async def test_kicking_a_substitute_gives_the_seat_back_to_its_player(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db") as service:
        info = await started_game(service, players=2)
        await offered_and_accepted(service, info.id, A, 1, C)
        back = await service.seating.kick(info.id, A, C)
        assert back.seats[1].controller_id == B and not back.seats[1].autopilot
        with pytest.raises(NotInGameError):
            await service.seating.kick(info.id, A, C)


async def test_legal_actions_are_offered_only_to_the_players_who_may_act(
    tmp_path: Path,
) -> None:
    async with open_service(tmp_path / "g.db") as service:
        info = await started_game(service, players=2)
        loaded = await service.load(info.id)
        assert loaded.state is not None
        offered = await offered_actions(service, info.id, A)
        assert offered == [str(a) for a in legal_actions(loaded.state, 0)]
        assert offered and all(o.startswith("gate ") for o in offered)
        assert await offered_actions(service, info.id, B) == []  # seat 0 places the first gate
        record = record_for(info)
        gates = [m for m in record.moves if type(m.action).__name__ == "PlaceGate"]
        await play_moves(service, info, gates)
        for user in (A, B):  # everyone drafts at once
            offered = await offered_actions(service, info.id, user)
            assert offered and all(o.startswith("keep ") for o in offered)
        with pytest.raises(NotInGameError):
            await offered_actions(service, info.id, STRANGER)


async def offered_and_accepted(
    service: Service, game_id: int, by: int, seat: int, user: int
) -> GameInfo:
    """`by` offers the seat to `user`, who accepts it (seats change hands by consent)."""
    offer = await service.seating.offer_seat(game_id, by, seat, user)
    assert offer.accepter_id == user
    return await service.seating.accept_seat(game_id, user, seat, user, by, offer.token)
