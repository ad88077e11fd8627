"""What both stores share: the columns read back, the statements written once, and the
mappers that turn a row into a record by its column names (`aiosqlite.Row` and asyncpg's
`Record` are both read as `row["name"]`).

Times are Unix seconds in the database (REAL / DOUBLE PRECISION) and timezone-aware
datetimes in the records; flags are 0/1 integers.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from functools import cache
from typing import Any, Protocol

from bot.store.records import (
    RESTING,
    ActionRecord,
    BallotRecord,
    DigestRecord,
    DutyClaim,
    GameRecord,
    InteractionRecord,
    NotificationPrefs,
    OwedMessage,
    ReminderRecord,
    SeatRecord,
    VoteRecord,
)


class Row(Protocol):
    """A row of either driver, read by column name."""

    def __getitem__(self, key: str, /) -> Any: ...


GAME_COLUMNS = (
    "id, rules, config, seed, status, creator_id, reminder_seconds, guild_id, channel_id,"
    " thread_id, created_at, updated_at, language"
)
SEAT_COLUMNS = (
    "game_id, seat, user_id, joined_at, colour, team, substitute_id, autopilot, ai, skip_turn, name"
)
ACTION_COLUMNS = (
    "game_id, seq, seat, notation, created_at, user_id, interaction_id, story, ends_turn, chain"
)
REMINDER_COLUMNS = "game_id, seat, waiting_since, next_at, missed, muted_for_turn"
OWED_COLUMNS = (
    "id, game_id, seq, kind, payload, created_at, due_at, attempts, last_error, delivered_at,"
    " channel_id, message_id, tried_at"
)
VOTE_COLUMNS = (
    "id, game_id, seat, turn_since, opened_at, deadline, status, decided_at, channel_id, message_id"
)
INTERACTION_COLUMNS = "interaction_id, game_id, seq, result, created_at"
PREFS_COLUMNS = "user_id, dm_opt_in, quiet_start, quiet_end, timezone, language"
# a seat the AI plays now (the SQL twin of `SeatRecord.machine_played`)
MACHINE_SEAT = (
    "(s.ai = 1 OR s.autopilot = 1 OR s.skip_turn = 1"
    " OR COALESCE(s.substitute_id, s.user_id) IS NULL)"
)

# A claim is won by inserting the duty's row, or by taking over a row whose lease (or
# rest) ran out, or whose holder is the claimer (a renewal): one statement, so of two
# racing claimers exactly one writes. Parameters: duty, owner, now, until.
CLAIM = "INSERT INTO duty_claims (duty, claimed_by, claimed_at, lease_until) VALUES"
CLAIM_IF = (
    " ON CONFLICT (duty) DO UPDATE SET claimed_by = excluded.claimed_by,"
    " claimed_at = excluded.claimed_at, lease_until = excluded.lease_until"
    " WHERE duty_claims.lease_until <= excluded.claimed_at"
    " OR duty_claims.claimed_by = excluded.claimed_by"
)


# --- statements written once ($1, $2 ...: asyncpg's placeholders; `for_sqlite`) ----------

GAME = f"SELECT {GAME_COLUMNS} FROM games WHERE id = $1"
GAME_IN_THREAD = f"SELECT {GAME_COLUMNS} FROM games WHERE thread_id = $1 ORDER BY id DESC LIMIT 1"
SET_PLACE = (
    "UPDATE games SET guild_id = $1, channel_id = $2, thread_id = $3, updated_at = $4 WHERE id = $5"
)
SET_LANGUAGE = "UPDATE games SET language = $1, updated_at = $2 WHERE id = $3"
DISCARD_GAME = "DELETE FROM games WHERE id = $1 AND status = 'open'"
SEATS = f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = $1 ORDER BY seat"
ACTIONS_AFTER = f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = $1 AND seq > $2 ORDER BY seq"
# the log after the seat's last entry that ended its turn
TURN_ACTIONS = (
    f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = $1 AND seq > COALESCE("
    "(SELECT MAX(seq) FROM actions WHERE game_id = $1 AND seat = $2 AND ends_turn = 1)"
    ", 0) ORDER BY seq"
)
INTERACTION = f"SELECT {INTERACTION_COLUMNS} FROM interactions WHERE interaction_id = $1"
PUT_PREFS = (
    f"INSERT INTO notification_prefs ({PREFS_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)"
    " ON CONFLICT (user_id) DO UPDATE"
    " SET dm_opt_in = excluded.dm_opt_in, quiet_start = excluded.quiet_start,"
    " quiet_end = excluded.quiet_end, timezone = excluded.timezone,"
    " language = COALESCE(excluded.language, notification_prefs.language)"
)
PUT_LANGUAGE = (
    "INSERT INTO notification_prefs (user_id, language) VALUES ($1, $2)"
    " ON CONFLICT (user_id) DO UPDATE SET language = excluded.language"
)
REMINDERS = f"SELECT {REMINDER_COLUMNS} FROM reminders WHERE game_id = $1 ORDER BY seat"
LAST_DELIVERED = (
    "SELECT MAX(message_id) AS id FROM outbox WHERE game_id = $1 AND channel_id = $2"
    " AND delivered_at IS NOT NULL"
)
VOTE = f"SELECT {VOTE_COLUMNS} FROM votes WHERE id = $1"
SET_VOTE_MESSAGE = "UPDATE votes SET channel_id = $1, message_id = $2 WHERE id = $3"
BALLOTS = (
    "SELECT vote_id, voter_id, choice, cast_at FROM ballots WHERE vote_id = $1"
    " ORDER BY cast_at, voter_id"
)
PUT_BALLOT = (
    "INSERT INTO ballots (vote_id, voter_id, choice, cast_at) VALUES ($1, $2, $3, $4)"
    " ON CONFLICT (vote_id, voter_id) DO UPDATE SET choice = excluded.choice,"
    " cast_at = excluded.cast_at"
)
DIGEST = "SELECT user_id, due_at, sent_at FROM digests WHERE user_id = $1"
PUT_DIGEST = (
    "INSERT INTO digests (user_id, due_at, sent_at) VALUES ($1, $2, $3)"
    " ON CONFLICT (user_id) DO UPDATE SET due_at = excluded.due_at, sent_at = excluded.sent_at"
)
DUE_DIGESTS = (
    "SELECT user_id, due_at, sent_at FROM digests"
    " WHERE due_at IS NOT NULL AND due_at <= $1 ORDER BY due_at LIMIT $2"
)
# times come back from REAL columns: compare within a millisecond
CLAIM_DIGEST = (
    "UPDATE digests SET due_at = $1, sent_at = COALESCE($2, sent_at)"
    " WHERE user_id = $3 AND ABS(due_at - $4) < 0.001"
)
CLAIM_DUTY = f"{CLAIM} ($1, $2, $3, $4){CLAIM_IF}"
RELEASE_DUTY = "DELETE FROM duty_claims WHERE duty = $1 AND claimed_by = $2"
REST_DUTY = (
    "UPDATE duty_claims SET claimed_by = $1, lease_until = $2 WHERE duty = $3 AND claimed_by = $4"
)
DUTY_CLAIMS = (
    "SELECT duty, claimed_by, lease_until FROM duty_claims WHERE lease_until > $1 ORDER BY duty"
)
PRUNE_DUTY_CLAIMS = "DELETE FROM duty_claims WHERE lease_until < $1"

_PLACEHOLDER = re.compile(r"\$(\d+)")


@cache
def for_sqlite(sql: str) -> str:
    """A statement written once with asyncpg's placeholders ($1, $2 ...) as SQLite
    takes it: numbered placeholders ?1, ?2 ... (bound from the same tuple)."""
    return _PLACEHOLDER.sub(r"?\1", sql)


def check_claim(owner: str, now: datetime, until: datetime) -> None:
    if owner == RESTING:
        raise ValueError("a duty is claimed by a named process")
    if until <= now:
        raise ValueError("a claim's lease must end after it is made")


# --- values ---------------------------------------------------------------------------


def ts(at: datetime) -> float:
    if at.tzinfo is None:
        raise ValueError("store times must be timezone-aware")
    return at.timestamp()


def dt(value: float | str) -> datetime:
    """A stored time (Unix seconds; text from SQLite's JSON rows)."""
    return datetime.fromtimestamp(float(value), UTC)


def maybe_ts(at: datetime | None) -> float | None:
    return None if at is None else ts(at)


def maybe_dt(value: float | str | None) -> datetime | None:
    return None if value is None else dt(value)


def text(value: object) -> str:
    """A TEXT column's value; a BLOB written in its place reads as (damaged) text."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def action_params(a: ActionRecord, chain: str | None) -> tuple[Any, ...]:
    """A log entry's columns, in the order of `ACTION_COLUMNS`."""
    return (
        a.game_id,
        a.seq,
        a.seat,
        a.notation,
        ts(a.created_at),
        a.user_id,
        a.interaction_id,
        a.story,
        int(a.ends_turn),
        chain,
    )


def seat_params(s: SeatRecord) -> tuple[Any, ...]:
    """A seat's columns, in the order of `SEAT_COLUMNS`."""
    return (
        s.game_id,
        s.seat,
        s.user_id,
        ts(s.joined_at),
        s.colour,
        s.team,
        s.substitute_id,
        int(s.autopilot),
        int(s.ai),
        int(s.skip_turn),
        s.name,
    )


# --- rows to records, by column name ----------------------------------------------------


def game_from(r: Row) -> GameRecord:
    return GameRecord(
        id=r["id"],
        rules=r["rules"],
        config=r["config"],
        seed=r["seed"],
        status=r["status"],
        creator_id=r["creator_id"],
        reminder_seconds=r["reminder_seconds"],
        guild_id=r["guild_id"],
        channel_id=r["channel_id"],
        thread_id=r["thread_id"],
        created_at=dt(r["created_at"]),
        updated_at=dt(r["updated_at"]),
        language=r["language"],
    )


def seat_from(r: Row) -> SeatRecord:
    return SeatRecord(
        game_id=r["game_id"],
        seat=r["seat"],
        user_id=r["user_id"],
        joined_at=dt(r["joined_at"]),
        colour=r["colour"],
        team=r["team"],
        substitute_id=r["substitute_id"],
        autopilot=bool(r["autopilot"]),
        ai=bool(r["ai"]),
        skip_turn=bool(r["skip_turn"]),
        name=r["name"],
    )


def action_from(r: Row) -> ActionRecord:
    return ActionRecord(
        game_id=r["game_id"],
        seq=r["seq"],
        seat=r["seat"],
        notation=text(r["notation"]),
        created_at=dt(r["created_at"]),
        user_id=r["user_id"],
        interaction_id=r["interaction_id"],
        story=r["story"],
        ends_turn=bool(r["ends_turn"]),
        chain=r["chain"],
    )


def interaction_from(r: Row) -> InteractionRecord:
    return InteractionRecord(
        r["interaction_id"], r["game_id"], r["seq"], r["result"], dt(r["created_at"])
    )


def prefs_from(r: Row) -> NotificationPrefs:
    return NotificationPrefs(
        user_id=r["user_id"],
        dm_opt_in=bool(r["dm_opt_in"]),
        quiet_start=r["quiet_start"],
        quiet_end=r["quiet_end"],
        timezone=r["timezone"],
        language=r["language"],
    )


def reminder_from(r: Row) -> ReminderRecord:
    return ReminderRecord(
        game_id=r["game_id"],
        seat=r["seat"],
        waiting_since=dt(r["waiting_since"]),
        next_at=dt(r["next_at"]),
        missed=r["missed"],
        muted_for_turn=bool(r["muted_for_turn"]),
    )


def owed_from(r: Row) -> OwedMessage:
    return OwedMessage(
        id=r["id"],
        game_id=r["game_id"],
        seq=r["seq"],
        kind=r["kind"],
        payload=r["payload"],
        created_at=dt(r["created_at"]),
        due_at=dt(r["due_at"]),
        attempts=r["attempts"],
        last_error=r["last_error"],
        delivered_at=maybe_dt(r["delivered_at"]),
        channel_id=r["channel_id"],
        message_id=r["message_id"],
        tried_at=maybe_dt(r["tried_at"]),
    )


def vote_from(r: Row) -> VoteRecord:
    return VoteRecord(
        id=r["id"],
        game_id=r["game_id"],
        seat=r["seat"],
        turn_since=dt(r["turn_since"]),
        opened_at=dt(r["opened_at"]),
        deadline=dt(r["deadline"]),
        status=r["status"],
        decided_at=maybe_dt(r["decided_at"]),
        channel_id=r["channel_id"],
        message_id=r["message_id"],
    )


def ballot_from(r: Row) -> BallotRecord:
    return BallotRecord(r["vote_id"], r["voter_id"], r["choice"], dt(r["cast_at"]))


def digest_from(r: Row) -> DigestRecord:
    return DigestRecord(r["user_id"], maybe_dt(r["due_at"]), maybe_dt(r["sent_at"]))


def claim_from(r: Row) -> DutyClaim:
    return DutyClaim(r["duty"], r["claimed_by"], dt(r["lease_until"]))
