"""The Discord bot: `python -m bot` runs it; `bot.app.create_bot` builds it."""
