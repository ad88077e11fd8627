"""Applying actions: the setup phases (draft, gates) and the turn as a step machine.

    1  cast one spell and/or use one workshop (either order)
    2  recruit or dig (mandatory unless neither is possible)
    3  dedicate one great hall
    4  move statues
    the 4-for-1 trade is allowed at any point of your turn; `end` closes the turn.

`apply(state, seat, action)` mutates the state in place and is the fast path used by
replay; it checks everything before changing anything for the rules implemented here,
but callers that must keep the state on an error use `rules.game.Game` (which works on
a copy).
"""

from __future__ import annotations

from rules import board, horde, spells, workshops
from rules.actions import (
    Action,
    Cast,
    DedicateHall,
    Dig,
    EndTurn,
    Keep,
    MoveStatue,
    PlaceGate,
    Recruit,
    Trade,
    UseWorkshop,
)
from rules.content import load_content
from rules.errors import GameOverError, IllegalActionError, NotYourTurnError
from rules.payment import gain, resolve_payment, spend
from rules.pyramid import new_troll
from rules.state import State, Turn

# actions after which undo is impossible because they revealed hidden cards
BARRIER_KINDS = (Keep, Recruit)


def apply(state: State, seat: int, action: Action) -> None:
    """Apply `action` by the player in `seat`; raises a `RulesError` if it is illegal."""
    if not 0 <= seat < len(state.players):
        raise IllegalActionError(f"There is no seat {seat}.", "no_such_seat")
    if state.phase == "over":
        raise GameOverError("The game is over.")
    barrier = False
    if isinstance(action, Keep):
        _keep(state, seat, action)
        barrier = True
    elif isinstance(action, PlaceGate):
        _gate(state, seat, action)
    else:
        turn = _my_turn(state, seat, action)
        if isinstance(action, Trade):
            _trade(state, seat, action)
        elif isinstance(action, Cast):
            _step1(turn, "cast a spell")
            if turn.spell_cast:
                raise IllegalActionError("You have already cast a spell this turn.", "one_spell")
            before = _hidden_piles(state)
            spells.cast(state, seat, action)
            barrier = before != _hidden_piles(state)
        elif isinstance(action, UseWorkshop):
            _step1(turn, "use a workshop")
            workshops.use_workshop(
                state, seat, action, board.workshop_uses(state, seat, action.site)
            )
        elif isinstance(action, Recruit):
            if turn.main_done or turn.step > 2:
                raise IllegalActionError(
                    "You have already recruited or dug this turn.", "step_done"
                )
            horde.recruit(state, seat, action)
            turn.main_done = True
            turn.step = 3
            _after_recruit(state, seat)
            barrier = True
        elif isinstance(action, Dig):
            if turn.main_done or turn.step > 2:
                raise IllegalActionError(
                    "You have already recruited or dug this turn.", "step_done"
                )
            board.dig(state, seat, action)
            turn.main_done = True
            turn.step = 3
        elif isinstance(action, DedicateHall):
            _after_step2(state, seat, turn, "dedicate a great hall")
            if turn.step > 3:
                raise IllegalActionError(
                    "Great halls come before moving statues, one per turn.", "out_of_order"
                )
            board.dedicate_hall(state, seat, action)
            turn.step = 4
        elif isinstance(action, MoveStatue):
            _after_step2(state, seat, turn, "move statues")
            board.move_statue(state, seat, action.origin, action.target, action.pay)
            turn.step = 4
        elif isinstance(action, EndTurn):
            _end_turn(state, seat)
        else:  # pragma: no cover
            raise AssertionError(action)
    state.n_actions += 1
    if barrier and state.turn is not None and state.turn.seat == seat:
        state.turn.undo_floor = state.n_actions


def must_recruit_or_dig(state: State, seat: int) -> bool:
    """Whether step 2 still obliges this player to recruit or dig before ending."""
    turn = state.turn
    if turn is None or turn.main_done or turn.step > 2:
        return False
    return can_recruit(state, seat) or board.can_dig(state, seat)


def can_recruit(state: State, seat: int) -> bool:
    from rules.legal import recruit_actions

    return next(iter(recruit_actions(state, seat)), None) is not None


def seats_to_act(state: State) -> list[int]:
    """Who may act now: everyone still drafting, or the one seat whose turn it is."""
    if state.phase == "draft":
        keeps = load_content().pieces.starting_draft_keeps
        return [p.seat for p in state.players if len(p.pyramid) < keeps]
    seat = state.current_seat
    return [] if seat is None else [seat]


# --- setup phases -------------------------------------------------------------------


def _keep(state: State, seat: int, action: Keep) -> None:
    content = load_content()
    keeps = content.pieces.starting_draft_keeps
    player = state.players[seat]
    if state.phase != "draft":
        raise IllegalActionError("The starting-troll draft is over.", "not_drafting")
    if len(player.pyramid) >= keeps:
        raise IllegalActionError("You have already kept your four starting trolls.", "draft_done")
    if action.card not in player.draft_hand:
        raise IllegalActionError(
            f"{action.card} is not in your hand (you hold {' and '.join(player.draft_hand)}).",
            "not_in_hand",
        )
    if action.slot in player.pyramid:
        raise IllegalActionError(f"Slot {action.slot} already holds a troll.", "slot_taken")
    player.draft_hand.remove(action.card)
    player.pyramid[action.slot] = new_troll(action.card)
    gain(state, seat, [r for r, _ in content.trolls[action.card].start])
    if len(player.pyramid) < keeps:
        player.draft_hand.append(player.draft_deck.pop(0))
    else:
        _draft_bonus(state, seat)
    if all(len(p.pyramid) >= keeps for p in state.players):
        state.phase = "gates"
        state.gate_seat = 0


def _draft_bonus(state: State, seat: int) -> None:
    """2nd and 3rd players also gain the starting resources of the troll left in hand;
    4th and 5th players also those of the unseen last troll. None in team mode."""
    if state.config.teams or seat == 0:
        return
    content = load_content()
    player = state.players[seat]
    extra = list(player.draft_hand)
    if seat >= 3:
        extra += player.draft_deck
    for card in extra:
        gain(state, seat, [r for r, _ in content.trolls[card].start])


def _gate(state: State, seat: int, action: PlaceGate) -> None:
    if state.phase != "gates":
        raise IllegalActionError("Gates are placed after the starting-troll draft.", "not_gates")
    if state.gate_seat != seat:
        raise NotYourTurnError(
            f"Gates are placed in turn order: it is {state.players[state.gate_seat or 0].colour}'s"
            " turn to place one."
        )
    side = load_content().board(state.config.board_side)
    points = {p.id: p for p in side.start_points}
    point = points.get(action.point)
    if point is None:
        raise IllegalActionError(
            f"There is no start point {action.point} on the {side.name.lower()}.", "no_such_point"
        )
    allowed = allowed_gate_counts(state)
    if not allowed & set(point.players):
        raise IllegalActionError(
            f"Start point {point.id} is for {' or '.join(map(str, point.players))} players;"
            f" use one marked {' or '.join(map(str, sorted(allowed)))}.",
            "wrong_point",
        )
    taken_cells = {points[p].cell for p in state.board.gates}
    if action.point in state.board.gates or point.cell in taken_cells:
        raise IllegalActionError(f"Start point {point.id} already has a gate.", "point_taken")
    board.add_piece(state, "gate", action.point, seat, [point.cell])
    if seat + 1 < len(state.players):
        state.gate_seat = seat + 1
    else:
        state.gate_seat = None
        state.phase = "play"
        state.turn = Turn(seat=0, undo_floor=state.n_actions + 1)


def allowed_gate_counts(state: State) -> set[int]:
    """Start-point numbers a gate may use now: the player count, or with 2 players any
    number the side offers, the second gate sharing a number with the first."""
    n = state.config.players
    if n != 2:
        return {n}
    side = load_content().board(state.config.board_side)
    if state.board.gates:
        first = next(iter(state.board.gates))
        return {k for p in side.start_points if p.id == first for k in p.players}
    return {k for p in side.start_points for k in p.players}


# --- the turn -----------------------------------------------------------------------


def _my_turn(state: State, seat: int, action: Action) -> Turn:
    if state.phase != "play" or state.turn is None:
        raise IllegalActionError(
            "The game has not started yet: finish the draft and the gates first.", "not_playing"
        )
    if state.turn.seat != seat:
        raise NotYourTurnError(f"It is {state.players[state.turn.seat].colour}'s turn.")
    return state.turn


def _step1(turn: Turn, what: str) -> None:
    if turn.step > 1:
        raise IllegalActionError(
            f"Too late to {what}: spells and workshops come before recruiting or digging.",
            "out_of_order",
        )


def _hidden_piles(state: State) -> tuple[object, ...]:
    """The face-down piles: any change means a card was revealed (an undo barrier)."""
    return (*(tuple(d) for d in state.decks), tuple(state.spell_deck), len(state.bag))


def _after_step2(state: State, seat: int, turn: Turn, what: str) -> None:
    if not turn.main_done and must_recruit_or_dig(state, seat):
        raise IllegalActionError(
            f"Recruit a troll or dig a tunnel first; then you may {what}.", "out_of_order"
        )


def _trade(state: State, seat: int, action: Trade) -> None:
    rate = load_content().pieces.trade_rate
    if len(action.give) != rate:
        raise IllegalActionError(
            f"A trade with the supply takes exactly {rate} resources, not {len(action.give)}.",
            "bad_trade",
        )
    tokens = resolve_payment(state, seat, action.give, action.pay, what="the trade")
    spend(state, seat, tokens)
    gain(state, seat, [action.get])


def _after_recruit(state: State, seat: int) -> None:
    """Capping the pyramid takes the next coronation token; the last one triggers the
    end: finish this round, then every player has two more turns."""
    content = load_content()
    player = state.players[seat]
    if len(player.pyramid) < content.pieces.pyramid_size or not state.coronation_left:
        return
    state.account_of(seat).coronation.append(state.coronation_left.pop(0))
    if not state.coronation_left:
        n = len(state.players)
        state.final_turns = 1 + (n - 1 - seat) + 2 * n


def _end_turn(state: State, seat: int) -> None:
    if must_recruit_or_dig(state, seat):
        raise IllegalActionError(
            "You must recruit a troll or dig a tunnel before ending your turn.", "must_act"
        )
    if state.final_turns is not None:
        state.final_turns -= 1
        if state.final_turns <= 0:
            state.phase = "over"
            state.turn = None
            return
    nxt = (seat + 1) % len(state.players)
    state.turn = Turn(seat=nxt, undo_floor=state.n_actions + 1)
