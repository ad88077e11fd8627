"""The table's words about time: a player away and back, the turn clock's reminder and
its zero, and the answers to `/mk away`. Plain values in, text out (like bot.texts)."""

from __future__ import annotations

from datetime import datetime

from bot.i18n.catalogue import ENGLISH, Messages
from bot.service.owed import SeatNews
from bot.service.results import GameInfo
from bot.texts import timestamp, who
from bot.words import colour_name


def time_news_text(news: SeatNews, messages: Messages = ENGLISH) -> str:
    """A seat's news of the table's time: away until a day, back, the clock's one
    reminder (it mentions the player), its zero."""
    m = messages
    player = who(news.player, m)
    when = "" if news.until is None else timestamp(news.until, "f")
    if news.change == "away":
        return m.gettext("{player} is away until {when}.", player=player, when=when)
    if news.change == "back":
        return m.gettext("{player} is back.", player=player)
    if news.change == "clock":
        mention = f"<@{news.player.user_id}>" if news.player.user_id is not None else player
        return m.gettext(
            "{player}: a quarter of your turn clock is left; it runs out {when}.",
            player=mention,
            when="" if news.until is None else timestamp(news.until),
        )
    if news.change == "late":
        return m.gettext(
            "{player} did not answer by {when}: the default answer is given for them.",
            player=player,
            when=when,
        )
    return m.gettext("{player}'s turn clock ran out.", player=player)


def policy_text(policy: str, messages: Messages = ENGLISH) -> str:
    """The answer to `/mk admin what:settings away:`."""
    if policy == "ai":
        return messages.gettext("While a player is away, the AI now plays their turns.")
    return messages.gettext("While a player is away, the game now waits for them.")


def clock_dm_text(
    news: SeatNews, game_id: int, messages: Messages = ENGLISH, title: str = "Mountain King"
) -> str:
    """The turn clock's one reminder by direct message, to a player who wants their
    reminders so (a game of `title`, a catalogue message: the game's short name)."""
    return messages.gettext(
        "A quarter of your turn clock in game #{game} of {title} is left ({seat}); it runs"
        " out {when}.",
        title=messages.gettext(title),
        game=game_id,
        seat=colour_name(news.player.label, messages),
        when="" if news.until is None else timestamp(news.until),
    )


def time_options_text(info: GameInfo, messages: Messages = ENGLISH) -> str:
    """A game's time options in a line (the lobbies of `/mk games open:True`): its turn
    clock and what its zero does, if it has one, and what the game does while a player
    is away."""
    m = messages
    away = (
        m.gettext("while a player is away: the AI plays")
        if info.away_policy == "ai"
        else m.gettext("while a player is away: the game waits")
    )
    if info.clock_seconds is None:
        return away
    hours = info.clock_seconds // 3600
    if info.clock_policy == "ai":
        clock = m.ngettext(
            "turn clock: {hours} hour, then the AI plays the turn",
            "turn clock: {hours} hours, then the AI plays the turn",
            hours,
            hours=hours,
        )
    else:
        clock = m.ngettext(
            "turn clock: {hours} hour, then the table votes",
            "turn clock: {hours} hours, then the table votes",
            hours,
            hours=hours,
        )
    return f"{clock} · {away}"


def away_text(until: datetime | None, messages: Messages = ENGLISH) -> str:
    """The answer to `/mk away`: away until when (None: not away)."""
    m = messages
    if until is None:
        return m.gettext(
            "You are not away. `/mk away days:` or `/mk away until:` (a day, YYYY-MM-DD)"
            " tells your games you are away."
        )
    return m.gettext(
        "You are away until {when}: no reminders, votes or digests until then, and each of"
        " your games was told. Acting in a game, or `/mk away off:True`, brings you back.",
        when=timestamp(until, "f"),
    )


def back_text(games: int, messages: Messages = ENGLISH) -> str:
    """The answer to `/mk away off:True`."""
    if games == 0:
        return messages.gettext("Welcome back.")
    return messages.ngettext(
        "Welcome back: your game was told.",
        "Welcome back: your {count} games were told.",
        games,
        count=games,
    )
