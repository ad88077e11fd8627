"""Every legal action of a decision, in a stable order.

`legal_actions(state, seat)` lists them kind by kind in `KINDS` order (what must come
first, `place`, `send`, `flee` and `stay`, before the turn's own actions), each kind in
the board's order of places and the rulebook's order of kinds. Pieces alike (same
owner, kind, place, cloaked or not) are one piece here as in the notation. The listing
is exactly what `cave_troll.engine.apply` accepts, which the tests check both ways.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from cave_troll import flight, turns
from cave_troll.actions import (
    KINDS,
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
    Ref,
    Send,
    Stay,
)
from cave_troll.artifacts import chalice_pieces, send_destinations
from cave_troll.board import load_board
from cave_troll.content import ADVENTURERS, ARTIFACTS, load_content
from cave_troll.engine import move_refusal, place_refusal
from cave_troll.moves import Census, census, distinct, paths, push_destinations
from cave_troll.state import Piece, State


def legal_actions(state: State, seat: int | None = None, kind: str | None = None) -> list[Action]:
    """Every legal action of `seat` (default: the seat awaited), optionally of one kind."""
    if seat is None:
        waiting = turns.to_act(state)
        if not waiting:
            return []
        seat = waiting[0]
    out: list[Action] = []
    c = census(state)
    for k in KINDS if kind is None else (kind,):
        if turns.allows(state, seat, k):
            out.extend(_GENERATORS[k](state, seat, c))
    return out


def legal_kinds(state: State, seat: int) -> list[str]:
    """The kinds of action `seat` could take now, in `KINDS` order."""
    c = census(state)
    return [
        k for k in KINDS if turns.allows(state, seat, k) and any(_GENERATORS[k](state, seat, c))
    ]


def own_ref(state: State, piece: Piece) -> Ref:
    return Ref(piece.kind, piece.at, state.cloaked(piece))


def target_ref(state: State, piece: Piece) -> Ref:
    return Ref(piece.kind, piece.at, state.cloaked(piece), state.colour(piece.owner))


def _place(state: State, seat: int, c: Census) -> Iterator[Action]:
    assert state.turn is not None and state.turn.placing is not None
    token = state.turn.placing
    board = load_board()
    # the places it could go (the refusal decides): entrances for an adventurer, else rooms
    candidates = board.entrances if token in ADVENTURERS else board.rooms
    for at in candidates:
        if place_refusal(state, token, at) is None:
            yield Place(at)


def _send(state: State, seat: int, c: Census) -> Iterator[Action]:
    assert state.turn is not None and state.turn.chalice is not None
    for piece in distinct(state, chalice_pieces(state, seat, state.turn.chalice)):
        for to in send_destinations(state, piece, c):
            yield Send(own_ref(state, piece), to)


def _flee(state: State, seat: int, c: Census) -> Iterator[Action]:
    for piece in distinct(state, flight.can_flee(state, seat)):
        for to in flight.destinations(state, piece, c):
            yield Flee(own_ref(state, piece), to)


def _stay(state: State, seat: int, c: Census) -> Iterator[Action]:
    yield Stay()


def _draw(state: State, seat: int, c: Census) -> Iterator[Action]:
    if state.players[seat].stack:
        yield Draw()


def _move(state: State, seat: int, c: Census) -> Iterator[Action]:
    mine = [p for p in state.pieces if p.owner == seat and p.kind != "troll"]
    for piece in distinct(state, mine):
        yield from moves_of(state, seat, piece, c)


def moves_of(state: State, seat: int, piece: Piece, c: Census | None = None) -> Iterator[Move]:
    """The legal moves of one of `seat`'s pieces."""
    board = load_board()
    c = c or census(state)
    ref = own_ref(state, piece)
    options: list[tuple[str, ...]]
    if piece.kind == "thief":
        options = [(d,) for d in board.locations if d != piece.at]
    elif state.cloaked(piece):
        options = paths(state, piece, load_content().text.cloak_steps, cloaked=True, c=c)
    else:
        options = [(d,) for d in board.steps[piece.at]]
    for path in options:
        if move_refusal(state, seat, piece, path, c) is None:
            yield Move(ref, path)


def _push(state: State, seat: int, c: Census) -> Iterator[Action]:
    assert state.turn is not None
    must = state.turn.must_push
    wraiths = {p.at for p in state.pieces if p.owner == seat and p.kind == "wraith"}
    targets = [
        p
        for p in state.pieces
        if p.at in wraiths and p.kind in ADVENTURERS and (must is None or p.at == must)
    ]
    for target in distinct(state, targets):
        for to in push_destinations(state, target, c):
            yield Push(target_ref(state, target), to)


def _kill(state: State, seat: int, c: Census) -> Iterator[Action]:
    orcs = {p.at for p in state.pieces if p.owner == seat and p.kind == "orc"}
    targets = [p for p in state.pieces if p.at in orcs and p.kind in ADVENTURERS]
    for target in distinct(state, targets):
        yield Kill(target_ref(state, target))


def _play(state: State, seat: int, c: Census) -> Iterator[Action]:
    held = state.players[seat].artifacts
    for artifact in ARTIFACTS:
        if artifact in held:
            yield from plays_of(state, seat, artifact, c=c)


def plays_of(
    state: State, seat: int, artifact: str, target: Piece | None = None, c: Census | None = None
) -> Iterator[Action]:
    """The legal ways to play `artifact` (held by `seat`); for the Helm, only on
    `target` when one is given."""
    board = load_board()
    c = c or census(state)
    if artifact == "helm":
        theirs = [p for p in state.pieces if p.owner != seat and p.kind != "troll"]
        for piece in distinct(state, theirs) if target is None else [target]:
            for path in paths(state, piece, load_content().text.helm_steps, c=c):
                yield PlayHelm(target_ref(state, piece), path)
    elif artifact == "chalice":
        for at in (*board.entrances, *board.rooms):
            mine = chalice_pieces(state, seat, at)
            if any(send_destinations(state, p, c) for p in mine):
                yield PlayChalice(at)
    elif artifact == "eldarra":
        for room in board.rooms:
            if not (
                any(p.at == room for p in state.pieces)
                or any(t.room == room for t in state.treasures)
                or state.marked(room)
            ):
                yield PlayEldarra(room)
    elif artifact == "wand":
        for room in board.rooms:
            yield PlayWand(room)
    elif artifact == "cloak":
        mine = [
            p
            for p in state.pieces
            if p.owner == seat and p.kind in ADVENTURERS and not state.cloaked(p)
        ]
        for piece in distinct(state, mine):
            yield PlayCloak(own_ref(state, piece))
    else:
        for room in board.rooms:
            here = [p for p in state.pieces if p.at == room]
            if any(p.kind == "orc" for p in here) and any(
                p.owner == seat and p.kind in ADVENTURERS for p in here
            ):
                yield PlaySword(room)


def _end(state: State, seat: int, c: Census) -> Iterator[Action]:
    yield EndTurn()


_GENERATORS: dict[str, Callable[[State, int, Census], Iterator[Action]]] = {
    "place": _place,
    "send": _send,
    "flee": _flee,
    "stay": _stay,
    "draw": _draw,
    "move": _move,
    "push": _push,
    "kill": _kill,
    "play": _play,
    "end": _end,
}
assert tuple(_GENERATORS) == KINDS
