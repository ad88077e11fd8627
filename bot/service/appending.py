"""Storing one accepted action: its log entry with its story, its snapshot, the
interaction's answer, the new reminder schedule and every message it makes owed, in
one store transaction (`append`); and what another process storing first means for it
(`Overtaken`, `again_if_overtaken`, `earlier_result`)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from bot.service import stories
from bot.service.away import come_back
from bot.service.clock import with_deadlines
from bot.service.decisions import first_reminder, with_deadline
from bot.service.errors import GameMovedOnError
from bot.service.loading import Loaded, appended, corrupt, storage_full, stored_state
from bot.service.notifications import waiting_rows
from bot.service.outbox import Fresh, Owed
from bot.service.protocol import A, GameRules, S, StoryData
from bot.service.results import ActResult, ReplyTo
from bot.service.seats import game_info, label, seat_numbered
from bot.service.table import REPLY_GRACE, REPLY_TTL, Commit, Telling, owed_after, stored
from bot.store import (
    ActionRecord,
    DuplicateInteractionError,
    InteractionRecord,
    NewOwed,
    OwedMessage,
    ReminderRecord,
    SeatRecord,
    SeqConflictError,
    SnapshotRecord,
    StatusConflictError,
    Store,
    WriteFaultError,
)

# what an act gives the game as it stored it (see `append`)
Keep = Callable[[Fresh[S]], None]

# how often an action is tried when other processes keep storing moves of its game first
OVERTAKEN_TRIES = 5


class Overtaken(GameMovedOnError):
    """Another process stored a move of the game between this one's load and write."""


async def again_if_overtaken(
    attempt: Callable[[], Awaitable[ActResult]], *, again: bool
) -> ActResult:
    """The attempt's result, trying it again (with `again`) while another bot process
    stores a move of the same game between its load and its write: in a simultaneous
    phase, or the AI of another seat. Each try loads the game anew and checks the
    action against it, so the action is refused if it no longer fits, as it is when
    one process serves both."""
    for tries in range(1, OVERTAKEN_TRIES + 1):
        try:
            return await attempt()
        except Overtaken:
            if not again or tries == OVERTAKEN_TRIES:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


async def append(
    store: Store,
    rules: GameRules[S, A],
    now: datetime,
    loaded: Loaded[S],
    commit: Commit[S],
    interaction_id: int | None,
    reply_to: ReplyTo | None,
    keep: Keep[S] | None = None,
) -> ActResult:
    """Persist one accepted action with its story, its snapshot, the interaction's
    answer, the new reminder schedule and every message it makes owed, in one
    transaction; return the events. Once it is stored, `keep` is given the game as it
    now stands, for the delivery of those messages that follows (`Fresh`)."""
    game = loaded.game
    seq = loaded.seq + 1
    seat = commit.seat
    to_act = rules.to_act(commit.after)
    over = rules.is_over(commit.after)
    # a new phase awaits every seat anew, even one that was awaited before
    new_phase = rules.phase(commit.before) != rules.phase(commit.after)
    awaited = () if new_phase else rules.to_act(commit.before)
    turn_ended = over or new_phase or seat.seat not in to_act
    newly = tuple(s for s in to_act if s not in awaited)
    # the seats as they stand after this action (a skipped turn is over when it ends)
    changed = [] if seat == seat_numbered(loaded.seats, seat.seat) else [seat]
    if turn_ended and seat.skip_turn:
        changed = [replace(seat, skip_turn=False)]
    seats = [next((c for c in changed if c.seat == s.seat), s) for s in loaded.seats]
    # the reads this may need: the new reminder rows if whom the game awaits changed,
    # the turn's entries if it ended (both at once: one wait, not two, under load)
    rescheduled = set(awaited) != set(to_act)
    waiting: list[ReminderRecord] | None = None
    turn: list[ActionRecord] = []
    if rescheduled and turn_ended:
        waiting, turn = await asyncio.gather(
            waiting_rows(store, game, seats, to_act, newly, now),
            store.turn_actions(game.id, seat.seat),
        )
    elif rescheduled:
        waiting = await waiting_rows(store, game, seats, to_act, newly, now)
    elif turn_ended:
        turn = await store.turn_actions(game.id, seat.seat)
    # a decision out of turn (a Troll flight) has a deadline: reminded halfway to it
    deciding = rules.decision_seconds(commit.after)
    if waiting is not None:
        waiting = first_reminder(waiting, deciding)
    entry = ActionRecord(
        game.id,
        seq,
        seat.seat,
        commit.notation,
        now,
        commit.user_id,
        interaction_id,
        story=stories.stored(commit.story),
        ends_turn=turn_ended,
    )
    result = ActResult(
        game_id=game.id,
        seq=seq,
        seat=seat.seat,
        label=label(seat),
        user_id=commit.user_id,
        notation=commit.notation,
        turn_ended=turn_ended,
        to_act=to_act,
        newly_to_act=newly,
        game_over=over,
        outcome=rules.outcome(commit.after) if over else None,
        undone=commit.undone,
        story=commit.story,
        told=commit.told or commit.story,
        rules=rules.name,
        decision=deciding is not None or rules.decision_seconds(commit.before) is not None,
    )
    turn = await stories.retold(store, rules, loaded.game, loaded.config, turn)
    owed = owed_after(
        rules,
        result,
        seats,
        [*turn, entry],
        waiting or [],
        reply_to=reply_to,
        expires=now + REPLY_TTL,
        telling=telling(rules, commit, seats),
    )
    if game.clock_seconds is not None and not over:
        owed = await with_deadlines(store, game.clock_seconds, owed, now)
    if deciding is not None and not over:  # a decision out of turn: its own deadline
        owed = with_deadline(owed, now + timedelta(seconds=deciding))
    rows = [stored(o, now + REPLY_GRACE if o.kind == "reply" else None) for o in owed]
    interaction = None
    if interaction_id is not None:
        interaction = InteractionRecord(interaction_id, game.id, seq, result.to_json(), now)
    snapshot = SnapshotRecord(game.id, seq, rules.state_to_json(commit.after))
    try:
        ids = await store.append_action(
            entry,
            snapshot,
            interaction=interaction,
            status="over" if over else None,
            waiting=waiting,
            renew=newly,
            seats=changed,
            owed=rows,
        )
    except (SeqConflictError, StatusConflictError, DuplicateInteractionError) as exc:
        # another process got there first; if it handled this very interaction,
        # its answer is the answer
        earlier = await earlier_result(store, game.id, interaction_id)
        if earlier is not None:
            return earlier
        if isinstance(exc, SeqConflictError):
            raise Overtaken(game.id) from None
        raise GameMovedOnError(game.id) from None
    except WriteFaultError as exc:  # no room (or no permission): nothing stored
        raise storage_full(game.id, exc) from exc
    appended(store, entry)
    # the next load of this version copies the state instead of reading it back
    stored_state(store, rules, entry, snapshot, commit.after)
    if commit.user_id is not None and commit.seat.away is not None:
        # acting in a game ends the player's away at once
        await come_back(store, lambda: now, commit.user_id)
    if keep is not None:
        stored_game = replace(game, status="over" if over else game.status, updated_at=now)
        people = {s.seat: s.controller_id for s in seats if not s.machine_played}
        keep(
            Fresh(
                info=game_info(rules, stored_game, seats),
                seq=seq,
                state=commit.after,
                awaited=frozenset(
                    (s, u) for s in (() if over else to_act) if (u := people.get(s)) is not None
                ),
                owed=tuple(
                    Owed(_owed_row(game.id, seq, row_id, new, now), payload)
                    for row_id, new, payload in zip(ids, rows, owed, strict=True)
                ),
            )
        )
    return replace(result, reply_id=ids[-1] if reply_to is not None else None)


def _owed_row(game_id: int, seq: int, row_id: int, new: NewOwed, at: datetime) -> OwedMessage:
    """An owed message's row as `append_action` stored it."""
    return OwedMessage(row_id, game_id, seq, new.kind, new.payload, at, new.due_at or at)


def telling(rules: GameRules[S, A], commit: Commit[S], seats: Sequence[SeatRecord]) -> Telling:
    """How the table hears of this action (see `table.Telling`)."""
    before = rules.announce(commit.before)
    after = rules.announce(commit.after)
    revealed: tuple[tuple[int, StoryData], ...] = ()
    if before == "secret" and after != "secret":
        revealed = tuple((s.seat, rules.revealed(commit.after, s.seat)) for s in seats)
    return Telling(before, after, rules.phase(commit.after), revealed)


async def earlier_result(
    store: Store, game_id: int, interaction_id: int | None
) -> ActResult | None:
    if interaction_id is None:
        return None
    record = await store.interaction(interaction_id)
    if record is None:
        return None
    if record.game_id != game_id:
        raise GameMovedOnError(game_id)
    try:
        return ActResult.from_json(record.result).as_repeated()
    except (ValueError, TypeError, KeyError) as exc:
        raise corrupt(game_id, exc) from exc
