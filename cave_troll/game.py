"""A game as `(config, seed, actions)`, with the checked path players use.

    >>> g = Game.new(players=3, seed=1)
    >>> seat = g.to_act[0]
    >>> [type(fact).__name__ for fact in g.play(seat, "draw")]  # an Orc, into the pit
    ['Entered']
    >>> len(g.state.players[seat].stack), g.record()["actions"]
    (19, ['blue draw'])

`Game.play(seat, action)` tries the action on a copy and keeps the copy only if it was
legal, so a refusal changes nothing. `Game.undo(seat)` takes back the seat's last action
while it is still that seat's to act, never past a draw (a token revealed) nor past a
moment another player acted. Records are JSON, `{"game": "cave-troll", "config": {...},
"seed": n, "actions": ["blue draw", "blue place NW", ...]}`; a record from outside is
bounded before any work is done (size, nesting, numbers, actions).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any

from cave_troll import engine, turns
from cave_troll.actions import MAX_ACTION_LENGTH, Action, parse_action
from cave_troll.effects import Effect
from cave_troll.errors import CaveTrollError, NotationError, RecordError, UndoError, echo
from cave_troll.scoring import Outcome, final_outcome
from cave_troll.state import CaveTrollConfig, State, make_config, new_game

GAME_ID = "cave-troll"
# a finished 4-player game's record is about 10 KB; 1 MB leaves a hundredfold margin
MAX_RECORD_BYTES = 1_000_000
MAX_RECORD_DEPTH = 16
MAX_RECORD_ACTIONS = 20_000
SEED_MIN, SEED_MAX = -(2**63), 2**63 - 1
_MAX_NUMBER_CHARS = 20
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_BRACKET_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


@dataclass(frozen=True)
class Move:
    """An action together with the seat that took it."""

    seat: int
    action: Action


@dataclass
class Game:
    config: CaveTrollConfig
    seed: int
    moves: list[Move] = field(default_factory=list)
    state: State = field(init=False)

    def __post_init__(self) -> None:
        self.state = new_game(self.config, self.seed)
        moves, self.moves = self.moves, []
        for i, move in enumerate(moves):
            try:
                engine.apply(self.state, move.seat, move.action)
            except CaveTrollError as exc:
                raise ReplayError(i, move, exc) from None
            self.moves.append(move)

    @classmethod
    def new(cls, *, seed: int, **options: Any) -> Game:
        return cls(make_config(**options), seed)

    @classmethod
    def replay_trusted(cls, config: CaveTrollConfig, seed: int, moves: Sequence[Move]) -> Game:
        """The game after `moves` known to be legal, without the moment's checks."""
        game = cls(config, seed)
        for move in moves:
            engine.apply_trusted(game.state, move.seat, move.action)
        game.moves = list(moves)
        return game

    @property
    def to_act(self) -> tuple[int, ...]:
        return turns.to_act(self.state)

    def play(self, seat: int, action: Action | str) -> list[Effect]:
        """Apply an action (a value or its notation) by `seat`; on any refusal nothing
        changes and the `CaveTrollError` says why. Returns what it did."""
        if isinstance(action, str):
            action = engine.read(self.state, seat, action)
        trial = self.state.clone()
        fx = engine.apply(trial, seat, action)
        self.state = trial
        self.moves.append(Move(seat, action))
        return fx

    def can_undo(self, seat: int) -> bool:
        return may_undo(self.state, seat, self.moves[-1].seat if self.moves else None)

    def undo(self, seat: int) -> Move:
        """Take back `seat`'s last action (replays the shortened log)."""
        if not self.can_undo(seat):
            raise UndoError(
                "Nothing to undo: you can take back only your own actions while it is still"
                " yours to act, and never a draw or what came before it."
            )
        last = self.moves[-1]
        rebuilt = Game.replay_trusted(self.config, self.seed, self.moves[:-1])
        self.state, self.moves = rebuilt.state, rebuilt.moves
        return last

    @property
    def outcome(self) -> Outcome | None:
        return final_outcome(self.state) if self.state.phase == "over" else None

    def colour(self, seat: int) -> str:
        return self.state.colour(seat)

    def record(self) -> dict[str, Any]:
        return {
            "game": GAME_ID,
            "config": self.config.model_dump(mode="json"),
            "seed": self.seed,
            "actions": [f"{self.colour(m.seat)} {m.action}" for m in self.moves],
        }

    def record_json(self) -> str:
        return json.dumps(self.record(), indent=1)


def may_undo(state: State, seat: int, last_seat: int | None) -> bool:
    """Whether `seat` may take back the log's last action, played by `last_seat` (None:
    none yet): only its own, while it is still that seat's alone to act, and not past
    a draw, another seat's moment, nor the start or end of a Troll flight (the state's
    undo floor)."""
    return (
        last_seat == seat and turns.to_act(state) == (seat,) and state.n_actions > state.undo_floor
    )


class ReplayError(CaveTrollError):
    """An action of a record could not be read or played: its index and the reason."""

    code = "replay"

    def __init__(self, index: int, move: Move | None, cause: CaveTrollError | str) -> None:
        what = f" ({move.action})" if move is not None else ""
        super().__init__("Action {index}{what}: {cause}", None, index=index, what=what, cause=cause)
        self.index = index
        self.cause = cause


def parse_moves(config: CaveTrollConfig, lines: list[Any]) -> list[Move]:
    seats = {colour: seat for seat, colour in enumerate(config.seat_colours)}
    moves = []
    for i, line in enumerate(lines):
        if not isinstance(line, str):
            raise ReplayError(i, None, "an action must be text")
        if len(line) > MAX_ACTION_LENGTH + 20:
            raise ReplayError(i, None, f"an action is at most {MAX_ACTION_LENGTH} characters")
        colour, _, text = line.partition(" ")
        if colour not in seats:
            raise ReplayError(i, None, f"{echo(colour)} is not a colour of this game")
        try:
            moves.append(Move(seats[colour], parse_action(text)))
        except NotationError as exc:
            raise ReplayError(i, None, exc) from None
    return moves


def game_from_record(record: Any) -> Game:
    """Rebuild a game from a record (a dict), every action checked; raises a
    `CaveTrollError` saying what is wrong."""
    if not isinstance(record, dict) or not {"config", "seed", "actions"} <= set(record):
        raise RecordError("A record is a JSON object with config, seed and actions.")
    if record.get("game", GAME_ID) != GAME_ID:
        raise RecordError("This is not a record of Cave Troll.")
    if not isinstance(record["config"], dict):
        raise RecordError("The record's config must be an object.")
    seed = record["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool) or not SEED_MIN <= seed <= SEED_MAX:
        raise RecordError("The record's seed must be a signed 64-bit integer.")
    actions = record["actions"]
    if not isinstance(actions, list):
        raise RecordError("The record's actions must be a list.")
    if len(actions) > MAX_RECORD_ACTIONS:
        raise RecordError(
            "The record has {count} actions; a record holds at most {limit}.",
            count=len(actions),
            limit=MAX_RECORD_ACTIONS,
        )
    config = make_config(**record["config"])
    return Game(config, seed, parse_moves(config, actions))


def record_from_bytes(data: bytes) -> Any:
    """A record's JSON, refusing more than `MAX_RECORD_BYTES`, text that is not UTF-8,
    nesting deeper than `MAX_RECORD_DEPTH` and numbers of more than 20 characters,
    each before parsing."""
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(
            "The record is {size} bytes; records are at most {limit} bytes.",
            size=len(data),
            limit=MAX_RECORD_BYTES,
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RecordError(
            "The record is not UTF-8 text (offset {offset}).", offset=exc.start
        ) from None
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    if brackets and max(accumulate(map(_BRACKET_STEP.__getitem__, brackets))) > MAX_RECORD_DEPTH:
        raise RecordError(
            "The record is nested more than {depth} levels deep.", depth=MAX_RECORD_DEPTH
        )
    try:
        return json.loads(
            text, parse_int=_bounded_int, parse_float=_bounded_float, parse_constant=_no_constant
        )
    except json.JSONDecodeError as exc:
        raise RecordError(
            "The record is not valid JSON: {msg} (line {line}).", msg=exc.msg, line=exc.lineno
        ) from None


def _bounded_int(text: str) -> int:
    if len(text) > _MAX_NUMBER_CHARS:
        raise RecordError("The record holds a number of {length} characters.", length=len(text))
    return int(text)


def _bounded_float(text: str) -> float:
    if len(text) > _MAX_NUMBER_CHARS:
        raise RecordError("The record holds a number of {length} characters.", length=len(text))
    return float(text)


def _no_constant(text: str) -> Any:
    raise RecordError("The record holds {text}, which is not a JSON number.", text=text)
