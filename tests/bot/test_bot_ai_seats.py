"""AI seats: the creator adds an AI player in the lobby; the AI places its gate, drafts
and plays its turns on its own, posted like anyone's."""

from __future__ import annotations

import random

from bot_harness import TableOf, buttons_of, run_duties

from rules.legal import legal_actions
from rules.selfplay import random_action
from rules.steps import seats_to_act


async def test_creator_adds_an_ai_player_who_plays_its_own_turns(table_of: TableOf) -> None:
    async with table_of("alice", "bob") as (_, bot, channel, (alice, bob)):
        await alice.slash(channel, "mk new", players=2)
        thread = channel.threads[-1]
        lobby = thread.history()[0]
        assert "Add AI player" in [b["label"] for b in buttons_of_message(lobby)]
        refused = await bob.click(lobby, label="Add AI player")
        assert "creator" in refused.followups[-1].content
        await alice.click(thread.history()[0], label="Add AI player")
        await alice.click(thread.history()[0], label="Start")
        game_id = int(thread.name.rsplit("#", 1)[1])
        info = await bot.service.info(game_id)
        assert [s.ai for s in info.seats] == [False, True]
        assert info.seats[1].user_id is None  # an AI seat is a flag, not a made-up user
        # alice places the first gate; the scheduler then places the AI's and plays its
        # draft, while alice drafts by buttons
        assert await run_duties(bot) == 0, "the first gate is alice's"
        state = (await bot.service.load(game_id)).state
        assert state is not None and seats_to_act(state) == [0]
        await alice.slash(
            thread, "mk gate", point=str(legal_actions(state, 0, "gate")[0]).split()[1]
        )
        assert await run_duties(bot) == 5
        result = await alice.slash(thread, "mk draft")
        while buttons_of(result.response):
            await alice.click(
                result.response.message, custom_id=buttons_of(result.response)[0]["custom_id"]
            )
        rng = random.Random(1)
        for _ in range(3000):
            state = (await bot.service.load(game_id)).state
            if state.phase == "over":
                break
            assert seats_to_act(state) == [0], "only the human seat is ever waited for"
            action = random_action(state, 0, rng)
            await alice.slash(thread, "mk act", action=str(action))
            await run_duties(bot)
        assert state.phase == "over"
        posts = [m for m in thread.history() if m.content.startswith("**Grimble (Orange, AI)**")]
        assert posts, "the AI's turns were posted"
        pings = [m for m in thread.history() if "it's your turn" in m.content]
        assert pings and all(m.raw_mentions == [alice.id] for m in pings)


def buttons_of_message(message: object) -> list[dict[str, str]]:
    return [{"label": c.label} for row in message.components for c in row.children]  # type: ignore[attr-defined]


async def test_an_ai_seat_has_a_name_and_its_pyramid_can_be_looked_at_by_colour(
    table_of: TableOf,
) -> None:
    async with table_of("alice") as (_, bot, channel, (alice,)):
        await alice.slash(channel, "mk new", players=3)
        thread = channel.threads[-1]
        for _ in range(2):
            await alice.click(thread.history()[0], label="Add AI player")
        lobby = thread.history()[0].content
        assert "Grimble (Orange, AI)" in lobby and "Brakka (Green, AI)" in lobby
        await alice.click(thread.history()[0], label="Start")
        await run_duties(bot)
        start = next(m for m in thread.history() if "the game has begun" in m.content)
        assert "2. Grimble (Orange, AI)" in start.content
        looked = await alice.slash(thread, "mk pyramid", colour="green")
        assert looked.ephemeral
        assert "Brakka (Green, AI)'s pyramid" in looked.response.content
        assert looked.response.attachments[0].filename == "pyramid-green.png"
        refused = await alice.slash(thread, "mk pyramid", colour="purple")
        assert refused.ephemeral and "No seat of this game is purple" in refused.response.content
