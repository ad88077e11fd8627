"""What the service returns: plain values the bot turns into messages and images."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, fields, replace
from datetime import datetime
from typing import Any, Generic

from bot.i18n.catalogue import ENGLISH, Messages
from bot.service.protocol import A, StoryData, V
from bot.store import GameStatus
from bot.store.records import AwayPolicy, ClockPolicy, PlayedBy


def called(
    label: str,
    name: str | None,
    ai: bool = False,
    messages: Messages = ENGLISH,
    colour: str | None = None,
) -> str:
    """A seat as players read it: the name with the colour, "alice (Blue)"; an AI's
    name says so, "Grimli (Blue, AI)"; the colour alone when no name is known. In
    `messages`' language with the colour as it names it (`colour`; by default the
    label, capitalised: the service's English)."""
    colour = colour or label[:1].upper() + label[1:]
    if ai:
        if name:
            return messages.gettext("{name} ({colour}, AI)", name=name, colour=colour)
        return messages.gettext("{colour} (AI)", colour=colour)
    return messages.gettext("{name} ({colour})", name=name, colour=colour) if name else colour


@dataclass(frozen=True, slots=True)
class SeatInfo(PlayedBy):
    seat: int
    label: str
    user_id: int | None
    substitute_id: int | None
    team: int | None
    autopilot: bool
    ai: bool = False
    skip_turn: bool = False
    name: str | None = None
    away: AwayPolicy | None = None

    @property
    def called(self) -> str:
        """The seat as players read it: "alice (Blue)"."""
        return called(self.label, self.name, self.ai)


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A game's metadata, without loading its state."""

    id: int
    rules: str
    status: GameStatus
    config: dict[str, Any]
    seed: int | None
    creator_id: int
    seats: tuple[SeatInfo, ...]
    seats_needed: int
    reminder_seconds: int
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    created_at: datetime
    updated_at: datetime
    # the language of the game's public posts (en, pl or es)
    language: str = "en"
    # what the game does while a player is away; its turn clock (seconds of a player's
    # playing hours a turn; None: no clock) and what the clock's zero does
    away_policy: AwayPolicy = "wait"
    clock_seconds: int | None = None
    clock_policy: ClockPolicy = "vote"

    def seat_of(self, user_id: int) -> SeatInfo | None:
        """The seat this user plays now (as player or substitute), if any."""
        return next((s for s in self.seats if s.controller_id == user_id), None)

    @property
    def names(self) -> dict[int, str]:
        """Each seat's player name where one is known (what the images show)."""
        return {s.seat: s.name for s in self.seats if s.name}

    def seat_labelled(self, label: str) -> SeatInfo | None:
        """The seat of this colour (case-insensitive), if any."""
        wanted = label.strip().lower()
        return next((s for s in self.seats if s.label.lower() == wanted), None)


@dataclass(frozen=True, slots=True)
class ActResult:
    """The events of one accepted action, for the bot to describe.

    `turn_ended` says the actor is no longer awaited (ping `newly_to_act` once, never
    per sub-action); `repeated` marks the stored answer to a retried interaction."""

    game_id: int
    seq: int
    seat: int
    label: str
    user_id: int | None
    notation: str
    turn_ended: bool
    to_act: tuple[int, ...]
    newly_to_act: tuple[int, ...]
    game_over: bool
    outcome: dict[str, Any] | None = None
    undone: str | None = None
    # what the action did, as the rules tell it (stored with it)
    story: StoryData = ""
    # what the player who acted is told they did (an undo: the action taken back)
    told: StoryData = ""
    # the game's rules' name (its face tells the story); "" in answers stored before
    rules: str = ""
    # the action began or answered a decision out of turn (a Troll flight): no turn of
    # the player's ended with it, even if they are no longer awaited
    decision: bool = False
    # the owed private answer to the interaction, if the caller gave its token
    reply_id: int | None = None
    repeated: bool = False

    def to_json(self) -> str:
        # the fields hold plain JSON values already (stories and outcomes are data):
        # no deep copy of them as `asdict` makes, on every act
        data = {name: getattr(self, name) for name in _STORED_RESULT}
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> ActResult:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("a stored result must be a JSON object")
        data["to_act"] = tuple(data["to_act"])
        data["newly_to_act"] = tuple(data["newly_to_act"])
        return cls(**data)

    def as_repeated(self) -> ActResult:
        return replace(self, repeated=True)


# what an interaction's stored answer keeps (`repeated` is said when it is read back)
_STORED_RESULT = tuple(f.name for f in fields(ActResult) if f.name != "repeated")


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One action that stands in the game (undone ones are left out), with the story
    the rules told of it when it was stored (None for the oldest entries)."""

    seq: int
    seat: int
    label: str
    notation: str
    user_id: int | None
    at: datetime
    story: StoryData | None = None
    # the seat's player's name and whether the AI plays the seat (the bot calls them
    # "alice (Blue)" in the reader's language)
    name: str | None = None
    ai: bool = False

    def __str__(self) -> str:
        return f"{self.label} {self.notation}"

    @property
    def told(self) -> StoryData:
        """What the action did, or its notation for entries stored before stories
        were told."""
        return self.story or {"kind": "played", "notation": self.notation}


@dataclass(frozen=True, slots=True)
class Waiting:
    """A seat the game is waiting for (`autopilot`: the AI plays it now)."""

    seat: int
    label: str
    user_id: int | None
    autopilot: bool
    since: datetime
    next_reminder: datetime
    missed: int
    muted: bool


@dataclass(frozen=True, slots=True)
class TurnStatus:
    game_id: int
    status: GameStatus
    waiting: tuple[Waiting, ...]


@dataclass(frozen=True, slots=True)
class DueReminder:
    """A reminder to send now; the bot reports back with `GameService.reminder_sent`."""

    game_id: int
    seat: int
    label: str
    user_id: int | None
    thread_id: int | None
    channel_id: int | None
    since: datetime
    missed: int
    dm_opt_in: bool
    # the language of the player's last interaction (their DM is written in it)
    language: str | None = None

    @property
    def turn(self) -> int:
        """The turn this reminder is about (see `notifications.turn_version`)."""
        return int(self.since.timestamp() * 1000)

    @property
    def nonce(self) -> str:
        """Stable for this reminder (game, seat, turn and how many came before it), at
        most 25 characters: Discord drops a second create with the same nonce for a few
        minutes, so a process that takes the reminder over from one that sent it just
        before dying does not remind twice."""
        key = f"{self.game_id}:{self.seat}:{self.turn}:{self.missed}".encode()
        return f"mk-r{hashlib.sha256(key).hexdigest()[:20]}"


@dataclass(frozen=True, slots=True)
class GameView(Generic[V]):
    """What one viewer may see, with the metadata the images need. `state` (the rules'
    view, `GameRules.view`) is None before the game starts; `outcome` is set once it is
    over."""

    game: GameInfo
    seq: int
    viewer_seat: int | None
    state: V | None
    outcome: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class ReplyTo:
    """Where the private answer to an interaction goes: Discord accepts follow-ups
    with its token for 15 minutes."""

    application_id: int
    token: str
    # the reader's language (their Discord client's), for an answer sent later
    language: str = "en"
    # the bot process whose command answers it (the service fills it in): the delivery
    # worker of another process leaves the answer to it while it may still run
    answered_by: str | None = None


@dataclass(frozen=True, slots=True)
class ActionPreview(Generic[A, V]):
    """An action looked at before it is confirmed (a dig): legal, or the refusal with
    the cell at fault; the version it was judged at (the Confirm button carries it),
    the action judged and its notation (what Confirm plays: it reads back to the same
    action), what it would do, the cells it changes, and the player's view of the
    board."""

    game_id: int
    seq: int
    seat: int
    action: A
    notation: str
    cells: tuple[str, ...]
    story: StoryData | None
    refusal: ValueError | None
    refusal_cell: str | None
    view: V

    @property
    def legal(self) -> bool:
        return self.refusal is None


# --- your games


@dataclass(frozen=True, slots=True)
class YourGame:
    """One of a player's games as `/mk games` lists it: the game, the player's seat,
    the seats the game waits for and since when (for the player's own move: since when
    it waits for them), and whether it is the player's move."""

    game: GameInfo
    seat: SeatInfo
    awaited: tuple[SeatInfo, ...] = ()
    since: datetime | None = None
    your_move: bool = False


@dataclass(frozen=True, slots=True)
class Digest:
    """A daily digest to send: the games where it is the player's move."""

    user_id: int
    games: tuple[YourGame, ...]
    # the language of the player's last interaction (None: never seen: English)
    language: str | None = None
