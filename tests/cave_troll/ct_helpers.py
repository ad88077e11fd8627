"""Helpers for the Cave Troll tests: scenes set up piece by piece, refusals checked to
change nothing, and `quotes`, the mark a rule's test carries: the line of the Polish
rulebook it enforces and the words it quotes (test_ct_rulebook.py checks every quote
against the rulebook and that every rule line has a test)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TypeVar

import pytest

from cave_troll.actions import Action
from cave_troll.errors import CaveTrollError
from cave_troll.game import Game
from cave_troll.legal import legal_actions
from cave_troll.state import Mark, Piece, Treasure, Turn

RULEBOOK = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "cave-troll-rules-pl.txt"
COLOURS = ("blue", "orange", "green", "magenta")

F = TypeVar("F", bound=Callable[..., object])


def quotes(line: int, text: str) -> Callable[[F], F]:
    """Mark a test as enforcing what line `line` of the Polish rulebook says in `text`
    (its words as printed, `*` emphasis left out or kept)."""

    def mark(test: F) -> F:
        return test

    return mark


def rulebook_lines() -> list[str]:
    """The Polish rulebook's lines (index 0 is line 1); skips without it."""
    if not RULEBOOK.exists():
        pytest.skip("the Cave Troll rulebook is not beside the project")
    return RULEBOOK.read_text(encoding="utf-8").split("\n")


def folded(text: str) -> str:
    """Text as quotes are compared: emphasis marks dropped, whitespace folded."""
    return " ".join(text.replace("*", "").split())


def seat(colour: str) -> int:
    return COLOURS.index(colour)


def scene(
    players: int = 2,
    *,
    pieces: Iterable[tuple[str, str, str]] = (),
    treasures: Iterable[tuple[str, str]] = (),
    marks: Iterable[tuple[str, str]] = (),
    to_move: str = "blue",
    actions: int = 4,
    stacks: Mapping[str, list[str]] | None = None,
    artifacts: Mapping[str, list[str]] | None = None,
    pile: list[str] | None = None,
) -> Game:
    """A game past its first round, set up as given: `pieces` as (colour, kind, place),
    `treasures` and `marks` as (colour, room), `to_move` with `actions` left, stacks
    given top last (the others as dealt), artifacts held, the artifact pile (top last)."""
    game = Game.new(players=players, seed=1)
    state = game.state
    state.pieces = [
        Piece(i + 1, seat(colour), kind, at) for i, (colour, kind, at) in enumerate(pieces)
    ]
    state.treasures = [
        Treasure(100 + i, seat(colour), room) for i, (colour, room) in enumerate(treasures)
    ]
    state.marks = [Mark(room, seat(colour)) for colour, room in marks]
    state.next_id = 200
    state.turns = players
    state.turn = Turn(seat(to_move), actions)
    for colour, stack in (stacks or {}).items():
        state.players[seat(colour)].stack = list(stack)
    for colour, held in (artifacts or {}).items():
        state.players[seat(colour)].artifacts = list(held)
    if pile is not None:
        state.artifact_pile = list(pile)
    return game


def at(game: Game, colour: str, kind: str) -> list[str]:
    """Where `colour`'s pieces of `kind` are, sorted."""
    return sorted(p.at for p in game.state.pieces if p.owner == seat(colour) and p.kind == kind)


def in_place(game: Game, place: str) -> list[tuple[str, str]]:
    """(colour, kind) of every piece in `place`, sorted."""
    return sorted((COLOURS[p.owner], p.kind) for p in game.state.pieces if p.at == place)


def refused(game: Game, colour: str, action: Action | str, code: str) -> CaveTrollError:
    """`action` is refused with `code`, nothing changes, and the legal listing agrees."""
    before = game.state.to_json()
    with pytest.raises(CaveTrollError) as info:
        game.play(seat(colour), action)
    assert info.value.code == code, info.value.message
    assert game.state.to_json() == before
    if not isinstance(action, str):
        assert action not in legal_actions(game.state, seat(colour))
    return info.value


def played(game: Game, colour: str, *actions: Action | str) -> None:
    """Play the actions (each must be legal and listed)."""
    for action in actions:
        who = seat(colour)
        text = str(action)
        assert text in {str(a) for a in legal_actions(game.state, who)}, text
        game.play(who, action)
