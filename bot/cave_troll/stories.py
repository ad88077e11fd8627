"""Cave Troll's stories told in the reader's language.

The service stores what each action did as the rules tell it (`cave_troll.story`: a
kind, its facts and its effects, as JSON); this module makes the sentence, in one of
three voices, as the Mountain King's face does (`bot.mountain_king.stories`):

- "they", to the table: "moved Blue Knight from NW to A1", after the player's name in a
  turn post, the log and `/cave status`;
- "you", to the player who acted: "Done: you moved ...";
- "ask", before a move: "move Blue Knight from NW to A1".

What else the action did (the loot counted, an artifact found, Orcs a Knight discarded,
a Troll flight begun, the end of the game) follows in brackets, told to the table
alike; an artifact found is named only to its finder (the service hands the others the
story as `cave_troll.told_to` hides it).

A leaf like `bot.texts`: plain values in, text out.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import ValidationError

from bot.cave_troll.words import gained, piece
from bot.i18n.catalogue import ENGLISH, Messages
from bot.service.protocol import StoryData, Voice
from bot.words import colour_name, listed_in
from cave_troll.effects import (
    Discarded,
    Effect,
    Entered,
    FlightBegins,
    Found,
    GameOver,
    Scored,
    TokenFact,
)
from cave_troll.story import (
    Drew,
    Ended,
    Fled,
    Killed,
    Moved,
    Placed,
    Played,
    Pushed,
    Sent,
    Stayed,
    Story,
    read_story,
)
from render.cave_troll.words import artifact_name, kind_name
from render.words import C_, InContext

log = logging.getLogger(__name__)

Voices = dict[Voice, InContext]


def story_text(story: StoryData | None, voice: Voice = "they", m: Messages = ENGLISH) -> str:
    """A stored story as a sentence without the player's name, in `voice`."""
    if story is None:
        return ""
    if isinstance(story, str):
        return story
    kind = story.get("kind")
    if kind == "played":
        return m.gettext("played `{notation}`", notation=story.get("notation", ""))
    if kind == "undo":
        taken = story.get("taken")
        text = "" if taken is None else story_text(taken, voice, m)
        return m.gettext("took back: {story}", story=text)
    try:
        value = read_story(story)
    except ValidationError:
        log.warning("a story the bot cannot tell: %r", story)
        return m.gettext("did something this version of the bot cannot tell")
    return tell(value, voice, m)


def in_public(story: StoryData) -> StoryData:
    """The story as the whole table may hear it: an artifact found is named only to
    its finder ("Nie pokazuj swojego artefaktu innym graczom", l.160)."""
    if not isinstance(story, dict) or not isinstance(story.get("effects"), list):
        return story
    effects = [
        {"effect": "found", "artifact": None, "hidden": True}
        if isinstance(e, dict) and e.get("effect") == "found" and e.get("artifact")
        else e
        for e in story["effects"]
    ]
    return {**story, "effects": effects}


def is_end(story: StoryData | None) -> bool:
    """Whether the story is the end of a turn (a turn post leaves it out when the turn
    did anything else)."""
    return isinstance(story, dict) and story.get("kind") == "end"


def tell(story: Story, voice: Voice = "they", m: Messages = ENGLISH) -> str:
    """One story in one voice, with what else it did in brackets."""
    teller: Callable[[Any, Voice, Messages], str] = TELLERS[story.kind]
    text = teller(story, voice, m)
    effects = [e for e in (effect_text(f, story, voice, m) for f in _grouped(story)) if e]
    if not effects:
        return text
    # TRANSLATORS: what an action did, then what else happened because of it
    return m.pgettext("cave troll", "{told} ({effects})", told=text, effects="; ".join(effects))


# --- each kind of story ------------------------------------------------------------------

DREW: Voices = {
    "they": C_("cave troll, told to the table", "drew {token}"),
    "you": C_("cave troll, told to the player", "drew {token}"),
    "ask": C_("cave troll, asked before a move", "draw a token"),
}
PLACED: Voices = {
    "they": C_("cave troll, told to the table", "placed {token} on {at}"),
    "you": C_("cave troll, told to the player", "placed {token} on {at}"),
    "ask": C_("cave troll, asked before a move", "place {token} on {at}"),
}
MOVED: Voices = {
    "they": C_("cave troll, told to the table", "moved {piece} from {start} to {path}"),
    "you": C_("cave troll, told to the player", "moved {piece} from {start} to {path}"),
    "ask": C_("cave troll, asked before a move", "move {piece} from {start} to {path}"),
}
PUSHED: Voices = {
    "they": C_(
        "cave troll, told to the table", "pushed {piece} out of {start} into {to} with their Wraith"
    ),
    "you": C_(
        "cave troll, told to the player", "pushed {piece} out of {start} into {to} with your Wraith"
    ),
    "ask": C_(
        "cave troll, asked before a move", "push {piece} out of {start} into {to} with your Wraith"
    ),
}
KILLED: Voices = {
    "they": C_("cave troll, told to the table", "had their Orc discard {piece} in {at}"),
    "you": C_("cave troll, told to the player", "had your Orc discard {piece} in {at}"),
    "ask": C_("cave troll, asked before a move", "have your Orc discard {piece} in {at}"),
}
SENT: Voices = {
    "they": C_("cave troll, told to the table", "sent {piece} from {start} to {to}"),
    "you": C_("cave troll, told to the player", "sent {piece} from {start} to {to}"),
    "ask": C_("cave troll, asked before a move", "send {piece} from {start} to {to}"),
}
FLED: Voices = {
    "they": C_(
        "cave troll, told to the table", "saved {piece} from the Cave Troll: from {start} to {to}"
    ),
    "you": C_(
        "cave troll, told to the player", "saved {piece} from the Cave Troll: from {start} to {to}"
    ),
    "ask": C_(
        "cave troll, asked before a move", "save {piece} from the Cave Troll: from {start} to {to}"
    ),
}
STAYED: Voices = {
    "they": C_("cave troll, told to the table", "left {pieces} with the Cave Troll in {room}"),
    "you": C_("cave troll, told to the player", "left {pieces} with the Cave Troll in {room}"),
    "ask": C_("cave troll, asked before a move", "leave {pieces} with the Cave Troll in {room}"),
}
STAYED_NONE: Voices = {
    "they": C_("cave troll, told to the table", "let nothing more flee {room}"),
    "you": C_("cave troll, told to the player", "let nothing more flee {room}"),
    "ask": C_("cave troll, asked before a move", "let nothing more flee {room}"),
}
ENDED: Voices = {
    "they": C_("cave troll, told to the table", "ended their turn"),
    "you": C_("cave troll, told to the player", "ended your turn"),
    "ask": C_("cave troll, asked before a move", "end your turn"),
}
# the artifacts played: on a piece with a path (the Helm), on a piece (the Cloak), on a
# place (the others)
HELM: Voices = {
    "they": C_(
        "cave troll, told to the table", "played the {artifact} on {piece}: from {start} to {path}"
    ),
    "you": C_(
        "cave troll, told to the player", "played the {artifact} on {piece}: from {start} to {path}"
    ),
    "ask": C_(
        "cave troll, asked before a move", "play the {artifact} on {piece}: from {start} to {path}"
    ),
}
ON_A_PIECE: Voices = {
    "they": C_("cave troll, told to the table", "played the {artifact} on {piece} in {at}"),
    "you": C_("cave troll, told to the player", "played the {artifact} on {piece} in {at}"),
    "ask": C_("cave troll, asked before a move", "play the {artifact} on {piece} in {at}"),
}
ON_A_PLACE: Voices = {
    "they": C_("cave troll, told to the table", "played the {artifact} on {at}"),
    "you": C_("cave troll, told to the player", "played the {artifact} on {at}"),
    "ask": C_("cave troll, asked before a move", "play the {artifact} on {at}"),
}


def _say(sentences: Voices, voice: Voice, m: Messages, **facts: object) -> str:
    return m.pgettext(*sentences[voice], **facts)


def _piece(fact: TokenFact, m: Messages) -> str:
    return piece(fact.colour, fact.kind, m)


def _path(path: Sequence[str]) -> str:
    return " → ".join(path)


def _drew(story: Drew, voice: Voice, m: Messages) -> str:
    return _say(DREW, voice, m, token=kind_name(story.token, m))


def _placed(story: Placed, voice: Voice, m: Messages) -> str:
    return _say(PLACED, voice, m, token=kind_name(story.token, m), at=story.at)


def _moved(story: Moved, voice: Voice, m: Messages) -> str:
    where = {"start": story.start, "path": _path(story.path)}
    return _say(MOVED, voice, m, piece=_piece(story.piece, m), **where)


def _pushed(story: Pushed, voice: Voice, m: Messages) -> str:
    where = {"start": story.start, "to": story.to}
    return _say(PUSHED, voice, m, piece=_piece(story.piece, m), **where)


def _killed(story: Killed, voice: Voice, m: Messages) -> str:
    return _say(KILLED, voice, m, piece=_piece(story.piece, m), at=story.at)


def _sent(story: Sent, voice: Voice, m: Messages) -> str:
    where = {"start": story.start, "to": story.to}
    return _say(SENT, voice, m, piece=_piece(story.piece, m), **where)


def _fled(story: Fled, voice: Voice, m: Messages) -> str:
    where = {"start": story.start, "to": story.to}
    return _say(FLED, voice, m, piece=_piece(story.piece, m), **where)


def _stayed(story: Stayed, voice: Voice, m: Messages) -> str:
    if not story.pieces:
        return _say(STAYED_NONE, voice, m, room=story.room)
    pieces = listed_in([_piece(p, m) for p in story.pieces], m)
    return _say(STAYED, voice, m, pieces=pieces, room=story.room)


def _ended(story: Ended, voice: Voice, m: Messages) -> str:
    return _say(ENDED, voice, m)


def _played(story: Played, voice: Voice, m: Messages) -> str:
    artifact = artifact_name(story.artifact, m)
    if story.piece is not None and story.path:
        return _say(
            HELM,
            voice,
            m,
            artifact=artifact,
            piece=_piece(story.piece, m),
            start=story.start or "?",
            path=_path(story.path),
        )
    if story.piece is not None:
        at = story.start or "?"
        return _say(ON_A_PIECE, voice, m, artifact=artifact, piece=_piece(story.piece, m), at=at)
    return _say(ON_A_PLACE, voice, m, artifact=artifact, at=story.at or "?")


TELLERS: dict[str, Callable[[Any, Voice, Messages], str]] = {
    "draw": _drew,
    "place": _placed,
    "move": _moved,
    "push": _pushed,
    "kill": _killed,
    "play": _played,
    "send": _sent,
    "flee": _fled,
    "stay": _stayed,
    "end": _ended,
}


# --- what else an action did --------------------------------------------------------------

# what discarded pieces, by its cause (an Orc's own kill is the story itself)
DISCARDED_BY: dict[str, InContext] = {
    "knight": C_("cave troll", "the Knight discards {pieces} in {at}"),
    "sword": C_("cave troll", "the Sword discards {pieces} in {at}"),
    "troll": C_("cave troll", "the Cave Troll discards {pieces} in {at}"),
    "cloak": C_("cave troll", "{pieces} left with a Cave Troll in {at}: discarded"),
    "orc": C_("cave troll", "the Orc discards {pieces} in {at}"),
}


def _grouped(story: Story) -> list[Effect | tuple[Discarded, ...]]:
    """The story's effects, the pieces discarded in one place by one cause together."""
    out: list[Effect | tuple[Discarded, ...]] = []
    for effect in story.effects:
        if isinstance(effect, Discarded):
            last = out[-1] if out else None
            if isinstance(last, tuple) and (last[0].at, last[0].by) == (effect.at, effect.by):
                out[-1] = (*last, effect)
                continue
            out.append((effect,))
        else:
            out.append(effect)
    return out


def effect_text(
    effect: Effect | tuple[Discarded, ...], story: Story, voice: Voice, m: Messages
) -> str:
    """What else happened, in a clause ("" for what a post tells otherwise: the next
    turn, and the Orc's own kill)."""
    if isinstance(effect, tuple):
        first = effect[0]
        if first.by == "orc" and isinstance(story, Killed):
            return ""
        tokens = [d.token for d in effect]
        if first.by == "troll" and isinstance(story, Stayed):
            # the pieces this answer left are told already: the others' with them
            for left in story.pieces:
                if left in tokens:
                    tokens.remove(left)
            if not tokens:
                return ""
        pieces = listed_in([_piece(t, m) for t in tokens], m)
        return m.pgettext(*DISCARDED_BY[first.by], pieces=pieces, at=first.at)
    if isinstance(effect, Entered):
        if effect.at == "pit":
            return m.pgettext("cave troll", "it goes into the pit")
        return m.pgettext("cave troll", "it comes in at {at}", at=effect.at)
    if isinstance(effect, Scored):
        return _scored(effect, m)
    if isinstance(effect, Found):
        if effect.artifact is not None:
            found = artifact_name(effect.artifact, m)
            if voice == "you":
                return m.pgettext("cave troll", "you find the {artifact}", artifact=found)
            return m.pgettext("cave troll", "finds the {artifact}", artifact=found)
        if effect.hidden:
            return m.pgettext("cave troll", "finds an artifact, kept secret")
        return m.pgettext("cave troll", "the artifact pile is empty: nothing is found")
    if isinstance(effect, FlightBegins):
        colours = listed_in([colour_name(c, m) for c in effect.colours], m)
        return m.pgettext(
            "cave troll",
            "a Cave Troll in {room}! Who flees is chosen in turn by {colours}",
            room=effect.room,
            colours=colours,
        )
    if isinstance(effect, GameOver):
        return m.pgettext(
            "cave troll",
            "{colour}'s last token: the game is over, {colour} +{bonus} gold for ending it",
            colour=colour_name(effect.colour, m),
            bonus=effect.bonus,
        )
    return ""  # the next turn: the post calls its player


def _scored(effect: Scored, m: Messages) -> str:
    """The loot counted: each colour's gain, or nobody's."""
    totals: dict[str, int] = {}
    for room in effect.rooms:
        totals[room.colour] = totals.get(room.colour, 0) + room.gold
    gains = ", ".join(gained(c, g, m) for c, g in totals.items() if g)
    if effect.room is not None:
        if not gains:
            return m.pgettext("cave troll", "{room} counted: nobody gains gold", room=effect.room)
        return m.pgettext("cave troll", "{room} counted: {gains}", room=effect.room, gains=gains)
    if effect.final:
        if not gains:
            return m.pgettext("cave troll", "the last count: nobody gains gold")
        return m.pgettext("cave troll", "the last count: {gains}", gains=gains)
    if not gains:
        return m.pgettext("cave troll", "the loot is counted: nobody gains gold")
    return m.pgettext("cave troll", "the loot is counted: {gains}", gains=gains)
