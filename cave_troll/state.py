"""The game's options and its state: plain mutable dataclasses that serialise to JSON
and back unchanged.

The state is a deterministic function of `(config, seed, actions)`: every shuffle is
made at setup from a `random.Random(seed)` (the first player, each colour's stack, the
artifact pile), so a draw later takes the top of a stack.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from cave_troll.content import ADVENTURERS, load_content
from cave_troll.errors import ConfigError, Listed

Phase = Literal["play", "over"]
EDITION = 1
"""The rules edition, stored in every config so that a game keeps the rules and content
it began with."""


class CaveTrollConfig(BaseModel):
    """Options chosen when a game is created."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    players: int
    colours: tuple[str, ...] = ()
    edition: int = Field(default=EDITION, ge=1, le=EDITION)

    @model_validator(mode="after")
    def _check(self) -> CaveTrollConfig:
        mix = load_content().mix
        if self.players not in mix.players:
            raise ValueError(
                f"Cave Troll is for {', '.join(map(str, mix.players))} players, not {self.players}"
            )
        if self.colours:
            if len(self.colours) != self.players or len(set(self.colours)) != self.players:
                raise ValueError("give one different colour per player")
            for colour in self.colours:
                if colour not in mix.colours:
                    raise ValueError(f"{colour!r} is not a colour ({', '.join(mix.colours)})")
        return self

    @property
    def seat_colours(self) -> tuple[str, ...]:
        return self.colours or load_content().mix.colours[: self.players]


def make_config(**options: Any) -> CaveTrollConfig:
    """A new game's config, its problems told as a `ConfigError` sentence."""
    try:
        return CaveTrollConfig(**options)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        msg = str(err["msg"]).removeprefix("Value error, ")
        raise ConfigError(
            "Invalid game options: {problem}.",
            problem=f"{where + ': ' if where else ''}{msg}",
        ) from None


@dataclass
class Piece:
    """An adventurer or a monster on the board (a Cave Troll too)."""

    id: int
    owner: int
    kind: str
    at: str

    @property
    def adventurer(self) -> bool:
        return self.kind in ADVENTURERS


@dataclass
class Treasure:
    id: int
    owner: int
    room: str


@dataclass
class Mark:
    """A Mark of El'darra laid in a room: closed to everyone, it scores for `owner`."""

    room: str
    owner: int


@dataclass
class Token:
    """A token out of the game: discarded from the board or resolved (an event)."""

    owner: int
    kind: str


@dataclass
class Player:
    seat: int
    colour: str
    stack: list[str]  # face down; the top is the last
    artifacts: list[str] = field(default_factory=list)
    gold: int = 0


@dataclass
class Turn:
    seat: int
    actions_left: int
    placing: str | None = None  # a token drawn, to be placed before anything else
    chalice: str | None = None  # the space whose adventurers the Chalice is sending
    must_push: str | None = None  # a Wraith came into this full room: a push must follow
    cloaked: list[int] = field(default_factory=list)  # adventurers under the Cloak


@dataclass
class Flight:
    """Troll flight: the Cave Troll just placed in `room`; `queue` holds the seats still
    to answer, the one answering first."""

    room: str
    troll: int  # the piece id of the Troll placed
    queue: list[int]


@dataclass
class State:
    config: CaveTrollConfig
    seed: int
    phase: Phase
    first: int  # the seat that began (chosen at random)
    players: list[Player]
    pieces: list[Piece]
    treasures: list[Treasure]
    marks: list[Mark]
    artifact_pile: list[str]  # face down; the top is the last
    out: list[Token]  # tokens out of the game
    spent_artifacts: list[str]  # artifacts played (a Mark while it lies on the board is not)
    turn: Turn | None
    flight: Flight | None = None
    turns: int = 0  # turns begun before the current one
    tallies: int = 0  # times the loot was counted during play
    ended_by: int | None = None
    next_id: int = 0
    n_actions: int = 0
    undo_floor: int = 0  # no action at or before this count can be taken back
    final: list[list[int]] = field(default_factory=list)  # per seat at the end: play,
    # board, bonus, artifacts gold (`cave_troll.scoring.Result`)

    # --- reading ---------------------------------------------------------------------

    @property
    def n(self) -> int:
        return len(self.players)

    def colour(self, seat: int) -> str:
        return self.players[seat].colour

    def seat_of(self, colour: str) -> int | None:
        for player in self.players:
            if player.colour == colour:
                return player.seat
        return None

    def at(self, location: str) -> list[Piece]:
        return [p for p in self.pieces if p.at == location]

    def crowd(self, location: str) -> int:
        """Adventurers and monsters in a place (a Barbarian counts one, l.130)."""
        return sum(1 for p in self.pieces if p.at == location)

    def has_troll(self, location: str) -> bool:
        return any(p.kind == "troll" and p.at == location for p in self.pieces)

    def marked(self, room: str) -> bool:
        return any(m.room == room for m in self.marks)

    def cloaked(self, piece: Piece) -> bool:
        return self.turn is not None and piece.id in self.turn.cloaked

    # --- JSON ------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        data = {f.name: _plain(getattr(self, f.name)) for f in fields(self)}
        data["config"] = self.config.model_dump(mode="json")
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        d = dict(data)
        turn = d.get("turn")
        flight = d.get("flight")
        return cls(
            config=CaveTrollConfig.model_validate(d["config"]),
            seed=d["seed"],
            phase=d["phase"],
            first=d["first"],
            players=[
                Player(
                    seat=p["seat"],
                    colour=p["colour"],
                    stack=list(p["stack"]),
                    artifacts=list(p["artifacts"]),
                    gold=p["gold"],
                )
                for p in d["players"]
            ],
            pieces=[Piece(**p) for p in d["pieces"]],
            treasures=[Treasure(**t) for t in d["treasures"]],
            marks=[Mark(**m) for m in d["marks"]],
            artifact_pile=list(d["artifact_pile"]),
            out=[Token(**t) for t in d["out"]],
            spent_artifacts=list(d["spent_artifacts"]),
            turn=None if turn is None else Turn(**{**turn, "cloaked": list(turn["cloaked"])}),
            flight=None
            if flight is None
            else Flight(room=flight["room"], troll=flight["troll"], queue=list(flight["queue"])),
            turns=d["turns"],
            tallies=d["tallies"],
            ended_by=d["ended_by"],
            next_id=d["next_id"],
            n_actions=d["n_actions"],
            undo_floor=d["undo_floor"],
            final=[list(f) for f in d["final"]],
        )

    def clone(self) -> State:
        """A deep copy (fast: it knows the shape of the state)."""
        turn, flight = self.turn, self.flight
        return State(
            config=self.config,
            seed=self.seed,
            phase=self.phase,
            first=self.first,
            players=[
                Player(p.seat, p.colour, list(p.stack), list(p.artifacts), p.gold)
                for p in self.players
            ],
            pieces=[Piece(p.id, p.owner, p.kind, p.at) for p in self.pieces],
            treasures=[Treasure(t.id, t.owner, t.room) for t in self.treasures],
            marks=[Mark(m.room, m.owner) for m in self.marks],
            artifact_pile=list(self.artifact_pile),
            out=list(self.out),  # tokens out of the game never change
            spent_artifacts=list(self.spent_artifacts),
            turn=None
            if turn is None
            else Turn(
                turn.seat,
                turn.actions_left,
                turn.placing,
                turn.chalice,
                turn.must_push,
                list(turn.cloaked),
            ),
            flight=None
            if flight is None
            else Flight(flight.room, flight.troll, list(flight.queue)),
            turns=self.turns,
            tallies=self.tallies,
            ended_by=self.ended_by,
            next_id=self.next_id,
            n_actions=self.n_actions,
            undo_floor=self.undo_floor,
            final=[list(f) for f in self.final],
        )


def new_game(config: CaveTrollConfig, seed: int) -> State:
    """The state after setup (l.37-42): the board empty, the artifact pile shuffled face
    down, each player's stack of their colour shuffled face down, every score at zero,
    and a first player chosen at random."""
    content = load_content()
    rng = random.Random(seed)
    n = config.players
    first = rng.randrange(n)
    pile = [a for a, count in content.mix.artifact_pile.items() for _ in range(count)]
    rng.shuffle(pile)
    players = []
    for seat, colour in enumerate(config.seat_colours):
        stack = [k for k, count in content.mix.stack(n).items() for _ in range(count)]
        rng.shuffle(stack)
        players.append(Player(seat=seat, colour=colour, stack=stack))
    allowance = content.mix.first_round[n][0]
    return State(
        config=config,
        seed=seed,
        phase="play",
        first=first,
        players=players,
        pieces=[],
        treasures=[],
        marks=[],
        artifact_pile=pile,
        out=[],
        spent_artifacts=[],
        turn=Turn(seat=first, actions_left=allowance),
    )


def stack_contents(config: CaveTrollConfig) -> dict[str, int]:
    """The tokens of each colour's stack at setup, in kind order."""
    return load_content().mix.stack(config.players)


def colours_listed(config: CaveTrollConfig) -> Listed:
    return Listed(config.seat_colours)


# the values a state holds besides its dataclasses, lists and dicts
_LEAVES = frozenset({str, int, bool, type(None)})


def _plain(value: Any) -> Any:
    kind = type(value)
    if kind in _LEAVES:
        return value
    if kind is list:
        return [_plain(v) for v in value]
    if hasattr(kind, "__dataclass_fields__"):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    raise TypeError(f"a state holds a {kind.__name__}, which JSON cannot store")
