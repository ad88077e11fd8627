"""A bot on a real SQLite file, run by SimCord against an in-memory Discord, and the
player moves a test needs: open a game, join, start, place gates, draft by buttons,
play turns with slash commands."""

from __future__ import annotations

import io
import random
import re
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any, NamedTuple, Protocol

import discord
import pytest
import simcord
import simcord.interactions
from PIL import Image
from simcord.results import to_discord_message

from bot.app import create_bot
from bot.client import MountainBot
from bot.scheduler import Scheduler
from bot.service import GameService
from bot.service.games import TABLE_GAMES
from bot.settings import Settings
from bot.store.sqlite import SqliteStore
from rules.legal import legal_actions
from rules.selfplay import random_action
from rules.steps import seats_to_act
from tests.sqlite_template import copy_migrated

SETTLE_TIMEOUT = 30.0


async def make_bot(db: Path, *, seed: int = 1, clock: Any = None) -> MountainBot:
    """A bot over a real SQLite file (a new store connection each time, as after a
    restart of the process). A new path starts as a copy of a file the store has
    migrated (tests/sqlite_template.py); an existing file is opened as it is."""
    copy_migrated(db)
    store = SqliteStore(db, synchronous="NORMAL")
    await store.open()
    service: GameService[Any, Any] = GameService(
        store,
        TABLE_GAMES,
        rng=random.Random(seed),
        reminder_interval=timedelta(hours=12),
        clock=clock,
    )
    return create_bot(service, Settings(discord_token=None), scheduler_poll=0)


@asynccontextmanager
async def running_bot(
    db: Path, *, seed: int = 1, clock: Any = None
) -> AsyncIterator[tuple[simcord.Env, MountainBot]]:
    bot = await make_bot(db, seed=seed, clock=clock)
    try:
        # rendering (the final replay above all) runs in threads that a busy machine
        # (parallel test workers) can slow past SimCord's default 5 s settle time
        async with simcord.run(bot, settle_timeout=SETTLE_TIMEOUT) as env:
            yield env, bot
    finally:
        await bot.service.store.close()


class Table(NamedTuple):
    """A running bot, and a server's "games" channel with a member for each name given
    (`running_table`; the server is `channel.guild`). Unpacks as
    `(env, bot, channel, members)`."""

    env: simcord.Env
    bot: MountainBot
    channel: Any
    members: list[Any]


def guild_table(env: simcord.Env, *names: str) -> tuple[Any, list[Any]]:
    """A new server with a "games" channel and a member for each name, in the order
    named: the channel and the members."""
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    return channel, [guild.add_member(env.create_user(name)) for name in names]


@asynccontextmanager
async def running_table(
    db: Path, *names: str, seed: int = 1, clock: Any = None
) -> AsyncIterator[Table]:
    """`running_bot` with a server, its "games" channel and a member for each name
    (`guild_table`). Tests reach it through the `table_of` fixture (conftest.py)."""
    async with running_bot(db, seed=seed, clock=clock) as (env, bot):
        channel, members = guild_table(env, *names)
        yield Table(env, bot, channel, members)


class TableOf(Protocol):
    """The `table_of` fixture's type: `running_table` on a file in the test's folder."""

    def __call__(
        self, *names: str, seed: int = 1, clock: Any = None, db: Path | None = None
    ) -> AbstractAsyncContextManager[Table]: ...


def speaking(monkeypatch: pytest.MonkeyPatch, locales: dict[int, str]) -> None:
    """Interactions of these users come from clients in these Discord locales ("pl",
    "es-ES"...; SimCord itself always sends "en-US")."""
    made = simcord.interactions.base_payload

    def localized(*args: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = made(*args, **kwargs)
        locale = locales.get(kwargs["user_id"])
        if locale is not None:
            payload["locale"] = locale
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", localized)


def table_speaking(
    env: Any, monkeypatch: pytest.MonkeyPatch, locales: dict[str, str | None]
) -> tuple[Any, list[Any]]:
    """A server with a "games" channel and a member for each name, each on a client in
    the Discord locale given (None: SimCord's own en-US): the channel and the members,
    in the order named."""
    channel, members = guild_table(env, *locales)
    speaking(
        monkeypatch,
        {m.id: loc for m, loc in zip(members, locales.values(), strict=True) if loc is not None},
    )
    return channel, members


def visible_count(env: simcord.Env, thread: Any) -> int:
    """How many messages `thread.history()` would return, without building them."""
    stored = env.backend.messages.get(thread.id, {}).values()
    return sum(1 for m in stored if m.visible_to(None))


def history_from(env: simcord.Env, thread: Any, start: int) -> list[discord.Message]:
    """`thread.history()[start:]`, building only those messages (`history()` builds
    every message of the thread anew, a deep copy each: read after every move of a
    whole game, that is a fifth of the test's time)."""
    stored = sorted(env.backend.messages.get(thread.id, {}).values(), key=lambda m: m.id)
    visible = [m for m in stored if m.visible_to(None)]
    return [to_discord_message(env, m) for m in visible[start:]]


async def pngs(message: discord.Message) -> list[Image.Image]:
    """Every PNG attached to a message, decoded (fails if one is not a PNG)."""
    out = []
    for attachment in message.attachments:
        if attachment.filename.endswith(".png"):
            data = await attachment.read()
            assert data[:8] == b"\x89PNG\r\n\x1a\n", attachment.filename
            img = Image.open(io.BytesIO(data))
            img.load()
            out.append(img)
    return out


async def open_game(
    env: simcord.Env, players: list[Any], channel: Any, **options: Any
) -> tuple[Any, int]:
    """The first player opens a game, the others join, the first starts it. Returns the
    game's thread handle and id."""
    creator = players[0]
    result = await creator.slash(channel, "mk new", players=len(players), **options)
    assert result.acknowledged
    thread = channel.threads[-1]
    lobby = thread.history()[0]
    # the lobby's buttons by kind (their labels are in the game's language)
    for p in players[1:]:
        await p.click(lobby, custom_id=button_id(lobby, "join"))
        lobby = thread.history()[0]
    await creator.click(lobby, custom_id=button_id(lobby, "start"))
    # "Mountain King #7", in the game's language
    game_id = int(re.findall(r"\d+", thread.name)[-1])
    return thread, game_id


def button_id(message: discord.Message, kind: str) -> str:
    """The custom_id of a channel message's button of this kind (`mk:<kind>:...`)."""
    ids = [custom_id for custom_id, _ in buttons_on(message)]
    return next(i for i in ids if i.startswith(f"mk:{kind}:"))


def buttons_on(message: discord.Message) -> list[tuple[str, str]]:
    """The (custom_id, label) of each button of a channel message, in order."""
    return [
        (child.custom_id or "", child.label or "")
        for row in message.components
        if isinstance(row, discord.ActionRow)
        for child in row.children
        if isinstance(child, discord.Button)
    ]


async def place_gates(bot: MountainBot, players: list[Any], thread: Any, game_id: int) -> None:
    """Every gate, by `/mk gate` from the player of the seat to act (the first legal
    gate each), until the gates phase is over."""
    by_user = {p.id: p for p in players}
    while True:
        state = (await bot.service.load(game_id)).state
        assert state is not None
        if state.phase != "gates":
            return
        seat = seats_to_act(state)[0]
        controller = (await bot.service.info(game_id)).seats[seat].controller_id
        assert controller in by_user, f"seat {seat} is not played by one of these players"
        point = str(legal_actions(state, seat, "gate")[0]).split()[1]
        result = await by_user[controller].slash(thread, "mk gate", point=point)
        assert result.acknowledged


async def set_up(
    bot: MountainBot,
    players: list[Any],
    thread: Any,
    game_id: int,
    *,
    kept: str = "kept your four starting trolls",
) -> None:
    """The setup as the rulebook orders it: every gate placed (`place_gates`), then
    every player drafts by buttons (`draft_all`). The first turn is next."""
    await place_gates(bot, players, thread, game_id)
    await draft_all(players, thread, kept=kept)
    state = (await bot.service.load(game_id)).state
    assert state is not None and state.phase == "play", state and state.phase


async def draft_all(
    players: list[Any], thread: Any, *, kept: str = "kept your four starting trolls"
) -> None:
    """Every player opens the private draft and keeps the first offered troll four
    times, by buttons (`kept`: what the last answer says, in the reader's language)."""
    for p in players:
        result = await p.slash(thread, "mk draft")
        for _ in range(4):
            message = result.response
            buttons = buttons_of(message)
            assert buttons, message.content
            click = await p.click(message.message, custom_id=buttons[0]["custom_id"])
            assert click.acknowledged
        assert kept in result.response.content


async def play_to_end(
    env: simcord.Env,
    bot: MountainBot,
    by_seat: dict[int, Any],
    thread: Any,
    game_id: int,
    *,
    seed: int = 3,
) -> int:
    """Play random legal actions with `/mk act` from the first turn (after `set_up`)
    until the game is over. Returns how many commands were sent."""
    rng = random.Random(seed)
    sent = 0
    while True:
        loaded = await bot.service.load(game_id)
        state = loaded.state
        assert state is not None
        if state.phase == "over":
            return sent
        assert state.phase == "play", "set the game up first"
        seat = seats_to_act(state)[0]
        action = random_action(state, seat, rng)
        result = await by_seat[seat].slash(thread, "mk act", action=str(action))
        assert result.acknowledged
        sent += 1
        assert sent < 3000


def scheduler(bot: MountainBot) -> Scheduler:
    """The bot's scheduler cog (tests run its rounds themselves)."""
    cog = bot.get_cog("Scheduler")
    assert isinstance(cog, Scheduler)
    return cog


async def run_duties(bot: MountainBot, *, rounds: int = 2000) -> int:
    """Scheduler rounds until the AI owes no move; returns how many moves it played."""
    played = 0
    for _ in range(rounds):
        done = await scheduler(bot).round()
        played += done.moves
        if not done.moves:
            return played
    raise AssertionError("the AI seats never stopped")


def buttons_of(message: Any) -> list[dict[str, Any]]:
    """The buttons of a SimCord response message, in order."""
    return [c for row in message.components for c in row.get("components", [])]


async def finished(bot: MountainBot, game_id: int, *, seed: int = 5) -> None:
    """Play random legal actions through the service to the end, the turn posts marked
    sent unseen (this test is about the end): only the game-over post is still owed."""
    service = bot.service
    info = await service.info(game_id)
    rng = random.Random(seed)
    while True:
        state = (await service.load(game_id)).state
        assert state is not None
        if state.phase == "over":
            break
        seat = seats_to_act(state)[0]
        user = info.seats[seat].controller_id
        assert user is not None
        await service.act(game_id, user, random_action(state, seat, rng))
    for owed in await service.outbox.owed(game_id=game_id, everything=True, limit=2000):
        if owed.record.kind != "over":
            await service.outbox.delivered(owed.id)
