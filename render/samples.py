"""Sample positions for images: a seeded self-played game cut at a few points. Used by
`scripts/sample_images.py` (docs/images) and the reference-image tests."""

from __future__ import annotations

from dataclasses import dataclass

from render.board import Preview
from rules.actions import EndTurn, cells_touched
from rules.game import Game
from rules.selfplay import play_random_game
from rules.state import make_config
from rules.tunnels import placements
from rules.view import View, view

# display names for sample images: short, long (cut with an ellipsis) and an AI's
SAMPLE_NAMES = {
    0: "alice",
    1: "Bartholomew the Magnificent",
    2: "Heuristic AI",
    3: "dora",
    4: "WWWWWWWWWWWWWWWWWWWW",
}


@dataclass(frozen=True)
class Position:
    name: str
    view: View
    highlight: tuple[str, ...]
    seat: int  # the player whose pyramid to show (the one who just moved)


def sample_game(players: int = 4, seed: int = 7, teams: bool = False) -> Game:
    return play_random_game(make_config(players=players, teams=teams), seed)


def positions(game: Game, fractions: tuple[float, ...] = (0.2, 0.55)) -> list[Position]:
    """The game after the turn ending nearest each fraction of its turns, and at the
    end, each seen by the player who just moved."""
    ends = [i for i, m in enumerate(game.moves) if isinstance(m.action, EndTurn)]
    cuts = [ends[min(len(ends) - 1, int(len(ends) * f))] for f in fractions] + [len(game.moves) - 1]
    names = ["early", "middle", "end"] if len(cuts) == 3 else [f"cut{i}" for i in range(len(cuts))]
    out = []
    for name, cut in zip(names, cuts, strict=True):
        partial = Game(game.config, game.seed, game.moves[: cut + 1])
        last = partial.last_turn_moves()
        cells = sorted({c for m in last for c in cells_touched(m.action)})
        seat = last[-1].seat if last else 0
        out.append(Position(name, view(partial.state, seat), tuple(cells), seat))
    return out


def turn_with_changes(game: Game, fraction: float = 0.55) -> Position:
    """The game after the first turn, from `fraction` of its turns on, that changed
    cells on the board (a turn post's close-up shows them)."""
    ends = [i for i, m in enumerate(game.moves) if isinstance(m.action, EndTurn)]
    for cut in ends[int(len(ends) * fraction) :]:
        partial = Game(game.config, game.seed, game.moves[: cut + 1])
        last = partial.last_turn_moves()
        cells = sorted({c for m in last for c in cells_touched(m.action)})
        if cells:
            seat = last[-1].seat
            return Position("turn", view(partial.state, seat), tuple(cells), seat)
    raise ValueError("no turn from there on changed the board")


def dig_preview(game: Game, cut: int) -> tuple[View, Preview, Preview]:
    """A position and two candidate tunnels for the current player: a legal one and an
    illegal one (the legal shape moved onto a taken cell)."""
    partial = Game(game.config, game.seed, game.moves[:cut])
    state = partial.state
    seat = state.current_seat if state.current_seat is not None else 0
    place = next(iter(placements(state, seat)))
    legal = Preview(place.cells, True, None, place.anchor)
    taken = next(c for p in state.board.pieces for c in p.cells)
    illegal = Preview((taken, *place.cells[1:]), False, taken, None)
    return view(state, seat), legal, illegal
