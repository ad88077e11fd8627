"""Playing Cave Troll: one slash command per action under `/cave` (autocomplete lists the
legal places, pieces, artifacts and paths), the Troll flight's `flee` and `stay`
(answered out of turn by each player the bot calls), `act` for any notation, `undo` and
`end`; and the messages a game of Cave Troll owes its thread.

Every action answers privately. What it owes the table (the start post, a turn post
with the cave and the places it changed, the call to whoever acts next, a Troll
flight's call with its room, pieces and deadline, the game-over post) is stored with
the action by the service and sent by the courier, with the messages these makers
build, for Cave Troll's games only (`game`).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from datetime import datetime
from functools import partial

import discord
from discord import app_commands

from bot.cave_troll.alt import cave_alt, record_alt
from bot.cave_troll.choices import (
    AnyAction,
    Artifact,
    Fleeing,
    FleePlace,
    HelmPath,
    KillTarget,
    MovePath,
    Mover,
    PlayTarget,
    PushPlace,
    PushTarget,
    Sender,
    SendPlace,
    Where,
)
from bot.cave_troll.texts import (
    GROUP,
    FlightFacts,
    game_over_text,
    ping_text,
    start_text,
    turn_post_text,
)
from bot.client import MountainBot, game_language
from bot.courier import Attachment, Maker, Outgoing
from bot.features.base import Feature
from bot.features.rematch import rematch_view
from bot.service import Asked, GameInfo, Owed
from bot.service.cave_troll import CaveTrollRules
from bot.service.owed import GameOver, Ping, StartPost, TurnPost
from bot.service.results import GameView
from bot.store import OwedKind
from bot.texts import called_in, mention_only, mention_users
from cave_troll import asked
from cave_troll.actions import Action
from cave_troll.view import CaveView
from render.cave_troll import cave_png


async def play(interaction: discord.Interaction[MountainBot], action: str | Asked[Action]) -> None:
    """Defer, act, deliver what the action owes the table, and say what was done
    (privately). `action`: in notation (`act`), or as a command's options ask for it."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    bot = interaction.client
    game = await bot.game(interaction)
    result, delivery = await bot.act(interaction, game.id, action)
    await bot.answer(interaction, result, delivery)


def asking(kind: str, build: Callable[..., Action], *options: str | None) -> Asked[Action]:
    """The action of `kind` that a command's options ask for, built by the rules'
    builder (`cave_troll.asked`) once the game's moment allows it."""
    return Asked(kind, partial(build, *options))


def flight_facts(view: CaveView, deadline: datetime | None = None) -> FlightFacts | None:
    """The Troll flight the view shows, if one awaits answers."""
    flight = view["flight"]
    if flight is None:
        return None
    colours = [p["colour"] for p in view["players"]]
    pieces = tuple(
        (colours[p["owner"]], p["kind"])
        for p in view["pieces"]
        if p["at"] == flight["room"] and p["kind"] != "troll"
    )
    return FlightFacts(flight["room"], pieces, deadline)


def names_of(info: GameInfo) -> dict[int, str]:
    """Each seat's player as the images name them (beside the colour)."""
    return {s.seat: s.name for s in info.seats if s.name}


class TurnCommands(Feature):
    """Every action of a Cave Troll turn and of a Troll flight, and the messages a game
    of Cave Troll owes its thread."""

    group = GROUP
    game = CaveTrollRules.name

    def makers(self) -> dict[OwedKind, Maker]:
        return {
            "start": self.start_post,
            "turn": self.turn_post,
            "ping": self.ping,
            "over": self.game_over,
        }

    async def start_post(self, owed: Owed, info: GameInfo) -> Outgoing | None:
        post = owed.payload
        assert isinstance(post, StartPost)
        people = [p.user_id for p in post.players if p.user_id is not None and not p.ai]
        return Outgoing(start_text(post, game_language(info)), mentions=mention_users(people))

    async def turn_post(self, owed: Owed, info: GameInfo) -> Outgoing | None:
        """What the turn (or a flight's answer) did, the cave as it left it with the
        places it changed outlined, and the call to whoever acts next: their turn, or a
        Troll flight (its room, the pieces there, the deadline). A called player is
        mentioned only while the game still awaits them."""
        post = owed.payload
        assert isinstance(post, TurnPost)
        mentions = mention_users(await self.still_awaited(info, post.calls, owed.fresh))
        m = game_language(info)
        got: GameView[CaveView] = await self.bot.service.view(
            info.id, None, at_seq=post.seq, fresh=owed.fresh
        )
        view = got.state
        if view is None:
            return None
        flight = flight_facts(view, post.deadline)
        text = turn_post_text(post, flight, m)
        names = names_of(info)
        image = await asyncio.to_thread(
            partial(cave_png, view, changed=post.cells, names=names, messages=m)
        )
        shows = cave_alt(view, post.cells, names, m)
        return Outgoing(text, files=[Attachment("cave.png", image, shows)], mentions=mentions)

    async def ping(self, owed: Owed, info: GameInfo) -> Outgoing | None:
        """The player who must act now, mentioned alone: to a Troll flight (its room,
        the pieces there, by when) or to their turn; nothing if they already acted."""
        ping = owed.payload
        assert isinstance(ping, Ping)
        if not await self.still_awaited(info, [ping.player], owed.fresh):
            return None
        got: GameView[CaveView] = await self.bot.service.view(info.id, None, fresh=owed.fresh)
        flight = None if got.state is None else flight_facts(got.state, ping.deadline)
        text = ping_text(ping, flight, game_language(info))
        return Outgoing(text, mentions=mention_only(ping.player.user_id))

    async def game_over(self, owed: Owed, info: GameInfo) -> Outgoing | None:
        """The winners, everyone's gold by where it came from, the cave as the game
        ended, the record, and the Rematch button."""
        over = owed.payload
        assert isinstance(over, GameOver)
        got: GameView[CaveView] = await self.bot.service.view(info.id, None)
        if got.state is None or got.outcome is None:
            return None
        m = game_language(info)
        names = names_of(info)
        image = await asyncio.to_thread(partial(cave_png, got.state, names=names, messages=m))
        record = await self.bot.service.history.record(info.id)
        record_name = f"game-{info.id}.json"
        called = {s.seat: called_in(s.label, s.name, s.ai, m) for s in info.seats}
        files = [
            Attachment("cave.png", image, cave_alt(got.state, (), names, m)),
            Attachment(record_name, json.dumps(record, indent=1).encode(), record_alt(m)),
        ]
        text = game_over_text(over, got.outcome, called, record_name, m)
        return Outgoing(text, files=files, view=rematch_view(info, m))

    # --- the commands ------------------------------------------------------------------

    @app_commands.command(
        name="act", description="Any action, in notation (autocomplete lists the legal ones)"
    )
    @app_commands.describe(action="The action in notation, e.g. move knight@A1 A4 (/cave help)")
    async def act(self, interaction: discord.Interaction[MountainBot], action: AnyAction) -> None:
        await play(interaction, action)

    @app_commands.command(name="draw", description="Draw a token from your stack (1 action)")
    async def draw(self, interaction: discord.Interaction[MountainBot]) -> None:
        await play(interaction, asking("draw", asked.draw))

    @app_commands.command(
        name="place", description="Place the token you drew: an entrance, or a room"
    )
    @app_commands.describe(where="An entrance (adventurer), a room (Cave Troll, Treasure)")
    async def place(self, interaction: discord.Interaction[MountainBot], where: Where) -> None:
        await play(interaction, asking("place", asked.place, where))

    @app_commands.command(name="move", description="Move one of your pieces through a door")
    @app_commands.describe(
        piece="Your piece, e.g. knight@A1", to="Where to (the cloaked one: two steps, A4>A7)"
    )
    async def move(
        self, interaction: discord.Interaction[MountainBot], piece: Mover, to: MovePath
    ) -> None:
        await play(interaction, asking("move", asked.move, piece, to))

    @app_commands.command(
        name="push", description="Your Wraith pushes an adventurer out of its room"
    )
    @app_commands.describe(target="The adventurer, e.g. blue-explorer@A3", to="Where to")
    async def push(
        self, interaction: discord.Interaction[MountainBot], target: PushTarget, to: PushPlace
    ) -> None:
        await play(interaction, asking("push", asked.push, target, to))

    @app_commands.command(name="kill", description="Your Orc discards an adventurer beside it")
    @app_commands.describe(target="The adventurer, e.g. blue-explorer@A3")
    async def kill(self, interaction: discord.Interaction[MountainBot], target: KillTarget) -> None:
        await play(interaction, asking("kill", asked.kill, target))

    @app_commands.command(name="play", description="Play one of your artifacts (1 action)")
    @app_commands.describe(
        artifact="The artifact",
        target="Its target: a piece (Helm, Cloak) or a place (the others)",
        to="The Helm's path, up to three steps, e.g. A4>A1",
    )
    async def play_artifact(
        self,
        interaction: discord.Interaction[MountainBot],
        artifact: Artifact,
        target: PlayTarget,
        to: HelmPath | None = None,
    ) -> None:
        await play(interaction, asking("play", asked.play, artifact, target, to))

    @app_commands.command(
        name="send", description="Send an adventurer away with the Chalice (no action)"
    )
    @app_commands.describe(piece="Your adventurer, e.g. explorer@A1", to="Where to")
    async def send(
        self, interaction: discord.Interaction[MountainBot], piece: Sender, to: SendPlace
    ) -> None:
        await play(interaction, asking("send", asked.send, piece, to))

    @app_commands.command(
        name="flee", description="Troll flight: one of your pieces flees through a door"
    )
    @app_commands.describe(piece="Your piece in the Troll's room", to="Where it flees")
    async def flee(
        self, interaction: discord.Interaction[MountainBot], piece: Fleeing, to: FleePlace
    ) -> None:
        await play(interaction, asking("flee", asked.flee, piece, to))

    @app_commands.command(
        name="stay", description="Troll flight: the rest of your pieces stay (and are lost)"
    )
    async def stay(self, interaction: discord.Interaction[MountainBot]) -> None:
        await play(interaction, asking("stay", asked.stay))

    @app_commands.command(name="undo", description="Take back your last action this turn")
    async def undo(self, interaction: discord.Interaction[MountainBot]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game = await self.bot.game(interaction)
        result, delivery = await self.bot.undo(interaction, game.id)
        await self.bot.answer(interaction, result, delivery)

    @app_commands.command(name="end", description="End your turn")
    async def end(self, interaction: discord.Interaction[MountainBot]) -> None:
        await play(interaction, asking("end", asked.end))
