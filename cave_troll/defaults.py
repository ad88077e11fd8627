"""The answers the table gives for a player who does not answer in time.

The only decision awaited from a player out of turn is Troll flight (l.120). Nobody
answering would leave every one of their pieces in the Troll's room to be discarded,
which punishes a slow player far more than the game does; so the default flees: every
piece that can flee does, the strongest first (in the rulebook's order of kinds:
Barbarian, Thief, Knight, Dwarf, Explorer, Wraith, Orc), each to the richest room it
may enter (an entrance, then the pit, only when no room is open to it; among equals the
first in the board's order).

    >>> from cave_troll.game import Game
    >>> default_answer(Game.new(players=2, seed=1).state)
    []
"""

from __future__ import annotations

from cave_troll import engine, flight
from cave_troll.actions import Action, Flee, Ref, Stay
from cave_troll.board import load_board
from cave_troll.content import KINDS
from cave_troll.state import State


def default_answer(state: State) -> list[Action]:
    """The answer of the player awaited in a Troll flight who does not answer (empty
    when no flight is running): actions the table plays for them, one by one."""
    if state.flight is None:
        return []
    trial = state.clone()
    seat = state.flight.queue[0]
    board = load_board()
    rank = {k: i for i, k in enumerate(KINDS)}
    answer: list[Action] = []
    while trial.flight is not None and trial.flight.queue[0] == seat:
        pieces = sorted(flight.can_flee(trial, seat), key=lambda p: (rank[p.kind], p.id))
        if not pieces:  # pragma: no cover - a seat with nothing to flee is never asked
            answer.append(Stay())
            break
        piece = pieces[0]
        to = min(
            flight.destinations(trial, piece),
            key=lambda d: (-board.value.get(d, 0), d == board.pit, board.order[d]),
        )
        action = Flee(Ref(piece.kind, piece.at, trial.cloaked(piece)), to)
        engine.apply(trial, seat, action)
        answer.append(action)
    return answer
