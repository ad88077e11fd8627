"""Team mode on the board: partners may touch and join their networks, opponents may
not; a joined network's statues and halls score once for the team."""

from __future__ import annotations

import pytest
from helpers import set_storage
from mountain_helpers import area_block, at, cleared_game, put_gate, put_tunnel

from rules.actions import Dig
from rules.content import load_content
from rules.errors import IllegalActionError
from rules.mountain import geo, own_network
from rules.resources import Resource
from rules.scoring import final_outcome


def _dig(cells: list[str]) -> Dig:
    return Dig("I2", tuple(cells), cells[0], Resource.STONE)


def test_partners_may_touch_and_then_share_one_network(monkeypatch: pytest.MonkeyPatch) -> None:
    o = area_block(4, 1)
    game = cleared_game(monkeypatch, 4, teams=True)
    state = game.state
    put_gate(state, 0, at(o, 0, 0))
    put_gate(state, 3, at(o, 3, 0))  # seat 3 is seat 0's partner
    set_storage(state, 0, stone=2)
    g = geo(state)
    assert not own_network(state, 0) & g.mask([at(o, 3, 0)])
    game.play(0, _dig([at(o, 1, 0), at(o, 2, 0)]))
    joined = g.mask([at(o, i, 0) for i in range(4)])
    assert own_network(game.state, 0) == joined
    assert own_network(game.state, 3) == joined


def test_opposing_team_may_not_be_touched(monkeypatch: pytest.MonkeyPatch) -> None:
    o = area_block(4, 1)
    game = cleared_game(monkeypatch, 4, teams=True)
    put_gate(game.state, 0, at(o, 0, 0))
    put_gate(game.state, 1, at(o, 3, 0))  # seat 1 plays for the other team
    set_storage(game.state, 0, stone=2)
    with pytest.raises(IllegalActionError) as info:
        game.play(0, _dig([at(o, 1, 0), at(o, 2, 0)]))
    assert info.value.code == "touches_opponent"


def test_joined_team_network_scores_each_statue_once(monkeypatch: pytest.MonkeyPatch) -> None:
    o = area_block(4, 1)
    game = cleared_game(monkeypatch, 4, teams=True)
    state = game.state
    put_gate(state, 0, at(o, 0, 0))
    put_gate(state, 3, at(o, 3, 0))
    put_tunnel(state, 0, [at(o, 1, 0), at(o, 2, 0)])
    state.board.statues[at(o, 1, 0)] = "fire"
    state.phase = "over"
    outcome = final_outcome(state)
    team = next(b for b in outcome.breakdowns if b.seats == (0, 3))
    other = next(b for b in outcome.breakdowns if b.seats == (1, 2))
    tier = geo(state).tier(at(o, 1, 0))
    assert team.statues == load_content().tables.statue_values[tier - 1]
    assert other.statues == 0


def test_team_storage_pays_for_either_partners_dig(monkeypatch: pytest.MonkeyPatch) -> None:
    o = area_block(3, 1)
    game = cleared_game(monkeypatch, 4, teams=True)
    state = game.state
    put_gate(state, 0, at(o, 0, 0))
    set_storage(state, 3, stone=2)  # seat 3's storage is the team storage
    assert state.account_of(0) is state.account_of(3)
    game.play(0, _dig([at(o, 1, 0), at(o, 2, 0)]))
    assert game.state.account_of(3).storage["stone"] == 0
