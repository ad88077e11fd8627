"""The state a load rebuilt, or an act of this process stored, is kept under the
version the store holds (bot/service/loading.py `_STATES`): the next load of that very
version copies it instead of reading the snapshot's JSON back, and any other version
(another process's move, a snapshot rewritten by hand, an undo) is read from the
store. What a load returns is always the caller's own: changing it changes nothing
kept."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from service_helpers import (
    Service,
    game_in_play,
    open_service,
    play_moves,
    raw,
    record_for,
    user_of,
)

from bot.service import MOUNTAIN_KING
from bot.service.mountain_king import MountainKingRules
from bot.store.integrity import state_digest
from rules.legal import legal_actions
from rules.state import State


@contextmanager
def counted_reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[], int]]:
    """How many states were read back from their JSON since the block began."""
    reads = 0
    read = MountainKingRules.state_from_json

    def counting(self: MountainKingRules, text: str) -> State:
        nonlocal reads
        reads += 1
        return read(self, text)

    monkeypatch.setattr(MountainKingRules, "state_from_json", counting)
    yield lambda: reads
    monkeypatch.setattr(MountainKingRules, "state_from_json", read)


def stored_state(path: Path, game_id: int) -> State:
    """The state the store's snapshot holds, read back from its JSON."""
    db = raw(path)
    text = db.execute("SELECT state FROM snapshots WHERE game_id = ?", (game_id,)).fetchone()[0]
    db.close()
    return MOUNTAIN_KING.state_from_json(text)


async def next_move(service: Service, game_id: int) -> tuple[int, Any]:
    state = (await service.load(game_id)).state
    assert state is not None and state.current_seat is not None
    return state.current_seat, legal_actions(state, state.current_seat)[0]


@pytest.mark.sqlite_only
async def test_a_load_after_this_process_acted_reads_no_state_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        info, _ = await game_in_play(service, moves=12)
        with counted_reads(monkeypatch) as reads:
            for _ in range(6):
                seat, action = await next_move(service, info.id)
                await service.act(info.id, user_of(info, seat), action)
                loaded = await service.load(info.id)
                assert loaded.state == stored_state(path, info.id)
            # the loads and the acts read back only the test's own reads of the store
            assert reads() == 6


@pytest.mark.sqlite_only
async def test_a_loaded_state_is_the_callers_own(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        info, _ = await game_in_play(service, moves=12)
        state = (await service.load(info.id)).state
        assert state is not None and state.current_seat is not None
        seat = state.current_seat
        storage = state.account_of(seat).storage
        kept = dict(storage)
        for name in storage:
            storage[name] = 40
        state.bag.clear()
        again = (await service.load(info.id)).state
        assert again is not None
        assert again.account_of(seat).storage == kept
        assert again == stored_state(path, info.id)
        assert again is not state


async def test_another_processs_move_is_read_from_the_store(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as first, open_service(path) as second:
        info, played = await game_in_play(first, moves=12)
        moves = record_for(info).moves[played : played + 8]
        for number, move in enumerate(moves):
            # the two processes take turns: each load finds the other's move
            acting, other = (first, second) if number % 2 else (second, first)
            await play_moves(acting, info, [move])
            mine = (await acting.load(info.id)).state
            theirs = (await other.load(info.id)).state
            assert mine == theirs
            assert (await other.load(info.id)).seq == played + number + 1


@pytest.mark.sqlite_only
async def test_a_snapshot_changed_with_a_new_digest_is_read_from_the_store(
    tmp_path: Path,
) -> None:
    """A snapshot rewritten with a matching digest (as `check --repair` writes one) is
    what the next load returns, not the state kept from before."""
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        info, _ = await game_in_play(service, moves=12)
        state = (await service.load(info.id)).state
        assert state is not None
        changed = state.clone()
        changed.bag.reverse()
        assert changed != state
        seq, chain = (
            raw(path)
            .execute("SELECT seq, chain FROM snapshots WHERE game_id = ?", (info.id,))
            .fetchone()
        )
        text = MOUNTAIN_KING.state_to_json(changed)
        db = raw(path)
        db.execute(
            "UPDATE snapshots SET state = ?, digest = ? WHERE game_id = ?",
            (text, state_digest(seq, chain, text), info.id),
        )
        db.close()
        assert (await service.load(info.id)).state == changed
