"""Cave Troll at the table through real discord.py (SimCord): `/mk new game:cave-troll`
opens its lobby, the table's Join and Start deal it, and its own commands under
`/cave` play it: the start post, a turn by commands with the cave attached and
described, a refused move that changes nothing and says why, the board and the
private panel, autocomplete from the legal actions, a Polish reader's answers."""

from __future__ import annotations

from typing import Any

import pytest
from bot_harness import TableOf, history_from, open_game, pngs, speaking, visible_count

from bot.client import MountainBot
from cave_troll.legal import legal_actions
from cave_troll.state import State
from cave_troll.turns import to_act


async def state_of(bot: MountainBot, game_id: int) -> State:
    state = (await bot.service.load(game_id)).state
    assert isinstance(state, State)
    return state


async def by_seat(bot: MountainBot, game_id: int, players: list[Any]) -> dict[int, Any]:
    """The player of each seat."""
    info = await bot.service.info(game_id)
    users = {p.id: p for p in players}
    return {s.seat: users[s.controller_id] for s in info.seats if s.controller_id in users}


async def test_a_game_of_cave_troll_opens_starts_and_plays_a_turn_by_commands(
    table_of: TableOf,
) -> None:
    async with table_of("alice", "bob", "carol") as (env, bot, channel, players):
        thread, game_id = await open_game(env, players, channel, game="cave-troll")
        assert (await bot.service.info(game_id)).rules == "cave-troll"
        start = thread.history()[-1]
        assert "Cave Troll has begun" in start.content, start.content
        assert "/cave draw" in start.content
        seats = await by_seat(bot, game_id, players)
        state = await state_of(bot, game_id)
        first = seats[to_act(state)[0]]
        assert f"<@{first.id}>" in start.content

        # not their turn: refused, nothing changed
        other = next(p for s, p in seats.items() if s != to_act(state)[0])
        before = state.n_actions
        refused = await other.slash(thread, "cave draw")
        assert refused.acknowledged
        assert "turn" in refused.response.content, refused.response.content
        assert (await state_of(bot, game_id)).n_actions == before

        seen = visible_count(env, thread)
        done = await first.slash(thread, "cave draw")
        assert done.response.content.startswith("Done: you drew"), done.response.content
        state = await state_of(bot, game_id)
        # the first round's one action: the token drawn is placed, then the turn ends
        while state.turn is not None and state.turn.seat == to_act(state)[0]:
            kinds = {str(a).split()[0] for a in legal_actions(state)}
            if "place" in kinds:
                where = str(next(a for a in legal_actions(state) if str(a).startswith("place")))
                answer = await first.slash(thread, "cave place", where=where.split()[1])
            else:
                answer = await first.slash(thread, "cave end")
            assert answer.response.content.startswith("Done: you"), answer.response.content
            state = await state_of(bot, game_id)
            if seats[to_act(state)[0]] is not first:
                break
        posts = history_from(env, thread, seen)
        post = next(p for p in posts if p.attachments)
        assert "drew" in post.content
        cave = post.attachments[0]
        assert cave.filename == "cave.png" and "The cave of 28 rooms" in (cave.description or "")
        assert (await pngs(post))[0].width > 500


@pytest.mark.parametrize("share", [False, True])
async def test_the_board_and_the_panel_are_attached_with_what_they_show(
    table_of: TableOf, share: bool
) -> None:
    async with table_of("alice", "bob") as (env, _bot, channel, players):
        thread, _game_id = await open_game(env, players, channel, game="cave-troll")
        board = await players[0].slash(thread, "cave board", share=share)
        message = board.followups[-1] if share else board.response
        assert message.attachments and "The cave" in (message.attachments[0].description or "")
        panel = await players[1].slash(thread, "cave panel")
        assert panel.response.ephemeral
        described = panel.response.attachments[0].description or ""
        assert "panel" in described and "Tokens left in the stack (21)" in described, described


async def test_a_polish_reader_plays_and_is_refused_in_polish(
    table_of: TableOf, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with table_of("alice", "bob") as (env, bot, channel, players):
        speaking(monkeypatch, {p.id: "pl" for p in players})
        thread, game_id = await open_game(env, players, channel, game="cave-troll")
        seats = await by_seat(bot, game_id, players)
        state = await state_of(bot, game_id)
        first = seats[to_act(state)[0]]
        other = next(p for p in players if p is not first)
        refused = await other.slash(thread, "cave draw")
        assert refused.response.content.startswith("To nie twoja tura"), refused.response.content
        bad = await first.slash(thread, "cave place", where="A1")
        assert "Nie masz nic do położenia" in bad.response.content, bad.response.content
        drew = await first.slash(thread, "cave draw")
        assert drew.response.content.startswith("Zrobione: dobrano żeton: "), drew.response.content
        status = await first.slash(thread, "cave status")
        assert "Możesz teraz:" in status.response.content, status.response.content
        helped = await first.slash(thread, "cave help", topic="troll")
        assert "Jaskiniowy Troll" in helped.response.content


async def test_autocomplete_offers_the_legal_places_pieces_and_artifacts(
    table_of: TableOf,
) -> None:
    async with table_of("alice", "bob", seed=3) as (env, bot, channel, players):
        thread, game_id = await open_game(env, players, channel, game="cave-troll")
        seats = await by_seat(bot, game_id, players)
        state = await state_of(bot, game_id)
        seat = to_act(state)[0]
        player, other = seats[seat], seats[1 - seat]
        kinds = {str(a) for a in legal_actions(state, seat)}
        offered = await player.autocomplete(thread, "cave act", "action", "")
        assert {c["value"] for c in offered} == kinds == {"draw", "end"}
        assert await other.autocomplete(thread, "cave act", "action", "") == []
        # a turn with pieces on the board: each option offers what is legal, labelled
        while True:
            state = await state_of(bot, game_id)
            seat = to_act(state)[0]
            moves = [a for a in legal_actions(state, seat) if str(a).startswith("move ")]
            if moves:
                break
            action = next(
                (a for a in legal_actions(state, seat) if str(a).split()[0] in ("place", "draw")),
                legal_actions(state, seat)[-1],
            )
            assert (await seats[seat].slash(thread, "cave act", action=str(action))).acknowledged
        player = seats[seat]
        pieces = await player.autocomplete(thread, "cave move", "piece", "")
        assert {c["value"] for c in pieces} == {str(m).split()[1] for m in moves}
        assert all(" in " in c["name"] for c in pieces), pieces
        piece = pieces[0]["value"]
        places = await player.autocomplete(thread, "cave move", "to", "", piece=piece)
        legal = {str(m).split()[2] for m in moves if str(m).split()[1] == piece}
        assert {c["value"] for c in places} == legal
        assert all("·" in c["name"] for c in places), places


async def test_a_cave_command_in_the_other_games_thread_is_refused_saying_where(
    table_of: TableOf,
) -> None:
    async with table_of("alice", "bob") as (env, bot, channel, players):
        thread, game_id = await open_game(env, players, channel)
        seq = (await bot.service.load(game_id)).seq
        for command in ("cave draw", "cave board", "cave panel", "cave log"):
            refused = await players[0].slash(thread, command)
            assert "`/mk`" in refused.response.content, (command, refused.response.content)
        assert (await bot.service.load(game_id)).seq == seq
        assert await players[0].autocomplete(thread, "cave act", "action", "") == []
