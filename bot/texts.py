"""Every message the bot writes, as text: the lobby, the draft, turn posts, pings,
reminders, votes, the end of the game, status, scores and help.

A leaf: it reads plain values (the service's results, the rules' content) and imports no
other part of the bot but the message catalogue, so anything may use it and a message
reads the same wherever it is built.

Each text is in the message catalogue (`bot.i18n`): a function takes the `Messages` of
the language to write in (English by default). What goes to the game's thread is in
the game's language; a private answer in the reader's (`interaction.locale`); a direct
message in the language the player last used. What the rules tell of an action (its
story) is told by `bot.stories`, the game's words by `bot.words`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime

import discord

from bot.i18n.catalogue import ENGLISH, N_, Messages
from bot.service.owed import (
    GameOver,
    Ping,
    Player,
    Reply,
    SeatNews,
    StartPost,
    TurnPost,
)
from bot.service.protocol import StoryData
from bot.service.results import (
    ActResult,
    DueReminder,
    GameInfo,
    LogEntry,
    SeatInfo,
    YourGame,
    called,
)
from bot.service.votes import VoteTally
from bot.stories import is_end, question, story_text
from bot.words import a_clan, amount, colour_name, counted, listed_in, symbol_name
from rules.content import load_content
from rules.resources import Resource

POST_LIMIT = 1900
NO_MENTIONS = discord.AllowedMentions.none()

NOT_STARTED = N_("The game has not started yet.")
DRAFT_OVER = N_("The draft is over.")
DRAFT_NOT_YET = N_(
    "The draft begins once every gate is placed: the players place their gates in turn"
    " order with `/mk gate`, and the bot calls everyone to `/mk draft` after the last one."
)
DRAFT_DONE = N_("You have kept your four starting trolls.")
# each language as its speakers name it (the game's language is shown so)
LANGUAGE_NAMES = {"en": "English", "pl": "Polski", "es": "Español"}


def mention_only(user_id: int | None) -> discord.AllowedMentions:
    """Allowed mentions for a ping: exactly that user, nobody else."""
    return mention_users([user_id] if user_id is not None else [])


def mention_users(user_ids: Iterable[int]) -> discord.AllowedMentions:
    """Allowed mentions for exactly these users (no roles, no @everyone)."""
    users = [discord.Object(u) for u in user_ids]
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


def fit(text: str, limit: int = POST_LIMIT) -> str:
    """Text cut to fit one Discord message, marked with an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def called_in(label: str, name: str | None, ai: bool, messages: Messages = ENGLISH) -> str:
    """A seat as players read it (`results.called`) in a language: "alice (Blue)"."""
    return called(label, name, ai, messages, colour_name(label, messages))


def _player(entry: LogEntry, messages: Messages) -> str:
    """The player of a log entry as the reader calls them: "alice (Blue)"."""
    return called_in(entry.label, entry.name, entry.ai, messages)


def command(name: str, messages: Messages = ENGLISH) -> str:
    """A subcommand as the reader's client shows it: "/mk gate", "/mk wrota"."""
    return "/mk " + (messages.lookup(name, "command name") or name)


def language_name(language: str) -> str:
    return LANGUAGE_NAMES.get(language, language)


# --- the lobby -------------------------------------------------------------------------


def lobby_text(info: GameInfo, messages: Messages = ENGLISH) -> str:
    """The lobby: the game's options and the seats taken so far (in the game's
    language)."""
    m = messages
    config = info.config
    count = int(config["players"])
    players = m.ngettext("{count} player", "{count} players", count, count=count)
    if config.get("teams"):
        players = m.gettext("{players} in two teams", players=players)
    side = config.get("side")
    workshops = str(config.get("workshops", "random"))
    lines = [
        m.gettext("**In the Hall of the Mountain King** · game #{game}", game=info.id),
        m.gettext(
            "{players} · board side: {side} · workshops: {workshops} · language: {language}",
            players=players,
            side=m.pgettext("choice", side) if side else m.gettext("by player count"),
            workshops=m.pgettext("choice", workshops),
            language=language_name(info.language),
        ),
    ]
    seated = [s for s in info.seats if s.user_id is not None or s.ai]

    def who_sits(s: SeatInfo) -> str:
        return called_in(s.label, s.name, s.ai, m)

    if info.status == "open":
        names = [who_sits(s) if s.ai else (s.name or f"<@{s.user_id}>") for s in seated]
        lines.append(m.gettext("Seats: {names}", names=", ".join(names) or m.gettext("none yet")))
        lines.append(
            m.ngettext(
                "{joined} of {needed} players has joined. The creator presses Start when"
                " everyone is in.",
                "{joined} of {needed} players have joined. The creator presses Start when"
                " everyone is in.",
                len(seated),
                joined=len(seated),
                needed=info.seats_needed,
            )
        )
        return "\n".join(lines)
    order = ", ".join(f"{n}. {who_sits(s)}" for n, s in enumerate(seated, 1))
    lines.append(m.gettext("Turn order: {order}", order=order))
    lines.extend(team_lines([(s.team, who_sits(s)) for s in seated], m))
    lines.append(status_words(info.status, m))
    return "\n".join(lines)


def status_words(status: str, messages: Messages = ENGLISH) -> str:
    if status == "active":
        return messages.gettext("The game is under way in this thread.")
    if status == "over":
        return messages.gettext("The game is over.")
    if status == "abandoned":
        return messages.gettext("The game was abandoned.")
    return messages.gettext("Status: {status}.", status=status)


def team_lines(seats: Sequence[tuple[int | None, str]], messages: Messages = ENGLISH) -> list[str]:
    """ "Team 1: alice (Blue) & carol (Green)", one line per team (none without teams)."""
    teams: dict[int, list[str]] = {}
    for team, name in seats:
        if team is not None:
            teams.setdefault(team, []).append(name)
    return [
        messages.gettext("Team {number}: {players}", number=t + 1, players=" & ".join(names))
        for t, names in sorted(teams.items())
    ]


def game_opened_text(game_id: int, thread_mention: str, messages: Messages = ENGLISH) -> str:
    return messages.gettext(
        "Game #{game} is open in {thread}.", game=game_id, thread=thread_mention
    )


def start_text(post: StartPost, messages: Messages = ENGLISH) -> str:
    """The game has begun: every seat with its person, colour, turn order and team, and
    what everyone does first: the gates in turn order, the first placer called by name,
    then the draft (a game of edition 1 drafted first)."""
    m = messages
    people = [p for p in post.players if p.user_id is not None and not p.ai]
    mentions = " ".join(f"<@{p.user_id}>" for p in people)
    lines = [m.gettext("{mentions} the game has begun!", mentions=mentions).strip()]
    lines.append(m.gettext("Turn order:"))
    lines += [f"{n}. {who(p, m)}" for n, p in enumerate(post.players, 1)]
    lines += team_lines([(p.team, who(p, m)) for p in post.players], m)
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
        return "\n".join(lines)
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
    return "\n".join(lines)


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


# --- acting ----------------------------------------------------------------------------


def done_text(
    reply: Reply | ActResult, *, post_pending: bool = False, messages: Messages = ENGLISH
) -> str:
    """The private answer to an accepted action, in the second person (`post_pending`:
    a public post it made owed could not be sent yet), in the reader's language."""
    m = messages
    did = story_text(reply.told if isinstance(reply, ActResult) else reply.story, "you", m)
    if not did:
        did = story_text({"kind": "played", "notation": reply.notation}, "you", m)
    if reply.undone is not None:
        text = m.gettext("Undone: your last action (you {did}) is taken back.", did=did)
    else:
        text = m.gettext("Done: you {did}.", did=did)
        if reply.turn_ended and not reply.game_over and reply.notation != "end":
            text += " " + m.gettext("Your turn is over.")
    if post_pending:
        text += " " + m.gettext("The public post will follow as soon as Discord accepts it.")
    return text


def dig_question(story: StoryData, messages: Messages = ENGLISH) -> str:
    """The dig preview's question: "Dig a stone N5 tunnel on K3+K4 for 6 honor?"."""
    return question(story, messages)


def dig_refused(reason: str, messages: Messages = ENGLISH) -> str:
    return messages.gettext("That tunnel is not allowed: {reason}", reason=reason)


CANCELLED = N_("Cancelled: nothing was changed.")


# --- the thread: the start, turn posts, pings, seats, votes, the end ---------------
# Built from stored payloads only: a message built twice reads the same, which is how
# the courier recognises a post a dead process already sent. The language is the
# game's, stored with it.


def who(player: Player, messages: Messages = ENGLISH) -> str:
    """A seat as the table reads it: "alice (Blue)" (see `called`)."""
    return called_in(player.label, player.name, player.ai, messages)


def timestamp(at: datetime, style: str = "R") -> str:
    """A Discord timestamp: every reader sees it in their own time zone."""
    return f"<t:{int(at.timestamp())}:{style}>"


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
    # the call is never cut: a long turn's story gives way to it
    told_lines = fit("\n".join(lines), max(1, POST_LIMIT - len(call) - 1))
    return "\n".join([*([told_lines] if told_lines else []), fit(call)])


def calling(player: Player, messages: Messages = ENGLISH) -> str:
    """A called player, named once: their mention (Discord shows their name) with their
    colour, "<@1> (Blue)"."""
    return called_in(player.label, f"<@{player.user_id}>", False, messages)


def ping_text(ping: Ping, messages: Messages = ENGLISH) -> str:
    m = messages
    called = called_to(calling(ping.player, m), "play", m)
    return called + " " + m.gettext("Next reminder {when}.", when=timestamp(ping.next_reminder))


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


def _person(name: str | None, user_id: int | None, messages: Messages = ENGLISH) -> str:
    """Someone by their display name, or by a mention (shown as their name, and no
    ping: seat news allows no mentions)."""
    if name:
        return name
    return f"<@{user_id}>" if user_id is not None else messages.gettext("nobody")


SEAT_TAKE_BACK = "`/mk admin what:return`"


# The news of a seat changing hands, by (change, how, whether someone else held the
# seat before): one sentence each, looked up from the most to the least particular key
# (a `how` or a holder of None matches any)
SEAT_NEWS: dict[tuple[str, str | None, bool | None], str] = {
    ("offered", "agreed", None): N_(
        "{to}, {by} asks to take over {seat}, the seat you play. Press **Accept**"
        " to hand it to {by}: only you can. Until then nothing changes."
    ),
    ("offered", None, True): N_(
        "{to}, {by} offers you the seat {seat}, played by {held} now. Press"
        " **Accept** to play it from now on: only you can. Until then nothing"
        " changes."
    ),
    ("offered", None, False): N_(
        "{to}, {by} offers you the seat {seat}, vacant now. Press **Accept** to play it"
        " from now on: only you can. Until then nothing changes."
    ),
    ("substitute", "accepted", True): N_(
        "{new} accepted {by}'s offer and now plays {seat} in place of {held}."
    ),
    ("substitute", "accepted", False): N_("{new} accepted {by}'s offer and now plays {seat}."),
    ("substitute", "agreed", True): N_(
        "{new} now plays {seat} in place of {held}: {held} agreed to hand it over."
    ),
    ("substitute", "agreed", False): N_("{new} now plays {seat}: {held} agreed to hand it over."),
    ("substitute", "admin", True): N_(
        "{new} now plays {seat} in place of {held}, assigned by {by} (server admin)."
    ),
    ("substitute", "admin", False): N_("{new} now plays {seat}, assigned by {by} (server admin)."),
    ("substitute", "absent", True): N_(
        "{new} now plays {seat} in place of {held}, whose seat was on autopilot."
    ),
    ("substitute", "absent", False): N_("{new} now plays {seat}, which was vacant."),
    ("substitute", None, None): N_("{seat} is now played by {new}."),
    ("returned", "own", True): N_("{new} takes {seat} back from {held}."),
    ("returned", "own", False): N_("{new} takes {seat} back from the autopilot."),
    ("returned", None, None): N_("{seat} is back with its own player, {new} (returned by {by})."),
    ("autopilot-on", None, None): N_("The AI plays {player} from now on (autopilot)."),
    ("autopilot-off", None, None): N_("{player} plays again: the autopilot is off."),
}


def seat_text(news: SeatNews, messages: Messages = ENGLISH) -> str:
    """A change of who plays a seat, with the names of everyone concerned; or an offer
    of a seat, addressed to the one user who must accept it."""
    m = messages
    before = news.before or news.player
    if news.by_user_id is not None:
        by = _person(news.by_name, news.by_user_id, m)
    else:
        by = m.gettext("The table")
    names = {
        "seat": colour_name(news.player.label, m),
        "by": by,
        "held": _person(before.name, before.user_id, m),
        "new": _person(news.player.name, news.player.user_id, m),
        "player": who(news.player, m),
        "to": f"<@{news.accepter_id}>",
    }
    if news.change == "kicked":
        gone_name = before.name if before.user_id == news.other_user_id else None
        gone = _person(gone_name, news.other_user_id, m)
        removed = m.gettext(
            "{by} removed {gone}: {gone} no longer plays {seat}.",
            by=by,
            gone=gone,
            seat=names["seat"],
        )
        if news.player.user_id is None:
            after = m.gettext(
                "The AI plays the seat until someone takes it (`/mk admin substitute`)."
            )
        else:
            after = m.gettext(
                "{seat} is back with {player}.", seat=names["seat"], player=names["new"]
            )
        return f"{removed} {after}"
    held = before.user_id is not None
    if news.change == "returned":
        held = held and before.user_id != news.player.user_id
    keys: list[tuple[str, str | None, bool | None]] = [
        (news.change, news.how, held),
        (news.change, news.how, None),
    ]
    keys += [(news.change, None, held), (news.change, None, None)]
    template = next(SEAT_NEWS[k] for k in keys if k in SEAT_NEWS)
    text = m.gettext(template, **names)
    if news.change == "substitute" and news.owner_id not in (None, news.player.user_id):
        text += " " + m.gettext(
            "The seat's own player, {owner}, can take it back at any time with"
            " `/mk admin what:return`.",
            owner=f"<@{news.owner_id}>",
        )
    return text


# --- reminders and the table's vote ------------------------------------------------


def reminder_text(due: DueReminder, messages: Messages = ENGLISH) -> str:
    return messages.gettext(
        "{user}, the Mountain King's game #{game} is waiting for you ({seat}) since {since}.",
        user=f"<@{due.user_id}>",
        game=due.game_id,
        seat=colour_name(due.label, messages),
        since=timestamp(due.since),
    )


VOTE_WORDS = {"skip": N_("skip this turn"), "autopilot": N_("autopilot from now on")}
VOTE_ENDINGS = {
    "skip": N_("Decided: the AI plays this turn, then the seat is the player's again."),
    "autopilot": N_("Decided: the autopilot plays the seat from now on."),
    "expired": N_("Nobody voted in time: nothing changes."),
}


def vote_text(tally: VoteTally, names: Mapping[int, str], messages: Messages = ENGLISH) -> str:
    """The vote about an absent seat, with the ballots so far by name (`names`: display
    names of voters who hold no seat) and, once over, how it ended."""
    m = messages
    vote = tally.vote
    seat = who(tally.player, m)
    lines = [
        m.gettext(
            "{seat} has missed several reminders. The table may vote: skip this turn (the AI"
            " plays it), or let the autopilot play the seat from now on. More than half of"
            " the other players ({voters}) decide; the game's creator or a server admin"
            " decides alone; a substitute can be seated with `/mk admin substitute`. The"
            " vote closes {deadline}.",
            seat=seat,
            voters=tally.voters,
            deadline=timestamp(vote.deadline),
        )
    ]
    for choice, words in VOTE_WORDS.items():
        voters = [
            b.name or names.get(b.voter_id) or f"<@{b.voter_id}>"
            for b in tally.ballots
            if b.choice == choice
        ]
        ballots = ", ".join(voters) if voters else m.gettext("no votes")
        lines.append(f"• {m.gettext(words)}: {ballots}")
    if vote.status == "void":
        lines.append(m.gettext("{seat} played: the vote is closed.", seat=seat))
    elif vote.status != "open":
        lines.append(m.gettext(VOTE_ENDINGS[vote.status]))
    return fit("\n".join(lines))


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
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        size += len(line) + 1
        if size > POST_LIMIT:
            break
        kept.append(line)
    return "\n".join(reversed(kept)) or messages.gettext("No actions yet.")


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
                " `/mk settings`).",
                language=language_name(language),
            )
        )
    return "\n".join(lines)[:POST_LIMIT]


# --- your games


def game_link(game: GameInfo, messages: Messages = ENGLISH) -> str:
    """The game's thread (or channel) as a mention, clickable in the server."""
    place = game.thread_id or game.channel_id
    return f"<#{place}>" if place else messages.gettext("(no channel)")


def game_url(game: GameInfo, messages: Messages = ENGLISH) -> str:
    """The game's thread as a link that also opens from a direct message."""
    place = game.thread_id or game.channel_id
    if place and game.guild_id:
        return f"https://discord.com/channels/{game.guild_id}/{place}"
    return game_link(game, messages)


def your_game_line(entry: YourGame, user_id: int, messages: Messages = ENGLISH) -> str:
    """One game of `/mk games`: its number, its thread, your colour, whose move it is
    and since when."""
    m = messages
    game, seat = entry.game, entry.seat
    head = f"#{game.id} {game_link(game, m)}"
    colour = colour_name(seat.label, m)
    if game.status == "open":
        joined = sum(1 for s in game.seats if s.user_id is not None or s.ai)
        return m.ngettext(
            "{game} · lobby: {joined} of {needed} players has joined",
            "{game} · lobby: {joined} of {needed} players have joined",
            joined,
            game=head,
            joined=joined,
            needed=game.seats_needed,
        )
    when = timestamp(game.updated_at)
    if game.status == "over":
        return m.gettext(
            "{game} · you were {colour} · over {when}", game=head, colour=colour, when=when
        )
    if game.status != "active":
        return m.gettext(
            "{game} · you were {colour} · abandoned {when}", game=head, colour=colour, when=when
        )
    line = m.gettext("{game} · you are {colour}", game=head, colour=colour)
    if seat.controller_id != user_id:
        line += " " + m.gettext("(a substitute plays your seat)")
    elif seat.autopilot:
        line += " " + m.gettext("(the autopilot plays your seat)")
    if entry.your_move:
        if entry.since:
            return m.gettext(
                "▶ **{line} · your move** since {since}", line=line, since=timestamp(entry.since)
            )
        return m.gettext("▶ **{line} · your move**", line=line)
    if not entry.awaited:
        return line
    waiting = listed_in([called_in(s.label, s.name, s.ai, m) for s in entry.awaited], m)
    if entry.since:
        return m.gettext(
            "{line} · waiting for {players} since {since}",
            line=line,
            players=waiting,
            since=timestamp(entry.since),
        )
    return m.gettext("{line} · waiting for {players}", line=line, players=waiting)


def your_games_text(
    games: Sequence[YourGame], user_id: int, *, here: bool = True, messages: Messages = ENGLISH
) -> str:
    """`/mk games`: your games, your move first, cut to one message ("and N more")."""
    m = messages
    if not games:
        if here:
            return m.gettext(
                "You have no games on this server. Open one with `/mk new` in a text channel,"
                " or press **Join** on a game's lobby message in its thread."
            )
        return m.gettext(
            "You have no games yet. Open one with `/mk new` in a text channel, or press"
            " **Join** on a game's lobby message in its thread."
        )
    moves = sum(1 for g in games if g.your_move)
    if not moves:
        count = m.gettext("none awaits you")
    else:
        count = m.ngettext(
            "{count} game awaits your move", "{count} games await your move", moves, count=moves
        )
    if here:
        header = m.gettext("**Your games here** · {count}:", count=count)
    else:
        header = m.gettext("**Your games** · {count}:", count=count)
    lines = [header]
    size = len(header)
    for n, entry in enumerate(games):
        line = your_game_line(entry, user_id, m)
        left = len(games) - n
        tail = m.ngettext("…and {count} more.", "…and {count} more.", left, count=left)
        if size + 1 + len(line) + (0 if left == 1 else 1 + len(tail)) > POST_LIMIT:
            lines.append(tail)
            break
        lines.append(line)
        size += 1 + len(line)
    return "\n".join(lines)


def digest_text(games: Sequence[YourGame], messages: Messages = ENGLISH) -> str:
    """The daily digest DM: "Your move in 3 games: #4 (link), #7 (link), #9 (link)."."""
    m = messages
    total = len(games)
    foot = "\n" + m.gettext(
        "`/mk games` lists all your games; `/mk notify digest:False` stops this message."
    )

    def said(parts: list[str], left: int = 0) -> str:
        links = ", ".join(parts)
        if left:
            links = m.ngettext(
                "{links} and {count} more",
                "{links} and {count} more",
                left,
                links=links,
                count=left,
            )
        return m.ngettext(
            "Your move in {count} game: {links}.",
            "Your move in {count} games: {links}.",
            total,
            count=total,
            links=links,
        )

    parts: list[str] = []
    for n, entry in enumerate(games):
        part = f"#{entry.game.id} ({game_url(entry.game, m)})"
        if len(said([*parts, part], total - n - 1)) + len(foot) > POST_LIMIT:
            return said(parts, total - n) + foot
        parts.append(part)
    return said(parts) + foot


def notify_text(
    *,
    dm: bool,
    quiet: tuple[int, int] | None,
    timezone: str,
    digest_at: datetime | None,
    messages: Messages = ENGLISH,
) -> str:
    """What `/mk notify` saved: reminders, quiet hours (minutes after local midnight),
    time zone and the daily digest."""
    m = messages

    def hhmm(minute: int) -> str:
        return f"{minute // 60:02d}:{minute % 60:02d}"

    reminders = m.gettext("by direct message") if dm else m.gettext("in the game's thread")
    hours = m.gettext("none")
    if quiet is not None and quiet[0] != quiet[1]:
        hours = f"{hhmm(quiet[0])}–{hhmm(quiet[1])}"
    digest = m.gettext("off")
    if digest_at is not None:
        digest = m.gettext("on, the next one {when}", when=timestamp(digest_at, "F"))
    return m.gettext(
        "Saved. Reminders come {reminders}; quiet hours: {hours} ({timezone}); daily digest"
        " of the games awaiting your move: {digest}.",
        reminders=reminders,
        hours=hours,
        timezone=timezone,
        digest=digest,
    )
