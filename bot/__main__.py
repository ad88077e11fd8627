"""`python -m bot`: start the Discord bot.

The bot itself arrives with the Discord issue; for now this checks the settings it will
need and says what is missing, so the run command already installs and checks
everything.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

TOKEN_HELP = """\
No Discord token found.

1. Open https://discord.com/developers/applications, create an application,
   open its "Bot" page and press "Reset Token" to get the bot's token.
2. Put it in the environment (export DISCORD_TOKEN=...) or in a file named .env
   in the project folder: DISCORD_TOKEN=...   (see .env.example)
"""


def _token_from_env_file(path: Path) -> str | None:
    if not path.is_file():
        return None
    for line in path.read_text(encoding="utf-8").splitlines():
        key, sep, value = line.strip().partition("=")
        if sep and key.strip() == "DISCORD_TOKEN" and value.strip():
            return value.strip().strip("'\"")
    return None


def main() -> int:
    token = os.environ.get("DISCORD_TOKEN") or _token_from_env_file(Path(".env"))
    if not token:
        print(TOKEN_HELP, file=sys.stderr)
        return 2
    print(
        "The Discord bot is not built yet (it is a later issue). The rules engine is"
        " ready: try `python -m rules selfplay --players 4 --seed 1`.",
        file=sys.stderr,
    )
    return 1


if __name__ == "__main__":
    sys.exit(main())
