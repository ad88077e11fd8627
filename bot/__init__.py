"""The Discord bot (built in a later issue)."""
