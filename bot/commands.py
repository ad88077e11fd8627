"""The `/mk` slash commands: lobby, setup, every turn action, looking and admin.

Every option a player must choose has autocomplete offering only legal choices (at
most 25, filtered by what was typed); whatever is typed by hand is still validated by
the engine. Actions answer ephemerally; a finished turn is posted publicly by
`GameFlow`.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Iterable
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands

from bot.buttons import button, view_of
from bot.flow import NO_MENTIONS
from bot.presenters import describe
from bot.service import GameInfo, NotInGameError, ServiceError
from render import Preview, board_png, market_png, pyramid_png, score_png
from rules import board as board_rules
from rules.actions import (
    Cast,
    DedicateHall,
    Dig,
    Keep,
    MoveStatue,
    PlaceGate,
    Recruit,
    Trade,
    UseWorkshop,
    format_bundle,
    format_cells,
    parse_action,
)
from rules.content import load_content
from rules.errors import RulesError
from rules.legal import legal_actions
from rules.pyramid import horde_position
from rules.resources import RESOURCES
from rules.state import State

if TYPE_CHECKING:
    from bot.app import MountainBot

Choice = app_commands.Choice[str]
HELP = {
    "1": "**Step 1 — spells and workshops.** Cast one spell (`/mk cast`, paying a rune) and/or"
    " use one workshop your network touches, once per open entrance (`/mk use`), in either"
    " order.",
    "2": "**Step 2 — recruit or dig** (required if you can). Recruit a horde troll"
    " (`/mk recruit`: bribes 2 coins for level 2, 5 for level 3) and run its cascade, or dig a"
    " tunnel (`/mk dig`: its size in one mineral, 1 hammer per rubble space) next to your"
    " network and never along an opponent's.",
    "3": "**Step 3 — great hall.** Lay one hall exactly over your own tunnels (`/mk hall`).",
    "4": "**Step 4 — statues.** Each cart moves one statue in your network within its tunnel or"
    " into an adjacent one (`/mk move`); clan carts only for their clan.",
    "trade": "**Trade** any 4 resources for 1 at any point of your turn (`/mk trade`).",
    "end": "**End** your turn with `/mk end`; `/mk undo` takes back your last action this turn"
    " (not past a revealed card).",
}


class MountainCommands(app_commands.Group):
    """In the Hall of the Mountain King."""

    def __init__(self, bot: MountainBot) -> None:
        super().__init__(name="mk", description="Play In the Hall of the Mountain King")
        self.bot = bot
        self.service = bot.service

    # --- helpers -----------------------------------------------------------------------

    async def game(self, interaction: discord.Interaction[Any]) -> GameInfo:
        game = await self.bot.game_here(interaction)
        if game is None:
            raise ServiceError("Use this command in a game's thread (start one with `/mk new`).")
        return game

    async def my_state(self, interaction: discord.Interaction[Any]) -> tuple[GameInfo, State, int]:
        game = await self.game(interaction)
        seat = game.seat_of(interaction.user.id)
        if seat is None:
            raise NotInGameError()
        loaded = await self.service.load(game.id)
        if loaded.state is None:
            raise ServiceError("The game has not started yet.")
        return game, loaded.state, seat.seat

    async def play(self, interaction: discord.Interaction[Any], notation: str) -> None:
        """Defer, act, and say what was done (ephemeral)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        game, state, seat = await self.my_state(interaction)
        action = parse_action(notation)
        result = await self.bot.flow.act(
            game, interaction.user.id, notation, interaction_id=interaction.id
        )
        # described after the engine accepted it, from the state just before it
        sentence = describe(action, state, seat)
        tail = " Your turn is over." if result.turn_ended and not result.game_over else ""
        await interaction.followup.send(f"Done: you {sentence}.{tail}", ephemeral=True)

    async def options(
        self, interaction: discord.Interaction[Any], kind: str
    ) -> tuple[State | None, int, list[Any]]:
        """The user's state, seat and legal actions of one kind (None, -1 and nothing
        when they have no seat or the game has not started)."""
        try:
            _, state, seat = await self.my_state(interaction)
        except (ServiceError, RulesError):
            return None, -1, []
        return state, seat, legal_actions(state, seat, kind)

    async def started_view(self, interaction: discord.Interaction[Any]) -> tuple[GameInfo, Any]:
        """Defer publicly, then the game here and what this user may see of it."""
        await interaction.response.defer(thinking=True)
        game = await self.game(interaction)
        view = await self.service.view(game.id, interaction.user.id)
        if view.state is None:
            raise ServiceError("The game has not started yet.")
        return game, view

    @staticmethod
    async def send_png(interaction: discord.Interaction[Any], data: bytes, name: str) -> None:
        await interaction.followup.send(file=discord.File(io.BytesIO(data), filename=name))

    # --- lobby ---------------------------------------------------------------------------

    @app_commands.command(
        name="new", description="Open a new game in this channel (a thread is made for it)"
    )
    @app_commands.describe(
        players="How many players (2-5)",
        side="Board side (winter for 4-5 players, autumn for 3, either for 2)",
        teams="Team mode (exactly 4 players)",
        workshops="How the workshops in play are chosen",
        reminder_hours="Hours between reminders for the player whose turn it is",
    )
    async def new(
        self,
        interaction: discord.Interaction[Any],
        players: app_commands.Range[int, 2, 5],
        side: Literal["winter", "autumn"] | None = None,
        teams: bool = False,
        workshops: Literal["random", "unique"] = "random",
        reminder_hours: app_commands.Range[float, 0.5, 168.0] | None = None,
    ) -> None:
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            raise ServiceError("Open a game from a server's text channel.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        options = {"players": players, "side": side, "teams": teams, "workshops": workshops}
        hours = reminder_hours or self.bot.settings.reminder_hours
        info = await self.service.create_game(
            interaction.user.id,
            options,
            guild_id=interaction.guild_id,
            channel_id=channel.id,
            reminder_interval=timedelta(hours=hours),
        )
        thread = await channel.create_thread(
            name=f"Mountain King #{info.id}", type=discord.ChannelType.public_thread
        )
        info = await self.service.set_place(
            info.id, guild_id=interaction.guild_id, channel_id=channel.id, thread_id=thread.id
        )
        from bot.app import lobby_message

        await thread.send(**lobby_message(info))
        await interaction.followup.send(
            f"Game #{info.id} is open in {thread.mention}.", ephemeral=True
        )

    # --- setup ---------------------------------------------------------------------------

    @app_commands.command(name="draft", description="Choose your starting trolls (private)")
    async def draft(self, interaction: discord.Interaction[Any]) -> None:
        game = await self.game(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        content, view, file = await draft_message(self.bot, game, interaction.user.id)
        await interaction.followup.send(
            content,
            view=view or discord.utils.MISSING,
            files=[file] if file else [],
            ephemeral=True,
        )

    @app_commands.command(name="gate", description="Place your gate on a start point")
    @app_commands.describe(point="A free start point for this player count")
    async def gate(self, interaction: discord.Interaction[Any], point: str) -> None:
        await self.play(interaction, f"gate {point}")

    @gate.autocomplete("point")
    async def _gate_points(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[Choice]:
        state, _, actions = await self.options(interaction, "gate")
        if state is None:
            return []
        side = load_content().board(state.config.board_side)
        cells = {p.id: p.cell for p in side.start_points}
        return _choices(
            (
                (a.point, f"{a.point} ({cells.get(a.point, '?')})")
                for a in actions
                if isinstance(a, PlaceGate)
            ),
            current,
        )

    # --- turn actions ----------------------------------------------------------------------

    @app_commands.command(
        name="act", description="Any action, in notation (autocomplete lists the legal ones)"
    )
    async def act(self, interaction: discord.Interaction[Any], action: str) -> None:
        await self.play(interaction, action)

    @act.autocomplete("action")
    async def _act_options(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[Choice]:
        try:
            _, state, seat = await self.my_state(interaction)
        except (ServiceError, RulesError):
            return []
        texts = (str(a) for a in legal_actions(state, seat))
        return _choices(((t, t) for t in texts), current)

    @app_commands.command(name="recruit", description="Step 2: recruit a troll from the horde")
    @app_commands.describe(
        troll="Horde slot (1.1-3.3)",
        slot="Pyramid slot it stands in",
        pedestal="Level 3: pedestal to take",
    )
    async def recruit(
        self,
        interaction: discord.Interaction[Any],
        troll: str,
        slot: str,
        pedestal: str | None = None,
    ) -> None:
        await self.play(
            interaction, f"recruit {troll} {slot}" + (f" {pedestal}" if pedestal else "")
        )

    @recruit.autocomplete("troll")
    async def _recruit_troll(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[Choice]:
        state, _, actions = await self.options(interaction, "recruit")
        if state is None:
            return []
        slots = sorted({a.horde for a in actions if isinstance(a, Recruit)})
        return _choices(((s, _horde_label(state, s)) for s in slots), current)

    @recruit.autocomplete("slot")
    async def _recruit_slot(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[Choice]:
        _, _, actions = await self.options(interaction, "recruit")
        troll = getattr(interaction.namespace, "troll", None)
        slots = sorted(
            {a.slot for a in actions if isinstance(a, Recruit) and a.horde in (troll, None)}
        )
        return _choices(((s, s) for s in slots), current)

    @recruit.autocomplete("pedestal")
    async def _recruit_pedestal(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[Choice]:
        _, _, actions = await self.options(interaction, "recruit")
        troll = getattr(interaction.namespace, "troll", None)
        clans = sorted(
            {
                a.pedestal.value
                for a in actions
                if isinstance(a, Recruit) and a.pedestal and a.horde == troll
            }
        )
        return _choices(((c, c) for c in clans), current)

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
        interaction: discord.Interaction[Any],
        tile: str,
        cells: str,
        mineral: Literal["stone", "iron", "heartstone"],
        pedestal: Literal["fire", "ice", "moon"] | None = None,
        workshop: str | None = None,
    ) -> None:
        notation = f"dig {tile} {cells} {mineral}" + (f" pedestal {pedestal}" if pedestal else "")
        notation += f" workshop {workshop}" if workshop else ""
        await interaction.response.defer(ephemeral=True, thinking=True)
        game, state, seat = await self.my_state(interaction)
        action = parse_action(notation)
        assert isinstance(action, Dig)
        loaded = await self.service.load(game.id)
        view = self.service.rules.view(state, seat)
        problem: RulesError | None = None
        try:
            self.service.rules.play(state, seat, action)
        except RulesError as exc:
            problem = exc
        preview = Preview(
            action.cells, problem is None, problem.cell if problem else None, action.anchor
        )
        image = await asyncio.to_thread(board_png, view, preview=preview, crop=True)
        file = discord.File(io.BytesIO(image), filename="dig-preview.png")
        if problem is not None:
            await interaction.followup.send(
                f"That tunnel is not allowed: {problem}", file=file, ephemeral=True
            )
            return
        items = [
            button(
                "Confirm", "do", game.id, loaded.seq, str(action), style=discord.ButtonStyle.success
            ),
            button("Cancel", "cancel", game.id, loaded.seq),
        ]
        await interaction.followup.send(
            f"Dig `{action}`: {describe(action, state, seat)}?",
            file=file,
            view=view_of(*items),
            ephemeral=True,
        )

    @dig.autocomplete("tile")
    async def _dig_tile(self, interaction: discord.Interaction[Any], current: str) -> list[Choice]:
        state, seat, _ = await self.options(interaction, "end")
        if state is None:
            return []
        shapes = sorted({p.shape for p in board_rules.placements(state, seat)}, key=_tile_order)
        return _choices(((s, f"{s} ({load_tile_size(s)} cells)") for s in shapes), current)

    @dig.autocomplete("cells")
    async def _dig_cells(self, interaction: discord.Interaction[Any], current: str) -> list[Choice]:
        state, seat, _ = await self.options(interaction, "end")
        tile = getattr(interaction.namespace, "tile", None)
        if state is None or not tile:
            return []
        texts = [
            format_cells(p.cells, p.anchor)
            for p in board_rules.placements(state, seat)
            if p.shape == tile
        ]
        return _choices(((t, t) for t in texts), current)

    @dig.autocomplete("workshop")
    async def _dig_workshop(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[Choice]:
        state, _, _ = await self.options(interaction, "end")
        cells = getattr(interaction.namespace, "cells", None)
        if state is None or not cells:
            return []
        try:
            g_cells = [c.removesuffix("*") for c in str(cells).split("+")]
            from rules.mountain import geo

            sites = board_rules.workshop_choices(state, geo(state).mask(g_cells))
        except (KeyError, ValueError):
            return []
        names = sorted(set(state.workshop_supply))
        return _choices(((f"{s}={w}", f"{s} = {w}") for s in sites for w in names), current)

    @app_commands.command(name="cast", description="Step 1: cast a spell from the spellbook")
    @app_commands.describe(
        spell="A spell in the spellbook", choice="What the spell does (autocomplete)"
    )
    async def cast(
        self, interaction: discord.Interaction[Any], spell: str, choice: str | None = None
    ) -> None:
        await self.play(interaction, f"cast {spell}" + (f" {choice}" if choice else ""))

    @cast.autocomplete("spell")
    async def _cast_spell(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[Choice]:
        _state, _, actions = await self.options(interaction, "cast")
        ids = sorted({a.spell for a in actions if isinstance(a, Cast)})
        return _choices(((s, load_content().spell(s).name) for s in ids), current)

    @cast.autocomplete("choice")
    async def _cast_choice(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[Choice]:
        _, _, actions = await self.options(interaction, "cast")
        spell = getattr(interaction.namespace, "spell", None)
        args = [
            " ".join(a.args) for a in actions if isinstance(a, Cast) and a.spell == spell and a.args
        ]
        return _choices(((a, a) for a in args), current)

    @app_commands.command(name="use", description="Step 1: use a workshop your network touches")
    @app_commands.describe(site="Workshop site", conversion="give>get, e.g. stone>iron")
    async def use(self, interaction: discord.Interaction[Any], site: str, conversion: str) -> None:
        await self.play(interaction, f"use {site} {conversion}")

    @use.autocomplete("site")
    async def _use_site(self, interaction: discord.Interaction[Any], current: str) -> list[Choice]:
        state, _, actions = await self.options(interaction, "use")
        if state is None:
            return []
        sites = sorted({a.site for a in actions if isinstance(a, UseWorkshop)})
        names = {s: load_content().workshop(state.board.workshops[s]).name for s in sites}
        return _choices(((s, f"{s} {names[s]}") for s in sites), current)

    @use.autocomplete("conversion")
    async def _use_conversion(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[Choice]:
        _, _, actions = await self.options(interaction, "use")
        site = getattr(interaction.namespace, "site", None)
        texts = [
            str(a).split(" ", 2)[2]
            for a in actions
            if isinstance(a, UseWorkshop) and a.site == site
        ]
        return _choices(((t, t) for t in texts), current)

    @app_commands.command(
        name="trade", description="Trade any 4 resources for 1 (any time in your turn)"
    )
    @app_commands.describe(
        give="Four resources, e.g. 2coin+stone+rune", get="The resource you take"
    )
    @app_commands.choices(get=[app_commands.Choice(name=r.value, value=r.value) for r in RESOURCES])
    async def trade(self, interaction: discord.Interaction[Any], give: str, get: str) -> None:
        await self.play(interaction, f"trade {give}>{get}")

    @trade.autocomplete("give")
    async def _trade_give(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[Choice]:
        _, _, actions = await self.options(interaction, "trade")
        gives = sorted({format_bundle(a.give) for a in actions if isinstance(a, Trade)})
        return _choices(((g, g) for g in gives), current)

    @app_commands.command(
        name="hall", description="Step 3: dedicate a great hall over your tunnels"
    )
    @app_commands.describe(hall="Great hall", cells="Cells it covers, altar marked *")
    async def hall(self, interaction: discord.Interaction[Any], hall: str, cells: str) -> None:
        await self.play(interaction, f"hall {hall} {cells}")

    @hall.autocomplete("hall")
    async def _hall_name(self, interaction: discord.Interaction[Any], current: str) -> list[Choice]:
        _, _, actions = await self.options(interaction, "hall")
        ids = sorted({a.hall for a in actions if isinstance(a, DedicateHall)})
        names = {h.id: h.name for h in load_content().halls}
        return _choices(((i, names[i]) for i in ids), current)

    @hall.autocomplete("cells")
    async def _hall_cells(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[Choice]:
        _, _, actions = await self.options(interaction, "hall")
        hall = getattr(interaction.namespace, "hall", None)
        texts = [
            format_cells(a.cells, a.altar)
            for a in actions
            if isinstance(a, DedicateHall) and a.hall == hall
        ]
        return _choices(((t, t) for t in texts), current)

    @app_commands.command(name="move", description="Step 4: spend a cart to move a statue")
    @app_commands.describe(statue="Cell of the statue", to="Cell it moves to")
    async def move(self, interaction: discord.Interaction[Any], statue: str, to: str) -> None:
        await self.play(interaction, f"move {statue}>{to}")

    @move.autocomplete("statue")
    async def _move_from(self, interaction: discord.Interaction[Any], current: str) -> list[Choice]:
        state, _, actions = await self.options(interaction, "move")
        if state is None:
            return []
        cells = sorted({a.origin for a in actions if isinstance(a, MoveStatue)})
        return _choices(
            ((c, f"{c} {state.board.statues.get(c, '')} statue") for c in cells), current
        )

    @move.autocomplete("to")
    async def _move_to(self, interaction: discord.Interaction[Any], current: str) -> list[Choice]:
        _, _, actions = await self.options(interaction, "move")
        origin = getattr(interaction.namespace, "statue", None)
        cells = sorted(
            {a.target for a in actions if isinstance(a, MoveStatue) and a.origin == origin}
        )
        return _choices(((c, c) for c in cells), current)

    @app_commands.command(name="undo", description="Take back your last action this turn")
    async def undo(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game = await self.game(interaction)
        result = await self.service.undo(
            game.id, interaction.user.id, interaction_id=interaction.id
        )
        await interaction.followup.send(
            f"Undone: `{result.undone or result.notation}`.", ephemeral=True
        )

    @app_commands.command(name="end", description="End your turn")
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        await self.play(interaction, "end")

    # --- looking ---------------------------------------------------------------------------

    @app_commands.command(name="board", description="Show the mountain")
    async def board(self, interaction: discord.Interaction[Any]) -> None:
        _, view = await self.started_view(interaction)
        await self.send_png(
            interaction, await asyncio.to_thread(board_png, view.state), "board.png"
        )

    @app_commands.command(
        name="pyramid", description="Show a player's trollsmoot (yours by default)"
    )
    @app_commands.describe(player="Whose trollsmoot")
    async def pyramid(
        self, interaction: discord.Interaction[Any], player: discord.Member | None = None
    ) -> None:
        game, view = await self.started_view(interaction)
        seat = game.seat_of(player.id if player else interaction.user.id)
        if seat is None:
            raise ServiceError("That player has no seat in this game.")
        image = await asyncio.to_thread(pyramid_png, view.state, seat.seat)
        await self.send_png(interaction, image, "trollsmoot.png")

    @app_commands.command(name="market", description="Show the horde, spellbook and supplies")
    async def market(self, interaction: discord.Interaction[Any]) -> None:
        _, view = await self.started_view(interaction)
        await self.send_png(
            interaction, await asyncio.to_thread(market_png, view.state), "market.png"
        )

    @app_commands.command(
        name="scores", description="Honor so far (the score sheet once the game is over)"
    )
    async def scores(self, interaction: discord.Interaction[Any]) -> None:
        _, view = await self.started_view(interaction)
        if view.outcome is not None:
            image = await asyncio.to_thread(score_png, view.state, view.outcome)
            await self.send_png(interaction, image, "scores.png")
            return
        lines = []
        for p in view.state["players"]:
            honor = view.state["scores"][p["account"]]
            lines.append(f"{p['colour'].capitalize()}: {honor} honor on the track")
        await interaction.followup.send("\n".join(lines), allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="log", description="The game's actions in notation")
    async def log(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game = await self.game(interaction)
        entries = await self.service.log(game.id)
        text = "\n".join(f"{e.seq}. {e}" for e in entries[-40:]) or "No actions yet."
        await interaction.followup.send(f"```\n{text[-1800:]}\n```", ephemeral=True)

    @app_commands.command(
        name="status", description="Your resources, options and what changed (private)"
    )
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game, state, seat = await self.my_state(interaction)
        from rules.legal import legal_kinds

        kinds = legal_kinds(state, seat)
        storage = state.account_of(seat).storage
        owned = ", ".join(f"{n} {r}" for r, n in storage.items() if n) or "nothing"
        changes = await self.service.changes_since_last_turn(game.id, interaction.user.id)
        changed = "\n".join(f"• {e}" for e in changes[-15:]) or "• nothing yet"
        lines = [
            f"You are **{state.players[seat].colour}**. Storage: {owned}.",
            "You can now: "
            + (
                ", ".join(f"`/mk {k}`" if k not in ("keep",) else "`/mk draft`" for k in kinds)
                or "nothing — it is not your move."
            ),
            f"Since your last turn:\n{changed}",
        ]
        view = self.service.rules.view(state, seat)
        image = await asyncio.to_thread(pyramid_png, view, seat)
        await interaction.followup.send(
            "\n".join(lines)[:1900],
            file=discord.File(io.BytesIO(image), filename="my-trollsmoot.png"),
            ephemeral=True,
        )

    @app_commands.command(name="help", description="Rules help for a step of the turn")
    @app_commands.choices(
        step=[
            app_commands.Choice(name=n, value=v)
            for v, n in (
                ("1", "1 spells & workshops"),
                ("2", "2 recruit or dig"),
                ("3", "3 great hall"),
                ("4", "4 move statues"),
                ("trade", "trading"),
                ("end", "ending & undo"),
            )
        ]
    )
    async def help(self, interaction: discord.Interaction[Any], step: str) -> None:
        await interaction.response.send_message(HELP[step], ephemeral=True)

    # --- settings & admin ----------------------------------------------------------------

    @app_commands.command(name="notify", description="How you want reminders")
    @app_commands.describe(
        dm="Send reminders as direct messages (falls back to the thread if DMs are closed)",
        quiet_from="Quiet hours start (hour 0-23, your time zone)",
        quiet_to="Quiet hours end (hour 0-23)",
        timezone="Your time zone, e.g. Europe/Warsaw",
    )
    async def notify(
        self,
        interaction: discord.Interaction[Any],
        dm: bool,
        quiet_from: app_commands.Range[int, 0, 23] | None = None,
        quiet_to: app_commands.Range[int, 0, 23] | None = None,
        timezone: str = "UTC",
    ) -> None:
        from bot.store import NotificationPrefs

        prefs = NotificationPrefs(
            interaction.user.id,
            dm_opt_in=dm,
            quiet_start=None if quiet_from is None else quiet_from * 60,
            quiet_end=None if quiet_to is None else quiet_to * 60,
            timezone=timezone,
        )
        await self.service.notifications.set_prefs(prefs)
        await interaction.response.send_message("Reminder settings saved.", ephemeral=True)

    @app_commands.command(
        name="admin", description="Game admin: autopilot, substitute, kick, abandon"
    )
    @app_commands.describe(
        what="What to do", player="The player concerned", substitute="Who takes the seat"
    )
    async def admin(
        self,
        interaction: discord.Interaction[Any],
        what: Literal["autopilot-on", "autopilot-off", "substitute", "kick", "abandon"],
        player: discord.Member | None = None,
        substitute: discord.Member | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game = await self.game(interaction)
        admin = self.bot.is_admin(interaction)
        me = interaction.user.id
        if what == "abandon":
            await self.service.abandon(game.id, me, admin=admin)
            await interaction.followup.send("The game is abandoned.", ephemeral=True)
            return
        if player is None:
            raise ServiceError("Name the player concerned.")
        seat = game.seat_of(player.id)
        if seat is None:
            raise ServiceError("That player has no seat in this game.")
        if what in ("autopilot-on", "autopilot-off"):
            await self.service.set_autopilot(
                game.id, me, seat.seat, what == "autopilot-on", admin=admin
            )
            await interaction.followup.send(
                f"Autopilot is {what[10:]} for {seat.label}.", ephemeral=True
            )
            await self.bot.flow.run_autopilots(game.id)
        elif what == "substitute":
            new = substitute.id if substitute else None
            await self.service.substitute(game.id, me, seat.seat, new, admin=admin)
            await interaction.followup.send(
                f"{seat.label} is now played by <@{new}>."
                if new
                else f"{seat.label} is back with its player.",
                ephemeral=True,
            )
        else:
            await self.service.kick(game.id, me, player.id, admin=admin)
            await interaction.followup.send(f"{player.display_name} was removed.", ephemeral=True)


async def draft_message(
    bot: MountainBot, game: GameInfo, user_id: int
) -> tuple[str, discord.ui.View | None, discord.File | None]:
    """The private draft message: the two cards in hand with a Keep button for each
    empty bottom slot, and the trollsmoot so far."""
    seat = game.seat_of(user_id)
    if seat is None:
        raise NotInGameError()
    loaded = await bot.service.load(game.id)
    state = loaded.state
    if state is None:
        return "The game has not started yet.", None, None
    if state.phase != "draft" and len(state.players[seat.seat].pyramid) < 4:
        return "The draft is over.", None, None
    keeps = [a for a in legal_actions(state, seat.seat, "keep") if isinstance(a, Keep)]
    view = bot.service.rules.view(state, seat.seat)
    image = await asyncio.to_thread(pyramid_png, view, seat.seat)
    file = discord.File(io.BytesIO(image), filename="draft.png")
    if not keeps:
        done = (
            "You have kept your four starting trolls. Wait for the others, then place gates"
            " with `/mk gate`."
        )
        return done, None, file
    content = load_content()
    hand = state.players[seat.seat].draft_hand
    lines = ["Keep one of these two starting trolls (the other stays in your hand):"]
    for card_id in hand:
        card = content.trolls[card_id]
        produce = ", ".join(r.value if c is None else f"{c.value}-cart" for r, c in card.produce)
        start = ", ".join(r.value for r, _ in card.start)
        lines.append(
            f"• **{card_id}** {card.clan.value}: produces {produce}; starts you with {start}"
        )
    items = [
        button(f"{a.card} → {a.slot}", "keep", game.id, loaded.seq, f"{a.card}:{a.slot}")
        for a in keeps
    ]
    return "\n".join(lines), view_of(*items), file


def _choices(pairs: Iterable[tuple[str, str]], current: str) -> list[Choice]:
    """At most 25 choices whose value or label contains what was typed."""
    needle = current.lower().strip()
    out: list[Choice] = []
    seen: set[str] = set()
    for value, label in pairs:
        if value in seen or (
            needle and needle not in value.lower() and needle not in label.lower()
        ):
            continue
        seen.add(value)
        out.append(app_commands.Choice(name=label[:100], value=value[:100]))
        if len(out) == 25:
            break
    return out


def _horde_label(state: State, slot: str) -> str:
    row, j = horde_position(slot)
    card_id = state.horde[row][j].card
    if card_id is None:
        return slot
    card = load_content().trolls[card_id]
    produce = ", ".join(r.value if c is None else f"{c.value}-cart" for r, c in card.produce)
    cost = {0: "free", 1: "2 bribes", 2: "5 bribes"}[row]
    return f"{slot} · level-{card.level} {card.clan.value} ({produce}) · {cost}"


def _tile_order(shape: str) -> int:
    return [t.id for t in load_content().tunnels].index(shape)


def load_tile_size(shape: str) -> int:
    from rules.shapes import tunnel_size

    return tunnel_size(shape)
