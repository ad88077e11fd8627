"""The host's tools for the database: check every game, back it up, and the bot's own
scheduled backups and start-up sample check.

    python -m bot check          # replay every stored game; exit 1 if any is broken
    python -m bot backup PATH    # a consistent copy, even while the bot runs
    python -m bot migrate --to postgresql://...   # move every game to PostgreSQL

Both read `DATABASE_PATH` like the bot (environment or `.env`). Neither writes to the
database: `check` opens it read-only, and `backup` uses SQLite's online backup, which
copies a consistent state while the bot goes on writing.
"""

from __future__ import annotations

import asyncio
import logging
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TextIO

from bot import moving
from bot.service import MOUNTAIN_KING, CorruptGameError, GameRules, ServiceError
from bot.service.loading import verify
from bot.settings import settings_for
from bot.store import SqliteStore, Store, StoreError
from rules.actions import Action
from rules.state import State

log = logging.getLogger("bot.maintenance")

USAGE = """\
usage: python -m bot                 run the bot
       python -m bot --health        check the settings and the database (for monitoring)
       python -m bot check           replay every stored game, report broken ones
       python -m bot backup PATH     copy the database to PATH (a new file)
       python -m bot migrate --to postgresql://...
                                     copy every game from the SQLite file into
                                     PostgreSQL and check each there (bot/moving.py)
"""

BACKUP_PREFIX = "mountain-king-"
BACKUP_SUFFIX = ".sqlite3"
# games checked at start-up, in the background
SAMPLE_SIZE = 20


@dataclass(frozen=True, slots=True)
class Broken:
    """A game that does not replay, and why."""

    game_id: int
    reason: str


@dataclass(frozen=True, slots=True)
class CheckReport:
    checked: int
    broken: tuple[Broken, ...]
    # snapshots that disagree with their log: not broken (the next load rebuilds them)
    drifted: tuple[Broken, ...]


async def check_games(
    store: Store, rules: GameRules[State, Action], game_ids: Sequence[int] | None = None
) -> CheckReport:
    """Replay each game's whole log (all dealt games by default), writing nothing."""
    ids = await store.game_ids() if game_ids is None else list(game_ids)
    broken: list[Broken] = []
    drifted: list[Broken] = []
    for game_id in ids:
        try:
            checked = await verify(store, rules, game_id)
        except CorruptGameError as exc:
            broken.append(Broken(game_id, exc.detail))
            continue
        except ServiceError as exc:
            broken.append(Broken(game_id, exc.message))
            continue
        if checked.snapshot_problem is not None:
            drifted.append(Broken(game_id, f"the snapshot: {checked.snapshot_problem}"))
    return CheckReport(len(ids), tuple(broken), tuple(drifted))


async def check_database(path: Path, out: TextIO) -> int:
    """`python -m bot check`: one line per broken game, then a summary; 1 if any is
    broken (or the database cannot be opened), else 0."""
    try:
        async with SqliteStore(path, read_only=True) as store:
            report = await check_games(store, MOUNTAIN_KING)
    except StoreError as exc:
        print(f"check: {exc}", file=out)
        return 1
    for game in report.broken:
        print(f"game {game.game_id}: BROKEN: {game.reason}", file=out)
    for game in report.drifted:
        print(f"game {game.game_id}: repairable: {game.reason}", file=out)
    print(
        f"{report.checked} games checked: {len(report.broken)} broken,"
        f" {len(report.drifted)} with a snapshot the bot will rebuild from the log.",
        file=out,
    )
    return 1 if report.broken else 0


async def backup_database(path: Path, target: Path) -> None:
    """`python -m bot backup PATH`: a consistent copy of the database in a new file."""
    async with SqliteStore(path, read_only=True) as store:
        await store.backup(target)


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
    rules: GameRules[State, Action],
    *,
    size: int = SAMPLE_SIZE,
    rng: random.Random | None = None,
) -> CheckReport:
    """Check a random sample of the stored games and log each broken one (the bot
    does this in the background at start-up)."""
    ids = await store.game_ids()
    sample = (rng or random.Random()).sample(ids, min(size, len(ids)))
    report = await check_games(store, rules, sorted(sample))
    for game in report.broken:
        log.error("game %s: the stored record is broken: %s", game.game_id, game.reason)
    for game in report.drifted:
        log.warning("game %s: %s (the next load rebuilds it)", game.game_id, game.reason)
    log.info(
        "checked %d of %d games at start-up: %d broken",
        report.checked,
        len(ids),
        len(report.broken),
    )
    return report


def command(args: Sequence[str], out: TextIO = sys.stdout) -> int:
    """`python -m bot <command>`: the exit status."""
    name, rest = args[0], list(args[1:])
    if name in ("-h", "--help", "help"):
        print(USAGE, file=out)
        return 0
    # the tools print their own sentences; the rebuild's log lines would repeat them
    logging.getLogger().addHandler(logging.NullHandler())
    if name == "migrate":
        return moving.command(rest, out)
    if not (name == "check" and not rest) and not (name == "backup" and len(rest) == 1):
        print(USAGE, file=sys.stderr)
        return 2
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
        return asyncio.run(check_database(path, out))
    target = Path(rest[0])
    try:
        asyncio.run(backup_database(path, target))
    except (StoreError, OSError) as exc:
        print(f"backup: {exc}", file=sys.stderr)
        return 1
    print(f"Backed up {path} to {target}.", file=out)
    return 0
