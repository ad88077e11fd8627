"""`python -m bot`: start the Discord bot with settings from the environment or `.env`.

Without a token it says how to get one and exits with status 2.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from datetime import timedelta

import discord
import yarl

from bot.app import create_bot, log_invite
from bot.service import GameService, MountainKingRules
from bot.settings import Settings
from bot.store.sqlite import SqliteStore
from rules.actions import Action
from rules.state import State

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


def point_at(api_base: str | None, gateway_url: str | None) -> None:
    """Talk to a Discord-compatible server other than discord.com (tests do too)."""
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


async def run(settings: Settings, token: str) -> None:
    settings.database_path.parent.mkdir(parents=True, exist_ok=True)
    store = SqliteStore(settings.database_path)
    await store.open()
    service: GameService[State, Action] = GameService(
        store,
        MountainKingRules(),
        reminder_interval=timedelta(hours=settings.reminder_hours),
        vote_after_reminders=settings.inactivity_reminders,
    )
    bot = create_bot(service, settings)
    try:
        async with bot:
            # `start` is login then connect: in between, the invite URL is known
            await bot.login(token)
            log_invite(bot)
            await bot.connect()
    finally:
        await store.close()


def main() -> int:
    settings = Settings()
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    token = settings.discord_token.get_secret_value() if settings.discord_token else ""
    handler.addFilter(RedactToken(token))
    logging.basicConfig(level=settings.log_level.upper(), handlers=[handler])
    if not token:
        print(TOKEN_HELP, file=sys.stderr)
        return 2
    point_at(settings.discord_api_base, settings.discord_gateway_url)
    try:
        asyncio.run(run(settings, token))
    except discord.LoginFailure:
        logging.getLogger("bot").error("Discord refused the token: check DISCORD_TOKEN.")
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
