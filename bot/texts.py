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
from bot.service.results import ActResult, DueReminder, GameInfo, LogEntry
from bot.service.votes import VoteTally
from rules.content import load_content

POST_LIMIT = 1900
NO_MENTIONS = discord.AllowedMentions.none()

NOT_STARTED = "The game has not started yet."
DRAFT_OVER = "The draft is over."
DRAFT_DONE = (
    "You have kept your four starting trolls. Wait for the others, then place gates"
    " with `/mk gate`."
)

HELP = {
    "1": "**Step 1 — spells and workshops.** Cast one spell (`/mk cast`, paying a rune) and/or"
    " use one workshop your network touches, once per open entrance (`/mk use`), in either"
    " order.",
    "2": "**Step 2 — recruit or dig** (required if you can). Recruit a horde troll"
    " (`/mk recruit`: bribes 2 coins for level 2, 5 for level 3) and run its cascade, or dig a"
    " tunnel (`/mk dig`: its size in one mineral, 1 hammer per rubble space) next to your"
    " network and never along an opponent's.",
    "3": "**Step 3 — great hall.** Lay one hall exactly over your own tunnels (`/mk hall`).",
    "4": "**Step 4 — statues.** Each cart moves one statue in your network within its tunnel or"
    " into an adjacent one (`/mk move`); clan carts only for their clan.",
    "trade": "**Trade** any 4 resources for 1 at any point of your turn (`/mk trade`).",
    "end": "**End** your turn with `/mk end`; `/mk undo` takes back your last action this turn"
    " (not past a revealed card).",
}
# the names `/mk help` offers for each step, in order
HELP_STEPS = (
    ("1", "1 spells & workshops"),
    ("2", "2 recruit or dig"),
    ("3", "3 great hall"),
    ("4", "4 move statues"),
    ("trade", "trading"),
    ("end", "ending & undo"),
)


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
    names = [f"AI player {n + 1}" if s.ai else f"<@{s.user_id}>" for n, s in enumerate(seated)]
    lines.append("Seats: " + (", ".join(names) or "none yet"))
    if info.status == "open":
        lines.append(
            f"{len(seated)}/{info.seats_needed} joined. The creator presses Start when all are in."
        )
    else:
        lines.append(f"Status: {info.status}.")
    return "\n".join(lines)


def game_opened_text(game_id: int, thread_mention: str) -> str:
    return f"Game #{game_id} is open in {thread_mention}."


def start_text(post: StartPost) -> str:
    people = [p for p in post.players if p.user_id is not None and not p.ai]
    mentions = " ".join(f"<@{p.user_id}>" for p in people)
    seats = ", ".join(who(p) for p in post.players)
    return (
        f"{mentions} the game has begun! Seats: {seats}. Everyone chooses starting trolls"
        " at once: use `/mk draft`. Then gates are placed in turn order with `/mk gate`."
    ).strip()


# --- the draft -------------------------------------------------------------------------


def draft_text(hand: Sequence[str]) -> str:
    """The two starting trolls in hand: what each produces and starts you with."""
    content = load_content()
    lines = ["Keep one of these two starting trolls (the other stays in your hand):"]
    for card_id in hand:
        card = content.trolls[card_id]
        produce = ", ".join(r.value if c is None else f"{c.value}-cart" for r, c in card.produce)
        start = ", ".join(r.value for r, _ in card.start)
        lines.append(
            f"• **{card_id}** {card.clan.value}: produces {produce}; starts you with {start}"
        )
    return "\n".join(lines)


def keep_label(card: str, slot: str) -> str:
    return f"{card} → {slot}"


# --- acting ----------------------------------------------------------------------------


def done_text(reply: Reply | ActResult, *, post_pending: bool = False) -> str:
    """The private answer to an accepted action (`post_pending`: a public post it made
    owed could not be sent yet)."""
    if reply.undone is not None:
        text = f"Undone: `{reply.undone}`."
    else:
        text = f"Done: you {reply.story}."
        if reply.turn_ended and not reply.game_over:
            text += " Your turn is over."
    if post_pending:
        text += " The public post will follow as soon as Discord accepts it."
    return text


def dig_question(notation: str, sentence: str) -> str:
    return f"Dig `{notation}`: {sentence}?"


def dig_refused(reason: str) -> str:
    return f"That tunnel is not allowed: {reason}"


CANCELLED = "Cancelled: nothing was changed."


# --- the thread: the start, turn posts, pings, seats, votes, the end ---------------
# Built from stored payloads only: a message built twice reads the same, which is how
# the courier recognises a post a dead process already sent.


def who(player: Player) -> str:
    """A seat as the table reads it: its colour, with the player's name when known."""
    colour = player.label.capitalize()
    if player.ai:
        return f"{colour} (AI)"
    return f"{colour} ({player.name})" if player.name else colour


def timestamp(at: datetime, style: str = "R") -> str:
    """A Discord timestamp: every reader sees it in their own time zone."""
    return f"<t:{int(at.timestamp())}:{style}>"


def turn_post_text(post: TurnPost) -> str:
    """What a finished turn did: "**Blue (alice)** recruited ...; dug ...."."""
    return fit(f"**{who(post.player)}** " + "; ".join(post.sentences) + ".")


def ping_text(ping: Ping) -> str:
    return (
        f"<@{ping.player.user_id}>, it's your turn ({ping.player.label}). Next reminder"
        f" {timestamp(ping.next_reminder)}. Use `/mk status` to see your options."
    )


def game_over_text(over: GameOver) -> str:
    winners = " & ".join(who(p) for p in over.winners)
    verb = "win and are" if len(over.winners) > 1 else "wins and is"
    return (
        f"🏆 The game is over. **{winners}** {verb} crowned the Mountain King!\n"
        "The record is attached: replay it with `python -m rules replay game.json`."
    )


def seat_text(news: SeatNews) -> str:
    seat = news.player.label.capitalize()
    if news.change == "kicked":
        return (
            f"<@{news.other_user_id}> no longer plays {seat}. The AI plays the seat until"
            " someone takes it (`/mk admin substitute`)."
        )
    if news.change == "substitute":
        return f"{seat} is now played by <@{news.other_user_id}>."
    if news.change == "returned":
        return f"{seat} is back with <@{news.player.user_id}>."
    if news.change == "autopilot-on":
        return f"The AI plays {who(news.player)} from now on (autopilot)."
    return f"{who(news.player)} plays again: the autopilot is off."


# --- reminders and the table's vote ------------------------------------------------


def reminder_text(due: DueReminder) -> str:
    return (
        f"<@{due.user_id}>, the Mountain King's game #{due.game_id} is waiting for you"
        f" ({due.label}) since {timestamp(due.since)}."
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


def scores_text(players: Iterable[tuple[str, int]]) -> str:
    """Honor on the track so far, one line per (colour, honor)."""
    return "\n".join(
        f"{colour.capitalize()}: {honor} honor on the track" for colour, honor in players
    )


def log_text(entries: Sequence[LogEntry]) -> str:
    """The last actions as the stories stored with them, newest last, with each
    action's notation (what `/mk act` takes)."""
    lines = [f"{e.seq}. {e.label.capitalize()} {e.sentence} · `{e.notation}`" for e in entries]
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
    changed = "\n".join(f"• {e.label.capitalize()} {e.sentence}" for e in changes[-15:])
    changed = changed or "• nothing yet"
    can = ", ".join("`/mk draft`" if k == "keep" else f"`/mk {k}`" for k in kinds)
    lines = [
        f"You are **{colour}**. Storage: {owned}.",
        "You can now: " + (can or "nothing — it is not your move."),
        f"Since your last turn:\n{changed}",
    ]
    return "\n".join(lines)[:POST_LIMIT]
