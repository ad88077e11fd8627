"""The heuristic AI player (`rules.ai`): always legal, deterministic, uses the whole
board and clearly beats the random player. Timings live in benchmarks/ai_bench.py."""

from __future__ import annotations

import json
import random
from functools import cache

import pytest
from helpers import gated_game
from invariants import MODES, check_invariants
from mountain_helpers import cleared_game, put_gate

from rules import engine, steps
from rules.actions import Action, DedicateHall, Dig, EndTurn, Keep, MoveStatue, Recruit
from rules.ai import choose_action
from rules.ai.digging import Prospect, prospect_gain, prospect_worth, statue_prospects
from rules.ai.opening import SLOT_ACTIVATIONS
from rules.ai.recruiting import recruit_choices
from rules.ai.turn import Ctx, TurnPlayer
from rules.ai.values import Horizon, add, counts_key, horizon, troll_flow
from rules.ai.values import valuer as make_valuer
from rules.cli import main
from rules.content import load_content
from rules.game import Game, game_from_record
from rules.grid import cell_name
from rules.horde import FLAG_ANY_BRIBES
from rules.legal import legal_actions
from rules.mountain import Geometry, geo
from rules.payment import resolve_payment
from rules.resources import RESOURCES, Resource
from rules.scoring import best_leftover_sets, final_outcome
from rules.selfplay import Policy, play_game, play_random_game, random_action
from rules.state import GameConfig, State, Turn, make_config

WIN_GAMES = 8  # 1 heuristic against 3 random players (the benchmark plays many more)

# one worker runs every test here (tests/conftest.py, ONE_WORKER_FILES), so the games
# `mode_game` keeps are played once and shared by the tests that read them


def strict_ai(state: State, seat: int, rng: random.Random) -> Action:
    """The AI without its safety net: an illegal choice fails the test."""
    return choose_action(state, seat, rng, strict=True)


def checked_game(config: GameConfig, seed: int, policies: list[Policy | str]) -> Game:
    """A whole game through `Game.play` (every action validated on a copy) with the
    invariants of the random playouts checked after every action."""

    def check(state: State, seat: int, action: Action) -> None:
        check_invariants(state)

    chosen = [strict_ai if p == "heuristic" else p for p in policies]
    return play_game(config, seed, chosen, checked=True, on_action=check)


@cache
def mode_game(mode: str, mixed: bool) -> Game:
    config = make_config(**MODES[mode])
    seed = 11 + len(mode) + (7 if mixed else 0)
    policies: list[Policy | str] = ["heuristic"] * config.players
    if mixed:
        policies = ["random" if seat % 2 else "heuristic" for seat in range(config.players)]
    return checked_game(config, seed, policies)


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("mixed", [False, True], ids=["all-ai", "ai-and-random"])
def test_every_ai_action_is_legal_to_the_end_of_the_game(mode: str, mixed: bool) -> None:
    game = mode_game(mode, mixed)
    assert game.state.phase == "over"
    outcome = final_outcome(game.state)
    assert len(outcome.breakdowns) == (2 if MODES[mode].get("teams") else MODES[mode]["players"])
    # the record replays to the identical state
    replayed = game_from_record(json.loads(game.record_json()))
    assert replayed.state.to_json() == game.state.to_json()


def test_each_action_is_one_of_the_legal_actions_in_the_draft_and_gates() -> None:
    for players in (2, 3, 4, 5):
        game, _ = ai_setup(players, 3)
        assert len(game.state.board.gates) == players


class Diverged(Exception):
    """A game left the path of another."""


def test_same_seed_same_game() -> None:
    """The first game is the 3-player game of the legality test above (heuristic,
    random, heuristic; played checked, shared); the same seed played again, in place,
    is the same game."""
    config = make_config(**MODES["3p"])
    policies: list[Policy | str] = ["heuristic", "random", "heuristic"]
    first = mode_game("3p", True)
    assert first.config == config
    second = play_game(config, first.seed, policies)
    assert first.record() == second.record()
    # another policy seed plays another game: it leaves the first one's actions (it is
    # stopped there; had it followed them to the end, it would have been the same game)
    path = [(m.seat, str(m.action)) for m in first.moves]
    played = 0

    def on_the_path(state: State, seat: int, action: Action) -> None:
        nonlocal played
        if played >= len(path) or path[played] != (seat, str(action)):
            raise Diverged
        played += 1

    with pytest.raises(Diverged):
        play_game(config, first.seed, policies, policy_seed=first.seed + 1, on_action=on_the_path)


def test_play_game_with_random_players_is_play_random_game() -> None:
    config = make_config(players=4)
    assert play_game(config, 2, random_action).record() == play_random_game(config, 2).record()
    assert play_game(config, 2, "random").record() == play_random_game(config, 2).record()


def test_play_game_wants_one_policy_per_seat() -> None:
    with pytest.raises(ValueError, match="one policy per seat"):
        play_game(make_config(players=4), 1, ["heuristic", "random"])
    with pytest.raises(ValueError, match="unknown policy"):
        play_game(make_config(players=2), 1, "clever")


def ai_setup(players: int, seed: int) -> tuple[Game, random.Random]:
    """A game whose draft and gates the AI played for every seat."""
    game = Game.new(players=players, seed=seed)
    rng = random.Random(seed)
    while game.state.phase != "play":
        seat = game.state.current_seat
        if seat is None:
            seat = next(p.seat for p in game.state.players if len(p.pyramid) < 4)
        action = choose_action(game.state, seat, rng)
        assert action in legal_actions(game.state, seat)
        game.play(seat, action)
    return game, rng


def _ai_moves(game: Game, kind: type) -> list[Action]:
    return [m.action for m in game.moves if isinstance(m.action, kind)]


def test_the_ai_dedicates_halls_moves_statues_and_places_pedestals() -> None:
    games = [mode_game(mode, False) for mode in ("4p", "3p", "5p")]
    halls = sum(len(_ai_moves(g, DedicateHall)) for g in games)
    moves = sum(len(_ai_moves(g, MoveStatue)) for g in games)
    pedestals = sum(
        1 for g in games for a in _ai_moves(g, Dig) if isinstance(a, Dig) and a.pedestal
    )
    assert halls >= 3 and moves >= 5 and pedestals >= 3, (halls, moves, pedestals)
    for game in games:
        assert {Keep, Dig, Recruit, EndTurn} <= {type(m.action) for m in game.moves}
        assert any(b.statues and b.halls for b in final_outcome(game.state).breakdowns)


def test_the_ai_keeps_strong_starting_trolls_in_the_inner_slots() -> None:
    content = load_content()
    for seed in range(6):
        game = gated_game(players=2, seed=seed)
        state = game.state
        player = state.players[0]
        designs = [c.id for c in content.trolls.values() if c.colour == player.colour]
        average = sum(troll_flow(c) for c in designs) / len(designs)
        action = choose_action(state, 0, random.Random(seed))
        assert isinstance(action, Keep)
        inner = SLOT_ACTIVATIONS[action.slot] == max(SLOT_ACTIVATIONS.values())
        flow = troll_flow(action.card)
        assert inner == (flow > average) or flow == average


def test_on_the_last_turn_leftovers_are_worth_their_sets() -> None:
    game = Game.new(players=2, seed=1)
    state = game.state
    valuer = make_valuer(state, Horizon(0, True, 0))
    counts = {Resource.STONE: 5, Resource.COIN: 2, Resource.RUNE: 4, Resource.CART: 1}
    key = counts_key(counts)
    full = {r: counts.get(r, 0) for r in RESOURCES}
    assert valuer.value(key, (0, 0, 0)) == best_leftover_sets(full)
    # with time left, five iron are worth about a size-5 iron tunnel
    later = make_valuer(state, Horizon(6, False, 4))
    five_iron = counts_key({Resource.IRON: 5})
    assert 6 < later.value(five_iron, (0, 0, 0)) < 9


def test_the_horizon_is_exact_once_the_end_is_triggered() -> None:
    game = Game.new(players=4, seed=1)
    state = game.state
    state.phase = "play"
    state.turn = Turn(seat=2)
    state.final_turns = 1 + (4 - 1 - 2) + 2 * 4  # seat 2 just took the last token
    assert horizon(state, 2).future_turns == 2
    assert horizon(state, 3).future_turns == 3  # this round, then two more
    assert horizon(state, 0).future_turns == 2


def test_the_ai_beats_three_random_players() -> None:
    """The AI sits in every seat in turn, twice; it must win every game, with at least
    twice the best random player's score (it scores three to four times as much). Its
    win rate over many games is benchmarks/ai_bench.py's figure."""
    config = make_config(players=4)
    for seed in range(100, 100 + WIN_GAMES):
        seat = seed % 4
        policies: list[Policy | str] = ["random"] * 4
        policies[seat] = "heuristic"
        outcome = final_outcome(play_game(config, seed, policies).state)
        totals = [b.total for b in outcome.breakdowns]
        best_random = max(t for s, t in enumerate(totals) if s != seat)
        assert outcome.winner == seat, (seed, totals)
        assert totals[seat] >= 2 * best_random, (seed, totals)


def test_last_turn_digs_with_what_is_left() -> None:
    """In its very last turn, with five heartstone, the AI digs rather than recruits."""
    game, rng = ai_setup(2, 4)
    state = game.state
    storage = state.account_of(0).storage
    for r in storage:
        storage[r] = 0
    storage["heartstone"] = 5
    state.final_turns = 1  # this is the last turn of the game
    action = choose_action(state, 0, rng)
    assert isinstance(action, Dig) and action.mineral == Resource.HEARTSTONE
    assert len(action.cells) == 5
    game.play(0, action)
    while game.state.phase != "over":
        game.play(0, choose_action(game.state, 0, rng))


def test_cli_selfplay_with_the_heuristic_ai(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--players", "2", "--seed", "3", "--ai", "heuristic,random"]) == 0
    record = json.loads(capsys.readouterr().out)
    game = game_from_record(record)
    assert game.state.phase == "over"
    assert main(["selfplay", "--players", "3", "--seed", "3", "--ai", "heuristic,random"]) == 2
    assert "one per seat" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["selfplay", "--players", "2", "--seed", "3", "--ai", "clever"])


def test_an_illegal_choice_falls_back_to_a_legal_action(monkeypatch: pytest.MonkeyPatch) -> None:
    game, rng = ai_setup(2, 2)
    monkeypatch.setattr(TurnPlayer, "act", lambda self, rng: MoveStatue("A1", "B1"))
    seat = game.state.current_seat
    assert seat is not None
    action = choose_action(game.state, seat, rng)
    assert action in legal_actions(game.state, seat)
    with pytest.raises(AssertionError, match="illegal"):
        choose_action(game.state, seat, rng, strict=True)


def test_under_golden_mask_the_ai_bribes_with_what_it_values_least() -> None:
    """Golden Mask: "your bribes may be any mix of resources instead of coins". The
    engine's default payment still spends coins first, so the AI names its payment:
    each bribe in what costs it least to give up. Every such recruit is legal, never
    costs more than paying coins first, and sometimes keeps the coins."""
    game, rng = ai_setup(3, 5)
    named = kept_coins = 0
    for _ in range(120):
        state = game.state
        if state.phase != "play":
            break
        seat = state.current_seat
        assert seat is not None
        if steps.allows(state, seat, "recruit"):
            masked = state.clone()
            assert masked.turn is not None
            masked.turn.flags.append(FLAG_ANY_BRIBES)
            ctx = Ctx(masked, seat)
            coin = RESOURCES.index(Resource.COIN)
            for choice in recruit_choices(masked, seat, ctx.valuer, ctx.hz, ctx.counts, ctx.peds):
                pay = choice.action.pay
                if not pay:
                    continue
                named += 1
                spent = [t.resource for t in pay]
                coins_first = resolve_payment(
                    masked, seat, [None] * len(spent), None, what="bribes"
                )
                cost = ctx.valuer.value(ctx.counts, ctx.peds) - ctx.valuer.value(
                    add(ctx.counts, spent, -1), ctx.peds
                )
                default_cost = ctx.valuer.value(ctx.counts, ctx.peds) - ctx.valuer.value(
                    add(ctx.counts, [t.resource for t in coins_first], -1), ctx.peds
                )
                assert cost <= default_cost + 1e-9, (spent, coins_first)
                if ctx.counts[coin] >= len(spent) and Resource.COIN not in spent:
                    kept_coins += 1
                engine.apply(masked.clone(), seat, choice.action)  # raises if illegal
        game.play(seat, choose_action(state, seat, rng))
    assert named >= 10, named
    assert kept_coins >= 1, kept_coins


# --- racing for buried statues ------------------------------------------------------------


def _race_row(g: Geometry) -> tuple[list[str], str]:
    """Nine cells in a row on one tier of the mountain, and a mountain cell above the
    8th (where a rival's gate can stand without touching the row's middle)."""
    for y in range(1, g.height):
        for x in range(g.width - 8):
            row = [cell_name((x + i, y)) for i in range(9)]
            above = cell_name((x + 7, y - 1))
            cells = [*row, above]
            on_mountain = all(c in g.bits and (1 << g.bit(c)) & g.area for c in cells)
            if on_mountain and len({g.tier(c) for c in row}) == 1:
                return row, above
    raise AssertionError("no row of nine cells on one tier")


def _race(monkeypatch: pytest.MonkeyPatch) -> tuple[State, list[str], list[Prospect]]:
    """Seat 0's gate in the middle of the row, a statue two cells to its left that
    nobody else is near, and one two cells to its right that seat 1's gate touches."""
    game = cleared_game(monkeypatch, 2)
    state = game.state
    row, above = _race_row(geo(state))
    put_gate(state, 0, row[4])
    put_gate(state, 1, above)
    state.board.statues[row[1]] = "fire"
    state.board.statues[row[7]] = "ice"
    g = geo(state)
    buried = {g.bit(row[1]): "fire", g.bit(row[7]): "ice"}
    return state, row, statue_prospects(state, 0, buried, horizon(state, 0))


def test_a_buried_statue_a_rival_is_nearer_to_is_a_poorer_prospect(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state, row, prospects = _race(monkeypatch)
    g = geo(state)
    free, hot = sorted(prospects, key=lambda p: p.bit != g.bit(row[1]))
    assert (free.reach, hot.reach) == (2, 2)  # two cells between the gate's edge and each
    assert free.rival > 2 and hot.rival == 0  # seat 1's gate touches the right-hand one
    assert free.value == hot.value
    assert free.worth == pytest.approx(prospect_worth(free.value, 2, 10**6, free.horizon))
    assert hot.worth < free.worth / 5


def test_the_ai_digs_towards_the_statue_it_can_win(monkeypatch: pytest.MonkeyPatch) -> None:
    state, row, prospects = _race(monkeypatch)
    g = geo(state)

    def gain(cells: list[str]) -> float:
        mask = g.mask(cells)
        return prospect_gain(prospects, mask, g.spread(mask) & ~mask)

    towards_free, towards_hot = gain([row[3], row[2]]), gain([row[5], row[6]])
    assert towards_free > towards_hot > 0


def test_the_ai_unearths_a_contested_statue_before_a_safe_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Unearthing takes a statue out of the prospects: losing a sure one costs more
    than losing one a rival would probably have taken (the honour found is the same)."""
    state, row, prospects = _race(monkeypatch)
    g = geo(state)

    def gain(cells: list[str]) -> float:
        mask = g.mask(cells)
        return prospect_gain(prospects, mask, g.spread(mask) & ~mask)

    # tiles of three reaching each statue from the gate
    assert gain([row[5], row[6], row[7]]) > gain([row[3], row[2], row[1]])
