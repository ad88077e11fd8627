"""Stories in the store: what each action did, kept with it in the log.

A story is the rules' JSON-ready data (`GameRules.describe`), stored as JSON text in the
log entry's `story` column, so the bot can tell it in any language later. Games stored
before stories were data kept an English sentence there: read back, it stays a string,
and `restory` tells those entries anew from the log (a replay of the game, only for
such old games) so that they too are told in the reader's language.

Two stories the service tells itself, for any game: an action known only by its
notation (`played`), and an undo (`took_back`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.service.loading import standing
from bot.service.protocol import A, GameRules, S, StoryData
from bot.store import ActionRecord, GameRecord, Store


def stored(story: StoryData) -> str:
    """A story as the log stores it (JSON text; an old sentence as it was)."""
    if isinstance(story, str):
        return story
    return json.dumps(story, separators=(",", ":"), ensure_ascii=False)


def read(text: str | None) -> StoryData | None:
    """A story as the log stored it: the rules' data, or an older game's sentence."""
    if text is None or not text.startswith("{"):
        return text
    try:
        data = json.loads(text)
    except ValueError:
        return text
    return data if isinstance(data, dict) else text


def played(notation: str) -> dict[str, Any]:
    """An action told by its notation alone (an entry stored without a story)."""
    return {"kind": "played", "notation": notation}


def took_back(taken: StoryData | None) -> dict[str, Any]:
    """An undo, with the story of the action it took back."""
    return {"kind": "undo", "taken": taken}


def of(entry: ActionRecord) -> StoryData:
    """The story of a log entry (its notation when it has none)."""
    return read(entry.story) or played(entry.notation)


def all_told(entries: Sequence[ActionRecord]) -> bool:
    """Whether every entry's story is data (none is an older game's sentence, or
    missing: the oldest games stored none)."""
    return all(isinstance(read(e.story), dict) for e in entries)


def restory(
    rules: GameRules[S, A],
    game: GameRecord,
    config: dict[str, Any],
    log: Sequence[ActionRecord],
    entries: Sequence[ActionRecord],
) -> list[ActionRecord]:
    """`entries` (standing entries of the game's `log`) with every story that is still
    an old English sentence (or none) told anew from the rules, by replaying the log up
    to them.
    Entries already told as data come back as they are, and nothing is replayed when
    none needs it. A log that does not replay leaves the old sentences as they were."""
    if game.seed is None or all_told(entries):
        return list(entries)
    wanted = {e.seq for e in entries if not isinstance(read(e.story), dict)}
    told: dict[int, str] = {}
    try:
        state = rules.new_state(config, game.seed)
        for entry in standing(log):
            if entry.seq > max(wanted):
                break
            action = rules.parse_action(entry.notation)
            if entry.seq in wanted:
                told[entry.seq] = stored(rules.describe(state, entry.seat, action))
            rules.replay(state, entry.seat, action)
    except Exception:
        return list(entries)
    return [replace(e, story=told[e.seq]) if e.seq in told else e for e in entries]


async def retold(
    store: Store,
    rules: GameRules[S, A],
    game: GameRecord,
    config: dict[str, Any],
    entries: Sequence[ActionRecord],
    log: Sequence[ActionRecord] | None = None,
) -> list[ActionRecord]:
    """The entries with the English sentences of an older game told anew as stories
    (`restory`: the log, read from the store unless given, is replayed only for those)."""
    if all_told(entries):
        return list(entries)
    if log is None:
        log = await store.actions(game.id)
    return restory(rules, game, config, log, entries)
