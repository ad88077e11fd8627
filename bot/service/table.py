"""What an accepted action makes the table owe: pure functions from the action's
events and the seats to the owed payloads the service stores with it.

- the private answer to the player who acted (when the interaction's token is known);
- at the end of a seat's turn, the turn post: every sentence of that turn that still
  stands (undone actions are left out) and the cells it changed;
- a ping for each seat a person plays that the game awaits anew;
- at the end of the game, the game-over post.
Seats the AI plays are never pinged: the scheduler owes them a move instead (their
reminder row, written in the same transaction, is due at once).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Generic

from bot.service.loading import standing
from bot.service.owed import GameOver, OwedPayload, Ping, Player, Reply, TurnPost
from bot.service.protocol import A, GameRules, S
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
    story: str
    cells: tuple[str, ...]
    undone: str | None = None


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


def owed_after(
    rules: GameRules[S, A],
    result: ActResult,
    seats: Sequence[SeatRecord],
    log: Sequence[ActionRecord],
    waiting: Sequence[ReminderRecord],
    *,
    reply_to: ReplyTo | None,
    expires: datetime,
) -> list[OwedPayload]:
    """The messages one accepted action makes owed, in the order they are delivered
    (the private answer last, so it can say whether the public posts went out).

    `log` holds the entries since the acting seat's previous turn ended, this action
    last (only read when the turn ended); `waiting` the reminder rows written with it.
    """
    by_seat = {s.seat: s for s in seats}
    owed: list[OwedPayload] = []
    if result.turn_ended:
        turn = [e for e in standing(log) if e.seat == result.seat]
        owed.append(
            TurnPost(
                player=player(by_seat[result.seat]),
                sentences=tuple(e.story or f"played `{e.notation}`" for e in turn),
                cells=_cells(rules, turn),
                seq=result.seq,
            )
        )
    if result.game_over:
        winners = _winning_seats(result.outcome)
        owed.append(GameOver(winners=tuple(player(by_seat[s]) for s in winners), seq=result.seq))
    else:
        next_at = {r.seat: r.next_at for r in waiting}
        for seat in result.newly_to_act:
            target = by_seat[seat]
            if not target.machine_played and seat in next_at:
                owed.append(Ping(player=player(target), next_reminder=next_at[seat]))
    if reply_to is not None and result.user_id is not None:
        owed.append(
            Reply(
                user_id=result.user_id,
                application_id=reply_to.application_id,
                token=reply_to.token,
                expires_at=expires,
                notation=result.notation,
                story=result.story,
                turn_ended=result.turn_ended,
                game_over=result.game_over,
                undone=result.undone,
            )
        )
    return owed


def _cells(rules: GameRules[S, A], turn: Sequence[ActionRecord]) -> tuple[str, ...]:
    cells: set[str] = set()
    for entry in turn:
        cells.update(rules.cells(rules.parse_action(entry.notation)))
    return tuple(sorted(cells))


def _winning_seats(outcome: dict[str, Any] | None) -> tuple[int, ...]:
    seats = (outcome or {}).get("winning_seats", ())
    return tuple(int(s) for s in seats)
