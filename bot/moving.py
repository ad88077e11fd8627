"""`python -m bot migrate`: move every game from the SQLite file to PostgreSQL, then
check each one there.

    python -m bot migrate --to postgresql://bot@localhost/mountain_king
    python -m bot migrate                  # to DATABASE_URL (keeps the password off
                                           # the command line)

Reads the SQLite file `DATABASE_PATH` (or `--from PATH`) and never writes to it: the
copy is taken from a private snapshot of it (bot/store/transfer.py). Every table moves
(but the scheduler's duty leases), in one transaction. Then every game is checked in
PostgreSQL: its log, seats and snapshot must equal the SQLite file's, and its whole log
must replay (chain values checked) to the state its latest snapshot holds, by the
check `python -m bot check` makes (`check_game` in bot/service/loading.py): a snapshot
that disagrees with a sound log is rewritten from the log in PostgreSQL. One line per
problem, then a summary; exit status 1 if any game is broken or differs (or a
snapshot could not be rewritten), 0 when every game is as it was.

A target that already holds rows is refused untouched, unless `--replace` asks to
delete what it holds first (a second try after a failed or outdated move).
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import tempfile
import time
from dataclasses import astuple, dataclass, field
from pathlib import Path
from typing import Any, TextIO

import asyncpg

from bot.service import GameRules
from bot.service.games import TABLE_GAMES
from bot.service.loading import GameCheck, check_game
from bot.service.shelf import AnyShelf
from bot.settings import settings_for
from bot.store import LATEST_VERSION, SnapshotRecord, SqliteStore, Store, StoreError
from bot.store.postgres import PostgresStore, redact
from bot.store.transfer import copy_into, row_counts, snapshot_copy


@dataclass
class MoveReport:
    """What the move found: one sentence per problem, and the counts of the summary."""

    games: int = 0
    entries: int = 0
    problems: list[str] = field(default_factory=list)
    # games that do not replay (in PostgreSQL; `inherited`: in the SQLite file too)
    broken: int = 0
    inherited: int = 0
    differing: int = 0
    # snapshots that disagreed with a sound log, rewritten from it in PostgreSQL
    repaired: int = 0
    not_repaired: int = 0
    mismatched_tables: int = 0

    @property
    def failed(self) -> bool:
        return bool(self.broken or self.differing or self.not_repaired or self.mismatched_tables)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """`python -m bot migrate`'s options, on its parser (bot/__main__.py)."""
    p.add_argument(
        "--to",
        metavar="URL",
        help="the PostgreSQL database (postgresql://user:password@host/database);"
        " default: DATABASE_URL",
    )
    p.add_argument(
        "--from",
        dest="source",
        metavar="PATH",
        type=Path,
        help="the SQLite file; default: DATABASE_PATH",
    )
    p.add_argument(
        "--replace",
        action="store_true",
        help="delete everything the PostgreSQL database holds before copying"
        " (without it, a database that holds anything is refused untouched)",
    )


async def migrate_database(
    source: Path,
    url: str,
    out: TextIO,
    *,
    replace: bool = False,
    rules: GameRules[Any, Any] | AnyShelf = TABLE_GAMES,
) -> int:
    """Copy, then check; prints the report to `out`. The exit status: 0 when every game
    is in PostgreSQL as it was in the SQLite file and replays, else 1."""
    where = redact(url)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="mk-migrate-") as folder:
        copy = Path(folder) / "source.sqlite3"
        try:
            await snapshot_copy(source, copy)
            found = _user_version(copy)
            if found > LATEST_VERSION:
                print(
                    f"migrate: {source} has schema version {found}, but this bot knows"
                    f" versions up to {LATEST_VERSION}: upgrade the bot first. Nothing was"
                    " copied.",
                    file=out,
                )
                return 1
            # the private copy is brought up to the latest schema, like the target
            async with SqliteStore(copy) as before, PostgresStore(url) as target:
                try:
                    copied, notes = await copy_into(copy, target, replace=replace)
                except (asyncpg.PostgresError, OSError) as exc:
                    raise StoreError(
                        f"The copy into {where} failed ({exc}); nothing was copied."
                    ) from exc
                seconds = time.perf_counter() - started
                report = MoveReport(problems=list(notes))
                try:
                    await compare_tables(copy, target, copied, report)
                    await check_copies(before, target, rules, report)
                except (asyncpg.PostgresError, OSError) as exc:
                    raise StoreError(
                        f"The check of the copy failed ({exc}). The copy stays in {where}:"
                        " run the migration again with --replace to copy and check anew."
                    ) from exc
        except StoreError as exc:
            print(f"migrate: {exc}", file=out)
            return 1
    for line in report.problems:
        print(line, file=out)
    rows = sum(copied.values())
    print(
        f"Copied {source} to {where}: {report.games} games, {report.entries} log entries,"
        f" {rows} rows in {len(copied)} tables ({seconds:.1f} s).",
        file=out,
    )
    print(summary(report), file=out)
    if not report.failed:
        print(
            f"Next: set DATABASE_URL to {where} (with its password) and start the bot;"
            f" keep {source} as a backup.",
            file=out,
        )
    return 1 if report.failed else 0


def summary(report: MoveReport) -> str:
    parts = [f"{report.games - report.broken - report.differing} as they were"]
    if report.differing:
        parts.append(f"{report.differing} differing from the SQLite file")
    if report.broken:
        already = f", {report.inherited} of them already in the SQLite file"
        parts.append(f"{report.broken} broken{already if report.inherited else ''}")
    if report.repaired:
        parts.append(f"{report.repaired} with a snapshot rebuilt from the log")
    if report.not_repaired:
        parts.append(f"{report.not_repaired} with a snapshot that disagrees with the log")
    if report.mismatched_tables:
        parts.append(f"{report.mismatched_tables} tables with a different number of rows")
    return f"Checked {report.games} games in PostgreSQL by replaying each log: {', '.join(parts)}."


async def compare_tables(
    copy: Path, target: PostgresStore, copied: dict[str, int], report: MoveReport
) -> None:
    """Every table must hold as many rows in PostgreSQL as in the SQLite file."""
    db = sqlite3.connect(copy)
    try:
        expected = {t: int(db.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0]) for t in copied}
    finally:
        db.close()
    async with target.transaction() as conn:
        found = await row_counts(conn, list(copied))
    for table, rows in expected.items():
        if found[table] != rows:
            report.mismatched_tables += 1
            report.problems.append(
                f"table {table}: {rows} rows in the SQLite file, {found[table]} in PostgreSQL"
            )


async def check_copies(
    before: Store, after: Store, rules: GameRules[Any, Any] | AnyShelf, report: MoveReport
) -> None:
    """Each game (open ones too) as stored on both sides, then checked in PostgreSQL
    (replayed, a drifted snapshot rewritten from the log there)."""
    for game_id in await before.game_ids(started=False):
        report.games += 1
        log = await after.actions(game_id)
        report.entries += len(log)
        difference = await _difference(before, after, game_id)
        if difference is not None:
            report.differing += 1
            report.problems.append(
                f"game {game_id}: the copy differs from the SQLite file: {difference}"
            )
            continue
        checked = await check_game(after, rules, game_id, repair=True)
        if checked.broken is None:
            _note_snapshot(checked, report)
            continue
        problem = checked.broken
        report.broken += 1
        if (await check_game(before, rules, game_id)).broken == problem:
            report.inherited += 1
            problem += " (so it is in the SQLite file: copied as it was)"
        report.problems.append(f"game {game_id}: BROKEN: {problem}")


def _note_snapshot(checked: GameCheck, report: MoveReport) -> None:
    """A snapshot that disagreed with a sound log: rewritten in PostgreSQL, or not."""
    if checked.drifted is None:
        return
    if checked.repaired:
        report.repaired += 1
        report.problems.append(
            f"game {checked.game_id}: REPAIRED: {checked.drifted}; rewritten from the log"
            " in PostgreSQL"
        )
    else:
        report.not_repaired += 1
        report.problems.append(
            f"game {checked.game_id}: NOT REPAIRED: {checked.drifted}; {checked.not_repaired}"
        )


async def _difference(before: Store, after: Store, game_id: int) -> str | None:
    """What of the game differs between the two stores (None: nothing)."""
    old, new = await before.load_game(game_id), await after.load_game(game_id)
    if new is None or old is None:
        return "missing in PostgreSQL"
    if old.game != new.game:
        return "its game row"
    if old.seats != new.seats:
        return "its seats"
    # with their chain values and digests, which the records' equality leaves out
    if _fields(old.snapshot) != _fields(new.snapshot):
        return "its snapshot"
    old_log, new_log = await before.actions(game_id), await after.actions(game_id)
    if [astuple(a) for a in old_log] != [astuple(a) for a in new_log]:
        return f"its log ({len(old_log)} entries in the SQLite file, {len(new_log)} copied)"
    if (old.last_seq, old.entries, old.log_chain) != (new.last_seq, new.entries, new.log_chain):
        return "its log's length or chain"
    return None


def _fields(snapshot: SnapshotRecord | None) -> tuple[object, ...] | None:
    return None if snapshot is None else astuple(snapshot)


def _user_version(path: Path) -> int:
    db = sqlite3.connect(path)
    try:
        return int(db.execute("PRAGMA user_version").fetchone()[0])
    finally:
        db.close()


def run(options: argparse.Namespace, out: TextIO) -> int:
    """`python -m bot migrate ...`, its options parsed: the exit status (2: bad
    settings, or no PostgreSQL database named)."""
    settings = settings_for("migrate")
    if settings is None:
        return 2
    url = options.to
    if url is None and settings.database_url is not None:
        url = settings.database_url.get_secret_value()
    if not url:
        print("migrate: name the PostgreSQL database with --to or DATABASE_URL"
              " (python -m bot migrate --help).", file=sys.stderr)  # fmt: skip
        return 2
    if url.partition("://")[0].lower() not in ("postgresql", "postgres"):
        print("migrate: --to must be a PostgreSQL URL: postgresql://user@host/database",
              file=sys.stderr)  # fmt: skip
        return 2
    source = options.source or settings.database_path
    return asyncio.run(migrate_database(source, url, out, replace=options.replace))
