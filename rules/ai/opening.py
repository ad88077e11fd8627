"""The heuristic player's setup decisions: the starting-troll draft and the gate."""

from __future__ import annotations

import random
from collections import deque

from rules.actions import PYRAMID_ROWS, Keep, PlaceGate
from rules.ai.values import HOLD, PARTIAL, troll_flow
from rules.content import load_content
from rules.legal import gate_actions
from rules.mountain import geo
from rules.resources import Resource
from rules.state import State

# activations over a whole game by bottom slot (A2/A3 sit under more recruits)
SLOT_ACTIVATIONS = {"A1": 3.0, "A2": 5.0, "A3": 5.0, "A4": 3.0}
PRODUCE_WEIGHT = 0.8  # a full pyramid is rare: count most, not all, activations


def _start_value(res: Resource) -> float:
    return PARTIAL.get(res, HOLD.get(res, 0.5))


def choose_keep(state: State, seat: int, rng: random.Random) -> Keep:
    """Keep the card whose produce beats the average most in an inner slot, or the
    weaker card in an outer slot; its one-time start row counts too."""
    content = load_content()
    player = state.players[seat]
    designs = [c for c in content.trolls.values() if c.colour == player.colour]
    average = sum(troll_flow(c.id) for c in designs) / len(designs)
    free = [s for s in PYRAMID_ROWS[0] if s not in player.pyramid]
    best: tuple[float, float, Keep] | None = None
    for card in player.draft_hand:
        start = sum(_start_value(res) for res, _ in content.trolls[card].start)
        surplus = troll_flow(card) - average
        for slot in free:
            value = surplus * SLOT_ACTIVATIONS[slot] * PRODUCE_WEIGHT + start
            key = (value, rng.random())
            if best is None or key > best[:2]:
                best = (*key, Keep(card, slot))
    assert best is not None
    return best[2]


# what a cell near the gate is worth: deeper tiers, statues, buried resources, sites
TIER_WEIGHT = (1.0, 1.6, 2.6, 3.6, 4.6)
STATUE_WEIGHT = 4.0
SITE_WEIGHT = 0.8
DECAY = 6.0  # distance (in cells) at which a cell counts half


def _distances(state: State, start: int) -> dict[int, int]:
    g = geo(state)
    dist = {start: 0}
    queue = deque([start])
    area = g.area
    while queue:
        b = queue.popleft()
        for n in (b - g.stride, b + 1, b + g.stride, b - 1):
            if n >= 0 and n not in dist and (area >> n) & 1:
                dist[n] = dist[b] + 1
                queue.append(n)
    return dist


def choose_gate(state: State, seat: int, rng: random.Random) -> PlaceGate:
    """The start point with the most valuable room of its own: cells count by tier,
    statues and sites, less with distance, and not at all where another gate is
    closer (half where it is as close)."""
    g = geo(state)
    content = load_content()
    side = content.board(state.config.board_side)
    cells = {p.id: p.cell for p in side.start_points}
    me = state.players[seat]
    others = []
    for point, other in state.board.gates.items():
        partner = me.team is not None and state.players[other].team == me.team
        if not partner:
            others.append(_distances(state, g.bit(cells[point])))
    worth: dict[int, float] = {}
    for b in g.names:
        if not (g.area >> b) & 1:
            continue
        tier = next(i for i, m in enumerate(g.tier_masks) if (m >> b) & 1)
        w = TIER_WEIGHT[tier]
        if g.names[b] in state.board.statues:
            w += STATUE_WEIGHT
        if (g.sites >> b) & 1:
            w = SITE_WEIGHT
        if b in g.buried:
            w += 0.5
        worth[b] = w
    best: tuple[float, float, PlaceGate] | None = None
    for action in gate_actions(state, seat):
        assert isinstance(action, PlaceGate)
        mine = _distances(state, g.bit(cells[action.point]))
        value = 0.0
        for b, d in mine.items():
            share = 1.0
            for theirs in others:
                e = theirs.get(b)
                if e is not None and e < d:
                    share = 0.0
                    break
                if e is not None and e == d:
                    share = min(share, 0.5)
            if share:
                value += share * worth.get(b, 0.0) / (1.0 + d / DECAY)
        key = (value, rng.random())
        if best is None or key > best[:2]:
            best = (*key, action)
    assert best is not None
    return best[2]
