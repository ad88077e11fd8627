"""Rebuilding a game's state from the store: the latest snapshot plus the log after
it, or the whole log when there is no usable snapshot. Anything that does not rebuild
cleanly is a `CorruptGameError` naming the game, never a crash.

What a load verifies of the log (bot/store/integrity.py): every entry's chain value,
recomputed from the game's own starting value, the first time this process loads the
game (the whole log is read once: about 2 microseconds of hashing and 10 to 40 of
reading an entry, quiet machine or busy); at each later load, the entries added since
(the chain value of the last entry verified is remembered, per store and game: one
short read after a move, none while the game stands still). An entry edited after
this process verified it is found by the next process's first load, by `python -m bot
check` and by the start-up sample, not by this process's later loads.

The state a load rebuilt, and the state an act of this process stored, is kept (per
store, the last version of each of the most recent games: `_STATES`) under what the
store holds of that version: the snapshot's digest (its seq, chain value and state
text) and the log's last entry after it (seq and chain value). A load still reads the
game's row and checks it as above; only when the row names that very version is the
state copied instead of read back from its JSON and replayed. Another process's move,
a rewritten snapshot or an undo changes what the row names, and the state is rebuilt.
"""

from __future__ import annotations

import json
import logging
import weakref
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic

from bot.service.errors import (
    CorruptGameError,
    GameNotFoundError,
    ServiceError,
    StorageFullError,
)
from bot.service.protocol import A, GameRules, S
from bot.service.shelf import Shelf, shelf_of
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
from bot.store.integrity import chain_break, genesis, next_chain, state_digest

# the log entry a player's "undo" leaves: it takes back the entry that stands before it
UNDO = "undo"
# checks of one game by `check_game` while its snapshot is rewritten and the game
# moves on meanwhile
REPAIR_TRIES = 3

log = logging.getLogger(__name__)

# per store, what this process has verified of each game's log: the game's id to the
# seq and chain value of the last entry whose chain value it recomputed, entry by entry,
# from the game's starting value (a few dozen bytes a game)
_VERIFIED: weakref.WeakKeyDictionary[Store, dict[int, tuple[int, str]]] = (
    weakref.WeakKeyDictionary()
)

# per store, the state of the latest version of each game this process loaded or
# stored, under its `StateKey`, the most recently used games last; at most `KEPT_STATES`
# games (a state is tens of kilobytes)
StateKey = tuple[str, str, int, str]
_STATES: weakref.WeakKeyDictionary[Store, OrderedDict[int, tuple[StateKey, Any]]] = (
    weakref.WeakKeyDictionary()
)
KEPT_STATES = 128


@dataclass(frozen=True, slots=True)
class Loaded(Generic[S]):
    """A game as stored, with its state rebuilt (None before it starts). `seq` is the
    number of log entries the state reflects: the version buttons carry."""

    game: GameRecord
    seats: tuple[SeatRecord, ...]
    config: dict[str, Any]
    state: S | None
    seq: int
    # the game's own rules (the table may play several games: `bot.service.shelf`)
    rules: GameRules[S, Any, Any]


async def load(store: Store, games: GameRules[S, A] | Shelf[S, A, Any], game_id: int) -> Loaded[S]:
    """Load a game and rebuild its state; raises `GameNotFoundError` or
    `CorruptGameError`.

    The snapshot is trusted only if it agrees with the log, checked without a replay:
    its chain value must be the log's at its seq and its digest its state's. If not
    (changed state, a seq ahead of or behind the log, damaged bytes, never checked),
    the state is rebuilt from the whole log, the snapshot is rewritten from it and a
    warning names the game. A gap or an entry that breaks the chain, below the
    snapshot or after it, is a `CorruptGameError`: the log is the truth, and a damaged
    one is never played on (`check_log_below`: what is verified when)."""
    stored = await store.load_game(game_id)
    if stored is None:
        raise GameNotFoundError(game_id)
    game = stored.game
    rules = rules_of(games, game)
    try:
        config = parse_config(game)
        if game.seed is None:  # never dealt: open, or abandoned before the start
            if game.status in ("active", "over"):
                raise ValueError("a started game has no seed")
            if stored.last_seq or stored.snapshot is not None:
                raise ValueError("a game that never started has a log")
            return Loaded(game, stored.seats, config, None, 0, rules)
        check_gapless(stored)
        snapshot = stored.snapshot
        later = stored.later_actions
        problem = snapshot_problem(stored)
        if problem is None and snapshot is not None and all(a.notation != UNDO for a in later):
            await check_log_below(store, game_id, snapshot.seq, snapshot.chain or "")
            check_chain(game_id, later, snapshot.chain or "", snapshot.seq)
            check_sequence(later, snapshot.seq, stored.last_seq)
            remember(store, game_id, later)
            key = state_key(rules, snapshot, later)
            state = kept_state(store, game_id, key)
            if state is not None:
                return Loaded(game, stored.seats, config, state, stored.last_seq, rules)
            try:
                state = rules.state_from_json(snapshot.state)
            except Exception as exc:
                problem = f"its state does not read back ({type(exc).__name__}: {exc})"
            else:
                for entry in later:
                    rules.replay(state, entry.seat, rules.parse_action(entry.notation))
                keep_state(store, game_id, key, state)
                return Loaded(game, stored.seats, config, state, stored.last_seq, rules)
        # no usable snapshot, or an undo after it: the state is rebuilt from the log
        entries = await store.actions(game_id)
        state, last = rebuild_state(rules, game, config, entries)
        remember(store, game_id, entries)
        if problem is not None:
            await repair(store, rules, game_id, problem, last, state)
        return Loaded(game, stored.seats, config, state, last, rules)
    except ServiceError:
        raise
    except Exception as exc:
        raise corrupt(game_id, exc) from exc


@dataclass(frozen=True, slots=True)
class Verified:
    """What a whole-log check found: the log's length and, if the snapshot disagrees
    with the log, why; with `repair`, whether the snapshot was rewritten from the log
    (False: the log moved on meanwhile, or the store refused the write: `not_repaired`)."""

    seq: int
    snapshot_problem: str | None
    repaired: bool = False
    not_repaired: str | None = None


async def verify(
    store: Store, games: GameRules[S, A] | Shelf[S, A, Any], game_id: int, *, repair: bool = False
) -> Verified:
    """Check a game: every log entry against the chain, a replay of the whole log, and
    the snapshot against both (its state too, even with a valid digest). Raises
    `CorruptGameError` for a damaged log (or config); a snapshot that disagrees is
    reported, not fatal, and with `repair` rewritten from the replayed log (the path a
    load takes for a snapshot it finds wrong). Without `repair` nothing is written."""
    stored = await store.load_game(game_id)
    if stored is None:
        raise GameNotFoundError(game_id)
    game = stored.game
    rules = rules_of(games, game)
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
        remember(store, game_id, entries)
        problem = snapshot_problem(stored)
        snapshot = stored.snapshot
        if problem is None and snapshot is not None:
            # a digest binds the state to its place in the log, not to the log's moves:
            # the state is compared with a replay (a drift from lossy code or a
            # recomputed digest)
            replayed = state
            if snapshot.seq != last:
                below = [e for e in entries if e.seq <= snapshot.seq]
                replayed = replay_log(rules, game, config, below)
            if snapshot.state != rules.state_to_json(replayed):
                problem = "its state differs from a replay of the log"
    except ServiceError:
        raise
    except Exception as exc:
        raise corrupt(game_id, exc) from exc
    if problem is None or not repair:
        return Verified(last, problem)
    try:
        written = await rewrite_snapshot(store, rules, game_id, last, state)
    except StoreError as exc:
        return Verified(last, problem, False, str(exc))
    return Verified(last, problem, written)


@dataclass(frozen=True, slots=True)
class GameCheck:
    """What the check found of one game: nothing, a log that does not replay
    (`broken`: never played on), or a snapshot that disagreed with the log (`drifted`),
    then rewritten from the log (`repaired`) or not (`not_repaired` says why)."""

    game_id: int
    broken: str | None = None
    drifted: str | None = None
    repaired: bool = False
    not_repaired: str | None = None


async def check_game(
    store: Store, rules: GameRules[S, A] | Shelf[S, A, Any], game_id: int, *, repair: bool = False
) -> GameCheck:
    """Replay one game's whole log (every entry checked against the chain) and compare
    its snapshot with the replay. With `repair`, a snapshot that disagrees is rewritten
    from the log, the way a load rebuilds one it finds wrong, and checked again;
    without it nothing is written."""
    drifted: str | None = None
    for _ in range(REPAIR_TRIES):
        try:
            checked = await verify(store, rules, game_id, repair=repair)
        except CorruptGameError as exc:
            return GameCheck(game_id, broken=exc.detail)
        except ServiceError as exc:
            return GameCheck(game_id, broken=exc.message)
        if checked.snapshot_problem is None:
            return GameCheck(game_id, drifted=drifted, repaired=drifted is not None)
        drifted = drifted or f"the snapshot: {checked.snapshot_problem}"
        if not repair:
            return GameCheck(game_id, drifted=drifted)
        if checked.not_repaired is not None:
            why = f"it could not be rewritten: {checked.not_repaired}"
            return GameCheck(game_id, drifted=drifted, not_repaired=why)
        # rewritten (the next turn confirms it), or the game moved on meanwhile
    why = "the game moved on during each rewrite; run the check again"
    return GameCheck(game_id, drifted=drifted, not_repaired=why)


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


async def check_log_below(store: Store, game_id: int, seq: int, chain: str) -> None:
    """Every log entry up to `seq` (a snapshot's) must carry the chain value recomputed
    from the game's starting value, ending at `chain`: an entry edited or damaged below
    the snapshot is damage, though the snapshot's state no longer needs it. The whole
    log is read the first time; after that only the entries added since the last one
    this process verified (none read when the snapshot has not moved)."""
    if seq == 0:
        return
    verified = _verified(store)
    known = verified.get(game_id)
    if known == (seq, chain):
        return
    start, after = genesis(game_id), 0
    if known is not None and known[0] < seq:
        entries = await store.actions(game_id, after=known[0] - 1)
        if entries and entries[0].seq == known[0] and entries[0].chain == known[1]:
            start, after = known[1], known[0]
            entries = entries[1:]
        else:  # not the log verified before (a game re-created under its id)
            entries = await store.actions(game_id)
    else:
        entries = await store.actions(game_id)
    below = [e for e in entries if e.seq <= seq]
    check_chain(game_id, below, start, after)
    reached = (below[-1].seq, below[-1].chain) if below else (after, start)
    if reached != (seq, chain):
        raise ValueError(f"the log does not reach entry {seq}, where its snapshot stands")
    verified[game_id] = (seq, chain)


def remember(store: Store, game_id: int, entries: Sequence[ActionRecord]) -> None:
    """Note the last of `entries` (just verified against the chain, up to an entry
    already verified) as the point this process verified the game's log to."""
    if entries and entries[-1].chain is not None:
        verified = _verified(store)
        known = verified.get(game_id)
        if known is None or known[0] <= entries[-1].seq:
            verified[game_id] = (entries[-1].seq, entries[-1].chain)


def appended(store: Store, entry: ActionRecord) -> None:
    """This process stored `entry` right after the last entry it verified: its chain
    value follows from that one, so the next load needs no read to verify it (the
    store computed the same value from the same stored entry)."""
    verified = _verified(store)
    known = verified.get(entry.game_id)
    if entry.seq == 1:
        known = (0, genesis(entry.game_id))
    if known is not None and known[0] == entry.seq - 1:
        chain = next_chain(known[1], entry.seq, entry.seat, entry.notation)
        verified[entry.game_id] = (entry.seq, chain)


def state_key(
    rules: GameRules[Any, Any, Any], snapshot: SnapshotRecord, later: Sequence[ActionRecord]
) -> StateKey:
    """What a checked snapshot and the checked entries after it stand for: the rules, the
    snapshot's digest (its seq, chain value and state text) and the log's last entry
    (seq and chain value). Two loads with the same key rebuild equal states."""
    last = later[-1] if later else None
    return (
        rules.name,
        snapshot.digest or "",
        snapshot.seq if last is None else last.seq,
        (snapshot.chain if last is None else last.chain) or "",
    )


def kept_state(store: Store, game_id: int, key: StateKey) -> Any:
    """A copy of the game's state kept under `key`, or None if none is kept."""
    try:
        states = _STATES.get(store)
    except TypeError:  # a store that cannot be weakly referenced: nothing kept
        return None
    if states is None:
        return None
    held = states.get(game_id)
    if held is None or held[0] != key:
        return None
    states.move_to_end(game_id)
    return _copy(held[1])


def keep_state(store: Store, game_id: int, key: StateKey, state: Any) -> None:
    """Keep a copy of `state` as the game's state under `key` (in place of any other
    version of the game); nothing is kept of a state that cannot be copied."""
    copied = _copy(state)
    if copied is None:
        return
    try:
        states = _STATES.setdefault(store, OrderedDict())
    except TypeError:  # a store that cannot be weakly referenced: nothing kept
        return
    states[game_id] = (key, copied)
    states.move_to_end(game_id)
    while len(states) > KEPT_STATES:
        states.popitem(last=False)


def stored_state(
    store: Store,
    rules: GameRules[Any, Any, Any],
    entry: ActionRecord,
    snapshot: SnapshotRecord,
    state: Any,
) -> None:
    """This process stored `entry` with `snapshot` (the text of `state`) right after the
    last entry it verified (`appended`): keep `state` under the key the next load of
    that version finds (the digest the store gave the snapshot, from the same values)."""
    known = _verified(store).get(entry.game_id)
    if known is None or known[0] != entry.seq or snapshot.seq != entry.seq:
        return
    chain = known[1]
    digest = state_digest(snapshot.seq, chain, snapshot.state)
    keep_state(store, entry.game_id, (rules.name, digest, entry.seq, chain), state)


def _copy(state: Any) -> Any:
    """A copy the engine may change without changing `state` (the rules' states copy
    themselves: `clone`), or None."""
    clone = getattr(state, "clone", None)
    return None if clone is None else clone()


def _verified(store: Store) -> dict[int, tuple[int, str]]:
    try:
        return _VERIFIED.setdefault(store, {})
    except TypeError:  # a store that cannot be weakly referenced: verified every time
        return {}


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
        written = await rewrite_snapshot(store, rules, game_id, seq, state)
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


async def rewrite_snapshot(
    store: Store, rules: GameRules[S, A], game_id: int, seq: int, state: S
) -> bool:
    """Store `state`, rebuilt from the log's `seq` entries, as the game's snapshot
    (the store binds it to the log's chain value there and digests it). False if the
    log moved on meanwhile; a `StoreError` if the write failed."""
    return await store.put_snapshot(SnapshotRecord(game_id, seq, rules.state_to_json(state)))


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


def rules_of(games: GameRules[S, A] | Shelf[S, A, Any], game: GameRecord) -> GameRules[S, A, Any]:
    """The rules of a stored game, from the table's shelf (or the one game's rules)."""
    return shelf_of(games).of(game)


async def game_record(store: Store, game_id: int) -> GameRecord:
    """The game's record alone (one read: its seats are not read); raises
    `GameNotFoundError`."""
    game = await store.game(game_id)
    if game is None:
        raise GameNotFoundError(game_id)
    return game


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
