"""A 2-player game for the loopback-Discord tests, set up through the service up to the
first player's recruit (or to its last action), with the messages owed so far already
delivered (only what the test's next command owes is in question)."""

from __future__ import annotations

from typing import Any

from fake_discord import CHANNEL_ID, GUILD_ID

from bot.service import GameInfo, GameService
from rules.legal import legal_actions
from rules.selfplay import play_random_game
from rules.state import make_config
from rules.steps import seats_to_act

ALICE, BOB = "930000000000000001", "930000000000000002"


async def _started(service: GameService[Any, Any], thread: str) -> GameInfo:
    info = await service.create_game(
        int(ALICE),
        {"players": 2},
        guild_id=int(GUILD_ID),
        channel_id=int(CHANNEL_ID),
        thread_id=int(thread),
    )
    await service.seating.join(info.id, int(BOB))
    return await service.start(info.id, int(ALICE))


async def _all_delivered(service: GameService[Any, Any]) -> None:
    for owed in await service.outbox.owed(everything=True):
        await service.outbox.delivered(owed.id)


async def game_to_last_action(service: GameService[Any, Any], thread: str) -> tuple[int, str]:
    """A random game played to the eve of its end. Returns (the player of its last
    action, that action in notation)."""
    info = await _started(service, thread)
    assert info.seed is not None
    # the game as the rules play it with random legal actions from the same seed
    record = play_random_game(make_config(**{"edition": 1, **info.config}), info.seed)
    users = {s.seat: s.user_id for s in info.seats}
    for move in record.moves[:-1]:
        await service.act(info.id, users[move.seat], move.action)
    await _all_delivered(service)
    last = record.moves[-1]
    mover = users[last.seat]
    assert mover is not None
    return mover, str(last.action)


async def game_to_first_recruit(service: GameService[Any, Any], thread: str) -> tuple[int, int]:
    """Returns (the player to act, the other one)."""
    info = await _started(service, thread)
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
    await _all_delivered(service)
    mover, other = users[seat], users[1 - seat]
    assert mover is not None and other is not None
    return mover, other
