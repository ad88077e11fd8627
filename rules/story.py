"""The story of a turn: what an action did, told from the position it was played in.

Like python-chess's `board.san(move)`, the sentence needs the state *before* the action
("recruited a level-2 Fire troll" reads the horde slot as it was). The service tells it
once, when the action is stored, and keeps the sentence with the action, so turn posts,
the log and "since your last turn" never replay a game to describe it.

    >>> from rules.game import Game
    >>> from rules.actions import parse_action
    >>> g = Game.new(players=2, seed=7)
    >>> describe(g.state, 0, parse_action("end"))
    'ended their turn'
"""

from __future__ import annotations

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
    format_bundle,
)
from rules.board import tunnel_score
from rules.content import load_content
from rules.pyramid import horde_position
from rules.state import State


def describe(before: State, seat: int, action: Action) -> str:
    """One sentence in the past tense, without the player's name: "recruited ...".
    `before` is the state the action was played in; it is not changed."""
    content = load_content()
    if isinstance(action, Keep):
        return f"kept a starting troll in {action.slot}"
    if isinstance(action, PlaceGate):
        side = content.board(before.config.board_side)
        cell = next((p.cell for p in side.start_points if p.id == action.point), "?")
        return f"placed their gate on start point {action.point} ({cell})"
    if isinstance(action, Cast):
        spell = content.spell(action.spell)
        if action.args == ("none",):
            return f"cast {spell.name} for its rune only"
        detail = " ".join(action.args)
        return f"cast {spell.name}" + (f" ({detail})" if detail else "")
    if isinstance(action, UseWorkshop):
        workshop = before.board.workshops.get(action.site)
        name = content.workshop(workshop).name if workshop else "workshop"
        if action.move is not None:
            moved = action.move.resource.value
            return f"used the {name} on {action.site} to move a {moved} to storage"
        return (
            f"used the {name} on {action.site}: {format_bundle(action.give)} for"
            f" {format_bundle(action.get)}"
        )
    if isinstance(action, Trade):
        return f"traded {format_bundle(action.give)} for 1 {action.get.value}"
    if isinstance(action, Recruit):
        row, j = horde_position(action.horde)
        card_id = before.horde[row][j].card
        card = content.trolls[card_id] if card_id else None
        what = f"a level-{card.level} {card.clan.value.capitalize()} troll" if card else "a troll"
        extra = f", taking a {action.pedestal.value} pedestal" if action.pedestal else ""
        return f"recruited {what} from {action.horde} into {action.slot}{extra}"
    if isinstance(action, Dig):
        honor = tunnel_score(before, len(action.cells), action.mineral)
        extra = (
            f", a {action.pedestal.value} pedestal on {action.anchor}" if action.pedestal else ""
        )
        for site, workshop in action.workshops:
            extra += f", established the {content.workshop(workshop).name} on {site}"
        return (
            f"dug a {action.mineral.value} {action.shape} tunnel on {'+'.join(action.cells)}"
            f" (+{honor} honor){extra}"
        )
    if isinstance(action, DedicateHall):
        hall = next(h for h in content.halls if h.id == action.hall)
        return f"dedicated the {hall.name} with its altar on {action.altar}"
    if isinstance(action, MoveStatue):
        clan = before.board.statues.get(action.origin, "?")
        return f"moved a {clan.capitalize()} statue from {action.origin} to {action.target}"
    if isinstance(action, EndTurn):
        return "ended their turn"
    raise AssertionError(action)  # pragma: no cover


def cells_changed(action: Action) -> tuple[str, ...]:
    """The board cells the action changed, sorted (what a turn post outlines)."""
    return tuple(sorted(cells_touched(action)))
