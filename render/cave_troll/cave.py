"""The cave map: Cave Troll's board with everything on it, from a player's view
(`cave_troll.view.CaveView`).

The empty cave (floors, walls, doors) is drawn once and cached; each map copies it and
draws on the copy: the Troll's rooms hatched, the rooms' ids and gold values (the ids
the commands take: `A1`..`D7`, `NW NE SE SW`, `pit`), the Marks of El'darra, every
piece and Treasure, a pending Troll flight's room outlined in yellow, the places the
last action changed outlined in white, the players' chips above (gold, stack, artifacts
held; the player awaited outlined) and the key below.

Sized for a phone, where Discord shows the map about 400 px wide: a cell of the 12 by
12 board is 88 px (about 32 px on the phone), split in four slots of 44 px, each holding
one piece 36 px wide with a letter of 20 px; a room of three cells (the smallest) has
ten slots besides its label, so six pieces and a Treasure fit with nothing overlapping.
An entrance holds any number of pieces: they stand in a tray outside the board, along
the edge beside its corner, twelve to a row; the pit's monsters fill its four cells.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw

from cave_troll.board import Board, load_board
from cave_troll.content import PIECE_KINDS, load_content
from cave_troll.view import CaveView, PieceView
from render import theme
from render.cave_troll import look
from render.cave_troll import words as ct
from render.draw import draw_text, paste, png_bytes, text_center
from render.theme import RGB
from render.words import ENGLISH, Translator, colour_name

C = 88  # a cell
S = C // 2  # a slot: a quarter of a cell
TOKEN = 35  # a piece (a triangle 39)
PAD = 16  # the image's margin
WALL = 6
TITLE = 56
CHIP = 48
KEY_ROW = 42
KEY_COLUMNS = 4
KEY_ITEMS = 14  # eight pieces, a Treasure, a Mark, a door, a Troll's room, a score, a change
TRAY_COLUMNS = 12  # pieces in a row of an entrance's tray (half the board's width)
Cell = tuple[int, int]
Slot = tuple[int, int]  # a slot on the board: (column, row) of half cells
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Places:
    """Where everything goes on the board, computed once from the map: each cell's
    place, each place's label cell and free slots (in reading order), the doors'
    edges, and the entrances' corners."""

    board: Board
    owner: dict[Cell, str]
    label: dict[str, Cell]
    slots: dict[str, tuple[Slot, ...]]
    doors: tuple[tuple[Cell, Cell], ...]
    corner: dict[str, tuple[bool, bool]]  # entrance -> (at the top, at the left)

    @property
    def side(self) -> int:
        return self.board.size * C


@cache
def places() -> Places:
    board = load_board()
    owner = {cell: loc for loc, cells in board.cells.items() for cell in cells}
    label: dict[str, Cell] = {}
    slots: dict[str, tuple[Slot, ...]] = {}
    for loc, cells in board.cells.items():
        first = min(cells, key=lambda c: (c[1], c[0]))
        label[loc] = first
        half = sorted(
            ((2 * x + dx, 2 * y + dy) for x, y in cells for dx in (0, 1) for dy in (0, 1)),
            key=lambda s: (s[1], s[0]),
        )
        if loc == board.pit:  # its name on the middle two slots of its top row
            top = half[0][1]
            left = min(s[0] for s in half)
            taken = {(left + 1, top), (left + 2, top)}
        else:
            taken = {(2 * first[0], 2 * first[1]), (2 * first[0] + 1, 2 * first[1])}
        slots[loc] = tuple(s for s in half if s not in taken)
    doors = []
    for loc in board.locations:
        for other in board.doors[loc]:
            if board.order[other] < board.order[loc]:
                continue
            shared = sorted(
                (a, b)
                for a in board.cells[loc]
                for b in board.cells[other]
                if abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
            )
            doors.append(shared[len(shared) // 2])
    corner = {e: (board.cells[e][0][1] == 0, board.cells[e][0][0] == 0) for e in board.entrances}
    return Places(board, owner, label, slots, tuple(doors), corner)


# --- the empty cave ----------------------------------------------------------------------


@cache
def static_cave() -> Image.Image:
    """The empty cave: floors by gold value, the entrances, the pit, walls and doors
    (cached: callers copy it, never draw on it)."""
    p = places()
    board = p.board
    img = Image.new("RGB", (p.side, p.side), look.WALL)
    d = ImageDraw.Draw(img)
    for (x, y), loc in p.owner.items():
        d.rectangle((x * C, y * C, x * C + C - 1, y * C + C - 1), fill=_floor(board, loc))
    for (x, y), loc in p.owner.items():
        for dx, dy in ((1, 0), (0, 1)):
            other = p.owner.get((x + dx, y + dy))
            if other is not None and other != loc:
                _edge(d, (x, y), (x + dx, y + dy), look.WALL, WALL)
    d.rectangle((0, 0, p.side - 1, p.side - 1), outline=look.WALL, width=WALL)
    for a, b in p.doors:
        _door(d, a, b)
    return img


def _floor(board: Board, loc: str) -> RGB:
    if loc == board.pit:
        return look.PIT
    if board.is_entrance(loc):
        return look.ENTRANCE
    return look.ROOM[board.value[loc]]


def _edge(d: ImageDraw.ImageDraw, a: Cell, b: Cell, fill: RGB, width: int) -> None:
    """The wall between two touching cells."""
    (ax, ay), (bx, by) = a, b
    if ay == by:  # side by side: a vertical wall
        x = max(ax, bx) * C
        d.rectangle((x - width / 2, ay * C, x + width / 2 - 1, ay * C + C), fill=fill)
    else:
        y = max(ay, by) * C
        d.rectangle((ax * C, y - width / 2, ax * C + C, y + width / 2 - 1), fill=fill)


def _door(d: ImageDraw.ImageDraw, a: Cell, b: Cell, origin: tuple[float, float] = (0, 0)) -> None:
    """A door: a wooden bar across the wall between two cells."""
    (ax, ay), (bx, by) = a, b
    ox, oy = origin
    long, thick = C * 0.46, 14
    cx: float
    cy: float
    if ay == by:
        cx, cy = max(ax, bx) * C, ay * C + C / 2
        box = (cx - thick / 2, cy - long / 2, cx + thick / 2, cy + long / 2)
    else:
        cx, cy = ax * C + C / 2, max(ay, by) * C
        box = (cx - long / 2, cy - thick / 2, cx + long / 2, cy + thick / 2)
    d.rounded_rectangle(
        (box[0] + ox, box[1] + oy, box[2] + ox, box[3] + oy),
        radius=4,
        fill=look.DOOR,
        outline=look.WALL,
        width=2,
    )


@cache
def _hatch() -> Image.Image:
    """The hatching of a Troll's room, over the whole board (a room takes its cells'
    part of it, so the lines run on across them)."""
    side = places().side
    img = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    for k in range(-side, side, 14):
        d.line((k, side, k + side, 0), fill=(*look.TROLL_HATCH, 230), width=4)
    return img


@cache
def _hatched(cell: Cell) -> Image.Image:
    x, y = cell
    return _hatch().crop((x * C, y * C, x * C + C, y * C + C))


# --- the map -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """The heights of a map's bands: the header (title and chips), the entrances'
    trays above and below the board, the key."""

    header: int
    tray_top: int
    tray_bottom: int
    key: int

    @property
    def board_top(self) -> int:
        return self.header + self.tray_top

    @property
    def height(self) -> int:
        return self.board_top + places().side + self.tray_bottom + self.key


def layout_of(view: CaveView) -> Layout:
    """The bands of `view`'s map: the header holds a chip a player, each tray as many
    rows of pieces as its entrance needs (one at least)."""
    p = places()
    crowd = _crowds(view)
    rows = {e: max(1, -(-len(crowd.get(e, [])) // TRAY_COLUMNS)) for e in p.board.entrances}
    top = [e for e in p.board.entrances if p.corner[e][0]]
    bottom = [e for e in p.board.entrances if not p.corner[e][0]]
    return Layout(
        header=TITLE + CHIP * len(view["players"]) + 10,
        tray_top=max(rows[e] for e in top) * S + 10,
        tray_bottom=max(rows[e] for e in bottom) * S + 10,
        key=-(-KEY_ITEMS // KEY_COLUMNS) * KEY_ROW + 14,
    )


def cave_png(
    view: CaveView,
    *,
    changed: Iterable[str] = (),
    names: Mapping[int, str] | None = None,
    messages: Translator = ENGLISH,
) -> bytes:
    """PNG bytes of the cave as `view` shows it.

    `changed` outlines the places (room ids, entrances, `pit`) the last action
    changed; `names` (seat -> display name) labels the chips and the title line,
    colours' words without it; the words are in the language of `messages`
    (render.cave_troll.words)."""
    return png_bytes(cave_image(view, changed=changed, names=names, messages=messages))


def cave_image(
    view: CaveView,
    *,
    changed: Iterable[str] = (),
    names: Mapping[int, str] | None = None,
    messages: Translator = ENGLISH,
) -> Image.Image:
    p = places()
    crowd = _crowds(view)
    layout = layout_of(view)
    width = p.side + 2 * PAD
    img = Image.new("RGB", (width, layout.height), theme.BACKGROUND)
    d = ImageDraw.Draw(img)
    origin = (PAD, layout.board_top)
    img.paste(static_cave(), origin)
    trolls = {piece["at"] for piece in view["pieces"] if piece["kind"] == "troll"}
    for room in p.board.rooms:
        if room in trolls:
            for x, y in p.board.cells[room]:
                patch = _hatched((x, y))
                img.paste(patch, (origin[0] + x * C, origin[1] + y * C), patch)
            for a, b in p.doors:  # the hatching covered the doors
                if room in (p.owner[a], p.owner[b]):
                    _door(d, a, b, origin)
    _labels(d, origin)
    marks = {m["room"]: m["owner"] for m in view["marks"]}
    colours = [pl["colour"] for pl in view["players"]]
    for room, seat in marks.items():
        cell = _mark_cell(room)
        centre = (origin[0] + cell[0] * C + C / 2, origin[1] + cell[1] * C + C / 2)
        colour = colours[seat]
        paste(img, look.mark(look.player_rgb(colour), look.shape_of(colour), C - 14), centre)
    bonus = f"+{load_content().text.treasure_bonus}"
    scores = view["rooms"]
    for loc in p.board.locations:
        here = crowd.get(loc, [])
        treasures = sum(1 for t in view["treasures"] if t["room"] == loc)
        if p.board.is_entrance(loc):
            _tray(img, d, loc, here, colours, layout, messages)
            continue
        # who would gain the room if the loot were counted now: a tag under its label
        tagged = loc in scores and loc not in marks
        lx, ly = p.label[loc]
        tag = {(2 * lx, 2 * ly + 1), (2 * lx + 1, 2 * ly + 1)} if tagged else set()
        if tagged:
            score = scores[loc]
            score_tag(
                img, d, (origin[0] + lx * C, origin[1] + ly * C + S), score["colour"], score["gold"]
            )
        free = [
            s
            for s in p.slots[loc]
            if s not in tag and (loc not in marks or _slot_cell(s) != _mark_cell(loc))
        ]
        items: list[PieceView | None] = [*here, *([None] * treasures)]
        for slot, item in zip(free, items, strict=False):
            centre = (origin[0] + slot[0] * S + S / 2, origin[1] + slot[1] * S + S / 2)
            if item is None:
                paste(img, look.treasure(TOKEN, bonus), centre)
            else:
                _piece(img, d, item, colours, centre, messages)
        if len(items) > len(free):  # never in play: six at most in a room
            last = free[-1]
            text_center(
                d,
                (origin[0] + last[0] * S + S / 2, origin[1] + last[1] * S + S / 2),
                f"+{len(items) - len(free) + 1}",
                18,
                theme.INK,
                stroke=look.WALL,
            )
    for loc in changed:
        _outline_place(d, loc, layout, crowd, look.CHANGED, 3)
    flight = view["flight"]
    if flight is not None:
        _outline_place(d, flight["room"], layout, crowd, look.FLIGHT, 5)
    _header(d, img, view, names, messages)
    _key(d, img, layout, messages)
    return img


def _crowds(view: CaveView) -> dict[str, list[PieceView]]:
    """The pieces at each place, each player's together, in seat order, and each
    player's by kind (adventurers first)."""
    out: dict[str, list[PieceView]] = {}
    for piece in sorted(
        view["pieces"], key=lambda q: (q["owner"], PIECE_KINDS.index(q["kind"]), q["id"])
    ):
        out.setdefault(piece["at"], []).append(piece)
    return out


def score_tag(
    img: Image.Image, d: ImageDraw.ImageDraw, at: tuple[float, float], colour: str, gold: int
) -> None:
    """The tag of a room someone controls, in the half cell from `at` (its top left):
    their shape in their colour and the gold they would gain if the loot were counted
    now ("+8")."""
    x, y = at
    box = (x + 5, y + 7, x + C - 5, y + S - 5)
    d.rounded_rectangle(box, radius=6, fill=theme.PANEL, outline=look.player_rgb(colour), width=2)
    cy = (box[1] + box[3]) / 2
    paste(
        img, look.token(look.player_rgb(colour), look.shape_of(colour), "", False, 20), (x + 20, cy)
    )
    draw_text(d, (x + 33, cy), f"+{gold}", 19, look.COIN, anchor="lm")


def _slot_cell(slot: Slot) -> Cell:
    return (slot[0] // 2, slot[1] // 2)


def _mark_cell(room: str) -> Cell:
    """Where a Mark of El'darra lies: the room's cell after its label's."""
    cells = sorted(load_board().cells[room], key=lambda c: (c[1], c[0]))
    return cells[1]


def _labels(d: ImageDraw.ImageDraw, origin: tuple[int, int]) -> None:
    """The places' ids (as the commands take them) and the rooms' gold values."""
    p = places()
    ox, oy = origin
    for loc, (x, y) in p.label.items():
        left, top = ox + x * C, oy + y * C
        if p.board.is_entrance(loc):
            text_center(d, (left + C / 2, top + C / 2), loc, 26, theme.INK)
        elif loc == p.board.pit:
            pit = p.board.cells[loc]
            px = ox + (min(c[0] for c in pit) + 1) * C
            text_center(d, (px, top + S / 2 + 2), loc, 22, theme.INK_DIM)
        else:
            draw_text(d, (left + 6, top + S / 2 + 2), loc, 25, theme.INK, anchor="lm")
            cx, cy, r = left + C - 22, top + S / 2 + 2, 16
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=look.COIN, outline=look.WALL, width=2)
            text_center(d, (cx, cy), str(p.board.value[loc]), 21, theme.INK_DARK)


def _piece(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    piece: PieceView,
    colours: list[str],
    centre: tuple[float, float],
    messages: Translator,
) -> None:
    colour = colours[piece["owner"]]
    kind = piece["kind"]
    monster = kind not in load_content_adventurers()
    paste(
        img,
        look.token(
            look.player_rgb(colour),
            look.shape_of(colour),
            ct.kind_letter(kind, messages),
            monster,
            TOKEN,
        ),
        centre,
    )
    if piece["cloaked"]:  # the notation's star: explorer*@A1
        text_center(
            d, (centre[0] + S / 2 - 7, centre[1] - S / 2 + 8), "*", 24, theme.INK, stroke=look.WALL
        )


@cache
def load_content_adventurers() -> frozenset[str]:
    return frozenset(k.id for k in load_content().text.kinds if k.group == "adventurer")


def _tray_slot(entrance: str, k: int, layout: Layout) -> tuple[float, float]:
    """The centre of the `k`-th piece of an entrance's tray: rows of twelve from the
    corner along the edge, the first row against the board."""
    p = places()
    at_top, at_left = p.corner[entrance]
    row, column = divmod(k, TRAY_COLUMNS)
    x = PAD + (column + 0.5) * S if at_left else PAD + p.side - (column + 0.5) * S
    if at_top:
        y = layout.board_top - 4 - (row + 0.5) * S
    else:
        y = layout.board_top + p.side + 4 + (row + 0.5) * S
    return x, y


def _tray_box(entrance: str, n: int, layout: Layout) -> Box:
    """The tray of an entrance holding `n` pieces, joined to its corner cell."""
    p = places()
    at_top, at_left = p.corner[entrance]
    columns = max(2, min(n, TRAY_COLUMNS))
    rows = max(1, -(-n // TRAY_COLUMNS))
    width, height = columns * S + 8, rows * S + 8
    left = PAD if at_left else PAD + p.side - width
    if at_top:
        return (left, layout.board_top - height, left + width, layout.board_top + WALL)
    bottom = layout.board_top + p.side
    return (left, bottom - WALL, left + width, bottom + height)


def _tray(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    entrance: str,
    pieces: list[PieceView],
    colours: list[str],
    layout: Layout,
    messages: Translator,
) -> None:
    if not pieces:
        return
    box = _tray_box(entrance, len(pieces), layout)
    d.rounded_rectangle(box, radius=8, fill=look.ENTRANCE, outline=look.WALL, width=3)
    for k, piece in enumerate(pieces):
        _piece(img, d, piece, colours, _tray_slot(entrance, k, layout), messages)


def _outline_place(
    d: ImageDraw.ImageDraw,
    loc: str,
    layout: Layout,
    crowd: Mapping[str, list[PieceView]],
    colour: RGB,
    width: int,
) -> None:
    """A place's outline: every edge of its cells that no other of its cells shares
    (an entrance's tray too)."""
    p = places()
    cells = set(p.board.cells.get(loc, ()))
    ox, oy = PAD, layout.board_top
    for x, y in cells:
        left, top, right, bottom = ox + x * C, oy + y * C, ox + x * C + C, oy + y * C + C
        if (x - 1, y) not in cells:
            d.rectangle((left, top, left + width - 1, bottom - 1), fill=colour)
        if (x + 1, y) not in cells:
            d.rectangle((right - width, top, right - 1, bottom - 1), fill=colour)
        if (x, y - 1) not in cells:
            d.rectangle((left, top, right - 1, top + width - 1), fill=colour)
        if (x, y + 1) not in cells:
            d.rectangle((left, bottom - width, right - 1, bottom - 1), fill=colour)
    if p.board.is_entrance(loc) and crowd.get(loc):
        box = _tray_box(loc, len(crowd[loc]), layout)
        d.rounded_rectangle(box, radius=8, outline=colour, width=width)


# --- the header and the key ----------------------------------------------------------------


def player_label(
    view: CaveView, seat: int, names: Mapping[int, str] | None, messages: Translator
) -> str:
    """A seat as the images name it: the player's name, or their colour's word."""
    if names and seat in names:
        return names[seat]
    return colour_name(view["players"][seat]["colour"], messages)


def status(view: CaveView, names: Mapping[int, str] | None, messages: Translator) -> str:
    """The title line: who is awaited and for what, or who won."""

    def who(seat: int) -> str:
        return player_label(view, seat, names, messages)

    if view["phase"] == "over":
        best = max(pl["gold"] for pl in view["players"])
        winners = [pl["seat"] for pl in view["players"] if pl["gold"] == best]
        return ct.game_over(", ".join(who(s) for s in winners), messages)
    flight = view["flight"]
    if flight is not None:
        return ct.flight_line(flight["room"], who(flight["queue"][0]), messages)
    turn = view["turn"]
    assert turn is not None
    if turn["placing"] is not None:
        return ct.placing(who(turn["seat"]), turn["placing"], messages)
    return ct.to_play(who(turn["seat"]), turn["actions_left"], messages)


def _header(
    d: ImageDraw.ImageDraw,
    img: Image.Image,
    view: CaveView,
    names: Mapping[int, str] | None,
    messages: Translator,
) -> None:
    width = img.width
    round_text = ct.round_label(view["round"], messages)
    ink = draw_text(
        d,
        (PAD, TITLE / 2),
        round_text,
        28,
        theme.INK,
        anchor="lm",
        box=(PAD, 6, PAD + 240, TITLE - 4),
    )
    line = status(view, names, messages)
    colour = look.FLIGHT if view["flight"] is not None else theme.INK
    draw_text(
        d,
        (width - PAD, TITLE / 2),
        line,
        28,
        colour,
        anchor="rm",
        box=(ink[2] + 24, 6, width - PAD, TITLE - 4),
    )
    chips(d, img, view, (PAD, TITLE, width - PAD), names, messages)


def chips(
    d: ImageDraw.ImageDraw,
    img: Image.Image,
    view: CaveView,
    area: tuple[float, float, float],
    names: Mapping[int, str] | None,
    messages: Translator,
) -> None:
    """Every player's chip, one to a row from `area` (left, top, right): their shape
    and name, gold, tokens left in their stack and artifacts held; the seat awaited
    outlined."""
    x0, top, right = area
    chip_w = right - x0
    awaited = set(view["to_act"])
    for k, pl in enumerate(view["players"]):
        y0 = top + k * CHIP + 3
        box = (x0, y0, right, y0 + CHIP - 6)
        seat = pl["seat"]
        d.rounded_rectangle(
            box,
            radius=8,
            fill=theme.PANEL,
            outline=theme.HIGHLIGHT if seat in awaited else theme.PANEL_LIGHT,
            width=3 if seat in awaited else 1,
        )
        cy = (box[1] + box[3]) / 2
        colour = pl["colour"]
        paste(
            img,
            look.token(look.player_rgb(colour), look.shape_of(colour), "", False, 32),
            (x0 + 24, cy),
        )
        held = pl["artifacts"] if isinstance(pl["artifacts"], int) else len(pl["artifacts"])
        parts = [
            (player_label(view, seat, names, messages), 0.29, theme.INK),
            (ct.gold(pl["gold"], messages), 0.24, look.COIN),
            (ct.in_stack(pl["stack"], messages), 0.26, theme.INK),
            (ct.artifacts_held(held, messages), 0.21, theme.INK),
        ]
        x = x0 + 50
        span = chip_w - 56
        for text, share, ink in parts:
            w = span * share
            draw_text(
                d,
                (x, cy),
                text,
                24,
                ink,
                anchor="lm",
                box=(x, box[1] + 3, x + w - 8, box[3] - 3),
                floor=16,
            )
            x += w


def _key(d: ImageDraw.ImageDraw, img: Image.Image, layout: Layout, messages: Translator) -> None:
    """How to read the map: each piece's letter, a Treasure, a Mark, a door, a Troll's
    room and the outline of what changed."""
    width = img.width
    top = layout.height - layout.key + 8
    item_w = (width - 2 * PAD) / KEY_COLUMNS
    adventurers = [k for k in PIECE_KINDS if k in load_content_adventurers()]
    monsters = [k for k in PIECE_KINDS if k not in load_content_adventurers()]
    items: list[tuple[str, str]] = [
        *(("piece", k) for k in adventurers),
        *(("monster", k) for k in monsters),
    ]
    items += [
        ("treasure", ""),
        ("mark", ""),
        ("door", ""),
        ("troll room", ""),
        ("changed", ""),
        ("score", ""),  # last, to the end of its row: its words are long
    ]
    bonus = f"+{load_content().text.treasure_bonus}"
    for n, (what, kind) in enumerate(items):
        row, column = divmod(n, KEY_COLUMNS)
        x0 = PAD + column * item_w
        cy = top + row * KEY_ROW + KEY_ROW / 2
        icon = (x0 + 18, cy)
        if what in ("piece", "monster"):
            paste(
                img,
                look.token(
                    look.NEUTRAL, "circle", ct.kind_letter(kind, messages), what == "monster", 34
                ),
                icon,
            )
            text = ct.kind_name(kind, messages)
        elif what == "treasure":
            paste(img, look.treasure(34, bonus), icon)
            text = ct.kind_name("treasure", messages)
        elif what == "mark":
            paste(img, look.mark(look.NEUTRAL, "circle", 34), icon)
            text = ct.mark_label(messages)
        elif what == "door":
            d.rectangle((icon[0] - 3, icon[1] - 15, icon[0] + 3, icon[1] + 15), fill=look.WALL)
            d.rounded_rectangle(
                (icon[0] - 7, icon[1] - 11, icon[0] + 7, icon[1] + 11),
                radius=3,
                fill=look.DOOR,
                outline=look.WALL,
                width=2,
            )
            text = ct.door_label(messages)
        elif what == "troll room":
            sample = (icon[0] - 15, icon[1] - 15, icon[0] + 15, icon[1] + 15)
            d.rectangle(sample, fill=look.ROOM[3])
            patch = _hatch().crop((0, 0, 30, 30))
            img.paste(patch, (round(sample[0]), round(sample[1])), patch)
            text = ct.closed_label(messages)
        elif what == "score":
            score_tag(img, d, (x0 - 4, cy - S / 2 + 1), "", 8)
            text = ct.score_label(messages)
        else:
            sample = (icon[0] - 15, icon[1] - 15, icon[0] + 15, icon[1] + 15)
            d.rectangle(sample, fill=look.ROOM[2], outline=look.CHANGED, width=3)
            text = ct.changed_label(messages)
        left = x0 + (C if what == "score" else 44)
        right = width - PAD if what == "score" else x0 + item_w
        draw_text(
            d,
            (left, cy),
            text,
            22,
            theme.INK,
            anchor="lm",
            box=(left, cy - KEY_ROW / 2 + 2, right - 8, cy + KEY_ROW / 2 - 2),
            floor=14,
        )
