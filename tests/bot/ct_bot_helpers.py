"""Playing Cave Troll through the bot in tests: the command (and its options) that
plays an action, and the policy the whole-game test plays by (the Delver, but each
artifact kind played as soon as it can be, a Cave Troll placed where the most players
have pieces, a Troll flight answered by fleeing what can flee)."""

from __future__ import annotations

import random

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
    Send,
    Stay,
)
from cave_troll.ai import choose_action
from cave_troll.legal import legal_actions
from cave_troll.state import State


def played_kinds(state: State) -> set[str]:
    """The artifacts played so far in the game (a Mark of El'darra stays on the board)."""
    return set(state.spent_artifacts) | ({"eldarra"} if state.marks else set())


def owners_at(state: State, place: str) -> int:
    return len({p.owner for p in state.pieces if p.at == place and p.kind != "troll"})


def policy(state: State, seat: int) -> Action:
    """What the whole-game test plays for `seat`, a function of the state alone."""
    legal = legal_actions(state, seat)
    if state.flight is not None:
        return next((a for a in legal if isinstance(a, Flee)), Stay())
    assert state.turn is not None
    if state.turn.placing == "troll":
        places = [a for a in legal if isinstance(a, Place)]
        return max(places, key=lambda a: owners_at(state, a.at))
    done = played_kinds(state)
    plays = [a for a in legal if type(a) in ARTIFACT_OF and ARTIFACT_OF[type(a)] not in done]
    if plays:
        return plays[0]
    return choose_action(state, seat, random.Random(state.n_actions))


def command_for(action: Action) -> tuple[str, dict[str, str]]:
    """The `/cave` command and options that play `action`."""
    if isinstance(action, Draw):
        return "cave draw", {}
    if isinstance(action, Stay):
        return "cave stay", {}
    if isinstance(action, EndTurn):
        return "cave end", {}
    if isinstance(action, Place):
        return "cave place", {"where": action.at}
    if isinstance(action, Move):
        return "cave move", {"piece": str(action.piece), "to": ">".join(action.path)}
    if isinstance(action, Push):
        return "cave push", {"target": str(action.target), "to": action.to}
    if isinstance(action, Kill):
        return "cave kill", {"target": str(action.target)}
    if isinstance(action, Send):
        return "cave send", {"piece": str(action.piece), "to": action.to}
    if isinstance(action, Flee):
        return "cave flee", {"piece": str(action.piece), "to": action.to}
    options = {"artifact": ARTIFACT_OF[type(action)]}
    if isinstance(action, PlayHelm):
        return "cave play", options | {"target": str(action.target), "to": ">".join(action.path)}
    if isinstance(action, PlayCloak):
        return "cave play", options | {"target": str(action.piece)}
    if isinstance(action, PlayChalice):
        return "cave play", options | {"target": action.at}
    assert isinstance(action, PlayEldarra | PlayWand | PlaySword)
    return "cave play", options | {"target": action.room}
