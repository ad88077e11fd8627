"""The table's messages, as text: the lobby, the start, calls and pings, an action's
private answer, seats, reminders, votes, your games and digests. A game's own messages
(the Mountain King's draft, turn posts, end, log and status) are its face's
(`bot.mountain_king.texts`).

A leaf: it reads plain values (the service's results, the rules' content) and imports no
other part of the bot but the message catalogue, so anything may use it and a message
reads the same wherever it is built.

Each text is in the message catalogue (`bot.i18n`): a function takes the `Messages` of
the language to write in (English by default). What goes to the game's thread is in
the game's language; a private answer in the reader's (`interaction.locale`); a direct
message in the language the player last used. What the rules tell of an action (its
story) is told by the game's face, lists and colours by `bot.words`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Protocol

import discord

from bot.i18n.catalogue import ENGLISH, N_, Messages
from bot.service.owed import (
    Player,
    Reply,
    SeatNews,
    StartPost,
)
from bot.service.protocol import StoryData, Voice
from bot.service.results import (
    ActResult,
    DueReminder,
    GameInfo,
    SeatInfo,
    YourGame,
    called,
)
from bot.service.votes import VoteTally
from bot.words import colour_name, listed_in

POST_LIMIT = 1900
NO_MENTIONS = discord.AllowedMentions.none()

NOT_STARTED = N_("The game has not started yet.")
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


def newest_lines(lines: Sequence[str], limit: int = POST_LIMIT) -> str:
    """The last lines that fit in one message together, in order (a log, newest last)."""
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        size += len(line) + 1
        if size > limit:
            break
        kept.append(line)
    return "\n".join(reversed(kept))


def called_in(label: str, name: str | None, ai: bool, messages: Messages = ENGLISH) -> str:
    """A seat as players read it (`results.called`) in a language: "alice (Blue)"."""
    return called(label, name, ai, messages, colour_name(label, messages))


def command(name: str, messages: Messages = ENGLISH) -> str:
    """A subcommand as the reader's client shows it: "/mk gate", "/mk wrota"."""
    return "/mk " + (messages.lookup(name, "command name") or name)


def language_name(language: str) -> str:
    return LANGUAGE_NAMES.get(language, language)


# --- the lobby -------------------------------------------------------------------------


def lobby_text(
    info: GameInfo, messages: Messages = ENGLISH, title: str = "In the Hall of the Mountain King"
) -> str:
    """The lobby of a game of `title` (a catalogue message): the game's options and the
    seats taken so far (in the game's language)."""
    m = messages
    lines = [
        m.gettext("**{title}** · game #{game}", title=m.gettext(title), game=info.id),
        options_text(info, m),
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


def options_text(info: GameInfo, messages: Messages = ENGLISH) -> str:
    """The game's options in a line: players, board side, workshops, language (a game
    without a board side or workshops: players and language)."""
    m = messages
    config = info.config
    count = int(config["players"])
    players = m.ngettext("{count} player", "{count} players", count, count=count)
    if config.get("teams"):
        players = m.gettext("{players} in two teams", players=players)
    if "side" not in config and "workshops" not in config:
        return m.gettext(
            "{players} · language: {language}",
            players=players,
            language=language_name(info.language),
        )
    side = config.get("side")
    workshops = str(config.get("workshops", "random"))
    return m.gettext(
        "{players} · board side: {side} · workshops: {workshops} · language: {language}",
        players=players,
        side=m.pgettext("choice", side) if side else m.gettext("by player count"),
        workshops=m.pgettext("choice", workshops),
        language=language_name(info.language),
    )


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
    """The game has begun: every seat with its person, colour, turn order and team (the
    table's start post; a game's face adds what everyone does first: `start_lines`)."""
    return "\n".join(start_lines(post, messages))


def start_lines(post: StartPost, messages: Messages = ENGLISH) -> list[str]:
    """The start post's lines every game shares: the people mentioned, the turn order
    and the teams."""
    m = messages
    people = [p for p in post.players if p.user_id is not None and not p.ai]
    mentions = " ".join(f"<@{p.user_id}>" for p in people)
    lines = [m.gettext("{mentions} the game has begun!", mentions=mentions).strip()]
    lines.append(m.gettext("Turn order:"))
    lines += [f"{n}. {who(p, m)}" for n, p in enumerate(post.players, 1)]
    lines += team_lines([(p.team, who(p, m)) for p in post.players], m)
    return lines


# --- acting ----------------------------------------------------------------------------


class Teller(Protocol):
    """How a game tells what an action did (its face's stories), in a voice ("you",
    "they") and a language."""

    def __call__(self, story: StoryData, voice: Voice, messages: Messages, /) -> str: ...


def done_text(
    reply: Reply | ActResult,
    tell: Teller,
    *,
    post_pending: bool = False,
    messages: Messages = ENGLISH,
) -> str:
    """The private answer to an accepted action, in the second person (`post_pending`:
    a public post it made owed could not be sent yet), in the reader's language; what
    the action did is told by the game (`tell`)."""
    m = messages
    did = tell(reply.told if isinstance(reply, ActResult) else reply.story, "you", m)
    if not did:
        did = tell({"kind": "played", "notation": reply.notation}, "you", m)
    if reply.undone is not None:
        text = m.gettext("Undone: your last action (you {did}) is taken back.", did=did)
    else:
        text = m.gettext("Done: you {did}.", did=did)
        ended = reply.turn_ended and not reply.decision  # a flight's answer ends no turn
        if ended and not reply.game_over and reply.notation != "end":
            text += " " + m.gettext("Your turn is over.")
    if post_pending:
        text += " " + m.gettext("The public post will follow as soon as Discord accepts it.")
    return text


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


def calling(player: Player, messages: Messages = ENGLISH) -> str:
    """A called player, named once: their mention (Discord shows their name) with their
    colour, "<@1> (Blue)"."""
    return called_in(player.label, f"<@{player.user_id}>", False, messages)


def deadline_text(deadline: datetime | None, messages: Messages = ENGLISH) -> str:
    """The turn clock's deadline after a call, " Turn clock: runs out in 5 hours." (empty
    without a clock)."""
    if deadline is None:
        return ""
    return " " + messages.gettext("Turn clock: runs out {when}.", when=timestamp(deadline))


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


def reminder_text(
    due: DueReminder, messages: Messages = ENGLISH, title: str = "Mountain King"
) -> str:
    """A reminder of a game of `title` (a catalogue message: the game's short name)."""
    return messages.gettext(
        "{user}, game #{game} of {title} is waiting for you ({seat}) since {since}.",
        title=messages.gettext(title),
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


# --- hosting -------------------------------------------------------------------------

# how Discord's client names each permission the bot asks for (TRANSLATORS: as Discord's
# client in your language names it)
PERMISSION_NAMES: Mapping[str, str] = {
    "view_channel": N_("View Channel"),
    "read_messages": N_("View Channel"),  # discord.py's first name for the same flag
    "send_messages": N_("Send Messages"),
    "send_messages_in_threads": N_("Send Messages in Threads"),
    "create_public_threads": N_("Create Public Threads"),
    "attach_files": N_("Attach Files"),
    "read_message_history": N_("Read Message History"),
    "manage_threads": N_("Manage Threads"),
    "embed_links": N_("Embed Links"),
}


def permission_name(flag: str, messages: Messages = ENGLISH) -> str:
    """A permission as Discord's client names it, in the reader's language."""
    name = PERMISSION_NAMES.get(flag)
    if name is None:
        return flag.replace("_", " ").title()
    return messages.gettext(name)


def missing_permissions_text(
    channel: str, flags: Sequence[str], messages: Messages = ENGLISH
) -> str:
    """`/mk new` refused: the bot lacks these permissions in this channel."""
    names = listed_in([f"**{permission_name(f, messages)}**" for f in flags], messages)
    return messages.ngettext(
        "I can't open a game in {channel}: I lack {names} there. Ask a server admin to give"
        " the bot this permission in this channel (or its category), then try again."
        " Nothing was created.",
        "I can't open a game in {channel}: I lack {names} there. Ask a server admin to give"
        " the bot these permissions in this channel (or its category), then try again."
        " Nothing was created.",
        len(flags),
        channel=channel,
        names=names,
    )
