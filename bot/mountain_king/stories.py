"""The rules' stories told in the reader's language.

The service stores what each action did as the rules tell it (`rules.story`: a kind
and its facts, as JSON); this module makes the sentence, in one of three voices:

- "they", to the table: "dug a stone N5 tunnel on K3+K4 (+6 honor)", after the
  player's name in a turn post, the log and `/mk status`;
- "you", to the player who acted: "Done: you dug ...";
- "ask", before a move is confirmed: "Dig a stone N5 tunnel on K3+K4 for 6 honor?".

Each sentence is a message of the catalogue in each voice (its context says which), so
a language writes each voice as it must (Polish tells the table in the present tense,
the player in the impersonal past). Games stored before stories were structured kept
an English sentence: it is told as it was.

A leaf like `bot.texts`: plain values in, text out.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from bot.i18n.catalogue import ENGLISH, Messages
from bot.mountain_king.words import counted
from bot.service.protocol import StoryData, Voice
from bot.words import listed_in
from render.words import (
    C_,
    InContext,
    a_clan,
    amount_object,
    clan_of,
    hall_name,
    mineral_of,
    spell_name,
    symbol_name,
    workshop_name,
)
from rules.story import (
    Dedicated,
    Dug,
    Ended,
    Gate,
    Kept,
    Moved,
    Played,
    Recruited,
    Revealed,
    Spell,
    Story,
    TookBack,
    Traded,
    Workshop,
    read_story,
)

log = logging.getLogger(__name__)

# how a story is told: to the table, to the player who acted, or asked before a move


def story_text(story: StoryData | None, voice: Voice = "they", m: Messages = ENGLISH) -> str:
    """A stored story as a sentence without the player's name, in `voice`; an older
    game's English sentence as it is."""
    if story is None:
        return ""
    if isinstance(story, str):
        return story
    try:
        value = read_story(story)
    except ValidationError:
        log.warning("a story the bot cannot tell: %r", story)
        return m.gettext("did something this version of the bot cannot tell")
    return tell(value, voice, m)


def is_end(story: StoryData | None) -> bool:
    """Whether the story is the end of a turn (a turn post leaves it out when the turn
    did anything else)."""
    if isinstance(story, str):
        return story == "ended their turn"
    return isinstance(story, dict) and story.get("kind") == "end"


def tell(story: Story, voice: Voice = "they", m: Messages = ENGLISH) -> str:
    """One story in one voice."""
    teller: Callable[[Any, Voice, Messages], str] = TELLERS[story.kind]
    return teller(story, voice, m)


def question(story: StoryData, m: Messages = ENGLISH) -> str:
    """The story as the question before a move: "Dig a stone N5 tunnel ... for 6
    honor?"."""
    text = story_text(story, "ask", m)
    # TRANSLATORS: a question before a move is confirmed ("Dig ... for 6 honor?")
    return m.gettext("{question}?", question=text[:1].upper() + text[1:])


# --- each kind of story ------------------------------------------------------------------
# Each sentence in each voice: (context, template) marked `C_` for the catalogue. The
# table's voice is the default when another is not told differently.

Voices = dict[Voice, InContext]

# a card the content does not know (the table never hears the card: the draft is secret
# until everyone has drafted, then one post reveals every keep)
KEPT_UNKNOWN: Voices = {
    "they": C_("told to the table", "kept a starting troll in {slot}"),
    "you": C_("told to the player", "kept {card} in {slot}"),
    "ask": C_("asked before a move", "keep {card} in {slot}"),
}
KEPT: Voices = {
    "they": KEPT_UNKNOWN["they"],
    "you": C_("told to the player", "kept the {clan} troll {card} in {slot}"),
    "ask": C_("asked before a move", "keep the {clan} troll {card} in {slot}"),
}
GATE: Voices = {
    "they": C_("told to the table", "placed their gate on start point {point} ({cell})"),
    "you": C_("told to the player", "placed your gate on start point {point} ({cell})"),
    "ask": C_("asked before a move", "place your gate on start point {point} ({cell})"),
}
RUNE_ONLY: Voices = {
    "they": C_("told to the table", "cast {spell} for its rune only"),
    "you": C_("told to the player", "cast {spell} for its rune only"),
    "ask": C_("asked before a move", "cast {spell} for its rune only"),
}
CAST: Voices = {
    "they": C_("told to the table", "cast {spell}"),
    "you": C_("told to the player", "cast {spell}"),
    "ask": C_("asked before a move", "cast {spell}"),
}
# the spell's choices in notation, as they were typed
CAST_CHOOSING: Voices = {
    "they": C_("told to the table", "cast {spell} (`{choices}`)"),
    "you": C_("told to the player", "cast {spell} (`{choices}`)"),
    "ask": C_("asked before a move", "cast {spell} (`{choices}`)"),
}
MOVED_TO_STORAGE: Voices = {
    "they": C_(
        "told to the table", "used the {workshop} on {site} to move {what} to their storage"
    ),
    "you": C_("told to the player", "used the {workshop} on {site} to move {what} to your storage"),
    "ask": C_("asked before a move", "use the {workshop} on {site} to move {what} to your storage"),
}
USED: Voices = {
    "they": C_("told to the table", "used the {workshop} on {site}: {give} for {get}"),
    "you": C_("told to the player", "used the {workshop} on {site}: {give} for {get}"),
    "ask": C_("asked before a move", "use the {workshop} on {site}: {give} for {get}"),
}
TRADED: Voices = {
    "they": C_("told to the table", "traded {give} for {get}"),
    "you": C_("told to the player", "traded {give} for {get}"),
    "ask": C_("asked before a move", "trade {give} for {get}"),
}
RECRUITED_UNSEEN: Voices = {
    "they": C_("told to the table", "recruited a troll from {horde} into {slot}"),
    "you": C_("told to the player", "recruited a troll from {horde} into {slot}"),
    "ask": C_("asked before a move", "recruit a troll from {horde} into {slot}"),
}
RECRUITED: Voices = {
    "they": C_(
        "told to the table", "recruited a level-{level} {clan} troll from {horde} into {slot}"
    ),
    "you": C_(
        "told to the player", "recruited a level-{level} {clan} troll from {horde} into {slot}"
    ),
    "ask": C_(
        "asked before a move", "recruit a level-{level} {clan} troll from {horde} into {slot}"
    ),
}
TAKING_A_PEDESTAL: Voices = {
    "they": C_("told to the table", "{told}, taking {clan} pedestal"),
    "you": C_("told to the player", "{told}, taking {clan} pedestal"),
    "ask": C_("asked before a move", "{told}, taking {clan} pedestal"),
}
DUG: Voices = {
    "they": C_("told to the table", "dug {mineral} {shape} tunnel on {cells} {honor}"),
    "you": C_("told to the player", "dug {mineral} {shape} tunnel on {cells} {honor}"),
    "ask": C_("asked before a move", "dig {mineral} {shape} tunnel on {cells} {honor}"),
}
WITH_A_PEDESTAL: Voices = {
    "they": C_("told to the table", "{told} with {clan} pedestal on {anchor}"),
    "you": C_("told to the player", "{told} with {clan} pedestal on {anchor}"),
    "ask": C_("asked before a move", "{told} with {clan} pedestal on {anchor}"),
}
ESTABLISHED: Voices = {
    "they": C_("told to the table", "{told} and established the {workshop} on {site}"),
    "you": C_("told to the player", "{told} and established the {workshop} on {site}"),
    "ask": C_("asked before a move", "{told} and establish the {workshop} on {site}"),
}
DEDICATED: Voices = {
    "they": C_("told to the table", "dedicated the {hall} with its altar on {altar}"),
    "you": C_("told to the player", "dedicated the {hall} with its altar on {altar}"),
    "ask": C_("asked before a move", "dedicate the {hall} with its altar on {altar}"),
}
MOVED_UNSEEN: Voices = {
    "they": C_("told to the table", "moved a statue from {origin} to {target}"),
    "you": C_("told to the player", "moved a statue from {origin} to {target}"),
    "ask": C_("asked before a move", "move a statue from {origin} to {target}"),
}
MOVED: Voices = {
    "they": C_("told to the table", "moved {clan} statue from {origin} to {target}"),
    "you": C_("told to the player", "moved {clan} statue from {origin} to {target}"),
    "ask": C_("asked before a move", "move {clan} statue from {origin} to {target}"),
}
ENDED: Voices = {
    "they": C_("told to the table", "ended their turn"),
    "you": C_("told to the player", "ended your turn"),
    "ask": C_("asked before a move", "end your turn"),
}


def _say(sentences: Voices, voice: Voice, m: Messages, **facts: object) -> str:
    """The sentence of this voice, its fields filled with `facts`."""
    return m.pgettext(*sentences[voice], **facts)


def _kept(story: Kept, voice: Voice, m: Messages) -> str:
    if story.clan is None:
        return _say(KEPT_UNKNOWN, voice, m, card=story.card, slot=story.slot)
    return _say(KEPT, voice, m, clan=clan_of(story.clan, m), card=story.card, slot=story.slot)


def _gate(story: Gate, voice: Voice, m: Messages) -> str:
    return _say(GATE, voice, m, point=story.point, cell=story.cell)


def _cast(story: Spell, voice: Voice, m: Messages) -> str:
    spell = spell_name(story.spell, m)
    if story.rune_only:
        return _say(RUNE_ONLY, voice, m, spell=spell)
    if not story.args:
        return _say(CAST, voice, m, spell=spell)
    return _say(CAST_CHOOSING, voice, m, spell=spell, choices=" ".join(story.args))


def _workshop(story: Workshop, voice: Voice, m: Messages) -> str:
    unnamed = m.pgettext("piece", "workshop")
    name = workshop_name(story.workshop, m) if story.workshop else unnamed
    if story.move is not None:
        what = amount_object(story.move, 1, m)
        return _say(MOVED_TO_STORAGE, voice, m, workshop=name, site=story.site, what=what)
    give = counted(story.give, m, as_object=True)
    get = counted(story.get, m, as_object=True)
    return _say(USED, voice, m, workshop=name, site=story.site, give=give, get=get)


def _traded(story: Traded, voice: Voice, m: Messages) -> str:
    give = counted(story.give, m, as_object=True)
    return _say(TRADED, voice, m, give=give, get=amount_object(story.get, 1, m))


def _recruited(story: Recruited, voice: Voice, m: Messages) -> str:
    where = {"horde": story.horde, "slot": story.slot}
    if story.level is None or story.clan is None:
        told = _say(RECRUITED_UNSEEN, voice, m, **where)
    else:
        clan = clan_of(story.clan, m)
        told = _say(RECRUITED, voice, m, **where, level=story.level, clan=clan)
    if story.pedestal is None:
        return told
    return _say(TAKING_A_PEDESTAL, voice, m, told=told, clan=a_clan(story.pedestal, m))


def _dug(story: Dug, voice: Voice, m: Messages) -> str:
    honor = story.honor
    if voice == "ask":
        worth = (
            m.ngettext("for {count} honor", "for {count} honor", honor, count=honor)
            if honor
            else m.gettext("for no honor")
        )
    else:
        worth = (
            m.ngettext("(+{count} honor)", "(+{count} honor)", honor, count=honor)
            if honor
            else m.gettext("(no honor)")
        )
    told = _say(
        DUG,
        voice,
        m,
        mineral=mineral_of(story.mineral, m),
        shape=story.shape,
        cells="+".join(story.cells),
        honor=worth,
    )
    if story.pedestal is not None:
        clan = a_clan(story.pedestal, m)
        told = _say(WITH_A_PEDESTAL, voice, m, told=told, clan=clan, anchor=story.anchor)
    for site, workshop in story.workshops:
        name = workshop_name(workshop, m)
        told = _say(ESTABLISHED, voice, m, told=told, workshop=name, site=site)
    return told


def _dedicated(story: Dedicated, voice: Voice, m: Messages) -> str:
    return _say(DEDICATED, voice, m, hall=hall_name(story.hall, m), altar=story.altar or "?")


def _moved(story: Moved, voice: Voice, m: Messages) -> str:
    where = {"origin": story.origin, "target": story.target}
    if story.clan is None:
        return _say(MOVED_UNSEEN, voice, m, **where)
    return _say(MOVED, voice, m, **where, clan=a_clan(story.clan, m))


def _ended(story: Ended, voice: Voice, m: Messages) -> str:
    return _say(ENDED, voice, m)


def _took_back(story: TookBack, voice: Voice, m: Messages) -> str:
    taken = story.taken
    text = taken if isinstance(taken, str) else "" if taken is None else tell(taken, voice, m)
    return m.gettext("took back: {story}", story=text)


def _played(story: Played, voice: Voice, m: Messages) -> str:
    return m.gettext("played `{notation}`", notation=story.notation)


def _revealed(story: Revealed, voice: Voice, m: Messages) -> str:
    trolls = [
        m.gettext(
            "{clan} troll making {makes} in {slot}",
            clan=a_clan(t.clan, m),
            makes=listed_in([symbol_name(s, m) for s in t.makes], m),
            slot=t.slot,
        )
        for t in story.trolls
    ]
    # TRANSLATORS: told to the table once the draft is over: "kept a Fire troll making
    # coin and Fire cart in A1, ..."
    return m.gettext("kept {trolls}", trolls=listed_in(trolls, m))


# how each kind of story is told
TELLERS: dict[str, Callable[[Any, Voice, Messages], str]] = {
    "keep": _kept,
    "gate": _gate,
    "cast": _cast,
    "use": _workshop,
    "trade": _traded,
    "recruit": _recruited,
    "dig": _dug,
    "hall": _dedicated,
    "move": _moved,
    "end": _ended,
    "kept": _revealed,
    "undo": _took_back,
    "played": _played,
}
