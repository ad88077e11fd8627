"""Cave Troll at the table: its adapter (`bot.service.cave_troll`) under the same
service, store and log as the Mountain King. A whole game played through the service
by the AI, refusals that change nothing, undo within a turn and never past a draw,
views that hide what a seat may not see, the state kept by the store, and a Troll
flight answered by the seats it asks, in their order, with the deadline the table
gives it. The games are the one `ct_service_helpers` describes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ct_service_helpers import cave_game, cave_service, play_by_ai, state_of
from service_helpers import STRANGER, USERS, user_of

from bot.service import Asked, CannotUndoError, NotInGameError, NotYourTurnError
from bot.service.cave_troll import CAVE_TROLL, FLIGHT_SECONDS, cells_changed, outcome_json
from cave_troll import (
    CaveTrollError,
    ConfigError,
    State,
    default_answer,
    final_outcome,
    legal_actions,
    parse_action,
)
from cave_troll.actions import Move, Place
from cave_troll.content import ADVENTURERS
from cave_troll.scoring import Outcome, Result


def _holds_an_artifact(state: State) -> bool:
    return any(p.artifacts for p in state.players)


def _in_flight(state: State) -> bool:
    return state.flight is not None


def _adventurer_on_top_of_a_whole_turn(state: State) -> bool:
    """A turn of four actions not begun, its player's top token an adventurer."""
    turn = state.turn
    return (
        state.flight is None
        and turn is not None
        and turn.actions_left == 4
        and turn.placing is None
        and state.players[turn.seat].stack[-1] in ADVENTURERS
    )


async def test_a_three_player_game_is_played_to_its_end_by_the_ai(tmp_path: Path) -> None:
    """Two players acting in notation as the AI would, the third seat the AI's."""
    async with cave_service(tmp_path / "g.db") as service:
        info = await cave_game(service, ai=1)
        assert info.rules == "cave-troll" and info.status == "active"
        assert [s.label for s in info.seats] == ["blue", "orange", "green"]
        assert [s.ai for s in info.seats] == [False, False, True]
        state = await play_by_ai(service, info, CAVE_TROLL.is_over)
        _, seq = await state_of(service, info.id)
        assert seq == 158
        assert (await service.info(info.id)).status == "over"
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
        # the AI's seat played by the service itself, its Troll flight's answer too
        log = await service.history.log(info.id)
        assert {e.user_id for e in log if e.seat == 2} == {None}
        assert any(e.seat == 2 and e.notation.startswith("flee") for e in log)
        # what the table shows at the end: every artifact, every seat's gold
        view = (await service.view(info.id, None)).state
        assert view is not None and view["phase"] == "over"
        assert all(isinstance(p["artifacts"], list) for p in view["players"])


async def test_refusals_change_nothing(tmp_path: Path) -> None:
    async with cave_service(tmp_path / "g.db") as service:
        for options in ({"players": 5}, {"players": 3, "side": "winter"}, {"teams": True}):
            with pytest.raises(ConfigError):
                await service.create_game(USERS[0], options)
        info = await cave_game(service)
        assert info.id == 1  # the refused options made no game
        state, seq = await state_of(service, info.id)
        seat = CAVE_TROLL.to_act(state)[0]
        me, other = user_of(info, seat), user_of(info, (seat + 1) % 3)

        def never() -> Place:
            raise AssertionError("built before the moment was judged")

        attempts: list[tuple[int, str | Asked[Place], type[Exception], str]] = [
            (me, "dig A1", CaveTrollError, "unknown_verb"),
            (me, "move knight@Z9 A1", CaveTrollError, "no_such_place"),
            (me, "move knight@A1 A4", CaveTrollError, "no_such_piece"),
            (me, "flee explorer@A1 A4", CaveTrollError, "no_flight"),
            (me, Asked("stay", never), CaveTrollError, "no_flight"),
            (me, "place NW", CaveTrollError, "nothing_to_place"),
            (other, "draw", NotYourTurnError, "not_your_turn"),
            (STRANGER, "draw", NotInGameError, "not_in_game"),
        ]
        for user, action, error, code in attempts:
            with pytest.raises(error) as refused:
                await service.act(info.id, user, action)
            assert getattr(refused.value, "code", None) == code, refused.value
        after, seq_after = await state_of(service, info.id)
        assert (seq_after, after) == (seq, state)


async def test_undo_takes_back_a_turns_actions_but_never_a_draw(tmp_path: Path) -> None:
    async with cave_service(tmp_path / "g.db") as service:
        info = await cave_game(service)
        state = await play_by_ai(service, info, _adventurer_on_top_of_a_whole_turn)
        seat = CAVE_TROLL.to_act(state)[0]
        me, other = user_of(info, seat), user_of(info, (seat + 1) % 3)
        await service.act(info.id, me, "draw")
        with pytest.raises(CannotUndoError):
            await service.undo(info.id, me)  # the token was shown
        drawn, _ = await state_of(service, info.id)
        place = next(a for a in legal_actions(drawn, seat) if isinstance(a, Place))
        await service.act(info.id, me, str(place))
        placed, _ = await state_of(service, info.id)
        move = next(a for a in legal_actions(placed, seat) if isinstance(a, Move))
        await service.act(info.id, me, str(move))
        with pytest.raises(CannotUndoError):
            await service.undo(info.id, other)  # not theirs
        assert (await service.undo(info.id, me)).undone == str(move)
        assert (await state_of(service, info.id))[0] == placed
        assert (await service.undo(info.id, me)).undone == str(place)
        assert (await state_of(service, info.id))[0] == drawn
        with pytest.raises(CannotUndoError):
            await service.undo(info.id, me)
        # the log keeps what stands: the draw alone of this turn
        assert [e.notation for e in await service.history.log(info.id)][-1] == "draw"
        await service.act(info.id, me, str(place))
        await service.act(info.id, me, "end")
        with pytest.raises(CannotUndoError):
            await service.undo(info.id, me)  # the turn passed


async def test_a_view_hides_the_others_artifacts_and_every_stacks_order(tmp_path: Path) -> None:
    async with cave_service(tmp_path / "g.db") as service:
        info = await cave_game(service)
        state = await play_by_ai(service, info, _holds_an_artifact)
        finder = next(p.seat for p in state.players if p.artifacts)
        held = state.players[finder].artifacts
        other = (finder + 1) % 3
        own = (await service.view(info.id, user_of(info, finder))).state
        theirs = (await service.view(info.id, user_of(info, other))).state
        anyone = (await service.view(info.id, STRANGER)).state
        assert own is not None and theirs is not None and anyone is not None
        assert own["players"][finder]["artifacts"] == held
        assert theirs["players"][finder]["artifacts"] == anyone["players"][finder]["artifacts"]
        assert theirs["players"][finder]["artifacts"] == len(held)
        for view in (own, theirs, anyone):
            assert all(isinstance(p["stack"], int) for p in view["players"])
            assert view["artifact_pile"] == len(state.artifact_pile)
            assert "seed" not in view
        # the log names the artifact found to its finder alone
        told = {
            seat: json.dumps([e.story for e in await service.history.log(info.id, user)])
            for seat, user in ((finder, user_of(info, finder)), (other, user_of(info, other)))
        }
        assert f'"artifact":"{held[0]}"' in told[finder].replace(" ", "")
        assert f'"artifact":"{held[0]}"' not in told[other].replace(" ", "")
        assert '"hidden":true' in told[other].replace(" ", "")


async def test_the_store_gives_the_state_back_as_it_was(tmp_path: Path) -> None:
    async with cave_service(tmp_path / "g.db") as service:
        info = await cave_game(service)
        state = await play_by_ai(service, info, lambda s: s.n_actions >= 20)
    text = CAVE_TROLL.state_to_json(state)
    assert json.loads(text) == state.to_json()
    assert CAVE_TROLL.state_from_json(text) == state
    async with cave_service(tmp_path / "g.db") as reopened:
        loaded = await reopened.load(info.id)
        assert loaded.state == state and loaded.rules is not None
        # the log alone, played again on the trusted path, makes the same state
        again = CAVE_TROLL.new_state(loaded.config, info.seed or 0)
        for entry in await reopened.store.actions(info.id):
            CAVE_TROLL.replay(again, entry.seat, parse_action(entry.notation))
        assert again == state


async def test_a_troll_flight_is_answered_by_the_seats_it_asks_in_order(tmp_path: Path) -> None:
    async with cave_service(tmp_path / "g.db") as service:
        info = await cave_game(service)
        state = await play_by_ai(service, info, _in_flight)
        assert state.flight is not None and state.turn is not None
        placer, asked = state.turn.seat, list(state.flight.queue)
        assert len(asked) == 2 and placer not in asked
        assert CAVE_TROLL.phase(state) == "flight"
        assert CAVE_TROLL.decision_seconds(state) == FLIGHT_SECONDS == 86400
        assert CAVE_TROLL.next_in_turn(state, asked[0]) is None
        first, second = (user_of(info, s) for s in asked)
        with pytest.raises(NotYourTurnError):
            await service.act(info.id, second, "stay")  # not yet theirs
        with pytest.raises(NotYourTurnError):
            await service.act(info.id, user_of(info, placer), "draw")
        with pytest.raises(CaveTrollError) as refused:
            await service.act(info.id, first, "draw")
        assert refused.value.code == "flight"  # first, what flees
        # the default answer, as the table plays it for a seat whose time ran out
        answer = CAVE_TROLL.choose_action(state, asked[0], 0)
        assert answer == default_answer(state)[0]
        result = await service.act(info.id, first, str(answer))
        assert result.turn_ended and result.newly_to_act == (asked[1],)
        with pytest.raises(CannotUndoError):
            await service.undo(info.id, first)
        state, _ = await state_of(service, info.id)
        assert CAVE_TROLL.decision_seconds(state) == FLIGHT_SECONDS
        room = state.flight.room if state.flight else ""
        staying = [p for p in state.pieces if p.at == room and p.owner == asked[1]]
        result = await service.act(info.id, second, "stay")
        assert result.turn_ended and result.to_act == result.newly_to_act == (placer,)
        state, _ = await state_of(service, info.id)
        assert state.flight is None and CAVE_TROLL.phase(state) == "play"
        assert CAVE_TROLL.decision_seconds(state) is None
        assert not any(p in state.pieces for p in staying)  # the Troll took them
        assert [p.kind for p in state.pieces if p.at == room] == ["troll"]
        assert CAVE_TROLL.next_in_turn(state, placer) == (placer + 1) % 3


def test_the_options_a_lobby_may_give() -> None:
    rules = CAVE_TROLL
    assert rules.make_config({"players": 3, "side": None, "teams": False}) == {
        "players": 3,
        "colours": [],
        "edition": 1,
    }
    config = rules.make_config({"players": 2, "colours": ["green", "blue"]})
    assert rules.seat_labels(config) == ("green", "blue") and rules.seat_count(config) == 2
    assert rules.make_config(config) == config  # a rematch gives the stored config back
    for options, code in (
        ({"players": 3, "workshops": "random"}, "unknown_option"),
        ({"players": 4, "teams": True}, "no_teams"),
        ({"players": 1}, "config"),
        ({"players": 3, "colours": ["red"]}, "config"),
    ):
        with pytest.raises(ConfigError) as refused:
            rules.make_config(options)
        assert refused.value.code == code
    state = rules.new_state(config, 7)
    assert rules.seat_teams(state) == (None, None)
    assert rules.announce(state) == "full" and not rules.played_in_secret({"kind": "draw"})


def test_the_places_an_action_touched() -> None:
    cells = {
        "draw": (),
        "place NW": ("NW",),
        "move explorer*@A1 A4>A7": ("A1", "A4", "A7"),
        "move thief@NW C7": ("NW", "C7"),
        "push blue-explorer@A3 A2": ("A3", "A2"),
        "kill blue-explorer@A3": ("A3",),
        "play helm blue-orc@A7 A4>A1": ("A7", "A4", "A1"),
        "play chalice A1": ("A1",),
        "send explorer@A1 C3": ("A1", "C3"),
        "play eldarra A5": ("A5",),
        "play wand A5": ("A5",),
        "play sword A5": ("A5",),
        "play cloak explorer@A1": ("A1",),
        "flee knight@A5 A4": ("A5", "A4"),
        "stay": (),
        "end": (),
    }
    for text, places in cells.items():
        assert CAVE_TROLL.cells(parse_action(text)) == places == cells_changed(parse_action(text))


def test_a_shared_victory_names_every_winner_and_no_single_one() -> None:
    results = (
        Result(0, "blue", 10, 5, 3, 2),
        Result(1, "orange", 12, 8, 0, 0),
        Result(2, "green", 1, 1, 0, 0),
    )
    shared = outcome_json(Outcome(results, ended_by=0))
    assert shared["winning_seats"] == [0, 1] and shared["winner"] is None
    assert shared["ended_by"] == 0
    assert shared["breakdown"][0] == {
        "account": 0,
        "seats": [0],
        "colour": "blue",
        "play": 10,
        "board": 5,
        "bonus": 3,
        "artifacts": 2,
        "total": 20,
    }
    alone = outcome_json(Outcome(results[1:], ended_by=0))
    assert alone["winning_seats"] == [1] and alone["winner"] == 1
