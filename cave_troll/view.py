"""What one player may see of the game.

`view(state, viewer)` is the state as JSON with what `viewer` may not see taken out:
the order of every stack and of the artifact pile (their sizes remain; what is left in
a stack, kind by kind, is public, since every token drawn was shown, l.66), and the
artifacts other players hold (only how many: "Nie pokazuj swojego artefaktu innym
graczom", l.160). `viewer=None` is a spectator. Once the game is over nothing is secret.
Each piece says whether it wears the Cloak; `to_act` names the seat awaited, and
`scores` what each room would give now.

The view's shape is `CaveView` and the TypedDicts it holds: plain JSON data (dicts,
lists, strings, numbers) with the keys in the order `State.to_json` writes them, so a
view serialises as it is and reads as any dict; the types let mypy check what the
images and the bot's face read of it. They cost nothing at run time: `view` builds the
dicts itself, with no check.
"""

from __future__ import annotations

from collections import Counter
from typing import TypedDict

from cave_troll.board import load_board
from cave_troll.content import KINDS
from cave_troll.scoring import room_score
from cave_troll.state import CaveTrollConfig, Flight, Phase, Piece, Player, State, Turn
from cave_troll.turns import moment, to_act


class ConfigView(TypedDict):
    """The game's options (`CaveTrollConfig` as JSON; `colours` empty: the default
    colours of the player count)."""

    players: int
    colours: list[str]
    edition: int


class PlayerView(TypedDict):
    """A seat: the size of its stack and what is left in it kind by kind (public), its
    artifacts (the names for the viewer's own seat and once the game is over, their
    number for anyone else's) and its gold."""

    seat: int
    colour: str
    stack: int
    artifacts: list[str] | int
    gold: int
    stack_left: dict[str, int]


class PieceView(TypedDict):
    """An adventurer or a monster (a Cave Troll too) at a place (`at`: a room, an
    entrance or the pit), `cloaked` while it wears the Cloak of Invisibility."""

    id: int
    owner: int
    kind: str
    at: str
    cloaked: bool


class TreasureView(TypedDict):
    id: int
    owner: int
    room: str


class MarkView(TypedDict):
    """A Mark of El'darra: the room closed to everyone, scoring for `owner`."""

    room: str
    owner: int


class TokenView(TypedDict):
    """A token out of the game (discarded from the board, or an event resolved)."""

    owner: int
    kind: str


class TurnView(TypedDict):
    """The turn under way: its seat and actions left, a token drawn to be placed
    (`placing`), the Chalice's place (`chalice`), the room a Wraith must push from
    (`must_push`) and the pieces under the Cloak (ids)."""

    seat: int
    actions_left: int
    placing: str | None
    chalice: str | None
    must_push: str | None
    cloaked: list[int]


class FlightView(TypedDict):
    """Troll flight: the room the Cave Troll was placed in, the Troll's piece id, and
    the seats still to answer (the first is answering)."""

    room: str
    troll: int
    queue: list[int]


class RoomScoreView(TypedDict):
    """Who a room would give its gold to if the loot were counted now."""

    colour: str
    gold: int


class CaveView(TypedDict):
    """What one player (or a spectator: `viewer` None) may see of the game: the state's
    JSON without its seed, the stacks and the artifact pile as their sizes, with who
    is awaited (`to_act`), where the game stands for the viewer (`moment`: a key of
    `cave_troll.turns.MOMENT_KINDS`, None for a spectator), the round and the rooms
    someone controls now (`rooms`, in the board's order)."""

    config: ConfigView
    phase: Phase
    first: int
    players: list[PlayerView]
    pieces: list[PieceView]
    treasures: list[TreasureView]
    marks: list[MarkView]
    artifact_pile: int
    out: list[TokenView]
    spent_artifacts: list[str]
    turn: TurnView | None
    flight: FlightView | None
    turns: int
    tallies: int
    ended_by: int | None
    next_id: int
    n_actions: int
    undo_floor: int
    final: list[list[int]]
    viewer: int | None
    to_act: list[int]
    moment: str | None
    round: int
    rooms: dict[str, RoomScoreView]


def view(state: State, viewer: int | None) -> CaveView:
    over = state.phase == "over"
    cloaked = set() if state.turn is None else set(state.turn.cloaked)
    rooms: dict[str, RoomScoreView] = {}
    for room in load_board().rooms:
        seat, gold = room_score(state, room)
        if seat is not None:
            rooms[room] = {"colour": state.colour(seat), "gold": gold}
    return {
        "config": _config(state.config),
        "phase": state.phase,
        "first": state.first,
        "players": [_player(p, secret=p.seat != viewer and not over) for p in state.players],
        "pieces": [_piece(p, p.id in cloaked) for p in state.pieces],
        "treasures": [{"id": t.id, "owner": t.owner, "room": t.room} for t in state.treasures],
        "marks": [{"room": m.room, "owner": m.owner} for m in state.marks],
        "artifact_pile": len(state.artifact_pile),
        "out": [{"owner": t.owner, "kind": t.kind} for t in state.out],
        "spent_artifacts": list(state.spent_artifacts),
        "turn": None if state.turn is None else _turn(state.turn),
        "flight": None if state.flight is None else _flight(state.flight),
        "turns": state.turns,
        "tallies": state.tallies,
        "ended_by": state.ended_by,
        "next_id": state.next_id,
        "n_actions": state.n_actions,
        "undo_floor": state.undo_floor,
        "final": [list(f) for f in state.final],
        "viewer": viewer,
        "to_act": list(to_act(state)),
        "moment": moment(state, viewer) if viewer is not None else None,
        "round": state.turns // state.n + 1,
        "rooms": rooms,
    }


def _config(config: CaveTrollConfig) -> ConfigView:
    return {
        "players": config.players,
        "colours": list(config.colours),
        "edition": config.edition,
    }


def _player(player: Player, *, secret: bool) -> PlayerView:
    left = Counter(player.stack)
    return {
        "seat": player.seat,
        "colour": player.colour,
        "stack": len(player.stack),
        "artifacts": len(player.artifacts) if secret else list(player.artifacts),
        "gold": player.gold,
        "stack_left": {k: left[k] for k in KINDS if left[k]},
    }


def _piece(piece: Piece, cloaked: bool) -> PieceView:
    return {
        "id": piece.id,
        "owner": piece.owner,
        "kind": piece.kind,
        "at": piece.at,
        "cloaked": cloaked,
    }


def _turn(turn: Turn) -> TurnView:
    return {
        "seat": turn.seat,
        "actions_left": turn.actions_left,
        "placing": turn.placing,
        "chalice": turn.chalice,
        "must_push": turn.must_push,
        "cloaked": list(turn.cloaked),
    }


def _flight(flight: Flight) -> FlightView:
    return {"room": flight.room, "troll": flight.troll, "queue": list(flight.queue)}
