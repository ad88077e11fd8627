"""What happened in a turn, in words and cells, rebuilt from the game's log.

The service stores actions in notation; describing a recruit ("a level-2 Fire troll")
needs the state just before it, so the turn is replayed from the game's record.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.presenters import describe
from rules import engine
from rules.actions import cells_touched, parse_action
from rules.setup import new_game
from rules.state import GameConfig


@dataclass(frozen=True)
class TurnReport:
    seat: int
    sentences: tuple[str, ...]
    cells: tuple[str, ...]


def last_turn(
    config: dict[str, Any], seed: int, moves: Sequence[tuple[int, str]]
) -> TurnReport | None:
    """The actions of the seat that acted last, back to the previous turn's end, as
    sentences, with the board cells they changed. `moves` are (seat, notation)."""
    if not moves:
        return None
    seat = moves[-1][0]
    start = 1 + max((i for i, (_, text) in enumerate(moves[:-1]) if text == "end"), default=-1)
    state = new_game(GameConfig.model_validate(config), seed)
    sentences: list[str] = []
    cells: set[str] = set()
    for i, (s, text) in enumerate(moves):
        action = parse_action(text)
        if i >= start and s == seat:
            sentences.append(describe(action, state, s))
            cells |= cells_touched(action)
        engine.apply(state, s, action)
    return TurnReport(seat, tuple(sentences), tuple(sorted(cells)))
