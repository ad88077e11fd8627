"""A 2-player game for the loopback-Discord tests, set up through the service up to the
first player's recruit, with the setup's own posts already delivered (only what the
test's next command owes is in question)."""

from __future__ import annotations

from typing import Any

from fake_discord import CHANNEL_ID, GUILD_ID

from bot.service import GameService
from rules.legal import legal_actions
from rules.steps import seats_to_act

ALICE, BOB = "930000000000000001", "930000000000000002"


async def game_to_first_recruit(service: GameService[Any, Any], thread: str) -> tuple[int, int]:
    """Returns (the player to act, the other one)."""
    info = await service.create_game(
        int(ALICE),
        {"players": 2},
        guild_id=int(GUILD_ID),
        channel_id=int(CHANNEL_ID),
        thread_id=int(thread),
    )
    await service.join(info.id, int(BOB))
    info = await service.start(info.id, int(ALICE))
    users = {s.seat: s.user_id for s in info.seats}
    while True:
        state = (await service.load(info.id)).state
        if state.phase == "play":
            break
        seat = seats_to_act(state)[0]
        kind = "keep" if state.phase == "draft" else "gate"
        await service.act(info.id, users[seat], legal_actions(state, seat, kind)[0])
    seat = seats_to_act(state)[0]
    await service.act(info.id, users[seat], legal_actions(state, seat, "recruit")[0])
    for owed in await service.outbox.owed(everything=True):
        await service.outbox.delivered(owed.id)
    mover, other = users[seat], users[1 - seat]
    assert mover is not None and other is not None
    return mover, other
