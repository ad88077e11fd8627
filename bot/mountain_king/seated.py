"""The game here as its player's commands need it: the user's seat and the game's state."""

from __future__ import annotations

from typing import NamedTuple

import discord

from bot.client import MountainBot
from bot.service import GameInfo, NotInGameError, ServiceError
from bot.texts import NOT_STARTED
from rules.state import State


async def seated(
    bot: MountainBot, interaction: discord.Interaction[MountainBot]
) -> tuple[GameInfo, State, int]:
    """The game here, its state and the user's seat (refused without a seat or before
    the game starts)."""
    game = await bot.game(interaction)
    seat = game.seat_of(interaction.user.id)
    if seat is None:
        raise NotInGameError()
    loaded = await bot.service.load(game.id)
    if loaded.state is None:
        raise ServiceError(NOT_STARTED)
    return game, loaded.state, seat.seat


class Position(NamedTuple):
    """A game's state with the seat of the user who asks, and what names the position:
    the game and its version (the log entries the state reflects: the log is only
    ever added to, an undo too, so one game's version is one position)."""

    state: State
    seat: int
    game_id: int
    version: int


async def seated_state(
    bot: MountainBot, interaction: discord.Interaction[MountainBot]
) -> Position | None:
    """The state of the game here and the user's seat, or None where `seated` refuses
    (autocomplete answers a refusal with nothing, at each key the player types), with
    less asked of the store: the game's id, then the game with its seats and its state
    (`seated` reads the game and its seats once more, to word its refusals). Raises
    `ServiceError` as `seated` does outside a game's thread and for a game that does
    not load."""
    loaded = await bot.service.load(await bot.game_id(interaction))
    user = interaction.user.id
    seat = next((s.seat for s in loaded.seats if s.controller_id == user), None)
    # no seat, not started, or another game's thread (`bot.game` refuses it)
    if seat is None or not isinstance(loaded.state, State):
        return None
    return Position(loaded.state, seat, loaded.game.id, loaded.seq)
