"""Every message the bot writes, as text: the lobby, the draft, turn posts, pings,
reminders, votes, the end of the game, status, scores and help.

A leaf: it reads plain values (the service's results, the rules' content) and imports no
other part of the bot, so anything may use it and a message reads the same wherever it
is built.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime

import discord

from bot.service.owed import (
    GameOver,
    Ping,
    Player,
    Reply,
    SeatNews,
    StartPost,
    TurnPost,
)
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
from rules.content import load_content
from rules.story import article, counted, listed

POST_LIMIT = 1900
NO_MENTIONS = discord.AllowedMentions.none()

NOT_STARTED = "The game has not started yet."
DRAFT_OVER = "The draft is over."
DRAFT_NOT_YET = (
    "The draft begins once every gate is placed: the players place their gates in turn"
    " order with `/mk gate`, and the bot calls everyone to `/mk draft` after the last one."
)
DRAFT_DONE = "You have kept your four starting trolls."


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


# --- the lobby -------------------------------------------------------------------------


def lobby_text(info: GameInfo) -> str:
    """The lobby: the game's options and the seats taken so far."""
    config = info.config
    lines = [
        f"**In the Hall of the Mountain King** · game #{info.id}",
        f"{config['players']} players"
        + (" in two teams" if config.get("teams") else "")
        + f" · board side: {config.get('side') or 'by player count'}"
        + f" · workshops: {config.get('workshops', 'random')}",
    ]
    seated = [s for s in info.seats if s.user_id is not None or s.ai]
    if info.status == "open":
        names = [s.called if s.ai else (s.name or f"<@{s.user_id}>") for s in seated]
        lines.append("Seats: " + (", ".join(names) or "none yet"))
        lines.append(
            f"{len(seated)} of {info.seats_needed} {plural(info.seats_needed, 'player')} have"
            " joined. The creator presses Start when everyone is in."
            if len(seated) != 1
            else f"1 of {info.seats_needed} players has joined. The creator presses Start when"
            " everyone is in."
        )
        return "\n".join(lines)
    lines.append("Turn order: " + ", ".join(f"{n}. {s.called}" for n, s in enumerate(seated, 1)))
    lines.extend(team_lines([(s.team, s.called) for s in seated]))
    lines.append(STATUS_WORDS.get(info.status, f"Status: {info.status}."))
    return "\n".join(lines)


STATUS_WORDS = {
    "active": "The game is under way in this thread.",
    "over": "The game is over.",
    "abandoned": "The game was abandoned.",
}


def plural(count: int, word: str, many: str | None = None) -> str:
    """The word for this many: "1 game", "3 games"."""
    return word if count == 1 else (many or word + "s")


def team_lines(seats: Sequence[tuple[int | None, str]]) -> list[str]:
    """ "Team 1: alice (Blue) & carol (Green)", one line per team (none without teams)."""
    teams: dict[int, list[str]] = {}
    for team, name in seats:
        if team is not None:
            teams.setdefault(team, []).append(name)
    return [f"Team {t + 1}: " + " & ".join(names) for t, names in sorted(teams.items())]


def game_opened_text(game_id: int, thread_mention: str) -> str:
    return f"Game #{game_id} is open in {thread_mention}."


def start_text(post: StartPost) -> str:
    """The game has begun: every seat with its person, colour, turn order and team, and
    what everyone does first: the gates in turn order, the first placer called by name,
    then the draft (a game of edition 1 drafted first)."""
    people = [p for p in post.players if p.user_id is not None and not p.ai]
    mentions = " ".join(f"<@{p.user_id}>" for p in people)
    lines = [f"{mentions} the game has begun!".strip(), "Turn order:"]
    lines += [f"{n}. {who(p)}" for n, p in enumerate(post.players, 1)]
    lines += team_lines([(p.team, who(p)) for p in post.players])
    first = next((p for p in post.players if p.seat in post.to_act), None)
    if post.phase == "gates":
        lines.append(
            "First each player places a gate, in turn order, with `/mk gate`. Then everyone"
            " keeps four starting trolls, privately and at the same time, with `/mk draft`."
        )
        if first is not None:
            lines.append(
                f"{who(first)} places the first gate."
                if first.ai
                else f"{who(first)}: {CALL_WORDS['gates']}."
            )
        return "\n".join(lines)
    lines.append(
        "Everyone now keeps four starting trolls, privately and at the same time: use"
        " `/mk draft`. When all have drafted, gates are placed in turn order with `/mk gate`"
        + (f", {who(first)} first." if first else ".")
    )
    return "\n".join(lines)


# --- the draft -------------------------------------------------------------------------


def draft_text(hand: Sequence[str]) -> str:
    """The two starting trolls in hand: what each produces and starts you with."""
    content = load_content()
    lines = ["Keep one of these two starting trolls (the other stays in your hand):"]
    for card_id in hand:
        card = content.trolls[card_id]
        produce = listed([r.value if c is None else f"{c.value}-cart" for r, c in card.produce])
        start = counted([r for r, _ in card.start])
        lines.append(
            f"• **{card_id}**, {article(card.clan.value.capitalize() + ' troll')}: makes {produce};"
            f" you start with {start or 'nothing'}"
        )
    return "\n".join(lines)


def draft_done_text(phase: str, *, gates_first: bool = True) -> str:
    """Said to a player who has kept their four starting trolls, by the game's phase
    now: the others still drafting, the gates (a game of edition 1 placed them after
    the draft: not `gates_first`), or the game under way."""
    if phase == "draft" and gates_first:
        return (
            f"{DRAFT_DONE} Wait for the others: when the last one keeps theirs, the bot"
            " reveals everyone's trolls and the first turn begins."
        )
    if phase == "draft":
        return f"{DRAFT_DONE} Wait for the others, then place gates with `/mk gate`."
    if phase == "gates":
        return f"{DRAFT_DONE} Gates are placed now, in turn order, with `/mk gate`."
    return f"{DRAFT_DONE} {DRAFT_OVER}"


def keep_label(card: str, slot: str) -> str:
    return f"{card} → {slot}"


# --- acting ----------------------------------------------------------------------------


def sentence(text: str) -> str:
    """The text with a capital first letter (the rest as it is: "Dig a K3 tunnel")."""
    return text[:1].upper() + text[1:]


def done_text(reply: Reply | ActResult, *, post_pending: bool = False) -> str:
    """The private answer to an accepted action, in the second person (`post_pending`:
    a public post it made owed could not be sent yet)."""
    told = reply.told if isinstance(reply, ActResult) else reply.story
    if reply.undone is not None:
        text = f"Undone: your last action (you {told}) is taken back."
    else:
        text = f"Done: you {told or reply.story}."
        if reply.turn_ended and not reply.game_over and reply.notation != "end":
            text += " Your turn is over."
    if post_pending:
        text += " The public post will follow as soon as Discord accepts it."
    return text


def dig_question(question: str) -> str:
    """The dig preview's question: "Dig a stone N5 tunnel on K3+K4 for 6 honor?"."""
    return sentence(question) + "?"


def dig_refused(reason: str) -> str:
    return f"That tunnel is not allowed: {reason}"


CANCELLED = "Cancelled: nothing was changed."


# --- the thread: the start, turn posts, pings, seats, votes, the end ---------------
# Built from stored payloads only: a message built twice reads the same, which is how
# the courier recognises a post a dead process already sent.


def who(player: Player) -> str:
    """A seat as the table reads it: "alice (Blue)" (see `called`)."""
    return called(player.label, player.name, player.ai)


def timestamp(at: datetime, style: str = "R") -> str:
    """A Discord timestamp: every reader sees it in their own time zone."""
    return f"<t:{int(at.timestamp())}:{style}>"


# what a called player does next, by the phase they act in
CALL_WORDS = {
    "gates": "place your gate with `/mk gate`",
    "draft": "keep your starting trolls with `/mk draft`",
    "play": "it's your turn: `/mk status` shows your options",
}


ENDED = "ended their turn"


def told(sentences: Sequence[str]) -> Sequence[str]:
    """A turn's sentences as a post tells them: "ended their turn" only when the
    player did nothing else (ending is how every turn ends)."""
    rest = [s for s in sentences if s != ENDED]
    return rest or sentences


def turn_post_text(post: TurnPost) -> str:
    """What a finished turn did, "**alice (Blue)** recruited ...; dug ....", with a line
    per player when several are told at once (the draft revealed), then whoever it
    calls to act next, in one line (after the last gate, everyone to the draft)."""
    lines = [
        f"**{who(t.player)}** " + "; ".join(told(t.sentences)) + "."
        for t in post.lines
        if t.sentences
    ]
    if len(lines) > 1:
        lines = ["Everyone has drafted. The starting trolls:", *(f"• {line}" for line in lines)]
    if post.images == "board" and post.call_phase == "play":
        lines.append("The mountain is ready and the first turn begins.")
    if post.call_phase == "draft":
        lines.append(
            "Every gate is placed. Now everyone keeps four starting trolls, privately and at"
            " the same time."
        )
    if post.calls:
        names = ", ".join(f"{who(p)} <@{p.user_id}>" for p in post.calls)
        words = CALL_WORDS.get(post.call_phase, "it's your move")
        line = f"{names}: {words}."
        if post.next_reminder is not None:
            line += f" Next reminder {timestamp(post.next_reminder)}."
        lines.append(line)
    return fit("\n".join(lines))


def ping_text(ping: Ping) -> str:
    return (
        f"{who(ping.player)} <@{ping.player.user_id}>: {CALL_WORDS['play']}. Next reminder"
        f" {timestamp(ping.next_reminder)}."
    )


def game_over_text(over: GameOver, record_name: str = "the record") -> str:
    """The winners by name (a team wins together), and what the attachments are."""
    winners = listed([who(p) for p in over.winners]) or "Nobody"
    verb = "win and are" if len(over.winners) > 1 else "wins and is"
    crowned = "crowned Mountain Kings" if len(over.winners) > 1 else "crowned the Mountain King"
    return (
        f"🏆 The game is over. **{winners}** {verb} {crowned}!\n"
        "Attached: the score sheet, the whole game as an animation of the board after"
        f" every turn, and `{record_name}`, the game's record (every action in order; the"
        " bot's owner can replay it to check the result)."
    )


def _person(name: str | None, user_id: int | None) -> str:
    """Someone by their display name, or by a mention (shown as their name, and no
    ping: seat news allows no mentions)."""
    if name:
        return name
    return f"<@{user_id}>" if user_id is not None else "nobody"


SEAT_TAKE_BACK = "`/mk admin what:return`"


def seat_text(news: SeatNews) -> str:
    """A change of who plays a seat, with the names of everyone concerned; or an offer
    of a seat, addressed to the one user who must accept it."""
    seat = news.player.label.capitalize()
    before = news.before or news.player
    by = _person(news.by_name, news.by_user_id) if news.by_user_id is not None else "The table"
    held = _person(before.name, before.user_id)
    if news.change == "offered":
        to = f"<@{news.accepter_id}>"
        if news.how == "agreed":
            return (
                f"{to}, {by} asks to take over {seat}, the seat you play. Press **Accept**"
                f" to hand it to {by}: only you can. Until then nothing changes."
            )
        now = f", played by {held} now" if before.user_id is not None else ", vacant now"
        return (
            f"{to}, {by} offers you the seat {seat}{now}. Press **Accept** to play it from"
            " now on: only you can. Until then nothing changes."
        )
    if news.change == "kicked":
        gone_name = before.name if before.user_id == news.other_user_id else None
        gone = _person(gone_name, news.other_user_id)
        after = (
            f"{seat} is back with {_person(news.player.name, news.player.user_id)}."
            if news.player.user_id is not None
            else "The AI plays the seat until someone takes it (`/mk admin substitute`)."
        )
        return f"{by} removed {gone}: {gone} no longer plays {seat}. {after}"
    new = _person(news.player.name, news.player.user_id)
    if news.change == "substitute":
        instead = f" in place of {held}" if before.user_id is not None else ""
        if news.how == "accepted":
            text = f"{new} accepted {by}'s offer and now plays {seat}{instead}."
        elif news.how == "agreed":
            text = f"{new} now plays {seat}{instead}: {held} agreed to hand it over."
        elif news.how == "admin":
            text = f"{new} now plays {seat}{instead}, assigned by {by} (server admin)."
        elif news.how == "absent" and before.user_id is not None:
            text = f"{new} now plays {seat}{instead}, whose seat was on autopilot."
        elif news.how == "absent":
            text = f"{new} now plays {seat}, which was vacant."
        else:
            text = f"{seat} is now played by {new}."
        if news.owner_id is not None and news.owner_id != news.player.user_id:
            text += (
                f" The seat's own player, <@{news.owner_id}>, can take it back at any time"
                f" with {SEAT_TAKE_BACK}."
            )
        return text
    if news.change == "returned":
        if news.how == "own":
            if before.user_id is not None and before.user_id != news.player.user_id:
                return f"{new} takes {seat} back from {held}."
            return f"{new} takes {seat} back from the autopilot."
        return f"{seat} is back with its own player, {new} (returned by {by})."
    if news.change == "autopilot-on":
        return f"The AI plays {who(news.player)} from now on (autopilot)."
    return f"{who(news.player)} plays again: the autopilot is off."


# --- reminders and the table's vote ------------------------------------------------


def reminder_text(due: DueReminder) -> str:
    return (
        f"<@{due.user_id}>, the Mountain King's game #{due.game_id} is waiting for you"
        f" ({due.label.capitalize()}) since {timestamp(due.since)}."
    )


VOTE_WORDS = {"skip": "skip this turn", "autopilot": "autopilot from now on"}
VOTE_ENDINGS = {
    "skip": "Decided: the AI plays this turn, then the seat is the player's again.",
    "autopilot": "Decided: the autopilot plays the seat from now on.",
    "expired": "Nobody voted in time: nothing changes.",
}


def vote_text(tally: VoteTally, names: Mapping[int, str]) -> str:
    """The vote about an absent seat, with the ballots so far by name (`names`: display
    names of voters who hold no seat) and, once over, how it ended."""
    vote = tally.vote
    seat = who(tally.player)
    lines = [
        f"{seat} has missed several reminders. The table may vote: skip this turn (the AI"
        " plays it), or let the autopilot play the seat from now on. More than half of the"
        f" other players ({tally.voters}) decide; the game's creator or a server admin"
        " decides alone; a substitute can be seated with `/mk admin substitute`. The vote"
        f" closes {timestamp(vote.deadline)}."
    ]
    for choice, words in VOTE_WORDS.items():
        voters = [
            b.name or names.get(b.voter_id) or f"<@{b.voter_id}>"
            for b in tally.ballots
            if b.choice == choice
        ]
        lines.append(f"• {words}: " + (", ".join(voters) if voters else "no votes"))
    if vote.status == "void":
        lines.append(f"{seat} played: the vote is closed.")
    elif vote.status != "open":
        lines.append(VOTE_ENDINGS[vote.status])
    return fit("\n".join(lines))


# --- looking ---------------------------------------------------------------------------


def log_text(entries: Sequence[LogEntry]) -> str:
    """The last actions as the stories stored with them, newest last, with each
    action's notation (what `/mk act` takes)."""
    lines = [
        f"{e.seq}. {e.who or e.label.capitalize()} {e.sentence} · `{e.notation}`" for e in entries
    ]
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        size += len(line) + 1
        if size > POST_LIMIT:
            break
        kept.append(line)
    return "\n".join(reversed(kept)) or "No actions yet."


def status_text(
    colour: str, storage: Mapping[str, int], kinds: Sequence[str], changes: Sequence[LogEntry]
) -> str:
    """A player's private status: storage, what they can do now, what changed."""
    owned = ", ".join(f"{n} {r}" for r, n in storage.items() if n) or "nothing"
    changed = "\n".join(f"• {e.who or e.label.capitalize()} {e.sentence}" for e in changes[-15:])
    changed = changed or "• nothing yet"
    can = ", ".join("`/mk draft`" if k == "keep" else f"`/mk {k}`" for k in kinds)
    lines = [
        f"You are **{colour}**. Storage: {owned}.",
        "You can now: " + (can or "nothing — it is not your move."),
        f"Since your last turn:\n{changed}",
    ]
    return "\n".join(lines)[:POST_LIMIT]


# --- your games


def game_link(game: GameInfo) -> str:
    """The game's thread (or channel) as a mention, clickable in the server."""
    place = game.thread_id or game.channel_id
    return f"<#{place}>" if place else "(no channel)"


def game_url(game: GameInfo) -> str:
    """The game's thread as a link that also opens from a direct message."""
    place = game.thread_id or game.channel_id
    if place and game.guild_id:
        return f"https://discord.com/channels/{game.guild_id}/{place}"
    return game_link(game)


def _names(seats: Sequence[SeatInfo]) -> str:
    called_ = [s.called for s in seats]
    if len(called_) <= 1:
        return "".join(called_)
    return ", ".join(called_[:-1]) + " and " + called_[-1]


def _colour(seat: SeatInfo) -> str:
    return seat.label[:1].upper() + seat.label[1:]


def your_game_line(entry: YourGame, user_id: int) -> str:
    """One game of `/mk games`: its number, its thread, your colour, whose move it is
    and since when."""
    game, seat = entry.game, entry.seat
    head = f"#{game.id} {game_link(game)}"
    if game.status == "open":
        joined = sum(1 for s in game.seats if s.user_id is not None or s.ai)
        verb = "has" if joined == 1 else "have"
        return f"{head} · lobby: {joined} of {game.seats_needed} players {verb} joined"
    if game.status != "active":
        ended = "over" if game.status == "over" else "abandoned"
        return f"{head} · you were {_colour(seat)} · {ended} {timestamp(game.updated_at)}"
    line = f"{head} · you are {_colour(seat)}"
    if seat.controller_id != user_id:
        line += " (a substitute plays your seat)"
    elif seat.autopilot:
        line += " (the autopilot plays your seat)"
    since = f" since {timestamp(entry.since)}" if entry.since else ""
    if entry.your_move:
        return f"▶ **{line} · your move**{since}"
    if not entry.awaited:
        return line
    return f"{line} · waiting for {_names(entry.awaited)}{since}"


def your_games_text(games: Sequence[YourGame], user_id: int, *, here: bool = True) -> str:
    """`/mk games`: your games, your move first, cut to one message ("and N more")."""
    where = "on this server" if here else "yet"
    if not games:
        return (
            f"You have no games {where}. Open one with `/mk new` in a text channel, or press"
            " **Join** on a game's lobby message in its thread."
        )
    moves = sum(1 for g in games if g.your_move)
    count = f"{moves} {'game awaits' if moves == 1 else 'games await'} your move"
    header = f"**Your games{' here' if here else ''}** · {count if moves else 'none awaits you'}:"
    lines = [header]
    size = len(header)
    for n, entry in enumerate(games):
        line = your_game_line(entry, user_id)
        left = len(games) - n
        tail = f"…and {left} more."
        if size + 1 + len(line) + (0 if left == 1 else 1 + len(tail)) > POST_LIMIT:
            lines.append(tail)
            break
        lines.append(line)
        size += 1 + len(line)
    return "\n".join(lines)


def digest_text(games: Sequence[YourGame]) -> str:
    """The daily digest DM: "Your move in 3 games: #4 (link), #7 (link), #9 (link)."."""
    count = "1 game" if len(games) == 1 else f"{len(games)} games"
    head = f"Your move in {count}: "
    foot = "\n`/mk games` lists all your games; `/mk notify digest:False` stops this message."
    parts: list[str] = []
    size = len(head) + len(foot) + 1
    for n, entry in enumerate(games):
        part = f"#{entry.game.id} ({game_url(entry.game)})"
        tail = f" and {len(games) - n} more"
        if size + len(part) + 2 + len(tail) > POST_LIMIT:
            return head + ", ".join(parts) + tail + "." + foot
        parts.append(part)
        size += len(part) + 2
    return head + ", ".join(parts) + "." + foot


def notify_text(
    *,
    dm: bool,
    quiet: tuple[int, int] | None,
    timezone: str,
    digest_at: datetime | None,
) -> str:
    """What `/mk notify` saved: reminders, quiet hours (minutes after local midnight),
    time zone and the daily digest."""

    def hhmm(minute: int) -> str:
        return f"{minute // 60:02d}:{minute % 60:02d}"

    reminders = "by direct message" if dm else "in the game's thread"
    hours = "none"
    if quiet is not None and quiet[0] != quiet[1]:
        hours = f"{hhmm(quiet[0])}–{hhmm(quiet[1])}"
    digest = "off"
    if digest_at is not None:
        digest = f"on, the next one {timestamp(digest_at, 'F')}"
    return (
        f"Saved. Reminders come {reminders}; quiet hours: {hours} ({timezone});"
        f" daily digest of the games awaiting your move: {digest}."
    )
