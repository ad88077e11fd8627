"""Texts of the messages the table is owed, built from their stored payloads only (so a
message built twice reads the same: the courier relies on that to recognise a post a
dead process already sent)."""

from __future__ import annotations

from datetime import datetime

from bot.service.owed import (
    GameOver,
    Ping,
    Player,
    Reply,
    SeatNews,
    StartPost,
    TurnPost,
)
from bot.service.votes import VoteTally

POST_LIMIT = 1900


def who(player: Player) -> str:
    """A seat as the table reads it: its colour, with the player's name when known."""
    colour = player.label.capitalize()
    if player.ai:
        return f"{colour} (AI)"
    return f"{colour} ({player.name})" if player.name else colour


def timestamp(at: datetime, style: str = "R") -> str:
    """A Discord timestamp: every reader sees it in their own time zone."""
    return f"<t:{int(at.timestamp())}:{style}>"


def start_text(post: StartPost) -> str:
    people = [p for p in post.players if p.user_id is not None and not p.ai]
    mentions = " ".join(f"<@{p.user_id}>" for p in people)
    seats = ", ".join(who(p) for p in post.players)
    return (
        f"{mentions} the game has begun! Seats: {seats}. Everyone chooses starting trolls"
        " at once: use `/mk draft`. Then gates are placed in turn order with `/mk gate`."
    ).strip()


def turn_text(post: TurnPost) -> str:
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


def reply_text(reply: Reply, *, post_pending: bool = False) -> str:
    """The private answer to the player who acted."""
    if reply.undone is not None:
        text = f"Undone: `{reply.undone}`."
    else:
        text = f"Done: you {reply.story}."
        if reply.turn_ended and not reply.game_over:
            text += " Your turn is over."
    if post_pending:
        text += " The public post will follow as soon as Discord accepts it."
    return text


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


VOTE_WORDS = {"skip": "skip this turn", "autopilot": "autopilot"}


def vote_text(tally: VoteTally) -> str:
    vote = tally.vote
    seat = who(tally.player)
    head = (
        f"{seat} has missed several reminders. The table may vote: skip this turn (the AI"
        " plays it), or let the autopilot play the seat from now on. More than half of the"
        f" other players ({tally.voters}) decide; the game's creator or a server admin"
        f" decides alone. The vote closes {timestamp(vote.deadline)}."
    )
    lines = [head]
    for choice, words in VOTE_WORDS.items():
        names = [b.name or f"<@{b.voter_id}>" for b in tally.ballots if b.choice == choice]
        lines.append(f"• {words}: " + (", ".join(names) if names else "no votes"))
    if vote.status == "open":
        return "\n".join(lines)
    endings = {
        "skip": "Decided: the AI plays this turn.",
        "autopilot": "Decided: the autopilot plays the seat from now on.",
        "expired": "Nobody voted in time: nothing changes.",
        "void": f"{seat} played: the vote is closed.",
    }
    return "\n".join([*lines, endings[vote.status]])


def fit(text: str, limit: int = POST_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
