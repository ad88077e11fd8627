"""What a player may put in each option of a turn command (`rules.options`), without
Discord: every value offered completes to a legal action, what was typed in the other
options narrows the values (and is set aside when it is the one to mend), and the facts
beside a value (a dig's cost, honor and finds; a recruit's troll and bribes) are what
playing it does. (The same values with their labels, through discord.py, are held
against the engine in tests/bot/test_bot_suggestions_legal.py.)"""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache
from itertools import islice
from typing import Any

import pytest
from helpers import drafted_game, horde_bribes, set_storage
from mountain_helpers import area_block, at, cleared_game, put_gate

from rules import engine, options
from rules.actions import Action, Dig, parse_action
from rules.content import load_content
from rules.errors import RulesError
from rules.game import Game
from rules.legal import KINDS, kind_available, legal_actions, legal_moves
from rules.options import Asking, DigOffer, Row, consistent
from rules.payment import owned_counts
from rules.pyramid import ALL_HORDE_SLOTS
from rules.resources import MINERALS, Clan, Resource
from rules.selfplay import random_action
from rules.state import State
from rules.steps import seats_to_act

Filled = dict[str, str]


def _text(item: object) -> str:
    """An offered value as the command takes it."""
    match item:
        case DigOffer():
            return str(item.action)
        case options.StartOffer():
            return item.point
        case options.HordeOffer():
            return item.slot
        case options.TileOffer():
            return item.shape
        case options.CellsOffer():
            return item.cells
        case options.MineralOffer():
            return item.mineral.value
        case options.PedestalOffer():
            return item.clan.value
        case options.WorkshopOffer() | options.CastChoice():
            return item.value
        case options.SiteOffer():
            return item.site
        case options.StatueOffer():
            return item.cell
        case Clan():
            return item.value
        case str():
            return item
    if isinstance(item, Action):
        return str(item)
    raise AssertionError(f"no value in {item!r}")


Source = Callable[[Asking], Iterable[Any]]


def every_resource(asking: Asking) -> list[str]:
    """`/mk trade`'s `get`: a fixed choice of every resource, not autocompleted."""
    return [r.value for r in Resource]


# each turn command: its kind, its options (name, source, required) and the notation
# it sends (as bot/features does)
COMMANDS: dict[str, tuple[str | None, list[tuple[str, Source, bool]], Callable[[Filled], str]]] = {
    "act": (None, [("action", options.any_action, True)], lambda o: o["action"]),
    "gate": ("gate", [("point", options.start_points, True)], lambda o: f"gate {o['point']}"),
    "recruit": (
        "recruit",
        [
            ("troll", options.horde_slots, True),
            ("slot", options.pyramid_slots, True),
            ("pedestal", options.recruit_pedestals, False),
        ],
        lambda o: f"recruit {o['troll']} {o['slot']}" + _opt(" ", o.get("pedestal")),
    ),
    "dig": (
        "dig",
        [
            ("tile", options.tile_shapes, True),
            ("cells", options.tile_cells, True),
            ("mineral", options.dig_minerals, True),
            ("pedestal", options.dig_pedestals_offered, False),
            ("workshop", options.workshops_to_establish, False),
        ],
        lambda o: (
            f"dig {o['tile']} {o['cells']} {o['mineral']}"
            + _opt(" pedestal ", o.get("pedestal"))
            + _opt(" workshop ", o.get("workshop"))
        ),
    ),
    "cast": (
        "cast",
        [("spell", options.spells, True), ("choice", options.spell_choices, False)],
        lambda o: f"cast {o['spell']}" + _opt(" ", o.get("choice")),
    ),
    "use": (
        "use",
        [("site", options.workshop_sites, True), ("conversion", options.conversions, True)],
        lambda o: f"use {o['site']} {o['conversion']}",
    ),
    "trade": (
        "trade",
        [("give", options.trade_gives, True), ("get", every_resource, True)],
        lambda o: f"trade {o['give']}>{o['get']}",
    ),
    "hall": (
        "hall",
        [("hall", options.halls, True), ("cells", options.hall_cells, True)],
        lambda o: f"hall {o['hall']} {o['cells']}",
    ),
    "move": (
        "move",
        [("statue", options.statues, True), ("to", options.statue_targets, True)],
        lambda o: f"move {o['statue']}>{o['to']}",
    ),
}


def _opt(prefix: str, value: str | None) -> str:
    return "" if value is None else prefix + value


def _offered(state: State, seat: int, kind: str | None, source: Source, typed: Filled) -> list[str]:
    """The first values a source offers (as many as autocomplete looks at)."""
    asking = Asking(state, seat, kind, dict(typed))
    return list(dict.fromkeys(_text(item) for item in islice(source(asking), 3000)))


def _legal(state: State, seat: int, kind: str | None, text: str) -> bool:
    try:
        action = parse_action(text)
    except RulesError:
        return False
    return action in legal_moves(state, seat, kind)


def _completes(state: State, seat: int, command: str, filled: Filled, at: int) -> bool:
    """Whether the options from `at` on can be filled (each with one of its first few
    values; an optional one left out first) so that the command is a legal action."""
    kind, opts, notation = COMMANDS[command]
    if at == len(opts):
        return _legal(state, seat, kind, notation(filled))
    name, source, required = opts[at]
    if not required and _completes(state, seat, command, filled, at + 1):
        return True
    for value in _offered(state, seat, kind, source, filled)[:3]:
        if _completes(state, seat, command, {**filled, name: value}, at + 1):
            return True
    return False


def _positions(players: int, seed: int, every: int, limit: int) -> list[tuple[State, int]]:
    """Positions of a game played with random legal actions, one in `every`, with the
    seat to act."""
    rng = random.Random(seed)
    game = Game.new(players=players, seed=seed)
    out = []
    for n in range(limit):
        state = game.state
        if state.phase == "over":
            break
        seat = seats_to_act(state)[0]
        if n % every == 0:
            out.append((state.clone(), seat))
        game.play(seat, random_action(state, seat, rng))
    return out


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (3, 8), (4, 5)])
def test_every_value_offered_for_an_option_completes_to_a_legal_action(
    players: int, seed: int
) -> None:
    rng = random.Random(seed)
    asked: Counter[str] = Counter()
    for state, seat in _positions(players, seed, every=5, limit=3000):
        for command, (kind, opts, _) in COMMANDS.items():
            if kind is not None:
                offered = _offered(state, seat, kind, opts[0][1], {})
                available = kind_available(state, seat, kind)
                assert bool(offered) == available, (command, kind, available)
            filled: Filled = {}
            for n, (name, source, required) in enumerate(opts):
                if source is every_resource:
                    break  # a fixed choice, not autocompleted: `_completes` tries each
                values = _offered(state, seat, kind, source, filled)
                if required and n and not values:
                    raise AssertionError(f"{command} {name}: nothing offered after {filled}")
                sample = values[:2] + rng.sample(values[2:], min(3, len(values[2:])))
                for value in sample:
                    assert _completes(state, seat, command, {**filled, name: value}, n + 1), (
                        f"/mk {command} {filled} {name}={value} completes to no legal action"
                    )
                    asked[f"{command} {name}"] += 1
                if not values:
                    break
                filled[name] = rng.choice(values)
    for seen in ("act action", "recruit troll", "recruit slot", "dig tile", "dig cells"):
        assert asked[seen], f"no position asked {seen}"
    assert asked["dig mineral"] and asked["cast spell"] and asked["trade give"], asked


def test_the_seat_not_to_act_and_a_kind_not_allowed_are_offered_nothing() -> None:
    game = drafted_game(players=2, seed=4)
    state = game.state
    seat = seats_to_act(state)[0]
    assert list(options.tile_shapes(Asking(state, seat, "dig")))
    assert list(options.tile_shapes(Asking(state, 1 - seat, "dig"))) == []
    assert list(options.halls(Asking(state, seat, "hall"))) == []


# --- agreeing with the other options ---------------------------------------------------

ROWS = [
    Row(troll="1.1", slot="A1", pedestal=None),
    Row(troll="1.1", slot="A2", pedestal=None),
    Row(troll="3.1", slot="D1", pedestal="fire"),
    Row(troll="3.1", slot="D1", pedestal=None),
]
RECRUIT = ("troll", "slot", "pedestal")


@cache
def _first_turn() -> State:
    return drafted_game(players=2, seed=4).state


def _agreeing(option: str, **typed: str) -> list[Row]:
    asking = Asking(_first_turn(), 0, "recruit", typed)
    return consistent(asking, option, RECRUIT, ROWS)


def test_typed_options_narrow_the_rows() -> None:
    assert _agreeing("troll") == ROWS
    assert _agreeing("troll", slot="A2") == [ROWS[1]]
    assert _agreeing("slot", troll="3.1") == ROWS[2:]
    assert _agreeing("slot", troll="3.1", pedestal="fire") == [ROWS[2]]
    assert _agreeing("slot", troll="  ") == ROWS, "blank is nothing typed"


def test_a_later_option_that_agrees_with_nothing_is_set_aside() -> None:
    """Typed earlier, then an earlier option changed: the options before this one
    decide alone, so the player sees what they may switch to."""
    assert _agreeing("slot", troll="1.1", pedestal="fire") == ROWS[:2]
    # an earlier option that agrees with nothing is not set aside: it is the one typed
    assert _agreeing("pedestal", troll="2.2") == []
    assert _agreeing("slot", troll="2.2") == []


def test_a_typed_cell_narrows_the_tile_and_a_mineral_nobody_pays_with_is_the_one_to_mend() -> None:
    game = drafted_game(players=2, seed=4)
    state = game.state
    seat = seats_to_act(state)[0]
    tiles = list(options.tile_shapes(Asking(state, seat, "dig")))
    shape = tiles[-1].shape
    cells = list(options.tile_cells(Asking(state, seat, "dig", {"tile": shape})))
    assert cells and {c.shape for c in cells} == {shape}
    where = cells[0].cells
    narrowed = options.tile_shapes(Asking(state, seat, "dig", {"cells": where}))
    assert [t.shape for t in narrowed] == [shape]
    counts = owned_counts(state, seat)
    unpaid = next(m for m in MINERALS if counts[m] < 2)
    mended = options.tile_cells(Asking(state, seat, "dig", {"tile": shape, "mineral": unpaid}))
    assert [c.cells for c in mended] == [c.cells for c in cells]
    paid = cells[0].cost.paying[0].mineral
    only = options.tile_cells(Asking(state, seat, "dig", {"tile": shape, "mineral": paid}))
    assert all([p.mineral for p in c.cost.paying] == [paid] for c in only)


# --- the facts beside the values -------------------------------------------------------


def test_a_digs_cost_honor_and_finds_are_what_playing_it_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    o = area_block(4, 1)
    gate, coin, rubble = at(o, 0, 0), at(o, 1, 0), at(o, 2, 0)
    game = cleared_game(monkeypatch, 2, rubble=(rubble,), buried={coin: "coin"})
    state = game.state
    put_gate(state, 0, gate)
    set_storage(state, 0, stone=3, iron=3, hammer=1)
    asking = Asking(state, 0, "dig")
    cells = list(options.tile_cells(asking))
    assert {c.cost.hammers for c in cells} == {0, 1}, "some cover the rubble, some do not"
    assert {c.cost.finds for c in cells} == {(), (Resource.COIN,)}
    places = options.dig_places(asking, "cells")
    played = 0
    for offer in options.dig_offers(places):
        cost = offer.cost()
        (paying,) = cost.paying
        assert paying.mineral == offer.mineral and paying.honor == offer.honor
        after = state.clone()
        engine.apply(after, 0, offer.action)
        spent = Counter({paying.mineral: paying.amount, Resource.HAMMER: cost.hammers})
        gained = Counter(cost.finds)
        before, now = owned_counts(state, 0), owned_counts(after, 0)
        assert {r: now[r] - before[r] for r in Resource} == {
            r: gained[r] - spent[r] for r in Resource
        }, offer.action
        honor = after.account_of(0).tunnel_honor - state.account_of(0).tunnel_honor
        assert honor == paying.honor
        played += 1
    assert played == sum(len(p.choice.minerals) for p in places) > 4


def test_a_tile_shows_its_size_its_minerals_and_its_placements() -> None:
    game = drafted_game(players=2, seed=4)
    state = game.state
    seat = seats_to_act(state)[0]
    digs = [a for a in legal_actions(state, seat, "dig") if isinstance(a, Dig)]
    for tile in options.tile_shapes(Asking(state, seat, "dig")):
        mine = [d for d in digs if d.shape == tile.shape and not d.workshops and not d.pedestal]
        assert tile.size == len(mine[0].cells)
        assert tile.minerals == tuple(m for m in MINERALS if any(d.mineral == m for d in mine))
        assert tile.placements == len({(d.cells, d.anchor) for d in mine})


def test_a_mineral_shows_the_cost_once_one_placement_is_left() -> None:
    game = drafted_game(players=2, seed=4)
    state = game.state
    seat = seats_to_act(state)[0]
    assert all(m.cost is None for m in options.dig_minerals(Asking(state, seat, "dig")))
    cells = next(options.tile_cells(Asking(state, seat, "dig")))
    typed = {"tile": cells.shape, "cells": cells.cells}
    minerals = list(options.dig_minerals(Asking(state, seat, "dig", typed)))
    assert [m.mineral for m in minerals] == [p.mineral for p in cells.cost.paying]
    for m in minerals:
        assert m.cost is not None and [p.mineral for p in m.cost.paying] == [m.mineral]


def test_a_recruit_shows_the_troll_and_the_bribes_it_leaves() -> None:
    rng = random.Random(2)
    game = drafted_game(players=3, seed=2)
    seen = 0
    for _ in range(200):
        state = game.state
        seat = seats_to_act(state)[0]
        for horde in options.horde_slots(Asking(state, seat, "recruit")):
            assert horde.troll is not None
            card = load_content().trolls[horde.troll.card]
            assert (horde.troll.level, horde.troll.clan) == (card.level, card.clan)
            assert len(horde.troll.makes) == len(card.produce)
            slot = options.pyramid_slots(Asking(state, seat, "recruit", {"troll": horde.slot}))[0]
            after = state.clone()
            engine.apply(after, seat, parse_action(f"recruit {horde.slot} {slot}"))
            others = [s for s in ALL_HORDE_SLOTS if s != horde.slot]
            left = sum(len(horde_bribes(after, s)) - len(horde_bribes(state, s)) for s in others)
            assert left == horde.bribes, horde
            seen += 1
        game.play(seat, random_action(state, seat, rng))
        if game.state.phase == "over" or seen > 40:
            break
    assert seen > 20


def test_pedestals_name_the_anchor_and_its_tier_once_one_placement_is_left() -> None:
    for state, seat in _positions(2, 3, every=3, limit=400):
        asking = Asking(state, seat, "dig")
        for place in options.dig_places(asking, "cells"):
            if place.pedestals:
                typed = {"tile": place.placement.shape, "cells": place.cells}
                pedestals = list(options.dig_pedestals_offered(Asking(state, seat, "dig", typed)))
                assert [p.clan for p in pedestals] == sorted(place.pedestals)
                anchor = place.placement.anchor
                assert anchor is not None and all(p.anchor == anchor for p in pedestals)
                assert all(p.tier is not None and 1 <= p.tier <= 5 for p in pedestals)
                loose = options.dig_pedestals_offered(asking)
                assert all(p.anchor is None and p.tier is None for p in loose)
                return
    raise AssertionError("no position offered a pedestal")


def test_a_dig_offered_is_written_as_its_action_writes_itself() -> None:
    seen: Counter[str] = Counter()
    for state, seat in _positions(4, 5, every=5, limit=3000):
        places = options.dig_places(Asking(state, seat, "dig"), "tile")
        for offer in options.dig_offers(places):
            assert offer.notation == str(offer.action) == "dig " + offer.words
            seen["pedestal" if offer.pedestal else "workshop" if offer.workshop else "plain"] += 1
    assert seen["plain"] and seen["pedestal"] and seen["workshop"], seen


# --- any action ------------------------------------------------------------------------


def test_any_action_takes_the_kinds_in_turn_and_one_kind_when_its_verb_is_typed() -> None:
    game = drafted_game(players=2, seed=4)
    state = game.state
    seat = seats_to_act(state)[0]
    available = [k for k in KINDS if kind_available(state, seat, k)]
    first = list(islice(options.any_action(Asking(state, seat, None)), len(available)))
    kinds = [str(_text(item)).split()[0] for item in first]
    assert kinds == available, "one of each kind before a second of any"
    recruits = list(options.any_action(Asking(state, seat, None, current="recruit 1.")))
    assert recruits and all(_text(r).startswith("recruit ") for r in recruits)
    assert {_text(r) for r in recruits} == {str(a) for a in legal_actions(state, seat, "recruit")}


def test_any_action_makes_only_the_digs_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rich position has some 20,000 digs: asking for a few makes a few."""
    game = drafted_game(players=2, seed=4)
    state = game.state
    seat = seats_to_act(state)[0]
    made = Counter[str]()
    real = options.dig_offers

    def counting(places: Sequence[options.DigPlace]) -> Iterator[DigOffer]:
        for offer in real(places):
            made["dig"] += 1
            yield offer

    monkeypatch.setattr(options, "dig_offers", counting)
    digs = list(islice(options.any_action(Asking(state, seat, "dig", current="dig")), 50))
    assert all(isinstance(d, DigOffer) for d in digs)
    assert made["dig"] <= 50 + 1
    total = sum(
        1 for _ in options.dig_offers(options.dig_places(Asking(state, seat, "dig"), "tile"))
    )
    assert total > 200


def test_the_options_import_neither_the_bot_nor_discord() -> None:
    code = "import sys, rules.options; print('\\n'.join(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    top = {m.split(".")[0] for m in done.stdout.split()}
    assert "rules" in top
    for name in ("bot", "discord", "render", "PIL", "aiosqlite", "asyncpg", "babel"):
        assert name not in top, f"rules.options pulls in {name}"
