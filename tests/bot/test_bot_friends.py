"""A table of friends, through real discord.py: whole 2-player and 4-player team games
in which every public post names its player, the Start message maps every seat to its
person (and teams) and calls the first gate, the setup is quiet (a short line per gate
calling the next player, nothing while everyone drafts, one post that reveals the draft
with the board and opens the first turn), private replies speak to the player in the
second person, and refusals stay private."""

from __future__ import annotations

import random
import re
from typing import Any

from bot_harness import TableOf, buttons_of, open_game, set_up

from bot.client import MountainBot
from rules.selfplay import random_action
from rules.steps import seats_to_act

# a private reply speaks to its player: never of "their gate", "their turn", ...
THIRD_PERSON = re.compile(r"\b(their|they|them)\b", re.IGNORECASE)


async def play_listening(
    bot: MountainBot, by_seat: dict[int, Any], thread: Any, game_id: int, seed: int
) -> list[Any]:
    """Play random legal actions to the end, as `play_to_end` does (the gates by
    `/mk gate`, the draft by buttons, everyone in turn); every few actions a player
    whose turn it is not tries to end a turn. Returns every interaction's result."""
    rng = random.Random(seed)
    results = []
    while True:
        state = (await bot.service.load(game_id)).state
        assert state is not None
        if state.phase == "over":
            return results
        if state.phase == "draft":
            results += await draft_all_listening([by_seat[s] for s in sorted(by_seat)], thread)
            continue
        seat = seats_to_act(state)[0]
        action = random_action(state, seat, rng)
        if len(results) % 7 == 3:
            other = next(p for s, p in by_seat.items() if s != seat)
            refused = await other.slash(thread, "mk end")
            assert refused.ephemeral, "a refusal is private"
            texts = [m.content for m in [refused.response, *refused.followups] if m is not None]
            assert any("not your turn" in t for t in texts), texts
            results.append(refused)
        if state.phase == "gates":
            result = await by_seat[seat].slash(thread, "mk gate", point=str(action).split()[1])
        else:
            result = await by_seat[seat].slash(thread, "mk act", action=str(action))
        assert result.acknowledged and result.ephemeral
        results.append(result)
        assert len(results) < 4000


def private_texts(results: list[Any]) -> list[str]:
    return [
        m.content
        for r in results
        for m in [r.response, *r.followups]
        if m is not None and m.flags.ephemeral
    ]


async def check_the_table(
    bot: MountainBot, players: list[Any], thread: Any, game_id: int, seed: int
) -> None:
    info = await bot.service.info(game_id)
    by_user = {p.id: p for p in players}
    by_seat = {s.seat: by_user[s.user_id] for s in info.seats if s.user_id is not None}
    called = {s.seat: f"{by_seat[s.seat].name} ({s.label.capitalize()})" for s in info.seats}
    # a called player is named once, by their mention (Discord shows the name)
    mention = {s.seat: f"<@{by_seat[s.seat].id}> ({s.label.capitalize()})" for s in info.seats}
    results = await play_listening(bot, by_seat, thread, game_id, seed)
    messages = [m for m in thread.history() if m.author.bot]

    # the Start message maps every seat to its person, in turn order, with teams
    start = next(m for m in messages if "the game has begun" in m.content)
    for seat in sorted(called):
        assert f"{seat + 1}. {called[seat]}" in start.content, start.content
    if info.config.get("teams"):
        for team in {s.team for s in info.seats}:
            partners = " & ".join(called[s.seat] for s in info.seats if s.team == team)
            assert partners in start.content, start.content
    # and it calls the first player, by name, to place the first gate
    assert f"{called[0]}: place your gate with `/mk gate`." in start.content, start.content
    assert "then everyone keeps four starting trolls" in start.content.lower(), start.content

    # each gate is one short line, without an image, calling the next player by name;
    # the last one calls everyone to the draft
    later = messages[messages.index(start) + 1 :]
    seats = sorted(called)
    for seat, post in zip(seats, later[: len(seats)], strict=True):
        lines = post.content.splitlines()
        assert lines[0].startswith(f"**{called[seat]}** placed their gate on start point")
        assert not post.attachments, post.content
        if seat + 1 < len(seats):
            assert len(lines) == 2, post.content
            assert lines[1].startswith(f"{mention[seat + 1]}: place your gate with `/mk gate`.")
            assert post.raw_mentions == [by_seat[seat + 1].id]
        else:
            assert "Every gate is placed" in post.content, post.content
            everyone = ", ".join(mention[s] for s in seats)
            assert lines[-1].startswith(f"{everyone}: keep your starting trolls with `/mk draft`.")
            assert sorted(post.raw_mentions) == sorted(p.id for p in players)

    # nothing is posted while everyone drafts; the last keep makes one post that reveals
    # every player's four trolls, shows the board with every gate and opens the first
    # turn, calling the first player
    ready = later[len(seats)]
    lines = ready.content.splitlines()
    assert lines[0] == "Everyone has drafted. The starting trolls:", ready.content
    for seat in seats:
        kept = next(line for line in lines if line.startswith(f"• **{called[seat]}** kept a"))
        assert all(f" in A{n}" in kept for n in range(1, 5)), kept
    assert "The mountain is ready and the first turn begins." in lines
    assert lines[-1].startswith(f"{mention[0]}: it's your turn"), ready.content
    assert ready.raw_mentions == [by_seat[0].id]
    assert [a.filename for a in ready.attachments] == ["board.png"]
    assert sum("Everyone has drafted" in m.content for m in later) == 1
    # pings are for the play: none during the setup
    assert not any("it's your turn" in m.content for m in later[: len(seats)])

    # after the setup no post repeats a keep or a gate
    for post in later[len(seats) + 1 :]:
        assert "kept a" not in post.content and "gate on start point" not in post.content

    # every turn post names its player and calls the next, mentioning exactly them
    turn_posts = [m for m in later if m.content.startswith("**")]
    assert len(turn_posts) > 10
    for post in turn_posts:
        assert any(post.content.startswith(f"**{c}") for c in called.values()), post.content
    pings = [m for m in later if "it's your turn" in m.content]
    assert pings
    for ping in pings:
        assert len(ping.raw_mentions) == 1
        seat = next(s.seat for s in info.seats if s.user_id == ping.raw_mentions[0])
        [call] = [line for line in ping.content.splitlines() if "it's your turn" in line]
        assert call.startswith(f"{mention[seat]}: it's your turn"), ping.content
        assert by_seat[seat].name not in call, call

    # the end names the winners, attaches the sheet, the replay and the record
    final = messages[-1]
    view = await bot.service.view(game_id, None)
    assert view.outcome is not None
    for seat in view.outcome["winning_seats"]:
        assert called[seat] in final.content
    names = {a.filename for a in final.attachments}
    assert {"score-sheet.png", "replay.webp", f"game-{game_id}.json"} <= names

    # no private reply speaks of the player in the third person
    private = private_texts(results)
    assert len(private) > 20
    offending = [t for t in private if THIRD_PERSON.search(t)]
    assert not offending, offending[:5]


async def draft_all_listening(players: list[Any], thread: Any) -> list[Any]:
    """`draft_all`, keeping every result (the private draft messages and answers)."""
    results = []
    for p in players:
        result = await p.slash(thread, "mk draft")
        results.append(result)
        for _ in range(4):
            button = buttons_of(result.response)[0]
            results.append(await p.click(result.response.message, custom_id=button["custom_id"]))
    return results


async def test_a_two_player_game_reads_like_a_table_of_friends(table_of: TableOf) -> None:
    async with table_of("alice", "bob") as (env, bot, channel, players):
        thread, game_id = await open_game(env, players, channel)
        await check_the_table(bot, players, thread, game_id, seed=5)


async def test_a_four_player_team_game_reads_like_a_table_of_friends(table_of: TableOf) -> None:
    async with table_of("ann", "ben", "cat", "dan", seed=4) as (env, bot, channel, players):
        thread, game_id = await open_game(env, players, channel, teams=True)
        await check_the_table(bot, players, thread, game_id, seed=8)


async def test_a_player_who_changes_their_server_nickname_is_called_by_it_next_turn(
    table_of: TableOf,
) -> None:
    async with table_of("alice", "bob") as (env, bot, channel, players):
        guild = channel.guild
        thread, game_id = await open_game(env, players, channel)
        await set_up(bot, players, thread, game_id)
        info = await bot.service.info(game_id)
        assert [s.name for s in info.seats] == ["alice", "bob"]
        env.backend.edit_member(guild.id, players[0].id, {"nick": "Queen Alice"})
        by_seat = {
            s.seat: players[0] if s.user_id == players[0].id else players[1] for s in info.seats
        }
        rng = random.Random(2)
        while True:
            state = (await bot.service.load(game_id)).state
            assert state is not None
            seat = seats_to_act(state)[0]
            action = random_action(state, seat, rng)
            await by_seat[seat].slash(thread, "mk act", action=str(action))
            if seat == 0 and state.phase == "play" and str(action) == "end":
                break
        info = await bot.service.info(game_id)
        assert info.seats[0].name == "Queen Alice"
        posts = [m for m in thread.history() if m.content.startswith("**Queen Alice (Blue)**")]
        assert posts, [m.content for m in thread.history()][-4:]
