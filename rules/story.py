"""The story of a turn: what an action did, told from the position it was played in.

Like python-chess's `board.san(move)`, the story needs the state *before* the action
("recruited a level-2 Fire troll" reads the horde slot as it was). The service tells it
once, when the action is stored, and keeps it with the action, so turn posts, the log
and "since your last turn" never replay a game to describe it.

A story is not a sentence but what a sentence needs: a `kind` (which telling: a dig, a
recruit...) and the facts that fill it (the mineral, the honor, the cells), as ids and
numbers. The bot tells it in the reader's language (`bot.mountain_king.stories`), to the table
("recruited ..."), to the player who acted ("you recruited ...") or as a question
before a move is confirmed ("recruit ...?"); stored as JSON (`to_json`), a story read
back years later is told in any language the bot speaks then.

    >>> from rules.game import Game
    >>> from rules.actions import parse_action
    >>> g = Game.new(players=2, seed=7)
    >>> describe(g.state, 0, parse_action("end")).to_json()
    {'kind': 'end'}
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from rules.actions import (
    Action,
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
    cells_touched,
)
from rules.content import load_content
from rules.pyramid import horde_position
from rules.resources import Clan, Resource, symbol_name
from rules.state import State
from rules.tunnels import tunnel_score


class _Story(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    def to_json(self) -> dict[str, Any]:
        """The story as JSON-ready data (what the service stores)."""
        return self.model_dump(mode="json", exclude_defaults=False)


class Kept(_Story):
    """A starting troll kept in the draft: the card (secret from the table until the
    draft is over) and the slot."""

    kind: Literal["keep"] = "keep"
    card: str
    clan: Clan | None
    slot: str


class Gate(_Story):
    kind: Literal["gate"] = "gate"
    point: str
    cell: str


class Spell(_Story):
    """A spell cast, with its choices in notation (none: cast for its rune only)."""

    kind: Literal["cast"] = "cast"
    spell: str
    args: tuple[str, ...] = ()
    rune_only: bool = False


class Workshop(_Story):
    """A workshop used: resources given for others, or one moved from a troll to
    storage (`move`). `workshop` is its id (None: a site without one, never stored)."""

    kind: Literal["use"] = "use"
    site: str
    workshop: str | None
    give: tuple[Resource, ...] = ()
    get: tuple[Resource, ...] = ()
    move: Resource | None = None


class Traded(_Story):
    kind: Literal["trade"] = "trade"
    give: tuple[Resource, ...]
    get: Resource


class Recruited(_Story):
    """A troll recruited from the horde (its level and clan as the card shows them;
    None if the slot held no card, which a legal recruit never meets)."""

    kind: Literal["recruit"] = "recruit"
    horde: str
    slot: str
    level: int | None
    clan: Clan | None
    pedestal: Clan | None = None


class Dug(_Story):
    """A tunnel dug: its tile, cells and mineral, the honor it scored, the pedestal put
    on its anchor and the workshops established beside it (site, workshop id)."""

    kind: Literal["dig"] = "dig"
    shape: str
    cells: tuple[str, ...]
    mineral: Resource
    honor: int
    pedestal: Clan | None = None
    anchor: str | None = None
    workshops: tuple[tuple[str, str], ...] = ()


class Dedicated(_Story):
    kind: Literal["hall"] = "hall"
    hall: str
    altar: str | None


class Moved(_Story):
    """A statue moved (its clan None if no statue stood there, never stored)."""

    kind: Literal["move"] = "move"
    clan: Clan | None
    origin: str
    target: str


class Ended(_Story):
    kind: Literal["end"] = "end"


class KeptTroll(BaseModel):
    """One starting troll as the draft reveals it: its clan, what it makes (produce
    symbols: `coin`, `fire-cart`) and its slot."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    clan: Clan
    makes: tuple[str, ...]
    slot: str


class Revealed(_Story):
    """What a seat kept in the secret draft, told once everyone has drafted."""

    kind: Literal["kept"] = "kept"
    trolls: tuple[KeptTroll, ...]


class Played(_Story):
    """An action told by its notation alone (a game stored before stories were told)."""

    kind: Literal["played"] = "played"
    notation: str


class TookBack(_Story):
    """An undo: the story of the action taken back (an English sentence in games
    stored before stories were structured)."""

    kind: Literal["undo"] = "undo"
    taken: Story | str | None = None


Story = Annotated[
    Kept
    | Gate
    | Spell
    | Workshop
    | Traded
    | Recruited
    | Dug
    | Dedicated
    | Moved
    | Ended
    | Revealed
    | Played
    | TookBack,
    Field(discriminator="kind"),
]
TookBack.model_rebuild()
STORY: TypeAdapter[Story] = TypeAdapter(Story)


def read_story(data: object) -> Story:
    """A stored story (JSON-ready data); raises `pydantic.ValidationError` if it is
    not one."""
    return STORY.validate_python(data)


def describe(before: State, seat: int, action: Action) -> Story:
    """What the action does, told from `before`, the state it is played in (not
    changed)."""
    content = load_content()
    if isinstance(action, Keep):
        card = content.trolls.get(action.card)
        return Kept(card=action.card, clan=card.clan if card else None, slot=action.slot)
    if isinstance(action, PlaceGate):
        side = content.board(before.config.board_side)
        cell = next((p.cell for p in side.start_points if p.id == action.point), "?")
        return Gate(point=action.point, cell=cell)
    if isinstance(action, Cast):
        if action.args == ("none",):
            return Spell(spell=action.spell, rune_only=True)
        return Spell(spell=action.spell, args=action.args)
    if isinstance(action, UseWorkshop):
        workshop = before.board.workshops.get(action.site)
        if action.move is not None:
            return Workshop(site=action.site, workshop=workshop, move=action.move.resource)
        return Workshop(site=action.site, workshop=workshop, give=action.give, get=action.get)
    if isinstance(action, Trade):
        return Traded(give=action.give, get=action.get)
    if isinstance(action, Recruit):
        row, j = horde_position(action.horde)
        card_id = before.horde[row][j].card
        card = content.trolls[card_id] if card_id else None
        return Recruited(
            horde=action.horde,
            slot=action.slot,
            level=card.level if card else None,
            clan=card.clan if card else None,
            pedestal=action.pedestal,
        )
    if isinstance(action, Dig):
        return Dug(
            shape=action.shape,
            cells=action.cells,
            mineral=action.mineral,
            honor=tunnel_score(before, len(action.cells), action.mineral),
            pedestal=action.pedestal,
            anchor=action.anchor if action.pedestal else None,
            workshops=action.workshops,
        )
    if isinstance(action, DedicateHall):
        return Dedicated(hall=action.hall, altar=action.altar)
    if isinstance(action, MoveStatue):
        clan = before.board.statues.get(action.origin)
        return Moved(clan=Clan(clan) if clan else None, origin=action.origin, target=action.target)
    if isinstance(action, EndTurn):
        return Ended()
    raise AssertionError(action)  # pragma: no cover


def kept(state: State, seat: int) -> Revealed:
    """What a seat kept in the secret draft, told once everyone has drafted."""
    return Revealed(
        trolls=tuple(
            _kept_troll(troll.card, slot)
            for slot, troll in sorted(state.players[seat].pyramid.items())
        )
    )


def _kept_troll(card: str, slot: str) -> KeptTroll:
    troll = load_content().trolls[card]
    return KeptTroll(
        clan=troll.clan, makes=tuple(symbol_name(r, c) for r, c in troll.produce), slot=slot
    )


def revealed_keep(story: Kept) -> Story:
    """One keep in the words of the draft's reveal ("kept a Fire troll making coin in
    A1"): how it is told once the draft is over, or to the seat that kept it."""
    if story.card not in load_content().trolls:
        return story
    return Revealed(trolls=(_kept_troll(story.card, story.slot),))


def cells_changed(action: Action) -> tuple[str, ...]:
    """The board cells the action changed, sorted (what a turn post outlines)."""
    return tuple(sorted(cells_touched(action)))
