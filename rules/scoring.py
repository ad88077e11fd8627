"""Scores during play and the final scoring with its breakdown and the winner.

Final scoring adds to the honor earned in play (tunnels, Dedication Ritual):
coronation tokens, pedestal point tokens, leftover sets of three identical resources
(after the best possible 4-for-1 trades), great halls and statues (the last two come
with the board). In team mode everything is per team.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from rules.content import load_content
from rules.mountain import geo, networks
from rules.payment import owned_counts
from rules.resources import RESOURCES, Resource
from rules.state import Piece, State


@dataclass(frozen=True)
class Breakdown:
    """One scoring line: a player, or a team in team mode."""

    account: int
    seats: tuple[int, ...]
    tunnels: int
    spells: int
    coronation: int
    pedestals: int
    sets: int
    halls: int
    statues: int

    @property
    def total(self) -> int:
        return (
            self.tunnels
            + self.spells
            + self.coronation
            + self.pedestals
            + self.sets
            + self.halls
            + self.statues
        )

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = asdict(self)
        data["seats"] = list(self.seats)
        data["total"] = self.total
        return data


@dataclass(frozen=True)
class Outcome:
    breakdowns: tuple[Breakdown, ...]
    winner: int  # account index of the winner
    winning_seats: tuple[int, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "breakdown": [b.to_json() for b in self.breakdowns],
            "winner": self.winner,
            "winning_seats": list(self.winning_seats),
        }


def current_scores(state: State) -> list[int]:
    """Honor on the score track now (per account): what was earned during play."""
    return [a.tunnel_honor + a.spell_honor for a in state.accounts]


def best_leftover_sets(counts: dict[Resource, int], set_size: int = 3, rate: int = 4) -> int:
    """Honor from leftover sets: one per `set_size` identical resources, after the best
    trades of `rate` mixed resources for one.

    Breaking a complete set never pays (it frees `set_size` items, fewer than a trade
    needs), so only leftovers (items outside complete sets) are traded. Completing a kind
    that is `k` short costs `k` trades and takes that kind's own leftovers out of the
    fodder; a brand-new set costs `set_size` trades. We try every number of completions
    of each shortfall and fill the rest with new sets.
    """
    base = sum(n // set_size for n in counts.values())
    rests = [n % set_size for n in counts.values() if n % set_size]
    fodder = sum(rests)
    best = 0
    # group kinds by how many items they are short of a set
    by_short: dict[int, int] = {}
    for r in rests:
        by_short[set_size - r] = by_short.get(set_size - r, 0) + 1
    shorts = sorted(by_short)
    choices: list[dict[int, int]] = [{}]
    for short in shorts:
        choices = [{**c, short: k} for c in choices for k in range(by_short[short] + 1)]
    for choice in choices:
        trades = sum(short * k for short, k in choice.items())
        own_used = sum((set_size - short) * k for short, k in choice.items())
        spare = fodder - own_used - rate * trades
        if spare < 0:
            continue
        new_sets = spare // (rate * set_size)
        best = max(best, sum(choice.values()) + new_sets)
    return base + best


def final_outcome(state: State) -> Outcome:
    """The final breakdown per player (or team) and the winner with the tie-break:
    the lower sum of recruited troll levels, then the later in turn order."""
    content = load_content()
    tables = content.tables
    lines: list[Breakdown] = []
    for index, account in enumerate(state.accounts):
        seats = tuple(p.seat for p in state.players if p.account == index)
        counts: dict[Resource, int] = dict.fromkeys(RESOURCES, 0)
        for seat in seats:
            for res, n in owned_counts(state, seat, held=True).items():
                counts[res] += n
        # owned_counts includes the shared storage once per seat: count it once
        for _ in seats[1:]:
            for name, n in account.storage.items():
                counts[Resource(name)] -= n
        halls, statues = board_scores(state, seats)
        lines.append(
            Breakdown(
                account=index,
                seats=seats,
                tunnels=account.tunnel_honor,
                spells=account.spell_honor,
                coronation=sum(account.coronation),
                pedestals=sum(t.value for t in account.tokens),
                sets=best_leftover_sets(
                    counts, tables.leftover_set_size, content.pieces.trade_rate
                ),
                halls=halls,
                statues=statues,
            )
        )

    def rank(line: Breakdown) -> tuple[int, int, int]:
        levels = sum(state.players[s].recruited_levels for s in line.seats)
        return (line.total, -levels, max(line.seats))

    winner = max(lines, key=rank)
    return Outcome(tuple(lines), winner.account, winner.seats)


# --- the board: who owns each piece, great halls and statues ------------------------------


def piece_owners(state: State) -> dict[int, int | None]:
    """Who each piece belongs to now: the seat whose gate's network holds it (the seat
    that laid it when partners share a network), or None for a cut-off piece."""
    nets = networks(state)
    out: dict[int, int | None] = {}
    for piece in state.board.pieces:
        pm = nets.piece_masks[piece.id]
        owners = [seat for seat, mask in sorted(nets.own.items()) if mask & pm]
        out[piece.id] = piece.seat if piece.seat in owners else (owners[0] if owners else None)
    return out


def board_scores(state: State, seats: tuple[int, ...]) -> tuple[int, int]:
    """(great halls, statues) for the network(s) of these seats: a hall scores high
    with any statue on its altar; each tunnel scores its best statue (doubled on a
    pedestal of its clan); statues in halls score only through the altar."""
    content = load_content()
    nets = networks(state)
    mine = 0
    for seat in seats:
        mine |= nets.own.get(seat, 0)
    statues = state.board.statues
    halls = total = 0
    for piece in state.board.pieces:
        if not nets.piece_masks[piece.id] & mine:
            continue
        if piece.kind == "hall":
            info = next(h for h in content.halls if h.id == piece.name)
            halls += info.high if piece.altar in statues else info.low
            continue
        total += best_statue(state, piece)[0]
    return halls, total


def best_statue(state: State, piece: Piece) -> tuple[int, str | None]:
    """What a tunnel scores for its statues, and which statue's cell scores it: the
    best one's tier value, doubled on a pedestal of its clan (0, None without one)."""
    values = load_content().tables.statue_values
    g = geo(state)
    statues = state.board.statues
    best, where = 0, None
    for cell in piece.cells:
        clan = statues.get(cell)
        if clan is None:
            continue
        value = values[g.tier(cell) - 1]
        if piece.anchor == cell and piece.pedestal == clan:
            value *= 2
        if value > best:
            best, where = value, cell
    return best, where
