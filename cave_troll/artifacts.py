"""The artifacts' effects (l.164-188). Each is played in its owner's turn for one
action and then discarded (l.92), the Mark of El'darra excepted: it stays in its room.
Every check is made before anything changes.
"""

from __future__ import annotations

from cave_troll.actions import (
    ARTIFACT_OF,
    Play,
    PlayChalice,
    PlayCloak,
    PlayEldarra,
    PlayHelm,
    PlaySword,
    PlayWand,
    Send,
)
from cave_troll.board import load_board
from cave_troll.content import ADVENTURERS, load_content
from cave_troll.effects import Effect
from cave_troll.errors import IllegalActionError, Named
from cave_troll.moves import (
    Census,
    anyones_piece,
    census,
    discard,
    entry_block,
    entry_refusal,
    kind_named,
    own_piece,
    path_refusal,
    walk,
)
from cave_troll.scoring import count_room
from cave_troll.state import Mark, Piece, State


def artifact_named(artifact: str) -> Named:
    return Named("artifact", artifact, load_content().text.artifact(artifact).name)


def play(state: State, seat: int, action: Play, fx: list[Effect]) -> None:
    artifact = ARTIFACT_OF[type(action)]
    player = state.players[seat]
    if artifact not in player.artifacts:
        raise IllegalActionError(
            "You hold no {artifact}.", "no_artifact", artifact=artifact_named(artifact)
        )
    if isinstance(action, PlayHelm):
        _helm(state, seat, action, fx)
    elif isinstance(action, PlayChalice):
        _chalice(state, seat, action.at)
    elif isinstance(action, PlayEldarra):
        _eldarra(state, seat, action.room)
    elif isinstance(action, PlayWand):
        count_room(state, action.room, fx)
    elif isinstance(action, PlayCloak):
        _cloak(state, seat, action)
    else:
        _sword(state, seat, action, fx)
    player.artifacts.remove(artifact)
    if artifact != "eldarra":
        state.spent_artifacts.append(artifact)


def _helm(state: State, seat: int, action: PlayHelm, fx: list[Effect]) -> None:
    """Move an opponent's adventurer or monster, never a Cave Troll, up to three steps
    (l.168); a Wraith moved so pushes nobody, and no piece uses its own gifts."""
    ref = action.target
    assert ref.colour is not None
    target = anyones_piece(state, ref.colour, ref.kind, ref.at, ref.cloaked)
    if target.owner == seat:
        raise IllegalActionError(
            "The Helm of Mind Control moves an opponent's piece, not yours.", "helm_own"
        )
    if target.kind == "troll":
        raise IllegalActionError("The Helm cannot move a Cave Troll.", "helm_troll")
    refused = path_refusal(state, target, action.path)
    if refused is not None:
        raise refused.error()
    walk(state, target, action.path, fx)


def chalice_pieces(state: State, seat: int, at: str) -> list[Piece]:
    return [p for p in state.pieces if p.owner == seat and p.at == at and p.kind in ADVENTURERS]


def send_destinations(state: State, piece: Piece, c: Census | None = None) -> list[str]:
    """Where the Chalice may send `piece`: any other room or entrance it may enter (no
    Cave Troll, no opponent's Knight, room for it, no Mark; l.172)."""
    board = load_board()
    c = c or census(state)
    return [
        d
        for d in (*board.entrances, *board.rooms)
        if d != piece.at and entry_block(c, piece, d) is None
    ]


def _chalice(state: State, seat: int, at: str) -> None:
    """Choose a room or entrance: each of your adventurers there is then sent to any
    other place, one `send` each (l.172)."""
    mine = chalice_pieces(state, seat, at)
    if not mine:
        raise IllegalActionError("You have no adventurer in {place}.", "no_adventurer", place=at)
    c = census(state)
    if not any(send_destinations(state, p, c) for p in mine):
        raise IllegalActionError(
            "None of your adventurers in {place} could go anywhere.", "nowhere", place=at
        )
    assert state.turn is not None
    state.turn.chalice = at


def send(state: State, seat: int, action: Send, fx: list[Effect]) -> None:
    turn = state.turn
    assert turn is not None and turn.chalice is not None
    ref = action.piece
    if ref.at != turn.chalice:
        raise IllegalActionError(
            "The Chalice sends your adventurers from {place}.", "send_elsewhere", place=turn.chalice
        )
    piece = own_piece(state, seat, ref.kind, ref.at, ref.cloaked)
    if piece.kind not in ADVENTURERS:
        raise IllegalActionError(
            "The Chalice sends adventurers, not a {piece}.",
            "send_monster",
            piece=kind_named(piece.kind),
        )
    if action.to == piece.at:
        raise IllegalActionError(
            "Send it to another place than {place}.", "same_place", place=piece.at
        )
    refused = entry_refusal(state, piece, action.to)
    if refused is not None:
        raise refused.error()
    walk(state, piece, (action.to,), fx)
    c = census(state)
    if not any(send_destinations(state, p, c) for p in chalice_pieces(state, seat, turn.chalice)):
        turn.chalice = None


def _eldarra(state: State, seat: int, room: str) -> None:
    """Lay the Mark in a room with no other token in it (l.176)."""
    if (
        any(p.at == room for p in state.pieces)
        or any(t.room == room for t in state.treasures)
        or state.marked(room)
    ):
        raise IllegalActionError(
            "The Mark of El'darra goes in a room with no other token in it.", "not_empty"
        )
    state.marks.append(Mark(room=room, owner=seat))


def _cloak(state: State, seat: int, action: PlayCloak) -> None:
    """One of your adventurers wears the Cloak until the end of the turn (l.184)."""
    ref = action.piece
    piece = own_piece(state, seat, ref.kind, ref.at, ref.cloaked)
    if piece.kind not in ADVENTURERS:
        raise IllegalActionError(
            "The Cloak is for one of your adventurers, not a {piece}.",
            "cloak_monster",
            piece=kind_named(piece.kind),
        )
    if ref.cloaked:
        raise IllegalActionError("That adventurer wears the Cloak already.", "cloaked")
    assert state.turn is not None
    state.turn.cloaked.append(piece.id)


def _sword(state: State, seat: int, action: PlaySword, fx: list[Effect]) -> None:
    """Every Orc in a room holding at least one of your adventurers and an Orc is
    discarded (l.188)."""
    room = action.room
    here = [p for p in state.pieces if p.at == room]
    if not any(p.owner == seat and p.kind in ADVENTURERS for p in here):
        raise IllegalActionError(
            "The Sword of Death needs one of your adventurers in {room}.", "sword_alone", room=room
        )
    orcs = [p for p in here if p.kind == "orc"]
    if not orcs:
        raise IllegalActionError("There is no Orc in {room}.", "no_orc", room=room)
    for orc in orcs:
        discard(state, orc, "sword", fx)
