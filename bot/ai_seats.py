"""Which seats the AI plays, as the bot knows them today: AI players sit under negative
ids (Discord's are positive) and a vacant seat has no id at all."""

from __future__ import annotations


def is_ai(user_id: int | None) -> bool:
    """Whether the AI plays this seat (None is a vacant seat: the AI keeps it warm)."""
    return user_id is None or user_id < 0
