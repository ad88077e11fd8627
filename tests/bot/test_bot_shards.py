"""Sharding: SHARD_COUNT and SHARD_IDS are checked as they are read (one line naming the
setting for a bad one), reach discord.py's sharded client, and the real bot process
connects as the shards it was given (the loopback Discord sends the test server only
to its own shard, as Discord does)."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest
from discord.ext import commands
from fake_discord import GUILD_ID, FakeDiscord, shard_of, user
from process_harness import BotProcess
from pydantic import ValidationError
from wire_game import ALICE

from bot.app import create_bot
from bot.client import MountainBot, ShardedMountainBot
from bot.settings import Settings, problems


def test_the_shard_settings_are_read_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", " 3, 1 ")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.shard_count == 4 and settings.shard_ids == (3, 1)
    monkeypatch.setenv("SHARD_IDS", "")
    assert Settings(_env_file=None).shard_ids is None  # type: ignore[call-arg]
    monkeypatch.delenv("SHARD_COUNT")
    monkeypatch.delenv("SHARD_IDS")
    unset = Settings(_env_file=None)  # type: ignore[call-arg]
    assert unset.shard_count is None and unset.shard_ids is None


@pytest.mark.parametrize(
    ("values", "line"),
    [
        ({"shard_ids": "0,1"}, "SHARD_IDS is '0,1': it needs SHARD_COUNT, the number of shards"),
        ({"shard_count": "2", "shard_ids": "1,2"}, "shards are numbered 0 to 1 (SHARD_COUNT is 2)"),
        ({"shard_count": "4", "shard_ids": "1,1"}, "a shard is named twice"),
        ({"shard_count": "4", "shard_ids": "0;1"}, "'0;1' is not a shard number"),
        ({"shard_count": "4", "shard_ids": "-1"}, "'-1' is not a shard number"),
        ({"shard_count": "0"}, "SHARD_COUNT is '0': input should be greater than or equal to 1"),
        ({"shard_count": "two"}, "SHARD_COUNT is 'two': input should be a valid integer"),
    ],
)
def test_a_bad_shard_setting_is_one_line_naming_it(values: dict[str, str], line: str) -> None:
    with pytest.raises(ValidationError) as caught:
        Settings(_env_file=None, **values)  # type: ignore[call-arg, arg-type]
    (said,) = problems(caught.value)
    assert line in said, said
    assert said.startswith(("SHARD_IDS is", "SHARD_COUNT is")), said


def test_the_shard_settings_reach_the_sharded_client() -> None:
    settings = Settings(discord_token=None, shard_count=4, shard_ids="1,3")  # type: ignore[arg-type]
    bot = create_bot(None, settings, scheduler_poll=0)  # type: ignore[arg-type]
    assert isinstance(bot, ShardedMountainBot)
    assert isinstance(bot, commands.AutoShardedBot) and isinstance(bot, MountainBot)
    assert bot.shard_count == 4 and bot.shard_ids == [1, 3]
    # the bot's own parts are all there
    assert bot.courier.client is bot and bot.mk.name == "mk"
    # all the shards: SHARD_IDS unset
    every = create_bot(None, Settings(discord_token=None, shard_count=2), scheduler_poll=0)  # type: ignore[arg-type]
    assert isinstance(every, discord.AutoShardedClient)
    assert every.shard_count == 2 and every.shard_ids is None
    # no sharding: the plain client, one gateway connection
    plain = create_bot(None, Settings(discord_token=None), scheduler_poll=0)  # type: ignore[arg-type]
    assert not isinstance(plain, discord.AutoShardedClient)
    assert plain.shard_count is None


async def test_the_bot_process_connects_as_its_shard_and_serves_its_server(
    tmp_path: Path,
) -> None:
    fake = FakeDiscord()
    fake.users = {ALICE: user(ALICE, "alice")}
    ours = shard_of(GUILD_ID, 2)
    env = {"SHARD_COUNT": "2", "SHARD_IDS": str(ours)}
    async with fake, BotProcess(fake, tmp_path, env=env, fork=True) as bot:
        await bot.start()
        identify = fake.identifies[bot.identify_index]
        assert identify["shard"] == [ours, 2]
        assert len(fake.identifies) == 1  # the other shard is another process's
        thread = fake.add_thread("Mountain King #1")
        pushed = await fake.slash(ALICE, thread, "games", via=bot.token)
        await fake.wait_for(lambda: fake.answers(pushed), 20.0, "the answer to /mk games")
        (answer,) = fake.answers(pushed)
        assert answer["content"].strip(), answer
        log = "\n".join(p.read_text(errors="replace") for p in bot.log_paths)
        assert "Traceback" not in log and " ERROR " not in log, bot.tail()
