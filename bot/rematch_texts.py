"""The table's messages of a game's ending and of finding a game: the Rematch button,
the rematch's invitation, and `/mk open`'s list of lobbies. A leaf like `bot.texts`."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n.catalogue import ENGLISH, N_, Messages
from bot.service.results import GameInfo
from bot.texts import options_text
from bot.time_texts import time_options_text

REMATCH = N_("Rematch")
NOT_IN_A_SERVER = N_("Use this command in a server's channel.")


def place(info: GameInfo) -> str:
    """Where a game is played: its thread, else its channel, as a link."""
    where = info.thread_id or info.channel_id
    return f"<#{where}>" if where else f"#{info.id}"


def rematch_open_text(info: GameInfo, of: int, messages: Messages = ENGLISH) -> str:
    """A second press: the rematch already made, and where."""
    if info.thread_id is None:
        return messages.gettext(
            "The rematch of game #{old} is game #{game}; its thread is being opened.",
            old=of,
            game=info.id,
        )
    return messages.gettext(
        "The rematch of game #{old} is already open: game #{game} in {thread}.",
        old=of,
        game=info.id,
        thread=place(info),
    )


def invitation_text(
    of: int, asked_by: str, invited: Sequence[int], messages: Messages = ENGLISH
) -> str:
    """The rematch's call to the old table, each mentioned once (in the game's
    language)."""
    return messages.gettext(
        "Rematch of game #{old}, asked for by {name}. {players}: press Join above; the"
        " game starts by itself once every seat is taken.",
        old=of,
        name=asked_by,
        players=" ".join(f"<@{user}>" for user in dict.fromkeys(invited)),
    )


def open_lobbies_text(lobbies: Sequence[GameInfo], messages: Messages = ENGLISH) -> str:
    """`/mk open`: each lobby of the server with a free seat (who opened it, its
    options, the seats taken, its thread); one sentence when there is none."""
    m = messages
    if not lobbies:
        return m.gettext("No game on this server is waiting for players. Open one with /mk new.")
    lines = [m.gettext("Games waiting for players on this server:")]
    for info in lobbies:
        lines.append(
            # TRANSLATORS: a lobby in /mk open: game, creator, options, seats, its thread
            m.gettext(
                "#{game} by <@{creator}> · {options} · {joined} of {needed} seats taken · {thread}",
                game=info.id,
                creator=info.creator_id,
                options=f"{options_text(info, m)} · {time_options_text(info, m)}",
                joined=len(info.seats),
                needed=info.seats_needed,
                thread=place(info),
            )
        )
    return "\n".join(lines)
