"""What only the SQLite store promises: its connection defaults and the database's
own constraints (the key that turns a racing append into a clean refusal)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from service_helpers import START, raw, set_back_to_8

from bot.store import (
    LATEST_VERSION,
    ActionRecord,
    NewGame,
    NotificationPrefs,
    SeqConflictError,
    SnapshotRecord,
    SqliteStore,
    StoreError,
)
from bot.store import base as store_base
from bot.store import sql as store_sql
from bot.store import sqlite as sqlite_module

# the SQLite file itself: its PRAGMAs, keys and faults of the disk under it
pytestmark = pytest.mark.sqlite_only


async def started(store: SqliteStore) -> int:
    game = await store.create_game(NewGame("test", "{}", 1, 60, START), seat_creator=True)
    assert await store.start_game(
        game.id, seed=1, seats=[], snapshot=SnapshotRecord(game.id, 0, "s0"), waiting=[], at=START
    )
    return game.id


async def test_connections_use_wal_foreign_keys_and_a_busy_timeout(tmp_path: Path) -> None:
    async with SqliteStore(tmp_path / "g.db", busy_timeout_ms=4321) as store:

        async def pragma(name: str) -> object:
            rows = await store._on_writer(lambda db: db.execute_fetchall(f"PRAGMA {name}"))
            return rows[0][0]

        assert await pragma("journal_mode") == "wal"
        assert await pragma("foreign_keys") == 1
        assert await pragma("busy_timeout") == 4321
        assert await pragma("synchronous") == 2  # FULL
    assert raw(tmp_path / "g.db").execute("PRAGMA user_version").fetchone() == (LATEST_VERSION,)


async def test_the_primary_key_refuses_a_second_entry_with_the_same_seq(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    async with SqliteStore(path) as store:
        game_id = await started(store)
    db = raw(path)
    row = (game_id, 1, 0, "end", 0.0)
    db.execute(
        "INSERT INTO actions (game_id, seq, seat, notation, created_at) VALUES (?, ?, ?, ?, ?)",
        row,
    )
    with pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):
        db.execute(
            "INSERT INTO actions (game_id, seq, seat, notation, created_at) VALUES (?, ?, ?, ?, ?)",
            row,
        )


async def test_a_primary_key_conflict_becomes_a_seq_conflict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with SqliteStore(tmp_path / "g.db") as store:
        game_id = await started(store)
        first = ActionRecord(game_id, 1, 0, "first", START)
        await store.append_action(first, SnapshotRecord(game_id, 1, "s1"))

        # a writer whose view of the log is stale gets past the gap check...
        async def stale(db: object, game_ids: object) -> dict[int, tuple[str, int, None]]:
            return {game_id: ("active", 0, None)}

        monkeypatch.setattr(sqlite_module, "_heads", stale)
        second = ActionRecord(game_id, 1, 0, "second", START)
        # ...and the key still refuses it, cleanly
        with pytest.raises(SeqConflictError):
            await store.append_action(second, SnapshotRecord(game_id, 1, "s1-second"))
        monkeypatch.undo()
        assert [a.notation for a in await store.actions(game_id)] == ["first"]
        loaded = await store.load_game(game_id)
        assert loaded is not None and loaded.snapshot == SnapshotRecord(game_id, 1, "s1")


async def test_log_entries_must_belong_to_a_seat(tmp_path: Path) -> None:
    async with SqliteStore(tmp_path / "g.db") as store:
        game_id = await started(store)
        with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
            await store.append_action(
                ActionRecord(game_id, 1, 7, "end", START), SnapshotRecord(game_id, 1, "s")
            )
        assert await store.actions(game_id) == []


async def test_a_version_4_database_gets_the_games_language(tmp_path: Path) -> None:
    """Migration 5: a game made before the language was chosen is English; a new game
    keeps the language it was made with, and its creator can change it."""
    path = tmp_path / "g.db"
    async with SqliteStore(path) as store:
        old = await store.create_game(NewGame("test", "{}", 1, 60, START), seat_creator=True)
    db = raw(path)
    db.execute("ALTER TABLE games DROP COLUMN language")
    db.execute("ALTER TABLE notification_prefs DROP COLUMN language")  # migration 6
    set_back_to_8(db)  # migration 9
    db.execute("DROP TABLE duty_claims")  # migration 7
    db.execute("PRAGMA user_version = 4")
    db.close()
    async with SqliteStore(path) as store:
        assert await store.schema_version() == LATEST_VERSION
        game = await store.game(old.id)
        assert game is not None and game.language == "en"
        made = await store.create_game(
            NewGame("test", "{}", 2, 60, START, language="pl"), seat_creator=True
        )
        assert made.language == "pl"
        assert await store.set_language(made.id, "es", at=START)
        again = await store.game(made.id)
        assert again is not None and again.language == "es"
        assert not await store.set_language(9999, "es", at=START)


async def test_a_version_5_database_keeps_each_players_language(tmp_path: Path) -> None:
    """Migration 6: preferences saved before players' languages were kept have none
    (their DMs use the game's language) and keep everything else; a language is then
    kept beside them."""
    path = tmp_path / "g.db"
    async with SqliteStore(path) as store:
        await store.put_notification_prefs(NotificationPrefs(7, dm_opt_in=True, timezone="UTC"))
    db = raw(path)
    db.execute("ALTER TABLE notification_prefs DROP COLUMN language")
    set_back_to_8(db)  # migration 9
    db.execute("DROP TABLE duty_claims")  # migration 7
    db.execute("PRAGMA user_version = 5")
    db.close()
    async with SqliteStore(path) as store:
        assert await store.schema_version() == LATEST_VERSION
        assert await store.notification_prefs([7]) == {7: NotificationPrefs(7, dm_opt_in=True)}
        await store.put_language(7, "es")
        assert (await store.notification_prefs([7]))[7].language == "es"


async def test_a_backup_into_a_missing_folder_is_one_sentence(tmp_path: Path) -> None:
    """`python -m bot backup /missing/folder/x.db` answers in one line (no traceback),
    exits 1 and makes no folder; the store says the same."""
    path = tmp_path / "g.db"
    target = tmp_path / "missing" / "folder" / "x.db"
    async with SqliteStore(path) as store:
        with pytest.raises(StoreError, match="does not exist") as caught:
            await store.backup(target)
        assert "\n" not in str(caught.value)
    done = subprocess.run(
        [sys.executable, "-m", "bot", "backup", str(target)],
        cwd=Path(__file__).resolve().parents[2],
        env={**os.environ, "DATABASE_PATH": str(path), "DISCORD_TOKEN": ""},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        f"backup: The folder {target.parent} does not exist; create it or choose another"
        " place for the backup."
    ]
    assert not (tmp_path / "missing").exists()


@pytest.mark.parametrize("game", [None, 1])
async def test_the_owed_messages_are_found_through_the_index_of_owed_messages(
    tmp_path: Path, game: int | None
) -> None:
    """A scheduler round asks for the messages owed and due: its query reads the
    partial index of owed messages (one game's: the game's), never the outbox's whole
    history of delivered messages."""
    async with SqliteStore(tmp_path / "g.db") as store:
        if game is None:
            sql, params = store_sql.OWED_DUE, (START.timestamp(), 100)
            index = "outbox_owed"
        else:
            sql, params = store_sql.OWED_OF_GAME, (game, START.timestamp(), 100)
            index = "outbox_by_game"
        statement = f"EXPLAIN QUERY PLAN {store.dialect.fill(sql)}"
        plan = [r["detail"] for r in await store._rows(statement, *params)]
    assert any(index in step for step in plan), plan
    assert not any(step.startswith("SCAN outbox") for step in plan), plan
    assert not any("TEMP B-TREE" in step for step in plan), plan


PRUNES = {
    # the rows of each prune, as they are inserted (game id, time), and its index
    "interactions": (
        "INSERT INTO interactions (interaction_id, game_id, seq, result, created_at)"
        " SELECT value, $1, 0, 'ok', $2 FROM json_each($3)",
        "prune_interactions",
        "interactions_by_time",
    ),
    "outbox": (
        "INSERT INTO outbox (id, game_id, seq, kind, payload, created_at, due_at,"
        " delivered_at) SELECT value, $1, 0, 'turn', '{}', $2, $2, $2 FROM json_each($3)",
        "prune_delivered",
        "outbox_delivered_at",
    ),
}


@pytest.mark.parametrize("table", sorted(PRUNES))
async def test_a_prune_deletes_in_small_writes_that_acts_pass_between(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, table: str
) -> None:
    """Old interactions and delivered messages go in batches, each a write of its own
    (an act queued meanwhile is committed between two of them), through the index on
    their time; the count is the whole prune's."""
    insert, prune, index = PRUNES[table]
    monkeypatch.setattr(store_base, "PRUNE_BATCH", 10)
    async with SqliteStore(tmp_path / "g.db") as store:
        game_id = await started(store)
        old = json.dumps(list(range(1, 26)))
        await store._change(insert, game_id, START.timestamp() - 60, old)
        await store._change(insert, game_id, START.timestamp() + 60, json.dumps([99]))
        writes: list[str] = []
        change = store._change

        async def counting(statement: str, *params: object) -> int:
            writes.append(statement)
            return await change(statement, *params)

        monkeypatch.setattr(store, "_change", counting)
        assert await getattr(store, prune)(START) == 25
        assert len(writes) == 3 and len(set(writes)) == 1
        left = await store._rows(f"SELECT COUNT(*) AS n FROM {table}")
        assert left[0]["n"] == 1  # the newer row stays
        plan = await store._rows(f"EXPLAIN QUERY PLAN {writes[0]}", 0.0, 10)
        assert any(index in r["detail"] for r in plan), [r["detail"] for r in plan]
