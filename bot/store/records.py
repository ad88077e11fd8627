"""The rows a store keeps, as small immutable values.

Payloads the rules own (game config, state snapshots, stored results) travel as JSON
text: the store never interprets them, so a damaged payload is found (and reported
with its game id) by the service that reads it, not by the store.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

GameStatus = Literal["open", "active", "over", "abandoned"]
GAME_STATUSES: tuple[GameStatus, ...] = ("open", "active", "over", "abandoned")

# what the table owes its players after a change (see `OwedMessage`)
OwedKind = Literal["start", "turn", "ping", "over", "reply", "seat", "vote"]
OWED_KINDS: tuple[OwedKind, ...] = ("start", "turn", "ping", "over", "reply", "seat", "vote")

VoteChoice = Literal["skip", "autopilot"]
VOTE_CHOICES: tuple[VoteChoice, ...] = ("skip", "autopilot")
VoteStatus = Literal["open", "skip", "autopilot", "expired", "void"]
# what a game does while a player is away: waits for them, or the AI plays their turns
AwayPolicy = Literal["wait", "ai"]
AWAY_POLICIES: tuple[AwayPolicy, ...] = ("wait", "ai")
# what a turn clock's zero does: opens the table's vote, or the AI plays that turn
ClockPolicy = Literal["vote", "ai"]
CLOCK_POLICIES: tuple[ClockPolicy, ...] = ("vote", "ai")


@dataclass(frozen=True, slots=True)
class NewGame:
    """What `Store.create_game` needs; the store assigns the id."""

    rules: str
    config: str
    creator_id: int
    reminder_seconds: int
    created_at: datetime
    guild_id: int | None = None
    channel_id: int | None = None
    thread_id: int | None = None
    # the creator's display name, for the seat they take
    creator_name: str | None = None
    # the language of the game's public posts (a catalogue language: en, pl, es)
    language: str = "en"


@dataclass(frozen=True, slots=True)
class GameRecord:
    id: int
    rules: str
    config: str
    seed: int | None
    status: GameStatus
    creator_id: int
    reminder_seconds: int
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    created_at: datetime
    updated_at: datetime
    # the language of the game's public posts (a catalogue language: en, pl, es)
    language: str = "en"
    # what the game does while a player is away; its turn clock (seconds of a player's
    # playing hours a turn; None: no clock) and what the clock's zero does
    away_policy: AwayPolicy = "wait"
    clock_seconds: int | None = None
    clock_policy: ClockPolicy = "vote"


class PlayedBy:
    """Who plays a seat now, written once for every record of a seat (the store's
    `SeatRecord`, the service's `SeatInfo`; its SQL twin is `sql.MACHINE_SEAT`)."""

    __slots__ = ()
    ai: bool
    autopilot: bool
    skip_turn: bool
    user_id: int | None
    substitute_id: int | None
    # the seat's player is away: the game waits ("wait") or the AI plays it ("ai")
    away: AwayPolicy | None

    @property
    def controller_id(self) -> int | None:
        """The Discord user who acts for this seat now (None: the AI or nobody)."""
        if self.ai:
            return None
        return self.substitute_id if self.substitute_id is not None else self.user_id

    @property
    def machine_played(self) -> bool:
        """Whether the AI makes this seat's moves now (an AI seat, autopilot, a skipped
        turn, a seat nobody holds, or its player away from a game where the AI plays
        then)."""
        return (
            self.ai
            or self.autopilot
            or self.skip_turn
            or self.controller_id is None
            or self.away == "ai"
        )


@dataclass(frozen=True, slots=True)
class SeatRecord(PlayedBy):
    """A seat at the table. `user_id` is the player who joined (None once kicked, and
    for an AI seat); `substitute_id`, when set, plays the seat instead. `ai` marks a
    seat the AI plays for the whole game; `autopilot` a player's seat the AI plays
    until it is taken back; `skip_turn` one turn the AI plays after a vote to skip.
    `name` is the player's display name as last seen."""

    game_id: int
    seat: int
    user_id: int | None
    joined_at: datetime
    colour: str | None = None
    team: int | None = None
    substitute_id: int | None = None
    autopilot: bool = False
    ai: bool = False
    skip_turn: bool = False
    name: str | None = None
    # written only by the away part of the store (`/mk away`): the seat's other writes
    # leave it as it is
    away: AwayPolicy | None = None


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """One entry of the action log, the truth of a game: `seq` counts from 1."""

    game_id: int
    seq: int
    seat: int
    notation: str
    created_at: datetime
    user_id: int | None = None
    interaction_id: int | None = None
    # what the action did, told by the rules from the position it was played in
    story: str | None = None
    # the acting seat was no longer awaited after it (its turn, or its draft, ended)
    ends_turn: bool = False
    # the log's chain value after this entry (bot/store/integrity.py): the store fills
    # it in on append and on read; it takes no part in comparisons
    chain: str | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class SnapshotRecord:
    """The state after action `seq` (0: after setup), as JSON: a cache of the log."""

    game_id: int
    seq: int
    state: str
    # as stored (the store computes both when it writes the snapshot): the log's chain
    # value at `seq` and the digest of `state` bound to it; None if never computed
    chain: str | None = field(default=None, compare=False)
    digest: str | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class InteractionRecord:
    """A Discord interaction already handled, with the result it was answered with."""

    interaction_id: int
    game_id: int
    seq: int
    result: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class NotificationPrefs:
    """How a user wants to be reminded. Quiet hours are minutes after local midnight
    (start inclusive, end exclusive; the window may wrap past midnight)."""

    user_id: int
    dm_opt_in: bool = False
    quiet_start: int | None = None
    quiet_end: int | None = None
    timezone: str = "UTC"
    # the language of the user's last interaction (None: never seen since it was kept)
    language: str | None = None


@dataclass(frozen=True, slots=True)
class ReminderRecord:
    """A seat the game is waiting for: since when, and when to remind it next."""

    game_id: int
    seat: int
    waiting_since: datetime
    next_at: datetime
    missed: int = 0
    muted_for_turn: bool = False


@dataclass(frozen=True, slots=True)
class StoredGame:
    """Everything needed to rebuild a game's state in one consistent read: the game,
    its seats, the latest snapshot and the log entries after it."""

    game: GameRecord
    seats: tuple[SeatRecord, ...]
    snapshot: SnapshotRecord | None
    later_actions: tuple[ActionRecord, ...]
    last_seq: int
    # how many entries the log holds (fewer than `last_seq`: an entry is missing)
    entries: int = 0
    # the log's stored chain value at the snapshot's seq (the game's genesis value at 0;
    # None if there is no such entry)
    log_chain: str | None = None


@dataclass(frozen=True, slots=True)
class NewOwed:
    """A message the table owes, as the service decides it: stored in the same
    transaction as the change that makes it owed. `payload` is JSON the bot's message
    builders read; `due_at` None means at once."""

    kind: OwedKind
    payload: str
    due_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class OwedMessage:
    """A stored owed message. `seq` is the game's version when it became owed;
    `tried_at` is when a delivery last began (then it may have reached Discord even if
    it is not marked); `delivered_at` is set once Discord accepted it (or it was found
    obsolete)."""

    id: int
    game_id: int
    seq: int
    kind: OwedKind
    payload: str
    created_at: datetime
    due_at: datetime
    attempts: int = 0
    last_error: str | None = None
    delivered_at: datetime | None = None
    channel_id: int | None = None
    message_id: int | None = None
    tried_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class VoteRecord:
    """The table's vote about an absent seat's turn (`turn_since`: when the game began
    to await that turn); at most one per game and turn, and one open per game."""

    id: int
    game_id: int
    seat: int
    turn_since: datetime
    opened_at: datetime
    deadline: datetime
    status: VoteStatus = "open"
    decided_at: datetime | None = None
    channel_id: int | None = None
    message_id: int | None = None


@dataclass(frozen=True, slots=True)
class BallotRecord:
    """One voter's choice in a vote (a later click replaces it)."""

    vote_id: int
    voter_id: int
    choice: VoteChoice
    cast_at: datetime


@dataclass(frozen=True, slots=True)
class DigestRecord:
    """A player's daily digest DM ("your move in 3 games"): `due_at` is when the next one
    is due (None: the player has not opted in); `sent_at` when the last one was claimed
    to be sent, so a restart never sends a second one the same day."""

    user_id: int
    due_at: datetime | None = None
    sent_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class AwayRecord:
    """A player away (`/mk away`) since `began_at` until `ends_at`."""

    user_id: int
    began_at: datetime
    ends_at: datetime


@dataclass(frozen=True, slots=True)
class ClockRecord:
    """An awaited seat of a game with a turn clock, as the clock's duty reads it: the
    turn (`waiting_since`), the turn the clock was set for (`since`; another: not set
    yet), its deadline, its reminder's time and how far it went (0 set, 1 reminded, 2
    ran out); with the game's clock and policy and who plays the seat."""

    game_id: int
    seat: int
    waiting_since: datetime
    since: datetime | None
    due: datetime | None
    warn: datetime | None
    stage: int
    clock_seconds: int
    clock_policy: ClockPolicy
    user_id: int | None


# the holder of a resting claim: nobody (see `DutyClaim`)
RESTING = ""


@dataclass(frozen=True, slots=True)
class DutyClaim:
    """A scheduler duty (`duty`: a key such as `deliver:12` or `prune`) claimed by the
    bot process `owner` until `until`, its lease: while it runs, no other process may
    claim the duty; once it has run out, any process may take it over (its holder
    crashed, or hangs). An owner of `RESTING` marks a rest: a periodic duty was done
    and nobody may claim it again before `until`."""

    duty: str
    owner: str
    until: datetime
