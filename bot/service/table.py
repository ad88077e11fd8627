"""What an accepted action makes the table owe: pure functions from the action's
events and the seats to the owed payloads the service stores with it.

- the private answer to the player who acted (when the interaction's token is known);
- at the end of a seat's turn, the turn post: every sentence of that turn that still
  stands (undone actions are left out), the cells it changed, and the call to each
  seat a person plays that the game awaits anew (one public message a turn);
- a ping for a seat awaited anew when no turn post calls it;
- at the end of the game, the game-over post (no call: nobody acts any more).
Seats the AI plays are never pinged: the scheduler owes them a move instead (their
reminder row, written in the same transaction, is due at once).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Generic

from bot.service import stories
from bot.service.loading import standing
from bot.service.owed import GameOver, Images, OwedPayload, Ping, Player, Reply, Told, TurnPost
from bot.service.protocol import A, Announce, GameRules, S, StoryData
from bot.service.results import ActResult, ReplyTo
from bot.service.seats import label
from bot.store import ActionRecord, NewOwed, ReminderRecord, SeatRecord

# Discord accepts follow-ups with an interaction's token for 15 minutes
REPLY_TTL = timedelta(minutes=15)
# the command that acted answers its player itself; the stored answer is only sent by
# the delivery worker if that did not happen (the process died) within this time
REPLY_GRACE = timedelta(seconds=30)


@dataclass(frozen=True, slots=True)
class Commit(Generic[S]):
    """An accepted action about to be stored: the states around it, who played it, its
    notation, the story the rules told of it and the cells it changed."""

    before: S
    after: S
    seat: SeatRecord
    user_id: int | None
    notation: str
    story: StoryData
    cells: tuple[str, ...]
    undone: str | None = None
    # what the player who acted is told they did (an undo: the action taken back)
    told: StoryData = ""


def player(seat: SeatRecord) -> Player:
    """A seat as an owed message names it."""
    return Player(
        seat=seat.seat,
        label=label(seat),
        user_id=seat.controller_id,
        name=seat.name,
        ai=seat.ai,
        team=seat.team,
    )


def stored(payload: OwedPayload, due_at: datetime | None = None) -> NewOwed:
    return NewOwed(payload.kind, payload.model_dump_json(), due_at)


@dataclass(frozen=True, slots=True)
class Telling:
    """How the table hears of an action: how turns are told in the position it was
    played in (`before`) and in the one it made (`after`, whose phase is `phase`), and
    what each seat did in secret when a secret phase ended (`revealed`)."""

    before: Announce = "full"
    after: Announce = "full"
    phase: str = ""
    revealed: tuple[tuple[int, StoryData], ...] = ()


def owed_after(
    rules: GameRules[S, A],
    result: ActResult,
    seats: Sequence[SeatRecord],
    log: Sequence[ActionRecord],
    waiting: Sequence[ReminderRecord],
    *,
    reply_to: ReplyTo | None,
    expires: datetime,
    telling: Telling = Telling(),
) -> list[OwedPayload]:
    """The messages one accepted action makes owed, in the order they are delivered
    (the private answer last, so it can say whether the public posts went out).

    `log` holds the entries since the acting seat's previous turn ended, this action
    last (only read when the turn ended); `waiting` the reminder rows written with it.
    A turn's post calls whoever acts next. While the game is set up (`telling`), a turn
    is told in a short post, and a secret phase is told once, when it is over.
    """
    by_seat = {s.seat: s for s in seats}
    next_at = {r.seat: r.next_at for r in waiting}
    calls = [
        player(by_seat[s])
        for s in result.newly_to_act
        if not by_seat[s].machine_played and s in next_at
    ]
    owed: list[OwedPayload] = []
    turn = [e for e in standing(log) if e.seat == result.seat] if result.turn_ended else []
    post = TurnPost(
        player=player(by_seat[result.seat]),
        sentences=tuple(stories.of(e) for e in turn),
        cells=_cells(rules, turn),
        seq=result.seq,
    )
    if telling.before == "full" or result.game_over:
        if result.turn_ended:
            if calls and not result.game_over:
                # one public message a turn: the post calls whoever plays next itself
                post = _calling(post, calls, next_at, telling.phase)
                calls = []
            owed.append(post)
    else:
        told: tuple[Told, ...] = ()
        if telling.before == "secret" and telling.after != "secret":
            told = tuple(
                Told(player=player(by_seat[s]), sentences=(line,)) for s, line in telling.revealed
            )
        elif telling.before == "brief" and result.turn_ended:
            told = post.lines
        if told or calls:
            images: Images = "board" if telling.after == "full" else "none"
            post = post.model_copy(update={"told": told, "images": images})
            owed.append(_calling(post, calls, next_at, telling.phase))
        calls = []
    if result.game_over:
        winners = _winning_seats(result.outcome)
        owed.append(GameOver(winners=tuple(player(by_seat[s]) for s in winners), seq=result.seq))
    else:
        owed.extend(Ping(player=p, next_reminder=next_at[p.seat]) for p in calls)
    if reply_to is not None and result.user_id is not None:
        owed.append(
            Reply(
                user_id=result.user_id,
                application_id=reply_to.application_id,
                token=reply_to.token,
                expires_at=expires,
                notation=result.notation,
                story=result.told or result.story,
                turn_ended=result.turn_ended,
                game_over=result.game_over,
                undone=result.undone,
                decision=result.decision,
                language=reply_to.language,
                answered_by=reply_to.answered_by,
            )
        )
    return owed


def _calling(
    post: TurnPost, calls: Sequence[Player], next_at: Mapping[int, datetime], phase: str
) -> TurnPost:
    """The post calling these players to act in `phase` (each mentioned, none other)."""
    return post.model_copy(
        update={
            "calls": tuple(calls),
            "call_phase": phase,
            "next_reminder": min((next_at[p.seat] for p in calls), default=None),
        }
    )


def _cells(rules: GameRules[S, A], turn: Sequence[ActionRecord]) -> tuple[str, ...]:
    cells: set[str] = set()
    for entry in turn:
        cells.update(rules.cells(rules.parse_action(entry.notation)))
    return tuple(sorted(cells))


def _winning_seats(outcome: dict[str, Any] | None) -> tuple[int, ...]:
    seats = (outcome or {}).get("winning_seats", ())
    return tuple(int(s) for s in seats)
