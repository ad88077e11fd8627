"""Playing a turn: one slash command per action (autocomplete lists the legal choices),
`/mk dig` with a private preview and Confirm / Cancel buttons, `/mk undo` and `/mk end`.

Every action answers privately. What a finished turn owes the table (its post with the
board and the player's pyramid, the ping to whoever acts next, the game-over post)
is stored with the action by the service and sent by the courier, with the messages
this feature's makers build.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable, Sequence
from functools import partial
from typing import Self

import discord
from discord import app_commands

from bot.buttons import GameButton, template, view_of
from bot.client import MountainBot, game_language, reader
from bot.courier import Attachment, Maker, Outgoing
from bot.features.base import Feature
from bot.features.rematch import rematch_view
from bot.i18n.catalogue import ENGLISH, N_, Messages
from bot.mountain_king.alt import (
    board_alt,
    preview_alt,
    pyramid_alt,
    record_alt,
    replay_alt,
    score_alt,
)
from bot.mountain_king.choices import (
    AnyAction,
    Conversion,
    DigMineral,
    DigPedestal,
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
from bot.mountain_king.ending import summary_text
from bot.mountain_king.refusals import refusal_clause
from bot.mountain_king.texts import (
    CANCELLED,
    dig_question,
    dig_refused,
    game_over_text,
    ping_text,
    start_text,
    turn_post_text,
)
from bot.service import ActionPreview, Asked, GameInfo, Owed
from bot.service.mountain_king import MountainKingRules
from bot.service.owed import GameOver, Ping, StartPost, TurnPost
from bot.service.results import GameView
from bot.store import OwedKind
from bot.texts import (
    called_in,
    mention_only,
    mention_users,
    who,
)
from render import Preview, board_frame, board_png, pyramid_png, replay_webp, score_png
from rules import asked
from rules.actions import Action, Dig
from rules.resources import RESOURCES
from rules.view import View

RESOURCE_CHOICES = [app_commands.Choice(name=r.value, value=r.value) for r in RESOURCES]


async def play(interaction: discord.Interaction[MountainBot], action: str | Asked[Action]) -> None:
    """Defer, act, deliver what the action owes the table, and say what was done
    (privately; "the post will follow" if Discord refused a public post). `action`: in
    notation (`/mk act`), or as a command's options ask for it (`asking`)."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    bot = interaction.client
    result, delivery = await bot.act(interaction, await bot.game_id(interaction), action)
    await bot.answer(interaction, result, delivery)


def asking(kind: str, build: Callable[..., Action], *options: str | None) -> Asked[Action]:
    """The action of `kind` that a command's options ask for, built by the rules'
    builder (`rules.asked`) from the options once the game's moment allows it."""
    return Asked(kind, partial(build, *options))


CONFIRM = N_("Confirm")
CANCEL = N_("Cancel")


class ConfirmButton(GameButton, template=template("do", r"(?P<notation>.{1,80})")):
    """Play the previewed action, if the game has not moved on since the preview."""

    def __init__(self, game_id: int, seq: int, notation: str, *, label: str = CONFIRM) -> None:
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
    def rebuild(cls, match: re.Match[str], label: str | None) -> Self:
        return cls(
            int(match["game"]),
            int(match["seq"]),
            match["notation"],
            label=label or CONFIRM,
        )

    async def press(self, interaction: discord.Interaction[MountainBot]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=False)
        bot = interaction.client
        result, delivery = await bot.act(
            interaction, self.game_id, self.notation, expected_seq=self.seq
        )
        await bot.answer(interaction, result, delivery, view=None, attachments=[])


class CancelButton(GameButton, template=template("cancel")):
    """Drop the preview; nothing was played."""

    def __init__(self, game_id: int, seq: int, *, label: str = CANCEL) -> None:
        super().__init__("cancel", game_id, seq, label=label)

    @classmethod
    def rebuild(cls, match: re.Match[str], label: str | None) -> Self:
        return cls(int(match["game"]), int(match["seq"]), label=label or CANCEL)

    async def press(self, interaction: discord.Interaction[MountainBot]) -> None:
        await interaction.response.edit_message(
            content=reader(interaction).gettext(CANCELLED), view=None, attachments=[]
        )


class TurnCommands(Feature):
    """Every action of a turn, and the messages a turn owes the table."""

    buttons = (ConfirmButton, CancelButton)
    game = MountainKingRules.name

    def makers(self) -> dict[OwedKind, Maker]:
        return {
            "start": self.start_post,
            "turn": self.turn_post,
            "ping": self.ping,
            "over": self.game_over,
        }

    async def start_post(self, owed: Owed, info: GameInfo) -> Outgoing | None:
        """The game has begun: every seat named, each person mentioned once, and what
        everyone does first (the gates, the draft)."""
        post = owed.payload
        assert isinstance(post, StartPost)
        people = [p.user_id for p in post.players if p.user_id is not None and not p.ai]
        return Outgoing(start_text(post, game_language(info)), mentions=mention_users(people))

    async def turn_post(self, owed: Owed, info: GameInfo) -> Outgoing | None:
        """What the turn did: the board with its changes outlined, a zoomed crop around
        them (legible on a phone), and the player's pyramid, as they were when the turn
        ended. While the game is set up, a line (the board alone once the mountain is
        ready). It calls whoever acts next, mentioning each called player the game still
        awaits in their seat (a post sent late, after they acted, notifies nobody; its
        text stays as stored, so a resend is still recognised). Right after the turn
        ended in this process, all of it is made from the game as the turn left it
        (`Owed.fresh`), nothing read again."""
        post = owed.payload
        assert isinstance(post, TurnPost)
        mentions = mention_users(await self.still_awaited(info, post.calls, owed.fresh))
        text = turn_post_text(post, game_language(info))
        if post.images == "none":
            return Outgoing(text, mentions=mentions)
        at = post.seq
        view: View | None = (
            await self.bot.service.view(info.id, None, at_seq=at, fresh=owed.fresh)
        ).state
        if view is None:
            return None
        names = info.names
        m = game_language(info)
        board = asyncio.to_thread(board_png, view, highlight=post.cells, names=names, messages=m)
        shown = board_alt(view, post.cells, m)
        if post.images == "board":
            files = [Attachment("board.png", await board, shown)]
            return Outgoing(text, files=files, mentions=mentions)
        seat = post.player.seat
        images = [board, asyncio.to_thread(pyramid_png, view, seat, names=names, messages=m)]
        if post.cells:
            images.append(
                asyncio.to_thread(
                    board_png, view, highlight=post.cells, focus=True, names=names, messages=m
                )
            )
        made = await asyncio.gather(*images)
        files = [Attachment("board.png", made[0], shown)]
        if post.cells:
            zoom = board_alt(view, post.cells, m, focus=True)
            files.append(Attachment("board-zoom.png", made[2], zoom))
        player = pyramid_alt(view, seat, who(post.player, m), m)
        files.append(Attachment(f"pyramid-{post.player.label}.png", made[1], player))
        return Outgoing(text, files=files, mentions=mentions)

    async def ping(self, owed: Owed, info: GameInfo) -> Outgoing | None:
        """The player who must act now, mentioned alone, when no turn post called them
        (a seat that changed hands); nothing if they already acted or someone else
        holds the seat now."""
        ping = owed.payload
        assert isinstance(ping, Ping)
        if not await self.still_awaited(info, [ping.player], owed.fresh):
            return None
        return Outgoing(
            ping_text(ping, game_language(info)), mentions=mention_only(ping.player.user_id)
        )

    async def game_over(self, owed: Owed, info: GameInfo) -> Outgoing | None:
        """The winners, the game's summary, the score sheet, the game as an animation
        of the board after every turn, the record (checked to replay to the result
        before it is attached), and the Rematch button."""
        over = owed.payload
        assert isinstance(over, GameOver)
        view: GameView[View] = await self.bot.service.view(info.id, None)
        if view.state is None or view.outcome is None:
            return None
        names = info.names
        m = game_language(info)
        sheet = asyncio.to_thread(score_png, view.state, view.outcome, names=names, messages=m)
        frames = await self.bot.service.history.turn_views(info.id)
        replay = asyncio.to_thread(animate, frames, names, m)
        record = await self.bot.service.history.record(info.id)
        record_name = f"game-{info.id}.json"
        called = {s.seat: called_in(s.label, s.name, s.ai, m) for s in info.seats}
        files = [
            Attachment("score-sheet.png", await sheet, score_alt(view.outcome, called, m)),
            Attachment("replay.webp", await replay, replay_alt(len(frames), m)),
            Attachment(record_name, json.dumps(record, indent=1).encode(), record_alt(m)),
        ]
        # the summary: turns, days, the best turn, statues carted, a line per player
        entries = await self.bot.service.history.log(info.id)
        summary = summary_text(entries, [v for v, _ in frames], view.outcome, info.seats, m)
        text = f"{game_over_text(over, record_name, m)}\n{summary}"
        return Outgoing(text, files=files, view=rematch_view(info, m))

    @app_commands.command(
        name="act", description="Any action, in notation (autocomplete lists the legal ones)"
    )
    @app_commands.describe(action="The action in notation, e.g. recruit 2.3 B1 (/mk help notation)")
    async def act(self, interaction: discord.Interaction[MountainBot], action: AnyAction) -> None:
        await play(interaction, action)

    @app_commands.command(name="recruit", description="Step 2: recruit a troll from the horde")
    @app_commands.describe(
        troll="Horde slot (1.1-3.3)",
        slot="Pyramid slot it stands in",
        pedestal="Level 3: a pedestal to take from the bag (optional)",
    )
    async def recruit(
        self,
        interaction: discord.Interaction[MountainBot],
        troll: HordeSlot,
        slot: PyramidSlot,
        pedestal: RecruitPedestal | None = None,
    ) -> None:
        await play(interaction, asking("recruit", asked.recruit, troll, slot, pedestal))

    @app_commands.command(
        name="dig", description="Step 2: dig a tunnel (you confirm after a preview)"
    )
    @app_commands.describe(
        tile="Tunnel tile shape",
        cells="Cells it covers, anchor marked * (autocomplete lists legal placements)",
        mineral="Mineral you pay with (autocomplete lists those that pay for the cells)",
        pedestal="Pedestal for the anchor (optional)",
        workshop="Workshop to establish next to it, as site=name (optional)",
    )
    async def dig(
        self,
        interaction: discord.Interaction[MountainBot],
        tile: TileShape,
        cells: TileCells,
        mineral: DigMineral,
        pedestal: DigPedestal | None = None,
        workshop: NewWorkshop | None = None,
    ) -> None:
        dig = asking("dig", asked.dig, tile, cells, mineral, pedestal, workshop)
        await interaction.response.defer(ephemeral=True, thinking=True)
        game = await self.bot.game(interaction)
        # the service builds the dig where the game stands (a dig out of its moment is
        # refused as such, before its options are read), and judges it
        judged: ActionPreview[Action, View] = await self.bot.service.preview(
            game.id, interaction.user.id, dig
        )
        messages = reader(interaction)
        if judged.refusal is not None or judged.story is None:
            # the sentence alone: there is no tunnel to show
            reason = refusal_clause(judged.refusal, messages) if judged.refusal else ""
            await interaction.followup.send(dig_refused(reason, messages), ephemeral=True)
            return
        # the dig judged; Confirm plays its notation, which reads back to it
        action = judged.action
        assert isinstance(action, Dig)
        preview = Preview(action.cells, legal=True, anchor=action.anchor)
        m = game_language(game)
        image = await asyncio.to_thread(
            board_png, judged.view, preview=preview, crop=True, messages=m
        )
        shows = preview_alt(action.cells, action.anchor, messages)
        file = Attachment("dig-preview.png", image, shows).discord_file()
        confirm = ConfirmButton(
            game.id, judged.seq, judged.notation, label=messages.gettext(CONFIRM)
        )
        cancel = CancelButton(game.id, judged.seq, label=messages.gettext(CANCEL))
        await interaction.followup.send(
            dig_question(judged.story, messages),
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
        await play(interaction, asking("cast", asked.cast, spell, choice))

    @app_commands.command(name="use", description="Step 1: use a workshop your network touches")
    @app_commands.describe(site="Workshop site", conversion="give>get, e.g. stone>iron")
    async def use(
        self,
        interaction: discord.Interaction[MountainBot],
        site: WorkshopSite,
        conversion: Conversion,
    ) -> None:
        await play(interaction, asking("use", asked.use, site, conversion))

    @app_commands.command(
        name="trade", description="Trade any 4 resources for 1 (any time in your turn)"
    )
    @app_commands.describe(
        give="Four resources, e.g. stone+2coin+rune", get="The resource you take"
    )
    @app_commands.choices(get=RESOURCE_CHOICES)
    async def trade(
        self, interaction: discord.Interaction[MountainBot], give: TradeGive, get: str
    ) -> None:
        await play(interaction, asking("trade", asked.trade, give, get))

    @app_commands.command(
        name="hall", description="Step 3: dedicate a great hall over your tunnels"
    )
    @app_commands.describe(hall="Great hall", cells="Cells it covers, altar marked *")
    async def hall(
        self, interaction: discord.Interaction[MountainBot], hall: Hall, cells: HallCells
    ) -> None:
        await play(interaction, asking("hall", asked.hall, hall, cells))

    @app_commands.command(name="move", description="Step 4: spend a cart to move a statue")
    @app_commands.describe(statue="Cell of the statue", to="Cell it moves to")
    async def move(
        self, interaction: discord.Interaction[MountainBot], statue: Statue, to: StatueTarget
    ) -> None:
        await play(interaction, asking("move", asked.move, statue, to))

    @app_commands.command(name="undo", description="Take back your last action this turn")
    async def undo(self, interaction: discord.Interaction[MountainBot]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        result, delivery = await self.bot.undo(interaction, await self.bot.game_id(interaction))
        await self.bot.answer(interaction, result, delivery)

    @app_commands.command(name="end", description="End your turn")
    async def end(self, interaction: discord.Interaction[MountainBot]) -> None:
        await play(interaction, asking("end", asked.end))


def animate(
    frames: Sequence[tuple[View, tuple[str, ...]]],
    names: dict[int, str],
    messages: Messages = ENGLISH,
) -> bytes:
    """The replay: the board after every turn, with that turn's cells outlined, in the
    game's language (each board the turn post drew, or drawn for the replay alone)."""
    return replay_webp(
        [board_frame(v, highlight=cells, names=names, messages=messages) for v, cells in frames]
    )
