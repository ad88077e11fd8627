"""Troll flight (l.120), the one decision taken out of turn.

A Cave Troll drawn is placed in any room, even one a Knight guards. Then, beginning
with the player on the placer's left and going round to the placer last, each player
with adventurers or monsters in that room chooses which of them flee, each by a door to
a place it may enter (`flee`), and lets the rest stay (`stay`). What is left in the room
is discarded, Treasure and a Mark of El'darra too. A player none of whose pieces could
flee anywhere is not asked. A flight is a plain step: no Thief's leap, no Wraith into a
full room, no Cloak; a Knight fleeing into Orcs discards them.

The answer the table gives for a player who does not answer is in
`cave_troll.defaults`.
"""

from __future__ import annotations

from cave_troll.actions import Flee
from cave_troll.board import load_board
from cave_troll.effects import Discarded, Effect, FlightBegins, TokenFact
from cave_troll.errors import IllegalActionError
from cave_troll.moves import Census, census, discard, entry_block, entry_refusal, own_piece, walk
from cave_troll.scoring import end_game
from cave_troll.state import Flight, Piece, State, Token


def begin(state: State, placer: int, troll: Piece, fx: list[Effect]) -> None:
    room = troll.at
    order = [(placer + i) % state.n for i in range(1, state.n + 1)]
    queue = [s for s in order if any(p.owner == s and p.at == room for p in _fleeing(state, room))]
    state.flight = Flight(room=room, troll=troll.id, queue=queue)
    fx.append(FlightBegins(room=room, colours=tuple(state.colour(s) for s in queue)))
    _advance(state, fx)


def _fleeing(state: State, room: str) -> list[Piece]:
    """The pieces in `room` that may flee (every one but a Cave Troll)."""
    return [p for p in state.pieces if p.at == room and p.kind != "troll"]


def destinations(state: State, piece: Piece, c: Census | None = None) -> list[str]:
    """Where `piece` may flee: through a door to a place it may enter."""
    c = c or census(state)
    return [d for d in load_board().doors[piece.at] if entry_block(c, piece, d) is None]


def can_flee(state: State, seat: int) -> list[Piece]:
    """`seat`'s pieces in the Troll's room that could flee somewhere."""
    assert state.flight is not None
    c = census(state)
    return [
        p
        for p in _fleeing(state, state.flight.room)
        if p.owner == seat and destinations(state, p, c)
    ]


def flee(state: State, seat: int, action: Flee, fx: list[Effect]) -> None:
    assert state.flight is not None
    room = state.flight.room
    ref = action.piece
    if ref.at != room:
        raise IllegalActionError(
            "Only your pieces in {room} flee the Cave Troll.", "flee_elsewhere", room=room
        )
    piece = own_piece(state, seat, ref.kind, ref.at, ref.cloaked)
    if piece.kind == "troll":
        raise IllegalActionError("A Cave Troll never moves once placed.", "troll_moves")
    if action.to not in load_board().doors[room]:
        raise IllegalActionError(
            "No door leads from {start} to {place}.", "no_door", start=room, place=action.to
        )
    refused = entry_refusal(state, piece, action.to)
    if refused is not None:
        raise refused.error()
    walk(state, piece, (action.to,), fx)
    _advance(state, fx)


def stay(state: State, seat: int, fx: list[Effect]) -> None:
    assert state.flight is not None and state.flight.queue[0] == seat
    state.flight.queue.pop(0)
    _advance(state, fx)


def _advance(state: State, fx: list[Effect]) -> None:
    """Pass over the players with nothing left that could flee; once nobody is left to
    answer, the Troll discards what stayed."""
    flight = state.flight
    assert flight is not None
    while flight.queue and not can_flee(state, flight.queue[0]):
        flight.queue.pop(0)
    if not flight.queue:
        _finish(state, fx)


def _finish(state: State, fx: list[Effect]) -> None:
    flight = state.flight
    assert flight is not None and state.turn is not None
    room = flight.room
    for piece in [p for p in state.pieces if p.at == room and p.id != flight.troll]:
        discard(state, piece, "troll", fx)
    for treasure in [t for t in state.treasures if t.room == room]:
        state.treasures.remove(treasure)
        state.out.append(Token(treasure.owner, "treasure"))
        token = TokenFact(colour=state.colour(treasure.owner), kind="treasure")
        fx.append(Discarded(token=token, at=room, by="troll"))
    for mark in [m for m in state.marks if m.room == room]:
        state.marks.remove(mark)
        state.spent_artifacts.append("eldarra")
        token = TokenFact(colour=state.colour(mark.owner), kind="eldarra")
        fx.append(Discarded(token=token, at=room, by="troll"))
    state.flight = None
    placer = state.turn.seat
    if not state.players[placer].stack:
        end_game(state, placer, fx)
