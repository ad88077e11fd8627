"""The Delver: a simple AI that plays legal, purposeful actions.

`choose_action(state, seat, rng)` returns one legal action of `seat` (the seat awaited).
It looks one action ahead and only at what its player may see (never at the order of a
stack or of the artifact pile), scoring each legal action by how it changes the board:

- **Rooms.** A room's worth to it is the gold it would give now if the loot were
  counted: its own rooms count in full, an opponent's against it (half, as one of
  several opponents). A room it shares in a tie counts a little.
- **Pieces.** Its adventurers are drawn toward rich rooms (the value of the best room
  within reach, less for each step away) and fear an opponent's Orc beside them; its
  Orcs and Wraiths like the company of an opponent's adventurer. A Knight that walks
  into Orcs discards them.
- **Draws** bring pieces in and are worth a fixed amount, more for each draw it is behind
  the pace of two a round (so a game always goes on), except the last token of its
  stack, drawn only when the gold it could count on then (the gold it has, the rooms it
  holds, its artifacts and the bonus for ending) beats everyone else's (or after 30
  rounds, three times a game's length, so that a game of Delvers always ends).
- **Artifacts** are played when the effect is worth more than the gold the artifact
  gives if kept: the Wand on its richest room, the Mark in the richest empty room (worth
  its value at every count still to come), the Helm to pull an opponent out of a room,
  the Sword to save its adventurers from Orcs, the Chalice to spread a crowd, the Cloak
  when it lets an adventurer reach a richer room.
- **Placing**: an adventurer at the entrance nearest the room it gains most from, a
  Cave Troll where it hurts opponents most, a Treasure in a room it holds. In a Troll
  flight every piece that can flee does, to where it does most good.

Ties are broken by `rng`, so the same state and generator give the same action.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterator
from functools import cache

from cave_troll import turns
from cave_troll.actions import (
    ARTIFACT_OF,
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
from cave_troll.board import load_board
from cave_troll.content import ADVENTURERS, load_content
from cave_troll.errors import IllegalActionError
from cave_troll.legal import legal_actions
from cave_troll.moves import anyones_piece, own_piece
from cave_troll.scoring import room_score
from cave_troll.state import Piece, State, Treasure

NAME = "the Delver"
OPPONENT = 0.5  # an opponent's gold against ours
TIE = 0.2  # a room shared in a tie, per gold of its value
PULL = 0.3  # an adventurer's pull toward rich rooms
ORC_FEAR = 1.0  # an adventurer of ours beside an opponent's Orc
HUNT = 2.0  # a monster of ours beside an opponent's adventurer
STALK = 0.25  # ... one step from one, of that
KNIGHT_KILL = 1.0  # an Orc a Knight discards
DRAW = 1.2  # a draw that does not end the game
PACE = 2  # draws a round that keep a game going
LATE = 0.5  # a draw's worth for each draw behind that pace
VICTIM = 1.0  # an opponent's adventurer an Orc discards, beyond the rooms
TROLL_PIECE = 0.4  # an opponent's piece in the Troll's room (ours: against us)
ENDING = 50.0  # ending the game: for it if ahead, against if not
STALLED = 30  # rounds after which it ends the game even when behind (twice a long game)


def choose_action(state: State, seat: int, rng: random.Random) -> Action:
    """One legal action for `seat`, which must be awaited now."""
    if seat not in turns.to_act(state):
        raise IllegalActionError("Seat {seat} has nothing to do now.", "not_your_turn", seat=seat)
    options = legal_actions(state, seat)
    if len(options) == 1:
        return options[0]
    judge = _Judge(state, seat)
    best: Action = options[0]
    best_value = float("-inf")
    for action in options:
        value = judge.value(action) + rng.random() * 1e-3
        if value > best_value:
            best, best_value = action, value
    return best


@cache
def _distances() -> dict[str, dict[str, int]]:
    """Plain steps between every two places (doors, and entrance to entrance)."""
    board = load_board()
    out: dict[str, dict[str, int]] = {}
    for start in board.locations:
        seen = {start: 0}
        todo = deque([start])
        while todo:
            here = todo.popleft()
            for nxt in board.steps[here]:
                if nxt not in seen:
                    seen[nxt] = seen[here] + 1
                    todo.append(nxt)
        out[start] = seen
    return out


@cache
def _pull(location: str) -> float:
    """The value of the best room within reach of `location`, less for each step."""
    board = load_board()
    dist = _distances()[location]
    return max(board.value[r] / (1 + dist[r]) for r in board.rooms if r in dist)


class _Judge:
    """How much better an action leaves the board for `seat` (its own, after its
    effect), from local changes only: the places an action touches."""

    def __init__(self, state: State, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.board = load_board()
        self.text = load_content().text

    # --- the worth of one place ---------------------------------------------------

    def place(self, location: str) -> float:
        state, seat = self.state, self.seat
        here = [p for p in state.pieces if p.at == location]
        worth = 0.0
        if self.board.is_room(location):
            owner, gold = room_score(state, location)
            if owner == seat:
                worth += gold
            elif owner is not None:
                worth -= gold * OPPONENT
            elif any(p.owner == seat and p.kind in ADVENTURERS for p in here):
                worth += TIE * self.board.value[location]
        their_orc = any(p.kind == "orc" and p.owner != seat for p in here)
        their_adventurer = any(p.kind in ADVENTURERS and p.owner != seat for p in here)
        for p in here:
            if p.owner != seat:
                continue
            if p.kind in ADVENTURERS:
                worth += PULL * _pull(location) - (ORC_FEAR if their_orc else 0.0)
            elif p.kind in ("orc", "wraith"):
                if their_adventurer:
                    worth += HUNT
                elif self._prey_beside(location):
                    worth += HUNT * STALK
        return worth

    def _prey_beside(self, location: str) -> bool:
        """Whether an opponent's adventurer is one plain step from `location`."""
        near = self.board.steps[location]
        return any(
            p.at in near and p.owner != self.seat and p.kind in ADVENTURERS
            for p in self.state.pieces
        )

    def relocated(self, piece: Piece, dest: str) -> float:
        """The change if `piece` went to `dest` (a Knight's Orcs discarded too)."""
        start = piece.at
        before = self.place(start) + self.place(dest)
        piece.at = dest
        after = self.place(start) + self.place(dest)
        piece.at = start
        gain = after - before
        if piece.kind == "knight":
            for orc in self.state.pieces:
                if orc.at == dest and orc.kind == "orc":
                    gain += KNIGHT_KILL if orc.owner != self.seat else -KNIGHT_KILL
        return gain

    def removed(self, piece: Piece) -> float:
        """The change if `piece` left the game."""
        pieces = self.state.pieces
        before = self.place(piece.at)
        i = pieces.index(piece)
        pieces.pop(i)
        after = self.place(piece.at)
        pieces.insert(i, piece)
        return after - before

    def added(self, piece: Piece) -> float:
        pieces = self.state.pieces
        before = self.place(piece.at)
        pieces.append(piece)
        after = self.place(piece.at)
        pieces.pop()
        return after - before

    # --- the worth of an action ----------------------------------------------------

    def value(self, action: Action) -> float:
        state, seat = self.state, self.seat
        if isinstance(action, Draw):
            return self._draw()
        if isinstance(action, EndTurn | Stay):
            return 0.0
        if isinstance(action, Place):
            return self._place(action.at)
        if isinstance(action, Move):
            ref = action.piece
            piece = own_piece(state, seat, ref.kind, ref.at, ref.cloaked)
            return self.relocated(piece, action.path[-1])
        if isinstance(action, Flee | Send):
            ref = action.piece
            piece = own_piece(state, seat, ref.kind, ref.at, ref.cloaked)
            return self.relocated(piece, action.to)
        if isinstance(action, Push):
            return self.relocated(self._theirs(action.target), action.to)
        if isinstance(action, Kill):
            victim = self._theirs(action.target)
            if victim.owner == seat:
                return -VICTIM
            return self.removed(victim) + VICTIM + HUNT  # the hunt is over: not a loss
        return self._artifact(action) - self._kept(action)

    def _theirs(self, ref: Ref) -> Piece:
        assert ref.colour is not None
        return anyones_piece(self.state, ref.colour, ref.kind, ref.at, ref.cloaked)

    def _kept(self, action: Action) -> float:
        return float(self.text.artifact(ARTIFACT_OF[type(action)]).gold)

    def _draw(self) -> float:
        state, seat = self.state, self.seat
        left = len(state.players[seat].stack)
        if left > 1:
            # behind the pace of a game (so many draws a round), drawing is worth more:
            # shuffling pieces to and fro never ends a game
            drawn = sum(load_content().mix.stack(state.n).values()) - left
            behind = PACE * (state.turns // state.n) - drawn
            return DRAW + LATE * max(0, behind)
        ahead = self._projected(seat, ending=True) > max(
            self._projected(s, ending=False) for s in range(state.n) if s != seat
        )
        stalled = state.turns // state.n >= STALLED
        return ENDING if ahead or stalled else -ENDING

    def _projected(self, seat: int, *, ending: bool) -> int:
        """The gold `seat` could count on if the game ended now."""
        state = self.state
        gold = state.players[seat].gold
        gold += sum(self.text.artifact(a).gold for a in state.players[seat].artifacts)
        for room in self.board.rooms:
            owner, room_gold = room_score(state, room)
            if owner == seat:
                gold += room_gold
        return gold + (self.text.end_bonus if ending else 0)

    def _place(self, at: str) -> float:
        state, seat = self.state, self.seat
        assert state.turn is not None and state.turn.placing is not None
        token = state.turn.placing
        if token == "treasure":
            treasure = Treasure(-1, seat, at)
            before = self.place(at)
            state.treasures.append(treasure)
            after = self.place(at)
            state.treasures.pop()
            return after - before
        if token == "troll":
            here = [p for p in state.pieces if p.at == at]
            lost = sum(TROLL_PIECE if p.owner != seat else -2 * TROLL_PIECE for p in here)
            return lost - self.place(at)
        piece = Piece(-1, seat, token, at)
        gain = self.added(piece)
        rooms = [r for r in self.board.steps[at] if self.board.is_room(r)]
        return gain + max((self.relocated_new(piece, r) for r in rooms), default=0.0)

    def relocated_new(self, piece: Piece, room: str) -> float:
        """What a piece not yet on the board would gain by stepping on into `room`."""
        pieces = self.state.pieces
        pieces.append(piece)
        try:
            return self.relocated(piece, room)
        finally:
            pieces.pop()

    # --- artifacts ------------------------------------------------------------------

    def _artifact(self, action: Action) -> float:
        state, seat = self.state, self.seat
        if isinstance(action, PlayWand):
            owner, gold = room_score(state, action.room)
            return float(gold if owner == seat else -gold * OPPONENT if owner is not None else 0)
        if isinstance(action, PlayEldarra):
            counts_left = 1 + self._tallies_left()
            return float(self.board.value[action.room] * counts_left)
        if isinstance(action, PlayHelm):
            return self.relocated(self._theirs(action.target), action.path[-1])
        if isinstance(action, PlaySword):
            orcs = [p for p in state.pieces if p.at == action.room and p.kind == "orc"]
            return sum(self.removed(p) for p in orcs)
        if isinstance(action, PlayChalice):
            mine = [
                p
                for p in state.pieces
                if p.owner == seat and p.at == action.at and p.kind in ADVENTURERS
            ]
            return sum(max(self._sends(p), default=0.0) for p in mine)
        if isinstance(action, PlayCloak):
            ref = action.piece
            piece = own_piece(state, seat, ref.kind, ref.at, ref.cloaked)
            assert state.turn is not None
            if state.turn.actions_left < 2:
                return float("-inf")
            return max(self._cloaked_steps(piece), default=0.0) - max(
                (self.relocated(piece, d) for d in self.board.steps[piece.at]), default=0.0
            )
        return 0.0  # pragma: no cover

    def _tallies_left(self) -> int:
        state = self.state
        per_stack = load_content().mix.stack(state.n)["tally"]
        return per_stack * state.n - state.tallies

    def _sends(self, piece: Piece) -> Iterator[float]:
        for room in self.board.rooms:
            if room != piece.at and not self.state.has_troll(room):
                yield self.relocated(piece, room)

    def _cloaked_steps(self, piece: Piece) -> Iterator[float]:
        dist = _distances()[piece.at]
        for room in self.board.rooms:
            if dist.get(room) == 2:
                yield self.relocated(piece, room)
