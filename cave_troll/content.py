"""The game's content, read from `cave_troll/data/*.json` and validated by pydantic.

`rules.json` holds what the Polish rulebook fixes (four actions, five to a room, the
+3 and +4 gold, the artifacts' values, the first round's 1-2-3-4 actions); `board.json`
and `mix.json` hold what we designed because the rulebook's pictures did not survive:
the map (one jigsaw quarter laid four times), the tokens of each colour, the artifact
pile and the player counts (docs/cave-troll.md gives the reasons). `load_content()`
reads them once; a broken file fails with a `ContentError` naming the file and field.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

DATA_DIR = Path(__file__).parent / "data"

ADVENTURERS = ("barbarian", "thief", "knight", "dwarf", "explorer")
MONSTERS = ("wraith", "troll", "orc")
EVENTS = ("treasure", "tally", "find")
KINDS = (*ADVENTURERS, *MONSTERS, *EVENTS)
PIECE_KINDS = (*ADVENTURERS, *MONSTERS)
ARTIFACTS = ("helm", "chalice", "eldarra", "wand", "cloak", "sword")

Kind = Literal[
    "barbarian",
    "thief",
    "knight",
    "dwarf",
    "explorer",
    "wraith",
    "troll",
    "orc",
    "treasure",
    "tally",
    "find",
]
Artifact = Literal["helm", "chalice", "eldarra", "wand", "cloak", "sword"]
Cell = tuple[int, int]


class ContentError(ValueError):
    """A content file is missing, is not JSON, or breaks the content schema."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --- rules.json: what the rulebook fixes ---------------------------------------------


class KindInfo(_Model):
    id: Kind
    name: str
    polish: str
    group: Literal["adventurer", "monster", "event"]
    strength: int = Field(default=0, ge=0)  # adventurers counted at a tally (l.130)


class ArtifactInfo(_Model):
    id: Artifact
    name: str
    polish: str
    gold: int = Field(ge=0)  # its worth if still held at the end


class TextRules(_Model):
    source: str = Field(alias="_source")
    actions_per_turn: int = Field(ge=1)
    first_round_actions: tuple[int, ...]
    room_capacity: int = Field(ge=1)
    end_bonus: int = Field(ge=0)
    treasure_bonus: int = Field(ge=0)
    dwarf_multiplier: int = Field(ge=1)
    tallies_at_most: int = Field(ge=0)
    helm_steps: int = Field(ge=1)
    cloak_steps: int = Field(ge=1)
    kinds: tuple[KindInfo, ...]
    artifacts: tuple[ArtifactInfo, ...]

    @model_validator(mode="after")
    def _check(self) -> TextRules:
        if tuple(k.id for k in self.kinds) != KINDS:
            raise ValueError(f"kinds must be {', '.join(KINDS)} in this order")
        if tuple(a.id for a in self.artifacts) != ARTIFACTS:
            raise ValueError(f"artifacts must be {', '.join(ARTIFACTS)} in this order")
        for k in self.kinds:
            if (k.group == "adventurer") != (k.strength > 0):
                raise ValueError(f"{k.id}: adventurers, and only they, have a strength")
        if any(not 1 <= n <= self.actions_per_turn for n in self.first_round_actions):
            raise ValueError("first_round_actions must be from 1 to actions_per_turn")
        return self

    def kind(self, kind: str) -> KindInfo:
        return self.kinds[KINDS.index(kind)]

    def artifact(self, artifact: str) -> ArtifactInfo:
        return self.artifacts[ARTIFACTS.index(artifact)]


# --- board.json: the map, ours --------------------------------------------------------


class RoomInfo(_Model):
    id: str = Field(pattern=r"^[1-9]$")
    value: int = Field(ge=1)
    cells: tuple[Cell, ...] = Field(min_length=1)


class QuarterInfo(_Model):
    """One jigsaw quarter, drawn with its entrance's corner at the top left (0, 0) and
    its corner of the central pit at the bottom right. `doors` join two of its rooms,
    a room and its `entrance`, or a room and the `pit`; `doors_to_next` join one of
    its rooms on its right edge to a room of the next quarter clockwise (named as in
    this quarter: the next one is the same quarter turned)."""

    size: int = Field(ge=2, le=20)
    entrance: Cell
    pit: Cell
    rooms: tuple[RoomInfo, ...] = Field(min_length=1)
    doors: tuple[tuple[str, str], ...]
    doors_to_next: tuple[tuple[str, str], ...]

    @model_validator(mode="after")
    def _check(self) -> QuarterInfo:
        n = self.size
        owner: dict[Cell, str] = {self.entrance: "entrance", self.pit: "pit"}
        if self.entrance != (0, 0) or self.pit != (n - 1, n - 1):
            raise ValueError("the entrance is the outer corner (0, 0), the pit the inner one")
        for room in self.rooms:
            for cell in room.cells:
                if not all(0 <= c < n for c in cell):
                    raise ValueError(f"room {room.id}: cell {cell} is off the quarter")
                if cell in owner:
                    raise ValueError(f"room {room.id}: cell {cell} is also {owner[cell]}'s")
                owner[cell] = room.id
            if not _connected(room.cells):
                raise ValueError(f"room {room.id}: its cells are not in one piece")
        if len(owner) != n * n:
            raise ValueError("the rooms, entrance and pit must cover the whole quarter")
        if len({r.id for r in self.rooms}) != len(self.rooms):
            raise ValueError("room ids must differ")
        cells = {r.id: set(r.cells) for r in self.rooms}
        cells["entrance"], cells["pit"] = {self.entrance}, {self.pit}
        for a, b in self.doors:
            if a not in cells or b not in cells or a == b:
                raise ValueError(f"door {a}-{b}: no such rooms")
            if not any(_touch(x, y) for x in cells[a] for y in cells[b]):
                raise ValueError(f"door {a}-{b}: the rooms do not touch")
        for a, b in self.doors_to_next:
            if a not in cells or b not in cells or "pit" in (a, b) or "entrance" in (a, b):
                raise ValueError(f"door to the next quarter {a}-{b}: no such rooms")
            # the next quarter's cell right of (size-1, y) is this quarter's (y, size-1)
            if not any((n - 1, c[0]) in cells[a] and c[1] == n - 1 for c in cells[b]):
                raise ValueError(f"door to the next quarter {a}-{b}: the rooms do not touch")
        doors = {frozenset(d) for d in (*self.doors, *self.doors_to_next)}
        if len(doors) != len(self.doors) + len(self.doors_to_next):
            raise ValueError("a door is listed twice")
        return self


class BoardInfo(_Model):
    source: str = Field(alias="_source")
    quarters: tuple[str, str, str, str]
    corners: tuple[str, str, str, str]
    pit: str = Field(pattern=r"^[a-z]+$")
    quarter: QuarterInfo

    @model_validator(mode="after")
    def _check(self) -> BoardInfo:
        if any(len(q) != 1 or not q.isupper() for q in self.quarters):
            raise ValueError("quarters are single capital letters")
        if any(not c.isalpha() or not c.isupper() or len(c) != 2 for c in self.corners):
            raise ValueError("corners are two capital letters (NW)")
        names = [*self.quarters, *self.corners]
        if len(set(names)) != len(names):
            raise ValueError("quarter letters and corner names must differ")
        return self


# --- mix.json: the tokens, ours -------------------------------------------------------


class MixInfo(_Model):
    source: str = Field(alias="_source")
    colours: tuple[str, ...] = Field(min_length=2)
    players: tuple[int, ...] = Field(min_length=1)
    per_colour: dict[str, int]
    extra_per_colour: dict[int, dict[str, int]] = Field(default_factory=dict)
    # the actions of each player's first turn, in turn order, for each player count
    first_round: dict[int, tuple[int, ...]]
    artifact_pile: dict[str, int]

    @model_validator(mode="after")
    def _check(self) -> MixInfo:
        if len(set(self.colours)) != len(self.colours):
            raise ValueError("colours must differ")
        if any(not c.isalpha() or not c.islower() for c in self.colours):
            raise ValueError("colours are lower-case words")
        if any(not 2 <= n <= len(self.colours) for n in self.players):
            raise ValueError("every player count needs a colour per player")
        if set(self.per_colour) != set(KINDS):
            raise ValueError(f"per_colour must count every kind: {', '.join(KINDS)}")
        if set(self.extra_per_colour) - set(self.players):
            raise ValueError("extra_per_colour is for player counts the game has")
        if any(set(extra) - set(KINDS) for extra in self.extra_per_colour.values()):
            raise ValueError("extra_per_colour counts kinds of token")
        if set(self.first_round) != set(self.players):
            raise ValueError("first_round gives the first turns of every player count")
        for n, actions in self.first_round.items():
            if len(actions) != n or actions[0] != 1:
                raise ValueError(
                    f"first_round of {n} players: one number a player, the first player's 1"
                )
        if set(self.artifact_pile) != set(ARTIFACTS):
            raise ValueError(f"artifact_pile must count every artifact: {', '.join(ARTIFACTS)}")
        for n in self.players:
            if any(c < 0 for c in self.stack(n).values()):
                raise ValueError("counts of tokens cannot be negative")
            if self.stack(n)["troll"] > 1 or sum(self.stack(n).values()) < 1:
                raise ValueError("a stack holds tokens, and at most one Cave Troll")
        if any(c < 0 for c in self.artifact_pile.values()):
            raise ValueError("counts of artifacts cannot be negative")
        return self

    def stack(self, players: int) -> dict[str, int]:
        """The tokens of one colour for a game of `players`, in `KINDS` order."""
        extra = self.extra_per_colour.get(players, {})
        return {k: self.per_colour[k] + extra.get(k, 0) for k in KINDS}


class Content(_Model):
    text: TextRules
    board: BoardInfo
    mix: MixInfo

    @model_validator(mode="after")
    def _check(self) -> Content:
        text_players = len(self.text.first_round_actions)
        for n in self.mix.players:
            if any(not 1 <= a <= self.text.actions_per_turn for a in self.mix.first_round[n]):
                raise ValueError(f"first_round of {n} players: from 1 to the actions of a turn")
            if n == text_players and self.mix.first_round[n] != self.text.first_round_actions:
                raise ValueError(f"the first round of {n} players is the rulebook's (l.96)")
            if self.mix.stack(n)["tally"] * n > self.text.tallies_at_most:
                raise ValueError(
                    f"{n} players would count the loot more than"
                    f" {self.text.tallies_at_most} times in a game (l.17)"
                )
        return self


M = TypeVar("M", bound=BaseModel)


@cache
def load_content() -> Content:
    """Every content file, read and validated once."""
    try:
        return Content(
            text=_read("rules.json", TextRules),
            board=_read("board.json", BoardInfo),
            mix=_read("mix.json", MixInfo),
        )
    except ValidationError as exc:
        raise ContentError(f"the content does not fit together: {exc}") from None


def _read(name: str, model: type[M]) -> M:
    path = DATA_DIR / name
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ContentError(f"{name}: {exc}") from None
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "(top)"
        raise ContentError(f"{name}: {where}: {err['msg']}") from None


def _touch(a: Cell, b: Cell) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def _connected(cells: tuple[Cell, ...]) -> bool:
    todo, seen = [cells[0]], {cells[0]}
    while todo:
        cell = todo.pop()
        for other in cells:
            if other not in seen and _touch(cell, other):
                seen.add(other)
                todo.append(other)
    return len(seen) == len(set(cells))
