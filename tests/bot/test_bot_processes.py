"""Two real bot processes (`python -m bot`, real discord.py) on one PostgreSQL database,
both connected to the loopback Discord, as during a rolling restart: they handle
interactions for the same games (the fake sends each one to one of them, alternately),
and both schedulers race for the same duties from their first round on (shards' processes
share the duties the same way, whichever shard a game's server is on).

The games are set up through the service with everything they owe still undelivered
(the start posts, the seat news): both processes' start-up rounds reach for it at
once. Each game seats Alice (a person, who plays by `/mk act`), Bob (on autopilot) and
an AI player; the test plays Alice's moves from the setup into the game, and the AI
plays the other two seats whenever they are to act.

Counted on the fake Discord's side: every interaction acknowledged and answered
once; every owed message (start post, turn posts with their calls, seat news) sent
in exactly one request, never resent (Discord's nonce would hide a second send from
the channel, so requests are counted, not messages); every log entry is either one of
Alice's interactions, applied once, or the AI's choice at that position.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from datetime import timedelta
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from fake_discord import CHANNEL_ID, GUILD_ID, FakeDiscord, Pushed, user
from pg_server import PgServer
from process_harness import BotProcess
from service_checks import check_game

from bot.service import GameService, MountainKingRules
from bot.store.postgres import PostgresStore
from rules.legal import legal_actions
from rules.selfplay import random_action
from rules.state import State
from rules.steps import seats_to_act

ALICE, BOB = "930000000000000001", "930000000000000002"
GAMES = 2
# Alice's actions in each game: her gates and her draft, then the first turns of play
ALICE_ACTIONS = 7
SETTLE_TIMEOUT = 60.0  # for the whole exchange (the processes share two cores)
QUIET = 1.0  # after everything is delivered, nothing more may come
# the channel posts owed messages become (the private answers go to interactions)
CHANNEL_KINDS = ("start", "turn", "ping", "over", "seat", "vote")

Service = GameService[State, Any]


async def set_up(url: str, threads: list[str]) -> list[int]:
    """A game in each thread: Alice, Bob on autopilot and an AI player, started, with
    nothing it owes delivered yet. Returns the game ids."""
    async with PostgresStore(url) as store:
        service: Service = GameService(
            store, MountainKingRules(), rng=random.Random(7), reminder_interval=timedelta(hours=12)
        )
        games = []
        for thread in threads:
            info = await service.create_game(
                int(ALICE),
                {"players": 3},
                guild_id=int(GUILD_ID),
                channel_id=int(CHANNEL_ID),
                thread_id=int(thread),
                name="alice",
            )
            await service.seating.join(info.id, int(BOB), name="bob")
            await service.seating.add_ai(info.id, int(ALICE))
            info = await service.start(info.id, int(ALICE))
            await service.seating.set_autopilot(info.id, int(BOB), 1, True)
            games.append(info.id)
        return games


def alice_action(state: State, rng: random.Random) -> str | None:
    """Alice's next action in notation (None: she is not to act)."""
    seat = 0
    if seat not in seats_to_act(state):
        return None
    if state.phase in ("gates", "draft"):
        kind = "gate" if state.phase == "gates" else "keep"
        return str(legal_actions(state, seat, kind)[0])
    return str(random_action(state, seat, rng))


async def play_alice(
    fake: FakeDiscord,
    service: Service,
    game_id: int,
    thread: str,
    bots: list[BotProcess],
    pushed: list[Pushed],
    first: int,
) -> None:
    """Alice's moves in one game, each sent to the other process than the one before,
    each awaited until she has her answer."""
    rng = random.Random(game_id)
    turn = first
    for _ in range(ALICE_ACTIONS):
        action = None
        while action is None:
            state = (await service.load(game_id)).state
            assert state is not None
            if state.phase == "over":
                return
            action = alice_action(state, rng)
            if action is None:
                await asyncio.sleep(0.02)  # the AI plays the other seats meanwhile
        bot = bots[turn % 2]
        turn += 1
        interaction = await fake.slash(ALICE, thread, "act", via=bot.token, action=action)
        pushed.append(interaction)
        await fake.wait_for(lambda i=interaction: fake.answers(i), 30.0, f"the answer to {action}")


async def settled(service: Service, pushed: list[Pushed], fake: FakeDiscord) -> bool:
    """Everything owed is delivered, the AI owes no move, every push is answered."""
    if await service.store.owed_messages(None):
        return False
    if await service.owed_moves():
        return False
    return all(fake.answers(p) for p in pushed)


@pytest.mark.postgresql_only
@pytest.mark.parametrize("store", ["postgresql"])
async def test_two_bot_processes_on_one_database_do_everything_exactly_once(
    tmp_path: Path, pg_server: PgServer, store: str
) -> None:
    database = pg_server.create_database()
    url = pg_server.url(database)
    fake = FakeDiscord()
    fake.users = {ALICE: user(ALICE, "alice"), BOB: user(BOB, "bob")}
    threads = [fake.add_thread(f"Mountain King #{n + 1}") for n in range(GAMES)]
    games = await set_up(url, threads)
    pushed: list[Pushed] = []
    env = {"DATABASE_URL": url}
    try:
        async with (
            fake,
            BotProcess(fake, tmp_path / "a", env=env, fork=True) as a,
            BotProcess(fake, tmp_path / "b", env=env, fork=True) as b,
            PostgresStore(url) as reader,
        ):
            bots = [a, b]
            service: Service = GameService(reader, MountainKingRules())
            await asyncio.gather(a.start(), b.start())

            def report(why: str) -> str:
                return f"{why}\n{requests(fake)}\n{a.tail()}\n{b.tail()}"

            try:
                await asyncio.wait_for(
                    asyncio.gather(
                        *(
                            play_alice(fake, service, game, thread, bots, pushed, n)
                            for n, (game, thread) in enumerate(zip(games, threads, strict=True))
                        )
                    ),
                    SETTLE_TIMEOUT,
                )
                deadline = asyncio.get_running_loop().time() + SETTLE_TIMEOUT
                while not await settled(service, pushed, fake):
                    assert asyncio.get_running_loop().time() < deadline, "never settled"
                    await asyncio.sleep(0.05)
            except (TimeoutError, AssertionError) as exc:
                pytest.fail(report(f"the two processes did not finish: {exc!r}"), pytrace=False)
            await asyncio.sleep(QUIET)  # a second copy of anything would come now

            # every interaction: acknowledged once, answered once, applied once
            for interaction in pushed:
                record = fake.interactions[interaction.id]
                assert record.callbacks == [5], report(f"{interaction}: {record.callbacks}")
                assert len(fake.answers(interaction)) == 1, report(f"{interaction} answered")
            entries = {g: await reader.actions(g) for g in games}
            applied = Counter(
                e.interaction_id for log in entries.values() for e in log if e.user_id is not None
            )
            refused = [fake.answers(p)[0]["content"] for p in pushed if int(p.id) not in applied]
            assert refused == [], report("refused")
            assert sorted(applied) == sorted(int(p.id) for p in pushed)
            assert set(applied.values()) == {1}

            # every other entry is the AI's move at its position, played once
            rules = MountainKingRules()
            for game_id, log in entries.items():
                assert await check_game(service, game_id) == len(log)
                info = await service.info(game_id)
                assert info.seed is not None
                state = rules.new_state(rules.make_config(info.config), info.seed)
                for entry in log:
                    action = rules.parse_action(entry.notation)
                    if entry.user_id is None:
                        chosen = rules.choose_action(
                            state, entry.seat, (entry.seq - 1) * 7919 + entry.seat
                        )
                        assert rules.notation(chosen) == entry.notation, (game_id, entry)
                    else:
                        assert entry.seat == 0 and entry.user_id == int(ALICE)
                    state = rules.play(state, entry.seat, action)
            machine = sum(1 for log in entries.values() for e in log if e.user_id is None)
            assert machine > 0, "the AI seats never played"

            # every owed message: one request, with its nonce; none sent twice
            rows = await outbox(url)
            posts = Counter(
                r.json.get("nonce")
                for r in fake.requests
                if r.method == "POST"
                and r.path.startswith("/channels/")
                and r.path.endswith("/messages")
            )
            expected = {
                f"mk-{r['id']}": 1 for r in rows if r["kind"] in CHANNEL_KINDS and r["message_id"]
            }
            assert dict(posts) == expected, report("channel posts by nonce")
            assert all(r["delivered_at"] is not None for r in rows)
            # (a turn's post calls the next player itself: no separate ping)
            assert {r["kind"] for r in rows} >= {"start", "turn", "seat", "reply"}
            assert fake.dedup_hits == [], report("a message was sent twice")
            assert not fake.internal_errors, fake.internal_errors
            for bot in bots:
                text = "\n".join(p.read_text(errors="replace") for p in bot.log_paths)
                assert " ERROR " not in text and "Traceback" not in text, bot.tail()
    finally:
        pg_server.drop_database(database)


async def outbox(url: str) -> list[dict[str, Any]]:
    connection = await asyncpg.connect(url)
    try:
        rows = await connection.fetch(
            "SELECT id, kind, message_id, delivered_at FROM outbox ORDER BY id"
        )
    finally:
        await connection.close()
    return [dict(r) for r in rows]


def requests(fake: FakeDiscord) -> str:
    lines = ["requests:"]
    for r in fake.requests[-60:]:
        nonce = (r.json or {}).get("nonce") if isinstance(r.json, dict) else None
        lines.append(f"  {r.status} {r.method} {r.path} nonce={nonce} by={r.auth}")
    return "\n".join(lines)
