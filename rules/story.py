"""The story of a turn: what an action did, told from the position it was played in.

Like python-chess's `board.san(move)`, the sentence needs the state *before* the action
("recruited a level-2 Fire troll" reads the horde slot as it was). The service tells it
once, when the action is stored, and keeps the sentence with the action, so turn posts,
the log and "since your last turn" never replay a game to describe it.

A sentence has no subject, so the caller names the player. It is told in one of three
voices: "they" for the table ("ended their turn"), "you" for the player's private
answer ("ended your turn") and "ask" for a question before a move is confirmed ("end
your turn").

    >>> from rules.game import Game
    >>> from rules.actions import parse_action
    >>> g = Game.new(players=2, seed=7)
    >>> describe(g.state, 0, parse_action("end"))
    'ended their turn'
    >>> describe(g.state, 0, parse_action("end"), "ask")
    'end your turn'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

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
from rules.resources import RESOURCES, Resource
from rules.state import State
from rules.tunnels import tunnel_score

Voice = Literal["they", "you", "ask"]

# each verb as (past, bare): "dug" tells, "dig" asks
VERBS = {
    "keep": ("kept", "keep"),
    "place": ("placed", "place"),
    "cast": ("cast", "cast"),
    "use": ("used", "use"),
    "trade": ("traded", "trade"),
    "recruit": ("recruited", "recruit"),
    "dig": ("dug", "dig"),
    "dedicate": ("dedicated", "dedicate"),
    "move": ("moved", "move"),
    "end": ("ended", "end"),
    "establish": ("established", "establish"),
}


def article(word: str) -> str:
    """The word with its indefinite article: "an iron", "a stone", "a level-2"."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def listed(items: Sequence[str]) -> str:
    """Items joined for a sentence: "a", "a and b", "a, b and c"."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def counted(resources: Sequence[Resource]) -> str:
    """Resources in words: "2 coin and 1 stone" (resource order)."""
    return listed([f"{resources.count(r)} {r.value}" for r in RESOURCES if r in resources])


def honor_words(honor: int, voice: Voice) -> str:
    """What a tunnel scores: "(+6 honor)" told, "for 6 honor" asked; none said so."""
    if honor == 0:
        return "for no honor" if voice == "ask" else "(no honor)"
    return f"for {honor} honor" if voice == "ask" else f"(+{honor} honor)"


def describe(before: State, seat: int, action: Action, voice: Voice = "they") -> str:
    """One sentence without the player's name: "recruited ..." (voice "they"), "...
    your gate" ("you") or "dig ... for 6 honor" ("ask"). `before` is the state the
    action is played in; it is not changed."""
    content = load_content()
    own = "their" if voice == "they" else "your"

    def verb(name: str) -> str:
        past, bare = VERBS[name]
        return bare if voice == "ask" else past

    if isinstance(action, Keep):
        if voice == "they":
            # the draft is secret until everyone has drafted: the table hears the slot
            return f"kept a starting troll in {action.slot}"
        card = content.trolls.get(action.card)
        what = f"the {card.clan.value.capitalize()} troll {action.card}" if card else action.card
        return f"{verb('keep')} {what} in {action.slot}"
    if isinstance(action, PlaceGate):
        side = content.board(before.config.board_side)
        cell = next((p.cell for p in side.start_points if p.id == action.point), "?")
        return f"{verb('place')} {own} gate on start point {action.point} ({cell})"
    if isinstance(action, Cast):
        spell = content.spell(action.spell)
        if action.args == ("none",):
            return f"{verb('cast')} {spell.name} for its rune only"
        detail = " ".join(action.args)
        return f"{verb('cast')} {spell.name}" + (f" ({detail})" if detail else "")
    if isinstance(action, UseWorkshop):
        workshop = before.board.workshops.get(action.site)
        name = content.workshop(workshop).name if workshop else "workshop"
        if action.move is not None:
            moved = action.move.resource.value
            return (
                f"{verb('use')} the {name} on {action.site} to move {article(moved)} to"
                f" {own} storage"
            )
        return (
            f"{verb('use')} the {name} on {action.site}: {counted(action.give)} for"
            f" {counted(action.get)}"
        )
    if isinstance(action, Trade):
        return f"{verb('trade')} {counted(action.give)} for 1 {action.get.value}"
    if isinstance(action, Recruit):
        row, j = horde_position(action.horde)
        card_id = before.horde[row][j].card
        card = content.trolls[card_id] if card_id else None
        what = (
            article(f"level-{card.level} {card.clan.value.capitalize()} troll")
            if card
            else "a troll"
        )
        extra = f", taking {article(action.pedestal.value)} pedestal" if action.pedestal else ""
        return f"{verb('recruit')} {what} from {action.horde} into {action.slot}{extra}"
    if isinstance(action, Dig):
        honor = tunnel_score(before, len(action.cells), action.mineral)
        tunnel = article(f"{action.mineral.value} {action.shape} tunnel")
        extra = (
            f" with {article(action.pedestal.value)} pedestal on {action.anchor}"
            if action.pedestal
            else ""
        )
        for site, workshop in action.workshops:
            extra += f" and {verb('establish')} the {content.workshop(workshop).name} on {site}"
        worth = honor_words(honor, voice)
        return f"{verb('dig')} {tunnel} on {'+'.join(action.cells)} {worth}{extra}"
    if isinstance(action, DedicateHall):
        hall = next(h for h in content.halls if h.id == action.hall)
        return f"{verb('dedicate')} the {hall.name} with its altar on {action.altar}"
    if isinstance(action, MoveStatue):
        clan = before.board.statues.get(action.origin, "?")
        statue = article(f"{clan.capitalize()} statue")
        return f"{verb('move')} {statue} from {action.origin} to {action.target}"
    if isinstance(action, EndTurn):
        return f"{verb('end')} {own} turn"
    raise AssertionError(action)  # pragma: no cover


def kept(state: State, seat: int) -> str:
    """What a seat kept in the secret draft, told once everyone has drafted: "kept a
    Fire troll making coin in A1, ... and a Mud troll making stone in A4"."""
    content = load_content()
    kept = []
    for slot, troll in sorted(state.players[seat].pyramid.items()):
        card = content.trolls[troll.card]
        makes = listed([r.value if c is None else f"{c.value}-cart" for r, c in card.produce])
        kept.append(f"{article(card.clan.value.capitalize())} troll making {makes} in {slot}")
    return "kept " + listed(kept)


def cells_changed(action: Action) -> tuple[str, ...]:
    """The board cells the action changed, sorted (what a turn post outlines)."""
    return tuple(sorted(cells_touched(action)))
