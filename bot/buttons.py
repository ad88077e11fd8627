"""Buttons that survive restarts: every custom_id carries the game id, the game's
version (log length) when the button was drawn, and the action. A click on a button
drawn before the game moved on is answered "the game moved on" and changes nothing.

    mk:<kind>:<game>:<version>:<argument>
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from bot.app import MountainBot

TEMPLATE = r"^mk:(?P<kind>[a-z]+):(?P<game>\d+):(?P<seq>\d+):(?P<arg>.{0,80})$"
MAX_CUSTOM_ID = 100


def custom_id(kind: str, game_id: int, seq: int, arg: str = "") -> str:
    cid = f"mk:{kind}:{game_id}:{seq}:{arg}"
    if len(cid) > MAX_CUSTOM_ID or not re.match(TEMPLATE, cid):
        raise ValueError(f"custom_id too long or malformed: {cid!r}")
    return cid


def button(
    label: str,
    kind: str,
    game_id: int,
    seq: int = 0,
    arg: str = "",
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
) -> GameButton:
    return GameButton(
        discord.ui.Button(
            label=label[:80], style=style, custom_id=custom_id(kind, game_id, seq, arg)
        ),
        kind,
        game_id,
        seq,
        arg,
    )


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    def __init__(
        self, item: discord.ui.Button[Any], kind: str, game_id: int, seq: int, arg: str
    ) -> None:
        super().__init__(item)
        self.kind = kind
        self.game_id = game_id
        self.seq = seq
        self.arg = arg

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item, match["kind"], int(match["game"]), int(match["seq"]), match["arg"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: MountainBot = interaction.client
        await bot.on_button(interaction, self)


def view_of(*items: GameButton) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items[:25]:
        view.add_item(item)
    return view
