"""A game as `(config, seed, actions)`, with the checked path players use.

    >>> from rules.game import Game
    >>> g = Game.new(players=2, seed=7)
    >>> g.state.phase
    'draft'

`Game.play(seat, action)` validates on a copy and only then keeps the new state, so an
illegal action changes nothing. `Game.undo()` takes back the current player's last
action within their turn, never past an action that revealed a hidden card. Records
are JSON: `{"config": {...}, "seed": n, "actions": ["blue keep blue-3 A2", ...]}`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from rules import engine
from rules.actions import Action, EndTurn, parse_action
from rules.errors import NotationError, RulesError, UndoError
from rules.scoring import Outcome, final_outcome
from rules.setup import new_game
from rules.state import GameConfig, State, make_config


@dataclass
class Move:
    """An action together with the seat that took it."""

    seat: int
    action: Action


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

    # --- playing ---------------------------------------------------------------------

    def play(self, seat: int, action: Action | str) -> None:
        """Apply an action (a value or its notation) by `seat`; on any error nothing
        changes and the `RulesError` says why."""
        if isinstance(action, str):
            action = parse_action(action)
        trial = self.state.clone()
        engine.apply(trial, seat, action)
        self.state = trial
        self.moves.append(Move(seat, action))

    def can_undo(self, seat: int) -> bool:
        turn = self.state.turn
        return (
            turn is not None
            and turn.seat == seat
            and self.state.n_actions > turn.undo_floor
            and bool(self.moves)
            and self.moves[-1].seat == seat
        )

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
        raise NotationError("A record is a JSON object with config, seed and actions.")
    if not isinstance(record["config"], dict):
        raise NotationError("The record's config must be an object.")
    config = make_config(**record["config"])
    seed = record["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise NotationError("The record's seed must be an integer.")
    if not isinstance(record["actions"], list):
        raise NotationError("The record's actions must be a list.")
    return Game(config, seed, parse_moves(config, record["actions"]))
