"""The table around the moves, through the real bot: a refused turn post follows once
the channel accepts it, a kicked player's seat goes to the AI and then to a substitute
named by colour, stale draft buttons and the post that reveals the draft, votes cast at
the same moment, one scheduler round that moves every stalled AI game without crowding
out a human's reminder, and a game stored before the gates came first."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot_harness import (
    TableOf,
    buttons_of,
    draft_all,
    open_game,
    place_gates,
    run_duties,
    scheduler,
    set_up,
)

from rules.legal import legal_actions
from rules.steps import seats_to_act


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def to_first_turn(env: Any, bot: Any, channel: Any, names: list[str]) -> tuple[Any, ...]:
    """A game of these players through its gates and draft; returns the thread, the
    game id, the players by seat and the seat to move."""
    guild = channel.guild
    players = [guild.add_member(env.create_user(n)) for n in names]
    thread, game_id = await open_game(env, players, channel)
    await set_up(bot, players, thread, game_id)
    info = await bot.service.info(game_id)
    by_seat = {s.seat: next(p for p in players if p.id == s.user_id) for s in info.seats}
    state = (await bot.service.load(game_id)).state
    return thread, game_id, by_seat, seats_to_act(state)[0]


async def test_a_refused_turn_post_is_told_and_follows_once_accepted(table_of: TableOf) -> None:
    clock = Clock()
    async with table_of(clock=clock) as (env, bot, channel, _):
        thread, game_id, by_seat, seat = await to_first_turn(env, bot, channel, ["al", "bo"])
        state = (await bot.service.load(game_id)).state
        mover = by_seat[seat]
        await mover.slash(thread, "mk act", action=str(legal_actions(state, seat, "recruit")[0]))
        before = len(await bot.service.history.log(game_id))
        # Discord refuses every post, in the thread and in the channel (a lost permission)
        env.inject_error("POST", "/channels/*/messages", status=403, code=50013, times=None)
        result = await mover.slash(thread, "mk end")
        answer = result.response.content
        assert "Done" in answer and "will follow" in answer
        assert "nothing was changed" not in answer
        log = await bot.service.history.log(game_id)
        assert len(log) == before + 1 and log[-1].notation == "end"
        posts = [m for m in thread.history() if "recruited a" in m.content]
        assert posts == []
        # the channel accepts posts again: the next round after the retry time sends it
        env.backend.faults.clear()
        await scheduler(bot).round()
        assert [m for m in thread.history() if "recruited a" in m.content] == []
        clock.now += timedelta(minutes=1)
        await scheduler(bot).round()
        await scheduler(bot).round()
        posts = [m for m in thread.history() if "recruited a" in m.content]
        assert len(posts) == 1 and len(posts[0].attachments) == 2
        pings = [m for m in thread.history() if "it's your turn" in m.content]
        assert pings[-1].raw_mentions == [by_seat[1 - seat].id]
        assert len(await bot.service.history.log(game_id)) == before + 1


async def test_kicking_the_player_to_move_hands_the_seat_to_the_ai_then_a_substitute(
    table_of: TableOf,
) -> None:
    async with table_of() as (env, bot, channel, _):
        guild = channel.guild
        thread, game_id, by_seat, seat = await to_first_turn(env, bot, channel, ["al", "bo"])
        admin = next(p for p in by_seat.values() if p.name == "al")  # opened the game
        if by_seat[seat] is admin:  # let the other player be the one to move
            state = (await bot.service.load(game_id)).state
            action = legal_actions(state, seat, "recruit")[0]
            await admin.slash(thread, "mk act", action=str(action))
            await admin.slash(thread, "mk end")
            seat = 1 - seat
        victim = by_seat[seat]
        colour = (await bot.service.info(game_id)).seats[seat].label
        result = await admin.slash(thread, "mk admin", what="kick", player=victim)
        assert "removed" in result.response.content
        assert any("no longer plays" in m.content for m in thread.history())
        # the game moves on: the AI plays the vacant seat's turn
        moved = await run_duties(bot)
        assert moved > 0
        state = (await bot.service.load(game_id)).state
        assert seats_to_act(state) == [1 - seat]
        # the vacant seat is named by its colour and given to a substitute
        carol = guild.add_member(env.create_user("carol"))
        result = await admin.slash(
            thread, "mk admin", what="substitute", seat=colour, substitute=carol
        )
        assert "carol" in result.response.content
        # the seat is carol's once she accepts the offer posted in the thread
        offer = next(m for m in reversed(thread.history()) if "offers you" in m.content)
        await carol.click(offer, label="Accept")
        seated = await bot.service.info(game_id)
        assert seated.seats[seat].controller_id == carol.id
        assert not seated.seats[seat].machine_played
        assert any(f"<@{carol.id}>" in m.content for m in thread.history())


async def test_a_stale_draft_button_says_so_and_the_last_keep_reveals_and_calls_the_first_turn(
    table_of: TableOf,
) -> None:
    async with table_of("alice", "bob") as (env, bot, channel, (alice, bob)):
        thread, game_id = await open_game(env, [alice, bob], channel)
        await place_gates(bot, [alice, bob], thread, game_id)
        await draft_all([bob], thread)
        old = await alice.slash(thread, "mk draft")
        await alice.click(old.response.message, custom_id=buttons_of(old.response)[0]["custom_id"])
        # alice asks again; then keeps from the new message: the old one's buttons are stale
        new = await alice.slash(thread, "mk draft")
        await alice.click(new.response.message, custom_id=buttons_of(new.response)[0]["custom_id"])
        stale_id = buttons_of(old.response)[0]["custom_id"]
        refused = await alice.click(old.response.message, custom_id=stale_id)
        assert "draft moved on" in refused.followups[-1].content
        log = await bot.service.history.log(game_id, alice.id)  # her keeps are hers to read
        kept = [e for e in log if e.user_id == alice.id and e.notation.startswith("keep")]
        assert len(kept) == 2
        # finishing the draft from the newest message posts it, with the board, and
        # calls the first player to the first turn
        for _ in range(2):
            await alice.click(
                new.response.message, custom_id=buttons_of(new.response)[0]["custom_id"]
            )
        posts = [m for m in thread.history() if m.content.startswith("Everyone has drafted")]
        assert len(posts) == 1
        assert "**alice (Blue)** kept a" in posts[0].content
        assert "**bob (Orange)** kept a" in posts[0].content
        assert "The mountain is ready and the first turn begins." in posts[0].content
        state = (await bot.service.load(game_id)).state
        assert state.phase == "play"
        first = seats_to_act(state)[0]
        first_player = (await bot.service.info(game_id)).seats[first].user_id
        # the call names the player once, by mention, beside their colour
        colour = (await bot.service.info(game_id)).seats[first].label.capitalize()
        assert f"<@{first_player}> ({colour}): it's your turn" in posts[0].content
        assert posts[0].raw_mentions == [first_player]
        assert [a.filename for a in posts[0].attachments] == ["board.png"]
        # it is the last post: no ping of its own follows
        assert thread.history()[-1].id == posts[0].id


async def test_the_other_players_vote_and_their_names_show(table_of: TableOf) -> None:
    clock = Clock()
    async with table_of(clock=clock) as (env, bot, channel, _):
        names = ["ann", "ben", "cat", "dan"]
        thread, game_id, by_seat, seat = await to_first_turn(env, bot, channel, names)
        for _ in range(3):
            clock.now += timedelta(hours=13)
            assert await scheduler(bot).send_reminders() == 1
        vote = next(m for m in reversed(thread.history()) if "may vote" in m.content)
        creator_id = (await bot.service.info(game_id)).creator_id
        voters = [p for s, p in by_seat.items() if s != seat and p.id != creator_id][:2]
        # (ballots cast at the same moment: tests/service/test_service_votes.py)
        for p in voters:
            await p.click(vote, label="Skip this turn")
        tally = await bot.service.votes.tally((await bot.service.store.vote(1)).id)
        assert sorted(b.voter_id for b in tally.ballots) == sorted(p.id for p in voters)
        edited = next(m for m in thread.history() if m.id == vote.id)
        for p in voters:
            assert p.name in edited.content and str(p.id) not in edited.content
        # two of the three other players: the AI plays this turn, then hands it back
        assert "Decided" in edited.content
        await run_duties(bot)
        info = await bot.service.info(game_id)
        assert not info.seats[seat].machine_played
        state = (await bot.service.load(game_id)).state
        assert seats_to_act(state) != [seat]


async def test_one_round_moves_every_stalled_ai_game_and_reminds_the_humans(
    table_of: TableOf,
) -> None:
    clock = Clock()
    async with table_of("alice", "bob", clock=clock) as (env, bot, channel, (alice, bob)):
        guild = channel.guild
        thread, human_game = await open_game(env, [alice, bob], channel)
        # the gates are placed: both humans draft, both are awaited
        await place_gates(bot, [alice, bob], thread, human_game)
        placed = len(await bot.service.history.log(human_game))
        service = bot.service
        stalled = []
        for _ in range(100):
            game = await service.create_game(alice.id, {"players": 2}, join=False)
            await service.set_place(
                game.id, guild_id=guild.id, channel_id=channel.id, thread_id=thread.id
            )
            await service.seating.add_ai(game.id, alice.id)
            await service.seating.add_ai(game.id, alice.id)
            stalled.append((await service.start(game.id, alice.id)).id)
        # nobody played for a day and a half: the humans are due a reminder
        clock.now += timedelta(hours=36)
        before = {g: len(await service.history.log(g)) for g in stalled}
        done = await scheduler(bot).round()
        assert done.reminded == 2
        reminders = [m for m in thread.history() if "waiting for you" in m.content]
        assert {m.raw_mentions[0] for m in reminders} == {alice.id, bob.id}
        assert done.moves >= 100
        for g in stalled:
            assert len(await service.history.log(g)) > before[g], f"game {g} did not move"
        assert len(await service.history.log(human_game)) == placed == 2


async def test_an_error_after_the_action_is_stored_never_says_nothing_changed(
    table_of: TableOf, monkeypatch: Any
) -> None:
    async with table_of() as (env, bot, channel, _):
        thread, game_id, by_seat, seat = await to_first_turn(env, bot, channel, ["al", "bo"])
        state = (await bot.service.load(game_id)).state
        action = str(legal_actions(state, seat, "recruit")[0])

        async def broken_answer(*args: Any, **kwargs: Any) -> None:
            raise RuntimeError("the answer broke")

        monkeypatch.setattr(bot, "answer", broken_answer)
        result = await by_seat[seat].slash(thread, "mk act", action=action)
        text = (result.followups[-1] if result.followups else result.response).content
        assert "stored" in text and "nothing was changed" not in text
        assert (await bot.service.history.log(game_id))[-1].notation == action


async def test_a_thread_that_refuses_for_good_sends_the_post_to_the_channel(
    table_of: TableOf,
) -> None:
    async with table_of() as (env, bot, channel, _):
        thread, game_id, by_seat, seat = await to_first_turn(env, bot, channel, ["al", "bo"])
        state = (await bot.service.load(game_id)).state
        mover = by_seat[seat]
        await mover.slash(thread, "mk act", action=str(legal_actions(state, seat, "recruit")[0]))
        # the bot lost its permission in the thread only
        env.inject_error(
            "POST", f"/channels/{thread.id}/messages", status=403, code=50001, times=None
        )
        result = await mover.slash(thread, "mk end")
        assert "will follow" not in result.response.content
        moved = [m for m in channel.history() if "recruited a" in m.content]
        assert len(moved) == 1 and f"<#{thread.id}>" in moved[0].content
        assert len(moved[0].attachments) == 2
        ping = [m for m in channel.history() if "it's your turn" in m.content]
        assert ping and ping[-1].raw_mentions == [by_seat[1 - seat].id]


async def test_a_game_stored_before_gates_came_first_still_drafts_first(
    tmp_path: Path, table_of: TableOf
) -> None:
    db = tmp_path / "db.sqlite3"
    async with table_of("alice", "bob", db=db) as (_, bot, channel, (alice, bob)):
        await alice.slash(channel, "mk new", players=2)
        thread = channel.threads[-1]
        await bob.click(thread.history()[0], label="Join")
        game_id = int(thread.name.rsplit("#", 1)[1])
        # the lobby as a bot of edition 1 stored it: its config has no edition
        info = await bot.service.info(game_id)
        config = {k: v for k, v in info.config.items() if k != "edition"}
        with sqlite3.connect(db) as raw:
            raw.execute("UPDATE games SET config = ? WHERE id = ?", (json.dumps(config), game_id))
        raw.close()
        await alice.click(thread.history()[0], label="Start")
        state = (await bot.service.load(game_id)).state
        assert state is not None and state.config.edition == 1 and state.phase == "draft"
        start = thread.history()[-1]
        assert "Everyone now keeps four starting trolls" in start.content, start.content
        assert "gates are placed in turn order with `/mk gate`, alice (Blue) first" in start.content
        # the draft first: who has kept four waits for the others, then the gates
        await draft_all([bob], thread)
        early = await bob.slash(thread, "mk draft")
        assert "Wait for the others, then place gates with `/mk gate`." in early.response.content
        await draft_all([alice], thread)
        reveal = thread.history()[-1]
        assert reveal.content.startswith("Everyone has drafted"), reveal.content
        # the call names the player once: their mention (Discord shows the name) and colour
        assert f"<@{alice.id}> (Blue): place your gate with `/mk gate`." in reveal.content
        assert "alice" not in reveal.content.splitlines()[-1]
        assert not reveal.attachments
        # then the gates; the last one shows the board and opens the first turn
        await place_gates(bot, [alice, bob], thread, game_id)
        ready = thread.history()[-1]
        assert ready.content.startswith("**bob (Orange)** placed their gate"), ready.content
        assert "The mountain is ready and the first turn begins." in ready.content
        assert f"<@{alice.id}> (Blue): it's your turn" in ready.content
        assert [a.filename for a in ready.attachments] == ["board.png"]
        state = (await bot.service.load(game_id)).state
        assert state is not None and state.phase == "play"
