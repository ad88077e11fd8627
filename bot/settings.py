"""Settings from the environment or a `.env` file (documented in `.env.example`).

Each setting is checked as it is read: a bad one is refused with a sentence that names
it (`problems` turns pydantic's error into one line per setting), never a traceback.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field, SecretStr, ValidationError, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict, SettingsError

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
# kernel file systems: nothing there can hold a database
VIRTUAL_FOLDERS = (Path("/proc"), Path("/sys"))
# a setting's value in an error line is cut to this many characters
SHOWN = 60
# far beyond any bot's shard count (Discord asks for one shard per 1,000 servers or so)
MAX_SHARDS = 100_000


class BadSettingsError(Exception):
    """Settings the bot cannot start with: its text is one line per bad setting."""


def read_settings() -> Settings:
    """The settings from the environment and `.env`, or `BadSettingsError` naming each
    bad one (no traceback, no secret's value)."""
    try:
        return Settings()
    except ValidationError as error:
        raise BadSettingsError("\n".join(problems(error))) from None
    except UnicodeDecodeError:
        raise BadSettingsError("The .env file is not UTF-8 text.") from None
    except (SettingsError, OSError) as error:
        raise BadSettingsError(f"The settings could not be read: {error}") from None


def settings_for(tool: str) -> Settings | None:
    """The settings for a command-line tool, or None after printing each bad one as a
    line of its own to stderr, prefixed with the tool's name (no traceback)."""
    try:
        return read_settings()
    except BadSettingsError as exc:
        for line in str(exc).splitlines():
            print(f"{tool}: {line}", file=sys.stderr)
        return None


def database_path_problem(path: Path) -> str | None:
    """Why `path` cannot be a database file, or None: a folder, a place in a kernel file
    system, or a path through a file. (The store refuses the rest when it opens: an
    empty file, a read-only file or folder.)"""
    try:
        resolved = path.resolve()
        for folder in VIRTUAL_FOLDERS:
            if resolved.is_relative_to(folder):
                return f"it is under {folder}, a kernel file system that cannot hold a database"
        if path.is_dir():
            return "it is a folder, not a file"
        for parent in path.parents:
            if parent.exists():
                if not parent.is_dir():
                    return f"it goes through {parent}, which is a file, not a folder"
                break
    except OSError as error:
        return f"it cannot be looked at ({error.strerror or error})"
    return None


def problems(error: ValidationError) -> list[str]:
    """One line per bad setting, naming its environment variable and what is wrong
    (never a secret's value)."""
    lines: dict[str, str] = {}
    for item in error.errors(include_url=False):
        field = str(item["loc"][0]) if item["loc"] else ""
        name = field.upper() or "a setting"
        if name in lines:
            continue
        message = str(item["msg"]).removeprefix("Value error, ")
        message = message[:1].lower() + message[1:]
        shown = _shown(field, item.get("input"))
        lines[name] = f"{name}{shown}: {message}."
    return list(lines.values())


def _shown(field: str, value: Any) -> str:
    """` is '<value>'` for an error line, or nothing for a secret or a missing value."""
    field_info = Settings.model_fields.get(field)
    secret = field_info is not None and "Secret" in str(field_info.annotation)
    if secret or value is None or isinstance(value, dict):
        return ""
    text = repr(str(value))
    return f" is {text[:SHOWN] + '…' if len(text) > SHOWN else text}"


class Settings(BaseSettings):
    """Everything the bot reads at start-up. The token is a `SecretStr`: it never shows
    in a repr, a log line or an error message."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = None
    database_path: Path = Path("data/mountain-king.sqlite3")
    # postgresql://user:password@host/database: games in PostgreSQL instead of the SQLite
    # file, so several bot processes can share them (a secret: it may hold a password)
    database_url: SecretStr | None = None
    dev_guild_id: int | None = Field(default=None, gt=0)
    log_level: str = "INFO"
    # at most a year between reminders
    reminder_hours: float = Field(default=12.0, gt=0, le=24 * 366, allow_inf_nan=False)
    # after this many unanswered reminders the table may vote to skip or use autopilot
    inactivity_reminders: int = Field(default=3, ge=1, le=1000)
    # point the bot at a Discord-compatible server other than discord.com
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None
    # Discord unreachable at start-up: wait this long before trying again, twice as
    # long after each failure, never longer than the maximum
    discord_retry_seconds: float = Field(default=5.0, gt=0, le=3600, allow_inf_nan=False)
    discord_retry_max_seconds: float = Field(default=300.0, gt=0, le=86400, allow_inf_nan=False)
    # Discord's sharding, for a bot in many servers: how many shards the bot has in all,
    # and which of them this process runs (unset: all of them); several processes, each
    # with its own SHARD_IDS, then share one PostgreSQL database (DATABASE_URL)
    shard_count: int | None = Field(default=None, ge=1, le=MAX_SHARDS)
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = None

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in LOG_LEVELS:
            raise ValueError(f"it must be one of {', '.join(LOG_LEVELS)}")
        return level

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _shard_list(cls, value: Any) -> Any:
        """The shards this process runs, from a comma list such as "0,1"."""
        if not isinstance(value, str):
            return value
        if not value.strip():
            return None
        ids = []
        for part in value.split(","):
            part = part.strip()
            if not part.isdigit():
                raise ValueError(
                    f"{part!r} is not a shard number: give a comma list of numbers, e.g. 0,1"
                )
            ids.append(int(part))
        return tuple(ids)

    @field_validator("shard_ids")
    @classmethod
    def _shards_of_count(
        cls, value: tuple[int, ...] | None, info: ValidationInfo
    ) -> tuple[int, ...] | None:
        if value is None:
            return None
        count = info.data.get("shard_count")
        if count is None:
            if "shard_count" not in info.data:
                return value  # SHARD_COUNT itself is bad: its own line says so
            raise ValueError("it needs SHARD_COUNT, the number of shards the bot has in all")
        if not value:
            raise ValueError("name at least one shard")
        if len(set(value)) != len(value):
            raise ValueError("a shard is named twice")
        outside = [i for i in value if i >= count]
        if outside:
            raise ValueError(
                f"shards are numbered 0 to {count - 1} (SHARD_COUNT is {count}), not"
                f" {', '.join(map(str, outside))}"
            )
        return value

    @field_validator("database_url")
    @classmethod
    def _postgres_url(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None or not value.get_secret_value().strip():
            return None
        scheme = value.get_secret_value().strip().partition("://")[0].lower()
        if scheme not in ("postgresql", "postgres"):
            raise ValueError("it must be a PostgreSQL URL: postgresql://user@host/database")
        return SecretStr(value.get_secret_value().strip())

    @field_validator("database_path")
    @classmethod
    def _usable_path(cls, value: Path) -> Path:
        problem = database_path_problem(value)
        if problem:
            raise ValueError(problem)
        return value

    # scheduled backups (unset: none): a copy every BACKUP_HOURS in BACKUP_DIR, keeping
    # the newest BACKUP_KEEP (see README, "Backups and checks")
    backup_dir: Path | None = None
    backup_hours: float = 24.0
    backup_keep: int = 7
