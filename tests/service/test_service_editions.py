"""A game keeps the rules it began with: one of edition 1 (created so, or stored before
editions existed: its config has no "edition") still drafts first and places its gates
after, through the service, and the table is told in that order."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from service_helpers import USERS, open_service, play_moves, raw, record_for

from bot.service.owed import StartPost, TurnPost, read_payload
from bot.service.protocol import StoryData
from rules.state import EDITION

A, B = USERS[:2]


@pytest.mark.sqlite_only
@pytest.mark.parametrize("how", ["option", "stored before editions"])
async def test_a_game_of_edition_1_drafts_first_then_places_its_gates(
    tmp_path: Path, how: str
) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        if how == "option":
            game = await service.create_game(A, {"players": 2, "edition": 1})
            assert game.config["edition"] == 1
        else:
            game = await service.create_game(A, {"players": 2})
            assert game.config["edition"] == EDITION
            config = {k: v for k, v in game.config.items() if k != "edition"}
            db = raw(path)
            db.execute("UPDATE games SET config = ? WHERE id = ?", (json.dumps(config), game.id))
            db.close()
        await service.seating.join(game.id, B)
        info = await service.start(game.id, A)
        loaded = await service.load(info.id)
        assert loaded.state is not None and loaded.state.config.edition == 1
        # the start calls everyone to the draft at once
        [start] = [o.payload for o in await service.outbox.owed(game_id=info.id)]
        assert isinstance(start, StartPost)
        assert start.phase == "draft" and start.to_act == (0, 1)

        record = record_for(info)
        moves = [m for m in record.moves if str(m.action).split()[0] in ("keep", "gate")]
        keeps = [m for m in moves if str(m.action).startswith("keep")]
        gates = [m for m in moves if str(m.action).startswith("gate")]
        assert moves == keeps + gates and len(keeps) == 8, "the draft first, then the gates"
        await play_moves(service, info, keeps[:-1])
        assert len(await service.outbox.owed(game_id=info.id)) == 1, "the draft is secret"
        await play_moves(service, info, keeps[-1:])
        # one post reveals the draft and calls the first gate, without an image
        [reveal] = [o.payload for o in await service.outbox.owed(game_id=info.id)][1:]
        assert isinstance(reveal, TurnPost) and reveal.images == "none"
        assert [t.player.seat for t in reveal.lines] == [0, 1]
        assert all(_kind(t.sentences[0]) == "kept" for t in reveal.lines)
        assert [p.seat for p in reveal.calls] == [0] and reveal.call_phase == "gates"
        # the first gate calls the second; the last one shows the board and opens play
        await play_moves(service, info, gates[:1])
        [first] = [o.payload for o in await service.outbox.owed(game_id=info.id)][2:]
        assert isinstance(first, TurnPost) and first.images == "none"
        assert [p.seat for p in first.calls] == [1] and first.call_phase == "gates"
        await play_moves(service, info, gates[1:])
        [ready] = [o.payload for o in await service.outbox.owed(game_id=info.id)][3:]
        assert isinstance(ready, TurnPost) and ready.images == "board"
        assert [p.seat for p in ready.calls] == [0] and ready.call_phase == "play"
        loaded = await service.load(info.id)
        assert loaded.state is not None and loaded.state.phase == "play"
        # and the game plays on to its recorded end
        await play_moves(service, info, record.moves[len(moves) :])
        loaded = await service.load(info.id)
        assert loaded.state is not None
        assert loaded.state.to_json() == record.state.to_json()
        stored = await service.history.record(info.id)
        assert stored["config"].get("edition", 1) == 1


def _kind(story: StoryData) -> object:
    return story.get("kind") if isinstance(story, dict) else None


@pytest.mark.sqlite_only
def test_a_start_post_owed_before_the_phase_was_stored_began_with_the_draft() -> None:
    post = read_payload('{"kind": "start", "players": [], "to_act": [0, 1]}')
    assert isinstance(post, StartPost) and post.phase == "draft"
