"""Seats belong to their players: taking over a seat needs the new player's acceptance
(or the agreement of whoever plays it, when the creator asks for it for themselves),
a server admin assigns directly, the seat's own player always takes it back, and a
refused attempt changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from service_checks import substitute
from service_helpers import STRANGER, USERS, Service, open_service, raw

from bot.service import GameInfo, NotAllowedError, Owed, SeatingError
from bot.service.owed import SeatNews

A, B, C, D = USERS[:4]
ADMIN = STRANGER


async def creator_left_game(service: Service) -> GameInfo:
    """A opens a 2-player game without a seat (left the lobby); B and C play it."""
    game = await service.create_game(A, {"players": 2}, join=False)
    await service.seating.join(game.id, B, name="bob")
    await service.seating.join(game.id, C, name="carol")
    return await service.start(game.id, A)


async def news(service: Service, game_id: int) -> list[SeatNews]:
    owed: list[Owed] = await service.outbox.owed(game_id=game_id, everything=True)
    return [o.payload for o in owed if isinstance(o.payload, SeatNews)]


def table(path: Path, game_id: int) -> tuple[object, ...]:
    """The seats and everything owed: what a refused attempt must leave as it was."""
    db = raw(path)
    seats = db.execute("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
    rows = seats.fetchall()
    owed = db.execute("SELECT COUNT(*) FROM outbox WHERE game_id = ?", (game_id,)).fetchall()
    db.close()
    return (rows, owed)


def seat_of(info: GameInfo, user: int) -> int:
    seat = next(s for s in info.seats if s.user_id == user)
    return seat.seat


@pytest.mark.sqlite_only
async def test_an_offer_changes_nothing_until_the_offered_user_accepts(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        info = await creator_left_game(service)
        seat = seat_of(info, B)
        before = table(path, info.id)
        offer = await service.seating.offer_seat(info.id, A, seat, D, by_name="al")
        assert offer.accepter_id == D and offer.token
        still = await service.info(info.id)
        assert still.seats[seat].controller_id == B
        offered = (await news(service, info.id))[-1]
        assert offered.change == "offered" and offered.accepter_id == D
        assert offered.other_user_id == D and offered.by_name == "al"
        # nobody but the offered user can accept it
        for other in (A, B, C, ADMIN):
            with pytest.raises(NotAllowedError):
                await service.seating.accept_seat(info.id, other, seat, D, A, offer.token)
        assert table(path, info.id)[0] == before[0]
        taken = await service.seating.accept_seat(info.id, D, seat, D, A, offer.token, name="dave")
        assert taken.seats[seat].controller_id == D and taken.seats[seat].user_id == B
        told = (await news(service, info.id))[-1]
        assert told.change == "substitute" and told.how == "accepted"
        assert told.before is not None and told.before.user_id == B
        assert told.player.name == "dave" and told.owner_id == B
        # the same button again: the seat changed since, the offer is stale
        with pytest.raises(SeatingError, match="no longer valid"):
            await service.seating.accept_seat(info.id, D, seat, D, A, offer.token)


@pytest.mark.sqlite_only
async def test_the_creator_cannot_take_a_played_seat_without_its_player(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        info = await creator_left_game(service)
        seat = seat_of(info, B)
        before = table(path, info.id)
        with pytest.raises(NotAllowedError, match="acceptance"):
            await substitute(service, info.id, A, seat, A, name="al")
        assert table(path, info.id) == before
        # asking for it posts a request that only bob, who plays the seat, can accept
        offer = await service.seating.offer_seat(info.id, A, seat, A, name="al")
        assert offer.accepter_id == B
        for other in (A, C, D):
            with pytest.raises(NotAllowedError):
                await service.seating.accept_seat(info.id, other, seat, A, A, offer.token)
        assert (await service.info(info.id)).seats[seat].controller_id == B
        agreed = await service.seating.accept_seat(info.id, B, seat, A, A, offer.token, name="al")
        assert agreed.seats[seat].controller_id == A
        told = (await news(service, info.id))[-1]
        assert told.change == "substitute" and told.how == "agreed"
        # bob takes it back whenever he likes
        back = await substitute(service, info.id, B, seat, None, name="bob")
        assert back.seats[seat].controller_id == B and back.seats[seat].substitute_id is None
        told = (await news(service, info.id))[-1]
        assert told.change == "returned" and told.how == "own"
        assert told.before is not None and told.before.user_id == A


@pytest.mark.sqlite_only
async def test_a_stranger_or_another_player_cannot_offer_a_seat(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        info = await creator_left_game(service)
        seat = seat_of(info, B)
        before = table(path, info.id)
        with pytest.raises(NotAllowedError):
            await service.seating.offer_seat(info.id, D, seat, D)
        with pytest.raises(NotAllowedError):
            await service.seating.offer_seat(info.id, C, seat, D)
        # a player of another seat cannot be offered this one
        with pytest.raises(SeatingError, match="already plays a seat"):
            await service.seating.offer_seat(info.id, A, seat, C)
        assert table(path, info.id) == before


async def test_a_seat_on_autopilot_is_the_creators_to_take_and_its_players_to_take_back(
    tmp_path: Path,
) -> None:
    async with open_service(tmp_path / "g.db") as service:
        info = await creator_left_game(service)
        seat = seat_of(info, B)
        await service.seating.set_autopilot(info.id, B, seat, True)
        taken = await service.seating.offer_seat(info.id, A, seat, A, name="al")
        assert taken.accepter_id is None
        assert taken.info.seats[seat].controller_id == A
        assert not taken.info.seats[seat].autopilot
        told = (await news(service, info.id))[-1]
        assert told.how == "absent" and told.player.name == "al"
        # naming themselves in `substitute` gives the seat back to its own player
        back = await service.seating.offer_seat(info.id, B, seat, B, name="bob")
        assert back.accepter_id is None
        assert back.info.seats[seat].controller_id == B
        assert back.info.seats[seat].name == "bob"
        with pytest.raises(SeatingError, match="already played by its own player"):
            await substitute(service, info.id, B, seat, None)


async def test_a_server_admin_assigns_a_seat_directly(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db") as service:
        info = await creator_left_game(service)
        seat = seat_of(info, C)
        done = await service.seating.offer_seat(
            info.id, ADMIN, seat, D, admin=True, name="dave", by_name="mod"
        )
        assert done.accepter_id is None and done.info.seats[seat].controller_id == D
        told = (await news(service, info.id))[-1]
        assert told.change == "substitute" and told.how == "admin" and told.by_name == "mod"
        # the seat's player still takes it back without asking anyone
        back = await substitute(service, info.id, C, seat, None, name="carol")
        assert back.seats[seat].controller_id == C


@pytest.mark.sqlite_only
async def test_an_offer_goes_stale_when_the_seat_changes(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    async with open_service(path) as service:
        info = await creator_left_game(service)
        seat = seat_of(info, B)
        offer = await service.seating.offer_seat(info.id, B, seat, D)
        assert offer.accepter_id == D
        await service.seating.set_autopilot(info.id, B, seat, True)
        before = table(path, info.id)
        with pytest.raises(SeatingError, match="no longer valid"):
            await service.seating.accept_seat(info.id, D, seat, D, B, offer.token)
        assert table(path, info.id) == before
        assert (await service.info(info.id)).seats[seat].controller_id == B


async def test_the_player_takes_the_seat_back_from_a_substitute(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db") as service:
        info = await creator_left_game(service)
        seat = seat_of(info, B)
        offer = await service.seating.offer_seat(info.id, B, seat, D)
        await service.seating.accept_seat(info.id, D, seat, D, B, offer.token, name="dave")
        # the substitute cannot keep the seat from its player, nor can the creator
        with pytest.raises(NotAllowedError):
            await substitute(service, info.id, D, seat, A)
        back = await service.seating.offer_seat(info.id, B, seat, None, name="bob")
        assert back.accepter_id is None
        assert back.info.seats[seat].controller_id == B
        told = (await news(service, info.id))[-1]
        assert told.change == "returned" and told.how == "own"
        assert told.before is not None and told.before.name == "dave"
