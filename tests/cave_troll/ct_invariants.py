"""What must hold after every action of any game (the playout and fuzz tests)."""

from __future__ import annotations

from collections import Counter
from functools import cache

from cave_troll.board import load_board
from cave_troll.content import ADVENTURERS, load_content
from cave_troll.state import State
from cave_troll.turns import to_act
from cave_troll.view import view


@cache
def _rooms() -> frozenset[str]:
    return frozenset(load_board().rooms)


@cache
def _places() -> frozenset[str]:
    return frozenset(load_board().locations)


@cache
def _all_tokens(players: int) -> dict[tuple[int, str], int]:
    stack = load_content().mix.stack(players)
    return {(s, k): c for s in range(players) for k, c in stack.items() if c}


def check_invariants(state: State, gold_before: list[int] | None = None) -> None:
    board = load_board()
    content = load_content()
    n = state.n
    # every token of every colour is in its stack, on the board, being placed, or out
    tokens = [(p.seat, k) for p in state.players for k in p.stack]
    tokens += [(p.owner, p.kind) for p in state.pieces]
    tokens += [(t.owner, "treasure") for t in state.treasures]
    tokens += [(t.owner, t.kind) for t in state.out]
    if state.turn is not None and state.turn.placing:
        tokens.append((state.turn.seat, state.turn.placing))
    assert dict(Counter(tokens)) == _all_tokens(n)
    # every artifact is in the pile, in a hand, on the board or spent
    artifacts = [*state.artifact_pile, *state.spent_artifacts]
    artifacts += [a for p in state.players for a in p.artifacts]
    artifacts += ["eldarra" for _ in state.marks]
    assert dict(Counter(artifacts)) == content.mix.artifact_pile
    # places: adventurers never in the pit, Trolls, Treasure and Marks in rooms, five to a
    # room (six while a Wraith must push out or a Troll's flight runs), a Troll alone
    flight_room = state.flight.room if state.flight is not None else None
    must_push = state.turn.must_push if state.turn is not None else None
    cloaked = set(state.turn.cloaked) if state.turn is not None else set()
    rooms = _rooms()
    crowd = Counter([p.at for p in state.pieces])
    assert crowd.keys() <= _places()
    assert board.pit not in {p.at for p in state.pieces if p.kind in ADVENTURERS}
    trolls = Counter([p.at for p in state.pieces if p.kind == "troll"])
    assert trolls.keys() <= rooms
    treasure_rooms = {t.room for t in state.treasures}
    assert treasure_rooms <= rooms
    for mark in state.marks:
        assert mark.room in rooms
        assert not crowd[mark.room] and mark.room not in treasure_rooms
    for room, count in crowd.items():
        if count > 5 and room in rooms:
            assert room in (flight_room, must_push) and count <= 6, (room, count)
    for room, count in trolls.items():
        if room != flight_room:
            assert count == 1, room
            assert all(
                p.kind == "troll" or p.id in cloaked for p in state.pieces if p.at == room
            ), room
    # the turn
    assert len({p.id for p in state.pieces}) == len(state.pieces)
    if state.phase == "over":
        assert state.turn is None and state.flight is None and to_act(state) == ()
        assert state.ended_by is not None and not state.players[state.ended_by].stack
        assert [sum(f) for f in state.final] == [p.gold for p in state.players]
    else:
        assert state.turn is not None and len(to_act(state)) == 1
        assert 0 <= state.turn.actions_left <= content.text.actions_per_turn
        assert all(p.stack for p in state.players) or state.turn.placing or state.flight
        for cloaked in state.turn.cloaked:
            piece = next(p for p in state.pieces if p.id == cloaked)
            assert piece.owner == state.turn.seat and piece.kind in ADVENTURERS
        if state.flight is not None:
            assert state.flight.queue and state.has_troll(state.flight.room)
    assert all(p.gold >= 0 for p in state.players)
    if gold_before is not None:
        assert all(p.gold >= g for p, g in zip(state.players, gold_before, strict=True))
    assert state.undo_floor <= state.n_actions


def check_views(state: State) -> None:
    """Each seat sees its own artifacts and only how many the others hold."""
    for viewer in range(state.n):
        seen = view(state, viewer)
        assert "seed" not in seen
        for seat, pdata in enumerate(seen["players"]):
            assert isinstance(pdata["stack"], int)
            if seat == viewer or state.phase == "over":
                assert pdata["artifacts"] == state.players[seat].artifacts
            else:
                assert pdata["artifacts"] == len(state.players[seat].artifacts)
