"""The starting-troll draft is secret until everyone has kept: through real discord.py,
a player still drafting, a player who has kept and a user with no seat see nothing of
another player's keeps (pyramid image private or shared, log, status, autocomplete
labels, record); after the reveal every one of them is told whole."""

from __future__ import annotations

from typing import Any

import pytest
from bot_harness import TableOf, buttons_of, open_game, place_gates

from bot.service import GameStateError
from render import pyramid_png


def _keep(message: Any) -> str:
    """The custom_id of the first Keep button of a private draft message."""
    buttons = buttons_of(message)
    assert buttons, message.content
    return str(buttons[0]["custom_id"])


async def _keeps(player: Any, thread: Any, count: int) -> Any:
    """`player` opens the draft and keeps the first offered troll `count` times."""
    result = await player.slash(thread, "mk draft")
    for _ in range(count):
        click = await player.click(result.response.message, custom_id=_keep(result.response))
        assert click.acknowledged
    return result


def _texts(result: Any) -> str:
    """Everything a command answered, private and public, as one text."""
    messages = [result.response, *result.followups] if result.response else result.followups
    return "\n".join(m.content for m in messages if m is not None)


def _cards(state: Any, seat: int) -> set[str]:
    """The cards a seat has kept (what would name its keeps: "orange-4")."""
    return {troll.card for troll in state.players[seat].pyramid.values()}


async def _sees_none_of(thread: Any, looker: Any, owner: Any, secret: set[str]) -> None:
    """`looker` gets no word of `owner`'s keeps (their cards `secret`) from any
    surface: no pyramid image, private or shared, and no line of the log."""
    name = owner.name
    for share in (False, True):
        result = await looker.slash(thread, "mk pyramid", player=owner, share=share)
        assert result.acknowledged
        answers = [result.response, *result.followups]
        assert all(not m.attachments for m in answers if m is not None), "no image at all"
        text = _texts(result)
        assert "hidden until everyone has kept" in text, text
    log = _texts(await looker.slash(thread, "mk log"))
    for line in log.splitlines():
        if name in line:
            assert "kept" not in line and "keep" not in line, line
    assert not any(card in log for card in secret), log
    labels = await looker.autocomplete(thread, "mk act", "action", "")
    assert not any(card in c["name"] or card in c["value"] for c in labels for card in secret)


async def test_the_draft_shows_nothing_of_anyones_keeps_until_everyone_has_kept(
    table_of: TableOf,
) -> None:
    async with table_of("al", "bo", "cy") as (env, bot, channel, (alice, bob, carol)):
        thread, game_id = await open_game(env, [alice, bob], channel)
        await place_gates(bot, [alice, bob], thread, game_id)
        info = await bot.service.info(game_id)
        seat_of = {s.controller_id: s.seat for s in info.seats}

        await _keeps(alice, thread, 1)  # still drafting
        await _keeps(bob, thread, 4)  # has kept
        state = (await bot.service.load(game_id)).state
        assert state.phase == "draft"
        alice_secret = _cards(state, seat_of[alice.id])
        bob_secret = _cards(state, seat_of[bob.id])
        assert len(alice_secret) == 1 and len(bob_secret) == 4

        await _sees_none_of(thread, alice, bob, bob_secret)
        await _sees_none_of(thread, bob, alice, alice_secret)
        await _sees_none_of(thread, carol, bob, bob_secret)
        await _sees_none_of(thread, carol, alice, alice_secret)
        status = _texts(await alice.slash(thread, "mk status"))
        assert "kept" not in status and not any(w in status for w in bob_secret), status
        # the log of a user with no seat, and the table's: not a word of the keeps
        assert not [
            e for e in await bot.service.history.log(game_id, carol.id) if "keep" in e.notation
        ]
        assert not [e for e in await bot.service.history.log(game_id) if "keep" in e.notation]
        # each player's own keeps are theirs to read
        own = [e for e in await bot.service.history.log(game_id, bob.id) if "keep" in e.notation]
        assert len(own) == 4 and all(e.seat == seat_of[bob.id] for e in own)
        with pytest.raises(GameStateError):
            await bot.service.history.record(game_id)  # no record before the game is over
        assert not [m for m in thread.history() if any(w in m.content for w in bob_secret)]

        # the reveal: alice keeps her last three
        await _keeps(alice, thread, 3)
        state = (await bot.service.load(game_id)).state
        assert state.phase == "play"
        names = {s.seat: s.name for s in (await bot.service.info(game_id)).seats if s.name}
        for looker in (alice, carol):
            for share in (False, True):
                result = await looker.slash(thread, "mk pyramid", player=bob, share=share)
                image = [m for m in (result.response, *result.followups) if m and m.attachments]
                assert image, _texts(result)
                data = await image[-1].attachments[0].read()
                viewer = None if share or looker is carol else seat_of[alice.id]
                view = bot.service.rules.view(state, viewer)
                assert data == pyramid_png(view, seat_of[bob.id], names=names)
        for looker in (alice, bob, carol):
            log = _texts(await looker.slash(thread, "mk log"))
            told = [line for line in log.splitlines() if "troll making" in line]
            assert len(told) == 8, log  # every player's four keeps, in the reveal's words
        # "since your last turn": every player's four keeps, not only those after one's own
        mover = alice if seat_of[alice.id] == state.turn.seat else bob
        status = _texts(await mover.slash(thread, "mk status"))
        assert status.count("troll making") == 8, status
        assert not env.errors
