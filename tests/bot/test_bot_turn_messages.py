"""One public message a turn, through the real discord.py bot (SimCord's in-memory
Discord): a whole 4-player game, where every turn of the play phase makes exactly one
message in the thread, the turn post, which calls the next player itself: it mentions
them and nobody else, allows only them to be pinged, and names them once; what the
turn did is told in prose, without notation. The game's
last action is answered before its game-over post is made, which follows once."""

from __future__ import annotations

import random
import re
from typing import Any

import simcord
from bot_harness import TableOf, history_from, open_game, set_up, visible_count

from bot.i18n.catalogue import translator_for
from bot.mountain_king.stories import story_text
from bot.mountain_king.texts import turn_post_text
from bot.service.owed import Player, TurnPost
from rules.selfplay import random_action
from rules.steps import seats_to_act


def pinged(env: simcord.Env, thread: Any, message: Any) -> tuple[list[int], frozenset[int]]:
    """Whom Discord notified of a message, and whom its allowed mentions let it ping."""
    stored = env.backend.messages[thread.id][message.id]
    return list(stored.ping_user_ids), frozenset(stored.allowed_mentions.users or ())


async def test_every_turn_in_play_is_one_message_calling_only_the_next_player(
    table_of: TableOf,
) -> None:
    names = ("ann", "ben", "cat", "dan")
    async with table_of(*names, seed=6) as (env, bot, channel, players):
        thread, game_id = await open_game(env, players, channel)
        await set_up(bot, players, thread, game_id)
        info = await bot.service.info(game_id)
        by_user = {p.id: p for p in players}
        by_seat = {s.seat: by_user[s.user_id] for s in info.seats if s.user_id is not None}
        name_of = {p.id: name for p, name in zip(players, names, strict=True)}
        assert len(by_seat) == 4
        # the order in which the player was answered and the game-over post was made
        events: list[str] = []
        give_answer, make_over = bot.answer, bot.courier.makers["mountain-king", "over"]

        async def answer(*args: Any, **kwargs: Any) -> None:
            await give_answer(*args, **kwargs)
            events.append("answered")

        async def over_post(*args: Any) -> Any:
            events.append("game-over post")
            return await make_over(*args)

        bot.answer = answer  # type: ignore[method-assign]
        bot.courier.makers["mountain-king", "over"] = over_post
        rng = random.Random(11)
        turns = 0
        while True:
            state = (await bot.service.load(game_id)).state
            assert state is not None
            if state.phase == "over":
                break
            assert state.phase == "play"
            seat = seats_to_act(state)[0]
            before = visible_count(env, thread)
            events.clear()
            result = await by_seat[seat].slash(
                thread, "mk act", action=str(random_action(state, seat, rng))
            )
            assert result.acknowledged
            posted = history_from(env, thread, before)
            after = (await bot.service.load(game_id)).state
            assert after is not None
            if after.phase == "over":
                # the last turn's post calls nobody; the game-over post follows it
                post, over = posted
                assert "The game is over" in over.content
                assert post.raw_mentions == [] and pinged(env, thread, post) == ([], frozenset())
                # the mover was answered before the game-over post was made
                assert events == ["answered", "game-over post"], events
                break
            to_act = seats_to_act(after)
            if to_act == [seat]:
                assert posted == [], [m.content for m in posted]  # within a turn: nothing
                continue
            turns += 1
            # the turn ended: one message, the turn post with its images and the call
            assert len(posted) == 1, [m.content for m in posted]
            [post] = posted
            assert post.attachments[0].filename == "board.png"
            [next_seat] = to_act
            called = by_seat[next_seat].id
            assert post.raw_mentions == [called]
            assert pinged(env, thread, post) == ([called], frozenset({called}))
            # the call names the player once: their mention (Discord shows their name)
            [call] = [line for line in post.content.splitlines() if f"<@{called}>" in line]
            assert "it's your turn" in call
            assert not re.search(rf"\b{name_of[called]}\b", call), call
            # what the turn did is told in prose, no notation in backticks
            told = [line for line in post.content.splitlines() if line != call]
            assert told and not any("`" in line for line in told), told
        assert turns > 40
        # nothing else in the thread pings anyone (no separate calls, no doubles)
        calls = [m for m in thread.history() if "it's your turn" in m.content]
        assert all(len(m.attachments) >= 1 for m in calls)
        # every file the game posted says in words what it shows (its alt text)
        attached = [a for m in thread.history() for a in m.attachments]
        assert len(attached) > 2 * turns  # a board and a pyramid a turn, and more
        untold = [a.filename for a in attached if not a.description]
        assert not untold, untold
        names = {a.filename for a in attached}
        assert {"board.png", "board-zoom.png", "score-sheet.png", "replay.webp"} <= names, names
        boards = [a.description for a in attached if a.filename == "board.png"]
        assert all(d and d.startswith("The mountain, with ") for d in boards), boards[:3]


def test_a_turn_post_tells_a_spell_in_prose_without_its_notation() -> None:
    cast = {"kind": "cast", "spell": "tool-chant", "args": ["2hammer"]}
    post = TurnPost(
        player=Player(seat=0, label="blue", user_id=1, name="ann"),
        sentences=(cast, {"kind": "end"}),
        cells=(),
        seq=9,
        calls=(Player(seat=1, label="orange", user_id=2, name="ben"),),
        call_phase="play",
    )
    for language in ("en", "pl", "es"):
        told, call = turn_post_text(post, translator_for(language)).splitlines()
        assert "`" not in told and "2hammer" not in told, told
        assert told.startswith("**ann (") and "<@2>" in call and "ben" not in call
    assert turn_post_text(post).splitlines()[0] == "**ann (Blue)** cast Tool Chant."
    # the player is told their choices in their private answer
    assert "`2hammer`" in story_text(cast, "you")
