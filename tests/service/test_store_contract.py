"""The store contract, written against the `Store` interface: every backend runs these
tests (SQLite, and PostgreSQL on a throwaway server: tests/service/conftest.py)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from service_helpers import START, Backend

from bot.store import (
    LATEST_VERSION,
    RESTING,
    ActionRecord,
    DuplicateInteractionError,
    DutyClaim,
    InteractionRecord,
    NewGame,
    NewOwed,
    NotificationPrefs,
    ReminderRecord,
    SchemaTooNewError,
    SeqConflictError,
    SnapshotRecord,
    StatusConflictError,
    Store,
)

T1 = START + timedelta(minutes=1)
T2 = START + timedelta(minutes=2)


@pytest.fixture
async def store(backend: Backend, tmp_path: Path) -> AsyncIterator[Store]:
    async with backend.make(tmp_path) as opened:
        yield opened


def new_game(creator: int = 1, config: str = '{"players":2}') -> NewGame:
    return NewGame(
        rules="test", config=config, creator_id=creator, reminder_seconds=3600, created_at=START
    )


async def active_game(store: Store, players: int = 2) -> int:
    """An active game with `players` seats and the snapshot after setup."""
    game = await store.create_game(new_game(), seat_creator=True)
    for user in range(2, players + 1):
        assert await store.add_seat(game.id, user, limit=players, at=START) is not None
    seats = await store.seats(game.id)
    started = await store.start_game(
        game.id,
        seed=42,
        seats=seats,
        snapshot=SnapshotRecord(game.id, 0, "state-0"),
        waiting=[ReminderRecord(game.id, 0, START, T1)],
        at=START,
    )
    assert started
    return game.id


async def append(
    store: Store, game_id: int, seq: int, text: str = "", *, interaction: int | None = None
) -> None:
    text = text or f"action-{seq}"
    await store.append_action(
        ActionRecord(game_id, seq, 0, text, START, user_id=1, interaction_id=interaction),
        SnapshotRecord(game_id, seq, f"state-after-{text}"),
        interaction=None
        if interaction is None
        else InteractionRecord(interaction, game_id, seq, f"result-{seq}", START),
    )


# --- schema ---------------------------------------------------------------------------


@pytest.mark.empty_database
async def test_a_new_database_is_migrated_to_the_latest_schema(store: Store) -> None:
    assert await store.schema_version() == LATEST_VERSION


@pytest.mark.empty_database
async def test_migrating_twice_is_a_no_op(backend: Backend, tmp_path: Path) -> None:
    async with backend.make(tmp_path) as first:
        game_id = await active_game(first)
        await append(first, game_id, 1)
        assert await first.migrate() == []
    async with backend.make(tmp_path) as again:
        assert await again.migrate() == []
        assert await again.schema_version() == LATEST_VERSION
        assert [a.notation for a in await again.actions(game_id)] == ["action-1"]


async def test_a_database_from_a_newer_bot_is_refused_and_left_untouched(
    backend: Backend, tmp_path: Path
) -> None:
    async with backend.make(tmp_path) as first:
        await active_game(first)
    backend.force_schema_version(tmp_path, LATEST_VERSION + 1)
    files = backend.snapshot_files(tmp_path)
    newer = backend.make(tmp_path)
    with pytest.raises(SchemaTooNewError, match="Upgrade the bot") as caught:
        await newer.open()
    assert caught.value.found == LATEST_VERSION + 1
    await newer.close()
    assert backend.snapshot_files(tmp_path) == files
    backend.force_schema_version(tmp_path, LATEST_VERSION)
    async with backend.make(tmp_path) as reopened:
        assert len(await reopened.actions(1)) == 0
        assert (await reopened.game(1)) is not None


# --- the action log -------------------------------------------------------------------


async def test_appended_actions_load_with_the_latest_snapshot(store: Store) -> None:
    game_id = await active_game(store)
    for seq in (1, 2, 3):
        await append(store, game_id, seq)
    loaded = await store.load_game(game_id)
    assert loaded is not None
    assert loaded.game.status == "active" and loaded.game.seed == 42
    assert loaded.snapshot == SnapshotRecord(game_id, 3, "state-after-action-3")
    assert loaded.later_actions == ()
    assert loaded.last_seq == 3
    assert [a.seq for a in await store.actions(game_id)] == [1, 2, 3]
    assert [a.notation for a in await store.actions(game_id, after=1)] == ["action-2", "action-3"]


async def test_actions_after_an_older_snapshot_come_with_it(store: Store) -> None:
    game_id = await active_game(store)
    await append(store, game_id, 1)
    await store.put_snapshot(SnapshotRecord(game_id, 0, "rebuilt-0"))  # older: ignored
    loaded = await store.load_game(game_id)
    assert loaded is not None and loaded.snapshot is not None
    assert loaded.snapshot.seq == 1


async def test_a_duplicate_seq_is_refused_and_changes_nothing(store: Store) -> None:
    game_id = await active_game(store)
    await append(store, game_id, 1, "first")
    with pytest.raises(SeqConflictError) as caught:
        await append(store, game_id, 1, "second")
    assert caught.value.last_seq == 1
    assert [a.notation for a in await store.actions(game_id)] == ["first"]
    loaded = await store.load_game(game_id)
    assert loaded is not None and loaded.snapshot is not None
    assert loaded.snapshot.state == "state-after-first"


async def test_a_gap_in_the_log_is_refused(store: Store) -> None:
    game_id = await active_game(store)
    await append(store, game_id, 1)
    with pytest.raises(SeqConflictError):
        await append(store, game_id, 3)
    assert [a.seq for a in await store.actions(game_id)] == [1]


async def test_a_handled_interaction_cannot_be_stored_twice(store: Store) -> None:
    game_id = await active_game(store)
    await append(store, game_id, 1, interaction=77)
    with pytest.raises(DuplicateInteractionError):
        await append(store, game_id, 2, interaction=77)
    assert [a.seq for a in await store.actions(game_id)] == [1]
    stored = await store.interaction(77)
    assert stored is not None and (stored.seq, stored.result) == (1, "result-1")


async def test_only_an_active_game_takes_actions(store: Store) -> None:
    game = await store.create_game(new_game(), seat_creator=True)
    with pytest.raises(StatusConflictError):
        await append(store, game.id, 1)
    game_id = await active_game(store)
    assert await store.set_status(game_id, "abandoned", only_from=["active"], at=T1)
    with pytest.raises(StatusConflictError):
        await append(store, game_id, 1)
    assert await store.actions(game_id) == []
    assert await store.reminders(game_id) == []


async def test_the_final_action_ends_the_game_and_its_reminders(store: Store) -> None:
    game_id = await active_game(store)
    await store.append_action(
        ActionRecord(game_id, 1, 0, "end", T1),
        SnapshotRecord(game_id, 1, "final"),
        status="over",
        waiting=[ReminderRecord(game_id, 1, T1, T2)],
    )
    game = await store.game(game_id)
    assert game is not None and game.status == "over" and game.updated_at == T1
    assert await store.reminders(game_id) == []


async def test_the_waiting_seats_keep_their_schedule_while_still_awaited(store: Store) -> None:
    game_id = await active_game(store, players=3)
    await store.append_action(
        ActionRecord(game_id, 1, 0, "a", T1),
        SnapshotRecord(game_id, 1, "s1"),
        waiting=[ReminderRecord(game_id, 0, T1, T2), ReminderRecord(game_id, 2, T1, T2)],
    )
    reminders = await store.reminders(game_id)
    # seat 0 was already awaited: its row (since START, next T1) stays as it was
    assert reminders == [
        ReminderRecord(game_id, 0, START, T1),
        ReminderRecord(game_id, 2, T1, T2),
    ]
    await store.append_action(
        ActionRecord(game_id, 2, 0, "b", T2),
        SnapshotRecord(game_id, 2, "s2"),
        waiting=[ReminderRecord(game_id, 1, T2, T2)],
    )
    assert [r.seat for r in await store.reminders(game_id)] == [1]


# --- games and seats -----------------------------------------------------------------


async def test_seats_are_taken_in_order_up_to_the_limit_once_per_user(store: Store) -> None:
    game = await store.create_game(new_game(creator=1), seat_creator=True)
    assert await store.add_seat(game.id, 1, limit=3, at=T1) is None  # already seated
    second = await store.add_seat(game.id, 2, limit=3, at=T1)
    assert second is not None and second.seat == 1
    assert await store.add_seat(game.id, 3, limit=3, at=T1) is not None
    assert await store.add_seat(game.id, 4, limit=3, at=T1) is None  # full
    assert [s.user_id for s in await store.seats(game.id)] == [1, 2, 3]


async def test_removing_a_seat_moves_later_seats_up(store: Store) -> None:
    game = await store.create_game(new_game(creator=1), seat_creator=True)
    for user in (2, 3, 4):
        await store.add_seat(game.id, user, limit=4, at=T1)
    assert await store.remove_seat(game.id, 1, at=T2)
    assert [(s.seat, s.user_id) for s in await store.seats(game.id)] == [(0, 1), (1, 3), (2, 4)]
    assert not await store.remove_seat(game.id, 7, at=T2)


async def test_a_started_game_takes_no_new_seats_and_starts_once(store: Store) -> None:
    game_id = await active_game(store)
    assert await store.add_seat(game_id, 9, limit=5, at=T1) is None
    assert not await store.remove_seat(game_id, 0, at=T1)
    again = await store.start_game(
        game_id,
        seed=1,
        seats=[],
        snapshot=SnapshotRecord(game_id, 0, "other"),
        waiting=[],
        at=T1,
    )
    assert not again
    game = await store.game(game_id)
    assert game is not None and game.seed == 42


async def test_games_are_found_by_thread_and_by_player(store: Store) -> None:
    game_id = await active_game(store)
    await store.set_place(game_id, guild_id=5, channel_id=6, thread_id=7, at=T1)
    found = await store.game_in_thread(7)
    assert found is not None and found.id == game_id and found.channel_id == 6
    assert await store.game_in_thread(8) is None
    assert [g.id for g in await store.games_of_user(2, ["active"])] == [game_id]
    assert await store.games_of_user(2, ["over"]) == []


async def test_a_game_keeps_its_language_and_its_creator_can_change_it(store: Store) -> None:
    english = await store.create_game(new_game(), seat_creator=True)
    assert english.language == "en"
    polish = await store.create_game(
        NewGame("test", "{}", 2, 60, START, language="pl"), seat_creator=True
    )
    assert polish.language == "pl"
    assert await store.set_language(polish.id, "es", at=T1)
    again = await store.game(polish.id)
    assert again is not None and again.language == "es"
    untouched = await store.game(english.id)
    assert untouched is not None and untouched.language == "en"
    assert not await store.set_language(9999, "es", at=T1)


# --- bookkeeping ---------------------------------------------------------------------


async def test_notification_prefs_round_trip(store: Store) -> None:
    prefs = NotificationPrefs(
        5, dm_opt_in=True, quiet_start=1380, quiet_end=420, timezone="Asia/Tokyo"
    )
    await store.put_notification_prefs(prefs)
    await store.put_notification_prefs(NotificationPrefs(6))
    assert await store.notification_prefs([5, 6, 7]) == {5: prefs, 6: NotificationPrefs(6)}


async def test_a_players_language_is_kept_with_their_prefs(store: Store) -> None:
    """The language of a player's last interaction (for their direct messages) is
    stored beside their preferences: for a player without any it makes a row of
    defaults, a later language replaces it, and saving preferences keeps it."""
    await store.put_language(8, "pl")
    assert await store.notification_prefs([8]) == {8: NotificationPrefs(8, language="pl")}
    night = NotificationPrefs(8, dm_opt_in=True, quiet_start=1320, quiet_end=420)
    await store.put_notification_prefs(night)
    assert (await store.notification_prefs([8]))[8] == replace(night, language="pl")
    await store.put_language(8, "es")
    assert (await store.notification_prefs([8]))[8] == replace(night, language="es")
    # a player seen before the migration, or never: no language (the game's is used)
    await store.put_notification_prefs(NotificationPrefs(9, timezone="Europe/Madrid"))
    assert (await store.notification_prefs([9]))[9].language is None


async def test_due_reminders_skip_muted_seats(store: Store) -> None:
    game_id = await active_game(store, players=3)
    await store.append_action(
        ActionRecord(game_id, 1, 0, "a", START),
        SnapshotRecord(game_id, 1, "s1"),
        waiting=[ReminderRecord(game_id, 1, START, T1), ReminderRecord(game_id, 2, START, T2)],
    )
    assert [r.seat for r in await store.due_reminders(T2, limit=10)] == [1, 2]
    assert await store.put_reminder(ReminderRecord(game_id, 1, START, T1, muted_for_turn=True))
    assert [r.seat for r in await store.due_reminders(T2, limit=10)] == [2]
    assert not await store.put_reminder(ReminderRecord(game_id, 0, START, T1))  # not awaited


async def test_old_interactions_are_pruned(store: Store) -> None:
    game_id = await active_game(store)
    await append(store, game_id, 1, interaction=1)
    assert await store.prune_interactions(START) == 0
    assert await store.prune_interactions(T1) == 1
    assert await store.interaction(1) is None


async def test_delivered_messages_are_pruned_after_their_retention(store: Store) -> None:
    game_id = await active_game(store)
    owed = [NewOwed("turn", '{"n": 1}'), NewOwed("turn", '{"n": 2}')]
    first, second = await store.append_action(
        ActionRecord(game_id, 1, 0, "a", START), SnapshotRecord(game_id, 1, "s1"), owed=owed
    )
    assert await store.mark_delivered(first, at=START, channel_id=7, message_id=70)
    assert await store.last_delivered_message(game_id, 7) == 70
    assert await store.prune_delivered(START) == 0  # delivered at START: not before it
    assert await store.prune_delivered(T1) == 1
    # what is owed stays, whatever its age
    assert [m.id for m in await store.owed_messages(None, game_id=game_id)] == [second]
    assert await store.last_delivered_message(game_id, 7) is None


async def test_the_votes_due_are_those_past_their_deadline_or_their_turn(store: Store) -> None:
    waiting = [ReminderRecord(0, 0, START, T1)]
    games = [await active_game(store) for _ in range(4)]
    votes = []
    for game_id in games:
        vote = await store.open_vote(game_id, 0, turn_since=START, at=START, deadline=T2)
        assert vote is not None
        votes.append(vote.id)
    # the first game's turn went on: the seat is awaited anew, since a later time
    await store.append_action(
        ActionRecord(games[0], 1, 0, "a", T1),
        SnapshotRecord(games[0], 1, "s1"),
        waiting=[replace(waiting[0], game_id=games[0], waiting_since=T1)],
        renew=[0],
    )
    # the second game ended; the third still awaits the seat since START
    await store.set_status(games[1], "over", only_from=["active"], at=T1)
    assert [v.id for v in await store.votes_due(T1)] == votes[:2]
    # at the deadline every open vote is due; a closed one never is
    assert await store.close_vote(votes[3], "void", at=T1)
    assert [v.id for v in await store.votes_due(T2)] == votes[:3]


# --- duty claims: several processes on one database ------------------------------------

LEASE = timedelta(minutes=1)


@pytest.fixture
async def two(backend: Backend, tmp_path: Path) -> AsyncIterator[tuple[Store, Store]]:
    """Two processes' stores on one database."""
    async with backend.make(tmp_path) as first, backend.make(tmp_path) as second:
        yield first, second


async def test_of_processes_racing_for_a_duty_exactly_one_wins(two: tuple[Store, Store]) -> None:
    a, b = two
    duties = [f"deliver:{n}" for n in range(30)]
    claims = await asyncio.gather(
        *(
            store.claim_duty(duty, owner, now=START, until=START + LEASE)
            for duty in duties
            for store, owner in ((a, "host-a:1:aa"), (b, "host-b:2:bb"))
        )
    )
    for n, duty in enumerate(duties):
        won = [c for c in claims[2 * n : 2 * n + 2] if c is not None]
        assert len(won) == 1, (duty, claims[2 * n : 2 * n + 2])
        assert won[0] == DutyClaim(duty, won[0].owner, START + LEASE)
    held = {c.duty: c.owner for c in await a.duty_claims(START)}
    assert held == {c.duty: c.owner for c in claims if c is not None}


async def test_a_claim_holds_until_its_lease_runs_out_then_another_takes_it_over(
    two: tuple[Store, Store],
) -> None:
    a, b = two
    first = await a.claim_duty("move:1:2", "a", now=START, until=START + LEASE)
    assert first is not None
    assert await b.claim_duty("move:1:2", "b", now=T1 - timedelta(seconds=1), until=T2) is None
    # its holder renews it: the lease now runs to T2
    assert await a.claim_duty("move:1:2", "a", now=T1 - timedelta(seconds=1), until=T2)
    assert await b.claim_duty("move:1:2", "b", now=T1, until=T1 + LEASE) is None
    # the holder fell silent: once the lease ran out, the duty is anyone's
    taken = await b.claim_duty("move:1:2", "b", now=T2, until=T2 + LEASE)
    assert taken == DutyClaim("move:1:2", "b", T2 + LEASE)
    assert await a.claim_duty("move:1:2", "a", now=T2, until=T2 + LEASE) is None
    assert [(c.duty, c.owner) for c in await a.duty_claims(T2)] == [("move:1:2", "b")]


async def test_a_late_done_mark_from_an_overtaken_process_does_not_count(
    two: tuple[Store, Store],
) -> None:
    a, b = two
    game_id = await active_game(a)
    [owed_id] = await a.append_action(
        ActionRecord(game_id, 1, 0, "a", START),
        SnapshotRecord(game_id, 1, "s1"),
        waiting=[ReminderRecord(game_id, 1, START, T1)],
        owed=[NewOwed("turn", "{}")],
    )
    slow = await a.claim_duty(f"deliver:{game_id}", "a", now=START, until=START + LEASE)
    assert slow is not None
    fast = await b.claim_duty(f"deliver:{game_id}", "b", now=T2, until=T2 + LEASE)
    assert fast is not None
    # the slow process sent the message and marks it, too late: the new holder records it
    assert not await a.mark_delivered(owed_id, at=T2, message_id=1, claim=slow)
    assert [m.id for m in await a.owed_messages(None)] == [owed_id]
    assert await b.mark_delivered(owed_id, at=T2, message_id=2, claim=fast)
    assert not await b.mark_delivered(owed_id, at=T2, message_id=3, claim=fast)
    assert not await a.mark_delivered(owed_id, at=T2, message_id=4, claim=slow)
    assert await a.owed_messages(None) == []
    assert await a.last_delivered_message(game_id, 0) is None  # no channel was given
    # a reminder counted by an overtaken process is not counted
    remind = f"remind:{game_id}:1"
    slow = await a.claim_duty(remind, "a", now=START, until=START + LEASE)
    fast = await b.claim_duty(remind, "b", now=T2, until=T2 + LEASE)
    assert slow is not None and fast is not None
    counted = ReminderRecord(game_id, 1, START, T2 + LEASE, missed=1)
    assert not await a.put_reminder(counted, claim=slow)
    assert (await b.reminders(game_id))[0].missed == 0
    assert await b.put_reminder(counted, claim=fast)
    assert (await a.reminders(game_id))[0] == counted


async def test_only_its_holder_releases_a_claim_and_a_rest_keeps_everyone_off(
    store: Store,
) -> None:
    held = await store.claim_duty("prune", "a", now=START, until=START + LEASE)
    assert held is not None
    assert not await store.release_duty(DutyClaim("prune", "b", START + LEASE))
    assert await store.release_duty(held)
    assert not await store.release_duty(held)  # already given up
    held = await store.claim_duty("prune", "b", now=START, until=START + LEASE)
    assert held is not None
    # done: nobody, its last holder neither, may claim it for an hour
    assert await store.release_duty(held, rest_until=START + timedelta(hours=1))
    assert await store.duty_claims(START) == [
        DutyClaim("prune", RESTING, START + timedelta(hours=1))
    ]
    for owner in ("a", "b"):
        assert await store.claim_duty("prune", owner, now=T2, until=T2 + LEASE) is None
    later = START + timedelta(hours=1)
    assert await store.claim_duty("prune", "a", now=later, until=later + LEASE) is not None


async def test_claims_left_by_crashed_processes_are_forgotten(store: Store) -> None:
    for n in range(3):
        assert await store.claim_duty(f"vote:{n}", "gone", now=START, until=START + LEASE)
    assert await store.claim_duty("vote:9", "alive", now=START, until=T2 + LEASE)
    assert await store.prune_duty_claims(START + LEASE) == 0  # ran out just now: kept
    assert await store.prune_duty_claims(T2) == 3
    assert [c.duty for c in await store.duty_claims(START)] == ["vote:9"]


async def test_a_claim_needs_a_named_holder_and_a_lease_in_the_future(store: Store) -> None:
    with pytest.raises(ValueError, match="named"):
        await store.claim_duty("prune", RESTING, now=START, until=T1)
    with pytest.raises(ValueError, match="lease"):
        await store.claim_duty("prune", "a", now=T1, until=T1)
    assert await store.duty_claims(START) == []
