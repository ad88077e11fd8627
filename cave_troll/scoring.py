"""Counting the loot (l.100, l.130, l.142, l.152, l.176) and the end of the game
(l.104-110).

A room is controlled by the one player with more adventurers in it than each other
player (a Barbarian counts two); they gain its value, doubled once for every Dwarf in
it whoever's, plus 4 for every Treasure in it (not doubled). A tie for the most gives
nobody anything. A room under a Mark of El'darra gives its value to the Mark's player.
"""

from __future__ import annotations

from dataclasses import dataclass

from cave_troll.board import load_board
from cave_troll.content import load_content
from cave_troll.effects import Effect, GameOver, RoomScore, Scored
from cave_troll.state import State


def strength(state: State, room: str) -> list[int]:
    """Each seat's adventurers in `room` as a tally counts them (a Barbarian is two)."""
    text = load_content().text
    out = [0] * state.n
    for p in state.pieces:
        if p.at == room:
            out[p.owner] += text.kind(p.kind).strength
    return out


def room_score(state: State, room: str) -> tuple[int | None, int]:
    """Who would gain what for `room` if the loot were counted now: (seat, gold), or
    (None, 0) when nobody controls it."""
    text = load_content().text
    value = load_board().value[room]
    for mark in state.marks:
        if mark.room == room:
            return mark.owner, value
    counts = strength(state, room)
    best = max(counts)
    if best == 0 or counts.count(best) > 1:
        return None, 0
    dwarves = sum(1 for p in state.pieces if p.at == room and p.kind == "dwarf")
    treasures = sum(1 for t in state.treasures if t.room == room)
    gold = value * text.dwarf_multiplier**dwarves + text.treasure_bonus * treasures
    return counts.index(best), gold


def count_loot(state: State, fx: list[Effect], *, final: bool = False) -> list[int]:
    """Count every room of the board: each controller gains its gold. Returns what each
    seat gained."""
    gains = [0] * state.n
    rooms = []
    for room in load_board().rooms:
        seat, gold = room_score(state, room)
        if seat is not None and gold:
            gains[seat] += gold
            rooms.append(RoomScore(room=room, colour=state.colour(seat), gold=gold))
    for seat, gold in enumerate(gains):
        state.players[seat].gold += gold
    fx.append(Scored(final=final, rooms=tuple(rooms)))
    return gains


def count_room(state: State, room: str, fx: list[Effect]) -> None:
    """Count one room as a tally would (the Wand of Speed, l.180)."""
    seat, gold = room_score(state, room)
    rooms: tuple[RoomScore, ...] = ()
    if seat is not None and gold:
        state.players[seat].gold += gold
        rooms = (RoomScore(room=room, colour=state.colour(seat), gold=gold),)
    fx.append(Scored(room=room, rooms=rooms))


@dataclass(frozen=True)
class Result:
    """One seat's final gold: during play, the last count, the bonus for ending the
    game, and the artifacts still held."""

    seat: int
    colour: str
    play: int
    board: int
    bonus: int
    artifacts: int

    @property
    def total(self) -> int:
        return self.play + self.board + self.bonus + self.artifacts


@dataclass(frozen=True)
class Outcome:
    results: tuple[Result, ...]
    ended_by: int

    @property
    def winning_seats(self) -> tuple[int, ...]:
        """Most gold wins (l.110); players tied for the most share the victory."""
        best = max(r.total for r in self.results)
        return tuple(r.seat for r in self.results if r.total == best)

    def to_json(self) -> dict[str, object]:
        return {
            "ended_by": self.results[self.ended_by].colour,
            "winners": [self.results[s].colour for s in self.winning_seats],
            "breakdown": [
                {
                    "colour": r.colour,
                    "play": r.play,
                    "board": r.board,
                    "bonus": r.bonus,
                    "artifacts": r.artifacts,
                    "total": r.total,
                }
                for r in self.results
            ],
        }


def end_game(state: State, seat: int, fx: list[Effect]) -> None:
    """`seat` drew and played their last token: the game ends at once (l.104); the loot
    is counted one last time, `seat` gains the bonus, and every player the worth of
    the artifacts they still hold (l.106-108)."""
    text = load_content().text
    before = [p.gold for p in state.players]
    board = count_loot(state, fx, final=True)
    state.players[seat].gold += text.end_bonus
    held = [sum(text.artifact(a).gold for a in p.artifacts) for p in state.players]
    for p, gold in zip(state.players, held, strict=True):
        p.gold += gold
    state.final = [
        [before[s], board[s], text.end_bonus if s == seat else 0, held[s]] for s in range(state.n)
    ]
    state.phase = "over"
    state.ended_by = seat
    state.turn = None
    fx.append(GameOver(colour=state.colour(seat), bonus=text.end_bonus))


def final_outcome(state: State) -> Outcome:
    """The result of a finished game."""
    if state.phase != "over" or state.ended_by is None:
        raise ValueError("the game is not over")
    return Outcome(
        results=tuple(
            Result(s, state.colour(s), play, board, bonus, artifacts)
            for s, (play, board, bonus, artifacts) in enumerate(state.final)
        ),
        ended_by=state.ended_by,
    )


def current_gold(state: State) -> list[int]:
    return [p.gold for p in state.players]
