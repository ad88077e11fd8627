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

from bot.ai_seats import is_ai
from bot.service.results import DueReminder, GameInfo, LogEntry
from rules.content import load_content

POST_LIMIT = 1900
NO_MENTIONS = discord.AllowedMentions.none()
VOTES_HEAD = "\nVotes: "
NO_VOTES = "none yet"

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
    seated = [s for s in info.seats if s.user_id is not None]
    names = [
        f"<@{s.user_id}>" if not is_ai(s.user_id) else f"AI player {n + 1}"
        for n, s in enumerate(seated)
    ]
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


def start_text(user_ids: Sequence[int]) -> str:
    mentions = " ".join(f"<@{u}>" for u in user_ids)
    return (
        f"{mentions} the game has begun! Everyone chooses starting trolls at once: use"
        " `/mk draft`. Then gates are placed in turn order with `/mk gate`."
    )


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


def done_text(sentence: str, *, turn_over: bool) -> str:
    """The private answer to an accepted action."""
    return f"Done: you {sentence}." + (" Your turn is over." if turn_over else "")


def dig_question(notation: str, sentence: str) -> str:
    return f"Dig `{notation}`: {sentence}?"


def dig_refused(reason: str) -> str:
    return f"That tunnel is not allowed: {reason}"


def played_text(notation: str) -> str:
    """The answer to a confirmed preview."""
    return f"Done: `{notation}`."


CANCELLED = "Cancelled: nothing was changed."


def undone_text(notation: str) -> str:
    return f"Undone: `{notation}`."


# --- the thread: turn posts, pings, the end ----------------------------------------


def turn_post_text(name: str, sentences: Sequence[str]) -> str:
    """What a finished turn did: "**Blue** recruited ...; dug ...."."""
    return fit(f"**{name}** " + "; ".join(sentences) + ".")


def ping_text(user_id: int | None, label: str, next_reminder: datetime) -> str:
    deadline = discord.utils.format_dt(next_reminder, "R")
    return (
        f"<@{user_id}>, it's your turn ({label}). Next reminder {deadline}."
        " Use `/mk status` to see your options."
    )


def game_over_text(winners: Sequence[str]) -> str:
    return (
        f"🏆 The game is over. **{' & '.join(winners)}** wins and is crowned the Mountain"
        " King!\nThe record is attached: replay it with `python -m rules replay game.json`."
    )


# --- reminders and the table's vote ------------------------------------------------


def reminder_text(due: DueReminder) -> str:
    when = discord.utils.format_dt(due.since, "R")
    return (
        f"<@{due.user_id}>, the Mountain King's game #{due.game_id} is waiting for you"
        f" ({due.label}) since {when}."
    )


def vote_text(label: str) -> str:
    """The call to vote about an absent player; the votes so far end the message."""
    return (
        f"{label.capitalize()} has missed several reminders. The table may vote: skip"
        " this turn (the autopilot plays it), or let the autopilot play the seat from now"
        " on. The game's creator or a server admin decides alone; a substitute can be"
        f" seated with `/mk admin substitute`.{VOTES_HEAD}{NO_VOTES}"
    )


def read_votes(message: str) -> tuple[str, dict[str, str]]:
    """A vote message split into its text and the votes so far (voter id -> choice)."""
    head, _, line = message.rpartition(VOTES_HEAD)
    if line == NO_VOTES:
        return head, {}
    return head, dict(vote.split("=") for vote in line.split())


def votes_text(head: str, votes: Mapping[str, str]) -> str:
    return head + VOTES_HEAD + " ".join(f"{u}={k}" for u, k in sorted(votes.items()))


def decided_text(head: str, outcome: str) -> str:
    return f"{head}\nDecided: {outcome}."


# --- looking ---------------------------------------------------------------------------


def scores_text(players: Iterable[tuple[str, int]]) -> str:
    """Honor on the track so far, one line per (colour, honor)."""
    return "\n".join(
        f"{colour.capitalize()}: {honor} honor on the track" for colour, honor in players
    )


def log_text(entries: Sequence[LogEntry]) -> str:
    """The last actions in notation, as a code block."""
    text = "\n".join(f"{e.seq}. {e}" for e in entries[-40:]) or "No actions yet."
    return f"```\n{text[-1800:]}\n```"


def status_text(
    colour: str, storage: Mapping[str, int], kinds: Sequence[str], changes: Sequence[LogEntry]
) -> str:
    """A player's private status: storage, what they can do now, what changed."""
    owned = ", ".join(f"{n} {r}" for r, n in storage.items() if n) or "nothing"
    changed = "\n".join(f"• {e}" for e in changes[-15:]) or "• nothing yet"
    can = ", ".join("`/mk draft`" if k == "keep" else f"`/mk {k}`" for k in kinds)
    lines = [
        f"You are **{colour}**. Storage: {owned}.",
        "You can now: " + (can or "nothing — it is not your move."),
        f"Since your last turn:\n{changed}",
    ]
    return "\n".join(lines)[:POST_LIMIT]
