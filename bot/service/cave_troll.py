"""Cave Troll (`cave_troll/`) adapted to the service's `GameRules`.

What the table sees of the game:

- **Phases**: `play`, `flight` while a Troll flight awaits answers (each seat asked is
  awaited anew, the placer too when the flight is over) and `over`.
- **Undo**: a seat's own last action while it is still that seat's alone to act, never
  past a draw (a token shown), another seat's moment, nor a Troll flight begun or over
  (`cave_troll.game.may_undo`).
- **The outcome** has the Mountain King's shape, the lines the table reads: one line a
  seat (`seats`, `total`; Cave Troll has no teams) and the `winning_seats` (players tied
  for the most gold share the victory, l.110); besides, each line's gold by where it
  came from, and the seat that ended the game.
- **Options** (`make_config`): `players` (2-4) and `colours` (one a player); an option
  not given (None) is left out, `teams` may only be false; any other is refused.
- **Out of turn**: a Troll flight's answers may wait `FLIGHT_SECONDS` before the table
  plays the default answer (`choose_action`, `cave_troll.default_answer`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from bot.service.protocol import Announce, Asked, StoryData
from cave_troll import ai, engine, turns
from cave_troll.actions import (
    Action,
    Draw,
    EndTurn,
    Flee,
    Kill,
    Move,
    Place,
    PlayChalice,
    PlayCloak,
    PlayEldarra,
    PlayHelm,
    PlaySword,
    PlayWand,
    Push,
    Send,
    Stay,
    format_action,
    parse_action,
)
from cave_troll.defaults import default_answer
from cave_troll.errors import ConfigError, Listed
from cave_troll.game import GAME_ID, game_from_record, may_undo
from cave_troll.legal import legal_actions
from cave_troll.scoring import Outcome, final_outcome
from cave_troll.state import CaveTrollConfig, State, make_config, new_game
from cave_troll.story import Story, describe, read_story, told_to
from cave_troll.view import CaveView, view

# how long a Troll flight's answer may wait before the table answers for the seat (a
# day: the game's other decisions are turns, on the table's own clock)
FLIGHT_SECONDS = 24 * 60 * 60
# the options this game reads (a lobby's option given as None counts as not given)
OPTIONS = ("players", "colours")
_STORED = frozenset({*OPTIONS, "edition"})  # a config read back holds its edition


class CaveTrollRules:
    """The Cave Troll rules behind the service protocol (the checked path is
    `Game.play`'s: apply to a copy, keep it only if nothing was refused)."""

    name = GAME_ID

    def make_config(self, options: Mapping[str, Any]) -> dict[str, Any]:
        given = {k: v for k, v in options.items() if v is not None}
        if given.pop("teams", False) is not False:
            raise ConfigError("Cave Troll is played without teams.", "no_teams")
        unknown = sorted(set(given) - _STORED)
        if unknown:
            raise ConfigError(
                "Cave Troll has no option {option}; its options are {options}.",
                "unknown_option",
                option=unknown[0],
                options=Listed(OPTIONS),
            )
        return make_config(**given).model_dump(mode="json")

    def seat_count(self, config: Mapping[str, Any]) -> int:
        return _config(config).players

    def seat_labels(self, config: Mapping[str, Any]) -> tuple[str, ...]:
        return _config(config).seat_colours

    def new_state(self, config: Mapping[str, Any], seed: int) -> State:
        return new_game(_config(config), seed)

    def seat_teams(self, state: State) -> tuple[int | None, ...]:
        return (None,) * state.n

    def to_act(self, state: State) -> tuple[int, ...]:
        return turns.to_act(state)

    def next_in_turn(self, state: State, seat: int) -> int | None:
        # turns go round to the left (`engine._end_turn`); a flight's answers are no turn
        if state.phase != "play" or state.flight is not None:
            return None
        if state.turn is None or state.turn.seat != seat:
            return None
        return (seat + 1) % state.n

    def phase(self, state: State) -> str:
        return "flight" if state.flight is not None else state.phase

    def decision_seconds(self, state: State) -> int | None:
        return FLIGHT_SECONDS if state.flight is not None else None

    def legal_actions(self, state: State, seat: int) -> Sequence[Action]:
        return legal_actions(state, seat)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def read_action(self, state: State, seat: int, asked: str | Asked[Action]) -> Action:
        if isinstance(asked, str):
            return engine.read(state, seat, asked)
        engine.check_moment(state, seat, asked.kind)
        return asked.build()

    def notation(self, action: Action) -> str:
        return format_action(action)

    def play(self, state: State, seat: int, action: Action) -> State:
        trial = state.clone()
        engine.apply(trial, seat, action)
        return trial

    def replay(self, state: State, seat: int, action: Action) -> None:
        # the checked path, as the Mountain King's: a stored log is read back, never
        # trusted (the moment's check costs little; tests/rules/test_fast_path.py)
        engine.apply(state, seat, action)

    def can_undo(self, state: State, seat: int, last_seat: int | None) -> bool:
        return may_undo(state, seat, last_seat)

    def view(self, state: State, seat: int | None) -> CaveView:
        return view(state, seat)

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def outcome(self, state: State) -> dict[str, Any] | None:
        if state.phase != "over":
            return None
        return outcome_json(final_outcome(state))

    def describe(self, state: State, seat: int, action: Action) -> dict[str, Any]:
        return describe(state, seat, action).to_json()

    def announce(self, state: State) -> Announce:
        return "full"  # no secret phase: every turn is told with its post

    def told_to(
        self, state: State, viewer: int | None, seat: int, story: StoryData
    ) -> StoryData | None:
        read = _story(story)
        if read is None:  # not a story of these rules: told as it was stored
            return story
        return told_to(state, viewer, seat, read).to_json()

    def played_in_secret(self, story: StoryData) -> bool:
        return False

    def revealed(self, state: State, seat: int) -> dict[str, Any]:
        # never asked: no phase is secret (`announce`); what a seat holds is told at
        # the end, in the outcome's `artifacts`
        return {"kind": "revealed", "colour": state.colour(seat)}

    def cells(self, action: Action) -> tuple[str, ...]:
        return cells_changed(action)

    def choose_action(self, state: State, seat: int, seed: int) -> Action:
        if state.flight is not None and turns.to_act(state) == (seat,):
            # the documented default answer, for an AI seat and a sleeper alike
            answer = default_answer(state)
            return answer[0] if answer else Stay()
        return ai.choose_action(state, seat, random.Random(seed))

    def record(
        self, config: Mapping[str, Any], seed: int, moves: Sequence[tuple[int, str]]
    ) -> dict[str, Any]:
        colours = _config(config).seat_colours
        return {
            "game": GAME_ID,
            "config": dict(config),
            "seed": seed,
            "actions": [f"{colours[seat]} {text}" for seat, text in moves],
        }

    def record_outcome(self, record: Mapping[str, Any]) -> dict[str, Any] | None:
        outcome = game_from_record(dict(record)).outcome
        return None if outcome is None else outcome_json(outcome)

    def state_to_json(self, state: State) -> str:
        # the state's dataclasses as orjson writes them: `State.to_json`'s data, without
        # spaces, in a fraction of the time
        return orjson.dumps(state, default=_config_json).decode()

    def state_from_json(self, text: str) -> State:
        data = orjson.loads(text)
        if not isinstance(data, dict):
            raise ValueError("a state must be a JSON object")
        return State.from_json(data)


CAVE_TROLL = CaveTrollRules()


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    """The outcome as the table reads it (the Mountain King's shape): a line a seat with
    its `seats` and `total`, the `winning_seats`, and `winner` (the seat, None when the
    victory is shared); each line's gold by where it came from, and who ended it."""
    winners = outcome.winning_seats
    lines = outcome.to_json()["breakdown"]  # a line a seat, in seat order
    assert isinstance(lines, list)
    return {
        "breakdown": [{"account": s, "seats": [s], **line} for s, line in enumerate(lines)],
        "winner": winners[0] if len(winners) == 1 else None,
        "winning_seats": list(winners),
        "ended_by": outcome.ended_by,
    }


def cells_changed(action: Action) -> tuple[str, ...]:
    """The places an action touched (what a turn post outlines): where a piece left
    and every place it passed or came to, the place an artifact was played on; none
    for a draw, a `stay` or the end of a turn."""
    if isinstance(action, Place | PlayChalice):
        return (action.at,)
    if isinstance(action, PlayEldarra | PlayWand | PlaySword):
        return (action.room,)
    if isinstance(action, Move):
        return (action.piece.at, *action.path)
    if isinstance(action, Send | Flee):
        return (action.piece.at, action.to)
    if isinstance(action, Push):
        return (action.target.at, action.to)
    if isinstance(action, PlayHelm):
        return (action.target.at, *action.path)
    if isinstance(action, Kill):
        return (action.target.at,)
    if isinstance(action, PlayCloak):
        return (action.piece.at,)
    assert isinstance(action, Draw | Stay | EndTurn)
    return ()


def _config_json(value: Any) -> Any:
    """The one value of a state orjson does not write itself: the config."""
    if isinstance(value, CaveTrollConfig):
        return value.model_dump(mode="json")
    raise TypeError(f"a state holds a {type(value).__name__}, which JSON cannot store")


def _story(story: StoryData) -> Story | None:
    """The rules' story stored as data; None for one these rules do not read."""
    if isinstance(story, str):
        return None
    try:
        return read_story(story)
    except ValueError:
        return None


def _config(config: Mapping[str, Any]) -> CaveTrollConfig:
    return CaveTrollConfig.model_validate(dict(config))
