"""Numbered schema migrations for the SQLite store.

Each migration is a list of statements applied in one transaction together with
`PRAGMA user_version = <version>`. Never edit a released migration: add the next one.
Times are Unix seconds (REAL); JSON payloads are TEXT.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    description: str
    statements: tuple[str, ...]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "games, seats, the action log, snapshots and the bot's bookkeeping",
        (
            """
            CREATE TABLE games (
                id INTEGER PRIMARY KEY,
                rules TEXT NOT NULL,
                config TEXT NOT NULL,
                seed INTEGER,
                status TEXT NOT NULL
                    CHECK (status IN ('open', 'active', 'over', 'abandoned')),
                creator_id INTEGER NOT NULL,
                reminder_seconds INTEGER NOT NULL CHECK (reminder_seconds > 0),
                guild_id INTEGER,
                channel_id INTEGER,
                thread_id INTEGER,
                created_at REAL NOT NULL,
                updated_at REAL NOT NULL
            )
            """,
            "CREATE INDEX games_by_thread ON games (thread_id) WHERE thread_id IS NOT NULL",
            """
            CREATE TABLE seats (
                game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
                seat INTEGER NOT NULL CHECK (seat >= 0),
                user_id INTEGER,
                colour TEXT,
                team INTEGER,
                substitute_id INTEGER,
                autopilot INTEGER NOT NULL DEFAULT 0 CHECK (autopilot IN (0, 1)),
                joined_at REAL NOT NULL,
                PRIMARY KEY (game_id, seat)
            ) WITHOUT ROWID
            """,
            "CREATE INDEX seats_by_user ON seats (user_id)",
            "CREATE INDEX seats_by_substitute ON seats (substitute_id)",
            # The log is the truth. The primary key makes two racing appends of the
            # same seq fail cleanly instead of one silently replacing the other.
            """
            CREATE TABLE actions (
                game_id INTEGER NOT NULL,
                seq INTEGER NOT NULL CHECK (seq >= 1),
                seat INTEGER NOT NULL,
                notation TEXT NOT NULL,
                user_id INTEGER,
                interaction_id INTEGER,
                created_at REAL NOT NULL,
                PRIMARY KEY (game_id, seq),
                FOREIGN KEY (game_id, seat) REFERENCES seats (game_id, seat)
            ) WITHOUT ROWID
            """,
            # One cached state per game: rebuildable from the log at any time.
            """
            CREATE TABLE snapshots (
                game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
                seq INTEGER NOT NULL CHECK (seq >= 0),
                state TEXT NOT NULL
            )
            """,
            """
            CREATE TABLE interactions (
                interaction_id INTEGER PRIMARY KEY,
                game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
                seq INTEGER NOT NULL,
                result TEXT NOT NULL,
                created_at REAL NOT NULL
            )
            """,
            "CREATE INDEX interactions_by_time ON interactions (created_at)",
            """
            CREATE TABLE messages (
                game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
                kind TEXT NOT NULL,
                channel_id INTEGER NOT NULL,
                message_id INTEGER NOT NULL,
                PRIMARY KEY (game_id, kind)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE notification_prefs (
                user_id INTEGER PRIMARY KEY,
                dm_opt_in INTEGER NOT NULL DEFAULT 0 CHECK (dm_opt_in IN (0, 1)),
                quiet_start INTEGER CHECK (quiet_start BETWEEN 0 AND 1439),
                quiet_end INTEGER CHECK (quiet_end BETWEEN 0 AND 1439),
                timezone TEXT NOT NULL DEFAULT 'UTC'
            )
            """,
            """
            CREATE TABLE reminders (
                game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
                seat INTEGER NOT NULL,
                waiting_since REAL NOT NULL,
                next_at REAL NOT NULL,
                missed INTEGER NOT NULL DEFAULT 0,
                muted_for_turn INTEGER NOT NULL DEFAULT 0 CHECK (muted_for_turn IN (0, 1)),
                PRIMARY KEY (game_id, seat)
            ) WITHOUT ROWID
            """,
            "CREATE INDEX reminders_by_time ON reminders (next_at)",
        ),
    ),
    Migration(
        2,
        "the table as data: AI seats as a flag, names, stories, owed messages and votes",
        (
            "ALTER TABLE seats ADD COLUMN ai INTEGER NOT NULL DEFAULT 0 CHECK (ai IN (0, 1))",
            "ALTER TABLE seats ADD COLUMN skip_turn INTEGER NOT NULL DEFAULT 0"
            " CHECK (skip_turn IN (0, 1))",
            "ALTER TABLE seats ADD COLUMN name TEXT",
            # round 1 seated AI players under negative user ids
            "UPDATE seats SET ai = 1, user_id = NULL WHERE user_id < 0",
            "UPDATE actions SET user_id = NULL WHERE user_id < 0",
            "ALTER TABLE actions ADD COLUMN story TEXT",
            "ALTER TABLE actions ADD COLUMN ends_turn INTEGER NOT NULL DEFAULT 0"
            " CHECK (ends_turn IN (0, 1))",
            # round 1 logs: an `end` closed the turn (the draft and gates are told anew)
            "UPDATE actions SET ends_turn = 1 WHERE notation = 'end'",
            # What the table owes its players, written with the change that owes it.
            """
            CREATE TABLE outbox (
                id INTEGER PRIMARY KEY,
                game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
                seq INTEGER NOT NULL,
                kind TEXT NOT NULL
                    CHECK (kind IN ('start', 'turn', 'ping', 'over', 'reply', 'seat', 'vote')),
                payload TEXT NOT NULL,
                created_at REAL NOT NULL,
                due_at REAL NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                tried_at REAL,
                last_error TEXT,
                delivered_at REAL,
                channel_id INTEGER,
                message_id INTEGER
            )
            """,
            "CREATE INDEX outbox_owed ON outbox (due_at) WHERE delivered_at IS NULL",
            "CREATE INDEX outbox_by_game ON outbox (game_id, id) WHERE delivered_at IS NULL",
            """
            CREATE TABLE votes (
                id INTEGER PRIMARY KEY,
                game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
                seat INTEGER NOT NULL,
                turn_since REAL NOT NULL,
                opened_at REAL NOT NULL,
                deadline REAL NOT NULL,
                status TEXT NOT NULL DEFAULT 'open'
                    CHECK (status IN ('open', 'skip', 'autopilot', 'expired', 'void')),
                decided_at REAL,
                channel_id INTEGER,
                message_id INTEGER,
                UNIQUE (game_id, seat, turn_since)
            )
            """,
            "CREATE UNIQUE INDEX votes_one_open ON votes (game_id) WHERE status = 'open'",
            "CREATE INDEX votes_by_deadline ON votes (deadline) WHERE status = 'open'",
            """
            CREATE TABLE ballots (
                vote_id INTEGER NOT NULL REFERENCES votes (id) ON DELETE CASCADE,
                voter_id INTEGER NOT NULL,
                choice TEXT NOT NULL CHECK (choice IN ('skip', 'autopilot')),
                cast_at REAL NOT NULL,
                PRIMARY KEY (vote_id, voter_id)
            ) WITHOUT ROWID
            """,
        ),
    ),
    Migration(
        3,
        "the daily digest: when each opted-in player's next one is due, and the last sent",
        (
            """
            CREATE TABLE digests (
                user_id INTEGER PRIMARY KEY,
                due_at REAL,
                sent_at REAL
            )
            """,
            # the scheduler asks every minute which digests are due: one index lookup
            "CREATE INDEX digests_due ON digests (due_at) WHERE due_at IS NOT NULL",
        ),
    ),
    Migration(
        4,
        "integrity: each log entry's chain value, each snapshot's chain value and digest",
        (
            # the chain value of an entry hashes the one before it (bot/store/integrity.py)
            "ALTER TABLE actions ADD COLUMN chain TEXT",
            # NULL in a snapshot means "not yet checked": the next load rebuilds it from
            # the log once and stores both values
            "ALTER TABLE snapshots ADD COLUMN chain TEXT",
            "ALTER TABLE snapshots ADD COLUMN digest TEXT",
            # fill the chain of existing logs, entry after entry (mk_genesis and mk_chain
            # are registered by the store on every connection); after a gap nothing is
            # filled, so the load reports the game as damaged
            """
            CREATE TEMP TABLE chain_fill AS
            WITH RECURSIVE c (game_id, seq, chain) AS (
                SELECT DISTINCT game_id, 0, mk_genesis(game_id) FROM actions
                UNION ALL
                SELECT a.game_id, a.seq, mk_chain(c.chain, a.seq, a.seat, a.notation)
                FROM c JOIN actions a ON a.game_id = c.game_id AND a.seq = c.seq + 1
            )
            SELECT game_id, seq, chain FROM c WHERE seq > 0
            """,
            "CREATE UNIQUE INDEX temp.chain_fill_key ON chain_fill (game_id, seq)",
            "UPDATE actions SET chain = (SELECT f.chain FROM chain_fill f"
            " WHERE f.game_id = actions.game_id AND f.seq = actions.seq)",
            "DROP TABLE temp.chain_fill",
        ),
    ),
    Migration(
        5,
        "the game's language: its public posts are written in it",
        (
            # a language code of the message catalogue (bot/i18n): en, pl or es; games
            # made before it was chosen were English
            "ALTER TABLE games ADD COLUMN language TEXT NOT NULL DEFAULT 'en'",
        ),
    ),
    Migration(
        6,
        "each player's language: their direct messages are written in it",
        (
            # the language of the player's last interaction with the bot (en, pl or es);
            # NULL until they are seen once: their DMs then use the game's language
            "ALTER TABLE notification_prefs ADD COLUMN language TEXT",
        ),
    ),
    Migration(
        7,
        "duty claims: which bot process does each scheduler duty, and until when",
        (
            # one row per duty held (or resting): several processes share the database,
            # and a duty is done by whoever claims it first (bot/service/duties.py); a
            # claim ends with its lease, so a crashed process's duties pass to another.
            # claimed_by '' is a rest: nobody may claim the duty before lease_until
            """
            CREATE TABLE duty_claims (
                duty TEXT PRIMARY KEY,
                claimed_by TEXT NOT NULL,
                claimed_at REAL NOT NULL,
                lease_until REAL NOT NULL
            ) WITHOUT ROWID
            """,
            "CREATE INDEX duty_claims_by_lease ON duty_claims (lease_until)",
        ),
    ),
    Migration(
        8,
        "the outbox at scale: delivered messages found by game and by age; no `messages`",
        (
            # the newest post of a game in a channel, for a resend (a delivered row's
            # message id), without reading the game's whole history of messages
            "CREATE INDEX IF NOT EXISTS outbox_delivered_by_game"
            " ON outbox (game_id, channel_id, message_id)"
            " WHERE delivered_at IS NOT NULL",
            # delivered messages are deleted after their retention, oldest first, in
            # small batches (`Store.prune_delivered`)
            "CREATE INDEX IF NOT EXISTS outbox_delivered_at ON outbox (delivered_at)"
            " WHERE delivered_at IS NOT NULL",
            # the posts the bot meant to edit later: never used since the outbox came
            # (IF EXISTS, IF NOT EXISTS: a file a test or a host set back to an older
            # version by hand migrates again)
            "DROP TABLE IF EXISTS messages",
        ),
    ),
    Migration(
        9,
        "away and the turn clock: who is away until when, the games' policies and clocks",
        (
            # one row per player away (`/mk away`): since when, and until when (the end
            # is a duty of the scheduler, found through the index on it)
            """
            CREATE TABLE IF NOT EXISTS away (
                user_id INTEGER PRIMARY KEY,
                began_at REAL NOT NULL,
                ends_at REAL NOT NULL
            )
            """,
            "CREATE INDEX IF NOT EXISTS away_by_end ON away (ends_at)",
            # a seat whose player is away: the game waits ('wait') or the AI plays it
            # ('ai'); NULL: the player is here
            "ALTER TABLE seats ADD COLUMN away TEXT CHECK (away IN ('wait', 'ai'))",
            # what a game does while a player is away, and its turn clock (NULL: none;
            # seconds of a player's playing hours a turn) with what its zero does
            "ALTER TABLE games ADD COLUMN away_policy TEXT NOT NULL DEFAULT 'wait'"
            " CHECK (away_policy IN ('wait', 'ai'))",
            "ALTER TABLE games ADD COLUMN clock_seconds INTEGER CHECK (clock_seconds > 0)",
            "ALTER TABLE games ADD COLUMN clock_policy TEXT NOT NULL DEFAULT 'vote'"
            " CHECK (clock_policy IN ('vote', 'ai'))",
            # an awaited seat's clock: the turn it was set for (its `waiting_since`; a
            # row awaited anew has another and is set anew), its deadline, when its one
            # reminder is due, and how far it went (0 set, 1 reminded, 2 ran out)
            "ALTER TABLE reminders ADD COLUMN clock_since REAL",
            "ALTER TABLE reminders ADD COLUMN clock_due REAL",
            "ALTER TABLE reminders ADD COLUMN clock_warn REAL",
            "ALTER TABLE reminders ADD COLUMN clock_stage INTEGER NOT NULL DEFAULT 0"
            " CHECK (clock_stage BETWEEN 0 AND 2)",
            # the scheduler asks every round which clocks need it: only games with one
            "CREATE INDEX IF NOT EXISTS games_with_clock ON games (id)"
            " WHERE clock_seconds IS NOT NULL",
        ),
    ),
    Migration(
        10,
        "the community: ratings per server, the games rated, players who hide their stats",
        (
            # each player's OpenSkill rating on a server, kept up to date as games end
            # (bot/service/community.py); the leaderboard reads it through its index
            """
            CREATE TABLE IF NOT EXISTS ratings (
                guild_id INTEGER NOT NULL,
                user_id INTEGER NOT NULL,
                mu REAL NOT NULL,
                sigma REAL NOT NULL,
                ordinal REAL NOT NULL,
                games INTEGER NOT NULL CHECK (games >= 0),
                wins INTEGER NOT NULL CHECK (wins >= 0),
                updated_at REAL NOT NULL,
                PRIMARY KEY (guild_id, user_id)
            ) WITHOUT ROWID
            """,
            "CREATE INDEX IF NOT EXISTS ratings_board ON ratings (guild_id, ordinal DESC, user_id)",
            # each finished game once looked at for ratings (rated 0: it was not, e.g.
            # fewer than two people), written in the same transaction as the ratings
            """
            CREATE TABLE IF NOT EXISTS rated_games (
                game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
                guild_id INTEGER,
                rated_at REAL NOT NULL,
                rated INTEGER NOT NULL CHECK (rated IN (0, 1))
            )
            """,
            # the games that ended, by when: the sweep that rates them reads a range
            "CREATE INDEX IF NOT EXISTS games_finished ON games (updated_at) WHERE status = 'over'",
            # players who hide their stats from boards and from others' cards
            """
            CREATE TABLE IF NOT EXISTS stats_hidden (
                user_id INTEGER PRIMARY KEY,
                since REAL NOT NULL
            )
            """,
        ),
    ),
    Migration(
        11,
        "rematches and open lobbies: a finished game's one rematch, a server's lobbies",
        (
            # the rematch made from a finished game's post: one per game (its key), the
            # new game's row written in the same transaction
            """
            CREATE TABLE IF NOT EXISTS rematches (
                game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
                rematch_id INTEGER NOT NULL UNIQUE REFERENCES games (id) ON DELETE CASCADE
            )
            """,
            # `/mk games open:True`: a server's games not started yet
            "CREATE INDEX IF NOT EXISTS games_open ON games (guild_id, id) WHERE status = 'open'",
        ),
    ),
    Migration(
        12,
        "tidy servers: idle games warned then ended, lobbies never started closed",
        (
            # a server's setting (Manage Server): days without a move before a game is
            # warned (none: the default, bot/service/tidy.py)
            """
            CREATE TABLE IF NOT EXISTS server_settings (
                guild_id INTEGER PRIMARY KEY,
                idle_days INTEGER NOT NULL CHECK (idle_days BETWEEN 7 AND 365),
                updated_at REAL NOT NULL
            )
            """,
            # when the game was warned it is idle; a move since (updated_at later) resets it
            "ALTER TABLE games ADD COLUMN idle_warned_at REAL",
            # the scheduler's two sweeps: running games by their last change, lobbies by
            # age (the "> 0": only a query that states it, the sweep's, may use them, so
            # SQLite never takes them for another query of running or open games)
            "CREATE INDEX IF NOT EXISTS games_idle ON games (updated_at)"
            " WHERE status = 'active' AND updated_at > 0",
            "CREATE INDEX IF NOT EXISTS games_lobby_age ON games (created_at)"
            " WHERE status = 'open' AND created_at > 0",
        ),
    ),
    Migration(
        13,
        "the heads-up: players who want a DM when the player before them starts",
        (
            # players who opted in (`/mk notify heads_up:True`)
            """
            CREATE TABLE IF NOT EXISTS heads_up (
                user_id INTEGER PRIMARY KEY,
                since REAL NOT NULL
            )
            """,
            # the turn (an awaited seat's `waiting_since`) the heads-up was looked at for
            "ALTER TABLE reminders ADD COLUMN heads_up_since REAL",
        ),
    ),
)

LATEST_VERSION = MIGRATIONS[-1].version
