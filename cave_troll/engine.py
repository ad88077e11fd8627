"""Applying actions.

`apply(state, seat, action)` checks the action and carries it out in place, returning
what it did besides its own move (`effects`); it checks everything before changing
anything, but a caller that must keep the state on a refusal uses `cave_troll.game.Game`
(which works on a copy). `apply_trusted` is the fast path for actions known to be
legal (self-play, replays of checked games). `read(state, seat, text)` reads a player's
notation where the game stands: what the moment refuses comes before what the text
gets wrong.
"""

from __future__ import annotations

from cave_troll import artifacts, flight, turns
from cave_troll.actions import (
    KINDS,
    Action,
    Draw,
    EndTurn,
    Flee,
    Kill,
    Move,
    Place,
    Play,
    Push,
    Send,
    Stay,
    action_kind,
    parse_action,
    unknown_verb,
    verb_kind,
)
from cave_troll.board import load_board
from cave_troll.content import ADVENTURERS, load_content
from cave_troll.effects import Effect, Entered, Found, TurnBegins
from cave_troll.errors import IllegalActionError, Listed, Refusal, refuse
from cave_troll.moves import (
    Census,
    anyones_piece,
    census,
    discard,
    entry_block,
    entry_refusal,
    fact,
    kind_named,
    own_piece,
    path_refusal,
    push_refusal,
    pushable,
    walk,
)
from cave_troll.scoring import count_loot, end_game
from cave_troll.state import Piece, State, Token, Treasure, Turn


def read(state: State, seat: int, text: str) -> Action:
    """The action `seat` asks for in notation, read where the game stands."""
    kind = verb_kind(text)
    if kind is not None:
        check_moment(state, seat, kind)
    return parse_action(text)


def check_moment(state: State, seat: int, kind: str) -> None:
    """Raise what the game's moment refuses to `seat` for an action of `kind` (`read`
    asks it of the kind its text names; a command that builds its action from its
    options asks it before it reads them). A kind that is no action's is refused as
    notation is."""
    if kind not in KINDS:
        raise unknown_verb(kind)
    refused = turns.refusal(state, seat, kind)
    if refused is not None:
        raise refused.error()


def apply(state: State, seat: int, action: Action) -> list[Effect]:
    """Apply `action` by `seat`; raises a `CaveTrollError` if it is illegal."""
    refused = turns.refusal(state, seat, action_kind(action))
    if refused is not None:
        raise refused.error()
    return _apply(state, seat, action)


def apply_trusted(state: State, seat: int, action: Action) -> list[Effect]:
    """Apply an action known to be legal (listed by `cave_troll.legal` for this state
    and seat, or checked when it was first played). The action's own checks still run
    (they cost little here); only the moment's are skipped."""
    return _apply(state, seat, action)


def _apply(state: State, seat: int, action: Action) -> list[Effect]:
    fx: list[Effect] = []
    before = turns.to_act(state)
    in_flight = state.flight is not None
    barrier = False
    if isinstance(action, Draw):
        _draw(state, seat, fx)
        barrier = True
    elif isinstance(action, Place):
        _place(state, seat, action.at, fx)
    elif isinstance(action, Move):
        _move(state, seat, action, fx)
    elif isinstance(action, Push):
        _push(state, seat, action, fx)
    elif isinstance(action, Kill):
        _kill(state, seat, action, fx)
    elif isinstance(action, Send):
        artifacts.send(state, seat, action, fx)
    elif isinstance(action, Flee):
        flight.flee(state, seat, action, fx)
    elif isinstance(action, Stay):
        flight.stay(state, seat, fx)
    elif isinstance(action, EndTurn):
        _end_turn(state, seat, fx)
    else:
        _play(state, seat, action, fx)
    state.n_actions += 1
    # a draw shows a token; another seat awaited, or a Troll flight begun or over, is a
    # moment the table has been told of: nothing before it is taken back
    if barrier or turns.to_act(state) != before or (state.flight is not None) != in_flight:
        state.undo_floor = state.n_actions
    return fx


def _turn(state: State) -> Turn:
    assert state.turn is not None
    return state.turn


def _new_id(state: State) -> int:
    state.next_id += 1
    return state.next_id


# --- draw and place (l.64-72) ----------------------------------------------------------


def _draw(state: State, seat: int, fx: list[Effect]) -> None:
    """Draw the top token of your stack and play it: an adventurer, a Cave Troll or a
    Treasure waits to be placed; a monster goes to the pit; "Count the loot!" counts the
    board at once, "Find an artifact" takes the top artifact (l.66-72)."""
    turn = _turn(state)
    player = state.players[seat]
    token = player.stack.pop()
    turn.actions_left -= 1
    text = load_content().text
    group = text.kind(token).group
    if group == "adventurer" or token in ("troll", "treasure"):
        turn.placing = token
        return
    if group == "monster":
        piece = Piece(_new_id(state), seat, token, load_board().pit)
        state.pieces.append(piece)
        fx.append(Entered(token=fact(state, piece), at=piece.at))
    elif token == "tally":
        state.out.append(Token(seat, token))
        state.tallies += 1
        count_loot(state, fx)
    else:  # find
        state.out.append(Token(seat, token))
        found = state.artifact_pile.pop() if state.artifact_pile else None
        if found is not None:
            player.artifacts.append(found)
        fx.append(Found(artifact=found))
    if not player.stack:
        end_game(state, seat, fx)


def place_refusal(state: State, token: str, at: str) -> Refusal | None:
    """Why the token drawn may not be placed at `at`, or None."""
    board = load_board()
    if token in ADVENTURERS:
        if not board.is_entrance(at):
            return refuse(
                "An adventurer comes in at one of the entrances: {entrances}.",
                "place_entrance",
                entrances=Listed(board.entrances, "or"),
            )
        return None
    if not board.is_room(at):
        return refuse(
            "The {token} goes in a room, not at an entrance or in the pit.",
            "place_room",
            token=kind_named(token),
        )
    if token == "treasure" and state.marked(at):
        return refuse(
            "No Treasure may be played in {room}: the Mark of El'darra closes it.",
            "marked",
            room=at,
        )
    return None


def _place(state: State, seat: int, at: str, fx: list[Effect]) -> None:
    turn = _turn(state)
    token = turn.placing
    assert token is not None
    refused = place_refusal(state, token, at)
    if refused is not None:
        raise refused.error()
    turn.placing = None
    if token == "treasure":
        state.treasures.append(Treasure(_new_id(state), seat, at))
    elif token == "troll":
        troll = Piece(_new_id(state), seat, token, at)
        state.pieces.append(troll)
        flight.begin(state, seat, troll, fx)
        return  # the game ends, if it does, when the flight is over
    else:
        piece = Piece(_new_id(state), seat, token, at)
        state.pieces.append(piece)
        walk(state, piece, (at,), fx)  # a Knight coming in discards the Orcs there
    if not state.players[seat].stack:
        end_game(state, seat, fx)


# --- moves and abilities (l.74-88, l.116, l.124, l.134) --------------------------------


def _move(state: State, seat: int, action: Move, fx: list[Effect]) -> None:
    ref = action.piece
    piece = own_piece(state, seat, ref.kind, ref.at, ref.cloaked)
    refused = move_refusal(state, seat, piece, action.path)
    if refused is not None:
        raise refused.error()
    turn = _turn(state)
    dest = action.path[-1]
    if (
        piece.kind == "wraith"
        and load_board().is_room(dest)
        and state.crowd(dest) >= load_content().text.room_capacity
    ):
        turn.must_push = dest
    walk(state, piece, action.path, fx)
    turn.actions_left -= 1


def move_refusal(
    state: State, seat: int, piece: Piece, path: tuple[str, ...], c: Census | None = None
) -> Refusal | None:
    """Why `seat` may not move `piece` along `path` now, or None: one plain step for
    most pieces, anywhere for the Thief, up to two steps under the Cloak, and a Wraith
    into a full room when it pushes out next."""
    text = load_content().text
    cloaked = state.cloaked(piece)
    if piece.kind == "troll":
        return refuse("A Cave Troll never moves once placed.", "troll_moves")
    if piece.kind == "thief":
        if len(path) != 1:
            return refuse(
                "The Thief goes straight to any room or entrance: name only where.",
                "thief_path",
            )
        if path[0] == piece.at:
            return refuse("Your Thief is in {place} already.", "same_place", place=piece.at)
        return entry_refusal(state, piece, path[0], cloaked=cloaked, c=c)
    if len(path) > 1 and not cloaked:
        return refuse("A piece moves one step in an action (two only under the Cloak).", "one_step")
    if len(path) > text.cloak_steps:  # pragma: no cover - the notation allows no more
        return refuse("A cloaked adventurer moves at most two steps.", "one_step")
    if len(path) > 1 or path[0] not in load_board().steps[piece.at]:
        return path_refusal(state, piece, path, cloaked=cloaked, c=c)
    # one step (most moves): the entry rules alone, asked without making a refusal
    c = c or census(state)
    code = entry_block(c, piece, path[0], cloaked)
    if code is None:
        return None
    if code != "full" or piece.kind != "wraith":
        return entry_refusal(state, piece, path[0], cloaked=cloaked, c=c)
    # l.116: a Wraith may come into a full room if its next action pushes someone out
    dest = path[0]
    if _turn(state).actions_left < 2:
        return refuse(
            "A Wraith may come into the full room {room} only to push an adventurer out"
            " with your next action, and you have no action left after this one.",
            "wraith_full",
            room=dest,
        )
    home = piece.at
    piece.at = dest
    can_push = bool(pushable(state, seat, dest))
    piece.at = home
    if not can_push:
        return refuse(
            "A Wraith may come into the full room {room} only to push an adventurer out"
            " next, and nobody there could be pushed out.",
            "wraith_full",
            room=dest,
        )
    return None


def _push(state: State, seat: int, action: Push, fx: list[Effect]) -> None:
    ref = action.target
    assert ref.colour is not None
    target = anyones_piece(state, ref.colour, ref.kind, ref.at, ref.cloaked)
    if not any(p.at == target.at and p.owner == seat and p.kind == "wraith" for p in state.pieces):
        raise IllegalActionError(
            "You have no Wraith in {place} to push with.", "no_wraith", place=target.at
        )
    turn = _turn(state)
    if turn.must_push is not None and target.at != turn.must_push:
        raise IllegalActionError(
            "Your Wraith must push an adventurer out of {room}.", "must_push", room=turn.must_push
        )
    refused = push_refusal(state, target, action.to)
    if refused is not None:
        raise refused.error()
    walk(state, target, (action.to,), fx)
    turn.must_push = None
    turn.actions_left -= 1


def _kill(state: State, seat: int, action: Kill, fx: list[Effect]) -> None:
    ref = action.target
    assert ref.colour is not None
    target = anyones_piece(state, ref.colour, ref.kind, ref.at, ref.cloaked)
    if target.kind not in ADVENTURERS:
        raise IllegalActionError("An Orc discards adventurers, not monsters.", "kill_monster")
    if not any(p.at == target.at and p.owner == seat and p.kind == "orc" for p in state.pieces):
        raise IllegalActionError("You have no Orc in {place}.", "no_orc", place=target.at)
    discard(state, target, "orc", fx)
    _turn(state).actions_left -= 1


def _play(state: State, seat: int, action: Play, fx: list[Effect]) -> None:
    artifacts.play(state, seat, action, fx)
    _turn(state).actions_left -= 1


# --- the end of a turn ---------------------------------------------------------------


def _end_turn(state: State, seat: int, fx: list[Effect]) -> None:
    """A cloaked adventurer left in a Cave Troll's room is discarded (l.184); then the
    player on the left begins their turn (l.42)."""
    turn = _turn(state)
    for piece in [p for p in state.pieces if p.id in turn.cloaked]:
        if state.has_troll(piece.at):
            discard(state, piece, "cloak", fx)
    state.turns += 1
    nxt = (seat + 1) % state.n
    actions = turns.allowance(state, state.turns)
    state.turn = Turn(seat=nxt, actions_left=actions)
    fx.append(TurnBegins(colour=state.colour(nxt), actions=actions))
