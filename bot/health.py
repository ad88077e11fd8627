"""`mountain-king-bot health` (or `python -m bot health`, or `--health`): one line and
an exit status for a monitor (systemd's `ExecStartPre`, a container's health check, a
cron job).

It reads the settings as the bot does, checks that a Discord token is set (never
showing it) and opens the database read-only, the way the bot would find it: the
SQLite file `DATABASE_PATH` or the PostgreSQL database `DATABASE_URL` (shown without
its password), at the schema this bot knows. It writes nothing and never connects to
Discord.

    ok: DISCORD_TOKEN set; database data/mountain-king.sqlite3 (schema 5) holds 17
        games: 12 running, 3 waiting to start, 2 finished
    not ok: DATABASE_PATH: There is no database file data/mountain-king.sqlite3.

Exit status 0 for ok, 1 for not ok.
"""

from __future__ import annotations

import asyncio
from typing import TextIO

from bot.settings import BadSettingsError, Settings, read_settings
from bot.store import GameStatus, SqliteStore, Store, StoreError
from bot.store.postgres import PostgresStore, redact

# seconds the database has to answer before the check says it is not ok
TIMEOUT = 10.0
# how the summary names each status, in its order
STATUS_WORDS: dict[GameStatus, str] = {
    "active": "running",
    "open": "waiting to start",
    "over": "finished",
    "abandoned": "abandoned",
}


def command(out: TextIO) -> int:
    """Print the verdict; the exit status (0: ok)."""
    healthy, line = asyncio.run(check())
    print(f"{'ok' if healthy else 'not ok'}: {line}", file=out)
    return 0 if healthy else 1


async def check() -> tuple[bool, str]:
    """Whether the bot could start as configured, and one line saying why (not)."""
    try:
        settings = read_settings()
    except BadSettingsError as exc:
        return False, "; ".join(str(exc).splitlines())
    problems = []
    if settings.discord_token is None or not settings.discord_token.get_secret_value():
        problems.append("DISCORD_TOKEN is not set")
    healthy, database = await check_database(settings)
    if not healthy:
        problems.append(database)
    if problems:
        return False, "; ".join(problems)
    return True, f"DISCORD_TOKEN set; {database}"


async def check_database(settings: Settings) -> tuple[bool, str]:
    """Open the configured database read-only and count its games."""
    if settings.database_url is not None:
        url = settings.database_url.get_secret_value()
        store: Store = PostgresStore(url, pool_size=1, read_only=True)
        setting, where = "DATABASE_URL", redact(url)
    else:
        path = settings.database_path
        if not path.exists():
            return False, (
                f"DATABASE_PATH: there is no database file {path} (the bot makes it when it"
                " first starts)"
            )
        store = SqliteStore(path, read_only=True)
        setting, where = "DATABASE_PATH", str(path)
    try:
        async with asyncio.timeout(TIMEOUT):
            async with store:
                version = await store.schema_version()
                counts = await store.game_counts()
    except TimeoutError:
        return False, f"{setting}: the database {where} did not answer within {TIMEOUT:g} s"
    except (StoreError, OSError) as exc:
        return False, f"{setting}: {exc}"
    total = sum(counts.values())
    parts = [f"{counts[s]} {word}" for s, word in STATUS_WORDS.items() if counts.get(s)]
    held = f"{total} games" + (f": {', '.join(parts)}" if parts else "")
    return True, f"database {where} (schema {version}) holds {held}"
