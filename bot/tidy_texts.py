"""The table's words about tidying a server: an idle game's warning and its end, a
lobby closed never started, the record's description, the answer to `/mk admin
what:settings idle_days:`, and the "you're next" heads-up with its `/mk notify` line.
Plain values in, text out (like bot.texts)."""

from __future__ import annotations

from bot.i18n.catalogue import ENGLISH, Messages
from bot.service.heads_up import HeadsUpDM
from bot.service.owed import SeatNews
from bot.texts import game_url, timestamp, who


def tidy_news_text(news: SeatNews, messages: Messages = ENGLISH) -> str:
    """The post of an idle game warned, an idle game ended, a stale lobby closed."""
    m = messages
    if news.change == "idle":
        return m.ngettext(
            "Nobody has moved in this game for {days} day. If nobody moves by {when}, it"
            " ends as abandoned.",
            "Nobody has moved in this game for {days} days. If nobody moves by {when}, it"
            " ends as abandoned.",
            news.days,
            days=news.days,
            when="" if news.until is None else timestamp(news.until, "f"),
        )
    if news.change == "idle-ended":
        return m.ngettext(
            "Nobody has moved in this game for {days} day: it ended as abandoned, not rated."
            " Its record is attached.",
            "Nobody has moved in this game for {days} days: it ended as abandoned, not rated."
            " Its record is attached.",
            news.days,
            days=news.days,
        )
    return m.ngettext(
        "This lobby was not started within {days} day and is closed. `/mk new` opens another.",
        "This lobby was not started within {days} days and is closed. `/mk new` opens another.",
        news.days,
        days=news.days,
    )


def idle_record_alt(messages: Messages = ENGLISH) -> str:
    """The description of an abandoned game's record."""
    return messages.gettext(
        "The game's record up to where it stopped: its options, its seed and every action"
        " in order, as JSON."
    )


def idle_days_text(days: int, messages: Messages = ENGLISH) -> str:
    """The answer to `/mk admin what:settings idle_days:`."""
    return messages.ngettext(
        "On this server a game with no move for {days} day is warned; 7 days later it ends"
        " as abandoned.",
        "On this server a game with no move for {days} days is warned; 7 days later it ends"
        " as abandoned.",
        days,
        days=days,
    )


def heads_up_text(dm: HeadsUpDM, messages: Messages = ENGLISH) -> str:
    """The "you're next" DM."""
    m = messages
    return m.gettext(
        "You're next in game #{game} ({link}): {player} has just started their turn."
        " `/mk notify heads_up:False` stops these messages.",
        game=dm.game.id,
        link=game_url(dm.game, m),
        player=who(dm.starting, m),
    )


def heads_up_setting_text(on: bool, messages: Messages = ENGLISH) -> str:
    """The heads-up's line in the answer to `/mk notify`."""
    if on:
        return messages.gettext(
            "Heads-up: a direct message when the player before you starts their turn."
        )
    return messages.gettext("Heads-up: off (`/mk notify heads_up:True` turns it on).")
