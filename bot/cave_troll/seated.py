"""The game here as its player's commands need it: the user's seat and the game's state."""

from __future__ import annotations

import discord

from bot.client import MountainBot
from bot.i18n.catalogue import N_
from bot.service import GameInfo, NotInGameError, ServiceError
from bot.texts import NOT_STARTED
from cave_troll.state import State

NOT_THIS_GAME = N_("This thread's game is not Cave Troll: its commands are under `/mk`.")


async def seated(
    bot: MountainBot, interaction: discord.Interaction[MountainBot]
) -> tuple[GameInfo, State, int]:
    """The game here, its state and the user's seat (refused without a seat, before the
    game starts, or in a game of another game's rules)."""
    # the table refuses a Cave Troll command in another game's thread (`bot.game`)
    game = await bot.game(interaction)
    seat = game.seat_of(interaction.user.id)
    if seat is None:
        raise NotInGameError()
    loaded = await bot.service.load(game.id)
    if loaded.state is None:
        raise ServiceError(NOT_STARTED)
    if not isinstance(loaded.state, State):
        raise ServiceError(NOT_THIS_GAME)
    return game, loaded.state, seat.seat
