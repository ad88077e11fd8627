"""The trollsmoot (a player's pyramid of 4-3-2-1 troll cards) and the horde (5-4-3).

Slots are named by row and position: the pyramid's bottom row is A1..A4, then B1..B3,
C1..C2 and D1 on top; troll B1 stands on A1 and A2. Horde slots are `level.position`:
1.1..1.5, 2.1..2.4, 3.1..3.3; horde troll 2.1 stands on 1.1 and 1.2.
"""

from __future__ import annotations

from functools import cache

from rules.actions import PYRAMID_ROWS, PYRAMID_SLOTS
from rules.content import load_content
from rules.state import Player, Troll

HORDE_SLOTS: tuple[tuple[str, ...], ...] = (
    ("1.1", "1.2", "1.3", "1.4", "1.5"),
    ("2.1", "2.2", "2.3", "2.4"),
    ("3.1", "3.2", "3.3"),
)
ALL_HORDE_SLOTS: tuple[str, ...] = tuple(s for row in HORDE_SLOTS for s in row)
HORDE_POSITIONS: dict[str, tuple[int, int]] = {
    s: (row, j) for row, slots in enumerate(HORDE_SLOTS) for j, s in enumerate(slots)
}


@cache
def below(slot: str) -> tuple[str, ...]:
    """The two pyramid slots a troll in `slot` stands on (none for the bottom row)."""
    row = "ABCD".index(slot[0])
    if row == 0:
        return ()
    j = int(slot[1:]) - 1
    lower = PYRAMID_ROWS[row - 1]
    return (lower[j], lower[j + 1])


@cache
def cascade_slots(slot: str) -> tuple[str, ...]:
    """Every slot a cascade started at `slot` activates, top-down, each once."""
    seen: list[str] = []
    frontier = [slot]
    while frontier:
        nxt: list[str] = []
        for s in frontier:
            if s not in seen:
                seen.append(s)
                nxt.extend(below(s))
        frontier = nxt
    return tuple(seen)


def open_slots(player: Player) -> list[str]:
    """Empty pyramid slots above two trolls (where a recruit may go)."""
    pyramid = player.pyramid
    return [s for s, a, b in _UPPER if s not in pyramid and a in pyramid and b in pyramid]


# each slot above the bottom row with the two it stands on
_UPPER: tuple[tuple[str, str, str], ...] = tuple(
    (s, below(s)[0], below(s)[1]) for s in PYRAMID_SLOTS[4:]
)


def cascade(player: Player, slot: str) -> None:
    """Activate the troll on `slot` and everything beneath it: each activated troll gains
    every resource shown on its card that it is not already holding."""
    for s in cascade_slots(slot):
        troll = player.pyramid.get(s)
        if troll is not None:
            activate(troll)


def activate(troll: Troll) -> None:
    troll.held = [True] * len(troll.held)


def new_troll(card: str) -> Troll:
    return Troll(card, [False] * len(load_content().trolls[card].produce))


def horde_position(slot: str) -> tuple[int, int]:
    """`"2.3"` -> (row index 1, position index 2)."""
    position = HORDE_POSITIONS.get(slot)
    if position is None:  # not a horde slot: read it all the same, as the rules always did
        return int(slot[0]) - 1, int(slot[2]) - 1
    return position


@cache
def bribe_targets(slot: str) -> tuple[str, ...]:
    """Horde slots that must be bribed to recruit the troll on `slot` (level 2: the two
    level-1 trolls beneath it; level 3: the two level-2 trolls and three level-1 trolls)."""
    row, j = horde_position(slot)
    if row == 0:
        return ()
    if row == 1:
        return (HORDE_SLOTS[0][j], HORDE_SLOTS[0][j + 1])
    return (
        HORDE_SLOTS[1][j],
        HORDE_SLOTS[1][j + 1],
        HORDE_SLOTS[0][j],
        HORDE_SLOTS[0][j + 1],
        HORDE_SLOTS[0][j + 2],
    )
