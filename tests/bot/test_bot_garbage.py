"""Garbage in every option of every turn command: an ephemeral sentence, no traceback,
no change to the game's log, and no error left in the bot."""

from __future__ import annotations

from typing import Any

from bot_harness import TableOf, open_game, set_up

from rules.steps import seats_to_act

# none of these completes a legal action in any option below
JUNK = ["", "💥", "A1 A2 A3", "x" * 90, "dig dig", "9.9", "Z99", "fire-cart@store", "-1"]
# each base is itself illegal, so an empty optional value cannot make it legal
COMMANDS: list[tuple[str, dict[str, Any], list[str]]] = [
    ("mk act", {}, ["action"]),
    ("mk recruit", {"troll": "1.1", "slot": "A1"}, ["troll", "slot", "pedestal"]),
    (
        "mk dig",
        {"tile": "I2", "cells": "A1*+A2", "mineral": "stone"},
        ["tile", "cells", "workshop"],
    ),
    ("mk cast", {"spell": "earth-ritual"}, ["spell", "choice"]),
    ("mk use", {"site": "A1", "conversion": "stone>iron"}, ["site", "conversion"]),
    ("mk trade", {"give": "4stone", "get": "rune"}, ["give"]),
    ("mk hall", {"hall": "trove", "cells": "A1"}, ["hall", "cells"]),
    ("mk move", {"statue": "A1", "to": "A2"}, ["statue", "to"]),
    ("mk gate", {"point": "W1"}, ["point"]),
]


async def test_garbage_in_every_option_is_refused_and_changes_nothing(table_of: TableOf) -> None:
    async with table_of("alice", "bob") as (env, bot, channel, (alice, bob)):
        thread, game_id = await open_game(env, [alice, bob], channel)
        await set_up(bot, [alice, bob], thread, game_id)  # the turn commands are in play
        info = await bot.service.info(game_id)
        by_seat = {s.seat: (alice if s.user_id == alice.id else bob) for s in info.seats}
        state = (await bot.service.load(game_id)).state
        player = by_seat[seats_to_act(state)[0]]
        before = [str(e) for e in await bot.service.history.log(game_id)]
        checked = 0
        for command, base, options in COMMANDS:
            for option in options:
                for junk in JUNK:
                    result = await player.slash(thread, command, **{**base, option: junk})
                    assert result.acknowledged
                    assert result.ephemeral, (command, option, junk)
                    text = result.response.content if result.response else ""
                    assert (
                        text and "Traceback" not in text and "Something went wrong" not in text
                    ), (
                        command,
                        option,
                        junk,
                    )
                    checked += 1
                    log = [str(e) for e in await bot.service.history.log(game_id)]
                    assert log == before, (command, option, junk)
        assert checked > 100
        assert [str(e) for e in await bot.service.history.log(game_id)] == before
        assert not env.errors
