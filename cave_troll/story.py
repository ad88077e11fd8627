"""The story of an action: what it did, told from the position it was played in.

Like python-chess's `board.san(move)`, a story needs the state *before* the action
(which piece stood where, which token lay on top of the stack). The service tells it
once, when the action is stored, and keeps it with the action. A story is not a sentence
but what a sentence needs: a `kind` (the action's verb) and its facts (pieces by colour
and kind, places by id), with `effects`, what else happened (Orcs a Knight discarded,
the loot counted, a Troll flight begun, the next turn, the end of the game). A bot
tells it in the reader's language, to the table, to the player who acted, or as a
question before a move.

    >>> from cave_troll.game import Game
    >>> from cave_troll.actions import EndTurn
    >>> g = Game.new(players=2, seed=1)
    >>> describe(g.state, g.to_act[0], EndTurn()).to_json()["kind"]
    'end'

The artifact a player finds is theirs alone until the game is over: `told_to` gives
the story as another player may hear it.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from cave_troll import engine
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
    PlayHelm,
    Push,
    Send,
    Stay,
)
from cave_troll.effects import Effect, Found, TokenFact
from cave_troll.moves import anyones_piece, fact, own_piece
from cave_troll.state import State


class _Story(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    effects: tuple[Effect, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The story as JSON-ready data (what the service stores)."""
        return self.model_dump(mode="json")


class Drew(_Story):
    """A token drawn: `token` is its kind, shown to all (an artifact found is in the
    effects, secret)."""

    kind: Literal["draw"] = "draw"
    token: str


class Placed(_Story):
    kind: Literal["place"] = "place"
    token: str
    at: str


class Moved(_Story):
    kind: Literal["move"] = "move"
    piece: TokenFact
    start: str
    path: tuple[str, ...]


class Pushed(_Story):
    kind: Literal["push"] = "push"
    piece: TokenFact
    start: str
    to: str


class Killed(_Story):
    kind: Literal["kill"] = "kill"
    piece: TokenFact
    at: str


class Played(_Story):
    """An artifact played: on a piece (the Helm: its path; the Cloak), or on a place
    (the Chalice, the Mark, the Wand, the Sword)."""

    kind: Literal["play"] = "play"
    artifact: str
    piece: TokenFact | None = None
    start: str | None = None
    path: tuple[str, ...] = ()
    at: str | None = None


class Sent(_Story):
    kind: Literal["send"] = "send"
    piece: TokenFact
    start: str
    to: str


class Fled(_Story):
    kind: Literal["flee"] = "flee"
    piece: TokenFact
    start: str
    to: str


class Stayed(_Story):
    """The pieces left in the Troll's room by this answer (their end is in the
    effects once the flight is over)."""

    kind: Literal["stay"] = "stay"
    room: str
    pieces: tuple[TokenFact, ...]


class Ended(_Story):
    kind: Literal["end"] = "end"


Story = Annotated[
    Drew | Placed | Moved | Pushed | Killed | Played | Sent | Fled | Stayed | Ended,
    Field(discriminator="kind"),
]
STORY: TypeAdapter[Story] = TypeAdapter(Story)


def read_story(data: object) -> Story:
    """A stored story (JSON-ready data); raises `pydantic.ValidationError` if it is not
    one."""
    return STORY.validate_python(data)


def describe(before: State, seat: int, action: Action) -> Story:
    """What `action` by `seat` does, told from `before` (not changed). The action must
    be legal there; the `CaveTrollError` that refuses it is raised otherwise."""
    after = before.clone()
    fx = tuple(engine.apply(after, seat, action))
    if isinstance(action, Draw):
        return Drew(token=before.players[seat].stack[-1], effects=fx)
    if isinstance(action, Place):
        assert before.turn is not None and before.turn.placing is not None
        return Placed(token=before.turn.placing, at=action.at, effects=fx)
    if isinstance(action, Move | Send | Flee):
        ref = action.piece
        piece = fact(before, own_piece(before, seat, ref.kind, ref.at, ref.cloaked))
        if isinstance(action, Move):
            return Moved(piece=piece, start=ref.at, path=action.path, effects=fx)
        if isinstance(action, Send):
            return Sent(piece=piece, start=ref.at, to=action.to, effects=fx)
        return Fled(piece=piece, start=ref.at, to=action.to, effects=fx)
    if isinstance(action, Push | Kill):
        ref = action.target
        assert ref.colour is not None
        piece = fact(before, anyones_piece(before, ref.colour, ref.kind, ref.at, ref.cloaked))
        if isinstance(action, Push):
            return Pushed(piece=piece, start=ref.at, to=action.to, effects=fx)
        return Killed(piece=piece, at=ref.at, effects=fx)
    if isinstance(action, Stay):
        assert before.flight is not None
        room = before.flight.room
        left = tuple(
            fact(before, p)
            for p in before.pieces
            if p.at == room and p.owner == seat and p.kind != "troll"
        )
        return Stayed(room=room, pieces=left, effects=fx)
    if isinstance(action, EndTurn):
        return Ended(effects=fx)
    artifact = ARTIFACT_OF[type(action)]
    if isinstance(action, PlayHelm):
        ref = action.target
        assert ref.colour is not None
        piece = fact(before, anyones_piece(before, ref.colour, ref.kind, ref.at, ref.cloaked))
        return Played(artifact=artifact, piece=piece, start=ref.at, path=action.path, effects=fx)
    if isinstance(action, PlayCloak):
        ref = action.piece
        piece = fact(before, own_piece(before, seat, ref.kind, ref.at, ref.cloaked))
        return Played(artifact=artifact, piece=piece, start=ref.at, effects=fx)
    at = action.at if isinstance(action, PlayChalice) else action.room
    return Played(artifact=artifact, at=at, effects=fx)


def told_to(state: State, viewer: int | None, seat: int, story: Story) -> Story:
    """The story of `seat`'s past action as `viewer` (None: anyone) may hear it with the
    game at `state`: an artifact found is named only to its finder until the game is
    over ("Nie pokazuj swojego artefaktu innym graczom", l.160)."""
    if viewer == seat or state.phase == "over":
        return story
    if not any(isinstance(e, Found) and e.artifact is not None for e in story.effects):
        return story
    hidden = tuple(
        Found(artifact=None, hidden=True) if isinstance(e, Found) and e.artifact else e
        for e in story.effects
    )
    return story.model_copy(update={"effects": hidden})


__all__ = ["STORY", "Story", "describe", "read_story", "told_to"]
