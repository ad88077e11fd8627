"""Buttons that survive restarts. Every custom_id carries the game id, the game's
version (log length) when the button was drawn, and an argument:

    mk:<kind>:<game>:<version>:<argument>

Each behaviour is one `GameButton` subclass, beside the command that draws it, with
its own template; discord.py finds the class by matching a pressed button's custom_id
against the templates of the classes a feature registered, so a button posted before
a restart works after it. A button holds nothing but its custom_id.
"""

from __future__ import annotations

import re
from typing import Self

import discord

from bot.client import MountainBot, ours

MAX_CUSTOM_ID = 100
ANY_ARGUMENT = ".{0,80}"
# what discord.py rebuilds a pressed button as, from the message
PressedItem = discord.ui.Item[discord.ui.View | discord.ui.LayoutView]
# any of our buttons; the game id is what an error report needs
ANY_BUTTON = re.compile(r"mk:[a-z]+:(?P<game>\d+):\d+:" + ANY_ARGUMENT)


def template(kind: str, argument: str = "") -> str:
    """The custom_id template of one kind of button: the groups `game` and `seq`, then
    whatever groups `argument` names (an empty argument by default)."""
    return rf"mk:{kind}:(?P<game>\d+):(?P<seq>\d+):{argument}"


class GameButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=template("[a-z]+", ANY_ARGUMENT),
):
    """A button drawn for one game at one version. A subclass names its template,
    rebuilds itself from a match in `rebuild` and acts in `press`; any error goes to the bot's one
    error handler."""

    def __init__(
        self,
        kind: str,
        game_id: int,
        seq: int = 0,
        argument: str = "",
        *,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        custom_id = f"mk:{kind}:{game_id}:{seq}:{argument}"
        # discord.py dispatches on a full match of the template: refuse to draw a button
        # that could never be pressed
        if len(custom_id) > MAX_CUSTOM_ID or not self.template.fullmatch(custom_id):
            raise ValueError(f"custom_id too long or malformed: {custom_id!r}")
        super().__init__(discord.ui.Button(label=label[:80], style=style, custom_id=custom_id))
        self.game_id = game_id
        self.seq = seq

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[discord.Client],
        item: PressedItem,
        match: re.Match[str],
        /,
    ) -> Self:
        """discord.py rebuilds a pressed button from its custom_id: the subclass reads
        its template's groups in `rebuild`, with the label it was drawn with."""
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls.rebuild(match, label)

    @classmethod
    def rebuild(cls, match: re.Match[str], label: str | None) -> Self:
        """The button a custom_id matching this class's template stands for."""
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        if not ours(interaction):
            return
        try:
            await self.press(interaction)
        except Exception as error:
            await interaction.client.report(interaction, error)

    async def press(self, interaction: discord.Interaction[MountainBot]) -> None:
        raise NotImplementedError


def view_of(*items: GameButton) -> discord.ui.View:
    """A persistent view of up to 25 buttons."""
    view = discord.ui.View(timeout=None)
    for item in items[:25]:
        view.add_item(item)
    return view


def game_pressed(interaction: discord.Interaction[MountainBot]) -> int | None:
    """The game id of the button this interaction pressed, if it pressed one of ours."""
    data = interaction.data
    pressed = data.get("custom_id") if data is not None else None
    match = ANY_BUTTON.fullmatch(pressed) if isinstance(pressed, str) else None
    return int(match["game"]) if match else None
