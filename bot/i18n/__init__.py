"""The bot in English, Polish and Spanish (the rulebooks' languages): one gettext
message catalogue for what the bot writes (`catalogue`), and the slash commands'
names and descriptions synced with Discord's localizations (`commands`)."""

from bot.i18n.catalogue import (
    ENGLISH,
    LANGUAGES,
    N_,
    Messages,
    language_of,
    translator_for,
)

__all__ = ["ENGLISH", "LANGUAGES", "N_", "Messages", "language_of", "translator_for"]
