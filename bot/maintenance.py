"""The host's tools for the database: check every game (and repair a snapshot that
disagrees with its log), back it up, and the bot's own scheduled backups and start-up
sample check.

    python -m bot check               # replay every stored game; exit 1 if any is broken
    python -m bot check --sample 50   # the same for 50 games chosen at random
    python -m bot backup PATH         # a consistent copy, even while the bot runs
    python -m bot migrate --to postgresql://...   # move every game to PostgreSQL

Each reads `DATABASE_PATH` like the bot (environment or `.env`). `check` reads through
a read-only connection of its own, beside the bot and never through its writer; a game
whose snapshot disagrees with its log (the snapshot is only a cache) is then repaired:
the snapshot is rewritten from the replayed log, through a writable store opened for
that alone, one short write per game. `backup` uses SQLite's online backup, which
copies a consistent state while the bot goes on writing. A bad path or a failure is
one line, never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import sqlite3
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, NoReturn, TextIO

from bot import moving
from bot.service import GameRules
from bot.service.games import TABLE_GAMES
from bot.service.loading import GameCheck, check_game
from bot.service.shelf import AnyShelf
from bot.settings import database_path_problem, settings_for
from bot.store import SqliteStore, Store, StoreError

log = logging.getLogger("bot.maintenance")

# the tools of `python -m bot`, beside `run` and `health` (bot/__main__.py)
TOOLS = ("check", "backup", "migrate")

BACKUP_PREFIX = "mountain-king-"
BACKUP_SUFFIX = ".sqlite3"
# games checked at start-up, in the background
SAMPLE_SIZE = 20


@dataclass(frozen=True, slots=True)
class Broken:
    """A game that does not replay (or whose snapshot disagrees with its log), and why."""

    game_id: int
    reason: str


@dataclass(frozen=True, slots=True)
class CheckReport:
    checked: int
    broken: tuple[Broken, ...]
    # snapshots that disagreed with their log (not broken: the log is sound)
    drifted: tuple[Broken, ...]
    # of those, the games whose snapshot was rewritten from the log
    repaired: tuple[int, ...] = ()
    # and those whose was not, with why
    not_repaired: tuple[Broken, ...] = ()

    @property
    def unrepaired(self) -> tuple[Broken, ...]:
        """The drifted snapshots still stored as they were."""
        return tuple(d for d in self.drifted if d.game_id not in self.repaired)

    @property
    def failed(self) -> bool:
        return bool(self.broken or self.unrepaired)


def report_of(checks: Sequence[GameCheck]) -> CheckReport:
    return CheckReport(
        len(checks),
        tuple(Broken(c.game_id, c.broken) for c in checks if c.broken is not None),
        tuple(Broken(c.game_id, c.drifted) for c in checks if c.drifted is not None),
        tuple(c.game_id for c in checks if c.repaired),
        tuple(Broken(c.game_id, c.not_repaired) for c in checks if c.not_repaired is not None),
    )


async def check_games(
    store: Store,
    rules: GameRules[Any, Any] | AnyShelf,
    game_ids: Sequence[int] | None = None,
    *,
    repair: bool = False,
) -> CheckReport:
    """Check each game (all dealt games by default), reading through the store's read
    path; with `repair`, rewrite each snapshot that disagrees with its log."""
    ids = await store.game_ids() if game_ids is None else list(game_ids)
    return report_of([await check_game(store, rules, i, repair=repair) for i in ids])


async def check_database(
    path: Path, out: TextIO, *, sample: int | None = None, rng: random.Random | None = None
) -> int:
    """`python -m bot check`: one line per broken or repaired game, then a summary; 1 if
    any is broken, or has a drifted snapshot that could not be repaired (or the
    database cannot be opened), else 0. Reads on a read-only connection; a writable
    store is opened only to repair the drifted snapshots found."""
    rules = TABLE_GAMES
    try:
        async with SqliteStore(path, read_only=True) as store:
            stored = await store.game_ids()
            ids = stored
            if sample is not None:
                ids = sorted((rng or random.Random()).sample(stored, min(sample, len(stored))))
            checks = [await check_game(store, rules, i) for i in ids]
    except StoreError as exc:
        print(f"check: {exc}", file=out)
        return 1
    checks = await repair_drifted(path, rules, checks)
    report = report_of(checks)
    lines = {c.game_id: line_of(c) for c in checks}
    for game_id in sorted(lines):
        if lines[game_id]:
            print(lines[game_id], file=out)
    counted = f"{report.checked} games checked"
    if sample is not None:
        counted += f" (chosen at random of {len(stored)})"
    parts = [f"{len(report.broken)} broken"]
    if report.repaired:
        parts.append(f"{len(report.repaired)} with a snapshot rebuilt from the log")
    if report.unrepaired:
        parts.append(f"{len(report.unrepaired)} with a snapshot that disagrees with the log")
    print(f"{counted}: {', '.join(parts)}.", file=out)
    return 1 if report.failed else 0


async def repair_drifted(
    path: Path, rules: GameRules[Any, Any] | AnyShelf, checks: list[GameCheck]
) -> list[GameCheck]:
    """Check again, with repair, each game whose snapshot disagreed with its log, in a
    writable store opened for that alone (when it cannot be: each says why)."""
    drifted = [c.game_id for c in checks if c.drifted is not None and c.broken is None]
    if not drifted:
        return checks
    again: dict[int, GameCheck] = {}
    try:
        async with SqliteStore(path) as store:
            for game_id in drifted:
                again[game_id] = await check_game(store, rules, game_id, repair=True)
    except StoreError as exc:
        why = (
            f"the database cannot be written ({exc}); run the check again where it can"
            " be (the bot's own user, the bot running or not): it rewrites the snapshot"
            " from the log"
        )
        for c in checks:
            if c.game_id in drifted and c.game_id not in again:
                again[c.game_id] = GameCheck(c.game_id, drifted=c.drifted, not_repaired=why)
    return [again.get(c.game_id, c) for c in checks]


def line_of(check: GameCheck) -> str | None:
    """The check's line for one game (None: nothing to say)."""
    if check.broken is not None:
        return f"game {check.game_id}: BROKEN: {check.broken}"
    if check.repaired:
        return f"game {check.game_id}: REPAIRED: {check.drifted}; rewritten from the log"
    if check.drifted is not None:
        why = check.not_repaired or "not repaired"
        return f"game {check.game_id}: NOT REPAIRED: {check.drifted}; {why}"
    return None


async def backup_database(path: Path, target: Path) -> None:
    """`python -m bot backup PATH`: a consistent copy of the database in a new file; a
    `StoreError` of one sentence when the target will not do or the copy fails."""
    problem = backup_target_problem(target)
    if problem is not None:
        raise StoreError(problem)
    async with SqliteStore(path, read_only=True) as store:
        try:
            await store.backup(target)
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"the copy to {target} failed ({exc}).") from exc


def backup_target_problem(target: Path) -> str | None:
    """Why a backup cannot be written to `target` (None: it may be tried): it exists,
    its folder does not, or the path cannot hold a database."""
    if target.exists() or target.is_symlink():
        return f"{target} already exists; choose a new file for the backup."
    folder = target.parent
    if not folder.exists():
        return (
            f"The folder {folder} does not exist; create it or choose another place for the backup."
        )
    problem = database_path_problem(target)
    if problem is not None:
        return f"{target} cannot hold the backup: {problem}."
    return None


def backup_file(folder: Path, now: datetime) -> Path:
    return folder / f"{BACKUP_PREFIX}{now.astimezone(UTC):%Y%m%d-%H%M%S}{BACKUP_SUFFIX}"


def backups_in(folder: Path) -> list[Path]:
    """The scheduled backups in a folder, oldest first (their names sort by time)."""
    if not folder.is_dir():
        return []
    return sorted(folder.glob(f"{BACKUP_PREFIX}*{BACKUP_SUFFIX}"))


async def backup_if_due(
    store: Store, folder: Path, *, every: timedelta, keep: int, now: datetime
) -> Path | None:
    """A scheduled backup, if the newest in `folder` is older than `every` (by its
    file's time); then only the newest `keep` are kept. Returns the new file."""
    existing = backups_in(folder)
    if existing:
        newest = datetime.fromtimestamp(existing[-1].stat().st_mtime, UTC)
        if now - newest < every:
            return None
    folder.mkdir(parents=True, exist_ok=True)
    target = backup_file(folder, now)
    if target.exists():
        return None
    await store.backup(target)
    for old in backups_in(folder)[: -max(keep, 1)]:
        old.unlink(missing_ok=True)
    log.info("backed up the database to %s", target)
    return target


async def check_sample(
    store: Store,
    rules: GameRules[Any, Any] | AnyShelf,
    *,
    size: int = SAMPLE_SIZE,
    rng: random.Random | None = None,
) -> CheckReport:
    """Check a random sample of the stored games, log each broken one and repair each
    snapshot that disagrees with its log (the bot does this in the background at
    start-up: the reads beside the writer, a repair one short write)."""
    ids = await store.game_ids()
    sample = (rng or random.Random()).sample(ids, min(size, len(ids)))
    report = await check_games(store, rules, sorted(sample), repair=True)
    for game in report.broken:
        log.error("game %s: the stored record is broken: %s", game.game_id, game.reason)
    for game in report.drifted:
        if game.game_id in report.repaired:
            log.warning("game %s: %s; rebuilt from the log", game.game_id, game.reason)
    for game in report.not_repaired:
        log.error("game %s: the snapshot disagrees with the log: %s", game.game_id, game.reason)
    log.info(
        "checked %d of %d games at start-up: %d broken, %d snapshots rebuilt",
        report.checked,
        len(ids),
        len(report.broken),
        len(report.repaired),
    )
    return report


class Parser(argparse.ArgumentParser):
    """argparse's parser, but bad arguments are one line (and exit status 2), like
    every other refusal of the host's tools."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def add_tools(commands: argparse._SubParsersAction[Parser]) -> None:
    """The subcommands check, backup and migrate, with their options."""
    check = commands.add_parser(
        "check",
        help="replay every stored game (or N chosen at random), report the broken ones,"
        " repair snapshots that disagree with their log",
        description="Replay every stored game (or a random sample) through a read-only"
        " connection, beside the running bot; report each broken one, and rewrite each"
        " snapshot that disagrees with its log from the log. Exit status 1 if any game is"
        " broken or a snapshot could not be repaired. Reads DATABASE_PATH.",
    )
    check.add_argument(
        "--sample",
        metavar="N",
        type=positive,
        help="check N games chosen at random instead of all of them",
    )
    backup = commands.add_parser(
        "backup",
        help="copy the database to PATH (a new file), even while the bot runs",
        description="Copy the SQLite database DATABASE_PATH to a new file with SQLite's"
        " online backup: a consistent copy, even while the bot goes on writing.",
    )
    backup.add_argument("path", metavar="PATH", type=Path, help="the new file to write")
    migrate = commands.add_parser(
        "migrate",
        help="copy every game from the SQLite file into PostgreSQL and check each there",
        description="Copy every game from the SQLite file into PostgreSQL and check each"
        " one there by replaying its log. The SQLite file is only read (bot/moving.py).",
    )
    moving.add_arguments(migrate)


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise ValueError(text)
    return value


def command(args: Sequence[str], out: TextIO | None = None) -> int:
    """One of the tools with its arguments (`["check", "--sample", "5"]`), as
    `python -m bot` runs it: the exit status."""
    parser = Parser(prog="python -m bot")
    add_tools(parser.add_subparsers(dest="command", metavar="COMMAND", required=True))
    try:
        options = parser.parse_args(list(args))
    except SystemExit as exc:  # argparse printed the help, or why the arguments are bad
        return exc.code if isinstance(exc.code, int) else 2
    return run_tool(options, out)


def run_tool(options: argparse.Namespace, out: TextIO | None = None) -> int:
    """`python -m bot check | backup | migrate`, its options parsed: the exit status
    (reports go to `out`, by default stdout). Whatever fails, a bad path or a database
    that cannot be read, is one line, never a traceback."""
    out = out or sys.stdout
    name: str = options.command
    # the tools print their own sentences; the rebuild's log lines would repeat them
    logging.getLogger().addHandler(logging.NullHandler())
    try:
        if name == "migrate":
            return moving.run(options, out)
        return run_on_sqlite(name, options, out)
    except (StoreError, OSError, sqlite3.Error) as exc:
        print(f"{name}: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # a last resort: still one line for the host
        print(f"{name}: failed ({type(exc).__name__}: {exc}).", file=sys.stderr)
        return 1


def run_on_sqlite(name: str, options: argparse.Namespace, out: TextIO) -> int:
    """check or backup, on the SQLite file DATABASE_PATH."""
    settings = settings_for(name)
    if settings is None:
        return 2
    if settings.database_url is not None:
        # never check or copy the SQLite file while the games live elsewhere
        print(
            f"{name}: DATABASE_URL is set: this tool reads the SQLite file DATABASE_PATH only"
            " (back up PostgreSQL with pg_dump, or with BACKUP_DIR's scheduled copies).",
            file=sys.stderr,
        )
        return 2
    path = settings.database_path
    if name == "check":
        return asyncio.run(check_database(path, out, sample=options.sample))
    target: Path = options.path
    asyncio.run(backup_database(path, target))
    print(f"Backed up {path} to {target}.", file=out)
    return 0
