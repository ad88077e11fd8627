"""What an action did besides its own move, as facts: the engine reports them while it
plays the action, and the action's story carries them (`cave_troll.story`).

A piece or token is told by its colour and kind (`TokenFact`), places by their ids,
gold by numbers: a bot words them in any language.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Fact(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TokenFact(_Fact):
    """A piece or token by its colour and kind (`kind` may be an artifact's id for a
    Mark of El'darra on the board)."""

    colour: str
    kind: str


class Entered(_Fact):
    """A token came onto the board: a monster drawn goes to the pit by itself."""

    effect: Literal["entered"] = "entered"
    token: TokenFact
    at: str


Cause = Literal["orc", "knight", "sword", "troll", "cloak"]


class Discarded(_Fact):
    """A piece or token left the game: killed by an Orc, by a Knight coming in (an Orc),
    by the Sword, by a Cave Troll (what stayed in its room), or a cloaked adventurer
    left with a Troll at the end of the turn."""

    effect: Literal["discarded"] = "discarded"
    token: TokenFact
    at: str
    by: Cause


class RoomScore(_Fact):
    """One room counted: who controls it and the gold it gave."""

    room: str
    colour: str
    gold: int


class Scored(_Fact):
    """The loot counted: the whole board (`room` None; `final` at the end of the game)
    or one room (the Wand of Speed). `rooms` lists every room that gave gold."""

    effect: Literal["scored"] = "scored"
    room: str | None = None
    final: bool = False
    rooms: tuple[RoomScore, ...] = ()


class Found(_Fact):
    """An artifact taken from the pile (None: the pile was empty). Secret to the other
    players until the game is over: as they hear it, `hidden` and no artifact
    (`cave_troll.story.told_to`)."""

    effect: Literal["found"] = "found"
    artifact: str | None
    hidden: bool = False


class FlightBegins(_Fact):
    """A Cave Troll was placed: these colours, in this order, choose what flees."""

    effect: Literal["flight"] = "flight"
    room: str
    colours: tuple[str, ...]


class TurnBegins(_Fact):
    effect: Literal["turn"] = "turn"
    colour: str
    actions: int


class GameOver(_Fact):
    """The game ended: `colour` emptied their stack and gains the bonus."""

    effect: Literal["game_over"] = "game_over"
    colour: str
    bonus: int


Effect = Annotated[
    Entered | Discarded | Scored | Found | FlightBegins | TurnBegins | GameOver,
    Field(discriminator="effect"),
]
