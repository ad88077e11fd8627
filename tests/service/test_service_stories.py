"""Stories in the log: each action's story is stored as the rules' data (JSON), so the
bot tells it in any language later; a game stored before stories were data kept English
sentences, which the service tells anew from the log when it is read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from service_helpers import open_service, play_moves, raw, record_for, started_game

from bot.service.stories import played, read, stored, took_back


async def test_each_action_keeps_its_story_as_data(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db") as service:
        info = await started_game(service)
        await play_moves(service, info, record_for(info).moves[:30])
        log = await service.history.log(info.id)
        assert len(log) == 30
        for entry in log:
            # a kind of story for each kind of action, named as its notation's verb; the
            # draft's keeps, once it is over, in the words of its reveal
            assert isinstance(entry.story, dict), entry.story
            verb = entry.notation.split()[0]
            assert entry.story["kind"] == {"keep": "kept"}.get(verb, verb)


@pytest.mark.sqlite_only
async def test_an_older_games_english_sentences_are_told_anew_from_its_log(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        info = await started_game(service)
        await play_moves(service, info, record_for(info).moves[:40])
        told = [e.story for e in await service.history.log(info.id)]
        mover = info.seats[0].controller_id
        assert mover is not None
        since = [e.story for e in await service.history.changes_since_last_turn(info.id, mover)]
    # as a bot before structured stories stored them: English sentences (and a few
    # entries of the oldest games with none at all)
    db = raw(path)
    db.execute("UPDATE actions SET story = 'did something, in English' WHERE seq % 3 > 0")
    db.execute("UPDATE actions SET story = NULL WHERE seq % 3 = 0")
    db.close()
    async with open_service(path) as service:
        # told anew from the log: the same stories as a game stored with them
        assert [e.story for e in await service.history.log(info.id)] == told
        assert [
            e.story for e in await service.history.changes_since_last_turn(info.id, mover)
        ] == since
        # and the stored rows are left as they were (reading changes nothing)
    db = raw(path)
    assert db.execute("SELECT count(*) FROM actions WHERE story IS NULL").fetchone()[0] > 0
    db.close()


def test_a_story_is_stored_as_json_text_and_read_back() -> None:
    story = {"kind": "dig", "shape": "N5", "cells": ["K3", "K4"], "mineral": "iron", "honor": 6}
    text = stored(story)
    assert json.loads(text) == story and read(text) == story
    # an older game's sentence stays what it was, and so does a damaged one
    assert read("ended their turn") == stored("ended their turn") == "ended their turn"
    assert read("{not json") == "{not json"
    assert read(None) is None
    assert took_back(story) == {"kind": "undo", "taken": story}
    assert played("end") == {"kind": "played", "notation": "end"}
