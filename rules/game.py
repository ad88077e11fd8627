"""A game as `(config, seed, actions)`, with the checked path players use.

    >>> from rules.game import Game
    >>> g = Game.new(players=2, seed=7)
    >>> g.state.phase
    'gates'

`Game.play(seat, action)` validates on a copy and only then keeps the new state, so an
illegal action changes nothing. `Game.undo()` takes back the current player's last
action within their turn, never past an action that revealed a hidden card.
`Game.replay_trusted` rebuilds a game from moves known to be legal (self-play) without
checking them again: everything else replays through the checks. Records
are JSON: `{"config": {...}, "seed": n, "actions": ["blue keep blue-3 A2", ...]}`.

Records from outside are bounded before any work is done (`record_from_bytes`,
`game_from_record`): size, nesting depth, digits of every number, the number and
length of the actions, and the type of each field, each refused with a `RecordError`
sentence.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any

from rules import engine
from rules.actions import MAX_ACTION_LENGTH, Action, EndTurn, parse_action
from rules.errors import NotationError, RecordError, RulesError, UndoError
from rules.scoring import Outcome, final_outcome
from rules.setup import new_game
from rules.state import GameConfig, State, make_config, stored_config

# A finished 5-player game's record is about 7 KB (229 actions, the longest 89
# characters); 1 MB leaves more than a hundredfold margin and parses in milliseconds.
MAX_RECORD_BYTES = 1_000_000
# a record is an object holding a config object holding lists: depth 3
MAX_RECORD_DEPTH = 16
# a 5-player game takes about 230 actions
MAX_RECORD_ACTIONS = 20_000
# seeds are stored as SQLite's signed 64-bit integers
SEED_MIN, SEED_MAX = -(2**63), 2**63 - 1
# "-9223372036854775808" has 20 characters: no number in a record needs more
_MAX_NUMBER_CHARS = 20
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_BRACKET_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


@dataclass
class Move:
    """An action together with the seat that took it."""

    seat: int
    action: Action


def may_undo(state: State, seat: int, last_seat: int | None) -> bool:
    """Whether `seat` may take back the log's last action, played by `last_seat` (None:
    none yet): only its own action, in its own turn, and not past one that revealed
    something (the turn's undo floor)."""
    turn = state.turn
    return (
        turn is not None
        and turn.seat == seat
        and state.n_actions > turn.undo_floor
        and last_seat == seat
    )


@dataclass
class Game:
    config: GameConfig
    seed: int
    moves: list[Move] = field(default_factory=list)
    state: State = field(init=False)

    def __post_init__(self) -> None:
        self.state = new_game(self.config, self.seed)
        moves, self.moves = self.moves, []
        for i, move in enumerate(moves):
            try:
                engine.apply(self.state, move.seat, move.action)
            except RulesError as exc:
                raise ReplayError(i, move, exc) from None
            self.moves.append(move)

    @classmethod
    def new(cls, *, seed: int, **options: Any) -> Game:
        return cls(make_config(**options), seed)

    @classmethod
    def replay_trusted(cls, config: GameConfig, seed: int, moves: Sequence[Move]) -> Game:
        """The game after `moves` that are known to be legal (a self-played game's, or
        a game's that were checked when played), replayed without checking them again
        (`engine.apply_trusted`). Moves from a player, a record or a store go through
        `Game(config, seed, moves)` or `game_from_record`, which check each one."""
        game = cls(config, seed)
        for move in moves:
            engine.apply_trusted(game.state, move.seat, move.action)
        game.moves = list(moves)
        return game

    # --- playing ---------------------------------------------------------------------

    def play(self, seat: int, action: Action | str) -> None:
        """Apply an action (a value or its notation) by `seat`; on any error nothing
        changes and the `RulesError` says why."""
        if isinstance(action, str):
            action = engine.read(self.state, seat, action)
        trial = self.state.clone()
        engine.apply(trial, seat, action)
        self.state = trial
        self.moves.append(Move(seat, action))

    def can_undo(self, seat: int) -> bool:
        return may_undo(self.state, seat, self.moves[-1].seat if self.moves else None)

    def undo(self, seat: int) -> Move:
        """Take back `seat`'s last action of this turn (replays the shortened log)."""
        if not self.can_undo(seat):
            raise UndoError(
                "Nothing to undo: you can only take back your own actions in this turn,"
                " and not past one that revealed a card."
            )
        last = self.moves[-1]
        rebuilt = Game(self.config, self.seed, self.moves[:-1])
        self.state, self.moves = rebuilt.state, rebuilt.moves
        return last

    def last_turn_moves(self) -> list[Move]:
        """The moves of the most recently ended turn (for "what happened")."""
        ends = [i for i, m in enumerate(self.moves) if isinstance(m.action, EndTurn)]
        if not ends:
            return []
        start = ends[-2] + 1 if len(ends) > 1 else 0
        return [m for m in self.moves[start : ends[-1] + 1] if m.seat == self.moves[ends[-1]].seat]

    @property
    def outcome(self) -> Outcome | None:
        return final_outcome(self.state) if self.state.phase == "over" else None

    # --- records ---------------------------------------------------------------------

    def colour(self, seat: int) -> str:
        return self.state.players[seat].colour

    def record(self) -> dict[str, Any]:
        return {
            "config": self.config.model_dump(mode="json"),
            "seed": self.seed,
            "actions": [f"{self.colour(m.seat)} {m.action}" for m in self.moves],
        }

    def record_json(self) -> str:
        return json.dumps(self.record(), indent=1)


class ReplayError(RulesError):
    """An action in a record could not be applied."""

    code = "replay"

    def __init__(self, index: int, move: Move | None, cause: RulesError | str) -> None:
        what = f" ({move.action})" if move is not None else ""
        super().__init__(f"Action {index}{what}: {cause}")
        self.index = index
        self.cause = cause


def parse_moves(config: GameConfig, lines: list[str]) -> list[Move]:
    seats = {colour: seat for seat, colour in enumerate(config.seat_colours)}
    moves = []
    for i, line in enumerate(lines):
        if not isinstance(line, str):
            raise ReplayError(i, None, "an action must be text")
        if len(line) > MAX_ACTION_LENGTH + 20:  # the colour and a space first
            raise ReplayError(i, None, f"an action is at most {MAX_ACTION_LENGTH} characters")
        colour, _, text = line.partition(" ")
        if colour not in seats:
            raise ReplayError(i, None, f"{colour!r} is not a player colour in this game")
        try:
            moves.append(Move(seats[colour], parse_action(text)))
        except NotationError as exc:
            raise ReplayError(i, None, exc) from None
    return moves


def game_from_record(record: Any) -> Game:
    """Rebuild a game from a record (dict); raises `RulesError` on any problem."""
    if not isinstance(record, dict) or not {"config", "seed", "actions"} <= set(record):
        raise RecordError("A record is a JSON object with config, seed and actions.")
    if not isinstance(record["config"], dict):
        raise RecordError("The record's config must be an object.")
    if not all(isinstance(key, str) for key in record["config"]):
        raise RecordError("The record's config must be an object with text keys.")
    seed = record["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError("The record's seed must be an integer.")
    if not SEED_MIN <= seed <= SEED_MAX:
        raise RecordError(
            f"The record's seed must be an integer from {SEED_MIN} to {SEED_MAX}"
            " (a signed 64-bit number)."
        )
    actions = record["actions"]
    if not isinstance(actions, list):
        raise RecordError("The record's actions must be a list.")
    if len(actions) > MAX_RECORD_ACTIONS:
        raise RecordError(
            f"The record has {len(actions)} actions; a record holds at most"
            f" {MAX_RECORD_ACTIONS} (a whole game takes a few hundred)."
        )
    config = stored_config(record["config"])
    return Game(config, seed, parse_moves(config, actions))


def record_from_bytes(data: bytes) -> Any:
    """Decode a record's JSON text, refusing (with a `RecordError` sentence) more than
    `MAX_RECORD_BYTES`, bytes that are not UTF-8, nesting deeper than
    `MAX_RECORD_DEPTH` and numbers longer than 20 characters, each before parsing."""
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(record_too_large(len(data)))
    try:
        text = data.decode("utf-8-sig")  # strict; a leading byte-order mark is allowed
    except UnicodeDecodeError as exc:
        raise RecordError(
            f"The record is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset"
            f" {exc.start}); is it a game record?"
        ) from None
    check_json_depth(text)
    try:
        return json.loads(
            text,
            parse_int=_bounded_int,
            parse_float=_bounded_float,
            parse_constant=_no_constant,
        )
    except json.JSONDecodeError as exc:
        raise RecordError(
            f"The record is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})."
        ) from None


def record_too_large(size: int | None = None) -> str:
    """The sentence refusing a record of `size` bytes (None: more than the limit)."""
    what = f"{size:,} bytes" if size is not None else f"more than {MAX_RECORD_BYTES:,} bytes"
    return (
        f"The record is {what}; records are at most {MAX_RECORD_BYTES:,} bytes"
        " (a finished 5-player game takes about 7 KB)."
    )


def check_json_depth(text: str) -> None:
    """Refuse JSON nested deeper than `MAX_RECORD_DEPTH` before `json.loads` recurses
    into it: drop the strings and everything but brackets, then take the deepest
    running count (C iterators: milliseconds for a megabyte)."""
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    if len(brackets) <= MAX_RECORD_DEPTH:
        return
    deepest = max(accumulate(map(_BRACKET_STEP.__getitem__, brackets)))
    if deepest > MAX_RECORD_DEPTH:
        raise RecordError(
            f"The record is nested more than {MAX_RECORD_DEPTH} levels deep; a game record needs 3."
        )


def _bounded_int(text: str) -> int:
    if len(text) > _MAX_NUMBER_CHARS:
        raise RecordError(
            f"The record holds a number of {len(text)} characters; numbers in a record have"
            f" at most {_MAX_NUMBER_CHARS}."
        )
    return int(text)


def _bounded_float(text: str) -> float:
    if len(text) > _MAX_NUMBER_CHARS:
        raise RecordError(
            f"The record holds a number of {len(text)} characters; numbers in a record have"
            f" at most {_MAX_NUMBER_CHARS}."
        )
    return float(text)


def _no_constant(text: str) -> Any:
    raise RecordError(f"The record holds {text}, which is not a JSON number.")
