"""Questions only tests ask the service, kept here as the tests' own helpers (the
service answers what the bot asks): a seat's legal actions in notation, a whole log's
check against its chain, a snapshot rewritten from the log, when a digest is due, a
user's games by status, and a seat handed over only where nobody's acceptance is
needed.

    from service_checks import check_game
    assert await check_game(service, game_id) == 12
"""

from __future__ import annotations

from typing import Any

from bot.i18n.catalogue import N_
from bot.service import GameInfo, GameService
from bot.service.arguments import ABSENT, check_arguments
from bot.service.errors import NotAllowedError
from bot.service.loading import (
    corrupt,
    game_and_seats,
    parse_config,
    rebuild_state,
    storage_full,
    verify,
)
from bot.service.seats import (
    RUNNING,
    handover,
    require_status,
    seat_numbered,
    seat_of_controller,
    seat_user,
)
from bot.store import GameStatus, SnapshotRecord, WriteFaultError

Service = GameService[Any, Any]


async def legal_actions(service: Service, game_id: int, user_id: int) -> list[str]:
    """The user's legal actions now, in notation (none when it is not their turn)."""
    check_arguments(game_id, user_id)
    loaded = await service.load(game_id)
    seat = seat_of_controller(loaded.seats, user_id).seat
    state = loaded.state
    rules = service.rules
    if loaded.game.status != "active" or state is None or seat not in rules.to_act(state):
        return []
    return [rules.notation(a) for a in rules.legal_actions(state, seat)]


async def check_game(service: Service, game_id: int) -> int:
    """Check every log entry against the chain and replay the whole log (a snapshot
    that disagrees is rebuilt by the load first); returns the log length or raises
    `CorruptGameError`."""
    check_arguments(game_id)
    await service.load(game_id)
    checked = await verify(service.store, service.rules, game_id)
    if checked.snapshot_problem is not None:
        raise corrupt(game_id, ValueError(f"the snapshot: {checked.snapshot_problem}"))
    return checked.seq


async def rebuild_snapshot(service: Service, game_id: int) -> int:
    """Rewrite a game's snapshot from its log (the snapshot is only a cache), in
    either direction; returns the log length."""
    check_arguments(game_id)
    game, _ = await game_and_seats(service.store, game_id)
    config = parse_config(game)
    if game.status == "open":
        return 0
    entries = await service.store.actions(game_id)
    try:
        state, seq = rebuild_state(service.rules, game, config, entries)
        text = service.rules.state_to_json(state)
    except Exception as exc:
        raise corrupt(game_id, exc) from exc
    try:
        await service.store.put_snapshot(SnapshotRecord(game_id, seq, text))
    except WriteFaultError as exc:
        raise storage_full(game_id, exc) from exc
    return seq


async def digest_due_at(service: Service, user_id: int) -> Any:
    """When the user's next daily digest is due (None: they have not opted in)."""
    check_arguments(ABSENT, user_id)
    stored = await service.store.digest(user_id)
    return None if stored is None else stored.due_at


async def games_of_user(
    service: Service, user_id: int, *, finished: bool = False
) -> list[GameInfo]:
    """The user's running games (or, with `finished`, their ended ones)."""
    check_arguments(ABSENT, user_id)
    statuses: tuple[GameStatus, ...] = ("over", "abandoned") if finished else RUNNING
    games = await service.store.games_of_user(user_id, statuses)
    return [await service.info(g.id) for g in games if g.rules == service.rules.name]


async def substitute(
    service: Service,
    game_id: int,
    by_user_id: int,
    seat: int,
    new_user_id: int | None,
    *,
    admin: bool = False,
    name: str | None = None,
    by_name: str | None = None,
) -> GameInfo:
    """Hand the seat over at once, as `seating.offer_seat` does when nobody's
    acceptance is needed; where it is needed, refused with nothing written (no offer
    posted)."""
    game, seats = await game_and_seats(service.store, game_id)
    require_status(game, "active")
    target = seat_numbered(seats, seat)
    plan = handover(game, seats, target, by_user_id, seat_user(target, new_user_id), admin)
    if plan.accepter_id is not None:
        raise NotAllowedError(N_("Taking over a seat needs the new player's acceptance."))
    offer = await service.seating.offer_seat(
        game_id, by_user_id, seat, new_user_id, admin=admin, name=name, by_name=by_name
    )
    assert offer.accepter_id is None
    return offer.info
