"""What happens around every action: acting through the service, posting the turn in
the game's thread with images, pinging the next player once, autopilot turns, the end
of the game. Used by slash commands, buttons and the reminder loop alike."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import random
from typing import TYPE_CHECKING

import discord

from bot.service import ActResult, GameInfo
from bot.turns import last_turn
from render import board_png, pyramid_png, score_png
from rules.ai import choose_action
from rules.game import game_from_record

if TYPE_CHECKING:
    from bot.app import MountainBot

log = logging.getLogger("bot.flow")


def is_ai(user_id: int | None) -> bool:
    """AI seats sit under negative ids (Discord's are positive); None is a vacant seat."""
    return user_id is None or user_id < 0


def mention_only(user_id: int | None) -> discord.AllowedMentions:
    """Allowed mentions for a ping: exactly that user, nobody else."""
    users = [discord.Object(user_id)] if user_id is not None else []
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


NO_MENTIONS = discord.AllowedMentions.none()


class GameFlow:
    def __init__(self, bot: MountainBot) -> None:
        self.bot = bot
        self.service = bot.service

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
            if self.bot.autopilot_delay:
                await asyncio.sleep(self.bot.autopilot_delay)
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

    async def thread_of(self, info: GameInfo) -> discord.abc.Messageable | None:
        channel_id = info.thread_id or info.channel_id
        if channel_id is None:
            return None
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException:
                log.warning("game %s: its channel %s is gone", info.id, channel_id)
                return None
        return channel if isinstance(channel, discord.abc.Messageable) else None

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
        text = f"**{name}** " + "; ".join(report.sentences) + "."
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
        await channel.send(_fit(text), files=files, allowed_mentions=NO_MENTIONS)

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
            deadline = discord.utils.format_dt(waiting.next_reminder, "R")
            await channel.send(
                f"<@{waiting.user_id}>, it's your turn ({waiting.label}). Next reminder {deadline}."
                " Use `/mk status` to see your options.",
                allowed_mentions=mention_only(waiting.user_id),
            )

    async def post_game_over(self, game_id: int) -> None:
        info = await self.service.info(game_id)
        channel = await self.thread_of(info)
        view = await self.service.view(game_id, None)
        if channel is None or view.state is None or view.outcome is None:
            return
        sheet = await asyncio.to_thread(score_png, view.state, view.outcome)
        winners = " & ".join(
            info.seats[s].label.capitalize() for s in view.outcome["winning_seats"]
        )
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
            f"🏆 The game is over. **{winners}** wins and is crowned the Mountain King!\n"
            "The record is attached: replay it with `python -m rules replay game.json`.",
            files=files,
            allowed_mentions=NO_MENTIONS,
        )


def _fit(text: str, limit: int = 1900) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
