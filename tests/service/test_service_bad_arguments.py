"""The service's public methods refuse arguments of the wrong type or range with a
`ServiceError` sentence before any work: an int, dict, None or bytes action; a game id
beyond SQLite's 64 bits (10**30 raised `OverflowError`); a negative or huge user id.
Nothing is stored on refusal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from service_checks import check_game, digest_due_at, games_of_user, legal_actions, rebuild_snapshot
from service_helpers import USERS, open_service, raw, started_game, user_of

from bot.service import GameNotFoundError, NotInGameError, ServiceError
from bot.service.arguments import ID_MAX, ID_MIN, MAX_ACTION_TEXT, InvalidArgumentError

A, B = USERS[:2]
HUGE = 10**30


def everything(path: Path) -> tuple[object, ...]:
    """Every row of every table: a refusal must change none."""
    db = raw(path)
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    rows = tuple((t, tuple(db.execute(f"SELECT * FROM {t}").fetchall())) for t in sorted(tables))
    db.close()
    return rows


@pytest.mark.parametrize(
    "action",
    [7, {"verb": "end"}, None, b"end", ["end"], 1.5, True, ("end",)],
    ids=["int", "dict", "None", "bytes", "list", "float", "bool", "tuple"],
)
async def test_an_action_of_the_wrong_type_is_a_sentence_and_nothing_changes(
    tmp_path: Path, action: Any
) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        info = await started_game(service, players=2)
        before = everything(path)
        for call in (
            service.act(info.id, user_of(info, 0), action, interaction_id=77),
            service.preview(info.id, user_of(info, 0), action),
            service.act_for_autopilot(info.id, 0, action),
        ):
            with pytest.raises(InvalidArgumentError, match="An action must be text") as caught:
                await call
            assert isinstance(caught.value, ServiceError)
            named = "None" if action is None else type(action).__name__
            assert named in caught.value.message
        assert everything(path) == before
        assert not await service.handled(77)


async def test_an_overlong_action_text_is_refused_before_the_rules(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        info = await started_game(service, players=2)
        before = everything(path)
        with pytest.raises(InvalidArgumentError, match=f"at most {MAX_ACTION_TEXT} characters"):
            await service.act(info.id, user_of(info, 0), "keep " + "x" * 10_000_000)
        # within the service's bound the rules answer with their own sentence (for an
        # action of the moment: seat 0 places the first gate; a keep now is refused for
        # the moment before its words are read)
        with pytest.raises(ValueError, match="at most 500 characters"):
            await service.act(info.id, user_of(info, 0), "gate " + "x" * 600)
        with pytest.raises(ValueError, match="draft begins once every gate is placed"):
            await service.act(info.id, user_of(info, 0), "keep " + "x" * 600)
        assert everything(path) == before


@pytest.mark.parametrize("game_id", [HUGE, -HUGE, ID_MAX + 1, ID_MIN - 1, 2**64])
async def test_a_game_id_beyond_64_bits_is_a_game_that_does_not_exist(
    tmp_path: Path, game_id: int
) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        await started_game(service, players=2)
        before = everything(path)
        calls = [
            service.act(game_id, A, "end"),
            service.undo(game_id, A),
            service.preview(game_id, A, "end"),
            service.info(game_id),
            service.load(game_id),
            service.view(game_id, A),
            service.history.log(game_id),
            service.history.record(game_id),
            service.seating.join(game_id, B),
            service.seating.leave(game_id, B),
            service.start(game_id, A),
            service.abandon(game_id, A),
            legal_actions(service, game_id, A),
            service.history.turn_status(game_id),
            check_game(service, game_id),
            rebuild_snapshot(service, game_id),
            service.seat_version(game_id, 0),
            service.play_owed_move(game_id, 0),
            service.seating.kick(game_id, A, B),
            service.seating.set_autopilot(game_id, A, 0, True),
        ]
        for call in calls:
            with pytest.raises(GameNotFoundError, match="There is no game"):
                await call
        assert everything(path) == before


@pytest.mark.parametrize("game_id", [-1, 0, ID_MIN, ID_MAX])
async def test_a_game_id_within_64_bits_that_names_no_game(tmp_path: Path, game_id: int) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        await started_game(service, players=2)
        before = everything(path)
        with pytest.raises(GameNotFoundError, match="There is no game"):
            await service.act(game_id, A, "end")
        with pytest.raises(GameNotFoundError):
            await service.info(game_id)
        assert everything(path) == before


@pytest.mark.parametrize("game_id", ["1", 1.0, None, True, b"1"])
async def test_a_game_id_of_the_wrong_type_is_a_sentence(tmp_path: Path, game_id: Any) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        await started_game(service, players=2)
        before = everything(path)
        for call in (service.act(game_id, A, "end"), service.info(game_id)):
            with pytest.raises(InvalidArgumentError, match="A game is named by its number"):
                await call
        assert everything(path) == before


@pytest.mark.parametrize("user_id", [HUGE, -HUGE, "1001", None, 1001.0, False])
async def test_a_user_id_of_the_wrong_type_or_range_is_a_sentence(
    tmp_path: Path, user_id: Any
) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        info = await started_game(service, players=2)
        before = everything(path)
        calls = [
            service.act(info.id, user_id, "end"),
            service.undo(info.id, user_id),
            service.preview(info.id, user_id, "end"),
            service.seating.join(info.id, user_id),
            legal_actions(service, info.id, user_id),
            service.history.changes_since_last_turn(info.id, user_id),
            games_of_user(service, user_id),
            service.your_games.listing(user_id),
            service.your_games.set_digest(user_id, True),
            digest_due_at(service, user_id),
        ]
        calls.append(service.create_game(user_id, {"players": 2}))
        for call in calls:
            with pytest.raises(InvalidArgumentError, match="An id must be a whole number"):
                await call
        assert everything(path) == before


async def test_a_negative_user_id_is_simply_not_in_the_game(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        info = await started_game(service, players=2)
        before = everything(path)
        with pytest.raises(NotInGameError):
            await service.act(info.id, -1, "end")
        with pytest.raises(NotInGameError):
            await service.undo(info.id, -(2**63))
        assert everything(path) == before


@pytest.mark.parametrize("bad", [HUGE, "7", -HUGE])
async def test_interaction_and_thread_ids_beyond_64_bits_are_refused(
    tmp_path: Path, bad: Any
) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        info = await started_game(service, players=2)
        before = everything(path)
        calls = [
            service.act(info.id, user_of(info, 0), "end", interaction_id=bad),
            service.undo(info.id, user_of(info, 0), interaction_id=bad),
            service.handled(bad),
            service.game_in_thread(bad),
            service.set_place(info.id, guild_id=None, channel_id=None, thread_id=bad),
            service.create_game(A, {"players": 2}, thread_id=bad),
        ]
        for call in calls:
            with pytest.raises(InvalidArgumentError, match="An id must be a whole number"):
                await call
        assert everything(path) == before


async def test_every_refusal_message_is_a_sentence_without_the_value(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db") as service:
        info = await started_game(service, players=2)
        with pytest.raises(InvalidArgumentError) as caught:
            await service.act(info.id, A, {"secret": "x" * 1000})
        text = caught.value.message
        assert text.endswith(".") and "secret" not in text and len(text) < 200
