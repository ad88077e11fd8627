"""Rebuilding a game's state from the store: the latest snapshot plus the log after
it, or the whole log when there is no usable snapshot. Anything that does not rebuild
cleanly is a `CorruptGameError` naming the game, never a crash.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic

from bot.service.errors import (
    CorruptGameError,
    GameNotFoundError,
    GameStateError,
    ServiceError,
    StorageFullError,
)
from bot.service.protocol import A, GameRules, S
from bot.store import (
    ActionRecord,
    GameRecord,
    SeatRecord,
    SnapshotRecord,
    Store,
    StoredGame,
    StoreError,
    WriteFaultError,
)
from bot.store.integrity import chain_break, genesis, state_digest

# the log entry a player's "undo" leaves: it takes back the entry that stands before it
UNDO = "undo"

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Loaded(Generic[S]):
    """A game as stored, with its state rebuilt (None before it starts). `seq` is the
    number of log entries the state reflects: the version buttons carry."""

    game: GameRecord
    seats: tuple[SeatRecord, ...]
    config: dict[str, Any]
    state: S | None
    seq: int


async def load(store: Store, rules: GameRules[S, A], game_id: int) -> Loaded[S]:
    """Load a game and rebuild its state; raises `GameNotFoundError` or
    `CorruptGameError`.

    The snapshot is trusted only if it agrees with the log, checked without a replay:
    its chain value must be the log's at its seq and its digest its state's. If not
    (changed state, a seq ahead of or behind the log, damaged bytes, never checked),
    the state is rebuilt from the whole log, the snapshot is rewritten from it and a
    warning names the game. A gap or an entry that breaks the chain is a
    `CorruptGameError`: the log is the truth, and a damaged one is never played on."""
    stored = await store.load_game(game_id)
    if stored is None:
        raise GameNotFoundError(game_id)
    game = stored.game
    check_rules(rules, game)
    try:
        config = parse_config(game)
        if game.seed is None:  # never dealt: open, or abandoned before the start
            if game.status in ("active", "over"):
                raise ValueError("a started game has no seed")
            if stored.last_seq or stored.snapshot is not None:
                raise ValueError("a game that never started has a log")
            return Loaded(game, stored.seats, config, None, 0)
        check_gapless(stored)
        snapshot = stored.snapshot
        later = stored.later_actions
        problem = snapshot_problem(stored)
        if problem is None and snapshot is not None and all(a.notation != UNDO for a in later):
            check_chain(game_id, later, snapshot.chain or "", snapshot.seq)
            check_sequence(later, snapshot.seq, stored.last_seq)
            try:
                state = rules.state_from_json(snapshot.state)
            except Exception as exc:
                problem = f"its state does not read back ({type(exc).__name__}: {exc})"
            else:
                for entry in later:
                    rules.replay(state, entry.seat, rules.parse_action(entry.notation))
                return Loaded(game, stored.seats, config, state, stored.last_seq)
        # no usable snapshot, or an undo after it: the state is rebuilt from the log
        entries = await store.actions(game_id)
        state, last = rebuild_state(rules, game, config, entries)
        if problem is not None:
            await repair(store, rules, game_id, problem, last, state)
        return Loaded(game, stored.seats, config, state, last)
    except ServiceError:
        raise
    except Exception as exc:
        raise corrupt(game_id, exc) from exc


@dataclass(frozen=True, slots=True)
class Verified:
    """What a whole-log check found: the log's length and, if the snapshot disagrees
    with the log (the next load rebuilds it), why."""

    seq: int
    snapshot_problem: str | None


async def verify(store: Store, rules: GameRules[S, A], game_id: int) -> Verified:
    """Check a game without writing anything: every log entry against the chain, a
    replay of the whole log, and the snapshot against both. Raises `CorruptGameError`
    for a damaged log (or config); a snapshot that disagrees is reported, not fatal."""
    stored = await store.load_game(game_id)
    if stored is None:
        raise GameNotFoundError(game_id)
    game = stored.game
    check_rules(rules, game)
    try:
        config = parse_config(game)
        if game.seed is None:
            if game.status in ("active", "over"):
                raise ValueError("a started game has no seed")
            if stored.last_seq or stored.snapshot is not None:
                raise ValueError("a game that never started has a log")
            return Verified(0, None)
        check_gapless(stored)
        entries = await store.actions(game_id)
        state, last = rebuild_state(rules, game, config, entries)
        problem = snapshot_problem(stored)
        snapshot = stored.snapshot
        if (
            problem is None
            and snapshot is not None
            and snapshot.seq == last
            and snapshot.state != rules.state_to_json(state)
        ):
            problem = "its state differs from a replay of the log"
        return Verified(last, problem)
    except ServiceError:
        raise
    except Exception as exc:
        raise corrupt(game_id, exc) from exc


def snapshot_problem(stored: StoredGame) -> str | None:
    """Why the stored snapshot cannot be trusted (None: it agrees with the log), from
    stored values only: a comparison and one hash, no replay."""
    snapshot = stored.snapshot
    if snapshot is None:
        return "there is none"
    if snapshot.chain is None or snapshot.digest is None:
        return "it was never checked against the log"
    if snapshot.seq > stored.last_seq:
        return f"it is at entry {snapshot.seq} but the log ends at {stored.last_seq}"
    if snapshot.chain != stored.log_chain:
        return f"it claims entry {snapshot.seq}, but the log there differs"
    if state_digest(snapshot.seq, snapshot.chain, snapshot.state) != snapshot.digest:
        return "its state does not match its digest (changed or damaged)"
    return None


def check_gapless(stored: StoredGame) -> None:
    """The log's entries must number 1..last: a deleted entry is damage."""
    if stored.entries != stored.last_seq:
        missing = stored.last_seq - stored.entries
        raise ValueError(
            f"the log numbers entries up to {stored.last_seq} but holds {stored.entries}:"
            f" {missing} missing"
        )


def check_chain(game_id: int, entries: Sequence[ActionRecord], start: str, after: int) -> None:
    """Every entry must carry the chain value that follows from the one before it."""
    rows = ((e.seq, e.seat, e.notation, e.chain) for e in entries)
    broken = chain_break(start, rows, after)
    if broken is not None:
        raise ValueError(broken[1])


def rebuild_state(
    rules: GameRules[S, A],
    game: GameRecord,
    config: dict[str, Any],
    entries: Sequence[ActionRecord],
) -> tuple[S, int]:
    """The state replayed from the whole log, after checking every entry against the
    chain; with the log's length."""
    check_chain(game.id, entries, genesis(game.id), 0)
    last = entries[-1].seq if entries else 0
    return replay_log(rules, game, config, entries), last


async def repair(
    store: Store, rules: GameRules[S, A], game_id: int, problem: str, seq: int, state: S
) -> None:
    """Rewrite the snapshot from a state rebuilt from the log (either direction), and
    say so. A snapshot stored before the check existed is checked once, quietly."""
    level = logging.INFO if problem == "it was never checked against the log" else logging.WARNING
    try:
        written = await store.put_snapshot(SnapshotRecord(game_id, seq, rules.state_to_json(state)))
    except StoreError as exc:
        log.warning(
            "game %s: the snapshot disagrees with the log (%s); rebuilt from the log, but"
            " it could not be rewritten: %s",
            game_id,
            problem,
            exc,
        )
        return
    log.log(
        level,
        "game %s: the snapshot disagrees with the log (%s); rebuilt from the log%s",
        game_id,
        problem,
        "" if written else " (the log moved on meanwhile)",
    )


def storage_full(game_id: int | None, exc: WriteFaultError) -> StorageFullError:
    """The player's sentence for a write that found no room (or no permission); the
    reason goes to the host's log with the game id."""
    log.warning("game %s: a change could not be saved: %s", game_id, exc)
    return StorageFullError(game_id, exc.reason)


def replay_log(
    rules: GameRules[S, A],
    game: GameRecord,
    config: dict[str, Any],
    entries: Sequence[ActionRecord],
) -> S:
    """The state after the entries that stand (undone ones removed), from setup on,
    on the rules' trusted path."""
    if game.seed is None:
        raise ValueError("a started game has no seed")
    state = rules.new_state(config, game.seed)
    for entry in standing(entries):
        rules.replay(state, entry.seat, rules.parse_action(entry.notation))
    return state


def standing(entries: Sequence[ActionRecord]) -> list[ActionRecord]:
    """The log without undo entries and the entries they took back."""
    out: list[ActionRecord] = []
    for entry in entries:
        if entry.notation == UNDO:
            if not out:
                raise ValueError(f"entry {entry.seq} undoes nothing")
            out.pop()
        else:
            out.append(entry)
    return out


def check_sequence(entries: Sequence[ActionRecord], after: int, last: int) -> None:
    """The entries must number `after + 1`, `after + 2`, ... up to `last`."""
    for expected, entry in enumerate(entries, start=after + 1):
        if entry.seq != expected:
            raise ValueError(f"the log jumps from {expected - 1} to {entry.seq}")
    end = entries[-1].seq if entries else after
    if end != last:
        raise ValueError(f"the state covers {end} entries but the log has {last}")


def check_rules(rules: GameRules[S, A], game: GameRecord) -> None:
    if game.rules != rules.name:
        raise GameStateError(f"Game #{game.id} is a game of {game.rules}, not {rules.name}.")


async def game_and_seats(store: Store, game_id: int) -> tuple[GameRecord, list[SeatRecord]]:
    """The game's record and its seats (no state is loaded); raises `GameNotFoundError`."""
    game = await store.game(game_id)
    if game is None:
        raise GameNotFoundError(game_id)
    return game, await store.seats(game_id)


def parse_config(game: GameRecord) -> dict[str, Any]:
    try:
        config = json.loads(game.config)
    except ValueError as exc:
        raise corrupt(game.id, exc) from exc
    if not isinstance(config, dict):
        raise corrupt(game.id, ValueError("the config is not a JSON object"))
    return config


def corrupt(game_id: int, exc: BaseException) -> CorruptGameError:
    """Wrap a rebuild failure, and log it with the game id (once, here)."""
    detail = f"{type(exc).__name__}: {exc}"
    log.error("game %s: the stored record does not rebuild: %s", game_id, detail)
    return CorruptGameError(game_id, detail)
