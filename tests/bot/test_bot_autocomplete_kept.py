"""Autocomplete keeps a position's digs for its next answers (`KeptDigs` in
bot/mountain_king/choices.py) and never answers from another position's: after each
move `/mk dig`'s and `/mk act`'s options offer what the position offers when nothing
is kept (the same sources, asked afresh); what is kept is a table's own (another
table's game of the same id, version and seat to act is another position), a few
positions a table, and right when asked from several threads at once."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from bot_harness import TableOf, open_game, set_up

from bot.client import MountainBot
from bot.i18n.catalogue import ENGLISH
from bot.mountain_king import choices
from bot.mountain_king.seated import Position
from bot.offers import offer
from rules.game import Game as RulesGame
from rules.options import Asking, Digs
from rules.selfplay import random_action
from rules.state import State
from rules.steps import seats_to_act

Answer = list[tuple[str, str]]


def afresh(
    state: State, seat: int, kind: str | None, source: choices.Source, typed: dict[str, str]
) -> Answer:
    """What an option offers at the position, nothing kept."""
    got = offer(source(Asking(state, seat, kind, typed), ENGLISH), "")
    return [(c.name, str(c.value)) for c in got]


class Game:
    def __init__(self, bot: MountainBot, thread: Any, game_id: int, players: list[Any]) -> None:
        self.bot, self.thread, self.game_id, self.players = bot, thread, game_id, players

    async def position(self) -> tuple[State, int, Any, int]:
        loaded = await self.bot.service.load(self.game_id)
        state = loaded.state
        assert state is not None
        seat = seats_to_act(state)[0]
        user = (await self.bot.service.info(self.game_id)).seats[seat].controller_id
        actor = next(p for p in self.players if p.id == user)
        return state, seat, actor, loaded.seq

    async def asked(self, actor: Any, command: str, option: str, **typed: str) -> Answer:
        got = await actor.autocomplete(self.thread, command, option, "", **typed)
        return [(c["name"], c["value"]) for c in got]

    async def check(self) -> Answer:
        """Each dig option (and `/mk act`'s) offers what the position offers afresh;
        the tiles offered."""
        state, seat, actor, _ = await self.position()
        tiles = await self.asked(actor, "mk dig", "tile")
        assert tiles == afresh(state, seat, "dig", choices.tile_shapes, {})
        for _, tile in tiles[:2]:
            cells = await self.asked(actor, "mk dig", "cells", tile=tile)
            assert cells == afresh(state, seat, "dig", choices.tile_cells, {"tile": tile})
            typed = {"tile": tile, "cells": cells[0][1]}
            minerals = await self.asked(actor, "mk dig", "mineral", **typed)
            assert minerals == afresh(state, seat, "dig", choices.dig_minerals, typed)
        actions = await self.asked(actor, "mk act", "action")
        assert actions == afresh(state, seat, None, choices.any_action, {})
        return tiles

    async def play(self, rng: random.Random) -> None:
        state, seat, actor, _ = await self.position()
        action = random_action(state, seat, rng)
        assert (await actor.slash(self.thread, "mk act", action=str(action))).acknowledged


async def test_kept_digs_answer_only_at_their_own_position(table_of: TableOf) -> None:
    async with table_of("ann", "ben", seed=1) as (env, bot, channel, players):
        thread, game_id = await open_game(env, players, channel)
        await set_up(bot, players, thread, game_id)
        game = Game(bot, thread, game_id, players)
        rng = random.Random(4)
        seen = [await game.check()]
        for _ in range(3):
            await game.play(rng)
            seen.append(await game.check())
        assert len(set(map(tuple, seen))) > 2, "the moves changed the tiles offered"


class Table:
    """A table as `KeptDigs` sees it: something weakly referenced."""


def test_kept_digs_are_bounded_per_table_and_safe_from_threads() -> None:
    game = RulesGame.new(players=2, seed=3)
    rng = random.Random(3)
    states: list[tuple[State, int]] = []
    while len(states) < 4:
        state = game.state
        seat = seats_to_act(state)[0]
        if state.phase == "play":
            states.append((state.clone(), seat))
        game.play(seat, random_action(state, seat, rng))
    kept = choices.KeptDigs(size=2)
    tables = [Table(), Table()]
    # each table's game 1 at versions 0 to 3; the positions differ from table to table
    positions = [
        [Position(s, seat, 1, v) for v, (s, seat) in enumerate(states[k:] + states[:k])]
        for k in range(len(tables))
    ]
    assert Digs.at(*states[0]).every != Digs.at(*states[1]).every

    def ask(k: int) -> None:
        for n in range(40):
            t = (k + n) % len(tables)
            at = positions[t][n % len(states)]
            assert kept.digs(tables[t], at).every == Digs.at(at.state, at.seat).every

    with ThreadPoolExecutor(4) as pool:
        for asked in [pool.submit(ask, k) for k in range(4)]:
            asked.result()
    # the last two positions asked at a table are kept there, and no others
    for table, at_table in zip(tables, positions, strict=True):
        for at in at_table[:2]:
            kept.digs(table, at)
        assert all(kept.peek(table, at) is not None for at in at_table[:2])
        assert all(kept.peek(table, at) is None for at in at_table[2:])
    assert kept.peek(Table(), positions[0][0]) is None
