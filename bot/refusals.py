"""Refusals in the reader's language: a refused command or button is answered
privately, in the language of the player's Discord client.

- A service refusal (`ServiceError`) carries its sentence as a catalogue template and
  its parameters: a template the catalogue translates is told in the reader's
  language.
- An engine refusal (`rules.errors.RulesError`, and any game's refusal with a
  `template` and its `params`, as Cave Troll's `CaveTrollError`) carries a machine
  `code` and its sentence as a template with the values of its fields: the template is
  a message of the catalogue (extracted from the rules), and the values that are the
  game's words (for the Mountain King a clan, a resource, a tier, a spell; for Cave
  Troll a piece, an artifact, a colour) are named in the reader's language by the
  game's face (`told`: `bot.mountain_king.words.told`, `bot.cave_troll.words.told`).

What a player typed is quoted back cut short (`rules.errors.echo`, for the bot's
refusals too), and a refusal told after a colon ("That tunnel is not allowed: there is
no tunnel tile ...") begins in lower case (`refusal_clause`).

A leaf like `bot.texts`: plain values in, text out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from bot.i18n.catalogue import ENGLISH, Messages
from bot.service.errors import NotYourTurnError, ServiceError
from bot.texts import called_in
from bot.words import listed_in
from rules.errors import clause


class Sayer(Protocol):
    """How a game's face tells its rules' sentence (a template and the values of its
    fields) in a language, naming the game's words in it."""

    def __call__(
        self, template: str, params: Mapping[str, object], messages: Messages = ENGLISH, /
    ) -> str: ...


def plainly(template: str, params: Mapping[str, object], messages: Messages = ENGLISH) -> str:
    """A rules' sentence with each value as the rules wrote it (a game whose face names
    no words of its own)."""
    return messages.gettext(template, **{k: str(v) for k, v in params.items()})


def refusal_text(error: Exception, messages: Messages = ENGLISH, told: Sayer = plainly) -> str:
    """What a refused player reads, in `messages`' language where the catalogue has
    the sentence, else in the English the error was raised with; a rules' sentence told
    by the game's face (`told`)."""
    if messages is ENGLISH:
        return str(error)
    if isinstance(error, ServiceError):
        if messages.lookup(error.template) is None:
            return str(error)
        params = dict(error.params)
        if isinstance(error, NotYourTurnError) and error.waiting:
            # the seats awaited, named with their colours in the reader's language
            names = [called_in(label, name, ai, messages) for label, name, ai in error.waiting]
            params.update(player=names[0], players=listed_in(names, messages))
        return messages.gettext(error.template, **{k: params[k] for k in error.params})
    template, fields = getattr(error, "template", None), getattr(error, "params", None)
    if isinstance(template, str) and isinstance(fields, Mapping):
        # a game's rules' refusal (the Mountain King's `RulesError`, Cave Troll's
        # `CaveTrollError`): its template and the values of its fields
        text = told(template, fields, messages)
        return text[:1].upper() + text[1:]
    return str(error)


def refusal_clause(error: Exception, messages: Messages = ENGLISH, told: Sayer = plainly) -> str:
    """The refusal told after a colon in another sentence: as `refusal_text`, its first
    letter in lower case unless its sentence begins with a name or a field."""
    text = refusal_text(error, messages, told)
    template = getattr(error, "template", None)
    if not isinstance(template, str):
        return text
    return clause(messages.lookup(template) or template, text)
