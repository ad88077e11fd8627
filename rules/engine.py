"""Applying actions: the setup phases (gates, then the draft) and the turn as a step
machine.

    1  cast one spell and/or use one workshop (either order)
    2  recruit or dig (mandatory unless neither is possible)
    3  dedicate one great hall
    4  move statues
    the 4-for-1 trade is allowed at any point of your turn; `end` closes the turn.

Which kinds of action the phase and the turn's step allow is written once in
`rules.steps`: `apply` asks it first (`steps.check`), hands the action to the module of
its rule, then moves the turn on (`steps.advance`).

`read(state, seat, text)` reads a player's action in notation where the game stands
(what the moment refuses before what the text gets wrong). `apply(state, seat,
action)` mutates the state in place; it checks everything before
changing anything for the rules implemented here, but callers that must keep the state
on an error use `rules.game.Game` (which works on a copy). `apply_trusted` is the
unchecked fast path for actions already known to be legal (self-play, playouts, replays
of the engine's own games): the same carrying out, without the checks.
"""

from __future__ import annotations

from rules import halls, horde, mountain, spells, statues, steps, tunnels, workshops
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
    action_kind,
    parse_action,
    verb_kind,
)
from rules.content import load_content
from rules.errors import IllegalActionError, Listed, Phrase, echo
from rules.payment import gain, resolve_payment, spend
from rules.pyramid import new_troll
from rules.state import State, Turn

# actions after which undo is impossible because they revealed hidden cards
BARRIER_KINDS = (Keep, Recruit)


def read(state: State, seat: int, text: str) -> Action:
    """The action `seat` asks for in notation, read where the game stands: what the
    phase and the turn refuse to an action of the kind its verb names comes first (a
    gate during play is refused as a gate, whatever point the text names), then what
    is wrong with the text itself. `apply` judges the rest."""
    kind = verb_kind(text)
    if kind is not None:
        check_moment(state, seat, kind)
    return parse_action(text)


def check_moment(state: State, seat: int, kind: str) -> None:
    """Raise what the game's phase and turn refuse to `seat` for an action of `kind`
    (`read` asks it of the kind its text names; a command that builds its action from
    its options, `rules.asked`, asks it before it reads them)."""
    _check_seat(state, seat)
    steps.check(state, seat, kind)


def apply(state: State, seat: int, action: Action) -> None:
    """Apply `action` by the player in `seat`; raises a `RulesError` if it is illegal."""
    _apply(state, seat, action, checked=True)


def apply_trusted(state: State, seat: int, action: Action) -> None:
    """Apply an action already known to be legal, without checking it again (the
    checks that only decide whether it is legal are skipped): python-chess's `push`
    beside `push_san`.

    For actions listed by `rules.legal` for this state and seat (self-play, playouts)
    and replays of moves that were checked when they were played. What an illegal
    action does here is undefined: it may be refused, raise any exception or leave the
    state inconsistent. Anything that comes from a player, a record or a store that
    could be damaged goes through `apply` (`Game.play`, `game_from_record`).
    """
    _apply(state, seat, action, checked=False)


def _apply(state: State, seat: int, action: Action, *, checked: bool) -> None:
    kind = action_kind(action)
    if checked:
        _check_seat(state, seat)
        steps.check(state, seat, kind)
    barrier = False
    if isinstance(action, Keep):
        _keep(state, seat, action)
        barrier = True
    elif isinstance(action, PlaceGate):
        _gate(state, seat, action)
    elif isinstance(action, Trade):
        _trade(state, seat, action)
    elif isinstance(action, Cast):
        before = _hidden_piles(state)
        spells.cast(state, seat, action)
        barrier = before != _hidden_piles(state)
    elif isinstance(action, UseWorkshop):
        workshops.use_workshop(state, seat, action, checked=checked)
    elif isinstance(action, Recruit):
        horde.recruit(state, seat, action)
        _after_recruit(state, seat)
        barrier = True
    elif isinstance(action, Dig):
        tunnels.dig(state, seat, action, checked=checked)
    elif isinstance(action, DedicateHall):
        halls.dedicate_hall(state, seat, action, checked=checked)
    elif isinstance(action, MoveStatue):
        statues.move_statue(state, seat, action.origin, action.target, action.pay, checked=checked)
    elif isinstance(action, EndTurn):
        _end_turn(state, seat)
    else:  # pragma: no cover
        raise AssertionError(action)
    steps.advance(state, kind)
    state.n_actions += 1
    if barrier and state.turn is not None and state.turn.seat == seat:
        state.turn.undo_floor = state.n_actions


def _check_seat(state: State, seat: int) -> None:
    if not 0 <= seat < len(state.players):
        raise IllegalActionError("There is no seat {seat}.", "no_such_seat", seat=seat)


# --- setup phases -------------------------------------------------------------------


def _keep(state: State, seat: int, action: Keep) -> None:
    content = load_content()
    keeps = content.pieces.starting_draft_keeps
    player = state.players[seat]
    if action.card not in player.draft_hand:
        raise IllegalActionError(
            "{card} is not in your hand (you hold {hand}).",
            "not_in_hand",
            card=echo(action.card),
            hand=Listed(tuple(player.draft_hand)),
        )
    if action.slot in player.pyramid:
        raise IllegalActionError(
            "Slot {slot} already holds a troll.", "slot_taken", slot=action.slot
        )
    player.draft_hand.remove(action.card)
    player.pyramid[action.slot] = new_troll(action.card)
    gain(state, seat, [r for r, _ in content.trolls[action.card].start])
    if len(player.pyramid) < keeps:
        player.draft_hand.append(player.draft_deck.pop(0))
    else:
        _draft_bonus(state, seat)
    if all(len(p.pyramid) >= keeps for p in state.players):
        _setup_phase_done(state)


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
    refusal = gate_refusal(state, seat, action.point)
    if refusal is not None:
        raise refusal
    point = next(
        p
        for p in load_content().board(state.config.board_side).start_points
        if p.id == action.point
    )
    mountain.add_piece(state, "gate", action.point, seat, [point.cell])
    if seat + 1 < len(state.players):
        state.gate_seat = seat + 1
    else:
        state.gate_seat = None
        _setup_phase_done(state)


def _setup_phase_done(state: State) -> None:
    """The next setup phase begins, or after both the first player's first turn."""
    first, second = state.config.setup_phases
    if state.phase == first:
        state.phase = second
        state.gate_seat = 0 if second == "gates" else None
    else:
        state.phase = "play"
        state.turn = Turn(seat=0, undo_floor=state.n_actions + 1)


def gate_refusal(state: State, seat: int, point_id: str) -> IllegalActionError | None:
    """Why `seat` may not place its gate on `point_id` now, or None if it may: a start
    point of this side, marked for this table (in the game's rules edition), free, and
    in team mode next to the partner's gate once that is down."""
    side = load_content().board(state.config.board_side)
    points = {p.id: p for p in side.start_points}
    point = points.get(point_id)
    if point is None:
        free = tuple(p for p in points if gate_refusal(state, seat, p) is None)
        return IllegalActionError(
            "There is no start point {point}: choose one of {points}.",
            "no_such_point",
            point=echo(point_id),
            points=Listed(free, "or"),
        )
    allowed = allowed_gate_counts(state)
    counts = side.marks(state.config.edition)[point.id]
    if not allowed & set(counts):
        return IllegalActionError(
            "Start point {point} is for {counts} players; use one marked {allowed}.",
            "wrong_point",
            point=point.id,
            counts=Listed(tuple(counts), "or"),
            allowed=Listed(tuple(sorted(allowed)), "or"),
        )
    taken_cells = {points[p].cell for p in state.board.gates}
    if point_id in state.board.gates or point.cell in taken_cells:
        return IllegalActionError(
            "Start point {point} already has a gate.", "point_taken", point=point.id
        )
    beside = partner_points(state, seat)
    if beside is not None and point_id not in beside:
        return IllegalActionError(
            "In a team game your gate goes next to your partner's: on {points}.",
            "beside_partner",
            points=Listed(beside, "or"),
        )
    return None


def partner_points(state: State, seat: int) -> tuple[str, ...] | None:
    """In team mode, once the partner's gate is down: the free start points next to
    it (the Polish and Spanish rulebooks: partners make sure their gates lie next to
    each other on the winter side). None where any free point will do."""
    if not state.config.teams or state.config.edition < 3:
        return None
    team = state.players[seat].team
    placed = next(
        (p for p, s in state.board.gates.items() if s != seat and state.players[s].team == team),
        None,
    )
    if placed is None:
        return None
    side = load_content().board(state.config.board_side)
    beside = side.points_beside(placed, state.config.players, state.config.edition)
    return tuple(p for p in beside if p not in state.board.gates)


def allowed_gate_counts(state: State) -> set[int]:
    """Start-point numbers a gate may use now: the player count, or with 2 players any
    number the side offers, the second gate sharing a number with the first."""
    n = state.config.players
    if n != 2:
        return {n}
    marks = load_content().board(state.config.board_side).marks(state.config.edition)
    if state.board.gates:
        return set(marks[next(iter(state.board.gates))])
    return {k for counts in marks.values() for k in counts}


# --- the turn -----------------------------------------------------------------------


def _hidden_piles(state: State) -> tuple[object, ...]:
    """The face-down piles: any change means a card was revealed (an undo barrier)."""
    return (*(tuple(d) for d in state.decks), tuple(state.spell_deck), len(state.bag))


def _trade(state: State, seat: int, action: Trade) -> None:
    rate = load_content().pieces.trade_rate
    if len(action.give) != rate:
        raise IllegalActionError(
            "A trade with the supply takes exactly {rate} resources, not {given}.",
            "bad_trade",
            rate=rate,
            given=len(action.give),
        )
    tokens = resolve_payment(state, seat, action.give, action.pay, what=Phrase("the trade"))
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
    if state.final_turns is not None:
        state.final_turns -= 1
        if state.final_turns <= 0:
            state.phase = "over"
            state.turn = None
            return
    nxt = (seat + 1) % len(state.players)
    state.turn = Turn(seat=nxt, undo_floor=state.n_actions + 1)
