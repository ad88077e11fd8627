"""What the table needs of a game's face: how its stories and refusals read.

The table (lobby, seats, the courier, reminders, votes, your games) talks to a game's
rules through the service's protocol (`bot.service.protocol.GameRules`); what a player
reads of the game itself comes from the game's face, a package of the bot beside the
table's features (the Mountain King's is `bot.mountain_king`). Its commands are cogs
installed with the table's; the two things the table's own code must tell in the game's
words are here: what an action did, in the private answer to it, and a rules' refusal.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n.catalogue import ENGLISH, Messages
from bot.refusals import Sayer, refusal_text
from bot.texts import Teller


@dataclass(frozen=True)
class GameFace:
    """A game's face as the table sees it: `name` the rules' (`GameRules.name`),
    `tell` a story in a voice and a language, `told` a rules' sentence with the game's
    words; `title` the game's name as the table lists it (a catalogue message),
    `short` its name in a thread's title and a reminder, `errors` the rules' refusals
    (said with `told`), and `group` the slash command group its commands are in (the
    table's own is `/mk`), described by `group_description`."""

    name: str
    tell: Teller
    told: Sayer
    title: str = ""
    # the game's name in a thread's title and a reminder ("Mountain King")
    short: str = ""
    errors: tuple[type[Exception], ...] = ()
    group: str = "mk"
    group_description: str = ""

    @property
    def short_name(self) -> str:
        """Its name in a thread's title and a reminder (a catalogue message)."""
        return self.short or self.title or self.name

    def refuses(self, error: Exception) -> bool:
        """Whether this is one of the game's rules' refusals."""
        return isinstance(error, self.errors)

    def refusal(self, error: Exception, messages: Messages = ENGLISH) -> str:
        """A refused command or button, in the reader's language."""
        return refusal_text(error, messages, self.told)
