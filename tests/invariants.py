"""What holds in every state of a game of In the Hall of the Mountain King, checked
after each action of a playout (tests/rules/test_playouts.py, tests/test_ai.py), and the
tables those playouts are played at."""

from __future__ import annotations

import json
from collections import Counter

from rules.actions import PYRAMID_SLOTS, Action
from rules.content import load_content
from rules.game import Game, game_from_record
from rules.mountain import geo, networks
from rules.pyramid import below
from rules.selfplay import play_random_game
from rules.state import GameConfig, State

# a playout checks every state it passes (tens of thousands in the suite): what these
# checks look up is worked out once
SLOT_SET = frozenset(PYRAMID_SLOTS)
BELOW = {slot: below(slot) for slot in PYRAMID_SLOTS}

MODES = {
    "2p-winter": {"players": 2, "side": "winter"},
    "2p-autumn": {"players": 2, "side": "autumn"},
    "3p": {"players": 3},
    "4p": {"players": 4},
    "5p": {"players": 5},
    "teams": {"players": 4, "teams": True},
}


def check_invariants(state: State) -> None:
    content = load_content()
    pieces = content.pieces
    for account in state.accounts:
        assert all(n >= 0 for n in account.storage.values()), account.storage
        assert all(n >= 0 for n in account.pedestals.values()), account.pedestals
    horde_cards: list[str] = []
    for player in state.players:
        pyramid = player.pyramid
        assert len(pyramid) <= pieces.pyramid_size
        assert pyramid.keys() <= SLOT_SET
        for slot, troll in pyramid.items():
            assert all(b in pyramid for b in BELOW[slot]), f"{slot} floats in the air"
            card = content.trolls[troll.card]
            assert len(troll.held) == len(card.produce)
            if card.starting:
                assert card.colour == player.colour
            else:
                horde_cards.append(troll.card)
        if state.phase in ("play", "over"):
            assert all(s in pyramid for s in PYRAMID_SLOTS[:4])
    for row in state.horde:
        for hs in row:
            assert len(hs.bribes) < pieces.retire_bribes
            if hs.card is not None:
                horde_cards.append(hs.card)
    for deck in state.decks:
        horde_cards.extend(deck)
    # horde cards are never duplicated; only Ceremony of Exaltation removes any
    assert len(horde_cards) == len(set(horde_cards))
    assert len(horde_cards) <= 55
    # pedestals: bag + on horde trolls + in storages (+ on the board later) = 18
    pedestals = len(state.bag) + sum(1 for row in state.horde for hs in row if hs.pedestal)
    pedestals += sum(sum(a.pedestals.values()) for a in state.accounts)
    pedestals += sum(1 for p in state.board.pieces if p.pedestal is not None)
    pedestals += state.board.lost_pedestals
    assert pedestals == 3 * pieces.pedestals_per_clan
    check_board(state)
    # spells: each of the 17 exactly once between spellbook and deck
    spells = [s.spell for s in state.spellbook] + state.spell_deck
    assert sorted(spells) == sorted(s.id for s in content.spells)
    assert all(0 <= s.runes < pieces.runes_to_disintegrate for s in state.spellbook)
    # coronation tokens are conserved
    tokens = state.coronation_left + [t for a in state.accounts for t in a.coronation]
    expected = (
        content.tables.coronation_tokens[1:]
        if state.config.players == 2
        else (content.tables.coronation_tokens)
    )
    assert sorted(tokens) == sorted(expected)
    # pedestal point tokens: on the track or held, 15 in all
    held_tokens = sum(len(a.tokens) for a in state.accounts)
    on_track = sum(1 for v in state.pedestal_track.values() if v is not None)
    assert held_tokens + on_track == 15


def check_board(state: State) -> None:
    content = load_content()
    g = geo(state)
    nets = networks(state)
    seen = 0
    for piece in state.board.pieces:
        mask = g.mask(piece.cells)
        assert not mask & seen, f"piece {piece.id} overlaps another"
        assert not mask & (g.heart | g.sites), "a piece covers the Heart or a workshop site"
        assert mask & g.area == mask
        seen |= mask
    # networks of players who are not partners never touch along an edge
    for a, mask_a in nets.own.items():
        around_a = g.spread(mask_a)
        for b, mask_b in nets.own.items():
            pa, pb = state.players[a], state.players[b]
            partners = pa.team is not None and pa.team == pb.team
            if a != b and not partners:
                assert not around_a & mask_b, f"{pa.colour} touches {pb.colour}"
    # statues are never lost or duplicated, and stand on the mountain
    spots = content.board(state.config.board_side).statue_spots
    assert len(state.board.statues) == min(len(spots), 3 * content.pieces.statues_per_clan)
    assert all(c in g.bits for c in state.board.statues)
    # workshops: established ones left the supply, on sites
    assert all((1 << g.bit(s)) & g.sites for s in state.board.workshops)
    # pedestal point tokens taken match pedestals laid (or lost under halls)
    taken = sum(1 for v in state.pedestal_track.values() if v is None)
    laid = sum(1 for p in state.board.pieces if p.pedestal is not None)
    assert taken == laid + state.board.lost_pedestals
    for tile in content.tunnels:
        assert 0 <= state.tunnels_left[tile.id] <= tile.count


def checked_random_playout(config: GameConfig, seed: int) -> Game:
    """A seeded game of random legal actions to its end, every invariant checked after
    every action, the score sheet adding up, and the record replayed to the identical
    state (tests/rules/test_playouts.py; scripts/playouts.py plays many more)."""
    seen: Counter[str] = Counter()

    def check(state: State, seat: int, action: Action) -> None:
        seen[type(action).__name__] += 1
        check_invariants(state)

    game = play_random_game(config, seed, on_action=check)
    assert game.state.phase == "over"
    outcome = game.outcome
    assert outcome is not None
    for line, account in zip(outcome.breakdowns, game.state.accounts, strict=True):
        assert line.tunnels + line.spells == account.tunnel_honor + account.spell_honor
        assert line.total == sum(
            getattr(line, k)
            for k in ("tunnels", "spells", "coronation", "pedestals", "sets", "halls", "statues")
        )
    assert seen["Recruit"] > 0 and seen["EndTurn"] > 0
    # the record replays to the identical state
    record = json.loads(json.dumps(game.record()))
    replayed = game_from_record(record)
    assert replayed.state.to_json() == game.state.to_json()
    return game
