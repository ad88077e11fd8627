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

from bot.service.errors import CorruptGameError, GameNotFoundError, GameStateError, ServiceError
from bot.service.protocol import A, GameRules, S
from bot.store import ActionRecord, GameRecord, SeatRecord, Store

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
    `CorruptGameError`."""
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
        snapshot = stored.snapshot
        later = stored.later_actions
        if snapshot is not None and all(a.notation != UNDO for a in later):
            check_sequence(later, snapshot.seq, stored.last_seq)
            state = rules.state_from_json(snapshot.state)
            for entry in later:
                rules.replay(state, entry.seat, rules.parse_action(entry.notation))
            return Loaded(game, stored.seats, config, state, stored.last_seq)
        # no snapshot, or an undo after it: the state is rebuilt from the whole log
        entries = await store.actions(game_id)
        last = entries[-1].seq if entries else 0
        check_sequence(entries, 0, max(last, stored.last_seq))
        state = replay_log(rules, game, config, entries)
        return Loaded(game, stored.seats, config, state, last)
    except ServiceError:
        raise
    except Exception as exc:
        raise corrupt(game_id, exc) from exc


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
