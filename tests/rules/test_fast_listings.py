"""The listings that count their actions and make only the ones asked for (issue 14's
faster self-play) list exactly what the plain enumerations list, in the same order:
each is held against a plain re-statement of the rule over the states of seeded
games, and its k-th item against its iteration (the random player picks by index)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from itertools import combinations, combinations_with_replacement
from typing import TypeVar

import pytest

from rules import engine, halls, horde, statues, steps, tunnels, workshops
from rules.actions import STORE, Action, MoveStatue, Pay, UseWorkshop
from rules.content import UnburdenEffect, load_content
from rules.game import Game
from rules.indexed import Bundles, Chained, Groups, Indexed, Mapped, bits, kth_bit
from rules.legal import (
    AvailableKinds,
    cast_actions_for,
    cast_options,
    legal_actions,
)
from rules.mountain import geo, invalidate, networks, own_network
from rules.payment import available_tokens, owned_counts
from rules.pyramid import ALL_HORDE_SLOTS, bribe_targets
from rules.resources import RESOURCES, Resource
from rules.selfplay import play_random_game
from rules.shapes import hall_variants
from rules.spell_effects import effect_rule
from rules.state import State, make_config

T = TypeVar("T")


def _states(game: Game, every: int = 1) -> Iterator[State]:
    """The states of a game (every `every`-th, before an action), replayed checked."""
    replay = Game(game.config, game.seed)
    for i, move in enumerate(game.moves):
        if i % every == 0:
            yield replay.state
        engine.apply(replay.state, move.seat, move.action)


def _indexed_like_iterated(options: Indexed[T]) -> list[T]:
    """The items of a sequence by index, checked against its iteration and its end."""
    listed = list(options)
    assert [options[k] for k in range(len(options))] == listed
    with pytest.raises(IndexError):
        options[len(options)]
    return listed


def _seated(players: int, seed: int, every: int) -> Iterator[tuple[State, int]]:
    game = play_random_game(make_config(players=players), seed)
    for state in _states(game, every):
        if state.phase == "play":
            for seat in range(players):
                yield state, seat


# --- plain re-statements of the rules the listings count --------------------------------


def _plain_walks(state: State, seat: int, moves: int) -> list[tuple[str, ...]]:
    """Mountain Path's paths: every statue, moved one step at a time on the board."""
    on_board = state.board.statues
    out: list[tuple[str, ...]] = []

    def walk(cell: str, path: tuple[str, ...]) -> None:
        for target in statues.statue_moves(state, seat, cell):
            step = (*path, f"{cell}>{target}")
            out.append(step)
            if len(step) < moves:
                clan = on_board.pop(cell)
                on_board[target] = clan
                walk(target, step)
                del on_board[target]
                on_board[cell] = clan

    for origin in statues.movable_statues(state, seat):
        walk(origin, ())
    return out


def _plain_moves(state: State, seat: int) -> list[MoveStatue]:
    return [
        MoveStatue(origin, target)
        for origin in statues.movable_statues(state, seat)
        if statues.cart_tokens(state, seat, state.board.statues[origin])
        for target in statues.statue_moves(state, seat, origin)
    ]


def _plain_plans(
    sites: list[str], supply: Counter[str], ok: dict[str, bool]
) -> list[tuple[tuple[str, str], ...]]:
    """Each way to fill some of `sites` (those `ok`) from `supply`, a site left empty
    first, then each workshop still in the supply in name order."""
    if not sites:
        return [()]
    site, rest = sites[0], sites[1:]
    out = _plain_plans(rest, supply, ok)
    for workshop in sorted(supply):
        if not ok[site] or supply[workshop] <= 0:
            continue
        supply[workshop] -= 1
        out += [((site, workshop), *plan) for plan in _plain_plans(rest, supply, ok)]
        supply[workshop] += 1
    return out


def _plain_halls(state: State, seat: int) -> list[tuple[str, tuple[str, ...]]]:
    """Every hall over the seat's own tunnels, hall, orientation and origin in order."""
    g = geo(state)
    nets = networks(state)
    own = own_network(state, seat)
    tunnels_mask = 0
    for pid, pm in nets.piece_masks.items():
        if nets.pieces[pid].kind == "tunnel" and pm & own:
            tunnels_mask |= pm
    order = {h.id: i for i, h in enumerate(load_content().halls)}
    out = []
    for hall in sorted(state.halls_left, key=order.__getitem__):
        for variant in hall_variants(hall):
            offs = [dy * g.stride + dx for dx, dy in variant.cells]
            valid = -1
            for o in offs:
                valid &= tunnels_mask >> o
            for p in bits(valid):
                out.append((hall, tuple(sorted((g.names[p + o] for o in offs), key=_reading))))
    return out


def _reading(cell: str) -> tuple[int, str]:
    return int(cell[1:]), cell[0]


def _plain_uses(state: State, seat: int) -> list[Action]:
    """Every workshop use, as the rule reads: each site in order, each conversion."""
    turn = state.turn
    out: list[Action] = []
    if turn is None:
        return out
    counts = owned_counts(state, seat)
    content = load_content()
    for site, workshop_id in sorted(state.board.workshops.items()):
        if turn.workshop not in (None, site):
            continue
        if turn.workshop_uses >= workshops.workshop_uses(state, seat, site):
            continue
        for conv in content.workshop(workshop_id).conversions:
            give, get = workshops.conversion_bundles(conv)
            if conv.move_from_troll:
                held = {t for t in available_tokens(state, seat, held=True) if t.source != STORE}
                out += [UseWorkshop(site, move=t) for t in sorted(held, key=str)]
            elif conv.give_any:
                out += [
                    UseWorkshop(site, combo, get)
                    for combo in combinations_with_replacement(RESOURCES, conv.give_any)
                    if all(counts[r] >= combo.count(r) for r in combo)
                ]
            else:
                have = dict(counts)
                if conv.wild_carts_only:
                    have[Resource.CART] = sum(
                        1
                        for t in available_tokens(state, seat, wild_carts_only=True)
                        if t.resource == Resource.CART
                    )
                if all(have.get(r, 0) >= give.count(r) for r in give):
                    out.append(UseWorkshop(site, give, get))
    return out


# --- the listings against them -------------------------------------------------------------


@pytest.mark.parametrize(("players", "seed"), [(4, 21), (3, 22)])
def test_statue_walks_are_the_plain_walks(players: int, seed: int) -> None:
    walked = 0
    for state, seat in _seated(players, seed, every=4):
        for moves in (1, 2, 3):
            walks = statues.StatueWalks(state, seat, moves)
            assert _indexed_like_iterated(walks) == _plain_walks(state, seat, moves)
            walked += len(walks)
    assert walked > 500  # the games reach statues in networks


@pytest.mark.parametrize(("players", "seed"), [(4, 23), (5, 24)])
def test_statue_moves_are_the_plain_moves(players: int, seed: int) -> None:
    moved = 0
    for state, seat in _seated(players, seed, every=3):
        options = statues.MoveOptions(state, seat)
        assert _indexed_like_iterated(options) == _plain_moves(state, seat)
        assert statues.can_move_a_statue(state, seat) == bool(options)
        moved += len(options)
    assert moved > 100


def test_workshop_plans_are_the_plain_plans() -> None:
    rng = random.Random(5)
    state = play_random_game(make_config(players=4), 25).state
    g = geo(state)
    sites = [s for s in g.cells(g.sites)]
    names = sorted({w.id for w in load_content().workshops})
    for _ in range(300):
        chosen = rng.sample(sites, rng.randrange(0, 4))
        around = 0 if rng.random() < 0.2 else -1  # every site next to the tunnel, or none
        supply = Counter({w: rng.choice([0, 1, 1, 2]) for w in rng.sample(names, 5)})
        plans = tunnels.WorkshopPlans(state, around, chosen, supply)
        ok = {s: s not in state.board.workshops and around == -1 for s in chosen}
        assert _indexed_like_iterated(plans) == _plain_plans(chosen, Counter(supply), ok)


@pytest.mark.parametrize(("players", "seed"), [(4, 26), (2, 27)])
def test_hall_options_are_the_plain_halls(players: int, seed: int) -> None:
    found = 0
    for state, seat in _seated(players, seed, every=3):
        options = halls.HallOptions(state, seat)
        listed = _indexed_like_iterated(options)
        assert [(h.hall, h.cells) for h in listed] == _plain_halls(state, seat)
        found += len(listed)
    assert found > 20


@pytest.mark.parametrize(("players", "seed"), [(4, 28), (3, 29)])
def test_workshop_uses_are_the_plain_uses(players: int, seed: int) -> None:
    used = 0
    for state, seat in _seated(players, seed, every=2):
        options = workshops.UseOptions(state, seat)
        assert _indexed_like_iterated(options) == _plain_uses(state, seat)
        used += len(options)
        for site in state.board.workshops:
            g = geo(state)
            touches = g.spread(1 << g.bit(site)) & own_network(state, seat)
            expected = workshops.open_entrances(state, site) if touches else 0
            assert workshops.workshop_uses(state, seat, site) == expected
    assert used > 50


@pytest.mark.parametrize(("players", "seed"), [(4, 30), (4, 31)])
def test_payable_placements_and_casts_index_like_the_lists(players: int, seed: int) -> None:
    digs = casts = 0
    for state, seat in _seated(players, seed, every=4):
        counts = owned_counts(state, seat)
        placements = tunnels.PayablePlacements(state, seat, counts)
        assert _indexed_like_iterated(placements) == [
            p for p in tunnels.placements(state, seat) if tunnels.affordable(state, seat, p, counts)
        ]
        digs += len(placements)
        for slot in state.spellbook:
            options = cast_options(state, seat, slot.spell, counts)
            assert _indexed_like_iterated(options) == list(
                cast_actions_for(state, seat, slot.spell, counts)
            )
            casts += len(options)
    assert digs > 200 and casts > 50


def test_every_dig_by_index_is_every_legal_dig() -> None:
    game = play_random_game(make_config(players=4), 32)
    listed = 0
    for state in _states(game, every=15):
        seat = state.current_seat
        if state.phase != "play" or seat is None:
            continue
        digs = tunnels.all_digs(state, seat)
        assert _indexed_like_iterated(digs) == list(tunnels.dig_actions(state, seat))
        listed += len(digs)
    assert listed > 100


@pytest.mark.parametrize("flag", [None, horde.FLAG_ANY_BRIBES, horde.FLAG_NO_LEVEL1_BRIBES])
def test_recruits_count_the_bribes_the_rule_asks(flag: str | None) -> None:
    """The recruit listing counts every slot's bribes at once: a bribe for each troll
    beneath (none on an empty slot, none on level 1 under Horde's Favour), paid in
    coins (any resource under Golden Mask)."""
    checked = 0
    for state, seat in _seated(4, 33, every=5):
        turn = state.turn
        if turn is None or turn.seat != seat:
            continue
        turn.flags = [] if flag is None else [flag]
        counts = owned_counts(state, seat)
        total = sum(counts.values())
        expected = []
        for hs in ALL_HORDE_SLOTS:
            if horde.slot_at(state, hs).card is None:
                continue
            bribed = [
                t
                for t in bribe_targets(hs)
                if horde.slot_at(state, t).card is not None
                and not (flag == horde.FLAG_NO_LEVEL1_BRIBES and t.startswith("1."))
            ]
            assert horde.bribed_slots(state, hs, turn.flags) == bribed
            coins = len(bribed) if flag != horde.FLAG_ANY_BRIBES else 0
            if counts[Resource.COIN] >= coins and total >= len(bribed):
                expected.append(hs)
        options = horde.recruit_options(state, seat, counts)
        if options.slots:
            assert [hs for hs, _ in options.trolls] == expected
            checked += 1
    assert checked > 10


@pytest.mark.parametrize(("players", "seed"), [(4, 34), (2, 35)])
def test_the_turn_kinds_are_what_allows_answers(players: int, seed: int) -> None:
    for state, seat in _seated(players, seed, every=2):
        kinds = steps.turn_kinds(state, seat)
        turn = state.turn
        if turn is None or turn.seat != seat:
            assert kinds is None
            continue
        assert kinds is not None
        sure, unless_due = kinds
        due = steps.main_due(state, seat)
        for kind in steps.KINDS:
            allowed = kind in sure or (kind in unless_due and not due)
            assert allowed == steps.allows(state, seat, kind), kind
        available = AvailableKinds(state, seat)
        for kind in ("hall", "move", "end"):
            assert (kind in available) == bool(legal_actions(state, seat, kind))
        assert {k for k in steps.KINDS if k in available} <= available.maybe()


@pytest.mark.parametrize(
    ("options", "seed"), [({"players": 4}, 36), ({"players": 4, "teams": True}, 37)]
)
def test_networks_kept_up_to_date_are_the_rebuilt_ones(
    options: dict[str, object], seed: int
) -> None:
    """A piece laid extends the networks worked out before it (`add_piece`); each time
    they are what working them out from the pieces gives."""
    pieces = 0

    def compare(state: State, seat: int, action: Action) -> None:
        nonlocal pieces
        kept = networks(state)
        fresh = state.clone()
        invalidate(fresh.board)
        rebuilt = networks(fresh)
        assert kept.occupied == rebuilt.occupied
        assert kept.own == rebuilt.own
        assert kept.piece_masks == rebuilt.piece_masks
        assert kept.cell_piece == rebuilt.cell_piece
        assert kept.pieces.keys() == rebuilt.pieces.keys()
        pieces = len(state.board.pieces)

    play_random_game(make_config(**options), seed, on_action=compare)
    assert pieces > 30


# --- the sequences themselves ---------------------------------------------------------------


def test_bundles_are_the_affordable_combinations_in_order() -> None:
    rng = random.Random(6)
    for _ in range(300):
        have = [rng.choice([0, 0, 1, 2, 3, 5]) for _ in range(rng.randrange(1, 8))]
        size = rng.randrange(0, 6)
        expected = [
            combo
            for combo in combinations_with_replacement(range(len(have)), size)
            if all(combo.count(i) <= have[i] for i in set(combo))
        ]
        assert _indexed_like_iterated(Bundles(have, size)) == expected


def test_groups_chains_maps_and_bits() -> None:
    rng = random.Random(7)
    for _ in range(200):
        parts: list[Indexed[int]] = [
            list(range(rng.randrange(0, 4))) for _ in range(rng.randrange(0, 5))
        ]
        chained = Chained(parts)
        assert _indexed_like_iterated(chained) == [x for part in parts for x in part]
        mapped = Mapped(chained, lambda x: -x)
        assert _indexed_like_iterated(mapped) == [-x for part in parts for x in part]
        sizes = [len(part) for part in parts]
        groups = Groups(sizes)
        assert [groups.find(k) for k in range(groups.total)] == [
            (i, j) for i, n in enumerate(sizes) for j in range(n)
        ]
        mask = rng.getrandbits(rng.randrange(1, 400))
        ones = list(bits(mask))
        assert ones == [i for i in range(mask.bit_length()) if mask >> i & 1]
        assert [kth_bit(mask, k) for k in range(len(ones))] == ones


def test_payment_tokens_in_spending_order() -> None:
    """The purse and the tokens, worked out from each troll's cached tokens, are the
    symbols the trolls hold and the storage, clan carts as the edition says."""
    for edition in (1, 2):
        game = play_random_game(make_config(players=3, edition=edition), 38)
        for state in _states(game, every=7):
            for seat in range(3):
                player = state.players[seat]
                content = load_content()
                held = [
                    (res, clan, slot)
                    for slot, troll in player.pyramid.items()
                    for (res, clan), on in zip(
                        content.trolls[troll.card].produce, troll.held, strict=True
                    )
                    if on
                ]
                storage = state.account_of(seat).storage
                for with_clan in (False, True):
                    counts: Counter[Resource] = Counter()
                    for res, clan, _ in held:
                        if clan is None or with_clan or edition < 2:
                            counts[res] += 1
                    for name, n in storage.items():
                        counts[Resource(name)] += n
                    assert +owned_counts(state, seat, held=with_clan) == +counts
                tokens = available_tokens(state, seat, held=True)
                assert Counter(tokens) == Counter(
                    [Pay(res, slot, clan) for res, clan, slot in held]
                    + [Pay(Resource(n), STORE) for n, k in storage.items() for _ in range(k)]
                )


def test_unburden_choices_are_the_plain_combinations() -> None:
    """Unburden's choices (the texts of held tokens) as the rule reads: the biggest
    combinations of held tokens that leave a rune for the spell, each text once."""
    effect = UnburdenEffect(kind="unburden", max=3)
    checked = 0
    for state, seat in _seated(3, 39, every=6):
        counts = owned_counts(state, seat)
        held = [t for t in available_tokens(state, seat, held=True) if t.source != STORE]
        expected: list[tuple[str, ...]] = []
        for size in range(min(3, len(held)), 0, -1):
            for combo in combinations(sorted(held, key=str), size):
                runes = sum(1 for t in combo if t.resource == Resource.RUNE)
                text = tuple(str(t) for t in combo)
                if counts[Resource.RUNE] - runes >= 1 and text not in expected:
                    expected.append(text)
            if expected:
                break
        got = list(effect_rule(effect).choices(state, seat, effect, counts))
        assert got == expected
        checked += len(got)
    assert checked > 20
