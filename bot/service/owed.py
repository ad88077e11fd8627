"""What the table owes its players after a change, as typed payloads.

The service decides these when it stores the change, in the same transaction (the
outbox), and the bot's delivery worker turns each into a Discord message later: at
once in the normal case, after a restart or a refused post otherwise. A payload holds
everything its message needs, so a message built twice from it reads the same (the
worker relies on that to recognise a post that was sent before a crash).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from bot.service.protocol import StoryData


class _Payload(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Player(_Payload):
    """A seat as the table knows it when the message is owed."""

    seat: int
    label: str
    user_id: int | None = None
    name: str | None = None
    ai: bool = False
    team: int | None = None


class StartPost(_Payload):
    """The game has begun: every player, who acts first, and in which phase (the
    gates, or the draft in games of edition 1; a start owed before the phase was
    stored began with the draft)."""

    kind: Literal["start"] = "start"
    players: tuple[Player, ...]
    to_act: tuple[int, ...]
    phase: str = "draft"
    # the turn clock's zero for whoever is called first (the earliest; None: no clock)
    deadline: datetime | None = None


class Told(_Payload):
    """One player's line in a post: what they did (the rules' stories, told by the
    bot in the game's language; older payloads hold English sentences)."""

    player: Player
    sentences: tuple[StoryData, ...]


# which images a turn post carries: the board, its zoomed crop and the player's
# pyramid; the board alone; none
Images = Literal["all", "board", "none"]


class TurnPost(_Payload):
    """What a finished turn did, with the board and the player's pyramid as they were
    at version `seq`, calling whoever acts next (`calls`, to act in the phase
    `call_phase`): one public message a turn, no separate ping. (Posts stored before
    the call moved into them call nobody: a `Ping` follows them.)

    While the game is set up a post is brief: no images (`images`), or the board alone
    once the mountain is ready; it may tell several players' lines at once (`told`, the
    draft revealed when everyone has kept)."""

    kind: Literal["turn"] = "turn"
    player: Player
    sentences: tuple[StoryData, ...]
    cells: tuple[str, ...]
    seq: int
    images: Images = "all"
    told: tuple[Told, ...] = ()
    calls: tuple[Player, ...] = ()
    call_phase: str = ""
    next_reminder: datetime | None = None
    # the turn clock's zero for whoever is called (the earliest; None: no clock)
    deadline: datetime | None = None

    @property
    def lines(self) -> tuple[Told, ...]:
        """Every player's line, the acting player's when no others are told."""
        return self.told or (Told(player=self.player, sentences=self.sentences),)


class Ping(_Payload):
    """A fresh message mentioning exactly the player who must act now, when no turn
    post calls them (a seat that changed hands while the game awaits it)."""

    kind: Literal["ping"] = "ping"
    player: Player
    next_reminder: datetime
    # the turn clock's zero (None: no clock)
    deadline: datetime | None = None


class GameOver(_Payload):
    """The score sheet, the winners and the record."""

    kind: Literal["over"] = "over"
    winners: tuple[Player, ...]
    seq: int


class Reply(_Payload):
    """The private answer to the player whose interaction caused the change, sent as a
    follow-up with the interaction's token while Discord still accepts it."""

    kind: Literal["reply"] = "reply"
    user_id: int
    application_id: int
    token: str
    expires_at: datetime
    notation: str
    # what the player did (an undo: the action taken back)
    story: StoryData
    turn_ended: bool = False
    game_over: bool = False
    undone: str | None = None
    # the reader's language when they acted (an answer sent after a restart keeps it)
    language: str = "en"
    # the bot process whose command answers the player itself (`bot.service.duties`);
    # until the answer is due, no other process sends it unless that one is gone
    answered_by: str | None = None
    # a decision out of turn begun or answered (`ActResult.decision`)
    decision: bool = False


SeatChange = Literal[
    "kicked",
    "substitute",
    "returned",
    "autopilot-on",
    "autopilot-off",
    "offered",
    # the seat's player is away until `until`, or back; the turn clock's one reminder
    # (its zero at `until`), and its zero reached (bot/service/away.py, clock.py)
    "away",
    "back",
    "clock",
    "timeout",
    # a decision out of turn (a Troll flight) not answered by its deadline: the AI
    # gives the rules' default answer (bot/service/decisions.py)
    "late",
    # the tidy server (bot/service/tidy.py): the game is idle (ending at `until`), it
    # ended idle as abandoned, the lobby closed never started; told by bot/tidy_texts.py
    # (the outbox's kinds are fixed by its CHECK: the table's news rides on "seat")
    "idle",
    "idle-ended",
    "lobby-closed",
]
# the changes the time of the table makes (told by bot/time_texts.py)
TIME_CHANGES: tuple[SeatChange, ...] = ("away", "back", "clock", "timeout", "late")
TIDY_CHANGES: tuple[SeatChange, ...] = ("idle", "idle-ended", "lobby-closed")
# how a seat changed hands: the new player accepted an offer, the player who held it
# agreed to hand it over, a server admin assigned it, nobody was playing it (autopilot
# or vacant), or its own player took it back
SeatHow = Literal["", "accepted", "agreed", "admin", "absent", "own"]


class SeatNews(_Payload):
    """A change of who plays a seat, announced to the table; or (`offered`) an offer of
    the seat to `other_user_id` that `accepter_id` must accept with the button, valid
    while the seat's state still has the fingerprint `token`."""

    kind: Literal["seat"] = "seat"
    change: SeatChange
    player: Player
    by_user_id: int | None = None
    # the user who left the seat (kicked) or took it (substitute, offered)
    other_user_id: int | None = None
    # the seat as it was, the name of who made the change, and how it came about
    before: Player | None = None
    by_name: str | None = None
    how: SeatHow = ""
    accepter_id: int | None = None
    token: int = 0
    # the seat's own player after the change (None: a vacant or AI seat)
    owner_id: int | None = None
    # away until then; the turn clock's zero; when an idle game ends
    until: datetime | None = None
    # days: without a move (idle), or that a lobby waited (lobby-closed)
    days: int = 0


class VoteNews(_Payload):
    """Post the vote's message, or edit it in place with the tally as it stands."""

    kind: Literal["vote"] = "vote"
    vote_id: int


OwedPayload = Annotated[
    StartPost | TurnPost | Ping | GameOver | Reply | SeatNews | VoteNews,
    Field(discriminator="kind"),
]
_ADAPTER: TypeAdapter[OwedPayload] = TypeAdapter(OwedPayload)


def read_payload(text: str) -> OwedPayload:
    """A stored payload; raises `pydantic.ValidationError` if it is damaged."""
    return _ADAPTER.validate_json(text)
