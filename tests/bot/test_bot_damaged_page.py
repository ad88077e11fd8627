"""A damaged page of the SQLite file: the game stored there gets one sentence and one
line in the host's log, and every other game in the same file plays on."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest
from bot_harness import TableOf, open_game, place_gates

from bot.store import SqliteStore


def break_the_page_of(path: Path, game_id: int) -> None:
    """Overwrite the header of the page that holds the snapshot of `game_id` (what a
    torn or bit-flipped page looks like to SQLite: "database disk image is
    malformed"). A game's state is kilobytes: each row has a leaf page of its own, so
    no other game's row is on it."""
    db = sqlite3.connect(path)
    try:
        ids = [r[0] for r in db.execute("SELECT game_id FROM snapshots ORDER BY game_id")]
        leaves = db.execute(
            "SELECT pageno, ncell FROM dbstat WHERE name = 'snapshots' AND pagetype = 'leaf'"
            " ORDER BY path"
        ).fetchall()
        size = db.execute("PRAGMA page_size").fetchone()[0]
    finally:
        db.close()
    assert [n for _, n in leaves] == [1] * len(ids), leaves
    page = leaves[ids.index(game_id)][0]
    data = bytearray(path.read_bytes())
    data[(page - 1) * size : (page - 1) * size + 8] = b"\xff" * 8  # no such page type
    path.write_bytes(bytes(data))


async def test_a_damaged_page_stops_its_game_alone(
    tmp_path: Path, table_of: TableOf, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "db.sqlite3"
    table = table_of("alice", "bob", "carol", "dave", db=path)
    async with table as (env, bot, channel, (alice, bob, carol, dave)):
        damaged_thread, damaged = await open_game(env, [alice, bob], channel)
        thread, game_id = await open_game(env, [carol, dave], channel)
        store = bot.service.store
        assert isinstance(store, SqliteStore)
        await store.close()  # the file whole on disk (the WAL folded back into it)
        break_the_page_of(path, damaged)
        await store.open()

        with caplog.at_level(logging.WARNING):
            result = await alice.slash(damaged_thread, "mk status")
        assert result.ephemeral
        text = " ".join(m.content for m in [result.response, *result.followups] if m)
        assert text == (
            f"Game #{damaged} cannot be loaded because its saved record is damaged;"
            " nothing was changed and the problem has been logged."
        ), text
        lines = [r for r in caplog.records if f"game {damaged}:" in r.getMessage()]
        assert len(lines) == 1 and lines[0].exc_info is None, caplog.text
        assert "cannot be read" in lines[0].getMessage()

        # the other game in the same file plays on: every gate placed, by commands
        await place_gates(bot, [carol, dave], thread, game_id)
        state = (await bot.service.load(game_id)).state
        assert state is not None and state.phase == "draft"
