"""A heuristic AI player: `choose_action(state, seat, rng)` returns one legal action.

The game loop calls it for the seat to act until it returns `EndTurn()` (in the draft,
for each drafting seat). It is pure and deterministic: the only randomness comes from
the `random.Random` passed in (tie-breaking), and it looks only at what the player may
see (not at the order of decks or the bag, nor other players' hidden cards).

How it plays (see the modules for the numbers):

- **Draft** (`opening`): keeps the card whose produce beats the average most in an
  inner slot (A2/A3 activate most), weaker cards in the outer ones.
- **Gate** (`opening`): the start point with the most valuable room of its own toward
  the heart (tiers, statues, sites; cells nearer another gate do not count).
- **Turn** (`turn`): prices every dig (`digging`: tunnel score, statues unearthed,
  buried statues brought nearer where it can win the race to them (a rival nearer to
  a statue usually gets there first), deeper tiers, buried resources, workshops,
  pedestals with their token and doubling) and every recruit (`recruiting`: the
  cascade, bribes, pedestals, the troll's future activations, coronation) against
  what the resources are worth with the turns left (`values`); tries spells, workshop
  uses and trades first when they make the turn better; then dedicates the best great
  hall and moves statues deeper and onto pedestals and altars (`statues`).
- **Endgame**: once the coronation is triggered the number of turns left is exact;
  on the last turn resources are worth their leftover sets, so it digs what it can,
  finishes statue moves (trading for a cart when that pays) and keeps sets.
"""

from __future__ import annotations

import random

from rules.actions import Action
from rules.ai.opening import choose_gate, choose_keep
from rules.ai.turn import TurnPlayer, fallback, is_legal
from rules.errors import IllegalActionError
from rules.state import State


def choose_action(state: State, seat: int, rng: random.Random, *, strict: bool = False) -> Action:
    """One legal action for `seat`, which must be a seat allowed to act now.

    Every turn action is tried on a copy first; should the AI ever pick an illegal one
    (a bug), it ends the turn or takes the first legal recruit or dig instead, or with
    `strict` raises an `AssertionError` (for tests)."""
    if state.phase == "draft":
        return choose_keep(state, seat, rng)
    if state.phase == "gates":
        return choose_gate(state, seat, rng)
    if state.phase != "play" or state.turn is None or state.turn.seat != seat:
        raise IllegalActionError("Seat {seat} has nothing to do now.", "not_your_turn", seat=seat)
    player = TurnPlayer(state, seat)
    action = player.act(rng)
    if player.verified or is_legal(state, seat, action):
        return action
    if strict:
        raise AssertionError(f"the AI chose an illegal action: {action}")
    return fallback(state, seat)


__all__ = ["choose_action"]
