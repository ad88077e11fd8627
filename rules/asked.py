"""Actions as a command's options ask for them: one builder per kind of action, taking
each option as the text of its field and returning the action's value.

The bot's commands (`/mk recruit troll:2.3 slot:B1`) build their action here rather than
writing notation to be read back: each field is read by the same rule `parse_action`
reads it with (`rules.actions.read_*`), a field that is one word of the notation must be
one word (an option cannot slip another word in), and the action's notation reads back
to the same value, `parse_action(str(a)) == a`.

    >>> recruit("2.3", "B1")
    Recruit(horde='2.3', slot='B1', pedestal=None, pay=None)
    >>> str(dig("I2", "F7*+G7", "stone", pedestal="fire"))
    'dig I2 F7*+G7 stone pedestal fire'

A builder refuses a field it cannot read (`NotationError`); what the game's moment
refuses to an action of its kind comes first, so a command builds its action only once
the moment is checked (`rules.engine.check_moment`; the bot hands the service the kind
and the builder together).
"""

from __future__ import annotations

from rules.actions import (
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
    parse_bundle,
    parse_cells,
    read_bottom_slot,
    read_cast,
    read_cell,
    read_horde_slot,
    read_mineral,
    read_pedestal,
    read_pyramid_slot,
    read_resource,
    read_use,
    read_word,
    read_words,
    read_workshop,
)


def keep(card: str, slot: str) -> Keep:
    """Keep the starting troll `card` in the bottom slot `slot`."""
    return Keep(read_word(card), read_bottom_slot(read_word(slot)))


def gate(point: str) -> PlaceGate:
    return PlaceGate(read_word(point))


def recruit(troll: str, slot: str, pedestal: str | None = None) -> Recruit:
    """The troll on horde slot `troll` into pyramid slot `slot` (level 3: with a pedestal
    of the clan `pedestal` from the bag)."""
    return Recruit(
        read_horde_slot(read_word(troll)),
        read_pyramid_slot(read_word(slot)),
        None if pedestal is None else read_pedestal(read_word(pedestal)),
    )


def dig(
    tile: str,
    cells: str,
    mineral: str,
    pedestal: str | None = None,
    workshop: str | None = None,
) -> Dig:
    """A tunnel of shape `tile` on `cells` (its anchor marked `*`), paid with `mineral`;
    optionally a pedestal for the anchor and a workshop to establish (`site=name`)."""
    shape = read_word(tile)
    covered, anchor = parse_cells(read_word(cells))
    paid = read_mineral(read_word(mineral))
    clan = None if pedestal is None else read_pedestal(read_word(pedestal))
    sites = () if workshop is None else (read_workshop(read_word(workshop)),)
    return Dig(shape, covered, anchor, paid, clan, sites)


def cast(spell: str, choice: str | None = None) -> Cast:
    """Cast `spell` with its choices in notation (several words where the spell takes
    them; a payment, `pay ...`, may follow them)."""
    return read_cast([read_word(spell), *([] if choice is None else read_words(choice))])


def use(site: str, conversion: str) -> UseWorkshop:
    """One use of the workshop on `site`: `give>get`, or the Quartermaster's
    `move <resource>@<slot>`."""
    return read_use([read_word(site), *read_words(conversion)])


def trade(give: str, get: str) -> Trade:
    """Four resources (`stone+2coin+rune`) for the resource `get`."""
    return Trade(parse_bundle(read_word(give)), read_resource(read_word(get)))


def hall(name: str, cells: str) -> DedicateHall:
    """The great hall `name` on `cells`, its altar marked `*`."""
    covered, altar = parse_cells(read_word(cells))
    return DedicateHall(read_word(name), covered, altar)


def move(statue: str, to: str) -> MoveStatue:
    """The statue on cell `statue` to cell `to`."""
    return MoveStatue(read_cell(read_word(statue)), read_cell(read_word(to)))


def end() -> EndTurn:
    return EndTurn()
