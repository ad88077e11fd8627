"""Where the game and the turn stand, and which kinds of action each allows.

The game goes through phases: the gates (placed in turn order) and the starting-troll
draft (everyone at once) in the order of `GameConfig.setup_phases`, then play, then
over. In play the turn is a step machine:

    1  cast one spell and/or use one workshop (either order)
    2  recruit or dig (mandatory unless neither is possible)
    3  dedicate one great hall
    4  move statues
    the 4-for-1 trade is allowed at any point of your turn; `end` closes the turn.

`PHASE_KINDS` and `TURN_STEPS` write this down once. The engine reads it before an
action (`check`, which raises the refusal a player sees) and after it (`advance`); the
legal-move generators and the heuristic player ask `allows`. Whether an action of an
allowed kind is possible (a purse, a board, a horde) is the business of the module of
its rule.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rules import horde, tunnels
from rules.content import load_content
from rules.errors import GameOverError, IllegalActionError, Named, NotYourTurnError, RulesError
from rules.state import Phase, State

KINDS = ("keep", "gate", "cast", "use", "trade", "recruit", "dig", "hall", "move", "end")
TURN_KINDS = ("cast", "use", "trade", "recruit", "dig", "hall", "move", "end")

PHASE_KINDS: dict[Phase, tuple[str, ...]] = {
    "gates": ("gate",),  # one seat at a time, in turn order
    "draft": ("keep",),  # every seat still drafting, at once
    "play": TURN_KINDS,  # the seat whose turn it is, as `TURN_STEPS` allows
    "over": (),
}


@dataclass(frozen=True, slots=True)
class Refusal:
    """What a player is told when the turn does not allow an action, and its code."""

    template: str  # the sentence, a template of the bot's catalogue (see rules.errors)
    code: str

    def error(self) -> RulesError:
        return IllegalActionError(self.template, self.code)


@dataclass(frozen=True, slots=True)
class StepRule:
    """When in the turn one kind of action may come, and where the turn stands after.

    The turn's `step` is where the last action left it (1 at the start)."""

    until: int  # the last step it may come at
    late: Refusal | None = None  # past `until` (for the main action: also once done)
    waits: Refusal | None = None  # while a recruit or dig is still due
    main: bool = False  # the main action of step 2: once per turn (`Turn.main_done`)
    spell: bool = False  # a spell: once per turn (`Turn.spell_cast`)
    then: int | None = None  # the step the turn moves on to after it


MAIN_DONE = Refusal("You have already recruited or dug this turn.", "step_done")
ONE_SPELL = Refusal("You have already cast a spell this turn.", "one_spell")
HALL_LATE = Refusal("Great halls come before moving statues, one per turn.", "out_of_order")
MUST_ACT = Refusal("You must recruit a troll or dig a tunnel before ending your turn.", "must_act")

CAST_LATE = Refusal(
    "Too late to cast a spell: spells and workshops come before recruiting or digging.",
    "out_of_order",
)
USE_LATE = Refusal(
    "Too late to use a workshop: spells and workshops come before recruiting or digging.",
    "out_of_order",
)
HALL_FIRST = Refusal(
    "Recruit a troll or dig a tunnel first; then you may dedicate a great hall.", "out_of_order"
)
MOVE_FIRST = Refusal(
    "Recruit a troll or dig a tunnel first; then you may move statues.", "out_of_order"
)

TURN_STEPS: dict[str, StepRule] = {
    "cast": StepRule(until=1, late=CAST_LATE, spell=True),
    "use": StepRule(until=1, late=USE_LATE),
    "trade": StepRule(until=4),
    "recruit": StepRule(until=2, late=MAIN_DONE, main=True, then=3),
    "dig": StepRule(until=2, late=MAIN_DONE, main=True, then=3),
    "hall": StepRule(until=3, waits=HALL_FIRST, late=HALL_LATE, then=4),
    "move": StepRule(until=4, waits=MOVE_FIRST, then=4),
    "end": StepRule(until=4, waits=MUST_ACT),
}


def allows(state: State, seat: int, kind: str, possible: Possible | None = None) -> bool:
    """Whether where the game and the turn stand lets `seat` take an action of `kind`
    now (whether one is possible is for the rule of that kind). `possible`: as for
    `refusal`."""
    # the phase's kinds first: what the phase refuses needs no refusal made
    return kind in PHASE_KINDS[state.phase] and _refused(state, seat, kind, possible) is None


TurnKinds = tuple[frozenset[str], frozenset[str]]

_TURN_KINDS: dict[tuple[int, bool, bool], TurnKinds] = {}


def turn_kinds(state: State, seat: int) -> TurnKinds | None:
    """In play, for the seat whose turn it is: the kinds the turn's steps allow now,
    and those they allow only once no recruit or dig is due (`main_due`), as `allows`
    answers them (worked out once for each way a turn can stand). None at any other
    time: ask `allows`."""
    turn = state.turn
    if state.phase != "play" or turn is None or turn.seat != seat:
        return None
    key = (turn.step, turn.main_done, turn.spell_cast)
    found = _TURN_KINDS.get(key)
    if found is None:
        due = frozenset(k for k in TURN_KINDS if allows(state, seat, k, lambda _: True))
        free = frozenset(k for k in TURN_KINDS if allows(state, seat, k, lambda _: False))
        found = _TURN_KINDS[key] = (due, free - due)
    return found


def check(state: State, seat: int, kind: str) -> None:
    """Raise the refusal `seat` gets for an action of `kind` now, if any."""
    error = refusal(state, seat, kind)
    if error is not None:
        raise error


Possible = Callable[[str], bool]
"""Whether an action of a kind ("recruit", "dig") is possible for the seat now, the
turn's steps aside: a caller that has already worked it out passes it on."""

Why = Callable[[], RulesError]
"""Makes the refusal a player sees (only when one is wanted: `allows` needs none)."""


def refusal(
    state: State, seat: int, kind: str, possible: Possible | None = None
) -> RulesError | None:
    """Why `seat` may not take an action of `kind` now (None: the game and the turn
    allow it). Checked in this order: the game's end, the phase, whose go it is, then
    the turn's steps. `possible` answers for `main_due` (see there)."""
    why = _refused(state, seat, kind, possible)
    return None if why is None else why()


def _refused(state: State, seat: int, kind: str, possible: Possible | None) -> Why | None:
    if state.phase == "over":
        return lambda: GameOverError("The game is over.")
    if kind == "keep":
        return _draft_refusal(state, seat)
    if kind == "gate":
        return _gate_refusal(state, seat)
    turn = state.turn
    if kind not in PHASE_KINDS[state.phase] or turn is None:
        return _setting_up(state)
    if turn.seat != seat:
        colour = colour_named(state, turn.seat)
        return lambda: NotYourTurnError("It is {colour}'s turn.", colour=colour)
    rule = TURN_STEPS[kind]
    found = None
    if rule.waits is not None and main_due(state, seat, possible):
        found = rule.waits
    elif rule.late is not None and (turn.step > rule.until or (rule.main and turn.main_done)):
        found = rule.late
    elif rule.spell and turn.spell_cast:
        found = ONE_SPELL
    return None if found is None else found.error


def advance(state: State, kind: str) -> None:
    """Where the turn stands after an action of `kind` was carried out."""
    rule = TURN_STEPS.get(kind)
    turn = state.turn
    if rule is None or turn is None:
        return
    if rule.main:
        turn.main_done = True
    if rule.spell:
        turn.spell_cast = True
    if rule.then is not None:
        turn.step = rule.then


def main_due(state: State, seat: int, possible: Possible | None = None) -> bool:
    """Whether step 2 still obliges `seat` to recruit or dig (before a great hall,
    statue moves or the end of the turn): it is their turn, the main action is not
    done and one is possible (asked of `possible` if given, else of the horde and the
    tunnels' rules)."""
    turn = state.turn
    if turn is None or turn.seat != seat or turn.main_done or turn.step > 2:
        return False
    if possible is not None:
        return possible("recruit") or possible("dig")
    return horde.can_recruit(state, seat) or tunnels.can_dig(state, seat)


def seats_to_act(state: State) -> list[int]:
    """Who may act now: everyone still drafting, or the one seat whose turn it is."""
    if state.phase == "draft":
        return [p.seat for p in state.players if _drafting(state, p.seat)]
    seat = state.current_seat
    return [] if seat is None else [seat]


def _drafting(state: State, seat: int) -> bool:
    return len(state.players[seat].pyramid) < load_content().pieces.starting_draft_keeps


def _draft_refusal(state: State, seat: int) -> Why | None:
    if "keep" not in PHASE_KINDS[state.phase]:
        if state.phase == "gates" and state.config.gates_first:
            return lambda: IllegalActionError(
                "The starting-troll draft begins once every gate is placed.", "not_drafting"
            )
        return lambda: IllegalActionError("The starting-troll draft is over.", "not_drafting")
    if not _drafting(state, seat):
        return lambda: IllegalActionError(
            "You have already kept your four starting trolls.", "draft_done"
        )
    return None


def _setting_up(state: State) -> Why:
    """A turn's action before the turns begin: which part of the setup is under way."""
    if state.phase == "gates":
        return lambda: IllegalActionError(
            "The turns have not begun: the gates are still being placed.", "not_playing"
        )
    return lambda: IllegalActionError(
        "The turns have not begun: the starting trolls are still being drafted.", "not_playing"
    )


def _gate_refusal(state: State, seat: int) -> Why | None:
    if "gate" not in PHASE_KINDS[state.phase]:
        # told from where the game stands now: in play, the gates are long placed
        if state.phase == "draft" and not state.config.gates_first:
            return lambda: IllegalActionError(
                "Gates are placed after the starting-troll draft.", "not_gates"
            )
        if state.phase == "draft":
            return lambda: IllegalActionError(
                "The gates are all placed: the starting-troll draft is under way.", "not_gates"
            )
        return lambda: IllegalActionError(
            "The gates are all placed: the game is in play.", "not_gates"
        )
    if state.gate_seat != seat:
        colour = colour_named(state, state.gate_seat or 0)
        return lambda: NotYourTurnError(
            "Gates are placed in turn order: it is {colour}'s turn to place one.", colour=colour
        )
    return None


def colour_named(state: State, seat: int) -> Named:
    """A seat by its colour, as a refusal names it."""
    colour = state.players[seat].colour
    return Named("colour", colour, colour)
