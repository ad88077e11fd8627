"""10,000 running games in one process (issue 29): the scheduler, the prune, the size of
a finished game and the turn post through the real bot, on one SQLite file.

    .venv/bin/python -m benchmarks.scale_bench [--games 10000] [--bot-seconds 120]
        [--votes 0.1] [--bot-games 12] [--no-bot]

Prints, each on a line of its own with its goal:
- a scheduler round with nothing due (`Scheduler.round`, the function the bot runs after
  every command), median and max over `--rounds` rounds, and the part each duty takes;
- every statement one round sends to SQLite (traced at aiosqlite's public
  `Connection.execute*`), with `EXPLAIN QUERY PLAN`, its time on a plain connection and a
  FULL SCAN flag where it walks a whole table or index;
- the longest wait of an act (16 cloned games acting through the service, about 20 acts
  a second in all) while the scheduler's prune (`Scheduler.prune`, run first, on the
  backlog of answers older than a day) runs, against the same acts for 3 s without it;
  the prune's statements with their query plans, and how many delivered outbox rows
  were left;
- the database size per finished 4-player game, split into log + state, outbox and
  stored interaction answers (SQLite's `dbstat` over copies of one finished game);
- through the real bot (`python -m bot`, tests/bot/process_harness.py) against the
  loopback stand-in Discord (tests/bot/fake_discord.py), players' `/mk act` commands at
  `--rate` acts a second with the N games in its database: the turn post's latency
  (p50, p95, p99, max) from the interaction to the post in the thread, and the CPU the
  bot process used. `--games 0` gives the same figure with only the driven games in the
  file: the machine's share of it.

How the database is built (playing 10,000 games move by move through the service would
take hours):
1. Four template games are played to the end through `GameService`, each act as the bot
   passes it (interaction id, where the answer goes, the player's name), on a clock that
   moves 30 minutes an act: a 2-player game with an AI seat, a 3-player game, a 4-player
   game with an AI seat and a 4-player game of people only. People's moves are random
   legal actions (`rules.selfplay.random_action`); AI seats are played by the service's
   own AI path (`play_owed_move`, the rules' heuristic AI). After every act the template's
   snapshot and reminder rows are copied: each position is a possible "running game".
2. Each of the N games is a template cut at a random position of play whose awaited
   seats are people's: its games, seats and log rows up to the cut (chain values and
   snapshot digest recomputed for the new game id, so loads and checks pass), the
   snapshot at the cut, the outbox rows owed up to the cut, all marked delivered (with a
   channel and message id unless private answers), the stored interaction answers, and
   the reminder rows of the seats awaited. Times are shifted so that the last act was 1
   minute to 6 hours ago (its reminder is due in 6 to 12 hours: nothing is due) and the
   history reaches back 30 minutes an act (older answers are the prune's backlog, as
   after a day down). `--votes` of the games have an open vote about their awaited seat
   (deadline in 11 hours), and a quarter of the players a daily digest due later today.
   Players (ids shared: each plays in about as many games as a game has seats) and
   threads are new for each game; payloads of delivered messages are the template's,
   verbatim. Interaction ids are Discord snowflakes of their time and outbox ids grow
   with time across games, and the rows go in in the order of time (plain SQL,
   executemany, one transaction), so each table's B-tree has the shape the bot's own
   appends give it (old answers at one end, as the prune finds them).
3. A sample of the clones is checked through the service (`bot.maintenance.check_games`:
   whole-log replay, chain and digest) and loaded, and a few play their next move.

The machine is shared (2 cores): every figure moves with its load and the disk's, so the
load average and the time of an fsync are printed along. PostgreSQL is not measured here.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import itertools
import os
import platform
import random
import re
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import aiosqlite

import bot
from benchmarks.service_bench import fsync_times
from bot.__main__ import settle_memory
from bot.app import create_bot
from bot.maintenance import check_games
from bot.scheduler import Scheduler
from bot.service import MOUNTAIN_KING, GameService
from bot.service.results import ReplyTo
from bot.settings import Settings
from bot.store import SqliteStore
from bot.store.integrity import genesis, next_chain, state_digest
from rules.selfplay import play_random_game, random_action
from rules.state import make_config
from rules.steps import seats_to_act

# the stand-in Discord and the bot-process harness of the tests (imported, not edited)
from tests.bot.fake_discord import CHANNEL_ID, GUILD_ID, FakeDiscord, Pushed, user
from tests.bot.process_harness import BotProcess

Service = GameService[Any, Any]

APPLICATION_ID = 4242
ACT_SPACING = timedelta(minutes=30)
TEMPLATE_START = datetime(2026, 1, 1, tzinfo=UTC)
TEMPLATE_USER = 7_000_000
# (players, AI seats, seed); the last is the finished 4-player game whose size is measured
TEMPLATES = ((2, 1, 21), (3, 0, 22), (4, 1, 23), (4, 0, 24))
CLONE_USERS = 100_000_000
CLONE_THREADS = 500_000_000_000
GUILDS = 300
# interaction ids of the benchmark's own acts, far above the clones'
OWN_INTERACTIONS = 10**13
MESSAGE_IDS = 10**15
# the cloned outbox's ids: milliseconds since ID_BASE_MS, then the game, then a count
ID_BASE_MS = int((time.time() - 90 * 86400) * 1000)
GAME_SLOTS = 2**20
DISCORD_EPOCH_MS = 1_420_070_400_000
# games acting through the service while the prune runs
ACTORS = 16


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def pct(samples: Sequence[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def load_line() -> str:
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())


def fsync_line(folder: Path, rounds: int = 30) -> str:
    """The disk's price for a durable commit now (other work shares it)."""
    times = fsync_times(folder, rounds)
    return f"one fsync of this disk: median {ms(statistics.median(times))}, max {ms(max(times))}"


class StepClock:
    """The templates' clock: it moves only when told to."""

    def __init__(self, at: datetime) -> None:
        self.at = at

    def now(self) -> datetime:
        return self.at

    def advance(self, by: timedelta) -> None:
        self.at += by


# --- templates ----------------------------------------------------------------------------


@dataclass
class Cut:
    """A template game as it stood after `seq` acts: its snapshot and reminder rows."""

    seq: int
    state: str
    reminders: list[tuple[int, float, float, int, int]]


@dataclass
class Template:
    players: int
    ai_seats: int
    game: dict[str, Any]
    seats: list[dict[str, Any]]
    actions: list[dict[str, Any]]  # by seq, from 1
    outbox: list[dict[str, Any]]
    interactions: dict[int, dict[str, Any]]  # by seq
    cuts: dict[int, Cut]  # positions of play awaiting people only
    final: Cut

    @property
    def name(self) -> str:
        ai = f", {self.ai_seats} AI seat" if self.ai_seats else ""
        return f"{self.players} players{ai}, {len(self.actions)} acts"


async def play_template(folder: Path, players: int, ai_seats: int, seed: int) -> Template:
    """One game played to the end through the service, copying each position."""
    path = folder / f"template-{players}p-{seed}.db"
    clock = StepClock(TEMPLATE_START)
    async with SqliteStore(path, synchronous="NORMAL") as store:
        service: Service = GameService(
            store, MOUNTAIN_KING, rng=random.Random(seed), clock=clock.now
        )
        info = await service.create_game(
            TEMPLATE_USER, {"players": players}, guild_id=1, channel_id=2, thread_id=3, name="p0"
        )
        for n in range(1, players):
            clock.advance(timedelta(minutes=5))
            if n >= players - ai_seats:
                await service.seating.add_ai(info.id, TEMPLATE_USER)
            else:
                await service.seating.join(info.id, TEMPLATE_USER + n, name=f"p{n}")
        info = await service.start(info.id, TEMPLATE_USER)
        users = {s.seat: s.user_id for s in info.seats}
        machine = {s.seat for s in info.seats if s.ai}
        rng = random.Random(seed)
        read = sqlite3.connect(path)
        cuts: dict[int, Cut] = {}
        interactions = itertools.count(1)
        last: Cut | None = None
        while True:
            loaded = await service.load(info.id)
            state = loaded.state
            assert state is not None
            snapshot = read.execute(
                "SELECT seq, state FROM snapshots WHERE game_id = ?", (info.id,)
            ).fetchone()
            reminders = read.execute(
                "SELECT seat, waiting_since, next_at, missed, muted_for_turn FROM reminders"
                " WHERE game_id = ? ORDER BY seat",
                (info.id,),
            ).fetchall()
            last = Cut(snapshot[0], snapshot[1], reminders)
            if state.phase == "play" and reminders and not {r[0] for r in reminders} & machine:
                cuts[last.seq] = last
            if state.phase == "over":
                break
            seat = seats_to_act(state)[0]
            clock.advance(ACT_SPACING)
            if seat in machine:
                result = await service.play_owed_move(info.id, seat)
                assert result is not None, "the AI did not play"
            else:
                n = next(interactions)
                await service.act(
                    info.id,
                    users[seat],
                    str(random_action(state, seat, rng)),
                    interaction_id=n,
                    reply_to=ReplyTo(APPLICATION_ID, f"token-{n}"),
                    name=f"p{seat}",
                )
        read.row_factory = sqlite3.Row

        def rows(sql: str) -> list[dict[str, Any]]:
            return [dict(r) for r in read.execute(sql, (info.id,))]

        template = Template(
            players,
            ai_seats,
            rows("SELECT * FROM games WHERE id = ?")[0],
            rows("SELECT * FROM seats WHERE game_id = ? ORDER BY seat"),
            rows("SELECT * FROM actions WHERE game_id = ? ORDER BY seq"),
            rows("SELECT * FROM outbox WHERE game_id = ? ORDER BY id"),
            {r["seq"]: r for r in rows("SELECT * FROM interactions WHERE game_id = ?")},
            cuts,
            last,
        )
        read.close()
    # the last position is over, not running
    template.cuts.pop(len(template.actions), None)
    return template


def template_in_process(folder: Path, players: int, ai_seats: int, seed: int) -> Template:
    return asyncio.run(play_template(folder, players, ai_seats, seed))


# --- clones -------------------------------------------------------------------------------


@dataclass
class Plan:
    """One cloned game: which template, cut where, its times shifted by `shift`."""

    game_id: int
    template: Template
    cut: int
    shift: float
    vote: bool = False
    finished: bool = False

    @property
    def thread_id(self) -> int:
        return CLONE_THREADS + self.game_id

    def user(self, seat: int, pool: int) -> int:
        return CLONE_USERS + (self.game_id + seat * (pool // 4 + 1)) % pool

    def moves(self) -> list[tuple[int, str]]:
        """The template's moves after the cut (seat, notation)."""
        return [(a["seat"], a["notation"]) for a in self.template.actions[self.cut :]]


@dataclass
class Rows:
    games: list[tuple[Any, ...]] = field(default_factory=list)
    seats: list[tuple[Any, ...]] = field(default_factory=list)
    actions: list[tuple[Any, ...]] = field(default_factory=list)
    snapshots: list[tuple[Any, ...]] = field(default_factory=list)
    outbox: list[tuple[Any, ...]] = field(default_factory=list)
    interactions: list[tuple[Any, ...]] = field(default_factory=list)
    reminders: list[tuple[Any, ...]] = field(default_factory=list)
    votes: list[tuple[Any, ...]] = field(default_factory=list)


INSERTS = {
    "games": "INSERT INTO games (id, rules, config, seed, status, creator_id, reminder_seconds,"
    " guild_id, channel_id, thread_id, created_at, updated_at, language)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "seats": "INSERT INTO seats (game_id, seat, user_id, joined_at, colour, team,"
    " substitute_id, autopilot, ai, skip_turn, name) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "actions": "INSERT INTO actions (game_id, seq, seat, notation, created_at, user_id,"
    " interaction_id, story, ends_turn, chain) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "snapshots": "INSERT INTO snapshots (game_id, seq, state, chain, digest)"
    " VALUES (?, ?, ?, ?, ?)",
    "outbox": "INSERT INTO outbox (id, game_id, seq, kind, payload, created_at, due_at,"
    " attempts, tried_at, last_error, delivered_at, channel_id, message_id)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, NULL, ?, ?, ?)",
    "interactions": "INSERT INTO interactions (interaction_id, game_id, seq, result,"
    " created_at) VALUES (?, ?, ?, ?, ?)",
    "reminders": "INSERT INTO reminders (game_id, seat, waiting_since, next_at, missed,"
    " muted_for_turn) VALUES (?, ?, ?, ?, ?, ?)",
    "votes": "INSERT INTO votes (game_id, seat, turn_since, opened_at, deadline, status)"
    " VALUES (?, ?, ?, ?, ?, 'open')",
}


def snowflake(at: float, low: int) -> int:
    """A Discord id of the time `at` (interaction ids grow with time)."""
    return ((int(at * 1000) - DISCORD_EPOCH_MS) << 22) | (low & (2**22 - 1))


def clone_rows(plan: Plan, rows: Rows, pool: int, now: float, messages: Iterator[int]) -> None:
    """The rows of one cloned game, added to `rows`."""
    t, gid, shift, cut = plan.template, plan.game_id, plan.shift, plan.cut
    users = {s["user_id"]: plan.user(s["seat"], pool) for s in t.seats if s["user_id"]}
    g = t.game
    last_at = t.actions[cut - 1]["created_at"] + shift
    rows.games.append(
        (
            gid,
            g["rules"],
            g["config"],
            g["seed"],
            "over" if plan.finished else "active",
            users.get(g["creator_id"], CLONE_USERS),
            g["reminder_seconds"],
            gid % GUILDS + 1,
            gid % GUILDS + 10_000,
            plan.thread_id,
            g["created_at"] + shift,
            last_at,
            g["language"],
        )
    )
    for s in t.seats:
        uid = users.get(s["user_id"]) if s["user_id"] else None
        rows.seats.append(
            (
                gid,
                s["seat"],
                uid,
                s["joined_at"] + shift,
                s["colour"],
                s["team"],
                None,
                s["autopilot"],
                s["ai"],
                s["skip_turn"],
                None if uid is None else f"player {uid}",
            )
        )
    chain = genesis(gid)
    for a in t.actions[:cut]:
        seq = a["seq"]
        chain = next_chain(chain, seq, a["seat"], a["notation"])
        answer = t.interactions.get(seq) if a["interaction_id"] is not None else None
        iid = None if answer is None else snowflake(answer["created_at"] + shift, gid)
        rows.actions.append(
            (
                gid,
                seq,
                a["seat"],
                a["notation"],
                a["created_at"] + shift,
                users.get(a["user_id"]) if a["user_id"] else None,
                iid,
                a["story"],
                a["ends_turn"],
                chain,
            )
        )
        if answer is not None:
            rows.interactions.append(
                (iid, gid, seq, answer["result"], answer["created_at"] + shift)
            )
    position = t.final if cut == len(t.actions) else t.cuts[cut]
    rows.snapshots.append(
        (gid, cut, position.state, chain, state_digest(cut, chain, position.state))
    )
    same = 0
    previous = None
    for o in t.outbox:
        if o["seq"] > cut:
            break
        created = o["created_at"] + shift
        # ids in the order of time across games, as the outbox's own ids grow
        same = same + 1 if created == previous else 0
        previous = created
        assert same < 8 and gid < GAME_SLOTS
        owed_id = ((int(created * 1000) - ID_BASE_MS) * GAME_SLOTS + gid) * 8 + same
        delivered = created + 1.0
        private = o["kind"] == "reply"
        rows.outbox.append(
            (
                owed_id,
                gid,
                o["seq"],
                o["kind"],
                o["payload"],
                created,
                o["due_at"] + shift,
                None if private else delivered,
                delivered,
                None if private else plan.thread_id,
                None if private else next(messages),
            )
        )
    if plan.finished:
        return
    for n, (seat, since, next_at, missed, muted) in enumerate(position.reminders):
        voted = plan.vote and n == 0
        rows.reminders.append(
            (gid, seat, since + shift, next_at + shift, 3 if voted else missed, muted)
        )
        if voted:
            rows.votes.append((gid, seat, since + shift, now - 3600, now + 11 * 3600))


def write_clones(path: Path, plans: Sequence[Plan], pool: int, *, digests: bool) -> float:
    """Insert the planned games with plain SQL in one transaction; seconds taken."""
    started = time.perf_counter()
    now = time.time()
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA synchronous = OFF")
    db.execute("BEGIN")
    messages = itertools.count(MESSAGE_IDS)
    rows = Rows()
    for plan in plans:
        clone_rows(plan, rows, pool, now, messages)
    # in the order of time across games, as the bot appends them (each table's B-tree
    # then has the shape of a real one's: the log's keys by game, in random order; the
    # outbox and interactions by time, at the end)
    rows.actions.sort(key=lambda r: r[4])
    rows.interactions.sort(key=lambda r: r[4])
    rows.outbox.sort(key=lambda r: r[0])
    for table, statement in INSERTS.items():
        db.executemany(statement, getattr(rows, table))
    if digests:
        rng = random.Random(5)
        db.executemany(
            "INSERT INTO digests (user_id, due_at) VALUES (?, ?)",
            [(CLONE_USERS + n, now + rng.uniform(3600, 23 * 3600)) for n in range(0, pool, 4)],
        )
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    # on the disk before anything is measured: written without a flush, the clones
    # would wait in the page cache for the first fsync of the file (the first
    # checkpoint of the bot's own writes), which would then flush a gigabyte at once;
    # a database that grew over months is on the disk
    with open(path, "rb+") as written:
        os.fsync(written.fileno())
    return time.perf_counter() - started


def plan_running(templates: Sequence[Template], count: int, votes: float) -> list[Plan]:
    rng = random.Random(29)
    now = time.time()
    plans = []
    for gid in range(1, count + 1):
        t = templates[gid % len(templates)]
        cut = rng.choice(sorted(t.cuts))
        last = t.actions[cut - 1]["created_at"]
        shift = now - rng.uniform(60, 6 * 3600) - last
        plans.append(Plan(gid, t, cut, shift, vote=rng.random() < votes))
    return plans


async def migrate(path: Path) -> None:
    async with SqliteStore(path):
        pass


GROUPS = {
    "actions": ("actions",),
    "snapshots": ("snapshots",),
    "outbox": ("outbox",),
    "interactions": ("interactions",),
    "games, seats": ("games", "seats"),
}


def table_sizes(path: Path) -> dict[str, int]:
    """Bytes of each table with its indexes (SQLite's dbstat; empty if it is missing)."""
    db = sqlite3.connect(path)
    try:
        owner = dict(db.execute("SELECT name, tbl_name FROM sqlite_master"))
        rows = db.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name").fetchall()
    except sqlite3.OperationalError:
        return {}
    finally:
        db.close()
    out: dict[str, int] = {}
    for name, size in rows:
        table = owner.get(name) or re.sub(r"^sqlite_autoindex_(\w+)_\d+$", r"\1", name)
        out[table] = out.get(table, 0) + int(size)
    return out


def grouped(sizes: dict[str, int]) -> dict[str, int]:
    """Bytes by table (with its indexes), the games and seats together."""
    return {group: sum(sizes.get(t, 0) for t in tables) for group, tables in GROUPS.items()}


def finished_size(folder: Path, template: Template, copies: int) -> None:
    """Bytes per finished 4-player game: `copies` clones of it (status over, every owed
    message delivered), measured by dbstat."""
    path = folder / "finished.db"
    asyncio.run(migrate(path))
    before = path.stat().st_size
    now = time.time()
    rng = random.Random(3)
    last = template.actions[-1]["created_at"]
    plans = [
        Plan(
            gid,
            template,
            len(template.actions),
            now - rng.uniform(2, 30) * 86400 - last,
            finished=True,
        )
        for gid in range(1, copies + 1)
    ]
    write_clones(path, plans, max(8, copies), digests=False)
    size = path.stat().st_size - before
    parts = grouped(table_sizes(path))
    kib = {k: v / copies / 1024 for k, v in parts.items()}
    print(
        f"database size per finished 4-player game ({len(template.actions)} acts,"
        f" {len(template.outbox)} owed messages, {len(template.interactions)} answers;"
        f" {copies} copies, dbstat): log + state {kib['actions'] + kib['snapshots']:.1f} KiB"
        f" (log {kib['actions']:.1f}, snapshot {kib['snapshots']:.1f}),"
        f" outbox {kib['outbox']:.1f} KiB (never deleted today),"
        f" interaction answers {kib['interactions']:.1f} KiB (until pruned after a day),"
        f" games and seats {kib['games, seats']:.1f} KiB; file {size / copies / 1024:.1f} KiB"
        "  (issue 29: about 26 KiB of log and state, plus the outbox)"
    )


# --- measuring through the service -----------------------------------------------------------


async def verify_sample(service: Service, plans: Sequence[Plan], pool: int) -> None:
    """Some clones, checked by a whole-log replay, loaded, and a few played on."""
    rng = random.Random(11)
    sample = rng.sample(list(plans), min(40, len(plans)))
    report = await check_games(service.store, service.rules, [p.game_id for p in sample])
    assert not report.broken and not report.drifted, (report.broken, report.drifted)
    for plan in sample:
        loaded = await service.load(plan.game_id)
        assert loaded.seq == plan.cut and loaded.state is not None
        assert loaded.state.phase == "play"
    played = 0
    # games of people only: a move there never leaves an AI seat owing one
    for plan in [p for p in sample if p.template.ai_seats == 0][:5]:
        seat, notation = plan.moves()[0]
        await service.act(plan.game_id, plan.user(seat, pool), notation)
        await deliver_all(service, plan.game_id)
        plan.cut += 1
        played += 1
    print(
        f"  checked {report.checked} cloned games through the service (whole-log replay, chain,"
        f" digest), loaded {len(sample)}, and {played} played their next move"
    )


async def deliver_all(service: Service, game_id: int) -> None:
    """Mark what a game owes delivered (no Discord in these parts)."""
    for owed in await service.outbox.owed(game_id=game_id, everything=True, limit=10_000):
        await service.outbox.delivered(owed.id)


@dataclass
class Actor:
    """A cloned game whose players act through the service, one move after another."""

    plan: Plan
    pool: int
    moves: list[tuple[int, str]]
    done: int = 0

    async def run(
        self,
        service: Service,
        ids: Iterator[int],
        stop: asyncio.Event,
        pause: float,
        latencies: list[tuple[float, float]],
    ) -> None:
        while not stop.is_set() and self.done < len(self.moves) - 1:
            seat, notation = self.moves[self.done]
            n = next(ids)
            started = time.perf_counter()
            await service.act(
                self.plan.game_id,
                self.plan.user(seat, self.pool),
                notation,
                interaction_id=n,
                reply_to=ReplyTo(APPLICATION_ID, f"token-{n}"),
                name="a player",
            )
            latencies.append((started, time.perf_counter() - started))
            self.done += 1
            await asyncio.sleep(pause)


async def measure_prune(
    service: Service, scheduler: Scheduler, path: Path, plans: Sequence[Plan], pool: int
) -> None:
    """Acts on a few games without a prune, then while the scheduler's prune runs."""
    # games of people with the most moves left, so they keep acting through a long prune
    candidates = sorted(
        (p for p in plans if p.template.ai_seats == 0 and not p.vote),
        key=lambda p: (p.cut - len(p.template.actions), p.game_id),
    )[:ACTORS]
    if len(candidates) < ACTORS:
        print(f"prune: skipped (fewer than {ACTORS} cloned games of people to act in)")
        return
    actors = [Actor(p, pool, p.moves()) for p in candidates]
    ids = itertools.count(OWN_INTERACTIONS)
    pause = ACTORS / 20  # about 20 acts a second in all

    async def run(during: Callable[[], Awaitable[Any]] | None) -> tuple[list[float], Any, float]:
        stop = asyncio.Event()
        latencies: list[tuple[float, float]] = []
        tasks = [asyncio.create_task(a.run(service, ids, stop, pause, latencies)) for a in actors]
        await asyncio.sleep(0.5)
        started = time.perf_counter()
        value = None
        if during is None:
            await asyncio.sleep(3.0)
        else:
            value = await during()
        ended = time.perf_counter()
        await asyncio.sleep(0.5)
        stop.set()
        await asyncio.gather(*tasks)
        overlapping = [d for s, d in latencies if s + d >= started and s <= ended]
        return overlapping, value, ended - started

    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    old = time.time() - 86400

    def counts() -> tuple[int, int]:
        interactions = db.execute(
            "SELECT COUNT(*) FROM interactions WHERE created_at < ?", (old,)
        ).fetchone()[0]
        delivered = db.execute(
            "SELECT COUNT(*) FROM outbox WHERE delivered_at IS NOT NULL"
        ).fetchone()[0]
        return int(interactions), int(delivered)

    old_answers, delivered = counts()
    quiet, _, _ = await run(None)
    wal = path.with_name(path.name + "-wal")
    peak = 0

    async def prune_watching_the_wal() -> int:
        """The prune, with the size of the WAL file looked at every 20 ms meanwhile."""
        nonlocal peak
        task = asyncio.create_task(scheduler.prune())
        while not task.done():
            with contextlib.suppress(OSError):
                peak = max(peak, wal.stat().st_size)
            await asyncio.sleep(0.02)
        return await task

    sent.clear()
    with traced() as seen:
        busy, pruned, took = await run(prune_watching_the_wal)
    # from one batch's statement to the next: the batch's wait in the writer's queue,
    # its run and its commit
    marks = [t for (sql, _), t in zip(seen, sent, strict=False) if "FROM interactions" in sql]
    gaps = [b - a for a, b in itertools.pairwise(marks)] or [0.0]
    old_after, delivered_after = counts()
    db.close()
    for actor in actors:
        await deliver_all(service, actor.plan.game_id)
        actor.plan.cut += actor.done
    print(
        f"prune (Scheduler.prune): {pruned:,} interaction answers older than a day forgotten"
        f" in {took:.2f} s ({old_answers:,} before, {old_after:,} after); delivered outbox"
        f" rows {delivered:,} before, {delivered_after:,} after; the WAL file peaked at"
        f" {peak / 2**20:.0f} MiB; one batch to the next: median {ms(statistics.median(gaps))},"
        f" max {ms(max(gaps))}"
    )
    print(
        f"the longest wait of an act during the prune: {ms(max(busy))} (median"
        f" {ms(statistics.median(busy))}, {len(busy)} acts of {ACTORS} games at about 20 acts/s);"
        f" without a prune: longest {ms(max(quiet))}, median {ms(statistics.median(quiet))}"
        f" ({len(quiet)} acts)  (goal: under 100 ms)"
    )
    deletes = [(sql, params) for sql, params in seen if sql.lstrip().upper().startswith("DELETE")]
    print(f"  the prune's statements ({len(deletes)} deletes), EXPLAIN QUERY PLAN:")
    for line in explain(path, deletes, "the prune"):
        print(line)


@contextlib.contextmanager
def traced() -> Iterator[list[tuple[str, Any]]]:
    """Every statement sent through aiosqlite's public Connection.execute* meanwhile
    (with `sent`, when each was sent)."""
    seen: list[tuple[str, Any]] = []
    names = ("execute", "execute_fetchall", "executemany", "execute_insert")
    originals = {n: getattr(aiosqlite.Connection, n) for n in names}

    def wrap(original: Any, many: bool) -> Any:
        def call(self: Any, sql: str, parameters: Any = None, *args: Any, **kwargs: Any) -> Any:
            params = parameters
            if many and parameters is not None:
                params = list(parameters)
                parameters = params
                params = params[0] if params else ()
            seen.append((sql, params))
            sent.append(time.perf_counter())
            if parameters is None:
                return original(self, sql, *args, **kwargs)
            return original(self, sql, parameters, *args, **kwargs)

        return call

    for name, original in originals.items():
        setattr(aiosqlite.Connection, name, wrap(original, name == "executemany"))
    try:
        yield seen
        del sent[len(seen) :]
    finally:
        for name, original in originals.items():
            setattr(aiosqlite.Connection, name, original)


ALIASED = re.compile(r"\b(?:FROM|JOIN)\s+(\w+)\s+(?:AS\s+)?(\w+)", re.IGNORECASE)
# when each statement `traced` saw was sent, in the same order
sent: list[float] = []
SKIPPED = re.compile(r"^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|PRAGMA)\b", re.IGNORECASE)


def explain(path: Path, statements: list[tuple[str, Any]], where: str = "the round") -> list[str]:
    """EXPLAIN QUERY PLAN and the time of each distinct statement a round made (on a
    read-only plain connection; writes are explained, not run); FULL SCAN where a
    table or index is walked whole."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    # partial indexes and their condition
    partial = {
        name: sql.rsplit(" WHERE ", 1)[1]
        for name, sql in db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'index'")
        if sql and " WHERE " in sql
    }
    counted: dict[str, list[Any]] = {}
    for sql, params in statements:
        if not SKIPPED.match(sql):
            counted.setdefault(sql, []).append(params)
    flagged = []
    lines = []
    for sql, calls in counted.items():
        params = tuple(calls[0] or ())
        if "mk_append" in sql:
            lines.append(
                f"  [{len(calls)}x] {short(sql, 60)}\n      (a log append through the"
                " store's temporary view on the writer: not explained)"
            )
            continue
        try:
            plan = [r[3] for r in db.execute(f"EXPLAIN QUERY PLAN {sql}", params)]
        except sqlite3.Error as exc:
            lines.append(f"  [{len(calls)}x] {short(sql)}\n      (not explained: {exc})")
            continue
        timing = "write: not run"
        if sql.lstrip().upper().startswith("SELECT"):
            runs = []
            for _ in range(5):
                t = time.perf_counter()
                db.execute(sql, params).fetchall()
                runs.append(time.perf_counter() - t)
            timing = f"{statistics.median(runs) * 1000:.2f} ms a run"
        aliases = {alias: table for table, alias in ALIASED.findall(sql) if table in tables}
        scans = []
        for d in plan:
            words = d.split()
            if words[0] != "SCAN" or words[1] not in tables | set(aliases):
                continue
            table = aliases.get(words[1], words[1])
            rows = db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
            index = words[-1] if "INDEX" in words else None
            if index is not None and index in partial:
                held = db.execute(f"SELECT COUNT(*) FROM {table} WHERE {partial[index]}")
                scans.append(
                    f"walks the whole partial index {index} ({held.fetchone()[0]:,} of"
                    f" {rows:,} rows of {table})"
                )
            else:
                scans.append(f"walks the whole table {table} ({rows:,} rows)")
        flag = f"  <-- FULL SCAN: {'; '.join(scans)}" if scans else ""
        if scans:
            flagged.append(f"{short(sql, 90)} ({'; '.join(scans)})")
        lines.append(f"  [{len(calls)}x in {where}, {timing}]{flag}\n    {short(sql)}")
        lines += [f"      {d}" for d in plan]
    db.close()
    if flagged:
        lines.append(f"  full scans: {len(flagged)} statement(s): " + "; ".join(flagged))
    else:
        lines.append(f"  no statement of {where} scans a whole table or index")
    return lines


def short(sql: str, width: int = 150) -> str:
    text = " ".join(sql.split())
    return text if len(text) <= width else text[: width - 3] + "..."


async def measure_rounds(
    service: Service, scheduler: Scheduler, path: Path, rounds: int, votes: int
) -> None:
    """The round the bot runs after every command, with nothing due."""
    first = await scheduler.round()
    busy = {k: v for k, v in vars(first).items() if v}
    if busy:
        print(f"  (the first round had work: {busy}; the figures below follow it)")
    with traced() as seen:
        done = await scheduler.round()
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        done = await scheduler.round()
        times.append(time.perf_counter() - t)
    left = {k: v for k, v in vars(done).items() if v}
    print(
        f"a scheduler round with nothing due (Scheduler.round, {rounds} rounds, {votes:,} open"
        f" votes): median {ms(statistics.median(times))}, max {ms(max(times))}"
        f"{'' if not left else f' (work found: {left})'}  (goal: under 5 ms)"
    )
    parts: list[tuple[str, Callable[[], Awaitable[Any]]]] = [
        ("claims of dead processes (duties.reap)", service.duties.reap),
        ("owed messages due (outbox.owed)", lambda: service.outbox.owed(limit=200)),
        ("reminders due (notifications.due_reminders)", service.notifications.due_reminders),
        ("votes due (votes.close_due)", service.votes.close_due),
        ("AI moves owed (owed_moves)", lambda: service.owed_moves(limit=200)),
        ("digests due (your_games.claim_digests)", service.your_games.claim_digests),
    ]
    for label, call in parts:
        runs = []
        for _ in range(max(5, rounds // 5)):
            t = time.perf_counter()
            await call()
            runs.append(time.perf_counter() - t)
        print(f"  of which {label}: median {ms(statistics.median(runs))}")
    reads = [s for s in seen if not SKIPPED.match(s[0])]
    print(
        f"statements one round sends to SQLite: {len(reads)} ({len({s for s, _ in reads})}"
        " distinct); EXPLAIN QUERY PLAN of each:"
    )
    for line in explain(path, seen):
        print(line)


# --- through the bot ---------------------------------------------------------------------


@dataclass
class LiveGame:
    """A 4-player game of people in a thread of the stand-in Discord, driven by `/mk act`."""

    game_id: int
    thread: str
    users: dict[int, str]
    moves: list[tuple[int, str]]
    done: int = 0
    pushed: list[Pushed] = field(default_factory=list)
    walls: list[float] = field(default_factory=list)  # when each was pushed, wall clock


async def live_games(service: Service, fake: FakeDiscord, count: int) -> list[LiveGame]:
    """Games set up through the service to their first turn of play, all delivered."""
    games = []
    ids = itertools.count(OWN_INTERACTIONS + 10**9)
    for n in range(count):
        thread = fake.add_thread(f"Mountain King live {n}")
        uids = [str(930_000_000_000_000_000 + n * 10 + s) for s in range(4)]
        for uid in uids:
            fake.users[uid] = user(uid, f"u{uid[-4:]}")
        info = await service.create_game(
            int(uids[0]),
            {"players": 4},
            guild_id=int(GUILD_ID),
            channel_id=int(CHANNEL_ID),
            thread_id=int(thread),
            name=fake.users[uids[0]]["username"],
        )
        for uid in uids[1:]:
            await service.seating.join(info.id, int(uid), name=fake.users[uid]["username"])
        info = await service.start(info.id, int(uids[0]))
        assert info.seed is not None
        seat_user = {s.seat: str(s.user_id) for s in info.seats}
        record = play_random_game(make_config(**{"edition": 1, **info.config}), info.seed)
        moves = [(m.seat, str(m.action)) for m in record.moves]
        done = 0
        while True:
            state = (await service.load(info.id)).state
            assert state is not None
            if state.phase == "play":
                break
            seat, notation = moves[done]
            await service.act(info.id, int(seat_user[seat]), notation, interaction_id=next(ids))
            done += 1
        await deliver_all(service, info.id)
        games.append(LiveGame(info.id, thread, seat_user, moves, done))
    return games


def process_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def through_the_bot(
    path: Path, folder: Path, games: list[LiveGame], fake: FakeDiscord, seconds: float, rate: float
) -> None:
    """`/mk act` at `rate` a second, round robin over `games`, to `python -m bot`."""
    async with fake, BotProcess(fake, folder / "bot", database=path, start_timeout=120) as bot:
        started = time.perf_counter()
        await bot.start()
        log = bot.log_paths[-1]
        deadline = time.monotonic() + 600
        while "games at start-up" not in log.read_text(errors="replace"):
            assert bot.running, bot.tail()
            assert time.monotonic() < deadline, "the bot never finished its start-up check"
            await asyncio.sleep(0.2)
        await asyncio.sleep(2.0)  # the start-up round and the sample check are done
        print(f"  the bot started and checked its sample in {time.perf_counter() - started:.1f} s")
        loop = asyncio.get_running_loop()
        interval = 1.0 / rate
        at = loop.time()
        end = at + seconds
        turn = 0
        behind = 0
        sent = 0
        cpu = process_cpu(bot.pid)
        clock = time.perf_counter()
        while loop.time() < end:
            for k in range(len(games)):
                game = games[(turn + k) % len(games)]
                if game.done >= len(game.moves) - 1:
                    continue
                if game.pushed and not fake.answers(game.pushed[-1]):
                    continue
                turn = (turn + k + 1) % len(games)
                seat, notation = game.moves[game.done]
                game.walls.append(fake.wall())
                pushed = await fake.slash(game.users[seat], game.thread, "act", action=notation)
                game.pushed.append(pushed)
                game.done += 1
                sent += 1
                break
            else:
                behind += 1
            at += interval
            await asyncio.sleep(max(0.0, at - loop.time()))
        busy = (process_cpu(bot.pid) - cpu) / (time.perf_counter() - clock)
        pending = [p for g in games for p in g.pushed]
        await fake.wait_for(lambda: all(fake.answers(p) for p in pending), 60.0, "every answer")
        await asyncio.sleep(2.0)
        answers = []
        posts = []
        for game in games:
            created = [fake.interactions[p.id].created for p in game.pushed]
            for p, wall in zip(game.pushed, game.walls, strict=True):
                # the answer edits the deferred response: when it was edited
                m = fake.answers(p)[0]
                stamp = m["edited_timestamp"] or m["timestamp"]
                answers.append(datetime.fromisoformat(stamp).timestamp() - wall)
            for m in fake.channel_messages(game.thread):
                if not m["attachments"] or not created or m["_created"] < created[0]:
                    continue
                before = [t for t in created if t <= m["_created"]]
                posts.append(m["_created"] - before[-1])
        errors = [e for e in fake.internal_errors]
    applied = await applied_counts(path, games)
    wrong = [g.game_id for g in games if applied[g.game_id] != g.done]
    print(
        f"through the bot (python -m bot, stand-in Discord over loopback), {sent} `/mk act` in"
        f" {seconds:.0f} s ({sent / seconds:.1f} acts/s, {len(games)} games of 4 people;"
        f" {behind} ticks with no game ready), bot process CPU {busy * 100:.0f}% of a core"
    )
    print(
        f"the turn post's latency ({len(posts)} posts with images): p50 {ms(pct(posts, 50))},"
        f" p95 {ms(pct(posts, 95))}, p99 {ms(pct(posts, 99))}, max {ms(max(posts))}"
        "  (goal: p99 under 250 ms)"
    )
    print(
        f"  the private answer to each act: p50 {ms(pct(answers, 50))}, p99"
        f" {ms(pct(answers, 99))}, max {ms(max(answers))}"
        + (f"; {len(wrong)} games whose log disagrees: {wrong}" if wrong else "; every act applied")
        + (f"; stand-in errors: {errors[:3]}" if errors else "")
    )


async def applied_counts(path: Path, games: list[LiveGame]) -> dict[int, int]:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return {
            g.game_id: int(
                db.execute(
                    "SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?", (g.game_id,)
                ).fetchone()[0]
            )
            for g in games
        }
    finally:
        db.close()


# --- the run ------------------------------------------------------------------------------


async def service_parts(
    path: Path, plans: list[Plan], pool: int, args: argparse.Namespace, fake: FakeDiscord
) -> list[LiveGame]:
    async with SqliteStore(path) as store:
        service: Service = GameService(store, MOUNTAIN_KING)
        settle_memory()
        await verify_sample(service, plans, pool)
        bot = create_bot(service, Settings(discord_token=None), scheduler_poll=0)
        scheduler = Scheduler(bot, poll=0)
        await measure_prune(service, scheduler, path, plans, pool)
        votes = sum(p.vote for p in plans)
        await measure_rounds(service, scheduler, path, args.rounds, votes)
        if args.no_bot:
            return []
        return await live_games(service, fake, args.bot_games)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="running games in the file")
    parser.add_argument("--votes", type=float, default=0.1, help="share of games with a vote")
    parser.add_argument("--rounds", type=int, default=50, help="scheduler rounds timed")
    parser.add_argument("--finished-copies", type=int, default=500, help="for the size")
    parser.add_argument("--bot-seconds", type=float, default=120.0, help="driving the bot")
    parser.add_argument("--rate", type=float, default=5.0, help="acts a second to the bot")
    parser.add_argument("--bot-games", type=int, default=12, help="games driven in the bot")
    parser.add_argument("--no-bot", action="store_true", help="skip the bot's part")
    args = parser.parse_args()
    print(
        f"machine: {platform.system()} {platform.release()}, {os.cpu_count()} cores, Python"
        f" {platform.python_version()}, SQLite {sqlite3.sqlite_version}; load average"
        f" {load_line()}"
    )
    print(f"code measured: {Path(bot.__file__).resolve().parent.parent}")
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        print(f"  {fsync_line(folder)}")
        t = time.perf_counter()
        # two at a time, in processes of their own (the machine has two cores)
        with concurrent.futures.ProcessPoolExecutor(2) as pool_of_two:
            futures = [pool_of_two.submit(template_in_process, folder, *t) for t in TEMPLATES]
            templates = [f.result() for f in futures]
        print(
            f"templates played through the service in {time.perf_counter() - t:.1f} s: "
            + "; ".join(f"{tp.name} ({len(tp.cuts)} running positions)" for tp in templates)
        )
        finished_size(folder, templates[-1], min(args.finished_copies, max(50, args.games)))
        path = folder / "scale.db"
        asyncio.run(migrate(path))
        plans = plan_running(templates, args.games, args.votes)
        pool = max(8, args.games)
        took = write_clones(path, plans, pool, digests=True)
        size = path.stat().st_size
        parts = grouped(table_sizes(path))
        print(
            f"{args.games:,} running games cloned in {took:.1f} s: {size / 2**20:.0f} MiB"
            f" ({size / max(1, args.games) / 1024:.1f} KiB a game; "
            + ", ".join(f"{k} {v / 2**20:.0f} MiB" for k, v in parts.items())
            + f"), {sum(p.vote for p in plans):,} open votes"
        )
        fake = FakeDiscord()
        live = asyncio.run(service_parts(path, plans, pool, args, fake))
        if live:
            print(f"  before the bot: load average {load_line()}; {fsync_line(folder)}")
            asyncio.run(through_the_bot(path, folder, live, fake, args.bot_seconds, args.rate))
        print(f"  {fsync_line(folder)}")
    took = time.perf_counter() - began
    print(f"load average after: {load_line()}; the whole run took {took:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
