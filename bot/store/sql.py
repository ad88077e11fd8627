"""What both stores share: the columns read back, the statements written once, and the
mappers that turn a row into a record by its column names (`aiosqlite.Row` and asyncpg's
`Record` are both read as `row["name"]`).

Times are Unix seconds in the database (REAL / DOUBLE PRECISION) and timezone-aware
datetimes in the records; flags are 0/1 integers.
"""

from __future__ import annotations

from datetime import UTC, datetime
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
