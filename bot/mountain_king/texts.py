"""The Mountain King's messages: the draft, the dig's question, a turn post, the end
of the game, the log and a player's status. The table's messages (the lobby, seats,
reminders, votes, your games) are `bot.texts`, which these use.

A leaf like `bot.texts`: plain values in (the service's results, the owed payloads, the
rules' content), text out; the rules' stories are told by `bot.mountain_king.stories`,
the game's words by its vocabulary (`render.words`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.i18n.catalogue import ENGLISH, N_, Messages
from bot.mountain_king.stories import is_end, question, story_text
from bot.mountain_king.words import counted
from bot.service.owed import GameOver, Ping, StartPost, TurnPost
from bot.service.protocol import StoryData
from bot.service.results import LogEntry
from bot.texts import (
    POST_LIMIT,
    called_in,
    calling,
    command,
    deadline_text,
    fit,
    language_name,
    newest_lines,
    start_lines,
    timestamp,
    who,
)
from bot.words import listed_in
from render.words import a_clan, amount, symbol_name
from rules.content import load_content
from rules.resources import Resource

DRAFT_OVER = N_("The draft is over.")
DRAFT_NOT_YET = N_(
    "The draft begins once every gate is placed: the players place their gates in turn"
    " order with `/mk gate`, and the bot calls everyone to `/mk draft` after the last one."
)
DRAFT_DONE = N_("You have kept your four starting trolls.")


def _player(entry: LogEntry, messages: Messages) -> str:
    """The player of a log entry as the reader calls them: "alice (Blue)"."""
    return called_in(entry.label, entry.name, entry.ai, messages)


# --- the draft -------------------------------------------------------------------------


def draft_text(hand: Sequence[str], messages: Messages = ENGLISH) -> str:
    """The two starting trolls in hand: what each produces and starts you with."""
    m = messages
    content = load_content()
    lines = [m.gettext("Keep one of these two starting trolls (the other stays in your hand):")]
    for card_id in hand:
        card = content.trolls[card_id]
        makes = [
            symbol_name(r.value if c is None else f"{c.value}-cart", m) for r, c in card.produce
        ]
        start = [r for r, _ in card.start]
        troll = {"card": card_id, "clan": a_clan(card.clan, m), "makes": listed_in(makes, m)}
        lines.append(
            m.gettext(
                "• **{card}**, {clan} troll: makes {makes}; you start with {start}",
                **troll,
                start=counted(start, m, as_object=True),
            )
            if start
            else m.gettext(
                "• **{card}**, {clan} troll: makes {makes}; you start with nothing", **troll
            )
        )
    return "\n".join(lines)


def draft_done_text(phase: str, *, gates_first: bool = True, messages: Messages = ENGLISH) -> str:
    """Said to a player who has kept their four starting trolls, by the game's phase
    now: the others still drafting, the gates (a game of edition 1 placed them after
    the draft: not `gates_first`), or the game under way."""
    m = messages
    done = m.gettext(DRAFT_DONE)
    if phase == "draft" and gates_first:
        then = m.gettext(
            "Wait for the others: when the last one keeps theirs, the bot reveals everyone's"
            " trolls and the first turn begins."
        )
    elif phase == "draft":
        then = m.gettext("Wait for the others, then place gates with `/mk gate`.")
    elif phase == "gates":
        then = m.gettext("Gates are placed now, in turn order, with `/mk gate`.")
    else:
        then = m.gettext(DRAFT_OVER)
    return f"{done} {then}"


def keep_label(card: str, slot: str) -> str:
    return f"{card} → {slot}"


def dig_question(story: StoryData, messages: Messages = ENGLISH) -> str:
    """The dig preview's question: "Dig a stone N5 tunnel on K3+K4 for 6 honor?"."""
    return question(story, messages)


def dig_refused(reason: str, messages: Messages = ENGLISH) -> str:
    return messages.gettext("That tunnel is not allowed: {reason}", reason=reason)


CANCELLED = N_("Cancelled: nothing was changed.")


def told(stories: Sequence[StoryData], messages: Messages = ENGLISH) -> str:
    """A turn's stories as a post tells them, "recruited ...; dug ...": "ended their
    turn" only when the player did nothing else (ending is how every turn ends)."""
    rest = [s for s in stories if not is_end(s)] or stories
    return "; ".join(story_text(in_prose(s), "they", messages) for s in rest)


def in_prose(story: StoryData) -> StoryData:
    """A story as the table reads it in a post: prose, no notation. A spell's choices
    are told in notation (`2hammer`), so a post names the spell alone; its images show
    what it did."""
    if isinstance(story, dict) and story.get("kind") == "cast" and story.get("args"):
        return {**story, "args": []}
    return story


def turn_post_text(post: TurnPost, messages: Messages = ENGLISH) -> str:
    """What a finished turn did, "**alice (Blue)** recruited ...; dug ....", with a line
    per player when several are told at once (the draft revealed), then whoever it
    calls to act next, each by their mention alone, in one line (after the last gate,
    everyone to the draft): "<@2> (Orange): it's your turn: ..."."""
    m = messages
    lines = [
        # TRANSLATORS: a line of a turn post: the player in bold, then what they did
        m.gettext("**{player}** {did}.", player=who(t.player, m), did=told(t.sentences, m))
        for t in post.lines
        if t.sentences
    ]
    if len(lines) > 1:
        lines = [
            m.gettext("Everyone has drafted. The starting trolls:"),
            *(f"• {line}" for line in lines),
        ]
    if post.images == "board" and post.call_phase == "play":
        lines.append(m.gettext("The mountain is ready and the first turn begins."))
    if post.call_phase == "draft":
        lines.append(
            m.gettext(
                "Every gate is placed. Now everyone keeps four starting trolls, privately and"
                " at the same time."
            )
        )
    if not post.calls:
        return fit("\n".join(lines))
    names = ", ".join(calling(p, m) for p in post.calls)
    call = called_to(names, post.call_phase, m)
    if post.next_reminder is not None:
        call += " " + m.gettext("Next reminder {when}.", when=timestamp(post.next_reminder))
    call += deadline_text(post.deadline, m)
    # the call is never cut: a long turn's story gives way to it
    told_lines = fit("\n".join(lines), max(1, POST_LIMIT - len(call) - 1))
    return "\n".join([*([told_lines] if told_lines else []), fit(call)])


def game_over_text(
    over: GameOver, record_name: str = "the record", messages: Messages = ENGLISH
) -> str:
    """The winners by name (a team wins together), and what the attachments are."""
    m = messages
    names = [who(p, m) for p in over.winners]
    winners = listed_in(names, m) or m.gettext("Nobody")
    if len(over.winners) > 1:
        crowned = m.gettext(
            "🏆 The game is over. **{winners}** win and are crowned Mountain Kings!",
            winners=winners,
        )
    else:
        crowned = m.gettext(
            "🏆 The game is over. **{winners}** wins and is crowned the Mountain King!",
            winners=winners,
        )
    attached = m.gettext(
        "Attached: the score sheet, the whole game as an animation of the board after"
        " every turn, and `{record}`, the game's record (every action in order; the"
        " bot's owner can replay it to check the result).",
        record=record_name,
    )
    return f"{crowned}\n{attached}"


# --- looking ---------------------------------------------------------------------------


def log_text(entries: Sequence[LogEntry], messages: Messages = ENGLISH) -> str:
    """The last actions as the stories stored with them, newest last, with each
    action's notation (what `/mk act` takes)."""
    lines = [
        # TRANSLATORS: a line of /mk log: number, player, what they did, its notation
        messages.gettext(
            "{seq}. {player} {did} · `{notation}`",
            seq=e.seq,
            player=_player(e, messages),
            did=story_text(e.told, "they", messages),
            notation=e.notation,
        )
        for e in entries
    ]
    return newest_lines(lines) or messages.gettext("No actions yet.")


def status_text(
    colour: str,
    storage: Mapping[str, int],
    kinds: Sequence[str],
    changes: Sequence[LogEntry],
    messages: Messages = ENGLISH,
    *,
    language: str | None = None,
) -> str:
    """A player's private status: storage, what they can do now, what changed (and,
    given `language`, the language of the game's posts)."""
    m = messages
    owned = ", ".join(amount(Resource(r), n, m) for r, n in storage.items() if n)
    owned = owned or m.gettext("nothing")
    changed = "\n".join(
        # TRANSLATORS: a line of /mk status: a player and what they did
        m.gettext("• {player} {did}", player=_player(e, m), did=story_text(e.told, "they", m))
        for e in changes[-15:]
    )
    changed = changed or "• " + m.gettext("nothing yet")
    can = ", ".join(f"`{command('draft' if k == 'keep' else k, m)}`" for k in kinds)
    lines = [
        m.gettext("You are **{colour}**. Storage: {storage}.", colour=colour, storage=owned),
        m.gettext("You can now: {actions}", actions=can)
        if can
        else m.gettext("You can now: nothing — it is not your move."),
        m.gettext("Since your last turn:\n{changes}", changes=changed),
    ]
    if language is not None:
        lines.append(
            m.gettext(
                "The game's posts are in {language} (its creator changes that with"
                " `/mk admin what:settings`).",
                language=language_name(language),
            )
        )
    return "\n".join(lines)[:POST_LIMIT]


# --- the start and the calls ---------------------------------------------------------


def start_text(post: StartPost, messages: Messages = ENGLISH) -> str:
    """The game has begun: every seat with its person, colour, turn order and team, and
    what everyone does first: the gates in turn order, the first placer called by name,
    then the draft (a game of edition 1 drafted first)."""
    m = messages
    lines = start_lines(post, m)
    first = next((p for p in post.players if p.seat in post.to_act), None)
    if post.phase == "gates":
        lines.append(
            m.gettext(
                "First each player places a gate, in turn order, with `/mk gate`. Then everyone"
                " keeps four starting trolls, privately and at the same time, with `/mk draft`."
            )
        )
        if first is not None:
            lines.append(
                m.gettext("{player} places the first gate.", player=who(first, m))
                if first.ai
                else called_to(who(first, m), "gates", m)
            )
        return "\n".join(lines) + deadline_text(post.deadline, m)
    if first is not None:
        lines.append(
            m.gettext(
                "Everyone now keeps four starting trolls, privately and at the same time: use"
                " `/mk draft`. When all have drafted, gates are placed in turn order with"
                " `/mk gate`, {player} first.",
                player=who(first, m),
            )
        )
    else:
        lines.append(
            m.gettext(
                "Everyone now keeps four starting trolls, privately and at the same time: use"
                " `/mk draft`. When all have drafted, gates are placed in turn order with"
                " `/mk gate`."
            )
        )
    return "\n".join(lines) + deadline_text(post.deadline, m)


def call_words(phase: str, messages: Messages = ENGLISH) -> str:
    """What a called player does next, by the phase they act in."""
    if phase == "gates":
        return messages.gettext("place your gate with `/mk gate`")
    if phase == "draft":
        return messages.gettext("keep your starting trolls with `/mk draft`")
    if phase == "play":
        return messages.gettext("it's your turn: `/mk status` shows your options")
    return messages.gettext("it's your move")


def called_to(names: str, phase: str, messages: Messages = ENGLISH) -> str:
    """ "<@1> (Blue): place your gate with `/mk gate`."."""
    return messages.gettext("{players}: {call}.", players=names, call=call_words(phase, messages))


def ping_text(ping: Ping, messages: Messages = ENGLISH) -> str:
    m = messages
    called = called_to(calling(ping.player, m), "play", m)
    called += " " + m.gettext("Next reminder {when}.", when=timestamp(ping.next_reminder))
    return called + deadline_text(ping.deadline, m)
