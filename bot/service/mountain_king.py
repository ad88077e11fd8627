"""In the Hall of the Mountain King (`rules/`) adapted to the service's `GameRules`."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from bot.service.protocol import Announce, Asked, StoryData
from rules import engine, steps
from rules.actions import Action, format_action, parse_action
from rules.ai import choose_action
from rules.game import game_from_record, may_undo
from rules.legal import legal_actions
from rules.scoring import final_outcome
from rules.setup import new_game
from rules.state import GameConfig, State, make_config
from rules.story import Story, cells_changed, describe, kept, read_story
from rules.view import View, played_in_secret, told_to, view

# the draft is secret until everyone has kept their trolls; gates are told in a line
ANNOUNCE: dict[str, Announce] = {"draft": "secret", "gates": "brief"}


class MountainKingRules:
    """The rules engine behind the service protocol (checked path = `Game.play`
    semantics: apply to a copy, keep it only if nothing was refused)."""

    name = "mountain-king"

    def make_config(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return make_config(**options).model_dump(mode="json")

    def seat_count(self, config: Mapping[str, Any]) -> int:
        return _config(config).players

    def seat_labels(self, config: Mapping[str, Any]) -> tuple[str, ...]:
        return _config(config).seat_colours

    def new_state(self, config: Mapping[str, Any], seed: int) -> State:
        return new_game(_config(config), seed)

    def seat_teams(self, state: State) -> tuple[int | None, ...]:
        return tuple(p.team for p in state.players)

    def to_act(self, state: State) -> tuple[int, ...]:
        return tuple(steps.seats_to_act(state))

    def next_in_turn(self, state: State, seat: int) -> int | None:
        # turns go round the table in seat order (rules/engine.py `_end_turn`)
        if state.phase != "play" or state.turn is None or state.turn.seat != seat:
            return None
        if state.final_turns is not None and state.final_turns <= 1:
            return None
        return (seat + 1) % len(state.players)

    def phase(self, state: State) -> str:
        return state.phase

    def decision_seconds(self, state: State) -> int | None:
        return None  # every decision is a turn (the draft's too), on the table's clock

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
        engine.apply(state, seat, action)

    def can_undo(self, state: State, seat: int, last_seat: int | None) -> bool:
        return may_undo(state, seat, last_seat)

    def view(self, state: State, seat: int | None) -> View:
        return view(state, seat)

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def outcome(self, state: State) -> dict[str, Any] | None:
        if state.phase != "over":
            return None
        return final_outcome(state).to_json()

    def describe(self, state: State, seat: int, action: Action) -> dict[str, Any]:
        return describe(state, seat, action).to_json()

    def announce(self, state: State) -> Announce:
        return ANNOUNCE.get(state.phase, "full")

    def told_to(
        self, state: State, viewer: int | None, seat: int, story: StoryData
    ) -> StoryData | None:
        read = _story(story)
        if read is None:  # an English sentence of the oldest games: public
            return story
        told = told_to(state, viewer, seat, read)
        return None if told is None else told.to_json()

    def played_in_secret(self, story: StoryData) -> bool:
        read = _story(story)
        return read is not None and played_in_secret(read)

    def revealed(self, state: State, seat: int) -> dict[str, Any]:
        return kept(state, seat).to_json()

    def cells(self, action: Action) -> tuple[str, ...]:
        return cells_changed(action)

    def choose_action(self, state: State, seat: int, seed: int) -> Action:
        return choose_action(state, seat, random.Random(seed))

    def record(
        self, config: Mapping[str, Any], seed: int, moves: Sequence[tuple[int, str]]
    ) -> dict[str, Any]:
        colours = _config(config).seat_colours
        return {
            "config": dict(config),
            "seed": seed,
            "actions": [f"{colours[seat]} {text}" for seat, text in moves],
        }

    def record_outcome(self, record: Mapping[str, Any]) -> dict[str, Any] | None:
        outcome = game_from_record(dict(record)).outcome
        return None if outcome is None else outcome.to_json()

    def state_to_json(self, state: State) -> str:
        # every stored action writes the state and every act reads one: orjson writes
        # the state's dataclasses itself, the same text as `json.dumps(state.to_json())`
        # without spaces (tests/rules/test_state_json.py) in a twentieth of the time
        return orjson.dumps(state, default=_config_json, option=orjson.OPT_NON_STR_KEYS).decode()

    def state_from_json(self, text: str) -> State:
        data = orjson.loads(text)
        if not isinstance(data, dict):
            raise ValueError("a state must be a JSON object")
        return State.from_json(data)


MOUNTAIN_KING = MountainKingRules()


def _config_json(value: Any) -> Any:
    """The one value of a state orjson does not write itself: the config."""
    if isinstance(value, GameConfig):
        return value.model_dump(mode="json")
    raise TypeError(f"a state holds a {type(value).__name__}, which JSON cannot store")


def _story(story: StoryData) -> Story | None:
    """The rules' story stored as data; None for an older game's English sentence (or a
    story these rules do not read, told as it was stored)."""
    if isinstance(story, str):
        return None
    try:
        return read_story(story)
    except ValueError:
        return None


def _config(config: Mapping[str, Any]) -> GameConfig:
    return GameConfig.stored(dict(config))
