"""Autocomplete's offers, and the one option every game's table has: a seat of the game
here by its colour (`SeatColour`, for the admin's commands and a game's looks).

`offer` picks what Discord shows of a list of (value, label) pairs as the user types;
a game's face offers its own options with it (`bot.mountain_king.choices`).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import islice

import discord
from discord import app_commands

from bot.client import MountainBot, reader
from bot.texts import called_in
from bot.words import colour_name

MAX_CHOICES = 25
MAX_TEXT = 100  # Discord's limit on a choice's name and on its value
Choice = app_commands.Choice[int | float | str]
# At most this many candidates are looked at for one answer: a rich position has some
# 20,000 legal digs, and what was typed may match none of them.
MAX_SCAN = 3000


def offer(pairs: Iterable[tuple[str, str]], current: str) -> list[Choice]:
    """At most 25 choices whose value or label contains what was typed, among the
    first `MAX_SCAN` pairs. A value longer than Discord allows is left out (cut, it
    would be another action); a long label is shortened."""
    needle = current.lower().strip()
    out: list[Choice] = []
    seen: set[str] = set()
    for value, label in islice(pairs, MAX_SCAN):
        if (
            value in seen
            or len(value) > MAX_TEXT
            or (needle and needle not in value.lower() and needle not in label.lower())
        ):
            continue
        seen.add(value)
        out.append(app_commands.Choice(name=_shorten(label), value=value))
        if len(out) == MAX_CHOICES:
            break
    return out


def _shorten(label: str) -> str:
    return label if len(label) <= MAX_TEXT else label[: MAX_TEXT - 1] + "…"


class SeatOfGame(app_commands.Transformer[MountainBot]):
    """A seat of the game here, named by its colour; autocomplete lists every seat with
    who plays it now (for the game's admin, who need not hold a seat)."""

    async def transform(self, interaction: discord.Interaction[MountainBot], value: str, /) -> str:
        return value.strip().lower()

    async def autocomplete(
        self, interaction: discord.Interaction[MountainBot], value: int | float | str, /
    ) -> list[Choice]:
        game = await interaction.client.game_here(interaction)
        if game is None:
            return []
        pairs = []
        m = reader(interaction)
        for seat in game.seats:
            if seat.controller_id is None and not seat.ai:
                label = m.gettext(
                    "{colour} (nobody: the AI plays it)", colour=colour_name(seat.label, m)
                )
            else:
                label = called_in(seat.label, seat.name, seat.ai, m)
            pairs.append((seat.label, label))
        return offer(pairs, str(value))


SeatColour = app_commands.Transform[str, SeatOfGame]
