"""The fast paths of self-play give the same games as the checked ones: the unchecked
engine entry (`engine.apply_trusted`, `Game.replay_trusted`) leaves the states the
checked one leaves, the kinds and actions answered without listing agree with the
listings, and nothing players reach uses the unchecked entry."""

from __future__ import annotations

import ast
import random
from bisect import bisect
from collections.abc import Iterator
from itertools import accumulate, combinations_with_replacement
from pathlib import Path

import pytest

from bot.service.mountain_king import MOUNTAIN_KING
from rules import engine, horde, statues, steps, tunnels
from rules.actions import Dig, Keep, Trade
from rules.errors import IllegalActionError, NotYourTurnError, RulesError
from rules.game import Game
from rules.legal import KINDS, AvailableKinds, iter_legal_actions, legal_actions, trade_options
from rules.mountain import geo, networks, opponents_networks, own_network
from rules.payment import owned_counts
from rules.resources import RESOURCES
from rules.selfplay import KIND_WEIGHTS, play_game, play_random_game
from rules.shapes import tunnel_variants
from rules.state import State, make_config

ROOT = Path(__file__).resolve().parents[2]


def _states(game: Game, every: int = 1) -> Iterator[tuple[State, int]]:
    """The states a game went through (every `every`-th, before an action), with the
    seat that acted."""
    replay = Game(game.config, game.seed)
    for i, move in enumerate(game.moves):
        if i % every == 0:
            yield replay.state, move.seat
        engine.apply(replay.state, move.seat, move.action)


@pytest.mark.parametrize(
    ("options", "seed", "policy"),
    [
        ({"players": 4}, 1, "random"),
        ({"players": 4, "teams": True}, 2, "random"),
        ({"players": 3, "edition": 1}, 3, "random"),
        ({"players": 2}, 4, "heuristic"),
    ],
)
def test_the_trusted_path_leaves_the_states_the_checked_path_leaves(
    options: dict[str, object], seed: int, policy: str
) -> None:
    config = make_config(**options)
    game = play_game(config, seed, policy)
    checked = Game(config, seed)
    trusted = Game(config, seed)
    for move in game.moves:
        engine.apply(checked.state, move.seat, move.action)
        engine.apply_trusted(trusted.state, move.seat, move.action)
        assert trusted.state.to_json() == checked.state.to_json(), str(move.action)
    assert checked.state.phase == "over"
    again = Game.replay_trusted(config, seed, game.moves)
    assert again.state.to_json() == game.state.to_json()
    assert again.outcome == Game(config, seed, game.moves).outcome


def test_random_self_play_on_the_trusted_path_replays_on_the_checked_path() -> None:
    config = make_config(players=4)
    for seed in range(3):
        game = play_random_game(config, seed)
        assert Game(config, seed, game.moves).state.to_json() == game.state.to_json()
        # the same game whether every seat is the random player of `play_game`
        assert play_game(config, seed, "random").record() == game.record()


@pytest.mark.parametrize(
    ("options", "seeds"),
    [
        ({"players": 2}, range(40, 45)),
        ({"players": 3}, range(45, 50)),
        ({"players": 4}, range(50, 58)),
        ({"players": 5}, range(58, 62)),
        ({"players": 4, "teams": True}, range(62, 65)),
        ({"players": 3, "edition": 1}, range(65, 68)),
    ],
)
def test_many_random_games_are_the_same_fast_and_checked(
    options: dict[str, object], seeds: range
) -> None:
    """The random player's fast path (its choices counted and picked by index, the
    actions carried out unchecked) plays the games the checked path plays: the random
    player of `play_game` through `Game.play`, every action checked on a copy."""
    config = make_config(**options)
    for seed in seeds:
        fast = play_random_game(config, seed)
        checked = play_game(config, seed, "random", checked=True)
        assert fast.record() == checked.record(), seed
        assert fast.state.to_json() == checked.state.to_json(), seed


def test_the_checked_paths_still_refuse_what_the_trusted_path_does_not_check() -> None:
    config = make_config(players=2)
    game = play_random_game(config, 5)
    # the first position where the seat to move may dig after a tunnel of its size lies
    playing = Game(config, game.seed)
    for move in game.moves:
        state, seat = playing.state, move.seat
        digs = legal_actions(state, seat, "dig") if state.phase == "play" else []
        sizes = {len(p.cells) for p in state.board.pieces if p.kind == "tunnel"}
        if any(isinstance(d, Dig) and len(d.cells) in sizes for d in digs):
            break
        playing.play(move.seat, move.action)
    dig = next(d for d in digs if isinstance(d, Dig) and len(d.cells) in sizes)
    assert isinstance(dig, Dig)
    taken = next(
        p for p in state.board.pieces if p.kind == "tunnel" and len(p.cells) == len(dig.cells)
    )
    # the same tile on cells already dug
    bad = Dig(dig.shape, tuple(taken.cells), None, dig.mineral)
    before = state.to_json()
    with pytest.raises(IllegalActionError):
        engine.apply(state.clone(), seat, bad)
    with pytest.raises(NotYourTurnError):
        engine.apply(state.clone(), 1 - seat, dig)
    with pytest.raises(RulesError):
        playing.play(seat, bad)
    # the bot's rules adapter: acting and replaying a stored log are both checked
    with pytest.raises(RulesError):
        MOUNTAIN_KING.play(state, seat, bad)
    with pytest.raises(RulesError):
        MOUNTAIN_KING.replay(state.clone(), seat, bad)
    with pytest.raises(RulesError):
        MOUNTAIN_KING.replay(state.clone(), seat, Keep("blue-1", "A1"))
    assert playing.state.to_json() == before


def _names_used(package: Path) -> set[str]:
    names: set[str] = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Attribute):
                names.add(node.attr)
            elif isinstance(node, ast.Name):
                names.add(node.id)
            elif isinstance(node, ast.alias):
                names.add(node.name)
    return names


def test_nothing_players_reach_uses_the_unchecked_entry() -> None:
    """The bot (acting, loading, replaying its stored logs, the AI seats) and the
    record readers go through the checked `engine.apply`."""
    unchecked = {"apply_trusted", "replay_trusted"}
    assert not unchecked & _names_used(ROOT / "bot")
    for module in ("ai", "cli.py", "legal.py", "view.py", "story.py"):
        assert not unchecked & _names_used(ROOT / "rules" / module), module


def _generated(state: State, seat: int, kind: str) -> bool:
    return next(iter_legal_actions(state, seat, kind), None) is not None


@pytest.mark.parametrize(("players", "seed"), [(4, 7), (2, 8), (5, 9)])
def test_available_kinds_agree_with_the_generators(players: int, seed: int) -> None:
    game = play_random_game(make_config(players=players), seed)
    for state, _ in _states(game, every=3):
        for seat in range(players):
            available = AvailableKinds(state, seat)
            for kind in KINDS:
                assert (kind in available) == _generated(state, seat, kind), (kind, seat)
            for kind in ("trade", "recruit", "use", "move", "hall", "end"):
                if kind in available:
                    assert available.actions(kind) == legal_actions(state, seat, kind)
            assert statues.can_move_a_statue(state, seat) == any(
                statues.cart_tokens(state, seat, state.board.statues[origin])
                and statues.statue_moves(state, seat, origin)
                for origin in statues.movable_statues(state, seat)
            )


def _plain_hits(state: State, seat: int) -> list[tuple[str, int, int]]:
    """`placement_hits` worked out orientation by orientation, plainly."""
    g = geo(state)
    own = own_network(state, seat)
    if not own:
        return []
    free = g.area & ~networks(state).occupied & ~g.sites
    free &= ~g.spread(opponents_networks(state, seat))
    touch = g.spread(own) & free
    out = []
    for shape, left in state.tunnels_left.items():
        if left <= 0:
            continue
        for i, variant in enumerate(tunnel_variants(shape)):
            offs = [dy * g.stride + dx for dx, dy in variant.cells]
            valid, touching = -1, 0  # the origin is the bounding box's corner, maybe uncovered
            for o in offs:
                valid &= free >> o
                touching |= touch >> o
            if valid & touching:
                out.append((shape, i, valid & touching))
    return out


def test_placement_hits_and_the_payable_ones_are_the_plain_masks() -> None:
    game = play_random_game(make_config(players=3), 12)
    for state, _ in _states(game, every=4):
        for seat in range(3):
            found = [
                (shape, tunnel_variants(shape).index(variant), hits)
                for shape, variant, _, hits in tunnels.placement_hits(state, seat)
            ]
            assert sorted(found) == sorted(_plain_hits(state, seat))
            counts = owned_counts(state, seat)
            payable = {
                (p.shape, p.variant, p.origin)
                for p in tunnels.placements(state, seat)
                if tunnels.affordable(state, seat, p, counts)
            }
            listed = set()
            for shape, variant, _, origins in tunnels.payable_hits(state, seat, counts):
                while origins:
                    low = origins & -origins
                    origins ^= low
                    listed.add((shape, variant, low.bit_length() - 1))
            assert listed == payable
            assert tunnels.can_dig(state, seat) == bool(payable)


def test_dig_options_index_like_the_list() -> None:
    game = play_random_game(make_config(players=4), 13)
    checked = 0
    for state, seat in _states(game, every=5):
        if state.phase != "play":
            continue
        counts = owned_counts(state, seat)
        for p in list(tunnels.placements(state, seat))[:40]:
            options = tunnels.dig_options_at(state, seat, p, counts)
            listed = list(tunnels.dig_options(state, seat, p, counts))
            assert [options[i] for i in range(len(options))] == listed == list(options)
            checked += len(listed)
    assert checked > 100


def test_recruit_options_index_like_the_list() -> None:
    game = play_random_game(make_config(players=3), 16)
    checked = 0
    for state, _ in _states(game, every=3):
        for seat in range(3):
            options = horde.recruit_options(state, seat)
            listed = list(horde.recruit_actions(state, seat))
            assert [options[i] for i in range(len(options))] == listed == list(options)
            with pytest.raises(IndexError):
                options[len(options)]
            checked += len(listed)
    assert checked > 100


def test_trade_options_are_every_affordable_trade_in_order() -> None:
    rng = random.Random(1)
    state = play_random_game(make_config(players=2), 14).state
    for troll in state.players[0].pyramid.values():
        troll.held = [False] * len(troll.held)
    for _ in range(200):
        state.accounts[0].storage = {r.value: rng.choice([0, 0, 1, 2, 4]) for r in RESOURCES}
        counts = owned_counts(state, 0)
        expected = [
            Trade(give, get)
            for give in combinations_with_replacement(RESOURCES, 4)
            if all(counts[r] >= give.count(r) for r in give)
            for get in RESOURCES
        ]
        options = trade_options(state, 0)
        assert list(options) == expected
        assert [options[k] for k in range(len(options))] == expected


def test_the_kind_draw_is_the_draw_random_choices_makes() -> None:
    weights = [KIND_WEIGHTS.get(k, 1.0) for k in KINDS]
    cum = list(accumulate(weights))
    ours, theirs = random.Random(99), random.Random(99)
    for _ in range(2000):
        drawn = KINDS[bisect(cum, ours.random() * cum[-1], 0, len(KINDS) - 1)]
        assert drawn == theirs.choices(KINDS, weights)[0]


def test_the_step_check_and_its_refusal_agree() -> None:
    game = play_random_game(make_config(players=2), 15)
    for state, _ in _states(game, every=2):
        for seat in range(2):
            for kind in KINDS:
                refusal = steps.refusal(state, seat, kind)
                assert steps.allows(state, seat, kind) == (refusal is None)
                assert refusal is None or isinstance(refusal, RulesError)
