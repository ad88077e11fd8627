"""Settings from the environment or a `.env` file (documented in `.env.example`)."""

from __future__ import annotations

from pathlib import Path

from pydantic import SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Everything the bot reads at start-up. The token is a `SecretStr`: it never shows
    in a repr, a log line or an error message."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = None
    database_path: Path = Path("data/mountain-king.sqlite3")
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    reminder_hours: float = 12.0
    # after this many unanswered reminders the table may vote to skip or use autopilot
    inactivity_reminders: int = 3
    # point the bot at a Discord-compatible server other than discord.com
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None
