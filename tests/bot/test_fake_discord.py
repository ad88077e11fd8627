"""The loopback Discord stand-in itself, driven by plain discord.py (no bot code), and
the process harness that runs the real bot against it."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
import yarl
from fake_discord import APP_ID, CHANNEL_ID, EPHEMERAL, FakeDiscord, user
from process_harness import BotProcess

ALICE, BOB = "930000000000000001", "930000000000000002"
PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 32


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    fake.users = {ALICE: user(ALICE, "alice"), BOB: user(BOB, "bob")}
    fake.add_thread("Mountain King #1")
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()
    assert not fake.internal_errors, fake.internal_errors


@asynccontextmanager
async def connected(fake: FakeDiscord, token: str = "plain-token") -> AsyncIterator[Any]:
    """A bare discord.Client logged in to the fake; `client.interactions` collects
    every interaction it receives."""
    saved = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    client: Any = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05)
    client.interactions = []

    @client.event
    async def on_interaction(interaction: discord.Interaction[Any]) -> None:
        client.interactions.append(interaction)

    task = asyncio.create_task(client.start(token))
    try:
        await fake.wait_for(lambda: client.is_ready() or task.done(), what="the client")
        if task.done():
            task.result()
        yield client
    finally:
        await client.close()
        await asyncio.wait([task], timeout=5)
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved


def thread_id(fake: FakeDiscord) -> str:
    return next(iter(fake.threads))


def png(name: str) -> discord.File:
    return discord.File(io.BytesIO(PNG), filename=name)


async def test_nonce_dedup_inside_the_window_only(fake: FakeDiscord) -> None:
    tid = thread_id(fake)
    async with connected(fake) as client:
        thread = client.get_channel(int(tid))
        first = await thread.send("turn 1", nonce="turn-1", files=[png("board.png")])
        # discord.py puts nonce + enforce_nonce in payload_json of the multipart body
        assert fake.requests[-1].json["nonce"] == "turn-1"
        assert fake.requests[-1].json["enforce_nonce"] is True
        again = await thread.send("turn 1", nonce="turn-1", files=[png("board.png")])
        assert again.id == first.id and again.nonce == "turn-1"
        assert len(fake.channel_messages(tid)) == 1 and len(fake.dedup_hits) == 1
        # another nonce, or no nonce at all, is a new message
        other = await thread.send("turn 1", nonce="turn-1b")
        plain = await thread.send("turn 1")
        assert len({first.id, other.id, plain.id}) == 3
        # after the window the same nonce makes a second message
        fake.advance(fake.nonce_window + 1)
        late = await thread.send("turn 1", nonce="turn-1", files=[png("board.png")])
        assert late.id != first.id
        assert len(fake.channel_messages(tid)) == 4
        # Discord refuses nonces over 25 characters
        with pytest.raises(discord.HTTPException) as refused:
            await thread.send("x", nonce="n" * 26)
        assert refused.value.status == 400 and refused.value.code == 50035


async def test_history_is_newest_first(fake: FakeDiscord) -> None:
    tid = thread_id(fake)
    async with connected(fake) as client:
        thread = client.get_channel(int(tid))
        sent = [await thread.send(text, nonce=f"h{n}") for n, text in enumerate("abcde")]
        await client.get_channel(int(CHANNEL_ID)).send("elsewhere")
        assert [m.content async for m in thread.history(limit=3)] == ["e", "d", "c"]
        assert [m.content async for m in thread.history(limit=None)] == list("edcba")
        older = [m.content async for m in thread.history(limit=10, before=sent[2])]
        assert older == ["b", "a"]
        after = [m.content async for m in thread.history(limit=10, after=sent[1])]
        assert after == ["c", "d", "e"]  # discord.py turns `after` into oldest first
        last = await anext(thread.history(limit=1))
        assert last.author.id == client.user.id and last.nonce is None  # not stored
        # the raw route: default limit 50, newest first, no nonce
        raw = await client.http.logs_from(int(tid), 100)
        assert [m["content"] for m in raw] == list("edcba")
        assert all("nonce" not in m for m in raw)


async def test_archived_thread_refuses_posts_until_unarchived(fake: FakeDiscord) -> None:
    tid = thread_id(fake)
    async with connected(fake) as client:
        thread = client.get_channel(int(tid))
        first = await thread.send("before")
        await fake.archive(tid)
        with pytest.raises(discord.HTTPException) as archived:
            await thread.send("while archived")
        assert archived.value.status == 400 and archived.value.code == 50083
        with pytest.raises(discord.HTTPException) as edit:
            await first.edit(content="edited")
        assert edit.value.code == 50083
        # THREAD_UPDATE made discord.py drop the archived thread from its cache
        await fake.wait_for(lambda: client.get_channel(int(tid)) is None, what="cache drop")
        fetched = await client.fetch_channel(int(tid))
        assert isinstance(fetched, discord.Thread) and fetched.archived
        reopened = await fetched.edit(archived=False)
        assert not reopened.archived and not fake.threads[tid]["thread_metadata"]["archived"]
        after = await reopened.send("after")
        assert after.content == "after"
        edited = await first.edit(content="edited")
        assert edited.content == "edited"
        assert [m["content"] for m in fake.channel_messages(tid)] == ["edited", "after"]


async def test_injected_failures(fake: FakeDiscord) -> None:
    tid = thread_id(fake)
    async with connected(fake) as client:
        thread = client.get_channel(int(tid))
        fake.fail("POST", f"/channels/{tid}/messages", 403, 50001, times=1)
        with pytest.raises(discord.Forbidden) as forbidden:
            await thread.send("a")
        assert forbidden.value.code == 50001
        await thread.send("b")  # times=1: only once
        fake.fail("*", "/channels/*/messages", 404, 10003, message="Unknown Channel")
        for _ in range(2):
            with pytest.raises(discord.NotFound) as missing:
                await thread.send("c")
            assert missing.value.code == 10003 and "Unknown Channel" in missing.value.text
        fake.clear_failures()
        fake.fail("POST", "/channels/*/messages", 400, 50035)
        with pytest.raises(discord.HTTPException) as bad:
            await thread.send("d")
        assert bad.value.status == 400 and bad.value.code == 50035
        fake.clear_failures()
        await thread.send("e")
        assert [m["content"] for m in fake.channel_messages(tid)] == ["b", "e"]
        with pytest.raises(ValueError, match="retries"):
            fake.fail("POST", "*", 500)


async def test_follow_ups_on_a_stored_token_and_its_expiry(fake: FakeDiscord) -> None:
    tid = thread_id(fake)
    async with connected(fake) as client:
        pushed = await fake.slash(ALICE, tid, "end")
        await fake.wait_for(lambda: client.interactions, what="the interaction")
        interaction = client.interactions[0]
        with pytest.raises(discord.NotFound) as early:  # no follow-up before the ACK
            await interaction.followup.send("too early")
        assert early.value.code == 10015
        assert str(interaction.id) == pushed.id and interaction.token == pushed.token
        await interaction.response.defer(ephemeral=True, thinking=True)
        assert fake.interactions[pushed.id].callbacks == [5]
        assert fake.answers(pushed) == []  # still "thinking"
        # what a restarted process can do with the stored token: an application
        # webhook (type 3, as interaction.followup builds it) ...
        hook = discord.Webhook.from_state(
            {"id": int(APP_ID), "type": 3, "token": pushed.token}, client._connection
        )
        done = await hook.send("Done: you ended your turn.", ephemeral=True, wait=True)
        # ... the first follow-up after a defer replaces the "thinking" message
        answers = fake.answers(pushed)
        assert [a["content"] for a in answers] == ["Done: you ended your turn."]
        assert answers[0]["id"] == str(done.id) and answers[0]["flags"] & EPHEMERAL
        assert fake.followups(pushed)[0]["id"] == str(done.id)
        # ... or Webhook.partial (type 1: no ephemeral=, and without wait=True Discord
        # answers 204 and send() returns None)
        partial = discord.Webhook.partial(int(APP_ID), pushed.token, client=client)
        assert await partial.send("second") is None
        assert [a["content"] for a in fake.answers(pushed)][-1] == "second"
        webhook = next(r for r in reversed(fake.requests) if r.path.startswith("/webhooks/"))
        assert webhook.method == "POST" and webhook.path == f"/webhooks/{APP_ID}/{pushed.token}"
        # a second acknowledgement is refused
        callback = f"{fake.api_base}/interactions/{pushed.id}/{pushed.token}/callback"
        async with (
            aiohttp.ClientSession() as session,
            session.post(callback, json={"type": 5}) as again,
        ):
            assert again.status == 400 and (await again.json())["code"] == 40060
        fake.advance(fake.token_ttl + 1)
        with pytest.raises(discord.NotFound) as expired:
            await hook.send("too late", wait=True)
        assert expired.value.code == 10015


async def test_request_hook_after_and_before_storing(fake: FakeDiscord) -> None:
    tid = thread_id(fake)
    ran: list[str] = []

    def turn_post(method: str, path: str, body: Any) -> bool:
        return (
            method == "POST"
            and path == f"/channels/{tid}/messages"
            and bool(body and body.get("attachments"))
        )

    async def action() -> None:
        ran.append("action")
        await asyncio.sleep(0)

    async with connected(fake) as client:
        thread = client.get_channel(int(tid))
        hook = fake.on_request(turn_post, action, store_first=True)
        await thread.send("no files: the hook does not match")
        with pytest.raises((aiohttp.ClientError, OSError)):
            await thread.send("turn", files=[png("board.png")], nonce="t1")
        assert hook.fired.is_set() and hook.done.is_set() and ran == ["action"]
        assert hook.request is not None and hook.request.status == 0
        stored = fake.channel_messages(tid)
        assert [m["content"] for m in stored] == ["no files: the hook does not match", "turn"]
        # once only: the resend goes through, and the nonce finds the stored one
        again = await thread.send("turn", files=[png("board.png")], nonce="t1")
        assert str(again.id) == stored[1]["id"] and len(fake.channel_messages(tid)) == 2

        hook = fake.on_request(turn_post, action, store_first=False)
        with pytest.raises((aiohttp.ClientError, OSError)):
            await thread.send("lost", files=[png("board.png")], nonce="t2")
        assert hook.done.is_set() and ran == ["action", "action"]
        assert len(fake.channel_messages(tid)) == 2  # never reached "Discord"
        await thread.send("lost", files=[png("board.png")], nonce="t2")
        assert len(fake.channel_messages(tid)) == 3


async def test_successive_gateway_connections(fake: FakeDiscord) -> None:
    tid = thread_id(fake)
    async with connected(fake, "first-token") as first:
        assert fake.identified.is_set() and len(fake.identifies) == 1
        await fake.slash(ALICE, tid, "status")
        await fake.wait_for(lambda: first.interactions, what="the first client's interaction")
    await fake.wait_for(lambda: not fake.connected, what="the disconnect")
    with pytest.raises(RuntimeError, match="no bot is connected"):
        await fake.slash(ALICE, tid, "status")
    async with connected(fake, "second-token") as second:
        await fake.wait_identified(2)
        assert fake.connections == 2
        assert [i["token"] for i in fake.identifies] == ["first-token", "second-token"]
        assert second.get_channel(int(tid)) is not None  # GUILD_CREATE came again
        pushed = await fake.slash(BOB, tid, "status")
        await fake.wait_for(lambda: second.interactions, what="the second client's interaction")
        assert str(second.interactions[0].id) == pushed.id
        # a component click on a stored message carries that message
        message = await second.get_channel(int(tid)).send("lobby")
        clicked = await fake.click(BOB, tid, str(message.id), "mk:join:1")
        await fake.wait_for(lambda: len(second.interactions) == 2, what="the click")
        click = second.interactions[1]
        assert str(click.id) == clicked.id and click.message.id == message.id
        assert click.data["custom_id"] == "mk:join:1"
    assert len(first.interactions) == 1


async def test_the_bot_process_restarts(fake: FakeDiscord, tmp_path: Path) -> None:
    async with BotProcess(fake, tmp_path, fork=True) as bot:
        await bot.start()
        assert [c["name"] for c in fake.commands] == ["mk", "cave"]  # the table's, Cave Troll's
        first_pid, first_token = bot.pid, bot.token
        await bot.kill()
        assert not bot.running
        await fake.wait_for(lambda: not fake.connected, what="the dead bot's disconnect")
        await bot.start()
        assert bot.pid != first_pid and bot.token != first_token
        assert [i["token"] for i in fake.identifies] == [first_token, bot.token]
        assert bot.identify_index == 1 and fake.connections == 2
        # the database file lives on between the processes
        assert bot.database.exists()
    assert not bot.running
