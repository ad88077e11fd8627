"""Where the engine once departed from the rulebook, each test quotes the line it now
enforces (English rulebook; the Polish and Spanish texts agree where quoted).

Games created before edition 2 keep the rules they began with, so each rule is also
checked against an edition-1 game: a stored game never stops replaying.
"""

from __future__ import annotations

import pytest
from helpers import (
    cards,
    drafted_game,
    empty_trolls,
    open_workshop,
    put_troll,
    rulebook_text,
    set_storage,
    shows,
    storage,
)

from rules import statues
from rules.actions import Pay, Recruit
from rules.content import load_content
from rules.errors import IllegalActionError
from rules.game import Game, game_from_record
from rules.horde import FLAG_ANY_BRIBES
from rules.legal import legal_actions
from rules.payment import available_tokens, owned_counts
from rules.resources import Clan, Resource
from rules.state import EDITION


def _refused(game: Game, seat: int, action: str, code: str) -> IllegalActionError:
    before = game.state.to_json()
    with pytest.raises(IllegalActionError) as info:
        game.play(seat, action)
    assert info.value.code == code
    assert game.state.to_json() == before
    return info.value


# --- setup: gates (step C) before the starting-troll draft (step D) ---------------

STEP_C = (
    "C Beginning with the starting player and proceeding clockwise, each player places"
    " their gate tile on a start point of their choice marked with the player count."
)
STEP_D = "D Each player assembles the starting trolls in their own trollsmoot."


def test_the_rulebook_orders_gates_before_the_draft() -> None:
    text = rulebook_text()
    assert text.index(STEP_C) < text.index(STEP_D)


def test_a_new_game_places_gates_in_turn_order_before_anyone_drafts() -> None:
    """Step C: "Beginning with the starting player and proceeding clockwise, each
    player places their gate tile"; then step D, the draft."""
    game = Game.new(players=3, seed=11)
    state = game.state
    assert state.phase == "gates" and state.gate_seat == 0
    hand = state.players[0].draft_hand[0]
    error = _refused(game, 0, f"keep {hand} A1", "not_drafting")
    assert "once every gate is placed" in error.message
    assert legal_actions(state, 0, "keep") == []
    for seat in range(3):
        assert game.state.gate_seat == seat
        other = (seat + 1) % 3
        assert legal_actions(game.state, other, "gate") == []
        game.play(seat, legal_actions(game.state, seat, "gate")[0])
    assert game.state.phase == "draft" and game.state.gate_seat is None
    assert len(game.state.board.gates) == 3
    assert game.state.turn is None
    _refused(game, 0, "gate A1", "not_gates")


def test_after_the_gates_everyone_drafts_at_once_and_the_first_player_begins() -> None:
    """Step D is done by every player at the same time; then "Now you are ready to
    begin!" with the starting player."""
    game = Game.new(players=3, seed=11)
    for seat in range(3):
        game.play(seat, legal_actions(game.state, seat, "gate")[0])
    # the last player may keep before the first: the draft is simultaneous
    for seat in (2, 0, 1, 2, 1, 0, 0, 1, 2, 2, 1):
        game.play(seat, legal_actions(game.state, seat, "keep")[0])
    assert game.state.phase == "draft"
    game.play(0, legal_actions(game.state, 0, "keep")[0])
    assert game.state.phase == "play"
    assert game.state.turn is not None and game.state.turn.seat == 0
    assert all(len(p.pyramid) == 4 for p in game.state.players)


def test_a_game_stored_before_edition_2_still_drafts_first_and_replays() -> None:
    old = Game.new(players=2, seed=4, edition=1)
    assert old.state.phase == "draft"
    while old.state.phase == "draft":
        for seat in (0, 1):
            keeps = legal_actions(old.state, seat, "keep")
            if keeps:
                old.play(seat, keeps[0])
    assert old.state.phase == "gates"
    record = old.record()
    assert record["config"]["edition"] == 1
    # a record written before editions existed has no edition at all: it is edition 1
    del record["config"]["edition"]
    again = game_from_record(record)
    assert again.config.edition == 1
    assert again.state.to_json() == old.state.to_json()
    assert Game.new(players=2, seed=4).config.edition == EDITION == 3


# --- team mode: partners' gates lie next to each other (edition 3) -----------------

# the English book has no team mode; the Polish and Spanish books say it in setup
PARTNERS_PL = (
    "Usiądźcie obok swojego partnera i upewnijcie się, że wasze wrota leżą obok siebie"
    " na zimowej stronie planszy."
)
PARTNERS_ES = (
    "asegurandose de que las puertas de ambos se encuentren al lado en la cara de Invierno"
)


def test_the_polish_and_spanish_rulebooks_put_partners_gates_side_by_side() -> None:
    assert PARTNERS_PL in rulebook_text("pl")
    assert PARTNERS_ES in rulebook_text("es")


def _gates(game: Game, *points: str) -> None:
    for point in points:
        seat = game.state.gate_seat
        assert seat is not None
        game.play(seat, f"gate {point}")


def test_a_partner_places_their_gate_next_to_their_partners() -> None:
    """PL: "upewnijcie się, że wasze wrota leżą obok siebie na zimowej stronie planszy"
    (make sure your gates lie next to each other on the winter side). Seats 0 and 3 are
    one team, 1 and 2 the other; the 4-player points go W5, W6, W7, W8 round the
    edge, so each has two neighbours and one opposite point."""
    game = Game.new(players=4, seed=3, teams=True)
    _gates(game, "W6", "W7")
    # seat 2's partner (seat 1) is on W7: W5 is opposite it
    error = _refused(game, 2, "gate W5", "beside_partner")
    assert "next to your partner's" in error.message
    # W7's other neighbour, W6, is taken: the refusal names only the free one
    assert error.message.endswith("on W8.")
    assert [str(a) for a in legal_actions(game.state, 2, "gate")] == ["gate W8"]
    _gates(game, "W8")
    # seat 3's partner (seat 0) is on W6: of its neighbours W5 and W7, W5 is free
    assert [str(a) for a in legal_actions(game.state, 3, "gate")] == ["gate W5"]
    _gates(game, "W5")
    assert game.state.phase == "draft"


def test_the_first_gate_of_each_team_goes_anywhere_free() -> None:
    game = Game.new(players=4, seed=3, teams=True)
    assert [str(a) for a in legal_actions(game.state, 0, "gate")] == [
        "gate W5",
        "gate W6",
        "gate W7",
        "gate W8",
    ]
    _gates(game, "W5")
    # the other team's first gate may even go opposite
    assert "gate W7" in [str(a) for a in legal_actions(game.state, 1, "gate")]


def test_four_players_start_on_w5_to_w8_and_older_games_on_the_ring() -> None:
    """Edition 3 moved the 4-player table to W5-W8 (docs/content.md, "Seat balance");
    a game begun before keeps the points it was marked with, and replays."""
    new = Game.new(players=4, seed=5)
    assert {str(a) for a in legal_actions(new.state, 0, "gate")} == {
        "gate W5",
        "gate W6",
        "gate W7",
        "gate W8",
    }
    _refused(new, 0, "gate W2", "wrong_point")
    old = Game.new(players=4, seed=5, teams=True, edition=2)
    assert {str(a) for a in legal_actions(old.state, 0, "gate")} == {
        "gate W1",
        "gate W2",
        "gate W3",
        "gate W4",
    }
    # edition 2 had no partner rule: partners opposite each other (W1 and W3)
    _gates(old, "W1", "W2", "W4", "W3")
    assert old.state.board.gates == {"W1": 0, "W2": 1, "W4": 2, "W3": 3}
    again = game_from_record(old.record())
    assert again.state.to_json() == old.state.to_json()


# --- a level-3 recruit *may* take a pedestal: tests/rules/test_recruit.py (LEVEL3) -

# --- clan carts only move their clan's statues -------------------------------------

CLAN_CARTS = (
    "Cart tokens gained onto such symbols become clan carts that may only be spent to"
    " move a statue belonging to that clan."
)
FIRE_CART = Pay(Resource.CART, "A1", Clan.FIRE)


def _fire_cart(game: Game) -> None:
    """Seat 0's troll on A1 holds a Fire cart and nothing else."""
    card = cards(1, shows("fire-cart"))[0]
    produce = load_content().trolls[card].produce
    put_troll(game.state, 0, "A1", card, [k == Clan.FIRE for _, k in produce])


def _cart_game(edition: int = EDITION) -> Game:
    game = drafted_game(players=2, seed=29, edition=edition)
    empty_trolls(game.state, 0)
    set_storage(game.state, 0)
    _fire_cart(game)
    return game


def test_a_clan_cart_pays_for_no_trade() -> None:
    """ "clan carts that may only be spent to move a statue belonging to that clan"
    (PL "wyłącznie", ES "sólo")."""
    assert CLAN_CARTS in rulebook_text()
    game = _cart_game()
    set_storage(game.state, 0, stone=3)
    error = _refused(
        game,
        0,
        "trade 3stone+cart>iron pay stone@store stone@store stone@store fire-cart@A1",
        "clan_cart",
    )
    assert "may only move a Fire statue" in error.message
    _refused(game, 0, "trade 3stone+cart>iron", "cannot_afford")
    assert legal_actions(game.state, 0, "trade") == []
    # it is still held, and counts for the leftover sets at the end
    assert owned_counts(game.state, 0)[Resource.CART] == 0
    assert owned_counts(game.state, 0, held=True)[Resource.CART] == 1
    assert FIRE_CART in available_tokens(game.state, 0, held=True)


@pytest.mark.parametrize(
    ("workshop", "use"),
    [
        ("pickforge", "use S1 stone+cart>hammer pay fire-cart@A1 stone@store"),
        ("wheeljack", "use S1 stone+cart>cart pay fire-cart@A1 stone@store"),
    ],
)
def test_a_clan_cart_pays_for_no_workshop(
    monkeypatch: pytest.MonkeyPatch, workshop: str, use: str
) -> None:
    game = _cart_game()
    set_storage(game.state, 0, stone=1)
    open_workshop(monkeypatch, game.state, "S1", workshop, 4)
    _refused(game, 0, use, "clan_cart")
    uses = legal_actions(game.state, 0, "use")
    assert uses == [], "one stone alone pays for nothing there"


def test_a_clan_cart_pays_no_bribe_under_golden_mask() -> None:
    game = _cart_game()
    set_storage(game.state, 0, coin=1)
    assert game.state.turn is not None
    game.state.turn.flags.append(FLAG_ANY_BRIBES)  # Golden Mask: bribes of any resource
    _refused(game, 0, "recruit 2.1 B1 pay coin@store fire-cart@A1", "clan_cart")
    _refused(game, 0, "recruit 2.1 B1", "cannot_afford")
    recruits = legal_actions(game.state, 0, "recruit")
    assert not any(isinstance(a, Recruit) and a.horde.startswith("2.") for a in recruits)


def test_a_clan_cart_moves_its_own_clans_statue() -> None:
    """The one thing it pays for (the rulebook's own statue example, with a Fire cart,
    is `test_board.test_statue_move_example_from_the_rulebook`)."""
    game = _cart_game()
    assert statues.cart_tokens(game.state, 0, "fire") == [FIRE_CART]
    assert statues.cart_tokens(game.state, 0, "moon") == []


def test_a_clan_cart_moved_to_storage_becomes_wild_and_pays_for_anything(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """ "Move any 1 resource from one of your trolls into your storage. Clan carts
    become wild once moved to storage." (the Quartermaster)."""
    game = _cart_game()
    open_workshop(monkeypatch, game.state, "S1", "quartermaster", 4)
    game.play(0, "use S1 move fire-cart@A1")
    assert storage(game.state, 0) == {"cart": 1}
    set_storage(game.state, 0, cart=1, stone=3)
    game.play(0, "trade 3stone+cart>iron")
    assert storage(game.state, 0) == {"iron": 1}


def test_an_edition_1_game_still_spends_clan_carts_as_before() -> None:
    game = _cart_game(edition=1)
    set_storage(game.state, 0, stone=3)
    game.play(0, "trade 3stone+cart>iron pay stone@store stone@store stone@store fire-cart@A1")
    assert storage(game.state, 0) == {"iron": 1}
