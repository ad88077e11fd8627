"""`python -m bot`: the bot and the host's tools, one command line.

    python -m bot [run]                 # start the bot (the default)
    python -m bot check [--sample N]    # replay every stored game, repair snapshots
    python -m bot backup PATH           # copy the database to a new file
    python -m bot migrate [--to URL]    # move every game to PostgreSQL
    python -m bot health                # ok or not ok, for a monitor (also --health)

`--help` at each level says more. Each reads its settings from the environment or
`.env`. `run`: without a token it says how to get one and exits with status 2; a bad
setting, a database it cannot use or a token Discord refuses is one line and a
non-zero exit, never a traceback. While Discord cannot be reached it tries again,
waiting longer each time, and says so. Once connected it logs a ready line: how many
servers and games this process serves. `health` (bot/health.py) answers ok or not ok;
`check`, `backup` and `migrate` are the host's tools (bot/maintenance.py,
bot/moving.py), their refusals one line too. The console script `mountain-king-bot`
(installed by `pip install .`) is this same entry point.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sqlite3
import sys
from collections.abc import Iterator, Sequence
from contextlib import suppress
from datetime import timedelta
from pathlib import Path
from typing import Any

import aiohttp
import discord
import yarl

from bot import health, maintenance
from bot.app import create_bot, log_invite
from bot.service import GameService
from bot.service.games import TABLE_GAMES
from bot.settings import BadSettingsError, Settings, read_settings
from bot.store.base import Store
from bot.store.errors import StoreError
from bot.store.postgres import PostgresStore, redact
from bot.store.sqlite import SqliteStore

TOKEN_HELP = """\
No Discord token found.

1. Open https://discord.com/developers/applications, create an application,
   open its "Bot" page and press "Reset Token" to get the bot's token.
2. Put it in the environment (export DISCORD_TOKEN=...) or in a file named .env
   in the project folder: DISCORD_TOKEN=...   (see .env.example)
3. Run ./scripts/run-bot again: at start-up it logs the invite URL (scopes "bot" and
   "applications.commands", with the channel permissions it needs) for a server
   admin to open. README.md, "Hosting the bot", explains each permission.
"""
# warnings discord.py logs at every start that a host cannot act on: the bot has no voice
QUIET = ("PyNaCl is not installed", "davey is not installed")
# discord.py's message when the gateway connection failed and it will try again
RECONNECT = "Attempting a reconnect in %.2fs"
# seconds to wait for Discord's answer to one request at start-up
ANSWER_TIMEOUT = 30.0

log = logging.getLogger("bot")


class StartupError(Exception):
    """The bot cannot start: its text is one line for the host (no traceback)."""


class RedactToken(logging.Filter):
    """Belt and braces: the token never reaches a log line, whatever logs it."""

    def __init__(self, token: str) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if self.token and self.token in message:
            record.msg = message.replace(self.token, "[token]")
            record.args = ()
        return True


class QuietVoice(logging.Filter):
    """Drop discord.py's voice warnings: the bot never joins a voice channel."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.name == "discord.client" and str(record.msg).startswith(QUIET))


class OneLineReconnect(logging.Filter):
    """discord.py logs a lost or failed gateway connection with a traceback before it
    tries again; say it in one line instead, with the reason."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg == RECONNECT and record.exc_info and record.exc_info[1] is not None:
            reason = describe(record.exc_info[1])
            record.msg = "Discord unreachable (%s); retrying in %.1f s"
            record.args = (reason, *(record.args or ()))
            record.exc_info = None
            record.exc_text = None
        return True


def configure_logging(level: str, token: str) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(QuietVoice())
    handler.addFilter(OneLineReconnect())
    handler.addFilter(RedactToken(token))
    logging.basicConfig(level=level, handlers=[handler])


def point_at(api_base: str | None, gateway_url: str | None) -> None:
    """Talk to a Discord-compatible server other than discord.com (tests do too)."""
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def describe(error: BaseException) -> str:
    """A network failure in a few words, for one log line."""
    if isinstance(error, aiohttp.ClientConnectorError):
        os_error = error.os_error
        if isinstance(os_error, ConnectionRefusedError):
            reason = "connection refused"
        else:
            reason = os_error.strerror or str(os_error) or type(os_error).__name__
        return f"cannot connect to {error.host}:{error.port}: {reason}"
    if isinstance(error, TimeoutError):
        return "no answer in time"
    if isinstance(error, discord.HTTPException):
        return f"it answered {error.status} {error.response.reason or ''}".rstrip()
    return str(error) or type(error).__name__


def backoff(first: float, longest: float) -> Iterator[float]:
    """Seconds to wait before each new try: `first`, doubling, never over `longest`."""
    delay = min(first, longest)
    while True:
        yield delay
        delay = min(delay * 2, longest)


async def reach_discord(
    token: str, delays: Iterator[float], *, timeout: float = ANSWER_TIMEOUT
) -> None:
    """Ask Discord who the bot is (`GET /users/@me`) until it answers, logging one line
    per failed try: connection errors, 5xx and 429 are tried again after the next of
    `delays`. Raises `discord.LoginFailure` for a refused token and `StartupError` for
    any other refusal, or when `delays` run out. (discord.py's own login would retry a
    5xx silently, a few times, then fail.)"""
    url = f"{discord.http.Route.BASE}/users/@me"
    headers = {"Authorization": f"Bot {token}"}
    reason = "no try made"
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=timeout)) as session:
        while True:
            try:
                async with session.get(url, headers=headers) as response:
                    status, phrase = response.status, response.reason or ""
            except (aiohttp.ClientError, TimeoutError, OSError) as error:
                reason = describe(error)
            else:
                if status < 400:
                    return
                if status == 401:
                    raise discord.LoginFailure("Improper token has been passed.")
                reason = f"it answered {status} {phrase}".rstrip()
                if status < 500 and status != 429:
                    raise StartupError(f"Discord refused the login: {reason}.")
            delay = next(delays, None)
            if delay is None:
                raise StartupError(f"Discord unreachable ({reason}); giving up.")
            log.warning("Discord unreachable (%s); retrying in %s s", reason, f"{delay:g}")
            await asyncio.sleep(delay)


async def open_store(path: Path) -> SqliteStore:
    """The game store, open; `StartupError` names DATABASE_PATH when it cannot be."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StartupError(
            f"DATABASE_PATH is '{path}': its folder cannot be made ({error.strerror or error})."
        ) from None
    store = SqliteStore(path)
    try:
        await store.open()
    except (StoreError, sqlite3.Error, OSError) as error:
        with suppress(Exception):
            await store.close()
        if isinstance(error, StoreError):
            raise StartupError(f"DATABASE_PATH: {error}") from None
        raise StartupError(
            f"DATABASE_PATH is '{path}': it cannot be opened as a database ({error})."
        ) from None
    return store


async def open_postgres(url: str) -> PostgresStore:
    """The PostgreSQL store, open; `StartupError` names DATABASE_URL (without its
    password) when it cannot be."""
    store = PostgresStore(url)
    try:
        await store.open()
    except (StoreError, OSError) as error:
        with suppress(Exception):
            await store.close()
        raise StartupError(f"DATABASE_URL ({redact(url)}): {error}") from None
    return store


async def open_configured_store(settings: Settings) -> Store:
    """PostgreSQL when DATABASE_URL is set, else the SQLite file DATABASE_PATH."""
    if settings.database_url is not None:
        return await open_postgres(settings.database_url.get_secret_value())
    return await open_store(settings.database_path)


async def log_in(bot: discord.Client, token: str) -> None:
    """`bot.login`, its failures (other than a refused token) as `StartupError`."""
    try:
        await bot.login(token)
    except discord.LoginFailure:
        raise
    except (discord.HTTPException, aiohttp.ClientError, TimeoutError, OSError) as error:
        raise StartupError(f"Discord refused the login ({describe(error)}).") from None


def settle_memory() -> None:
    """Once start-up is done: what it made (the modules, the rules' content) lives as
    long as the process, so the cyclic garbage collector need not scan it again at each
    of its full collections (`gc.freeze`), which otherwise grow with it."""
    gc.collect()
    gc.freeze()


async def run(settings: Settings, token: str, *, delays: Iterator[float] | None = None) -> None:
    store = await open_configured_store(settings)
    try:
        service: GameService[Any, Any] = GameService(
            store,
            TABLE_GAMES,
            reminder_interval=timedelta(hours=settings.reminder_hours),
            vote_after_reminders=settings.inactivity_reminders,
        )
        bot = create_bot(service, settings)
        settle_memory()
        async with bot:
            if delays is None:
                delays = backoff(settings.discord_retry_seconds, settings.discord_retry_max_seconds)
            await reach_discord(token, delays)
            # `start` is login then connect: in between, the invite URL is known
            await log_in(bot, token)
            log_invite(bot)
            await bot.connect()
    finally:
        await store.close()


def start() -> int:
    """Start the bot; the process's exit status."""
    try:
        settings = read_settings()
    except BadSettingsError as error:
        print(error, file=sys.stderr)
        return 2
    token = settings.discord_token.get_secret_value() if settings.discord_token else ""
    configure_logging(settings.log_level, token)
    if not token:
        print(TOKEN_HELP, file=sys.stderr)
        return 2
    point_at(settings.discord_api_base, settings.discord_gateway_url)
    try:
        asyncio.run(run(settings, token))
    except discord.LoginFailure:
        log.error("Discord refused the token: check DISCORD_TOKEN.")
        return 1
    except StartupError as error:
        log.error("%s", error)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


def parser(prog: str = "python -m bot") -> maintenance.Parser:
    """The command line: a subcommand for each job, `run` when none is given."""
    p = maintenance.Parser(
        prog=prog,
        usage="%(prog)s [-h] [--health] [COMMAND [options]]",
        description="In the Hall of the Mountain King on Discord: the bot, and the host's"
        " tools for its database. Settings come from the environment or .env"
        ' (README.md, "Hosting the bot"). Without a command: run.',
    )
    p.add_argument(
        "--health", action="store_true", help="the same as the health command (for monitors)"
    )
    commands = p.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    commands.add_parser(
        "run",
        help="start the bot (the default)",
        description="Start the Discord bot: it logs the invite URL, then serves its servers"
        " until stopped. Without DISCORD_TOKEN it says how to get one (exit status 2).",
    )
    maintenance.add_tools(commands)
    commands.add_parser(
        "health",
        help="one line, ok or not ok, and exit status 0 or 1, for a monitor",
        description="Check the settings and open the database read-only, the way the bot"
        " would find it; print ok or not ok and why, in one line. Writes nothing and never"
        " connects to Discord. Exit status 0 for ok, 1 for not ok (bot/health.py).",
    )
    return p


def program() -> str:
    """The name the help shows: the console script's, or `python -m bot`."""
    name = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else ""
    return "python -m bot" if name in ("", "-c", "__main__.py") else name


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m bot` and the console script `mountain-king-bot` (arguments: `argv`,
    by default the process's); the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["help"]:  # `help` and `help check`, as the tools once took them
        args = [*args[1:], "--help"]
    p = parser(program() if argv is None else "python -m bot")
    try:
        options = p.parse_args(args)
        if options.health and options.command not in (None, "health"):
            p.error(f"--health is the health command: give either, not {options.command} too")
    except SystemExit as exc:  # argparse printed the help, or why the arguments are bad
        return exc.code if isinstance(exc.code, int) else 2
    command = options.command or ("health" if options.health else "run")
    if command == "health":  # one line and a status for monitoring
        return health.command(sys.stdout)
    if command in maintenance.TOOLS:
        return maintenance.run_tool(options)
    return start()


if __name__ == "__main__":
    sys.exit(main())
