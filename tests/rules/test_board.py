"""Board rules as small scenarios on the real mountain: digging, networks, pedestals,
great halls, statue moves, workshop entrances and the final scoring example."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from helpers import cards, put_troll, set_storage, shows, storage
from mountain_helpers import (
    area_block,
    at,
    cleared_game,
    plain_block,
    plain_cells,
    put_gate,
    put_tunnel,
)

from rules import engine, halls, mountain, statues, tunnels, workshops
from rules.actions import DedicateHall, Dig, MoveStatue, Pay, parse_action
from rules.content import load_content
from rules.errors import IllegalActionError
from rules.game import Game
from rules.grid import cell_name, neighbours, parse_cell
from rules.mountain import geo, own_network
from rules.resources import Clan, Resource
from rules.scoring import final_outcome
from rules.selfplay import play_random_game
from rules.shapes import Variant, hall_variants
from rules.state import PedestalToken, State, make_config

STONE = Resource.STONE


def dig(cells: list[str], anchor: str | None = None, shape: str = "I2", **kw: object) -> Dig:
    return Dig(shape, tuple(cells), anchor if anchor else cells[0], STONE, **kw)  # type: ignore[arg-type]


def refused(game_play: object, code: str) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as info:
        game_play()  # type: ignore[operator]
    assert info.value.code == code, info.value
    return info.value


def test_tunnel_may_touch_an_opponent_diagonally_but_not_along_an_edge(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = cleared_game(monkeypatch, 2)
    state = game.state
    o = plain_block(state, 6, 3)
    put_gate(state, 0, at(o, 0, 0))
    put_gate(state, 1, at(o, 3, 1))
    set_storage(state, 0, stone=6)
    before = state.to_json()
    err = refused(
        lambda: game.play(0, dig([at(o, 1, 0), at(o, 2, 0), at(o, 3, 0)], at(o, 2, 0), "I3")),
        "touches_opponent",
    )
    assert "Orange" in err.message and at(o, 3, 0) in err.message
    assert err.cell == at(o, 3, 0)  # the cell a dig preview crosses out
    assert game.state.to_json() == before
    # the same tile one cell shorter only touches the orange gate diagonally
    game.play(0, dig([at(o, 1, 0), at(o, 2, 0)]))
    assert game.state.account_of(0).storage["stone"] == 4


def test_tunnel_must_extend_your_own_network(monkeypatch: pytest.MonkeyPatch) -> None:
    game = cleared_game(monkeypatch, 2)
    o = plain_block(game.state, 5, 2)
    put_gate(game.state, 0, at(o, 0, 0))
    set_storage(game.state, 0, stone=4)
    refused(lambda: game.play(0, dig([at(o, 3, 0), at(o, 4, 0)])), "not_connected")


def test_tunnel_may_not_cover_the_heart_or_leave_the_mountain(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = cleared_game(monkeypatch, 2)
    g = geo(game.state)
    heart = g.cells(g.heart)[0]
    x, y = parse_cell(heart)
    outside = cell_name((x - 2, y))
    put_gate(game.state, 0, outside)
    set_storage(game.state, 0, stone=4)
    refused(lambda: game.play(0, dig([cell_name((x - 1, y)), heart])), "heart")


def test_tile_cells_must_match_the_shape_and_its_anchor(monkeypatch: pytest.MonkeyPatch) -> None:
    game = cleared_game(monkeypatch, 2)
    o = plain_block(game.state, 4, 3)
    put_gate(game.state, 0, at(o, 0, 0))
    set_storage(game.state, 0, stone=4)
    # an L of three cells is not an I3
    refused(
        lambda: game.play(0, dig([at(o, 1, 0), at(o, 2, 0), at(o, 2, 1)], at(o, 2, 0), "I3")),
        "wrong_shape",
    )
    # the I3's anchor is its middle cell
    refused(
        lambda: game.play(0, dig([at(o, 1, 0), at(o, 2, 0), at(o, 3, 0)], at(o, 1, 0), "I3")),
        "wrong_shape",
    )


def test_dig_scores_at_once_from_the_tunnel_table(monkeypatch: pytest.MonkeyPatch) -> None:
    game = cleared_game(monkeypatch, 2)
    o = plain_block(game.state, 5, 2)
    put_gate(game.state, 0, at(o, 0, 0))
    set_storage(game.state, 0, stone=4, iron=4)
    cells = [at(o, 1, 0), at(o, 2, 0), at(o, 3, 0), at(o, 4, 0)]
    game.play(0, Dig("I4", tuple(cells), at(o, 2, 0), STONE))
    content = load_content()
    assert game.state.account_of(0).tunnel_honor == content.tunnel_score(4, STONE) == 4
    assert game.state.account_of(0).storage["stone"] == 0
    assert game.state.tunnels_left["I4"] == 2


def test_rubble_without_hammers_is_refused_and_costs_one_hammer_each(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    o = area_block(3, 1)
    gate, near, rubble = at(o, 0, 0), at(o, 1, 0), at(o, 2, 0)
    game = cleared_game(monkeypatch, 2, rubble=(rubble,))
    put_gate(game.state, 0, gate)
    set_storage(game.state, 0, stone=2)
    refused(lambda: game.play(0, dig([near, rubble])), "cannot_afford")
    set_storage(game.state, 0, stone=2, hammer=2)
    game.play(0, dig([near, rubble]))
    assert storage(game.state, 0) == {"hammer": 1}


def test_stonebreakers_song_makes_rubble_free(monkeypatch: pytest.MonkeyPatch) -> None:
    o = area_block(3, 1)
    gate, near, rubble = at(o, 0, 0), at(o, 1, 0), at(o, 2, 0)
    game = cleared_game(monkeypatch, 2, rubble=(rubble,))
    put_gate(game.state, 0, gate)
    set_storage(game.state, 0, stone=2)
    assert game.state.turn is not None
    game.state.turn.flags.append(tunnels.FLAG_FREE_RUBBLE)
    game.play(0, dig([near, rubble]))
    assert storage(game.state, 0) == {}


def test_buried_resources_go_to_storage_and_statues_are_unearthed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    o = area_block(3, 1)
    gate, near, far = at(o, 0, 0), at(o, 1, 0), at(o, 2, 0)
    game = cleared_game(monkeypatch, 2, buried={near: "heartstone"})
    state = game.state
    put_gate(state, 0, gate)
    state.board.statues[far] = "fire"
    set_storage(state, 0, stone=2)
    assert statues.movable_statues(state, 0) == []
    game.play(0, dig([near, far]))
    assert statues.movable_statues(game.state, 0) == [far]
    assert storage(game.state, 0) == {"heartstone": 1}


def test_pedestal_tier_example_moon_taken_fire_placed_token_three(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Rulebook: a Moon pedestal already stands on the yellow tier, so your Moon
    pedestal may not go there, but your Fire pedestal may; you take the Fire token of
    the yellow tier (worth 3 in the example)."""
    game = cleared_game(monkeypatch, 2)
    state = game.state
    g = geo(state)
    plain = plain_cells(state)
    yellow = next(c for c in sorted(plain) if g.tier(c) == 5 and _free_line(state, c, plain))
    near, far = _free_line(state, yellow, plain)
    put_gate(state, 0, far)
    state.pedestal_track["5:moon"] = None
    state.pedestal_track["5:fire"] = 3
    account = state.account_of(0)
    account.pedestals.update(fire=1, moon=1)
    set_storage(state, 0, stone=2)
    refused(
        lambda: game.play(0, dig([near, yellow], yellow, pedestal=Clan.MOON)), "pedestal_tier_used"
    )
    game.play(0, dig([near, yellow], yellow, pedestal=Clan.FIRE))
    account = game.state.account_of(0)
    assert account.tokens == [PedestalToken(5, "fire", 3)]
    assert account.pedestals == {"fire": 0, "ice": 0, "moon": 1}
    assert game.state.pedestal_track["5:fire"] is None
    piece = game.state.board.pieces[-1]
    assert piece.anchor == yellow and piece.pedestal == "fire"


def _free_line(state: State, cell: str, plain: set[str]) -> tuple[str, str] | None:
    x, y = parse_cell(cell)
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        a, b = cell_name((x + dx, y + dy)), cell_name((x + 2 * dx, y + 2 * dy))
        if a in plain and b in plain:
            return a, b
    return None


def _trove_scene(monkeypatch: pytest.MonkeyPatch) -> tuple[object, str, str, str]:
    """Blue owns two I3 tunnels forming a 3x2 block under a gate; the upper one has an
    Ice pedestal on its anchor, a Moon statue stands on the lower one."""
    game = cleared_game(monkeypatch, 2)
    state = game.state
    o = plain_block(state, 3, 3)
    put_gate(state, 0, at(o, 0, 0))
    top = [at(o, 0, 1), at(o, 1, 1), at(o, 2, 1)]
    bottom = [at(o, 0, 2), at(o, 1, 2), at(o, 2, 2)]
    put_tunnel(state, 0, top, shape="I3", anchor=top[1], pedestal="ice")
    put_tunnel(state, 0, bottom, shape="I3", anchor=bottom[1])
    state.pedestal_track["2:ice"] = None
    state.account_of(0).tokens.append(PedestalToken(2, "ice", 2))
    statue = bottom[0]
    state.board.statues[statue] = "moon"
    assert state.turn is not None
    state.turn.main_done = True
    state.turn.step = 3
    return game, top[1], statue, " ".join([*top, *bottom])


def test_trove_removes_the_pedestal_keeps_the_statue_and_scores_6_then_15(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game, pedestal_cell, statue, cells = _trove_scene(monkeypatch)
    state = game.state  # type: ignore[attr-defined]
    hall_cells = tuple(cells.split())
    troves = [h for h in halls.hall_placements(state, 0) if h.hall == "trove"]
    assert troves, "the trove fits the 3x2 block"
    hall = next(h for h in troves if h.altar == pedestal_cell)
    assert set(hall.cells) == set(hall_cells)
    game.play(0, hall)  # type: ignore[attr-defined]
    state = game.state  # type: ignore[attr-defined]
    assert state.board.lost_pedestals == 1
    assert state.account_of(0).tokens == [PedestalToken(2, "ice", 2)]  # token kept
    assert state.pedestal_track["2:ice"] is None  # the clan/tier stays used
    assert state.board.statues == {statue: "moon"}
    assert [p.kind for p in state.board.pieces] == ["gate", "hall"]
    assert final_outcome(state).breakdowns[0].halls == 6
    state.board.statues = {hall.altar: "moon"}
    assert final_outcome(state).breakdowns[0].halls == 15
    assert final_outcome(state).breakdowns[0].statues == 0  # only the altar scores


def test_hall_must_lie_exactly_on_your_own_tunnels(monkeypatch: pytest.MonkeyPatch) -> None:
    game, _, _, cells = _trove_scene(monkeypatch)
    state = game.state  # type: ignore[attr-defined]
    wrong = DedicateHall("shamans-lodge", tuple(cells.split()[:2]), cells.split()[0])
    with pytest.raises(IllegalActionError):
        game.play(0, wrong)  # type: ignore[attr-defined]
    # the lodge (2x2) fits over parts of both tunnels; the rest become separate tunnels
    lodge = next(h for h in halls.hall_placements(state, 0) if h.hall == "shamans-lodge")
    game.play(0, lodge)  # type: ignore[attr-defined]
    kinds = sorted(p.kind for p in game.state.board.pieces)  # type: ignore[attr-defined]
    assert kinds == ["gate", "hall", "tunnel", "tunnel"]


def test_partly_covered_tunnel_splits_into_separate_tunnels(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = cleared_game(monkeypatch, 2)
    state = game.state
    o = plain_block(state, 5, 3)
    put_gate(state, 0, at(o, 2, 0))
    line = [at(o, i, 1) for i in range(5)]
    put_tunnel(state, 0, line, shape="I5", anchor=None)
    lower = [at(o, 1, 2), at(o, 2, 2), at(o, 3, 2)]
    put_tunnel(state, 0, lower, shape="I3", anchor=lower[1])
    assert state.turn is not None
    state.turn.main_done, state.turn.step = True, 3
    # a Crucible (T) over the middle of the line and the middle of the I3
    hall = next(
        h
        for h in halls.hall_placements(state, 0)
        if h.hall == "crucible" and set(h.cells) == {line[1], line[2], line[3], lower[1]}
    )
    game.play(0, hall)
    remnants = sorted(
        (sorted(p.cells) for p in game.state.board.pieces if p.kind == "tunnel"), key=str
    )
    assert remnants == sorted([[line[0]], [line[4]], [lower[0]], [lower[2]]], key=str)


def _carts_on_trolls(state: State, seat: int) -> None:
    """Trolls holding a Fire cart, a Moon cart and a wild cart."""
    fire = cards(1, shows("fire-cart"))[0]
    moon = cards(1, shows("moon-cart"))[0]
    wild = cards(1, lambda c: any(r == Resource.CART and k is None for r, k in c.produce))[0]
    for slot, card in (("A1", fire), ("A2", moon), ("A3", wild)):
        content = load_content().trolls[card]
        put_troll(state, seat, slot, card, [r == Resource.CART for r, _ in content.produce])


def test_statue_move_example_from_the_rulebook(monkeypatch: pytest.MonkeyPatch) -> None:
    """Moon cart moves the Moon statue onto the altar; the Fire cart and two wild carts
    move the Fire statue three times; a traded cart makes the fourth move onto the Fire
    pedestal."""
    game = cleared_game(monkeypatch, 2)
    state = game.state
    o = plain_block(state, 7, 3)
    put_gate(state, 0, at(o, 0, 0))
    chain = [[at(o, 1, 0)], [at(o, 2, 0)], [at(o, 3, 0)], [at(o, 4, 0)], [at(o, 5, 0)]]
    for cells in chain[:-1]:
        put_tunnel(state, 0, cells, shape="I2")
    put_tunnel(state, 0, chain[-1], shape="I2", anchor=chain[-1][0], pedestal="fire")
    hall_cells = [at(o, 0, 1), at(o, 1, 1), at(o, 0, 2), at(o, 1, 2)]
    mountain.add_piece(state, "hall", "shamans-lodge", 0, hall_cells, altar=at(o, 1, 2))
    state.board.statues[at(o, 0, 1)] = "moon"
    state.board.statues[at(o, 1, 0)] = "fire"
    _carts_on_trolls(state, 0)
    set_storage(state, 0, cart=1, coin=2, rune=1, hammer=1)
    assert state.turn is not None
    state.turn.main_done, state.turn.step = True, 3

    moon_cart = next(t for t in statues.cart_tokens(state, 0, "moon") if t.cart_clan == Clan.MOON)
    fire_cart = next(t for t in statues.cart_tokens(state, 0, "fire") if t.cart_clan == Clan.FIRE)
    # a Moon cart cannot move the Fire statue
    refused(lambda: game.play(0, MoveStatue(at(o, 1, 0), at(o, 2, 0), (moon_cart,))), "clan_cart")
    game.play(0, MoveStatue(at(o, 0, 1), at(o, 1, 2), (moon_cart,)))
    game.play(0, MoveStatue(at(o, 1, 0), at(o, 2, 0), (fire_cart,)))
    game.play(0, parse_action(f"move {at(o, 2, 0)}>{at(o, 3, 0)} pay cart@A3"))
    game.play(0, parse_action(f"move {at(o, 3, 0)}>{at(o, 4, 0)} pay cart@store"))
    refused(lambda: game.play(0, MoveStatue(at(o, 4, 0), at(o, 5, 0))), "cannot_afford")
    game.play(0, "trade 2coin+hammer+rune>cart")
    game.play(0, MoveStatue(at(o, 4, 0), at(o, 5, 0)))
    assert game.state.board.statues == {at(o, 1, 2): "moon", at(o, 5, 0): "fire"}
    line = final_outcome(game.state).breakdowns[0]
    g = geo(game.state)
    values = load_content().tables.statue_values
    assert line.statues == 2 * values[g.tier(at(o, 5, 0)) - 1]
    assert line.halls == 11  # Shaman's Lodge with a statue on its altar


def test_statue_moves_only_into_the_same_or_an_adjacent_tunnel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = cleared_game(monkeypatch, 2)
    state = game.state
    o = plain_block(state, 6, 1)
    put_gate(state, 0, at(o, 0, 0))
    put_tunnel(state, 0, [at(o, 1, 0), at(o, 2, 0)])
    put_tunnel(state, 0, [at(o, 3, 0), at(o, 4, 0)])
    put_tunnel(state, 0, [at(o, 5, 0)])
    state.board.statues[at(o, 1, 0)] = "ice"
    assert statues.statue_moves(state, 0, at(o, 1, 0)) == [
        at(o, 0, 0),
        at(o, 2, 0),
        at(o, 3, 0),
        at(o, 4, 0),
    ]
    set_storage(state, 0, cart=1)
    assert state.turn is not None
    state.turn.main_done, state.turn.step = True, 3
    refused(lambda: game.play(0, MoveStatue(at(o, 1, 0), at(o, 5, 0))), "too_far")


def test_isolated_tunnel_is_nobodys_until_someone_connects_to_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = cleared_game(monkeypatch, 2)
    state = game.state
    o = plain_block(state, 6, 1)
    put_gate(state, 1, at(o, 0, 0))
    lonely = [at(o, 3, 0), at(o, 4, 0)]
    put_tunnel(state, 0, lonely)  # laid by blue, now cut off from every gate
    g = geo(state)
    assert not own_network(state, 0) & g.mask(lonely)
    assert not own_network(state, 1) & g.mask(lonely)
    state.turn.seat = 1  # type: ignore[union-attr]
    set_storage(state, 1, stone=2)
    # orange may dig right next to it: it is nobody's network
    game.play(1, dig([at(o, 1, 0), at(o, 2, 0)]))
    assert own_network(game.state, 1) & g.mask(lonely) == g.mask(lonely)


def test_workshop_uses_count_open_entrances_from_every_network(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    o = area_block(3, 3, side="autumn")
    site = at(o, 1, 1)
    game = cleared_game(monkeypatch, 3, sites=(site,))
    state = game.state
    state.board.workshops[site] = "stonemill"
    put_gate(state, 0, at(o, 0, 1))  # blue touches the left entrance
    put_gate(state, 1, at(o, 1, 0))  # orange touches the top entrance
    assert workshops.workshop_uses(state, 0, site) == 2
    assert workshops.workshop_uses(state, 1, site) == 2
    assert workshops.workshop_uses(state, 2, site) == 0  # green's network touches no entrance
    set_storage(state, 0, stone=3)
    game.play(0, f"use {site} stone>iron")
    game.play(0, f"use {site} stone>iron")
    refused(lambda: game.play(0, f"use {site} stone>iron"), "no_uses_left")
    assert storage(game.state, 0) == {"stone": 1, "iron": 2}


def test_digging_next_to_a_site_may_establish_a_workshop_from_the_supply(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    o = area_block(3, 2)
    site = at(o, 2, 1)
    game = cleared_game(monkeypatch, 2, sites=(site,))
    state = game.state
    put_gate(state, 0, at(o, 0, 0))
    set_storage(state, 0, stone=2)
    cells = [at(o, 1, 0), at(o, 2, 0)]
    refused(lambda: game.play(0, dig(cells, workshops=((site, "nope"),))), "no_workshop_left")
    refused(
        lambda: game.play(0, dig([at(o, 1, 0), at(o, 1, 1)], workshops=((at(o, 1, 1), "x"),))),
        "no_site",
    )
    workshop = state.workshop_supply[0]
    supply = list(state.workshop_supply)
    options = [d for d in tunnels.dig_actions(state, 0) if d.workshops]
    assert all(d.workshops[0][0] == site for d in options)
    assert {d.workshops[0][1] for d in options} == set(supply)
    game.play(0, dig(cells, workshops=((site, workshop),)))
    assert game.state.board.workshops == {site: workshop}
    supply.remove(workshop)
    assert game.state.workshop_supply == supply
    # a site may also be reached by a dig that does not establish anything
    assert cells[1] in game.state.board.pieces[-1].cells


def test_final_scoring_example_totals_111(monkeypatch: pytest.MonkeyPatch) -> None:
    """43 tunnels + 3 coronation + 11 pedestal tokens + 1 set + great halls 0 and 15 +
    statues 20, 10 and 8 = 111."""
    game = cleared_game(monkeypatch, 2)
    state = game.state
    g = geo(state)
    account = state.account_of(0)
    account.tunnel_honor = 43
    account.coronation = [3]
    account.tokens = [
        PedestalToken(5, "fire", 5),
        PedestalToken(2, "ice", 4),
        PedestalToken(3, "moon", 2),
    ]
    set_storage(state, 0, stone=3)
    plain = sorted(plain_cells(state))
    yellow = [c for c in plain if g.tier(c) == 5]
    gray = [c for c in plain if g.tier(c) == 2]
    # the whole network is one snake of one-cell tunnels from a gate, so that every
    # piece below is connected; each scoring piece is its own tunnel
    gate = gray[0]
    put_gate(state, 0, gate)
    pieces = {
        yellow[0]: ("fire", "fire"),  # statue on a matching pedestal: 10 x 2
        yellow[-1]: ("ice", None),  # yellow statue without pedestal: 10
        gray[-1]: ("moon", "moon"),  # gray statue on matching pedestal: 4 x 2
    }
    _connect_all(state, 0, [gate, *pieces])
    for cell, (clan, pedestal) in pieces.items():
        piece = next(p for p in state.board.pieces if p.cells == [cell])
        piece.anchor = cell
        piece.pedestal = pedestal
        state.board.statues[cell] = clan
    state.board.pieces.sort(key=lambda p: p.id)
    lodge, trove = _two_halls(state)
    state.board.statues[trove] = "moon"
    assert lodge
    state.phase = "over"
    line = final_outcome(state).breakdowns[0]
    assert (line.tunnels, line.coronation, line.pedestals, line.sets) == (43, 3, 11, 1)
    assert (line.halls, line.statues) == (15, 38)
    assert line.total == 111


def _connect_all(state: State, seat: int, cells: list[str]) -> None:
    """Lay one-cell tunnels along shortest free paths so all `cells` join the network."""
    from collections import deque

    from rules.mountain import invalidate

    ok = plain_cells(state)
    laid = {cells[0]}
    for target in cells[1:]:
        prev: dict[str, str | None] = {c: None for c in laid}
        queue = deque(laid)
        while queue:
            cur = queue.popleft()
            if cur == target:
                break
            for n in neighbours(parse_cell(cur)):
                name = cell_name(n) if 0 <= n[0] < 26 and n[1] >= 0 else ""
                if name in ok and name not in prev:
                    prev[name] = cur
                    queue.append(name)
        step: str | None = target
        while step is not None and step not in laid:
            put_tunnel(state, seat, [step])
            laid.add(step)
            step = prev[step]
    invalidate(state.board)


def _two_halls(state: State) -> tuple[str, str]:
    """A Shaman's Lodge (empty altar: 0) and a Trove (statue on its altar: 15) laid as
    hall pieces next to the network's gate region."""
    g = geo(state)
    taken = set().union(*(p.cells for p in state.board.pieces))
    plain = plain_cells(state) - taken
    network = own_network(state, 0)
    found: list[str] = []
    for hall_id, w, h in (("shamans-lodge", 2, 2), ("trove", 3, 2)):
        for cell in sorted(plain):
            x, y = parse_cell(cell)
            block = [cell_name((x + dx, y + dy)) for dy in range(h) for dx in range(w)]
            if all(c in plain for c in block) and g.spread(g.mask(block)) & network:
                mountain.add_piece(state, "hall", hall_id, 0, block, altar=block[1])
                plain -= set(block)
                plain -= {cell_name(n) for c in block for n in neighbours(parse_cell(c))}
                found.append(block[1])
                break
        else:
            raise AssertionError(f"no room for {hall_id}")
    return found[0], found[1]


def test_explicit_pay_item_types() -> None:
    assert str(Pay(Resource.CART, "A1", Clan.FIRE)) == "fire-cart@A1"


def _on_the_grid(
    state: State, variants: tuple[Variant, ...]
) -> Iterator[tuple[tuple[str, ...], str | None]]:
    """Each orientation at every corner of the grid where it fits: its cells and its
    marked cell (anchor or altar)."""
    g = geo(state)
    for variant in variants:
        for x in range(g.width - variant.width + 1):
            for y in range(g.height - variant.height + 1):
                names = tuple(cell_name((x + dx, y + dy)) for dx, dy in variant.cells)
                yield names, None if variant.mark is None else names[variant.mark]


def _accepted_digs(state: State, seat: int) -> set[tuple[str, frozenset[str]]]:
    """Every tile position `check_dig` accepts (paid in stone), found by trying each
    orientation of each tile left at every corner of the grid."""
    found = set()
    for shape, left in state.tunnels_left.items():
        if left <= 0:
            continue
        for names, anchor in _on_the_grid(state, tunnels.tunnel_variants(shape)):
            try:
                tunnels.check_dig(state, seat, Dig(shape, names, anchor, STONE))
            except IllegalActionError:
                continue
            found.add((shape, frozenset(names)))
    return found


@pytest.mark.parametrize(("players", "seed"), [(4, 0), (2, 5)])
def test_every_tunnel_position_the_engine_accepts_is_listed(players: int, seed: int) -> None:
    """An L3 or a T4 leaves the corner of its bounding box empty: a position whose
    corner is dug or off the mountain is still legal, and must be listed (so the AI,
    the random player and the bot's suggestions see it)."""
    game = play_random_game(make_config(players=players), seed)
    replay = Game(game.config, game.seed)
    checked = missing_before = 0
    step = max(1, len(game.moves) // 6)
    for index, move in enumerate(game.moves):
        state, seat = replay.state, move.seat
        engine.apply(state, seat, move.action)
        if index % step or state.phase != "play":
            continue
        accepted = _accepted_digs(state, seat)
        listed = {(p.shape, frozenset(p.cells)) for p in tunnels.placements(state, seat)}
        assert accepted == listed
        checked += len(accepted)
        missing_before += sum(1 for shape, cells in accepted if shape in ("L3", "T4"))
    assert checked > 50 and missing_before > 0


def _accepted_halls(state: State, seat: int) -> set[tuple[str, frozenset[str], str | None]]:
    """Every great hall position `check_hall` accepts, tried at every grid corner."""
    found = set()
    for hall in state.halls_left:
        for names, altar in _on_the_grid(state, hall_variants(hall)):
            try:
                halls.check_hall(state, seat, DedicateHall(hall, names, altar))
            except IllegalActionError:
                continue
            found.add((hall, frozenset(names), altar))
    return found


def test_every_great_hall_position_the_engine_accepts_is_listed() -> None:
    """The same for great halls: a rotated hall need not cover its bounding box's
    corner either."""
    game = play_random_game(make_config(players=2), 7)
    state = Game(game.config, game.seed).state
    checked = 0
    for index, move in enumerate(game.moves):
        engine.apply(state, move.seat, move.action)
        if index % 10 or state.phase != "play":
            continue
        for seat in range(2):
            accepted = _accepted_halls(state, seat)
            listed = {
                (h.hall, frozenset(h.cells), h.altar) for h in halls.hall_placements(state, seat)
            }
            assert accepted == listed
            checked += len(accepted)
    assert checked > 5
