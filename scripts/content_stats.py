"""Print the content figures quoted in docs/content.md.

Run from the repository root: `.venv/bin/python -m scripts.content_stats`.
The output is plain text and deterministic (it only reads rules/data).
"""

from __future__ import annotations

from collections import Counter

from rules.content import Content, TrollCard, load_content
from rules.resources import MINERALS, Clan, Resource

# Produce symbols in the order the docs quote them; carts are split wild / clan.
SYMBOLS: tuple[str, ...] = (
    "stone",
    "iron",
    "heartstone",
    "coin",
    "wild cart",
    "clan cart",
    "hammer",
    "rune",
)


def symbol_label(resource: Resource, cart_clan: Clan | None) -> str:
    if resource is Resource.CART:
        return "wild cart" if cart_clan is None else "clan cart"
    return str(resource)


def troll_groups(content: Content) -> list[tuple[str, list[TrollCard]]]:
    cards = sorted(content.trolls.values(), key=lambda card: card.id)
    groups = [("starting", [c for c in cards if c.starting])]
    for level in (1, 2, 3):
        horde = [c for c in cards if not c.starting and c.level == level]
        groups.append((f"horde L{level}", horde))
    return groups


def print_trolls(content: Content) -> None:
    print("== Troll cards (produce rows; starting = 6 designs x 5 colours)")
    print(f"{'group':<11}{'cards':>6}{'avg':>6}  " + " ".join(f"{s:>10}" for s in SYMBOLS))
    for name, cards in troll_groups(content):
        counts = Counter(symbol_label(r, c) for card in cards for r, c in card.produce)
        average = sum(counts.values()) / len(cards)
        cells = " ".join(f"{counts[s]:>10}" for s in SYMBOLS)
        print(f"{name:<11}{len(cards):>6}{average:>6.2f}  {cells}")
    print()
    print("clans per group: " + ", ".join(str(c) for c in Clan))
    for name, cards in troll_groups(content):
        clans = Counter(card.clan for card in cards)
        print(f"  {name:<11}" + " ".join(f"{clans[c]:>4}" for c in Clan))
    print()


def print_starting_designs(content: Content) -> None:
    print("== Starting troll designs (produce row + one-time start row)")
    colour = content.pieces.player_colours[0]
    designs = [c for c in content.trolls.values() if c.colour == colour]
    for card in sorted(designs, key=lambda c: c.id):
        produce = " ".join(symbol_label(r, c) for r, c in card.produce)
        start = " ".join(str(r) for r, _ in card.start)
        number = card.id.removeprefix(f"{colour}-")
        print(
            f"  #{number} {card.clan!s:<5} produce [{produce}] ({len(card.produce)})"
            f"  start [{start}] ({len(card.start)})"
        )
    print(f"  start resources over the 6 designs: {sum(len(c.start) for c in designs)}")
    print()


def print_cascade(content: Content) -> None:
    """How often each pyramid slot activates if the pyramid is completed."""
    width = content.pieces.starting_draft_keeps
    slots = [(row, i) for row in range(width) for i in range(width - row)]
    print("== Cascade activations per slot over a full pyramid (A = starting row)")
    for row in range(width - 1, -1, -1):
        line = []
        for i in range(width - row):
            hits = sum(
                1 for top, j in slots if top >= 1 and top >= row and j <= i <= j + (top - row)
            )
            line.append(f"{chr(ord('A') + row)}{i + 1}={hits}")
        print("  " + "  ".join(line))
    print()


def print_tunnels(content: Content) -> None:
    print("== Tunnel tiles by size")
    for size in sorted({t.size for t in content.tunnels}):
        tiles = [t for t in content.tunnels if t.size == size]
        count = sum(t.count for t in tiles)
        anchors = sum(t.count * len(t.anchors) for t in tiles)
        print(f"  size {size}: {len(tiles):>2} shapes {count:>3} tiles {anchors:>3} anchors")
    total = sum(t.count for t in content.tunnels)
    anchors = sum(t.count * len(t.anchors) for t in content.tunnels)
    print(f"  total : {total} tiles, {anchors} anchors")
    print()
    print("== Tunnel score table (score / score per cell)")
    print("  size " + "".join(f"{m!s:>16}" for m in MINERALS))
    for size, row in sorted(content.tables.tunnel_scores.items()):
        cells = "".join(f"{row[str(m)]:>9} /{row[str(m)] / size:>5.2f}" for m in MINERALS)
        print(f"  {size:>4} {cells}")
    print()


def print_tables(content: Content) -> None:
    tables = content.tables
    tokens = tables.pedestal_token_values
    print("== Statues, coronation, pedestal tokens")
    print(f"  statue values by tier (outside in): {tables.statue_values}")
    print(f"  coronation tokens: {tables.coronation_tokens}")
    print(f"  pedestal tokens: {sorted(tokens)}")
    mean = sum(tokens) / len(tokens)
    print(f"  pedestal tokens: count {len(tokens)} total {sum(tokens)} mean {mean:.2f}")
    print()
    print("== Great halls (cells include the altar)")
    for hall in content.halls:
        cells = sum(len(row) - row.count(".") for row in hall.rows)
        print(
            f"  {hall.name:<19} cells {cells}  low {hall.low:>2} ({hall.low / cells:.2f}/cell)"
            f"  high {hall.high:>2} ({hall.high / cells:.2f}/cell)"
        )
    print()


def main() -> None:
    content = load_content()
    print_trolls(content)
    print_starting_designs(content)
    print_cascade(content)
    print_tunnels(content)
    print_tables(content)


if __name__ == "__main__":
    main()
