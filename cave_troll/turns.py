"""Where the game stands and which kinds of action it allows, written once: the engine
asks before an action (`refusal`, the sentence a player sees), the legal listing and
the players ask `allows`.

A turn has four actions (l.44), fewer in the first round (l.96): draw, move, a monster's
ability and playing an artifact cost one each. What a draw brings must be placed
before anything else (`place`); the Chalice's adventurers are sent one by one
(`send`); a Wraith that came into a full room pushes next (`push`). Troll flight (l.120)
is the one decision taken out of turn: while it runs only the player in `Flight.queue`
acts (`flee`, `stay`). `end` ends the turn at any other moment (the text does not
forbid leaving actions unused).
"""

from __future__ import annotations

from cave_troll.content import load_content
from cave_troll.errors import GameOverError, NotYourTurnError, Refusal, refuse
from cave_troll.moves import colour_named, kind_named
from cave_troll.state import State


def to_act(state: State) -> tuple[int, ...]:
    """The seat whose answer is awaited: the one choosing what flees a Cave Troll, or
    the one whose turn it is; nobody once the game is over."""
    if state.phase == "over":
        return ()
    if state.flight is not None:
        return (state.flight.queue[0],)
    assert state.turn is not None
    return (state.turn.seat,)


def allowance(state: State, turns: int) -> int:
    """The actions of the turn with this index (0: the game's first). In the first round
    of four players the first has one, the second two, the third three, the fourth four
    (l.96); with two or three players the first has one and the others four (ours: the
    rulebook has no rules for them, `mix.json`, docs/cave-troll.md). Then four."""
    if turns < state.n:
        return load_content().mix.first_round[state.n][turns]
    return load_content().text.actions_per_turn


# what each moment of the game allows (see `moment`)
MOMENT_KINDS: dict[str, frozenset[str]] = {
    "over": frozenset(),
    "waiting": frozenset(),  # another seat is awaited
    "flight": frozenset({"flee", "stay"}),
    "placing": frozenset({"place"}),
    "chalice": frozenset({"send"}),
    "must_push": frozenset({"push"}),
    "turn": frozenset({"draw", "move", "push", "kill", "play", "end"}),
    "spent": frozenset({"end"}),  # every action of the turn used
}


def moment(state: State, seat: int) -> str:
    """Where the game stands for `seat`: a key of `MOMENT_KINDS`."""
    if state.phase == "over":
        return "over"
    if state.flight is not None:
        return "flight" if seat == state.flight.queue[0] else "waiting"
    turn = state.turn
    assert turn is not None
    if seat != turn.seat:
        return "waiting"
    if turn.placing is not None:
        return "placing"
    if turn.chalice is not None:
        return "chalice"
    if turn.must_push is not None:
        return "must_push"
    return "turn" if turn.actions_left > 0 else "spent"


def allowed_kinds(state: State, seat: int) -> frozenset[str]:
    """The kinds of action the moment allows `seat` (whether one of them is legal is
    for the engine and the legal listing to judge)."""
    if not 0 <= seat < state.n:
        return frozenset()
    return MOMENT_KINDS[moment(state, seat)]


def refusal(state: State, seat: int, kind: str) -> Refusal | None:
    """Why `seat` may not take an action of `kind` now (None: the moment allows it),
    in a sentence that fits the moment."""
    if not 0 <= seat < state.n:
        return refuse("There is no seat {seat}.", "no_such_seat", seat=seat)
    now = moment(state, seat)
    if kind in MOMENT_KINDS[now]:
        return None
    if now == "over":
        return refuse("The game is over.", "game_over", GameOverError)
    flight = state.flight
    if flight is not None:
        if now == "waiting":
            return refuse(
                "{colour} is choosing what flees the Cave Troll in {room}.",
                "not_your_turn",
                NotYourTurnError,
                colour=colour_named(state.colour(flight.queue[0])),
                room=flight.room,
            )
        return refuse(
            "A Cave Troll came into {room}: first choose which of your pieces flee"
            " (flee) and let the rest stay (stay).",
            "flight",
            room=flight.room,
        )
    turn = state.turn
    assert turn is not None
    if kind in ("flee", "stay"):
        return refuse("Nobody is fleeing a Cave Troll now.", "no_flight")
    if now == "waiting":
        return refuse(
            "It is {colour}'s turn.",
            "not_your_turn",
            NotYourTurnError,
            colour=colour_named(state.colour(turn.seat)),
        )
    if now == "placing":
        assert turn.placing is not None
        return refuse(
            "Place the {token} you drew first.", "placing", token=kind_named(turn.placing)
        )
    if kind == "place":
        return refuse(
            "You have nothing to place: a token is placed right after it is drawn.",
            "nothing_to_place",
        )
    if now == "chalice":
        return refuse(
            "First send each of your adventurers in {place} away with the Chalice (send).",
            "chalice",
            place=turn.chalice,
        )
    if kind == "send":
        return refuse(
            "Adventurers are sent away only by the Chalice of Teleportation, just played.",
            "no_chalice",
        )
    if now == "must_push":
        return refuse(
            "Your Wraith came into the full room {room}: this action must push an"
            " adventurer out of it.",
            "must_push",
            room=turn.must_push,
        )
    return refuse("You have used every action of this turn: end it.", "no_actions")


def allows(state: State, seat: int, kind: str) -> bool:
    return kind in allowed_kinds(state, seat)
