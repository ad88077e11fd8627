"""What each image the Mountain King's bot sends shows, in words: the alt text a screen
reader says for it (Discord's attachment description), in the language of the message
that carries the image.

Each text names what the picture is and the facts a sighted player reads from it first:
whose it is, the cells a turn changed, the pieces on the mountain, a pyramid's trolls
and storage, the scores. Discord keeps at most 1,024 characters of a description.

A leaf like `texts`: plain values in (a view, a seat's name), text out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.i18n.catalogue import ENGLISH, Messages
from bot.words import listed_in
from render.words import amount
from rules.resources import Resource
from rules.view import View

# Discord's limit on an attachment's description
MOST = 1024


def _fit(text: str) -> str:
    return text if len(text) <= MOST else text[: MOST - 1] + "…"


def _cells(cells: Sequence[str], messages: Messages) -> str:
    return listed_in(list(cells), messages)


def board_alt(
    view: View, cells: Sequence[str] = (), messages: Messages = ENGLISH, *, focus: bool = False
) -> str:
    """The mountain: its pieces counted, and the cells outlined (a close-up with
    `focus`)."""
    m = messages
    pieces = view["board"]["pieces"]
    tunnels = sum(1 for p in pieces if p["kind"] == "tunnel")
    halls = sum(1 for p in pieces if p["kind"] == "hall")
    gates = sum(1 for p in pieces if p["kind"] == "gate")
    statues = len(view["board"]["statues"])
    counted = m.gettext(
        "{gates} gates, {tunnels} tunnels, {halls} great halls and {statues} statues",
        gates=gates,
        tunnels=tunnels,
        halls=halls,
        statues=statues,
    )
    if focus:
        text = m.gettext(
            "A close-up of the mountain around the cells this turn changed: {cells}.",
            cells=_cells(cells, m),
        )
    elif cells:
        text = m.gettext(
            "The mountain, with {pieces} on it; the cells this turn changed are outlined: {cells}.",
            pieces=counted,
            cells=_cells(cells, m),
        )
    else:
        text = m.gettext("The mountain, with {pieces} on it.", pieces=counted)
    return _fit(text)


def pyramid_alt(view: View, seat: int, player: str, messages: Messages = ENGLISH) -> str:
    """A seat's pyramid: its trolls by slot, and its storage when the view shows it."""
    m = messages
    seats = view["players"]
    pyramid = seats[seat]["pyramid"] if 0 <= seat < len(seats) else {}
    slots = sorted(pyramid)
    account = seats[seat]["account"] if 0 <= seat < len(seats) else None
    storage: dict[str, int] = {}
    if account is not None and 0 <= account < len(view["accounts"]):
        storage = view["accounts"][account]["storage"]
    owned = ", ".join(amount(Resource(r), n, m) for r, n in storage.items() if n)
    trolls = m.ngettext(
        "{player}'s pyramid: {count} troll ({slots}).",
        "{player}'s pyramid: {count} trolls ({slots}).",
        len(slots),
        player=player,
        count=len(slots),
        slots=", ".join(slots) or "-",
    )
    stored = m.gettext("Storage: {storage}.", storage=owned or m.gettext("nothing"))
    return _fit(f"{trolls} {stored}")


def market_alt(messages: Messages = ENGLISH) -> str:
    return messages.gettext(
        "The market: the horde of trolls to recruit, the spellbook and the supplies."
    )


def score_alt(outcome: dict[str, Any], names: dict[int, str], messages: Messages = ENGLISH) -> str:
    """The score sheet: each line's total honour, best first."""
    m = messages
    lines = sorted(outcome.get("breakdown", []), key=lambda b: -int(b.get("total", 0)))
    said = [
        m.gettext(
            "{players}: {honor} honor",
            players=" & ".join(names.get(s, str(s)) for s in line.get("seats", [])),
            honor=line.get("total", 0),
        )
        for line in lines
    ]
    return _fit(m.gettext("The score sheet: {lines}.", lines="; ".join(said)))


def replay_alt(boards: int, messages: Messages = ENGLISH) -> str:
    """The replay: the mountain as the first turn began, then after every turn."""
    return messages.ngettext(
        "An animation of the mountain in {count} board: as play began, then after every turn.",
        "An animation of the mountain in {count} boards: as play began, then after every turn.",
        boards,
        count=boards,
    )


def record_alt(messages: Messages = ENGLISH) -> str:
    return messages.gettext(
        "The game's record: its options, its seed and every action in order, as JSON."
    )


def legend_alt(messages: Messages = ENGLISH) -> str:
    return messages.gettext(
        "The legend: what each colour, letter and symbol on the board and the pyramids means."
    )


def preview_alt(cells: Sequence[str], anchor: str | None, messages: Messages = ENGLISH) -> str:
    m = messages
    if anchor is None:
        return m.gettext("The tunnel you would dig, on {cells}.", cells=_cells(cells, m))
    return m.gettext(
        "The tunnel you would dig, on {cells}, its anchor on {anchor}.",
        cells=_cells(cells, m),
        anchor=anchor,
    )
