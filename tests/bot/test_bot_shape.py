"""The bot's parts: every button reads the custom_ids already posted (so buttons keep
working across a restart and a redeploy), one error handler answers commands and
buttons alike, and the scheduler's task lives exactly as long as its cog."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import discord
import pytest
from bot_harness import TableOf, make_bot

from bot.app import FEATURES, GENERIC_ERROR
from bot.buttons import GameButton
from bot.features.admin import AcceptSeatButton
from bot.features.lobby import AddAIButton, JoinButton, LeaveButton, StartButton
from bot.features.rematch import RematchButton
from bot.mountain_king.draft import KeepButton
from bot.mountain_king.turn import CancelButton, ConfirmButton
from bot.reminders import MuteButton, VoteButton
from bot.scheduler import Scheduler

# each feature's buttons, and the scheduler's (the reminders' Mute, the vote's ballots)
BUTTONS: list[type[GameButton]] = [
    b for feature in (*FEATURES, Scheduler) for b in getattr(feature, "buttons", ())
]

# custom_ids as the bot has posted them, with what each button must read from them
POSTED: list[tuple[str, type[GameButton], dict[str, Any]]] = [
    ("mk:join:7:0:", JoinButton, {"game_id": 7}),
    ("mk:leave:7:0:", LeaveButton, {"game_id": 7}),
    ("mk:addai:7:0:", AddAIButton, {"game_id": 7}),
    ("mk:start:7:0:", StartButton, {"game_id": 7}),
    ("mk:keep:7:12:blue-3:A2", KeepButton, {"seq": 12, "card": "blue-3", "slot": "A2"}),
    ("mk:do:7:31:dig T4 F7+G7*+G8 stone", ConfirmButton, {"notation": "dig T4 F7+G7*+G8 stone"}),
    ("mk:cancel:7:31:", CancelButton, {"seq": 31}),
    ("mk:vskip:7:40:1", VoteButton, {"seq": 40, "seat": 1, "choice": "skip"}),
    ("mk:vauto:7:40:0", VoteButton, {"seat": 0, "choice": "autopilot"}),
    ("mk:mute:7:0:", MuteButton, {"game_id": 7}),
    ("mk:rematch:7:0:", RematchButton, {"game_id": 7}),
    (
        "mk:seatok:7:3735928559:1:1456074443980800009:1456074443980800008",
        AcceptSeatButton,
        {"seq": 3735928559, "seat": 1, "user_id": 1456074443980800009},
    ),
]


def test_every_button_behaviour_is_registered_by_its_feature() -> None:
    assert {b for _, b, _ in POSTED} == set(BUTTONS)


@pytest.mark.parametrize(("posted", "cls", "fields"), POSTED)
async def test_a_posted_button_is_read_by_its_class_alone(
    posted: str, cls: type[GameButton], fields: dict[str, Any]
) -> None:
    claimed = [b for b in BUTTONS if b.__discord_ui_compiled_template__.fullmatch(posted)]
    assert claimed == [cls]
    match = cls.__discord_ui_compiled_template__.fullmatch(posted)
    assert match is not None
    drawn = discord.ui.Button[discord.ui.View](label="as drawn", custom_id=posted)
    button = await cls.from_custom_id(None, drawn, match)  # type: ignore[arg-type]
    assert button.custom_id == posted, "drawn again, it reads the same"
    assert button.game_id == 7
    for name, value in fields.items():
        assert getattr(button, name) == value


@pytest.mark.parametrize("notation", ["dig " + "x" * 77, "dig " + "x" * 95])
def test_a_button_that_could_never_be_pressed_is_refused_when_drawn(notation: str) -> None:
    with pytest.raises(ValueError, match="too long or malformed"):
        ConfirmButton(7, 31, notation)


async def test_unexpected_errors_in_commands_and_buttons_get_one_answer(
    table_of: TableOf, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with table_of("alice") as (_, bot, channel, (alice,)):
        await alice.slash(channel, "mk new", players=2)
        thread = channel.threads[-1]
        game_id = int(thread.name.rsplit("#", 1)[1])

        async def broken(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("the database fell over")

        monkeypatch.setattr(bot.service.seating, "join", broken)
        monkeypatch.setattr(bot.service.history, "log", broken)
        caplog.set_level(logging.ERROR, logger="bot")
        pressed = await alice.click(thread.history()[0], label="Join")
        typed = await alice.slash(thread, "mk log")
        assert pressed.followups[-1].content == GENERIC_ERROR
        assert typed.response.content == GENERIC_ERROR
        logged = [r.getMessage() for r in caplog.records]
        assert f"game {game_id}: unexpected error in a button" in logged
        assert f"game {game_id}: unexpected error in /mk log" in logged


async def test_the_scheduler_task_lives_as_long_as_its_cog(tmp_path: Path) -> None:
    bot = await make_bot(tmp_path / "db.sqlite3")
    try:
        cog = Scheduler(bot, poll=3600)
        await bot.add_cog(cog)
        task = cog._task
        assert task is not None and not task.done()
        await bot.close()  # removes the cogs
        await asyncio.sleep(0)
        assert task.cancelled()
        assert bot.get_cog("Scheduler") is None
    finally:
        await bot.service.store.close()


# Discord's limits on one command's tree (discord.py refuses the 26th child)
MOST_CHILDREN = 25


async def test_every_group_of_commands_fits_discords_limit(tmp_path: Path) -> None:
    """/mk and each of its groups hold at most 25 children: the bot that has them all
    installs, and /mk is full only as far as Discord allows."""
    bot = await make_bot(tmp_path / "db.sqlite3")
    try:
        await bot.add_commands()
        groups = [bot.mk]
        groups += [c for c in bot.mk.walk_commands() if isinstance(c, discord.app_commands.Group)]
        assert len(groups) >= 2, "the stats group is one of them"
        for group in groups:
            assert len(group.commands) <= MOST_CHILDREN, (group.name, len(group.commands))
        names = {c.name for c in bot.mk.commands}
        assert {"stats", "away", "games", "admin"} <= names, names
    finally:
        await bot.service.store.close()
