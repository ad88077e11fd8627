"""What happens around every action: acting through the service, posting the turn in
the game's thread with images, pinging the next player once, autopilot turns, the end
of the game. Used by slash commands, buttons and the scheduler alike, always as
`bot.flow`; it will give way to the service's outbox and a delivery worker."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import random
from collections.abc import Awaitable, Callable

import discord

from bot.ai_seats import is_ai
from bot.service import ActResult, GameInfo, GameService
from bot.texts import NO_MENTIONS, game_over_text, mention_only, ping_text, turn_post_text
from bot.turns import last_turn
from render import board_png, pyramid_png, score_png
from rules.actions import Action
from rules.ai import choose_action
from rules.game import game_from_record
from rules.state import State

log = logging.getLogger("bot.flow")

ThreadOf = Callable[[GameInfo], Awaitable[discord.abc.Messageable | None]]


class GameFlow:
    def __init__(
        self, service: GameService[State, Action], thread_of: ThreadOf, *, autopilot_delay: float
    ) -> None:
        self.service = service
        self.thread_of = thread_of
        # a pause before each autopilot move, so a table can follow them
        self.autopilot_delay = autopilot_delay

    # --- acting ----------------------------------------------------------------------

    async def act(
        self,
        game: GameInfo,
        user_id: int,
        notation: str,
        *,
        interaction_id: int | None = None,
        expected_seq: int | None = None,
    ) -> ActResult:
        result = await self.service.act(
            game.id, user_id, notation, interaction_id=interaction_id, expected_seq=expected_seq
        )
        if not result.repeated:
            await self.after(game.id, result)
        return result

    async def after(self, game_id: int, result: ActResult) -> None:
        """Post what a finished turn did and ping whoever must act now (once)."""
        if result.game_over:
            await self.post_turn(game_id)
            await self.post_game_over(game_id)
            return
        if result.turn_ended:
            await self.post_turn(game_id)
            await self.ping(game_id, result.newly_to_act)
            await self.run_autopilots(game_id)

    async def run_autopilots(self, game_id: int) -> None:
        """Seats on autopilot (AI players, absent players) play until a human must act."""
        for _ in range(5000):
            info = await self.service.info(game_id)
            if info.status != "active":
                return
            status = await self.service.turn_status(game_id)
            auto = [w for w in status.waiting if w.autopilot]
            if not auto:
                return
            if self.autopilot_delay:
                await asyncio.sleep(self.autopilot_delay)
            result = await self.autopilot_step(game_id, auto[0].seat)
            if result.game_over:
                await self.post_turn(game_id)
                await self.post_game_over(game_id)
                return
            if result.turn_ended:
                await self.post_turn(game_id)
                await self.ping(game_id, result.newly_to_act)

    async def autopilot_step(self, game_id: int, seat: int) -> ActResult:
        """One action of the heuristic AI for a seat on autopilot (reproducible per
        position; the AI thinks in a worker thread so the bot stays responsive)."""
        loaded = await self.service.load(game_id)
        assert loaded.state is not None
        rng = random.Random(loaded.seq * 7919 + seat)
        action = await asyncio.to_thread(choose_action, loaded.state, seat, rng)
        return await self.service.act_for_autopilot(game_id, seat, action, expected_seq=loaded.seq)

    async def skip_turn(self, game_id: int, seat: int) -> None:
        """The table voted to skip an absent player's turn: the autopilot plays this one
        turn for them, then hands the seat back."""
        info = await self.service.info(game_id)
        await self.service.set_autopilot(game_id, info.creator_id, seat, True, admin=True)
        try:
            for _ in range(500):
                result = await self.autopilot_step(game_id, seat)
                if result.turn_ended or result.game_over:
                    break
        finally:
            info = await self.service.info(game_id)
            if info.status == "active":
                await self.service.set_autopilot(game_id, info.creator_id, seat, False, admin=True)
        await self.after(game_id, result)

    # --- posting ---------------------------------------------------------------------

    async def moves(self, game_id: int) -> list[tuple[int, str]]:
        return [(e.seat, e.notation) for e in await self.service.log(game_id)]

    async def post_turn(self, game_id: int) -> None:
        """One public message: what the last turn did, the board with its changes
        outlined and the acting player's trollsmoot."""
        info = await self.service.info(game_id)
        channel = await self.thread_of(info)
        if channel is None or info.seed is None:
            return
        report = last_turn(info.config, info.seed, await self.moves(game_id))
        if report is None:
            return
        view = (await self.service.view(game_id, None)).state
        assert view is not None
        name = info.seats[report.seat].label.capitalize()
        board, pyramid = await asyncio.gather(
            asyncio.to_thread(board_png, view, highlight=report.cells),
            asyncio.to_thread(pyramid_png, view, report.seat),
        )
        files = [
            discord.File(io.BytesIO(board), filename="board.png"),
            discord.File(
                io.BytesIO(pyramid), filename=f"trollsmoot-{info.seats[report.seat].label}.png"
            ),
        ]
        await channel.send(
            turn_post_text(name, report.sentences), files=files, allowed_mentions=NO_MENTIONS
        )

    async def ping(self, game_id: int, seats: tuple[int, ...]) -> None:
        """A fresh message per seat that must act now, mentioning only that player."""
        info = await self.service.info(game_id)
        channel = await self.thread_of(info)
        if channel is None:
            return
        status = await self.service.turn_status(game_id)
        for waiting in status.waiting:
            if waiting.seat not in seats or waiting.autopilot or is_ai(waiting.user_id):
                continue
            await channel.send(
                ping_text(waiting.user_id, waiting.label, waiting.next_reminder),
                allowed_mentions=mention_only(waiting.user_id),
            )

    async def post_game_over(self, game_id: int) -> None:
        info = await self.service.info(game_id)
        channel = await self.thread_of(info)
        view = await self.service.view(game_id, None)
        if channel is None or view.state is None or view.outcome is None:
            return
        sheet = await asyncio.to_thread(score_png, view.state, view.outcome)
        winners = [info.seats[s].label.capitalize() for s in view.outcome["winning_seats"]]
        record = {
            "config": info.config,
            "seed": info.seed,
            "actions": [f"{info.seats[s].label} {t}" for s, t in await self.moves(game_id)],
        }
        # the attached record replays to the same result (checked before posting)
        replayed = game_from_record(record).outcome
        if replayed is None or replayed.to_json() != view.outcome:
            log.error("game %s: the record does not replay to the stored outcome", game_id)
        files = [
            discord.File(io.BytesIO(sheet), filename="score-sheet.png"),
            discord.File(
                io.BytesIO(json.dumps(record, indent=1).encode()), filename=f"game-{game_id}.json"
            ),
        ]
        await channel.send(
            game_over_text(winners),
            files=files,
            allowed_mentions=NO_MENTIONS,
        )
