"""The outbox, end to end: the real bot process is SIGKILLed in the middle of
delivering what a move owes the table, started again on the same database, and must
then deliver everything exactly once.

A player ends their turn with `/mk end`. The move is stored together with what it
owes: the public turn post (text, board.png and the player's pyramid PNG) that calls
the next player itself, a fresh channel message mentioning them alone ("<@id> (Orange):
it's your turn ..."), and the private answer to the player, a follow-up on their
interaction's token. The process is killed when its turn post reaches the fake
Discord:

- after-the-post: Discord stored the post but the bot never heard back, so after the
  restart it must not post it again (the same nonce makes Discord return the first
  message, or the bot finds it in the channel's history);
- before-the-post: the post never reached Discord, so the restarted bot must send it;
- down-past-the-nonce-window: like after-the-post, but the bot stays down longer than
  Discord's nonce deduplication lasts, so only a look at the history avoids a second
  post.

In every case the thread ends up with one message, the turn post calling the next
player (no separate ping), and the player with one answer on their interaction token.

The game's last action is answered before its game-over post (score sheet, replay,
record) is made; the process is killed when that post reaches the fake Discord, in the
same three ways, and the restarted bot must deliver it exactly once, the answer and
the last turn's post not again.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import shutil
import sqlite3
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from fake_discord import FakeDiscord, Pushed, user
from process_harness import BotProcess
from wire_game import ALICE, BOB, game_to_first_recruit, game_to_last_action

from bot.service import GameService, MountainKingRules
from bot.store.sqlite import SqliteStore

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
DELIVERY_TIMEOUT = 20.0  # from the restart until everything owed is there
QUIET = 0.5  # then, with the outbox drained, nothing more may arrive for this long


async def set_up_game(db: Path, thread: str) -> tuple[int, int]:
    """A 2-player game in `thread`, played through the service on the database file up
    to the first player's recruit. Returns (the player to act, the other one).
    (synchronous=NORMAL: no wait for the disk at each commit; the file holds the same,
    and what is crashed later is the bot's process, not the machine.)"""
    store = SqliteStore(db, synchronous="NORMAL")
    await store.open()
    try:
        service: GameService[Any, Any] = GameService(
            store, MountainKingRules(), rng=random.Random(2), reminder_interval=timedelta(hours=12)
        )
        return await game_to_first_recruit(service, thread)
    finally:
        await store.close()


async def set_up_last_action(db: Path, thread: str) -> tuple[int, str]:
    """A 2-player game in `thread` played through the service to the eve of its end.
    Returns (the player of its last action, that action)."""
    store = SqliteStore(db, synchronous="NORMAL")  # as in set_up_game
    await store.open()
    try:
        service: GameService[Any, Any] = GameService(
            store, MountainKingRules(), rng=random.Random(3), reminder_interval=timedelta(hours=12)
        )
        return await game_to_last_action(service, thread)
    finally:
        await store.close()


async def arrives(check: Callable[[], Any], fake: FakeDiscord) -> bool:
    """Whether `check` holds within DELIVERY_TIMEOUT (polled every 10 ms)."""
    try:
        await fake.wait_for(check, DELIVERY_TIMEOUT)
    except TimeoutError:
        return False
    return True


def undelivered(db: Path) -> int:
    """The owed messages the database still holds undelivered (read-only, beside the
    running bot)."""
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as reader:
        (count,) = reader.execute(
            "SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL"
        ).fetchone()
    return int(count)


def left_undelivered(db: Path, scratch: Path) -> int:
    """`undelivered` of the database as the killed process left it, read from a copy
    (the file and its write-ahead log): opening the file itself would recover its log
    index, and the restarted bot must find it as the crash left it."""
    scratch.mkdir()
    for part in (db, db.with_name(db.name + "-wal")):
        if part.exists():
            shutil.copyfile(part, scratch / part.name)
    with contextlib.closing(sqlite3.connect(scratch / db.name)) as reader:
        (count,) = reader.execute(
            "SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL"
        ).fetchone()
    return int(count)


async def nothing_more_arrives(fake: FakeDiscord, db: Path) -> bool:
    """Whether the restarted bot marks every owed message delivered, and the fake
    Discord then gets no request at all for QUIET seconds (False if that does not happen
    within DELIVERY_TIMEOUT).

    This is where a second copy would show. The killed process left the message it was
    sending undelivered in the database (checked before the restart), and the restarted
    bot sends it, or finds it sent (nonce, history), in its start-up round, before it
    marks it delivered, and marks it only once Discord answered: with no row left
    undelivered, every copy it sent for them is in the fake's records. A copy sent after
    the mark would come from the same round going on without waiting for anything,
    within milliseconds, and each request that arrives starts the quiet window again.
    (A fixed 2 s from the restart, as before, could end before the round: the restarted
    bot is ready only after discord.py's 2 s wait for the servers, and the game-over
    post, found already sent, was then re-rendered for its nonce after the check.)"""
    deadline = time.monotonic() + DELIVERY_TIMEOUT
    while undelivered(db):
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.01)
    seen, since = len(fake.requests), time.monotonic()
    while time.monotonic() - since < QUIET:
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.01)
        if len(fake.requests) != seen:
            seen, since = len(fake.requests), time.monotonic()
    return True


def turn_posts(fake: FakeDiscord, thread: str) -> list[dict[str, Any]]:
    return [
        m
        for m in fake.channel_messages(thread)
        if any(f.filename == "board.png" for f in m["_files"])
    ]


def game_over_posts(fake: FakeDiscord, thread: str) -> list[dict[str, Any]]:
    return [
        m
        for m in fake.channel_messages(thread)
        if any(f.filename == "score-sheet.png" for f in m["_files"])
    ]


def pings(fake: FakeDiscord, thread: str, user_id: int) -> list[dict[str, Any]]:
    """Every message a member sees in the thread that calls `user_id` to play."""
    return [
        m
        for m in fake.channel_messages(thread)
        if f"<@{user_id}>" in m["content"] and "it's your turn" in m["content"]
    ]


def report(fake: FakeDiscord, bot: BotProcess, thread: str, pushed: Pushed | None) -> str:
    lines = ["thread messages (oldest first):"]
    for m in fake.channel_messages(thread):
        files = [f.filename for f in m["_files"]]
        via = "interaction" if m["_token"] else "channel"
        lines.append(f"  {m['id']} [{via}] {m['content'][:90]!r} files={files}")
    if pushed is not None:
        answers = [a["content"][:90] for a in fake.answers(pushed)]
        lines.append(f"answers to the interaction: {answers}")
        lines.append(f"callbacks: {fake.interactions[pushed.id].callbacks}")
    lines.append(f"nonce dedup hits: {len(fake.dedup_hits)}")
    lines += [f"fake_discord error: {e}" for e in fake.internal_errors]
    lines.append("requests:")
    lines += [f"  {r.status or 'dropped'} {r.method} {r.path}" for r in fake.requests[-40:]]
    return "\n".join(lines) + "\n" + bot.tail()


# when the process dies: once the message reached Discord and was stored there, before
# it did, or (after it did) down for longer than Discord remembers a nonce
CRASH_MOMENTS = pytest.mark.parametrize(
    ("store_first", "down_past_window"),
    [
        pytest.param(True, False, id="after-the-post"),
        pytest.param(False, False, id="before-the-post"),
        pytest.param(True, True, id="down-past-the-nonce-window"),
    ],
)


def two_player_discord() -> tuple[FakeDiscord, str]:
    """The stand-in Discord with alice, bob and the game's thread."""
    fake = FakeDiscord()
    fake.users = {ALICE: user(ALICE, "alice"), BOB: user(BOB, "bob")}
    return fake, fake.add_thread("Mountain King #1")


@CRASH_MOMENTS
async def test_a_crash_mid_delivery_delivers_everything_once(
    tmp_path: Path, store_first: bool, down_past_window: bool
) -> None:
    fake, thread = two_player_discord()
    db = tmp_path / "db.sqlite3"
    mover, other = await set_up_game(db, thread)
    pushed: Pushed | None = None

    async with fake, BotProcess(fake, tmp_path, database=db, fork=True) as bot:

        def fail(why: str) -> None:
            pytest.fail(f"{why}\n{report(fake, bot, thread, pushed)}", pytrace=False)

        def is_turn_post(method: str, path: str, body: Any) -> bool:
            return (
                method == "POST"
                and path == f"/channels/{thread}/messages"
                and bool(body and body.get("attachments"))
            )

        await bot.start()
        killed = fake.on_request(is_turn_post, bot.kill, store_first=store_first)
        pushed = await fake.slash(str(mover), thread, "end")
        if not await arrives(killed.done.is_set, fake):
            fail("the bot never sent the turn post (with files) to the thread")
        assert not bot.running
        if not fake.interactions[pushed.id].callbacks:
            fail("the first process did not acknowledge /mk end before posting")
        assert len(turn_posts(fake, thread)) == (1 if store_first else 0)
        if down_past_window:
            fake.advance(fake.nonce_window + 60)  # still within the token's 15 minutes
        assert left_undelivered(db, tmp_path / "copy"), "the killed process left nothing owed"

        await bot.start()

        def delivered() -> bool:
            assert pushed is not None
            return bool(
                turn_posts(fake, thread) and pings(fake, thread, other) and fake.answers(pushed)
            )

        if not await arrives(delivered, fake):
            fail("after the restart the bot did not deliver the post, the ping and the answer")
        if not await nothing_more_arrives(fake, db):  # a second copy would come now
            fail("the restarted bot never drained its outbox and fell quiet")

        posts = turn_posts(fake, thread)
        if len(posts) != 1:
            fail(f"{len(posts)} turn posts in the thread, expected exactly one")
        names = [f.filename for f in posts[0]["_files"]]
        if len(names) != 2 or names[0] != "board.png" or not names[1].startswith("pyramid"):
            fail(f"the turn post's files are {names}")
        for f in posts[0]["_files"]:
            assert f.data[:8] == PNG_MAGIC, f"{f.filename} is not a PNG"

        called = pings(fake, thread, other)
        if len(called) != 1:
            fail(f"{len(called)} messages call <@{other}> to play, expected exactly one")
        ping = called[0]
        if ping["id"] != posts[0]["id"]:
            fail("the call to the next player is not in the turn post")
        if len(fake.channel_messages(thread)) != 1:
            fail("the turn made more than one public message")
        if ping["_token"] is not None:
            fail(
                "the ping is an interaction response (an edit does not notify):"
                " it must be a fresh channel message"
            )
        mentions = ping["allowed_mentions"] or {}
        assert [int(u) for u in mentions.get("users", [])] == [other], mentions
        assert mentions.get("parse", []) == [], mentions
        if pings(fake, thread, mover):
            fail("the player who ended the turn was called to play")

        answers = fake.answers(pushed)
        if len(answers) != 1:
            fail(f"{len(answers)} answers to the player's /mk end, expected exactly one")
        text = answers[0]["content"]
        if not text.strip() or "nothing was changed" in text.lower():
            fail(f"the answer does not say the turn was done: {text!r}")

        assert not fake.internal_errors, fake.internal_errors
        restarted_log = bot.log_paths[-1].read_text(errors="replace")
        if " ERROR " in restarted_log or "Traceback" in restarted_log:
            fail("the restarted bot logged an error")


@CRASH_MOMENTS
async def test_a_crash_after_the_last_answer_delivers_the_game_over_post_once(
    tmp_path: Path, store_first: bool, down_past_window: bool
) -> None:
    fake, thread = two_player_discord()
    db = tmp_path / "db.sqlite3"
    mover, last = await set_up_last_action(db, thread)
    pushed: Pushed | None = None

    async with fake, BotProcess(fake, tmp_path, database=db, fork=True) as bot:

        def fail(why: str) -> None:
            pytest.fail(f"{why}\n{report(fake, bot, thread, pushed)}", pytrace=False)

        def is_game_over_post(method: str, path: str, body: Any) -> bool:
            names = [a.get("filename") for a in (body or {}).get("attachments") or []]
            return (
                method == "POST"
                and path == f"/channels/{thread}/messages"
                and "score-sheet.png" in names
            )

        await bot.start()
        killed = fake.on_request(is_game_over_post, bot.kill, store_first=store_first)
        pushed = await fake.slash(str(mover), thread, "act", action=last)
        if not await arrives(killed.done.is_set, fake):
            fail("the bot never sent the game-over post to the thread")
        assert not bot.running
        # the player was answered before the game-over post was sent, after the last
        # turn's post
        if len(fake.answers(pushed)) != 1:
            fail("the last action was not answered before the game-over post")
        if len(turn_posts(fake, thread)) != 1:
            fail("the last turn's post did not come before the game-over post")
        assert len(game_over_posts(fake, thread)) == (1 if store_first else 0)
        if down_past_window:
            fake.advance(fake.nonce_window + 60)
        assert left_undelivered(db, tmp_path / "copy"), "the killed process left nothing owed"

        await bot.start()
        if not await arrives(lambda: game_over_posts(fake, thread), fake):
            fail("after the restart the bot did not deliver the game-over post")
        if not await nothing_more_arrives(fake, db):  # a second copy would come now
            fail("the restarted bot never drained its outbox and fell quiet")

        overs = game_over_posts(fake, thread)
        if len(overs) != 1:
            fail(f"{len(overs)} game-over posts in the thread, expected exactly one")
        names = [f.filename for f in overs[0]["_files"]]
        assert names == ["score-sheet.png", "replay.webp", "game-1.json"], names
        assert "The game is over" in overs[0]["content"]
        if len(turn_posts(fake, thread)) != 1:
            fail("the last turn's post was sent again")
        if len(fake.answers(pushed)) != 1:
            fail("the player was answered again")
        # nothing in the thread but the last turn's post and the game-over post
        assert len(fake.channel_messages(thread)) == 2

        assert not fake.internal_errors, fake.internal_errors
        restarted_log = bot.log_paths[-1].read_text(errors="replace")
        if " ERROR " in restarted_log or "Traceback" in restarted_log:
            fail("the restarted bot logged an error")
