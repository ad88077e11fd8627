"""Playing a turn: one slash command per action (autocomplete lists the legal choices),
`/mk dig` with a private preview and Confirm / Cancel buttons, `/mk undo` and `/mk end`.

Every action answers privately; a finished turn is posted publicly by `bot.flow`.
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import Literal, Self

import discord
from discord import app_commands

from bot.buttons import GameButton, PressedItem, label_of, template, view_of
from bot.choices import (
    AnyAction,
    Conversion,
    Hall,
    HallCells,
    HordeSlot,
    NewWorkshop,
    PyramidSlot,
    RecruitPedestal,
    Spell,
    SpellChoice,
    Statue,
    StatueTarget,
    TileCells,
    TileShape,
    TradeGive,
    WorkshopSite,
)
from bot.client import MountainBot
from bot.features.base import Feature
from bot.presenters import describe
from bot.texts import (
    CANCELLED,
    dig_question,
    dig_refused,
    done_text,
    played_text,
    undone_text,
)
from render import Preview, board_png
from rules.actions import Dig, parse_action
from rules.errors import RulesError
from rules.resources import RESOURCES

RESOURCE_CHOICES = [app_commands.Choice(name=r.value, value=r.value) for r in RESOURCES]


async def play(interaction: discord.Interaction[MountainBot], notation: str) -> None:
    """Defer, act, and say what was done (privately)."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    bot = interaction.client
    game, state, seat = await bot.seated(interaction)
    action = parse_action(notation)
    result = await bot.flow.act(game, interaction.user.id, notation, interaction_id=interaction.id)
    # described after the engine accepted it, from the state just before it
    sentence = describe(action, state, seat)
    turn_over = result.turn_ended and not result.game_over
    await interaction.followup.send(done_text(sentence, turn_over=turn_over), ephemeral=True)


class ConfirmButton(GameButton, template=template("do", r"(?P<notation>.{1,80})")):
    """Play the previewed action, if the game has not moved on since the preview."""

    def __init__(self, game_id: int, seq: int, notation: str, *, label: str = "Confirm") -> None:
        super().__init__(
            "do",
            game_id,
            seq,
            notation,
            label=label,
            style=discord.ButtonStyle.success,
        )
        self.notation = notation

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[discord.Client],
        item: PressedItem,
        match: re.Match[str],
        /,
    ) -> Self:
        return cls(
            int(match["game"]),
            int(match["seq"]),
            match["notation"],
            label=label_of(item, "Confirm"),
        )

    async def press(self, interaction: discord.Interaction[MountainBot]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=False)
        bot = interaction.client
        info = await bot.service.info(self.game_id)
        await bot.flow.act(
            info,
            interaction.user.id,
            self.notation,
            interaction_id=interaction.id,
            expected_seq=self.seq,
        )
        await interaction.edit_original_response(
            content=played_text(self.notation), view=None, attachments=[]
        )


class CancelButton(GameButton, template=template("cancel")):
    """Drop the preview; nothing was played."""

    def __init__(self, game_id: int, seq: int, *, label: str = "Cancel") -> None:
        super().__init__("cancel", game_id, seq, label=label)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[discord.Client],
        item: PressedItem,
        match: re.Match[str],
        /,
    ) -> Self:
        return cls(int(match["game"]), int(match["seq"]), label=label_of(item, "Cancel"))

    async def press(self, interaction: discord.Interaction[MountainBot]) -> None:
        await interaction.response.edit_message(content=CANCELLED, view=None, attachments=[])


class TurnCommands(Feature):
    """Every action of a turn."""

    buttons = (ConfirmButton, CancelButton)

    @app_commands.command(
        name="act", description="Any action, in notation (autocomplete lists the legal ones)"
    )
    async def act(self, interaction: discord.Interaction[MountainBot], action: AnyAction) -> None:
        await play(interaction, action)

    @app_commands.command(name="recruit", description="Step 2: recruit a troll from the horde")
    @app_commands.describe(
        troll="Horde slot (1.1-3.3)",
        slot="Pyramid slot it stands in",
        pedestal="Level 3: pedestal to take",
    )
    async def recruit(
        self,
        interaction: discord.Interaction[MountainBot],
        troll: HordeSlot,
        slot: PyramidSlot,
        pedestal: RecruitPedestal | None = None,
    ) -> None:
        await play(interaction, f"recruit {troll} {slot}" + (f" {pedestal}" if pedestal else ""))

    @app_commands.command(
        name="dig", description="Step 2: dig a tunnel (you confirm after a preview)"
    )
    @app_commands.describe(
        tile="Tunnel tile shape",
        cells="Cells it covers, anchor marked * (autocomplete lists legal placements)",
        mineral="Mineral you pay with",
        pedestal="Pedestal for the anchor (optional)",
        workshop="Workshop to establish next to it, as site=name (optional)",
    )
    async def dig(
        self,
        interaction: discord.Interaction[MountainBot],
        tile: TileShape,
        cells: TileCells,
        mineral: Literal["stone", "iron", "heartstone"],
        pedestal: Literal["fire", "ice", "moon"] | None = None,
        workshop: NewWorkshop | None = None,
    ) -> None:
        notation = f"dig {tile} {cells} {mineral}" + (f" pedestal {pedestal}" if pedestal else "")
        notation += f" workshop {workshop}" if workshop else ""
        await interaction.response.defer(ephemeral=True, thinking=True)
        service = self.bot.service
        game, state, seat = await self.bot.seated(interaction)
        action = parse_action(notation)
        assert isinstance(action, Dig)
        loaded = await service.load(game.id)
        view = service.rules.view(state, seat)
        problem: RulesError | None = None
        try:
            service.rules.play(state, seat, action)
        except RulesError as exc:
            problem = exc
        preview = Preview(
            action.cells, problem is None, problem.cell if problem else None, action.anchor
        )
        image = await asyncio.to_thread(board_png, view, preview=preview, crop=True)
        file = discord.File(io.BytesIO(image), filename="dig-preview.png")
        if problem is not None:
            await interaction.followup.send(dig_refused(str(problem)), file=file, ephemeral=True)
            return
        confirm = ConfirmButton(game.id, loaded.seq, str(action))
        cancel = CancelButton(game.id, loaded.seq)
        await interaction.followup.send(
            dig_question(str(action), describe(action, state, seat)),
            file=file,
            view=view_of(confirm, cancel),
            ephemeral=True,
        )

    @app_commands.command(name="cast", description="Step 1: cast a spell from the spellbook")
    @app_commands.describe(
        spell="A spell in the spellbook", choice="What the spell does (autocomplete)"
    )
    async def cast(
        self,
        interaction: discord.Interaction[MountainBot],
        spell: Spell,
        choice: SpellChoice | None = None,
    ) -> None:
        await play(interaction, f"cast {spell}" + (f" {choice}" if choice else ""))

    @app_commands.command(name="use", description="Step 1: use a workshop your network touches")
    @app_commands.describe(site="Workshop site", conversion="give>get, e.g. stone>iron")
    async def use(
        self,
        interaction: discord.Interaction[MountainBot],
        site: WorkshopSite,
        conversion: Conversion,
    ) -> None:
        await play(interaction, f"use {site} {conversion}")

    @app_commands.command(
        name="trade", description="Trade any 4 resources for 1 (any time in your turn)"
    )
    @app_commands.describe(
        give="Four resources, e.g. 2coin+stone+rune", get="The resource you take"
    )
    @app_commands.choices(get=RESOURCE_CHOICES)
    async def trade(
        self, interaction: discord.Interaction[MountainBot], give: TradeGive, get: str
    ) -> None:
        await play(interaction, f"trade {give}>{get}")

    @app_commands.command(
        name="hall", description="Step 3: dedicate a great hall over your tunnels"
    )
    @app_commands.describe(hall="Great hall", cells="Cells it covers, altar marked *")
    async def hall(
        self, interaction: discord.Interaction[MountainBot], hall: Hall, cells: HallCells
    ) -> None:
        await play(interaction, f"hall {hall} {cells}")

    @app_commands.command(name="move", description="Step 4: spend a cart to move a statue")
    @app_commands.describe(statue="Cell of the statue", to="Cell it moves to")
    async def move(
        self, interaction: discord.Interaction[MountainBot], statue: Statue, to: StatueTarget
    ) -> None:
        await play(interaction, f"move {statue}>{to}")

    @app_commands.command(name="undo", description="Take back your last action this turn")
    async def undo(self, interaction: discord.Interaction[MountainBot]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game = await self.bot.game(interaction)
        result = await self.bot.service.undo(
            game.id, interaction.user.id, interaction_id=interaction.id
        )
        await interaction.followup.send(
            undone_text(result.undone or result.notation), ephemeral=True
        )

    @app_commands.command(name="end", description="End your turn")
    async def end(self, interaction: discord.Interaction[MountainBot]) -> None:
        await play(interaction, "end")
