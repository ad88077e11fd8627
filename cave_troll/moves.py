"""Where a piece may go: the entry rules (l.78-88, l.116, l.120, l.138, l.176, l.184)
written once and used by every way a piece moves (a move, a push, the Helm, the
Chalice, Troll flight), and what happens when it arrives (a Knight discards the Orcs
there, l.138).

A plain step goes through a door, or from an entrance to any other entrance (l.78-80).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from cave_troll.board import load_board
from cave_troll.content import ADVENTURERS, KINDS, load_content
from cave_troll.effects import Cause, Discarded, Effect, TokenFact
from cave_troll.errors import IllegalActionError, Named, Refusal, refuse
from cave_troll.state import Piece, State, Token


def kind_named(kind: str) -> Named:
    return Named("piece", kind, load_content().text.kind(kind).name)


def colour_named(colour: str) -> Named:
    return Named("colour", colour, colour.capitalize())


def fact(state: State, piece: Piece) -> TokenFact:
    return TokenFact(colour=state.colour(piece.owner), kind=piece.kind)


@dataclass(slots=True)
class Census:
    """Who is where, counted once for many questions about entering places (the state
    must not change while it is used)."""

    crowd: dict[str, int]  # adventurers and monsters in each place
    trolls: set[str]  # rooms with a Cave Troll
    knights: dict[str, set[int]]  # place -> the seats with a Knight there
    marked: set[str]  # rooms under a Mark of El'darra


def census(state: State) -> Census:
    crowd: dict[str, int] = {}
    trolls: set[str] = set()
    knights: dict[str, set[int]] = {}
    for p in state.pieces:
        at = p.at
        crowd[at] = crowd.get(at, 0) + 1
        if p.kind == "troll":
            trolls.add(at)
        elif p.kind == "knight":
            knights.setdefault(at, set()).add(p.owner)
    return Census(crowd, trolls, knights, {m.room for m in state.marks})


def entry_block(c: Census, piece: Piece, dest: str, cloaked: bool = False) -> str | None:
    """The code of the rule that keeps `piece` out of `dest`, or None if it may come in
    (see `entry_refusal`)."""
    board = load_board()
    adventurer = piece.kind in ADVENTURERS
    if dest == board.pit:
        return "pit" if adventurer else None
    if dest not in board.value:
        return None  # an entrance holds any number of pieces (l.68)
    if dest in c.marked:
        return "marked"
    if not (cloaked and adventurer):
        if dest in c.trolls:
            return "troll_room"
        if piece.kind != "knight" and c.knights.get(dest, _NOBODY) - {piece.owner}:
            return "knight_room"
    if c.crowd.get(dest, 0) >= load_content().text.room_capacity:
        return "full"
    return None


_NOBODY: frozenset[int] = frozenset()


def entry_refusal(
    state: State,
    piece: Piece,
    dest: str,
    *,
    cloaked: bool = False,
    c: Census | None = None,
) -> Refusal | None:
    """Why `piece` may not come into `dest` now, or None if it may: no adventurer in the
    pit (l.88), nobody in a room under the Mark (l.176), with a Cave Troll (l.84) or an
    opponent's Knight (l.86, Knights excepted, l.138), nor in a room of five (l.82).
    `cloaked`: it wears the Cloak, and Troll and Knight rooms are open to it (l.184)."""
    code = entry_block(c or census(state), piece, dest, cloaked)
    if code is None:
        return None
    if code == "pit":
        return refuse("Adventurers cannot go into the pit.", code)
    if code == "marked":
        return refuse("{room} is closed by the Mark of El'darra.", code, room=dest)
    if code == "troll_room":
        return refuse("A Cave Troll sits in {room}: nobody can go in.", code, room=dest)
    if code == "knight_room":
        guard = next(
            p
            for p in state.pieces
            if p.at == dest and p.kind == "knight" and p.owner != piece.owner
        )
        return refuse(
            "{colour}'s Knight guards {room}: only Knights may go in.",
            code,
            colour=colour_named(state.colour(guard.owner)),
            room=dest,
        )
    return refuse("{room} already holds five adventurers and monsters.", code, room=dest)


def arrive(state: State, piece: Piece, dest: str, fx: list[Effect]) -> None:
    """`piece` comes into `dest`: a Knight coming into a room or an entrance discards
    every Orc there, whoever's (l.138)."""
    piece.at = dest
    if piece.kind == "knight":
        for orc in [p for p in state.pieces if p.at == dest and p.kind == "orc"]:
            discard(state, orc, "knight", fx)


def discard(state: State, piece: Piece, by: Cause, fx: list[Effect]) -> None:
    """`piece` leaves the game for good (l.162)."""
    state.pieces.remove(piece)
    state.out.append(Token(piece.owner, piece.kind))
    if state.turn is not None and piece.id in state.turn.cloaked:
        state.turn.cloaked.remove(piece.id)
    fx.append(Discarded(token=fact(state, piece), at=piece.at, by=by))


def own_piece(state: State, seat: int, kind: str, at: str, cloaked: bool) -> Piece:
    """One of `seat`'s pieces: of `kind` in `at`, wearing the Cloak or not."""
    mine = [p for p in state.pieces if p.owner == seat and p.kind == kind and p.at == at]
    for p in mine:
        if state.cloaked(p) == cloaked:
            return p
    if mine:
        if cloaked:
            raise IllegalActionError(
                "Your {piece} in {place} does not wear the Cloak: leave out the star.",
                "not_cloaked",
                piece=kind_named(kind),
                place=at,
            )
        raise IllegalActionError(
            "Your {piece} in {place} wears the Cloak: write {kind}*@{place}.",
            "cloaked",
            piece=kind_named(kind),
            kind=kind,
            place=at,
        )
    raise IllegalActionError(
        "You have no {piece} in {place}.", "no_such_piece", piece=kind_named(kind), place=at
    )


def anyones_piece(state: State, colour: str, kind: str, at: str, cloaked: bool) -> Piece:
    seat = state.seat_of(colour)
    if seat is None:
        raise IllegalActionError(
            "Nobody plays {colour} in this game.", "no_such_seat", colour=colour_named(colour)
        )
    theirs = [p for p in state.pieces if p.owner == seat and p.kind == kind and p.at == at]
    for p in theirs:
        if state.cloaked(p) == cloaked:
            return p
    raise IllegalActionError(
        "There is no {colour} {piece}{star} in {place}.",
        "no_such_piece",
        colour=colour_named(colour),
        piece=kind_named(kind),
        star=" wearing the Cloak" if cloaked else "",
        place=at,
    )


def distinct(state: State, pieces: list[Piece]) -> Iterator[Piece]:
    """One piece of each kind of the same owner and place, cloaked or not (pieces alike
    in all of these are alike in the game), in a stable order."""
    seen: set[tuple[int, str, str, bool]] = set()
    order = load_board().order
    rank = {k: i for i, k in enumerate(KINDS)}
    for p in sorted(
        pieces, key=lambda p: (order[p.at], p.owner, rank[p.kind], state.cloaked(p), p.id)
    ):
        key = (p.owner, p.kind, p.at, state.cloaked(p))
        if key not in seen:
            seen.add(key)
            yield p


def plain_steps(piece: Piece) -> tuple[str, ...]:
    """Where one plain step takes `piece`: through a door, or to another entrance."""
    return load_board().steps[piece.at]


def path_refusal(
    state: State,
    piece: Piece,
    path: tuple[str, ...],
    *,
    cloaked: bool = False,
    c: Census | None = None,
) -> Refusal | None:
    """Why `piece` may not take the plain steps of `path`, or None. The steps are
    checked one by one as the piece would go (each place must let it in), never coming
    back to a place it has been."""
    board = load_board()
    c = c or census(state)
    here = piece.at
    seen = {here}
    for step in path:
        if step in seen:
            return refuse(
                "A move never comes back to a place it has been ({place}).",
                "loop",
                place=step,
            )
        if step not in board.steps[here]:
            return refuse(
                "No door leads from {start} to {place}.", "no_door", start=here, place=step
            )
        if entry_block(c, piece, step, cloaked) is not None:
            return entry_refusal(state, piece, step, cloaked=cloaked, c=c)
        seen.add(step)
        here = step
    return None


def walk(state: State, piece: Piece, path: tuple[str, ...], fx: list[Effect]) -> None:
    """`piece` goes along `path`, arriving in each place in turn (a Knight discards the
    Orcs of every place it comes into)."""
    for step in path:
        arrive(state, piece, step, fx)
        if piece not in state.pieces:  # pragma: no cover - nothing kills a walker
            return


def paths(
    state: State, piece: Piece, longest: int, *, cloaked: bool = False, c: Census | None = None
) -> list[tuple[str, ...]]:
    """Every path of 1 to `longest` plain steps `piece` may take, in a stable order."""
    out: list[tuple[str, ...]] = []
    board = load_board()
    c = c or census(state)

    def extend(path: tuple[str, ...], here: str, seen: frozenset[str]) -> None:
        for step in board.steps[here]:
            if step in seen:
                continue
            if entry_block(c, piece, step, cloaked) is not None:
                continue
            longer = (*path, step)
            out.append(longer)
            if len(longer) < longest:
                extend(longer, step, seen | {step})

    extend((), piece.at, frozenset({piece.at}))
    return out


def push_refusal(state: State, target: Piece, dest: str, c: Census | None = None) -> Refusal | None:
    """Why a Wraith may not push `target` into `dest`, or None: adventurers only, never
    a Barbarian (l.130), through a door and never from one entrance to another, into a
    place it may enter (l.116)."""
    board = load_board()
    if target.kind not in ADVENTURERS:
        return refuse("A Wraith pushes adventurers, not monsters.", "push_monster")
    if target.kind == "barbarian":
        return refuse("A Wraith cannot push a Barbarian.", "push_barbarian")
    if dest not in board.doors[target.at]:
        if board.is_entrance(target.at) and board.is_entrance(dest):
            return refuse("A push never goes from one entrance to another.", "push_entrances")
        return refuse(
            "No door leads from {start} to {place}.", "no_door", start=target.at, place=dest
        )
    return entry_refusal(state, target, dest, c=c)


def push_destinations(state: State, target: Piece, c: Census | None = None) -> list[str]:
    if target.kind not in ADVENTURERS or target.kind == "barbarian":
        return []
    c = c or census(state)
    return [d for d in load_board().doors[target.at] if entry_block(c, target, d) is None]


def pushable(state: State, seat: int, location: str) -> list[Piece]:
    """The adventurers in `location` a Wraith of `seat` there could push somewhere."""
    if not any(p.at == location and p.owner == seat and p.kind == "wraith" for p in state.pieces):
        return []
    c = census(state)
    return [p for p in state.pieces if p.at == location and push_destinations(state, p, c)]
