"""Scenario builders for board tests: a drafted game with the board cleared, gates put
where the test wants them, and cells found on the real board by what they hold."""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers import drafted_game, empty_trolls, set_storage

from rules import mountain
from rules.game import Game
from rules.grid import cell_name, parse_cell
from rules.mountain import geo, geometry, invalidate
from rules.resources import Resource
from rules.state import State


def cleared_game(
    monkeypatch: pytest.MonkeyPatch,
    players: int = 2,
    seed: int = 1,
    *,
    rubble: tuple[str, ...] = (),
    sites: tuple[str, ...] = (),
    buried: dict[str, str] | None = None,
    **options: object,
) -> Game:
    """A game in seat 0's first turn on an empty mountain: the real side's tiers and
    Heart, but only the rubble, workshop sites and buried resources the test names; no
    gates, statues or workshops; empty trolls and empty storages."""
    game = drafted_game(players, seed, **options)  # type: ignore[arg-type]
    real = geometry(game.state.config.board_side)
    blank = replace(
        real,
        rubble=real.mask(list(rubble)),
        sites=real.mask(list(sites)),
        buried={real.bit(c): Resource(r) for c, r in (buried or {}).items()},
    )
    monkeypatch.setattr(mountain, "geometry", lambda side, layout=0: blank)
    state = game.state
    state.board.pieces.clear()
    state.board.statues.clear()
    state.board.workshops.clear()
    invalidate(state.board)
    for seat in range(players):
        empty_trolls(state, seat)
        set_storage(state, seat)
    return game


def plain_cells(state: State) -> set[str]:
    """Mountain cells with nothing that changes a dig (not the Heart, no rubble,
    buried resource or workshop site)."""
    g = geo(state)
    special = g.rubble | g.sites
    return {c for c in g.bits if (1 << g.bit(c)) & g.area & ~special and g.bit(c) not in g.buried}


def plain_block(state: State, width: int, height: int) -> tuple[int, int]:
    """Top-left (x, y) of a width x height block of plain cells (searching from the
    top-left corner)."""
    plain = plain_cells(state)
    g = geo(state)
    for y in range(g.height - height + 1):
        for x in range(g.width - width + 1):
            if all(
                cell_name((x + dx, y + dy)) in plain for dx in range(width) for dy in range(height)
            ):
                return x, y
    raise AssertionError(f"no {width}x{height} block of plain cells on this board")


def at(origin: tuple[int, int], dx: int, dy: int) -> str:
    return cell_name((origin[0] + dx, origin[1] + dy))


def put_gate(state: State, seat: int, cell: str, name: str | None = None) -> None:
    mountain.add_piece(state, "gate", name or f"T{seat}", seat, [cell])


def put_tunnel(
    state: State,
    seat: int,
    cells: list[str],
    *,
    shape: str = "I2",
    anchor: str | None = None,
    pedestal: str | None = None,
) -> None:
    mountain.add_piece(
        state, "tunnel", shape, seat, cells, mineral="stone", anchor=anchor, pedestal=pedestal
    )


def xy(cell: str) -> tuple[int, int]:
    return parse_cell(cell)


def area_block(width: int, height: int, side: str = "winter") -> tuple[int, int]:
    """Top-left (x, y) of a width x height block of mountain cells (not the Heart) on a
    side, ignoring its features (for `cleared_game`'s blank mountain)."""
    g = geometry(side)
    for y in range(g.height - height + 1):
        for x in range(g.width - width + 1):
            cells = [cell_name((x + dx, y + dy)) for dx in range(width) for dy in range(height)]
            if all(c in g.bits and (1 << g.bit(c)) & g.area for c in cells):
                return x, y
    raise AssertionError(f"no {width}x{height} block on the {side} side")
