"""The mountain board's rules as far as the troll economy needs them.

The board issue (tunnels, statues, great halls, open workshop entrances) replaces the
bodies below with the grid rules; until then there is no grid, so no tunnel can be dug
and no workshop can be reached.
"""

from __future__ import annotations

from rules.content import load_content
from rules.payment import owned_counts
from rules.resources import MINERALS
from rules.state import State


def has_minerals_for_a_tunnel(state: State, seat: int) -> bool:
    """True if the player owns enough of one mineral for the smallest tunnel left."""
    content = load_content()
    sizes = [t.size for t in content.tunnels if state.tunnels_left.get(t.id, 0) > 0]
    if not sizes:
        return False
    counts = owned_counts(state, seat)
    return any(counts[m] >= min(sizes) for m in MINERALS)


def can_dig(state: State, seat: int) -> bool:
    """Whether some tunnel can legally be dug now. Without the board grid there is
    nowhere to place one."""
    return has_minerals_for_a_tunnel(state, seat) and bool(dig_sites(state, seat))


def dig_sites(state: State, seat: int) -> list[str]:
    """Cells a new tunnel of this player could touch (none until the grid exists)."""
    return []


def workshop_uses(state: State, seat: int, site: str) -> int:
    """How many times the player may use the workshop on `site` this turn: its open
    entrances, if the player's network touches one (needs the grid: none yet)."""
    return 0
