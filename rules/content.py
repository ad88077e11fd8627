"""Game content loaded from `rules/data/*.json` and validated by pydantic.

Everything the rulebook fixes (and everything we had to design because the printed
pictures did not survive) is data, so that an owner of the physical game could replace
it. `load_content()` reads every file once; a broken file fails with a `ContentError`
naming the file and the field.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    field_validator,
    model_validator,
)

from rules.grid import parse_cell
from rules.resources import (
    CLAN_BY_NAME,
    RESOURCE_BY_NAME,
    Clan,
    Resource,
    parse_symbol,
)

DATA_DIR = Path(__file__).parent / "data"
TIER_COUNT = 5


class ContentError(ValueError):
    """A content file is missing, is not JSON, or breaks the content schema."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _check_resource_names(bundle: dict[str, int]) -> dict[str, int]:
    for name, count in bundle.items():
        if name not in RESOURCE_BY_NAME:
            raise ValueError(f"unknown resource {name!r}")
        if count < 1:
            raise ValueError(f"count for {name!r} must be at least 1")
    return bundle


# --- resources and clans ----------------------------------------------------------


class ResourceInfo(_Model):
    id: str
    name: str
    plural: str
    mineral: bool
    letter: str = Field(min_length=1, max_length=1)


class ClanInfo(_Model):
    id: str
    name: str
    statues: bool


# --- workshops --------------------------------------------------------------------


class Conversion(_Model):
    """One use of a workshop: spend `give` (or any `give_any` resources), gain `get`.

    `move_from_troll` is the Quartermaster: no cost, one resource moves from a troll to
    storage. `wild_carts_only` forbids paying with clan carts (the Cartwright).
    """

    give: dict[str, int] = Field(default_factory=dict)
    give_any: int = 0
    get: dict[str, int] = Field(default_factory=dict)
    wild_carts_only: bool = False
    move_from_troll: bool = False

    _check_give = field_validator("give")(_check_resource_names)
    _check_get = field_validator("get")(_check_resource_names)


class WorkshopInfo(_Model):
    id: str
    name: str
    copies: int = Field(ge=1)
    text: str
    conversions: list[Conversion] = Field(min_length=1)


# --- spells -----------------------------------------------------------------------


class GainChoiceEffect(_Model):
    kind: Literal["gain_choice"]
    options: list[dict[str, int]] = Field(min_length=1)

    @field_validator("options")
    @classmethod
    def _options(cls, value: list[dict[str, int]]) -> list[dict[str, int]]:
        for bundle in value:
            _check_resource_names(bundle)
        return value


class TurnFlagEffect(_Model):
    kind: Literal["turn_flag"]
    flag: Literal["any_bribes", "no_level1_bribes", "free_rubble", "richer_vein"]


class TransmuteEffect(_Model):
    kind: Literal["transmute"]
    max: int = Field(ge=1)
    neighbours_only: bool = False  # stone<->iron<->heartstone, one step


class AwakenEffect(_Model):
    kind: Literal["awaken"]
    cascade: bool = True


class UnburdenEffect(_Model):
    kind: Literal["unburden"]
    max: int = Field(ge=1)


class TributeEffect(_Model):
    kind: Literal["tribute"]


class TakePedestalEffect(_Model):
    kind: Literal["take_pedestal"]


class ExaltEffect(_Model):
    kind: Literal["exalt"]


class DigEffect(_Model):
    kind: Literal["dig"]


class DedicateEffect(_Model):
    kind: Literal["dedicate"]
    forbidden_tiers: list[int]


class MoveStatueEffect(_Model):
    kind: Literal["move_statue"]
    moves: int = Field(default=1, ge=1)


SpellEffect = Annotated[
    GainChoiceEffect
    | TurnFlagEffect
    | TransmuteEffect
    | AwakenEffect
    | UnburdenEffect
    | TributeEffect
    | TakePedestalEffect
    | ExaltEffect
    | DigEffect
    | DedicateEffect
    | MoveStatueEffect,
    Field(discriminator="kind"),
]


class SpellInfo(_Model):
    id: str
    name: str
    text: str
    original: bool  # True: its text survived in the rulebooks; False: our design
    effect: SpellEffect


# --- trolls -----------------------------------------------------------------------


def _check_symbols(symbols: list[str]) -> list[str]:
    for symbol in symbols:
        try:
            parse_symbol(symbol)
        except KeyError:
            raise ValueError(f"unknown resource symbol {symbol!r}") from None
    return symbols


class StartingTrollDesign(_Model):
    """One of the six starting trolls every player colour has."""

    number: int = Field(ge=1)
    clan: str
    produce: list[str] = Field(min_length=1)
    start: list[str] = Field(min_length=1)

    _check_produce = field_validator("produce")(_check_symbols)
    _check_start = field_validator("start")(_check_symbols)


class HordeTrollDesign(_Model):
    id: str
    level: int = Field(ge=1, le=3)
    clan: str
    produce: list[str] = Field(min_length=1)

    _check_produce = field_validator("produce")(_check_symbols)


class TrollFile(_Model):
    starting: list[StartingTrollDesign]
    horde: list[HordeTrollDesign]


class TrollCard(_Model):
    """A troll card as the engine uses it (starting cards are expanded per colour)."""

    id: str
    level: int
    clan: Clan
    produce: tuple[tuple[Resource, Clan | None], ...]
    start: tuple[tuple[Resource, Clan | None], ...] = ()
    colour: str | None = None

    @property
    def starting(self) -> bool:
        return self.colour is not None


# --- tables, pieces, tiles, halls, boards -------------------------------------------


class ScoringTables(_Model):
    tunnel_scores: dict[int, dict[str, int]]
    statue_values: list[int] = Field(min_length=TIER_COUNT, max_length=TIER_COUNT)
    coronation_tokens: list[int] = Field(min_length=2, max_length=2)
    pedestal_token_values: list[int] = Field(min_length=15, max_length=15)
    leftover_set_size: int = Field(ge=2)


class Pieces(_Model):
    player_colours: list[str] = Field(min_length=5, max_length=5)
    horde_rows: list[int] = Field(min_length=3, max_length=3)
    bribes_by_level: dict[int, int]
    retire_bribes: int = Field(ge=1)
    trade_rate: int = Field(ge=1)
    spellbook_size: int = Field(ge=1)
    runes_to_disintegrate: int = Field(ge=1)
    workshops_per_player: int = Field(ge=0)
    extra_workshops: int = Field(ge=0)
    statues_per_clan: int = Field(ge=0)
    pedestals_per_clan: int = Field(ge=0)
    choose_pedestal_tokens: int = Field(ge=0)
    starting_draft_keeps: int = Field(ge=1)
    pyramid_size: int = Field(ge=1)


class TunnelShape(_Model):
    """A polyomino: rows of `#` (tunnel) and `o` (tunnel with an anchor), `.` empty."""

    id: str
    count: int = Field(ge=1)
    rows: list[str] = Field(min_length=1)

    @field_validator("rows")
    @classmethod
    def _rows(cls, value: list[str]) -> list[str]:
        for row in value:
            if set(row) - set("#o."):
                raise ValueError(f"row {row!r} may only hold '#', 'o' and '.'")
        return value

    @property
    def cells(self) -> list[tuple[int, int]]:
        return [(x, y) for y, row in enumerate(self.rows) for x, ch in enumerate(row) if ch != "."]

    @property
    def anchors(self) -> list[tuple[int, int]]:
        return [(x, y) for y, row in enumerate(self.rows) for x, ch in enumerate(row) if ch == "o"]

    @property
    def size(self) -> int:
        return len(self.cells)


class GreatHallInfo(_Model):
    """A great hall: rows of `#` (hall) and `A` (its altar), `.` empty."""

    id: str
    name: str
    low: int = Field(ge=0)
    high: int = Field(ge=0)
    rows: list[str] = Field(min_length=1)

    @field_validator("rows")
    @classmethod
    def _rows(cls, value: list[str]) -> list[str]:
        if sum(row.count("A") for row in value) != 1:
            raise ValueError("a great hall has exactly one altar 'A'")
        for row in value:
            if set(row) - set("#A."):
                raise ValueError(f"row {row!r} may only hold '#', 'A' and '.'")
        return value


class StartPoint(_Model):
    """A start point on the mountain's edge, marked with the player counts it serves."""

    id: str
    cell: str
    players: list[int] = Field(min_length=1)


class Features(_Model):
    """What is printed on a side besides its tiers and start points. Statue spots are
    listed in clockwise order (setup cycles the clans over them in that order)."""

    rubble: list[str] = Field(default_factory=list)
    buried: dict[str, str] = Field(default_factory=dict)
    statue_spots: list[str] = Field(default_factory=list)
    workshop_sites: list[str] = Field(default_factory=list)


class BoardSide(Features):
    """One side of the board as a grid.

    `tiers` has one string per row: `1`..`5` for the tiers from the outside in (dark
    gray, gray, brown, orange, yellow), `H` for the Heart of the Mountain, `.` for
    cells off the mountain. The features (`Features`) are the ones of the current rules
    edition; a game of an earlier edition keeps the ones it began with
    (`former_features`, `laid_out`), so that it replays.
    """

    id: str
    name: str
    players: list[int]
    tiers: list[str] = Field(min_length=5)
    start_points: list[StartPoint]
    # the start points' marks in earlier rules editions: a game of edition k or earlier
    # uses `former_marks[k]` (point id -> player counts), the first such k that applies
    former_marks: dict[int, dict[str, list[int]]] = Field(default_factory=dict)
    # the features of earlier rules editions, the same way: a game of edition k or
    # earlier is laid out as `former_features[k]`, the first such k that applies
    former_features: dict[int, Features] = Field(default_factory=dict)
    _laid_out: dict[int, BoardSide] = PrivateAttr(default_factory=dict)

    @property
    def width(self) -> int:
        return len(self.tiers[0])

    @property
    def height(self) -> int:
        return len(self.tiers)

    def tier_at(self, cell: str) -> str:
        x, y = parse_cell(cell)
        return self.tiers[y][x]

    def layout(self, edition: int) -> int:
        """Which features a game of this rules edition is laid out with: the key of
        `former_features` that applies, or 0 for the current ones."""
        return next((last for last in sorted(self.former_features) if edition <= last), 0)

    def laid_out(self, layout: int) -> BoardSide:
        """This side with the features of `layout` (see `layout`) in place of the
        current ones."""
        if not layout:
            return self
        side = self._laid_out.get(layout)
        if side is None:
            side = self._laid_out[layout] = self.model_copy(
                update=dict(self.former_features[layout])
            )
        return side

    def as_of(self, edition: int) -> BoardSide:
        """This side as a game of that rules edition is laid out."""
        return self.laid_out(self.layout(edition))

    def marks(self, edition: int) -> dict[str, list[int]]:
        """Each start point's player counts in a game of this rules edition."""
        for last in sorted(self.former_marks):
            if edition <= last:
                return self.former_marks[last]
        return {p.id: p.players for p in self.start_points}

    def clockwise(self, players: int, edition: int) -> list[str]:
        """The start points marked for `players` in that rules edition, going clockwise
        round the mountain's edge from the top."""
        cx, cy = (self.width - 1) / 2, (self.height - 1) / 2
        marks = self.marks(edition)
        ring = sorted(
            (p for p in self.start_points if players in marks[p.id]),
            key=lambda p: (
                math.atan2(parse_cell(p.cell)[0] - cx, cy - parse_cell(p.cell)[1]) % math.tau
            ),
        )
        return [p.id for p in ring]

    def points_beside(self, point_id: str, players: int, edition: int) -> tuple[str, ...]:
        """The start points next to `point_id` among those marked for `players`: the
        one before and the one after it going round the mountain's edge (with four
        points, every point but the opposite one). Team mode puts partners' gates
        there."""
        ids = self.clockwise(players, edition)
        if point_id not in ids or len(ids) < 2:
            return ()
        i = ids.index(point_id)
        return tuple(dict.fromkeys((ids[i - 1], ids[(i + 1) % len(ids)])))

    @model_validator(mode="after")
    def _check_board(self) -> BoardSide:
        if len({len(row) for row in self.tiers}) != 1:
            raise ValueError("tiers: every row must have the same length")
        for row in self.tiers:
            if set(row) - set("12345H."):
                raise ValueError(f"tiers: row {row!r} may only hold 1-5, H and .")
        points: dict[str, str] = {}
        named = [(p.cell, f"start_points {p.id}") for p in self.start_points]
        self._place(points, named, "start_points")
        for point in self.start_points:
            if self.tier_at(point.cell) != "1":
                raise ValueError(f"start point {point.id} must be on the outer tier")
        ids = {p.id for p in self.start_points}
        for last, marks in self.former_marks.items():
            if set(marks) != ids or not all(marks.values()):
                raise ValueError(f"former_marks {last}: give every start point its counts")
        cells = [parse_cell(p.cell) for p in self.start_points]
        for i, (ax, ay) in enumerate(cells):
            for bx, by in cells[i + 1 :]:
                if abs(ax - bx) + abs(ay - by) == 1:
                    raise ValueError("start points may not be side by side (gates would touch)")
        self._check_features(self, dict(points), "")
        for last, former in self.former_features.items():
            self._check_features(former, dict(points), f"former_features {last}: ")
        return self

    def _place(
        self,
        seen: dict[str, str],
        cells: list[tuple[str, str]],
        what: str,
        shared_with: tuple[str, ...] = (),
    ) -> None:
        """Each cell is on a tier of the mountain and not yet used (but by a kind in
        `shared_with`); `seen` records what each cell holds."""
        for cell, name in cells:
            try:
                x, y = parse_cell(cell)
            except ValueError as exc:
                raise ValueError(f"{name}: {exc}") from None
            if not (0 <= y < self.height and 0 <= x < self.width):
                raise ValueError(f"{name}: {cell} is off the board")
            if self.tiers[y][x] not in "12345":
                raise ValueError(f"{name}: {cell} is not on a tier of the mountain")
            other = seen.get(cell)
            if other is not None and other not in shared_with:
                raise ValueError(f"{name}: {cell} is already used by {other}")
            seen.setdefault(cell, what)

    def _check_features(self, features: Features, seen: dict[str, str], where: str) -> None:
        for cell, resource in features.buried.items():
            if resource not in RESOURCE_BY_NAME:
                raise ValueError(f"{where}buried {cell}: unknown resource {resource!r}")
        for what, cells, shared in (
            ("workshop_sites", features.workshop_sites, ()),
            ("statue_spots", features.statue_spots, ()),
            ("buried", list(features.buried), ()),
            ("rubble", features.rubble, ("statue_spots", "buried")),
        ):
            self._place(seen, [(c, f"{where}{what}") for c in cells], what, shared)
        if len(features.statue_spots) > 21:
            raise ValueError(f"{where}at most 21 statue spots (7 statues per clan)")


class Content(_Model):
    resources: list[ResourceInfo]
    clans: list[ClanInfo]
    workshops: list[WorkshopInfo]
    spells: list[SpellInfo]
    trolls: dict[str, TrollCard]
    tables: ScoringTables
    pieces: Pieces
    tunnels: list[TunnelShape]
    halls: list[GreatHallInfo]
    boards: list[BoardSide]

    _workshops: dict[str, WorkshopInfo] = PrivateAttr(default_factory=dict)
    _spells: dict[str, SpellInfo] = PrivateAttr(default_factory=dict)

    def model_post_init(self, context: Any, /) -> None:
        self._workshops.update({w.id: w for w in self.workshops})
        self._spells.update({s.id: s for s in self.spells})

    def workshop(self, workshop_id: str) -> WorkshopInfo:
        return self._workshops[workshop_id]

    def spell(self, spell_id: str) -> SpellInfo:
        return self._spells[spell_id]

    def board(self, side: str) -> BoardSide:
        for board in self.boards:
            if board.id == side:
                return board
        raise KeyError(side)

    def tunnel_score(self, size: int, mineral: Resource) -> int:
        return self.tables.tunnel_scores[size][mineral.value]


M = TypeVar("M", bound=BaseModel)


def _load(directory: Path, name: str, parse: Callable[[Any], M]) -> M:
    path = directory / name
    label = f"rules/data/{name}"
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ContentError(f"{label}: file is missing") from None
    except json.JSONDecodeError as exc:
        raise ContentError(f"{label}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
    try:
        return parse(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "(top level)"
        raise ContentError(f"{label}: field {where}: {first['msg']}") from None


class _ResourceFile(_Model):
    resources: list[ResourceInfo]


class _ClanFile(_Model):
    clans: list[ClanInfo]


class _WorkshopFile(_Model):
    workshops: list[WorkshopInfo]


class _SpellFile(_Model):
    spells: list[SpellInfo]


class _TunnelFile(_Model):
    tunnels: list[TunnelShape]


class _HallFile(_Model):
    halls: list[GreatHallInfo]


class _BoardFile(_Model):
    boards: list[BoardSide]


def load_content_from(directory: Path) -> Content:
    """Load and validate every content file in `directory` (uncached)."""
    resources = _load(directory, "resources.json", _ResourceFile.model_validate).resources
    clans = _load(directory, "clans.json", _ClanFile.model_validate).clans
    workshops = _load(directory, "workshops.json", _WorkshopFile.model_validate).workshops
    spells = _load(directory, "spells.json", _SpellFile.model_validate).spells
    troll_file = _load(directory, "trolls.json", TrollFile.model_validate)
    tables = _load(directory, "scoring.json", ScoringTables.model_validate)
    pieces = _load(directory, "pieces.json", Pieces.model_validate)
    tunnels = _load(directory, "tunnels.json", _TunnelFile.model_validate).tunnels
    halls = _load(directory, "halls.json", _HallFile.model_validate).halls
    boards = _load(directory, "boards.json", _BoardFile.model_validate).boards

    _cross_check(
        "resources.json",
        [r.id for r in resources] == [r.value for r in Resource],
        "resource ids must be exactly " + ", ".join(r.value for r in Resource),
    )
    _cross_check(
        "clans.json",
        [c.id for c in clans] == [c.value for c in Clan],
        "clan ids must be exactly " + ", ".join(c.value for c in Clan),
    )
    trolls = _expand_trolls(troll_file, pieces)
    _check_counts(workshops, spells, trolls, tunnels, halls, tables)
    return Content(
        resources=resources,
        clans=clans,
        workshops=workshops,
        spells=spells,
        trolls=trolls,
        tables=tables,
        pieces=pieces,
        tunnels=tunnels,
        halls=halls,
        boards=boards,
    )


@cache
def load_content() -> Content:
    """The game content, loaded and validated once per process."""
    return load_content_from(DATA_DIR)


def _cross_check(label: str, ok: bool, message: str) -> None:
    if not ok:
        raise ContentError(f"rules/data/{label}: {message}")


def _expand_trolls(troll_file: TrollFile, pieces: Pieces) -> dict[str, TrollCard]:
    cards: dict[str, TrollCard] = {}

    def clan_of(label: str, clan: str) -> Clan:
        if clan not in CLAN_BY_NAME:
            raise ContentError(f"rules/data/trolls.json: {label}: unknown clan {clan!r}")
        return CLAN_BY_NAME[clan]

    def symbols(
        label: str, clan: Clan, names: list[str]
    ) -> tuple[tuple[Resource, Clan | None], ...]:
        out = tuple(parse_symbol(name) for name in names)
        for _, cart_clan in out:
            if cart_clan is not None and cart_clan != clan:
                raise ContentError(
                    f"rules/data/trolls.json: {label}: a {clan.value} troll can only show "
                    f"{clan.value} clan carts (or wild carts)"
                )
        return out

    for design in troll_file.starting:
        label = f"starting troll {design.number}"
        clan = clan_of(label, design.clan)
        for colour in pieces.player_colours:
            card_id = f"{colour}-{design.number}"
            cards[card_id] = TrollCard(
                id=card_id,
                level=1,
                clan=clan,
                produce=symbols(label, clan, design.produce),
                start=symbols(label, clan, design.start),
                colour=colour,
            )
    for horde in troll_file.horde:
        label = f"horde troll {horde.id}"
        if horde.id in cards:
            raise ContentError(f"rules/data/trolls.json: {label}: duplicate id")
        clan = clan_of(label, horde.clan)
        cards[horde.id] = TrollCard(
            id=horde.id, level=horde.level, clan=clan, produce=symbols(label, clan, horde.produce)
        )
    per_colour = len(troll_file.starting)
    _cross_check("trolls.json", per_colour == 6, "there must be 6 starting troll designs")
    levels = [sum(1 for t in troll_file.horde if t.level == n) for n in (1, 2, 3)]
    _cross_check(
        "trolls.json",
        levels == [21, 17, 17],
        f"the horde must hold 21/17/17 trolls of levels 1/2/3, not {levels}",
    )
    for card in cards.values():
        if card.clan == Clan.MUD and any(c is not None for _, c in card.produce):
            raise ContentError(f"rules/data/trolls.json: {card.id}: Mud trolls have no clan carts")
    return cards


def _check_counts(
    workshops: list[WorkshopInfo],
    spells: list[SpellInfo],
    trolls: dict[str, TrollCard],
    tunnels: list[TunnelShape],
    halls: list[GreatHallInfo],
    tables: ScoringTables,
) -> None:
    _cross_check("workshops.json", len(workshops) == 11, "there must be 11 workshops")
    _cross_check("spells.json", len(spells) == 17, "there must be 17 spells")
    _cross_check("spells.json", len({s.id for s in spells}) == 17, "spell ids must be unique")
    _cross_check(
        "trolls.json", len(trolls) == 85, f"there must be 85 troll cards, not {len(trolls)}"
    )
    total = sum(t.count for t in tunnels)
    _cross_check("tunnels.json", total == 52, f"there must be 52 tunnel tiles, not {total}")
    for tile in tunnels:
        _cross_check("tunnels.json", 2 <= tile.size <= 5, f"{tile.id}: tiles have 2 to 5 cells")
        _cross_check(
            "tunnels.json",
            (tile.size == 5) == (not tile.anchors),
            f"{tile.id}: size-5 tiles have no anchor, smaller ones have one",
        )
        _cross_check(
            "scoring.json",
            tile.size in tables.tunnel_scores,
            f"tunnel_scores has no row for size {tile.size}",
        )
    _cross_check("halls.json", len(halls) == 6, "there must be 6 great halls")
    for size, row in tables.tunnel_scores.items():
        _cross_check(
            "scoring.json",
            sorted(row) == sorted(r.value for r in Resource if r.is_mineral),
            f"tunnel_scores.{size} needs a score for each mineral",
        )
    for spell in spells:
        eff = spell.effect
        if isinstance(eff, DedicateEffect):
            _cross_check(
                "spells.json",
                all(1 <= t <= TIER_COUNT for t in eff.forbidden_tiers),
                f"{spell.id}: tiers run from 1 to {TIER_COUNT}",
            )
