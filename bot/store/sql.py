"""What both stores share: the columns read back, the statements written once, and the
mappers that turn a row into a record by its column names (`aiosqlite.Row` and asyncpg's
`Record` are both read as `row["name"]`).

Times are Unix seconds in the database (REAL / DOUBLE PRECISION) and timezone-aware
datetimes in the records; flags are 0/1 integers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from typing import Any, Protocol

from bot.store.integrity import genesis
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
    SnapshotRecord,
    StoredGame,
    VoteRecord,
)


class Row(Protocol):
    """A row of either driver, read by column name."""

    def __getitem__(self, key: str, /) -> Any: ...


GAME_COLUMNS = (
    "id, rules, config, seed, status, creator_id, reminder_seconds, guild_id, channel_id,"
    " thread_id, created_at, updated_at, language, away_policy, clock_seconds, clock_policy"
)
SEAT_COLUMNS = (
    "game_id, seat, user_id, joined_at, colour, team, substitute_id, autopilot, ai, skip_turn,"
    " name, away"
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
    " OR COALESCE(s.substitute_id, s.user_id) IS NULL OR COALESCE(s.away, '') = 'ai')"
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
# {lock}, {skip_locked}, {share} (with "of <alias>" to name the table locked): the
# locking clauses PostgreSQL adds and SQLite, with its one writer, leaves out
# (`Dialect.fill`)

GAME = f"SELECT {GAME_COLUMNS} FROM games WHERE id = $1"
GAME_IN_THREAD = f"SELECT {GAME_COLUMNS} FROM games WHERE thread_id = $1 ORDER BY id DESC LIMIT 1"
CREATE_GAME = (
    "INSERT INTO games (rules, config, status, creator_id, reminder_seconds,"
    " guild_id, channel_id, thread_id, created_at, updated_at, language)"
    f" VALUES ($1, $2, 'open', $3, $4, $5, $6, $7, $8, $8, $9) RETURNING {GAME_COLUMNS}"
)
SEAT_CREATOR = (
    "INSERT INTO seats (game_id, seat, user_id, joined_at, name) VALUES ($1, 0, $2, $3, $4)"
)
SET_PLACE = (
    "UPDATE games SET guild_id = $1, channel_id = $2, thread_id = $3, updated_at = $4 WHERE id = $5"
)
SET_LANGUAGE = "UPDATE games SET language = $1, updated_at = $2 WHERE id = $3"
DISCARD_GAME = "DELETE FROM games WHERE id = $1 AND status = 'open'"
START_GAME = (
    "UPDATE games SET status = 'active', seed = $1, updated_at = $2 WHERE id = $3"
    " AND status = 'open'"
)
TOUCH = "UPDATE games SET updated_at = $1 WHERE id = $2"
# the game's row locked until the transaction ends, with its status
LOCK_GAME = "SELECT status FROM games WHERE id = $1{lock}"
SEATS = f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = $1 ORDER BY seat"
INSERT_SEAT = (
    f"INSERT INTO seats ({SEAT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)"
)
UPDATE_SEAT = (
    "UPDATE seats SET user_id = $1, colour = $2, team = $3, substitute_id = $4, autopilot = $5,"
    " ai = $6, skip_turn = $7, name = $8 WHERE game_id = $9 AND seat = $10"
)
ACTIONS_AFTER = f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = $1 AND seq > $2 ORDER BY seq"
LAST_ENTRY = "SELECT seq, chain FROM actions WHERE game_id = $1 ORDER BY seq DESC LIMIT 1"
# the log after the seat's last entry that ended its turn
TURN_ACTIONS = (
    f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = $1 AND seq > COALESCE("
    "(SELECT MAX(seq) FROM actions WHERE game_id = $1 AND seat = $2 AND ends_turn = 1)"
    ", 0) ORDER BY seq"
)
PUT_SNAPSHOT = (
    "INSERT INTO snapshots (game_id, seq, state, chain, digest) VALUES ($1, $2, $3, $4, $5)"
    " ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, state = excluded.state,"
    " chain = excluded.chain, digest = excluded.digest"
)
FORWARD_ONLY = " WHERE excluded.seq >= snapshots.seq"
INTERACTION = f"SELECT {INTERACTION_COLUMNS} FROM interactions WHERE interaction_id = $1"
# one batch of a prune ($1: before, $2: the batch's size), through the index on the time
PRUNE_INTERACTIONS = (
    "DELETE FROM interactions WHERE interaction_id IN (SELECT interaction_id FROM"
    " interactions WHERE created_at < $1 ORDER BY created_at LIMIT $2{skip_locked})"
)
PRUNE_DELIVERED = (
    "DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE delivered_at < $1"
    " ORDER BY delivered_at LIMIT $2{skip_locked})"
)
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
AWAITED_SEATS = "SELECT seat FROM reminders WHERE game_id = $1"
FORGET_REMINDER = "DELETE FROM reminders WHERE game_id = $1 AND seat = $2"
AWAIT = (
    f"INSERT INTO reminders ({REMINDER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)"
    " ON CONFLICT (game_id, seat) DO NOTHING"
)
MOVE_REMINDER = "UPDATE reminders SET next_at = $1 WHERE game_id = $2 AND seat = $3"
PUT_REMINDER = (
    "UPDATE reminders SET waiting_since = $1, next_at = $2, missed = $3, muted_for_turn = $4"
    " WHERE game_id = $5 AND seat = $6"
)
_AWAITED = (
    "SELECT "
    + ", ".join(f"r.{c.strip()}" for c in REMINDER_COLUMNS.split(","))
    + " FROM reminders r JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat"
    " JOIN games g ON g.id = r.game_id WHERE r.next_at <= $1 AND g.status = 'active' AND {where}"
    " ORDER BY r.next_at, r.game_id, r.seat LIMIT $2{{skip_locked of r}}"
)
# a player away is not reminded (`/mk away`), in a game that was told or not
DUE_REMINDERS = _AWAITED.format(
    where=f"NOT {MACHINE_SEAT} AND r.muted_for_turn = 0 AND NOT EXISTS (SELECT 1 FROM away a"
    " WHERE a.user_id = COALESCE(s.substitute_id, s.user_id))"
)
OWED_MOVES = _AWAITED.format(where=MACHINE_SEAT)
# the messages owed (not delivered) and due, found through the partial index of owed
# messages (`outbox_owed`): the cost of a scheduler round follows what is owed, not the
# outbox's history of delivered messages (SQLite's planner alone would scan the outbox
# in id order); one game's through `outbox_by_game`
OWED_DUE = (
    f"SELECT {OWED_COLUMNS} FROM outbox WHERE id IN (SELECT id FROM outbox"
    " WHERE delivered_at IS NULL AND due_at <= $1) ORDER BY id LIMIT $2{skip_locked}"
)
OWED_OF_GAME = (
    f"SELECT {OWED_COLUMNS} FROM outbox WHERE delivered_at IS NULL AND game_id = $1"
    " AND due_at <= $2 ORDER BY id LIMIT $3{skip_locked}"
)
OWED_INTO = "INSERT INTO outbox (game_id, seq, kind, payload, created_at, due_at) VALUES "
MARK_DELIVERED = (
    "UPDATE outbox SET delivered_at = $1, channel_id = $2, message_id = $3"
    " WHERE id = $4 AND delivered_at IS NULL"
)
MARK_FAILED = (
    "UPDATE outbox SET attempts = attempts + 1, last_error = $1, due_at = $2"
    " WHERE id = $3 RETURNING attempts"
)
# through the partial index of delivered messages by game and channel
LAST_DELIVERED = (
    "SELECT MAX(message_id) AS id FROM outbox WHERE game_id = $1 AND channel_id = $2"
    " AND delivered_at IS NOT NULL"
)
VOTE = f"SELECT {VOTE_COLUMNS} FROM votes WHERE id = $1"
OPEN_VOTE = (
    "INSERT INTO votes (game_id, seat, turn_since, opened_at, deadline)"
    f" VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING {VOTE_COLUMNS}"
)
LOCK_VOTE = "SELECT game_id, status FROM votes WHERE id = $1{lock}"
CLOSE_VOTE = "UPDATE votes SET status = $1, decided_at = $2 WHERE id = $3 AND status = 'open'"
# open votes to decide: the deadline passed, or the turn is over (no reminder row of the
# seat since the vote's turn began; a game that stops keeps no reminder rows at all);
# through `votes_by_deadline` and the reminders' key, one statement whatever the votes
VOTES_DUE = (
    "SELECT "
    + ", ".join(f"v.{c.strip()}" for c in VOTE_COLUMNS.split(","))
    + " FROM votes v WHERE v.status = 'open'"
    " AND (v.deadline <= $1 OR NOT EXISTS (SELECT 1 FROM reminders r"
    " WHERE r.game_id = v.game_id AND r.seat = v.seat AND r.waiting_since = v.turn_since))"
    " ORDER BY v.deadline, v.id{skip_locked}"
)
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
    " WHERE due_at IS NOT NULL AND due_at <= $1"
    " AND NOT EXISTS (SELECT 1 FROM away a WHERE a.user_id = digests.user_id)"
    " ORDER BY due_at LIMIT $2"
)
# times come back from REAL columns: compare within a millisecond
CLAIM_DIGEST = (
    "UPDATE digests SET due_at = $1, sent_at = COALESCE($2, sent_at)"
    " WHERE user_id = $3 AND ABS(due_at - $4) < 0.001"
)
CLAIM_DUTY = f"{CLAIM} ($1, $2, $3, $4){CLAIM_IF}"
# the claim's row share-locked: a takeover waits for the done-mark that checked it
HOLDS = "SELECT 1 AS held FROM duty_claims WHERE duty = $1 AND claimed_by = $2{share}"
RELEASE_DUTY = "DELETE FROM duty_claims WHERE duty = $1 AND claimed_by = $2"
REST_DUTY = (
    "UPDATE duty_claims SET claimed_by = $1, lease_until = $2 WHERE duty = $3 AND claimed_by = $4"
)
DUTY_CLAIMS = (
    "SELECT duty, claimed_by, lease_until FROM duty_claims WHERE lease_until > $1 ORDER BY duty"
)
PRUNE_DUTY_CLAIMS = "DELETE FROM duty_claims WHERE lease_until < $1"

# --- away and the turn clock (bot/store/away.py) ---------------------------------------
AWAY_COLUMNS = "user_id, began_at, ends_at"
AWAY = f"SELECT {AWAY_COLUMNS} FROM away WHERE user_id = $1"
# a player already away keeps when they left; only the end moves
PUT_AWAY = (
    f"INSERT INTO away ({AWAY_COLUMNS}) VALUES ($1, $2, $3)"
    " ON CONFLICT (user_id) DO UPDATE SET ends_at = excluded.ends_at"
)
AWAYS_DUE = f"SELECT {AWAY_COLUMNS} FROM away WHERE ends_at <= $1 ORDER BY ends_at LIMIT $2"
# the one write that ends an away: of two processes ending it, one deletes the row
END_AWAY = f"DELETE FROM away WHERE user_id = $1 RETURNING {AWAY_COLUMNS}"
_SEAT_OF_GAME = ", ".join(f"s.{c.strip()}" for c in SEAT_COLUMNS.split(","))
# the seats a player plays in running games, with each game's away policy and reminder
# interval, the game's row of each locked (in game order) until the write ends
SEATS_PLAYED = (
    f"SELECT {_SEAT_OF_GAME}, g.away_policy, g.reminder_seconds FROM seats s"
    " JOIN games g ON g.id = s.game_id WHERE g.status = 'active' AND s.ai = 0"
    " AND COALESCE(s.substitute_id, s.user_id) = $1 AND ($2 OR s.away IS NULL)"
    " ORDER BY s.game_id, s.seat{lock of g}"
)
# players away who play a seat of a running game not told yet (it started, or they took
# the seat, while they were away): from the players away (CROSS JOIN keeps SQLite to
# that order) through the seats' indexes by user and substitute, so a round costs
# nothing while nobody is away
AWAYS_UNTOLD = (
    f"SELECT DISTINCT {', '.join('a.' + c for c in AWAY_COLUMNS.split(', '))} FROM away a"
    " CROSS JOIN seats s CROSS JOIN games g"
    " WHERE (s.user_id = a.user_id OR s.substitute_id = a.user_id) AND g.id = s.game_id"
    " AND g.status = 'active' AND s.ai = 0 AND s.away IS NULL"
    " AND COALESCE(s.substitute_id, s.user_id) = a.user_id LIMIT $1"
)
# the seats marked away for a player (whoever plays them now), the same way
SEATS_AWAY = (
    f"SELECT {_SEAT_OF_GAME}, g.away_policy, g.reminder_seconds FROM seats s"
    " JOIN games g ON g.id = s.game_id WHERE s.away IS NOT NULL"
    " AND (s.user_id = $1 OR s.substitute_id = $1) ORDER BY s.game_id, s.seat{lock of g}"
)
SET_SEAT_AWAY = "UPDATE seats SET away = $1 WHERE game_id = $2 AND seat = $3"
SEATS_AWAY_IN_GAME = "UPDATE seats SET away = $1 WHERE game_id = $2 AND away IS NOT NULL"
AWAY_SEATS_OF_GAME = "SELECT seat FROM seats WHERE game_id = $1 AND away IS NOT NULL"
VOID_VOTE_ABOUT = (
    "UPDATE votes SET status = 'void', decided_at = $1"
    " WHERE game_id = $2 AND seat = $3 AND status = 'open' RETURNING id"
)
# a reminder not sooner than $1
DEFER_REMINDER = (
    "UPDATE reminders SET next_at = $1 WHERE game_id = $2 AND seat = $3 AND next_at < $1"
)
SET_AWAY_POLICY = "UPDATE games SET away_policy = $1, updated_at = $2 WHERE id = $3"
SET_CLOCK = (
    "UPDATE games SET clock_seconds = $1, clock_policy = $2, updated_at = $3"
    " WHERE id = $4 AND status = 'open'"
)
CLOCK_COLUMNS = (
    "r.game_id, r.seat, r.waiting_since, r.clock_since, r.clock_due, r.clock_warn,"
    " r.clock_stage, g.clock_seconds, g.clock_policy,"
    " COALESCE(s.substitute_id, s.user_id) AS user_id"
)
# the games with a clock first (their partial index; CROSS JOIN keeps SQLite's planner
# to that order), then their reminders and seats by key: a round costs nothing while
# no game has a clock, whatever the number of games
_CLOCKED = (
    f"SELECT {CLOCK_COLUMNS} FROM games g CROSS JOIN reminders r CROSS JOIN seats s"
    " WHERE g.clock_seconds IS NOT NULL AND g.status = 'active' AND r.game_id = g.id"
    " AND s.game_id = r.game_id AND s.seat = r.seat"
)
# the clocks the scheduler must look at now: not set for the turn yet, or their
# reminder or their zero is due; never a seat the AI plays or a player away (their
# clock stands still)
CLOCKS_DUE = (
    f"{_CLOCKED} AND NOT {MACHINE_SEAT} AND s.away IS NULL"
    " AND (r.clock_since IS NULL OR r.clock_since <> r.waiting_since"
    " OR (r.clock_stage = 0 AND r.clock_warn <= $1) OR (r.clock_stage = 1 AND r.clock_due <= $1))"
    " ORDER BY r.game_id, r.seat LIMIT $2{skip_locked of r}"
)
CLOCKS_OF_GAME = f"{_CLOCKED} AND g.id = $1 ORDER BY r.seat"
# a clock set, or moved on, only for the turn it was read in
SET_CLOCK_ROW = (
    "UPDATE reminders SET clock_since = $1, clock_due = $2, clock_warn = $3, clock_stage = $4"
    " WHERE game_id = $5 AND seat = $6 AND waiting_since = $7"
)
ADVANCE_CLOCK = (
    "UPDATE reminders SET clock_stage = $1 WHERE game_id = $2 AND seat = $3"
    " AND waiting_since = $4 AND clock_since = waiting_since AND clock_stage = $5"
)

# --- the community: ratings, rated games, hidden stats, a player's games and pace ------
RATING_COLUMNS = "guild_id, user_id, mu, sigma, ordinal, games, wins, updated_at"
# finished games not yet rated, in the order they ended (the index of finished games)
UNRATED_GAMES = (
    f"SELECT {GAME_COLUMNS} FROM games g WHERE g.status = 'over' AND g.updated_at >= $1"
    " AND NOT EXISTS (SELECT 1 FROM rated_games r WHERE r.game_id = g.id)"
    " ORDER BY g.updated_at, g.id LIMIT $2"
)
RATINGS_OF = f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = $1 AND user_id"
RATED_GAME = (
    "INSERT INTO rated_games (game_id, guild_id, rated_at, rated) VALUES ($1, $2, $3, $4)"
    " ON CONFLICT (game_id) DO NOTHING"
)
PUT_RATING = (
    f"INSERT INTO ratings ({RATING_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
    " ON CONFLICT (guild_id, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
    " ordinal = excluded.ordinal, games = excluded.games, wins = excluded.wins,"
    " updated_at = excluded.updated_at"
)
# the board: players with enough rated games who show their stats, best first (in the
# order of the index `ratings_board`)
_SHOWN = (
    "r.guild_id = $1 AND r.games >= $2"
    " AND NOT EXISTS (SELECT 1 FROM stats_hidden h WHERE h.user_id = r.user_id)"
)
LEADERBOARD = (
    f"SELECT {RATING_COLUMNS} FROM ratings r WHERE {_SHOWN}"
    " ORDER BY r.ordinal DESC, r.user_id LIMIT $3"
)
BOARD_PLACE = (
    "SELECT COUNT(*) AS ranked, SUM(CASE WHEN r.ordinal > $3"
    " OR (r.ordinal = $3 AND r.user_id < $4) THEN 1 ELSE 0 END) AS above"
    f" FROM ratings r WHERE {_SHOWN}"
)
PLAYED_GAMES = (
    "SELECT s.game_id, g.status, s.seat, s.colour FROM seats s JOIN games g ON g.id = s.game_id"
    " WHERE s.user_id = $2 AND g.guild_id = $1 AND g.seed IS NOT NULL ORDER BY s.game_id"
)
BEATS = (
    "SELECT a.game_id, a.seat, a.user_id, a.created_at, a.ends_turn FROM actions a"
    " JOIN seats s ON s.game_id = a.game_id AND s.user_id = $2"
    " JOIN games g ON g.id = a.game_id AND g.guild_id = $1"
    " WHERE a.ends_turn = 1 OR a.user_id = $2 ORDER BY a.game_id, a.seq"
)
HIDE_STATS = (
    "INSERT INTO stats_hidden (user_id, since) VALUES ($1, $2) ON CONFLICT (user_id) DO NOTHING"
)
SHOW_STATS = "DELETE FROM stats_hidden WHERE user_id = $1"
STATS_HIDDEN = "SELECT 1 AS hidden FROM stats_hidden WHERE user_id = $1"

_LOCKING = re.compile(r"\{(lock|skip_locked|share)(?: of (\w+))?\}")
_CLAUSES = {
    "lock": "FOR UPDATE{of}",
    "skip_locked": "FOR UPDATE{of} SKIP LOCKED",
    "share": "FOR SHARE{of}",
}


@dataclass(frozen=True)
class Dialect:
    """What a driver's SQL says its own way: the locking clauses (PostgreSQL's; SQLite
    has one writer and needs none) and a list given as one parameter (an array in
    PostgreSQL, JSON text read with `json_each` in SQLite)."""

    locks: bool

    @property
    def skip_locked(self) -> str:
        return " FOR UPDATE SKIP LOCKED" if self.locks else ""

    def fill(self, statement: str) -> str:
        """The statement with its {lock}, {skip_locked} and {share} marks written out."""
        return _fill(statement, self.locks)

    def any(self, n: int, kind: str) -> str:
        """The test "is one of the list in parameter $n" (of `kind`: text or bigint)."""
        return f"= ANY(${n}::{kind}[])" if self.locks else f"IN (SELECT value FROM json_each(${n}))"

    def listed(self, values: list[Any]) -> Any:
        """A list as the parameter `any` reads."""
        return values if self.locks else json.dumps(values)


@cache
def _fill(statement: str, locks: bool) -> str:
    def clause(found: re.Match[str]) -> str:
        if not locks:
            return ""
        of = f" OF {found.group(2)}" if found.group(2) else ""
        return " " + _CLAUSES[found.group(1)].format(of=of)

    return _LOCKING.sub(clause, statement)


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
        s.away,
    )


def seat_update_params(s: SeatRecord) -> tuple[Any, ...]:
    """A seat's parameters of `UPDATE_SEAT`."""
    return (
        s.user_id,
        s.colour,
        s.team,
        s.substitute_id,
        int(s.autopilot),
        int(s.ai),
        int(s.skip_turn),
        s.name,
        s.game_id,
        s.seat,
    )


def reminder_params(r: ReminderRecord) -> tuple[Any, ...]:
    """A reminder's columns, in the order of `REMINDER_COLUMNS`."""
    return (
        r.game_id,
        r.seat,
        ts(r.waiting_since),
        ts(r.next_at),
        r.missed,
        int(r.muted_for_turn),
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
        away_policy=r["away_policy"],
        clock_seconds=r["clock_seconds"],
        clock_policy=r["clock_policy"],
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
        away=r["away"],
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


def stored_game(row: Row, seats: Iterable[Row], later: Iterable[Row]) -> StoredGame:
    """A game as a load reads it: its row (with the snapshot's and the log's columns of
    the drivers' load statements), its seats' rows and the log's rows after the
    snapshot."""
    game_id = int(row["id"])
    snapshot = None
    if row["snapshot_seq"] is not None:
        snapshot = SnapshotRecord(
            game_id,
            row["snapshot_seq"],
            text(row["state"]),
            row["snapshot_chain"],
            row["digest"],
        )
    return StoredGame(
        game_from(row),
        tuple(sorted((seat_from(r) for r in seats), key=lambda s: s.seat)),
        snapshot,
        tuple(sorted((action_from(r) for r in later), key=lambda a: a.seq)),
        int(row["last"] or 0),
        int(row["entries"]),
        genesis(game_id) if snapshot is not None and snapshot.seq == 0 else row["log_chain"],
    )
