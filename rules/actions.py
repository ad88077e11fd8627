"""Actions: one small immutable value per decision, each with one text notation.

The notation is used everywhere (logs, records, the bot, tests): `str(action)` formats
it and `parse_action(text)` reads it back, so `parse_action(str(a)) == a`.

    keep blue-3 A2                    draft: keep a starting troll in a bottom slot
    gate W1                           place your gate on a start point
    cast earth-ritual 2iron           cast a spell (arguments depend on the spell)
    cast golden-mask pay rune@B1      ... naming where the rune comes from
    use S3 heartstone>cart            one use of the workshop on site S3
    trade stone+2coin+rune>iron       4-for-1 trade with the supply
    recruit 2.3 B1                    recruit horde troll 2.3 into pyramid slot B1
    recruit 3.1 C1 fire               ... level 3: take a Fire pedestal from the bag
    end                               end your turn

Payments: `pay <token>@<source> ...` names where each spent resource comes from; the
source is `store` or a pyramid slot (`A1`..`D1`); tokens are resource names, with clan
carts written `fire-cart`, `ice-cart`, `moon-cart`. Without `pay` the engine chooses
(see `rules.payment`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TypeAlias

from rules.errors import NotationError, echo
from rules.resources import (
    CLAN_BY_NAME,
    NAME,
    RESOURCE_BY_NAME,
    RESOURCES,
    STATUE_CLANS,
    Clan,
    Resource,
    parse_symbol,
    symbol_name,
)

PYRAMID_ROWS: tuple[tuple[str, ...], ...] = (
    ("A1", "A2", "A3", "A4"),
    ("B1", "B2", "B3"),
    ("C1", "C2"),
    ("D1",),
)
PYRAMID_SLOTS: tuple[str, ...] = tuple(s for row in PYRAMID_ROWS for s in row)
STORE = "store"
SOURCES: frozenset[str] = frozenset((*PYRAMID_SLOTS, STORE))

_RESOURCE_ORDER = {r: i for i, r in enumerate(RESOURCES)}
_BUNDLE_ITEM = re.compile(r"^(\d*)([a-z]+)$")
_HORDE_SLOT = re.compile(r"^[1-3]\.[1-5]$")
_WORD = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._>+@*=-]*$")
_CELL = re.compile(r"^[A-Z][1-9][0-9]?$")
# the longest action a game produces is under 100 characters (a dig with a pedestal,
# workshops and payments); anything longer is refused before it is split
MAX_ACTION_LENGTH = 500
# counts in a bundle are 2 to 99: more digits are refused before int() sees them
_MAX_COUNT_DIGITS = 2


@dataclass(frozen=True, slots=True)
class Pay:
    """One spent resource and where it comes from."""

    resource: Resource
    source: str
    cart_clan: Clan | None = None

    def __str__(self) -> str:
        return f"{symbol_name(self.resource, self.cart_clan)}@{self.source}"


Payment: TypeAlias = tuple[Pay, ...] | None


def _pay_suffix(pay: Payment) -> str:
    return "" if pay is None else " pay " + " ".join(str(p) for p in pay)


def sort_resources(resources: tuple[Resource, ...]) -> tuple[Resource, ...]:
    return tuple(sorted(resources, key=_RESOURCE_ORDER.__getitem__))


def format_bundle(resources: tuple[Resource, ...]) -> str:
    """`(coin, coin, stone)` -> `stone+2coin` (resource order, counts before names)."""
    parts = []
    for res in RESOURCES:
        n = resources.count(res)
        if n:
            parts.append(f"{n}{res.value}" if n > 1 else res.value)
    return "+".join(parts)


def parse_bundle(text: str) -> tuple[Resource, ...]:
    out: list[Resource] = []
    if not text:
        raise NotationError("Expected resources such as 2stone+iron, found nothing.")
    if len(text) > MAX_ACTION_LENGTH:
        raise NotationError(
            "A list of resources is at most {limit} characters.", limit=MAX_ACTION_LENGTH
        )
    for item in text.split("+"):
        m = _BUNDLE_ITEM.match(item)
        if not m or m.group(2) not in RESOURCE_BY_NAME:
            raise NotationError(
                "{item} is not a resource (write e.g. 2stone or rune).", item=echo(item)
            )
        digits = m.group(1)
        if not digits:
            count = 1
        elif len(digits) > _MAX_COUNT_DIGITS:
            count = 0  # refused below; a 5,000-digit count never reaches int()
        else:
            count = int(digits)
        if not 1 <= count <= 99 or (m.group(1) and (count == 1 or m.group(1)[0] == "0")):
            raise NotationError(
                "{item}: write a count of 2 to 99 before the resource.", item=echo(item)
            )
        out.extend([RESOURCE_BY_NAME[m.group(2)]] * count)
    result = sort_resources(tuple(out))
    if format_bundle(result) != text:
        raise NotationError(
            "Write {text} as {fixed}.", text=echo(text), fixed=echo(format_bundle(result))
        )
    return result


@dataclass(frozen=True, slots=True)
class Keep:
    """Draft: keep one of the two starting trolls in hand in an empty bottom slot."""

    card: str
    slot: str

    def __str__(self) -> str:
        return f"keep {self.card} {self.slot}"


@dataclass(frozen=True, slots=True)
class PlaceGate:
    point: str

    def __str__(self) -> str:
        return f"gate {self.point}"


@dataclass(frozen=True, slots=True)
class Cast:
    """Cast a spell. `args` are the spell's choices in notation (see rules.spells);
    `("none",)` pays the rune and ignores the effect."""

    spell: str
    args: tuple[str, ...] = ()
    pay: Payment = None

    def __str__(self) -> str:
        return " ".join(("cast", self.spell, *self.args)) + _pay_suffix(self.pay)


@dataclass(frozen=True, slots=True)
class UseWorkshop:
    """One use of the workshop on a site: spend `give` to gain `get`, or (Quartermaster)
    move the resource `move` from a troll into storage."""

    site: str
    give: tuple[Resource, ...] = ()
    get: tuple[Resource, ...] = ()
    move: Pay | None = None
    pay: Payment = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "give", sort_resources(self.give))
        object.__setattr__(self, "get", sort_resources(self.get))

    def __str__(self) -> str:
        if self.move is not None:
            return f"use {self.site} move {self.move}"
        return (
            f"use {self.site} {format_bundle(self.give)}>{format_bundle(self.get)}"
            + _pay_suffix(self.pay)
        )


@dataclass(frozen=True, slots=True)
class Trade:
    """Spend 4 resources (any mix) to gain 1 resource of your choice."""

    give: tuple[Resource, ...]
    get: Resource
    pay: Payment = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "give", sort_resources(self.give))

    def __str__(self) -> str:
        return f"trade {format_bundle(self.give)}>{self.get.value}" + _pay_suffix(self.pay)


@dataclass(frozen=True, slots=True)
class Recruit:
    """Recruit the troll on a horde slot (`1.1`..`3.3`) into a pyramid slot; level-3
    recruits name the pedestal clan they take from the bag."""

    horde: str
    slot: str
    pedestal: Clan | None = None
    pay: Payment = None

    def __str__(self) -> str:
        ped = f" {self.pedestal.value}" if self.pedestal is not None else ""
        return f"recruit {self.horde} {self.slot}{ped}" + _pay_suffix(self.pay)


def _cell_key(cell: str) -> tuple[int, int]:
    return int(cell[1:]), ord(cell[0])


class _CellKeys(dict[str, tuple[int, int]]):
    """`_cell_key` of every cell a board can have, looked up (sorting by a dict's
    `__getitem__` runs no Python per cell); other names are worked out as asked."""

    def __missing__(self, cell: str) -> tuple[int, int]:
        return _cell_key(cell)


_CELL_KEYS = _CellKeys(
    {
        f"{col}{row}": (row, ord(col))
        for col in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        for row in range(1, 100)
    }
)
_by_cell = _CELL_KEYS.__getitem__


def format_cells(cells: tuple[str, ...], mark: str | None) -> str:
    """`("G7", "F7")`, mark `G7` -> `F7+G7*` (reading order; `*` marks an anchor/altar)."""
    return "+".join(c + ("*" if c == mark else "") for c in sorted(cells, key=_by_cell))


def parse_cells(text: str) -> tuple[tuple[str, ...], str | None]:
    cells: list[str] = []
    mark = None
    for item in text.split("+"):
        cell = item.removesuffix("*")
        if not _CELL.match(cell):
            raise NotationError("{item} is not a cell such as F7.", item=echo(item))
        if item.endswith("*"):
            if mark is not None:
                raise NotationError("Mark only one cell with '*'.")
            mark = cell
        cells.append(cell)
    result = tuple(sorted(cells, key=_by_cell))
    if len(set(result)) != len(result):
        raise NotationError("A cell is listed twice.")
    if format_cells(result, mark) != text:
        raise NotationError(
            "List the cells in reading order: {cells}.", cells=echo(format_cells(result, mark))
        )
    return result, mark


@dataclass(frozen=True, slots=True)
class Dig:
    """Dig a tunnel: the tile's shape, the cells it covers (its anchor marked `*`), the
    mineral paid, optionally a pedestal for the anchor and workshops established on
    adjacent empty sites (`site=workshop`)."""

    shape: str
    cells: tuple[str, ...]
    anchor: str | None
    mineral: Resource
    pedestal: Clan | None = None
    workshops: tuple[tuple[str, str], ...] = ()
    pay: Payment = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", tuple(sorted(self.cells, key=_by_cell)))
        object.__setattr__(self, "workshops", tuple(sorted(self.workshops)))

    def words(self) -> list[str]:
        out = [self.shape, format_cells(self.cells, self.anchor), NAME[self.mineral]]
        if self.pedestal is not None:
            out += ["pedestal", self.pedestal.value]
        for site, workshop in self.workshops:
            out += ["workshop", f"{site}={workshop}"]
        return out

    def __str__(self) -> str:
        return " ".join(["dig", *self.words()]) + _pay_suffix(self.pay)


@dataclass(frozen=True, slots=True)
class DedicateHall:
    """Lay a great hall over your own tunnels (its altar marked `*`)."""

    hall: str
    cells: tuple[str, ...]
    altar: str | None

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", tuple(sorted(self.cells, key=_by_cell)))

    def __str__(self) -> str:
        return f"hall {self.hall} {format_cells(self.cells, self.altar)}"


@dataclass(frozen=True, slots=True)
class MoveStatue:
    """Spend one cart to move a statue: `move F7>G9 pay fire-cart@B1`."""

    origin: str
    target: str
    pay: Payment = None

    def __str__(self) -> str:
        return f"move {self.origin}>{self.target}" + _pay_suffix(self.pay)


@dataclass(frozen=True, slots=True)
class EndTurn:
    def __str__(self) -> str:
        return "end"


Action: TypeAlias = (
    Keep
    | PlaceGate
    | Cast
    | UseWorkshop
    | Trade
    | Recruit
    | Dig
    | DedicateHall
    | MoveStatue
    | EndTurn
)

ACTION_KINDS: dict[type, str] = {
    Keep: "keep",
    PlaceGate: "gate",
    Cast: "cast",
    UseWorkshop: "use",
    Trade: "trade",
    Recruit: "recruit",
    Dig: "dig",
    DedicateHall: "hall",
    MoveStatue: "move",
    EndTurn: "end",
}


# the verbs of the notation are the kinds' names
_VERBS = frozenset(ACTION_KINDS.values())
_LONGEST_VERB = max(len(v) for v in _VERBS)


def action_kind(action: Action) -> str:
    return ACTION_KINDS[type(action)]


def format_action(action: Action) -> str:
    return str(action)


def cells_touched(action: Action) -> set[str]:
    """Board cells an action changes (for highlighting what happened last turn)."""
    if isinstance(action, Dig | DedicateHall):
        return set(action.cells)
    if isinstance(action, MoveStatue):
        return {action.origin, action.target}
    if isinstance(action, Cast):
        out: set[str] = set()
        for arg in action.args:
            for part in arg.replace(">", "+").split("+"):
                cell = part.removesuffix("*")
                if _CELL.match(cell):
                    out.add(cell)
        return out
    return set()


def parse_pay_item(text: str) -> Pay:
    what, sep, source = text.partition("@")
    if not sep or source not in SOURCES:
        raise NotationError(
            "{text} should be a resource and where it comes from, e.g. coin@A1 or rune@store.",
            text=echo(text),
        )
    try:
        resource, clan = parse_symbol(what)
    except KeyError:
        raise NotationError("{what} is not a resource.", what=echo(what)) from None
    if clan is not None and source == STORE:
        raise NotationError("Carts in storage are wild: write cart@store.")
    return Pay(resource, source, clan)


def _split_pay(words: list[str]) -> tuple[list[str], Payment]:
    if "pay" not in words:
        return words, None
    i = words.index("pay")
    items = words[i + 1 :]
    if not items:
        raise NotationError("'pay' must be followed by what you pay, e.g. pay coin@A1.")
    return words[:i], tuple(parse_pay_item(w) for w in items)


def _expect(words: list[str], n: int, usage: str) -> None:
    if len(words) != n:
        raise NotationError("Expected: {usage}", usage=usage)


def verb_kind(text: str) -> str | None:
    """The kind of action the first word of `text` names, if it names one: what the
    game's phase and turn are asked about before the rest of the text is read."""
    if not isinstance(text, str):
        return None
    verb = text[: _LONGEST_VERB + 1].partition(" ")[0]
    return verb if verb in _VERBS else None


def parse_action(text: str) -> Action:
    """Parse one action in notation. Raises `NotationError` with a helpful sentence."""
    if not isinstance(text, str):
        raise NotationError("An action must be text.")
    words = read_words(text)
    verb, rest = words[0], words[1:]
    if verb == "keep":
        _expect(rest, 2, "keep <card> <slot>, e.g. keep blue-3 A2")
        return Keep(rest[0], read_bottom_slot(rest[1]))
    if verb == "gate":
        _expect(rest, 1, "gate <start point>, e.g. gate W1")
        return PlaceGate(rest[0])
    if verb == "cast":
        return read_cast(rest)
    if verb == "use":
        return read_use(rest)
    if verb == "trade":
        rest, pay = _split_pay(rest)
        _expect(rest, 1, "trade <4 resources>><resource>, e.g. trade stone+2coin+rune>iron")
        give, sep, get = rest[0].partition(">")
        if not sep or get not in RESOURCE_BY_NAME:
            raise NotationError("Write a trade as give>get, e.g. trade 4stone>rune.")
        return Trade(parse_bundle(give), RESOURCE_BY_NAME[get], pay)
    if verb == "recruit":
        rest, pay = _split_pay(rest)
        if len(rest) not in (2, 3):
            raise NotationError(
                "Expected: {usage}", usage="recruit <horde slot> <pyramid slot> [pedestal clan]"
            )
        pedestal = read_pedestal(rest[2]) if len(rest) == 3 else None
        return Recruit(read_horde_slot(rest[0]), read_pyramid_slot(rest[1]), pedestal, pay)
    if verb == "dig":
        rest, pay = _split_pay(rest)
        return parse_dig_words(rest, pay)
    if verb == "hall":
        _expect(rest, 2, "hall <great hall> <cells, altar marked *>, e.g. hall trove F7+G7*+...")
        cells, altar = parse_cells(rest[1])
        return DedicateHall(rest[0], cells, altar)
    if verb == "move":
        rest, pay = _split_pay(rest)
        _expect(rest, 1, "move <from>><to>, e.g. move F7>G8")
        origin, sep, target = rest[0].partition(">")
        if not sep or not _CELL.match(origin) or not _CELL.match(target):
            raise NotationError("Write a statue move as from>to, e.g. move F7>G8.")
        if pay is not None and len(pay) != 1:
            raise NotationError("A statue move is paid with exactly one cart.")
        return MoveStatue(origin, target, pay)
    if verb == "end":
        _expect(rest, 0, "end")
        return EndTurn()
    raise NotationError(
        "Unknown action {verb}; expected one of keep, gate, cast, use, trade, recruit, dig,"
        " hall, move, end.",
        verb=echo(verb),
    )


def parse_dig_words(words: list[str], pay: Payment = None) -> Dig:
    """The words of a dig after `dig` (also the arguments of Summon Rockeater)."""
    usage = (
        "dig <tile> <cells, anchor marked *> <mineral> [pedestal <clan>] [workshop <site>=<name>]"
    )
    if len(words) < 3:
        raise NotationError("Expected: {usage}", usage=usage)
    shape, cells_text, mineral_text, *more = words
    cells, anchor = parse_cells(cells_text)
    mineral = read_mineral(mineral_text)
    pedestal = None
    sites: list[tuple[str, str]] = []
    i = 0
    while i < len(more):
        if i + 1 >= len(more) or more[i] not in ("pedestal", "workshop"):
            raise NotationError("Expected: {usage}", usage=usage)
        key, value = more[i], more[i + 1]
        if key == "pedestal":
            clan = read_pedestal(value)
            if pedestal is not None or i != 0:
                raise NotationError("Name one pedestal clan (fire, ice or moon) before workshops.")
            pedestal = clan
        else:
            sites.append(read_workshop(value))
        i += 2
    dig = Dig(shape, cells, anchor, mineral, pedestal, tuple(sites), pay)
    if dig.workshops != tuple(sites) or len({s for s, _ in sites}) != len(sites):
        raise NotationError("List each workshop site once, in order (e.g. F6 before G6).")
    return dig


# --- the fields of an action, each in notation -----------------------------------------
# What `parse_action` reads a word of an action with, and what a command's option is
# read with (`rules.asked`): one rule for each field, whichever way it comes.


def read_words(text: str) -> list[str]:
    """A field of one or more words (a spell's choices, a conversion), each a word of the
    notation, separated by single spaces."""
    if not isinstance(text, str):
        raise NotationError("An action must be text.")
    if len(text) > MAX_ACTION_LENGTH:
        raise NotationError(
            "An action is at most {limit} characters; this one has {length}.",
            limit=MAX_ACTION_LENGTH,
            length=len(text),
        )
    words = text.split()
    if not words:
        raise NotationError("Empty action.")
    if " ".join(words) != text:
        raise NotationError("Separate the words of an action with single spaces.")
    for w in words:
        if not _WORD.match(w):
            raise NotationError("Unexpected characters in {word}.", word=echo(w))
    return words


def read_word(text: str) -> str:
    """A field of one word of the notation (a card, a point, a spell, a site...)."""
    words = read_words(text)
    if len(words) != 1:
        raise NotationError("Unexpected characters in {word}.", word=echo(text))
    return words[0]


def read_bottom_slot(text: str) -> str:
    if text not in PYRAMID_ROWS[0]:
        raise NotationError("{slot} is not a bottom-row slot (A1 to A4).", slot=echo(text))
    return text


def read_horde_slot(text: str) -> str:
    if not _HORDE_SLOT.match(text):
        raise NotationError("{slot} is not a horde slot (1.1 to 3.3).", slot=echo(text))
    return text


def read_pyramid_slot(text: str) -> str:
    if text not in PYRAMID_SLOTS:
        raise NotationError("{slot} is not a pyramid slot (A1 to D1).", slot=echo(text))
    return text


def read_pedestal(text: str) -> Clan:
    clan = CLAN_BY_NAME.get(text)
    if clan is None or clan not in STATUE_CLANS:
        raise NotationError("{clan} is not a pedestal clan (fire, ice or moon).", clan=echo(text))
    return clan


def read_mineral(text: str) -> Resource:
    mineral = RESOURCE_BY_NAME.get(text)
    if mineral is None or not mineral.is_mineral:
        raise NotationError(
            "{mineral} is not a mineral (stone, iron or heartstone).", mineral=echo(text)
        )
    return mineral


def read_workshop(text: str) -> tuple[str, str]:
    """A workshop to establish, `site=name`."""
    site, sep, name = text.partition("=")
    if not sep or not _CELL.match(site) or not name:
        raise NotationError("Write a workshop to establish as site=name, e.g. G6=toolforge.")
    return site, name


def read_use(words: list[str]) -> UseWorkshop:
    """The words of a use after `use`: the site, then the conversion (`give>get`) or the
    Quartermaster's `move <resource>@<slot>`, and the payment."""
    rest, pay = _split_pay(words)
    if len(rest) == 3 and rest[1] == "move":
        if pay is not None:
            raise NotationError("Moving a resource to storage costs nothing: drop 'pay'.")
        item = parse_pay_item(rest[2])
        if item.source == STORE:
            raise NotationError("Move a resource from one of your trolls, not from storage.")
        return UseWorkshop(rest[0], move=item)
    _expect(rest, 2, "use <site> <give>><get>, e.g. use S3 heartstone>cart")
    give, sep, get = rest[1].partition(">")
    if not sep:
        raise NotationError("Write the conversion as give>get, e.g. heartstone>cart.")
    return UseWorkshop(rest[0], parse_bundle(give), parse_bundle(get), pay=pay)


def read_cast(words: list[str]) -> Cast:
    """The words of a cast after `cast`: the spell, its choices, and the payment."""
    rest, pay = _split_pay(words)
    if not rest:
        raise NotationError("Expected: {usage}", usage="cast <spell> [choices] [pay ...]")
    return Cast(rest[0], tuple(rest[1:]), pay)


def read_cell(text: str) -> str:
    if not _CELL.match(text):
        raise NotationError("{item} is not a cell such as F7.", item=echo(text))
    return text


def read_resource(text: str) -> Resource:
    resource = RESOURCE_BY_NAME.get(text)
    if resource is None:
        raise NotationError("{what} is not a resource.", what=echo(text))
    return resource
