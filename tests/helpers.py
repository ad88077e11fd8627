"""Small scenario builders for the rules tests.

Tests build a position by playing the draft and the gates with the first legal actions
(`drafted_game`), then mutate `game.state` directly: storage, troll cards and held
symbols in a trollsmoot, horde cards, bribes and pedestals, workshops on sites.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest

from rules import workshops
from rules.actions import PYRAMID_SLOTS, Action
from rules.content import TrollCard, load_content
from rules.game import Game
from rules.legal import KINDS, legal_actions
from rules.pyramid import horde_position
from rules.resources import Resource, symbol_name
from rules.state import State, Troll


def rulebook_text(language: str = "en") -> str:
    """The rulebook beside the project (`../shared/seeds/`, English, `pl` or `es`),
    whitespace folded, for tests that check a quoted line is really the rulebook's;
    skips without it."""
    seeds = Path(__file__).resolve().parents[2] / "shared" / "seeds"
    path = seeds / f"hotmk-rules-{language}.txt"
    if not path.exists():
        pytest.skip("the rulebook text is not beside the project")
    return " ".join(path.read_text(encoding="utf-8").split())


def gated_game(players: int = 2, seed: int = 1, **options: Any) -> Game:
    """A game whose gates are placed (the first legal gate each): everyone drafts now."""
    game = Game.new(players=players, seed=seed, **options)
    while game.state.phase == "gates":
        seat = game.state.gate_seat
        assert seat is not None
        game.play(seat, legal_actions(game.state, seat, "gate")[0])
    assert game.state.phase == "draft"
    return game


def drafted_game(players: int = 2, seed: int = 1, teams: bool = False, **options: Any) -> Game:
    """A game in its first turn: every player kept 4 starting trolls and placed a gate
    (always the first legal keep and gate actions)."""
    game = Game.new(players=players, seed=seed, teams=teams, **options)
    while game.state.phase in ("gates", "draft"):
        if game.state.phase == "gates":
            seat = game.state.gate_seat
            assert seat is not None
            game.play(seat, legal_actions(game.state, seat, "gate")[0])
            continue
        for seat in range(players):
            keeps = legal_actions(game.state, seat, "keep")
            if keeps:
                game.play(seat, keeps[0])
    assert game.state.phase == "play"
    return game


def first_legal(state: State, seat: int, kind: str) -> Action:
    actions = legal_actions(state, seat, kind)
    assert actions, f"seat {seat} has no legal {kind} action"
    return actions[0]


def set_storage(state: State, seat: int, **counts: int) -> None:
    """Empty the player's storage, then put the given resources in it."""
    storage = state.account_of(seat).storage
    for name in storage:
        storage[name] = 0
    for name, n in counts.items():
        assert name in storage, name
        storage[name] = n


def storage(state: State, seat: int) -> dict[str, int]:
    return {k: v for k, v in state.account_of(seat).storage.items() if v}


def empty_trolls(state: State, seat: int) -> None:
    """Every troll of the player holds nothing."""
    for troll in state.players[seat].pyramid.values():
        troll.held = [False] * len(troll.held)


def put_troll(
    state: State, seat: int, slot: str, card: str, held: Sequence[bool] | bool = False
) -> Troll:
    """Put `card` in a pyramid slot; `held` is one flag per produce symbol (or one for all)."""
    n = len(load_content().trolls[card].produce)
    flags = [held] * n if isinstance(held, bool) else list(held)
    assert len(flags) == n, f"{card} shows {n} symbols"
    troll = Troll(card, flags)
    state.players[seat].pyramid[slot] = troll
    return troll


def fill_pyramid(
    state: State, seat: int, count: int, held: bool = False, card: str | None = None
) -> None:
    """Fill the pyramid in slot order (A1..D1) up to `count` trolls with level-1 cards
    (all `card` if given)."""
    pyramid = state.players[seat].pyramid
    filler = [card] if card is not None else cards(1)
    for slot in PYRAMID_SLOTS:
        if len(pyramid) >= count:
            break
        if slot not in pyramid:
            put_troll(state, seat, slot, filler[len(pyramid) % len(filler)], held)
    for slot in PYRAMID_SLOTS[count:]:
        pyramid.pop(slot, None)
    assert len(pyramid) == count


def cards(level: int, where: Callable[[TrollCard], bool] | None = None) -> list[str]:
    """Horde card ids of a level (sorted), optionally filtered."""
    return sorted(
        c.id
        for c in load_content().trolls.values()
        if not c.starting and c.level == level and (where is None or where(c))
    )


def symbols(card: str) -> list[str]:
    """The produce row of a card in notation names (`coin`, `fire-cart`, ...)."""
    return [symbol_name(r, c) for r, c in load_content().trolls[card].produce]


def shows(*names: str) -> Callable[[TrollCard], bool]:
    """Card filter: the produce row shows every given symbol name."""

    def check(card: TrollCard) -> bool:
        row = [symbol_name(r, c) for r, c in card.produce]
        return all(row.count(n) >= list(names).count(n) for n in names)

    return check


def set_horde(
    state: State,
    slot: str,
    card: str | None,
    bribes: Iterable[str] = (),
    pedestal: str | None = None,
) -> None:
    row, j = horde_position(slot)
    hs = state.horde[row][j]
    hs.card = card
    hs.bribes = list(bribes)
    hs.pedestal = pedestal


def horde_bribes(state: State, slot: str) -> list[str]:
    row, j = horde_position(slot)
    return state.horde[row][j].bribes


def open_workshop(
    monkeypatch: pytest.MonkeyPatch, state: State, site: str, workshop: str, entrances: int
) -> None:
    """Put a workshop on a site and let every player reach it through `entrances` open
    entrances (the board's reachability is stubbed until the grid exists)."""
    state.board.workshops[site] = workshop
    monkeypatch.setattr(
        workshops, "workshop_uses", lambda st, seat, s: entrances if s == site else 0
    )


def finish_turn(game: Game) -> int:
    """End the current turn (first recruiting, or digging, with the first legal action
    if the player must). Returns the seat whose turn it was."""
    state = game.state
    seat = state.current_seat
    assert seat is not None
    if not legal_actions(state, seat, "end"):
        main = [k for k in ("recruit", "dig") if k in KINDS and legal_actions(state, seat, k)]
        assert main, f"seat {seat} can neither end nor recruit nor dig"
        game.play(seat, first_legal(state, seat, main[0]))
    game.play(seat, "end")
    return seat


def resources(*names: str) -> tuple[Resource, ...]:
    return tuple(Resource(n) for n in names)
