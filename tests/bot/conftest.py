"""The fixture for a table of players in the SimCord tests (bot_harness.py): a running
bot on a SQLite file in the test's own folder, a server with a "games" channel and a
member for each name.

    async def test_something(table_of: TableOf) -> None:
        async with table_of("alice", "bob") as (env, bot, channel, (alice, bob)):
            thread, game_id = await open_game(env, [alice, bob], channel)

`seed` and `clock` go to `running_bot`; `db` names another database file (a test that
opens the same file again). Which Discord stand-in serves which test: tests/README.md.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import pytest
from bot_harness import Table, TableOf, running_table


@pytest.fixture
def table_of(tmp_path: Path) -> TableOf:
    def running(
        *names: str, seed: int = 1, clock: Any = None, db: Path | None = None
    ) -> AbstractAsyncContextManager[Table]:
        return running_table(db or tmp_path / "db.sqlite3", *names, seed=seed, clock=clock)

    return running
