"""Setting up a new game from its config and seed (all shuffles happen here)."""

from __future__ import annotations

import random

from rules.content import TIER_COUNT, load_content
from rules.resources import STATUE_CLANS, Resource
from rules.state import Account, Board, GameConfig, HordeSlot, Player, SpellSlot, State


def new_game(config: GameConfig, seed: int) -> State:
    """The state after the common setup: the horde, bag, spellbook, workshops, statues
    and pedestal track are ready, and the players' own setup begins: the first player
    places a gate (then each player clockwise), and then everyone drafts starting
    trolls (edition 1 drafted first: `GameConfig.setup_phases`)."""
    content = load_content()
    pieces = content.pieces
    rng = random.Random(seed)

    decks: list[list[str]] = []
    for level in (1, 2, 3):
        deck = sorted(c.id for c in content.trolls.values() if not c.starting and c.level == level)
        rng.shuffle(deck)
        decks.append(deck)

    bag = [clan.value for clan in STATUE_CLANS for _ in range(pieces.pedestals_per_clan)]
    rng.shuffle(bag)

    horde: list[list[HordeSlot]] = []
    for row, size in enumerate(pieces.horde_rows):
        slots = []
        for _ in range(size):
            card = decks[row].pop(0) if decks[row] else None
            pedestal = bag.pop(0) if row == 1 and bag else None
            slots.append(HordeSlot(card, [], pedestal))
        horde.append(slots)

    coronation = list(content.tables.coronation_tokens)
    if config.players == 2:
        coronation = coronation[1:]

    supply_size = config.players * pieces.workshops_per_player + pieces.extra_workshops
    if config.workshops == "chosen":
        workshop_supply = list(config.chosen_workshops)
    elif config.workshops == "unique":
        ids = [w.id for w in content.workshops]
        rng.shuffle(ids)
        workshop_supply = sorted(ids[:supply_size])
    else:
        tiles = [w.id for w in content.workshops for _ in range(w.copies)]
        rng.shuffle(tiles)
        workshop_supply = sorted(tiles[:supply_size])

    spell_deck = [s.id for s in content.spells]
    rng.shuffle(spell_deck)
    spellbook = [SpellSlot(spell_deck.pop(0)) for _ in range(pieces.spellbook_size)]

    board = Board(statues=_place_statues(config, rng))

    values = list(content.tables.pedestal_token_values)
    rng.shuffle(values)
    track_keys = [
        f"{tier}:{clan.value}" for tier in range(1, TIER_COUNT + 1) for clan in STATUE_CLANS
    ]
    pedestal_track: dict[str, int | None] = dict(zip(track_keys, values, strict=True))

    players: list[Player] = []
    accounts: list[Account] = []
    for seat, colour in enumerate(config.seat_colours):
        if config.teams:
            team: int | None = 0 if seat in (0, 3) else 1
            account = team if team is not None else seat
        else:
            team, account = None, seat
        deck = sorted(c.id for c in content.trolls.values() if c.colour == colour)
        rng.shuffle(deck)
        players.append(
            Player(seat, colour, team, account, draft_deck=deck[2:], draft_hand=deck[:2])
        )
    for _ in range(2 if config.teams else config.players):
        accounts.append(
            Account(
                storage={r.value: 0 for r in Resource},
                pedestals={c.value: 0 for c in STATUE_CLANS},
            )
        )

    return State(
        config=config,
        seed=seed,
        phase=config.setup_phases[0],
        gate_seat=0 if config.gates_first else None,
        players=players,
        accounts=accounts,
        horde=horde,
        decks=decks,
        bag=bag,
        spellbook=spellbook,
        spell_deck=spell_deck,
        workshop_supply=workshop_supply,
        coronation_left=coronation,
        pedestal_track=pedestal_track,
        tunnels_left={t.id: t.count for t in content.tunnels},
        halls_left=[h.id for h in content.halls],
        board=board,
    )


def _place_statues(config: GameConfig, rng: random.Random) -> dict[str, str]:
    """A random clan on a random spot, then the clans cycle clockwise over the spots
    (the board lists its statue spots in clockwise order)."""
    content = load_content()
    spots = content.board(config.board_side).as_of(config.edition).statue_spots
    if not spots:
        return {}
    clans = [c.value for c in STATUE_CLANS]
    rng.shuffle(clans)
    start = rng.randrange(len(spots))
    per_clan = content.pieces.statues_per_clan
    placed: dict[str, str] = {}
    used = dict.fromkeys(clans, 0)
    for k in range(len(spots)):
        clan = clans[k % 3]
        if used[clan] >= per_clan:
            break
        used[clan] += 1
        placed[spots[(start + k) % len(spots)]] = clan
    return placed
