"""What each image of Cave Troll shows, in words: the alt text a screen reader says for
it (Discord's attachment description), in the language of the message that carries it.

The cave: the pieces of each colour on the board, the Treasures, the Marks and the
Trolls' rooms, each player's gold, the places outlined (the last turn's changes, a
Troll flight's room). A panel: the artifacts in hand, the tokens left, the gold.
Discord keeps at most 1,024 characters of a description.

A leaf: plain values in (a view, the players' names), text out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from bot.i18n.catalogue import ENGLISH, Messages
from bot.words import colour_name, listed_in
from cave_troll.view import CaveView
from render.cave_troll.words import artifact_name, gold, kind_name

# Discord's limit on an attachment's description
MOST = 1024


def _fit(text: str) -> str:
    return text if len(text) <= MOST else text[: MOST - 1] + "…"


def _player(view: CaveView, seat: int, names: Mapping[int, str], m: Messages) -> str:
    return names.get(seat) or colour_name(view["players"][seat]["colour"], m)


def cave_alt(
    view: CaveView,
    changed: Sequence[str] = (),
    names: Mapping[int, str] | None = None,
    messages: Messages = ENGLISH,
) -> str:
    """The cave map: pieces by colour, Treasures, Marks, Trolls' rooms, gold, and the
    places outlined."""
    m = messages
    names = names or {}
    on_board = Counter(p["owner"] for p in view["pieces"] if p["kind"] != "troll")
    counted = [
        m.gettext("{player} {count}", player=_player(view, seat, names, m), count=on_board[seat])
        for seat in range(len(view["players"]))
    ]
    trolls = sorted({p["at"] for p in view["pieces"] if p["kind"] == "troll"})
    parts = [
        m.gettext(
            "The cave of 28 rooms (A1 to D7), the entrances NW, NE, SE and SW, and the pit."
            " Pieces by player: {pieces}.",
            pieces=", ".join(counted),
        )
    ]
    if view["treasures"]:
        rooms = listed_in(sorted(t["room"] for t in view["treasures"]), m)
        parts.append(m.gettext("Treasure in {rooms}.", rooms=rooms))
    if view["marks"]:
        marks = listed_in([mk["room"] for mk in view["marks"]], m)
        parts.append(m.gettext("{mark} on {rooms}.", mark=artifact_name("eldarra", m), rooms=marks))
    if trolls:
        parts.append(
            m.gettext(
                "{troll} in {rooms}.", troll=kind_name("troll", m), rooms=listed_in(trolls, m)
            )
        )
    golds = [
        m.gettext(
            "{player} {gold}", player=_player(view, p["seat"], names, m), gold=gold(p["gold"], m)
        )
        for p in view["players"]
    ]
    parts.append(m.gettext("Gold: {golds}.", golds=", ".join(golds)))
    if changed:
        parts.append(
            m.gettext(
                "Outlined in white, what the last turn changed: {places}.",
                places=listed_in(list(dict.fromkeys(changed)), m),
            )
        )
    flight = view["flight"]
    if flight is not None:
        parts.append(
            m.gettext(
                "Outlined in yellow: {room}, where a Cave Troll came and the players choose"
                " what flees.",
                room=flight["room"],
            )
        )
    return _fit(" ".join(parts))


def panel_alt(view: CaveView, seat: int, player: str, messages: Messages = ENGLISH) -> str:
    """A player's panel: the artifacts in hand (their number when secret), what is left
    in their stack kind by kind, and their gold."""
    m = messages
    mine = view["players"][seat]
    held = mine["artifacts"]
    if isinstance(held, list):
        artifacts = listed_in([artifact_name(a, m) for a in held], m) or m.gettext("none")
    else:
        artifacts = m.ngettext(
            "{count} artifact, face down", "{count} artifacts, face down", held, count=held
        )
    left = ", ".join(f"{kind_name(k, m)} ×{n}" for k, n in mine["stack_left"].items())
    return _fit(
        m.gettext(
            "{player}'s panel. Artifacts in hand: {artifacts}. Tokens left in the stack"
            " ({count}): {left}. Gold: {gold}.",
            player=player,
            artifacts=artifacts,
            count=mine["stack"],
            left=left or m.gettext("none"),
            gold=gold(mine["gold"], m),
        )
    )


def record_alt(messages: Messages = ENGLISH) -> str:
    return messages.gettext(
        "The game's record: its options, its seed and every action in order, as JSON."
    )
