"""The small, game-agnostic protocol the service talks to a rules package through.

A game is `(config, seed, actions)`: the service stores the config (JSON) and the
seed, asks who may act, applies actions on the checked path for players and on the
trusted path for replays, and keeps the log in the game's own notation. Another rules
package (e.g. Cave Troll) can sit beside this one by implementing `GameRules`.

Player mistakes are raised by the rules as `ValueError` subclasses with a sentence a
player understands; the service lets them through unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, Protocol, TypeVar

import typing_extensions

# What an action did, as the rules tell it: JSON-ready data (a kind and its facts) the
# bot tells in any language and voice; a game stored before stories were data kept an
# English sentence instead.
StoryData = dict[str, Any] | str
# how a turn played in a phase is told to the table: not at all until the phase is over
# (a secret draft), in one short line that calls the next player (setting up), or with
# the turn post and images
Announce = Literal["secret", "brief", "full"]
# how a game's face tells a story: of the reader ("you recruited..."), of a player named
# before it ("they" after "alice (Blue)"), or asking before it is done ("Dig ...?")
Voice = Literal["they", "you", "ask"]

S = TypeVar("S")
A = TypeVar("A")
# what a seat may see of a game (`GameRules.view`): the rules' own type (the Mountain
# King's is the TypedDict `rules.view.View`), carried to the game's face through the
# service's results (`GameView`, `ActionPreview`) without the table reading it. Where
# the table holds any game's service, it is Any, as the state and the action are.
V = typing_extensions.TypeVar("V", default=Any)
V_co = typing_extensions.TypeVar("V_co", covariant=True, default=Any)


@dataclass(frozen=True)
class Asked(Generic[A]):
    """An action a command asks for by its options: the kind of action (what the game's
    phase and turn are asked about first) and how to build it from the options, with
    the rules' own types (`build` raises the rules' error for an option it cannot
    read). The service builds it only once the moment allows an action of that kind,
    so that a refusal fits the moment, as for an action in notation."""

    kind: str
    build: Callable[[], A]


class GameRules(Protocol[S, A, V_co]):
    """What the service needs from a rules package. `S` is its state, `A` an action,
    `V_co` what a seat may see (the service hands it on, never reads it)."""

    @property
    def name(self) -> str:
        """A stable id stored with every game (e.g. `"mountain-king"`)."""
        ...

    def make_config(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Validate game options; returns the config as JSON-ready data."""
        ...

    def seat_count(self, config: Mapping[str, Any]) -> int:
        """How many seats the table needs."""
        ...

    def seat_labels(self, config: Mapping[str, Any]) -> tuple[str, ...]:
        """A name per seat that players recognise (a colour)."""
        ...

    def new_state(self, config: Mapping[str, Any], seed: int) -> S:
        """The state after setup: every shuffle comes from `seed`."""
        ...

    def seat_teams(self, state: S) -> tuple[int | None, ...]:
        """Each seat's team (None without teams)."""
        ...

    def to_act(self, state: S) -> tuple[int, ...]:
        """The seats that may act now (several in a simultaneous phase)."""
        ...

    def next_in_turn(self, state: S, seat: int) -> int | None:
        """The seat whose turn comes after `seat`'s, now that `seat` acts alone in
        turn order (None: not so, e.g. a simultaneous phase; or no turn follows)."""
        ...

    def phase(self, state: S) -> str:
        """The game's phase (e.g. the gates, the draft, play): when it changes, every
        seat awaited is awaited anew (a new turn, even for a seat that was awaited
        before)."""
        ...

    def decision_seconds(self, state: S) -> int | None:
        """How long the awaited out-of-turn decision (Cave Troll's Troll flight) may
        wait before the table plays its default answer (`choose_action`) for the seat
        awaited; None for an ordinary turn."""
        ...

    def legal_actions(self, state: S, seat: int) -> Sequence[A]: ...

    def parse_action(self, text: str) -> A:
        """Read one action in notation; raises the rules' error for bad text."""
        ...

    def read_action(self, state: S, seat: int, asked: str | Asked[A]) -> A:
        """Read the action a player of `seat` asks for, in notation or built from a
        command's options (`Asked`), where the game stands: raises first what the game's
        phase and turn refuse to an action of that kind, then what is wrong with the
        text or an option (a refusal that fits the moment: a gate asked for in play is
        refused as a gate, whatever point it names)."""
        ...

    def notation(self, action: A) -> str: ...

    def play(self, state: S, seat: int, action: A) -> S:
        """The checked path: the state after the action, or the rules' error. The
        given state is never changed."""
        ...

    def replay(self, state: S, seat: int, action: A) -> None:
        """The trusted path used to rebuild a game from its log: changes `state`."""
        ...

    def can_undo(self, state: S, seat: int, last_seat: int | None) -> bool:
        """Whether `seat` may take back the last action (taken by `last_seat`)."""
        ...

    def view(self, state: S, seat: int | None) -> V_co:
        """What one seat (None: a spectator) may see, for the game's face (its images)."""
        ...

    def is_over(self, state: S) -> bool: ...

    def outcome(self, state: S) -> dict[str, Any] | None:
        """The final result as JSON-ready data, once the game is over."""
        ...

    def describe(self, state: S, seat: int, action: A) -> dict[str, Any]:
        """What the action does, told from `state`, the position it is played in: the
        story stored with the action (JSON-ready; the bot tells it to the table, to the
        player who acted, or asks it before a move)."""
        ...

    def announce(self, state: S) -> Announce:
        """How a turn played in this position is told to the table (see `Announce`)."""
        ...

    def told_to(
        self, state: S, viewer: int | None, seat: int, story: StoryData
    ) -> StoryData | None:
        """The stored story of `seat`'s past action as `viewer` (None: anyone at the
        table) may hear it with the game at `state`: None while it is a secret of
        another seat, perhaps in other words once revealed. The log and "since your
        last turn" tell only what this gives."""
        ...

    def played_in_secret(self, story: StoryData) -> bool:
        """Whether the action was played in a secret, simultaneous phase: its actions do
        not end anyone's turn and are told together once the phase is over."""
        ...

    def revealed(self, state: S, seat: int) -> dict[str, Any]:
        """What a seat did in a secret phase, told once it is over ("kept ..."), as a
        story."""
        ...

    def cells(self, action: A) -> tuple[str, ...]:
        """The board cells an action changed (what a turn post outlines)."""
        ...

    def choose_action(self, state: S, seat: int, seed: int) -> A:
        """The AI's legal action for `seat` (the same for the same state and seed)."""
        ...

    def record(
        self, config: Mapping[str, Any], seed: int, moves: Sequence[tuple[int, str]]
    ) -> dict[str, Any]:
        """A finished game's record as JSON-ready data, from its (seat, notation) moves."""
        ...

    def record_outcome(self, record: Mapping[str, Any]) -> dict[str, Any] | None:
        """The outcome a record replays to (None if it does not end); raises the rules'
        error if it does not replay."""
        ...

    def state_to_json(self, state: S) -> str: ...

    def state_from_json(self, text: str) -> S: ...
