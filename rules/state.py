"""The game state: plain mutable dataclasses that serialise to JSON and back unchanged.

The state is a deterministic function of `(config, seed, actions)`; all randomness is
spent at setup (decks, the pedestal bag and the pedestal track are shuffled then), so
later draws just take the top of a pile.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from rules.content import load_content
from rules.errors import ConfigError, Listed, Named, Phrase, RulesError

Phase = Literal["draft", "gates", "play", "over"]
WorkshopMode = Literal["random", "unique", "chosen"]

EDITION = 3
"""The engine's rules edition, stored in every game's config so a game keeps the rules
it began with. Edition 1 (round 1): the draft came before the gates and clan carts
paid for anything. Edition 2 follows the rulebook: gates first (setup step C before
step D), clan carts only for their clan's statues. Edition 3: partners' gates lie next
to each other in team mode (the Polish and Spanish rulebooks), and 4 players start on
the winter side's W5-W8 (the ring W1-W4 before: `BoardSide.former_marks`). A stored
config without an edition is from edition 1 (`GameConfig.stored`)."""


class GameConfig(BaseModel):
    """Options chosen when a game is created."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    players: int = Field(ge=2, le=5)
    side: Literal["winter", "autumn"] | None = None
    teams: bool = False
    workshops: WorkshopMode = "random"
    chosen_workshops: tuple[str, ...] = ()
    colours: tuple[str, ...] = ()
    edition: int = Field(default=EDITION, ge=1, le=EDITION)

    @classmethod
    def stored(cls, data: dict[str, Any]) -> GameConfig:
        """A config read back from a store or a record: one written before editions
        existed played by edition 1."""
        return cls.model_validate(data if "edition" in data else {**data, "edition": 1})

    @property
    def gates_first(self) -> bool:
        """Whether gates are placed before the starting-troll draft (the rulebook's
        order; edition 1 drafted first)."""
        return self.edition >= 2

    @property
    def setup_phases(self) -> tuple[Phase, Phase]:
        """The two setup phases in the order they are played."""
        return ("gates", "draft") if self.gates_first else ("draft", "gates")

    @model_validator(mode="after")
    def _check(self) -> GameConfig:
        content = load_content()
        side = self.board_side
        board = content.board(side)
        if self.players not in board.players:
            raise ConfigError(
                "the {side} is for {counts} players",
                side=Named("side", side, board.name.lower()),
                counts=Listed(tuple(board.players), "or"),
            )
        if self.teams and self.players != 4:
            raise ConfigError("team mode needs exactly 4 players")
        need = self.players * content.pieces.workshops_per_player + content.pieces.extra_workshops
        if self.workshops == "chosen":
            if len(self.chosen_workshops) != need:
                raise ValueError(f"choose exactly {need} workshops for {self.players} players")
            for w in self.chosen_workshops:
                ids = [x.id for x in content.workshops]
                if w not in ids:
                    raise ValueError(f"unknown workshop {w!r}")
                if self.chosen_workshops.count(w) > content.workshop(w).copies:
                    raise ValueError(f"there are only {content.workshop(w).copies} {w} tiles")
        elif self.chosen_workshops:
            raise ValueError("chosen_workshops is only for workshops='chosen'")
        if self.workshops == "unique" and need > len(content.workshops):
            raise ValueError("not enough different workshops")
        if self.colours:
            if len(self.colours) != self.players or len(set(self.colours)) != self.players:
                raise ValueError("give one different colour per player")
            for c in self.colours:
                if c not in content.pieces.player_colours:
                    raise ValueError(f"unknown colour {c!r}")
        return self

    @property
    def board_side(self) -> str:
        if self.side is not None:
            return self.side
        return "autumn" if self.players == 3 else "winter"

    @property
    def seat_colours(self) -> tuple[str, ...]:
        if self.colours:
            return self.colours
        return tuple(load_content().pieces.player_colours[: self.players])


def make_config(**options: Any) -> GameConfig:
    """Build a new game's config (the current edition unless `edition` is given),
    turning pydantic's errors into a `ConfigError` sentence."""
    return _checked(lambda: GameConfig(**options))


def stored_config(data: dict[str, Any]) -> GameConfig:
    """A config as a record stores it (`GameConfig.stored`), errors as in `make_config`."""
    return _checked(lambda: GameConfig.stored(data))


def _checked(build: Callable[[], GameConfig]) -> GameConfig:
    try:
        return build()
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        cause = err.get("ctx", {}).get("error")
        if isinstance(cause, RulesError):
            # a check of ours: its sentence, told in the reader's language too
            raise ConfigError(
                "Invalid game options: {problem}.", problem=Phrase(cause.template, cause.params)
            ) from None
        msg = str(err["msg"]).removeprefix("Value error, ")
        raise ConfigError(
            "Invalid game options: {problem}.", problem=f"{where + ': ' if where else ''}{msg}"
        ) from None


@dataclass
class Troll:
    """A troll in a pyramid: its card and which of its produce symbols hold a resource."""

    card: str
    held: list[bool]


@dataclass
class HordeSlot:
    card: str | None
    bribes: list[str] = field(default_factory=list)
    pedestal: str | None = None  # a level-2 slot's pedestal (clan)


@dataclass
class SpellSlot:
    spell: str
    runes: int = 0


@dataclass
class PedestalToken:
    """A pedestal token won (never changed once won: copies of a state share it)."""

    tier: int
    clan: str
    value: int


@dataclass
class Account:
    """Storage and honor. One per player, or one per team in team mode."""

    storage: dict[str, int]
    pedestals: dict[str, int]
    tokens: list[PedestalToken] = field(default_factory=list)
    coronation: list[int] = field(default_factory=list)
    tunnel_honor: int = 0
    spell_honor: int = 0


@dataclass
class Player:
    seat: int
    colour: str
    team: int | None
    account: int
    pyramid: dict[str, Troll] = field(default_factory=dict)
    recruited_levels: int = 0
    draft_deck: list[str] = field(default_factory=list)
    draft_hand: list[str] = field(default_factory=list)


@dataclass
class Turn:
    seat: int
    step: int = 1
    spell_cast: bool = False
    workshop: str | None = None
    workshop_uses: int = 0
    main_done: bool = False
    flags: list[str] = field(default_factory=list)
    undo_floor: int = 0


@dataclass
class Piece:
    """Something laid on the mountain that can be part of a network: a gate, a tunnel
    (a tile, or the part of one left uncovered by a great hall) or a great hall.
    Never changed once laid (a great hall lays new pieces for what it leaves of the
    tunnels it covers): copies of a state share their pieces."""

    id: int
    kind: Literal["gate", "tunnel", "hall"]
    name: str  # start point, tile shape or hall id
    seat: int  # who laid it (ownership comes from the network it belongs to)
    cells: list[str]
    mineral: str | None = None
    anchor: str | None = None
    pedestal: str | None = None  # clan of the pedestal on the anchor
    altar: str | None = None


@dataclass
class Board:
    """What lies on the mountain: pieces, statues (unearthed once a piece covers their
    cell) and established workshops. Rubble and buried resources are board data: they
    count as gone once a piece covers their cell."""

    pieces: list[Piece] = field(default_factory=list)
    statues: dict[str, str] = field(default_factory=dict)  # cell -> clan
    workshops: dict[str, str] = field(default_factory=dict)  # site -> workshop id
    next_id: int = 0
    lost_pedestals: int = 0  # pedestals removed from the game under great halls

    @property
    def gates(self) -> dict[str, int]:
        """Start point -> seat, for every gate placed."""
        return {p.name: p.seat for p in self.pieces if p.kind == "gate"}


# how many fields a board has (its `__dict__` holds more once something was worked out
# from its pieces and kept with it)
_BOARD_FIELDS = len(fields(Board))


@dataclass
class State:
    config: GameConfig
    seed: int
    phase: Phase
    players: list[Player]
    accounts: list[Account]
    horde: list[list[HordeSlot]]
    decks: list[list[str]]
    bag: list[str]
    spellbook: list[SpellSlot]
    spell_deck: list[str]
    workshop_supply: list[str]
    coronation_left: list[int]
    pedestal_track: dict[str, int | None]  # "tier:clan" -> token value, None once taken
    tunnels_left: dict[str, int]
    halls_left: list[str]
    board: Board
    turn: Turn | None = None
    gate_seat: int | None = None
    final_turns: int | None = None
    n_actions: int = 0

    # --- convenience -------------------------------------------------------------

    def account_of(self, seat: int) -> Account:
        return self.accounts[self.players[seat].account]

    @property
    def current_seat(self) -> int | None:
        """The seat that must act next (None in the simultaneous draft or at the end)."""
        if self.phase == "gates":
            return self.gate_seat
        if self.phase == "play" and self.turn is not None:
            return self.turn.seat
        return None

    def turn_flags(self) -> list[str]:
        """Rule changes in force for the rest of this turn (from spells)."""
        return self.turn.flags if self.turn is not None else []

    def to_json(self) -> dict[str, Any]:
        # what `dataclasses.asdict` makes of it, without its deep copies (of the config
        # above all): every stored action writes one, so it is on the hot path
        data = {name: _plain(getattr(self, name)) for name in _field_names(State)}
        data["config"] = self.config.model_dump(mode="json")
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        d = dict(data)
        return cls(
            config=GameConfig.stored(d["config"]),
            seed=d["seed"],
            phase=d["phase"],
            players=[
                Player(
                    **{
                        **p,
                        "pyramid": {k: Troll(**t) for k, t in p["pyramid"].items()},
                        "draft_deck": list(p["draft_deck"]),
                        "draft_hand": list(p["draft_hand"]),
                    }
                )
                for p in d["players"]
            ],
            accounts=[
                Account(
                    storage=dict(a["storage"]),
                    pedestals=dict(a["pedestals"]),
                    tokens=[PedestalToken(**t) for t in a["tokens"]],
                    coronation=list(a["coronation"]),
                    tunnel_honor=a["tunnel_honor"],
                    spell_honor=a["spell_honor"],
                )
                for a in d["accounts"]
            ],
            horde=[
                [HordeSlot(s["card"], list(s["bribes"]), s["pedestal"]) for s in row]
                for row in d["horde"]
            ],
            decks=[list(deck) for deck in d["decks"]],
            bag=list(d["bag"]),
            spellbook=[SpellSlot(**s) for s in d["spellbook"]],
            spell_deck=list(d["spell_deck"]),
            workshop_supply=list(d["workshop_supply"]),
            coronation_left=list(d["coronation_left"]),
            pedestal_track=dict(d["pedestal_track"]),
            tunnels_left=dict(d["tunnels_left"]),
            halls_left=list(d["halls_left"]),
            board=Board(
                pieces=[
                    Piece(**{**piece, "cells": list(piece["cells"])})
                    for piece in d["board"]["pieces"]
                ],
                statues=dict(d["board"]["statues"]),
                workshops=dict(d["board"]["workshops"]),
                next_id=d["board"]["next_id"],
                lost_pedestals=d["board"]["lost_pedestals"],
            ),
            turn=None
            if d["turn"] is None
            else Turn(**{**d["turn"], "flags": list(d["turn"]["flags"])}),
            gate_seat=d["gate_seat"],
            final_turns=d["final_turns"],
            n_actions=d["n_actions"],
        )

    def clone(self) -> State:
        """A copy that the engine may change without changing this state: every list,
        dict and dataclass an action changes is copied, and what no action changes in
        place is shared (fast: it knows the shape of the state). Shared: the config,
        the board's pieces (a piece is never changed once laid: a great hall lays new
        ones for the parts of tunnels it leaves uncovered), the pedestal tokens won,
        and what was worked out from the pieces and kept with the board (its networks,
        geometry and `board_memo` values, which depend on the pieces alone)."""
        board = self.board
        new_board = Board(
            list(board.pieces),
            dict(board.statues),
            dict(board.workshops),
            board.next_id,
            board.lost_pedestals,
        )
        kept = board.__dict__
        if len(kept) > _BOARD_FIELDS:
            # the values worked out from the pieces (`rules.mountain`: `_networks`,
            # `_geometry`), kept with the board beside its fields
            new_board.__dict__.update({k: v for k, v in kept.items() if k[0] == "_"})
        turn = self.turn
        return State(
            self.config,
            self.seed,
            self.phase,
            [
                Player(
                    p.seat,
                    p.colour,
                    p.team,
                    p.account,
                    {k: Troll(t.card, list(t.held)) for k, t in p.pyramid.items()},
                    p.recruited_levels,
                    list(p.draft_deck),
                    list(p.draft_hand),
                )
                for p in self.players
            ],
            [
                Account(
                    dict(a.storage),
                    dict(a.pedestals),
                    list(a.tokens),
                    list(a.coronation),
                    a.tunnel_honor,
                    a.spell_honor,
                )
                for a in self.accounts
            ],
            [[HordeSlot(h.card, list(h.bribes), h.pedestal) for h in row] for row in self.horde],
            [list(d) for d in self.decks],
            list(self.bag),
            [SpellSlot(s.spell, s.runes) for s in self.spellbook],
            list(self.spell_deck),
            list(self.workshop_supply),
            list(self.coronation_left),
            dict(self.pedestal_track),
            dict(self.tunnels_left),
            list(self.halls_left),
            new_board,
            None
            if turn is None
            else Turn(
                turn.seat,
                turn.step,
                turn.spell_cast,
                turn.workshop,
                turn.workshop_uses,
                turn.main_done,
                list(turn.flags),
                turn.undo_floor,
            ),
            self.gate_seat,
            self.final_turns,
            self.n_actions,
        )


# the values a state holds besides its dataclasses, lists and dicts: kept as they are
_LEAVES = frozenset({str, int, float, bool, type(None)})
# the field names of each dataclass met (in declaration order, as `asdict` keeps them)
_FIELDS: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in fields(cls))
    return names


def _plain(value: Any) -> Any:
    """A state's value as plain dicts, lists and leaves (what `asdict` returns for it).
    The config is the one value that is not plain data: `to_json` dumps it itself."""
    kind = type(value)
    if kind in _LEAVES:
        return value
    if kind is list:
        return [v if type(v) in _LEAVES else _plain(v) for v in value]
    if kind is dict:
        return {k: v if type(v) in _LEAVES else _plain(v) for k, v in value.items()}
    if kind is tuple:
        return tuple(_plain(v) for v in value)
    if hasattr(kind, "__dataclass_fields__"):
        return {name: _plain(getattr(value, name)) for name in _field_names(kind)}
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, list | tuple):
        return type(value)(_plain(v) for v in value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    raise TypeError(f"a state holds a {kind.__name__}, which JSON cannot store")
