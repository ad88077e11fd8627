"""Who sits where and who may do what: pure helpers over a game's seats."""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.i18n.catalogue import N_
from bot.service import stories
from bot.service.errors import (
    CorruptGameError,
    GameMovedOnError,
    GameStateError,
    NotAllowedError,
    NotInGameError,
    NotYourTurnError,
    SeatingError,
)
from bot.service.loading import Loaded, corrupt, parse_config
from bot.service.owed import SeatHow
from bot.service.protocol import A, GameRules, S
from bot.service.results import GameInfo, LogEntry, SeatInfo, called
from bot.service.shelf import Shelf, shelf_of
from bot.store import ActionRecord, GameRecord, GameStatus, SeatRecord

# the statuses of a game still played (or still to be)
RUNNING: tuple[GameStatus, ...] = ("open", "active")


def seat_of_controller(seats: Sequence[SeatRecord], user_id: int) -> SeatRecord:
    """The seat this user plays now (as its player or its substitute)."""
    for seat in seats:
        if seat.controller_id == user_id:
            return seat
    raise NotInGameError()


def seat_of_member(
    seats: Sequence[SeatRecord], user_id: int, message: str = N_("You are not in this game.")
) -> SeatRecord:
    """The seat this user is attached to, playing it or not."""
    for seat in seats:
        if user_id in (seat.user_id, seat.substitute_id):
            return seat
    raise NotInGameError(message)


def seat_numbered(seats: Sequence[SeatRecord], seat: int) -> SeatRecord:
    for s in seats:
        if s.seat == seat:
            return s
    raise SeatingError(N_("There is no seat {seat} in this game."), seat=seat)


def label(seat: SeatRecord) -> str:
    """What players call a seat: its colour once dealt."""
    return seat.colour or f"seat {seat.seat + 1}"


# what AI players are called at the table (a seat's colour tells them apart as well)
AI_NAMES = ("Grimble", "Brakka", "Ostrud", "Humla", "Skarn", "Tindra")


def ai_name(seats: Sequence[SeatRecord]) -> str:
    """A name for a new AI seat that no other seat of the game has."""
    taken = {s.name for s in seats}
    return next((n for n in AI_NAMES if n not in taken), f"Troll {len(seats) + 1}")


def called_seat(seat: SeatRecord) -> str:
    """The seat as players read it: "alice (Blue)"."""
    return called(label(seat), seat.name, seat.ai)


def not_your_turn(seats: Sequence[SeatRecord], to_act: Sequence[int]) -> NotYourTurnError:
    waiting = [s for s in seats if s.seat in to_act]
    names = [called_seat(s) for s in waiting]
    if not names:
        error = NotYourTurnError(N_("It is not your turn: nobody can act in this game now."))
    elif len(names) == 1:
        error = NotYourTurnError(N_("It is not your turn: {player} is to play."), player=names[0])
    else:
        error = NotYourTurnError(
            N_("It is not your turn: waiting for {players}."),
            players=f"{', '.join(names[:-1])} and {names[-1]}",
        )
    # the seats awaited, so that the bot names them in the reader's language
    error.waiting = tuple((label(s), s.name, s.ai) for s in waiting)
    return error


def require_status(game: GameRecord, status: GameStatus) -> None:
    if game.status == status:
        return
    if game.status == "open":
        raise GameStateError(N_("This game has not started yet."))
    if game.status == "active":
        raise GameStateError(N_("This game has already started."))
    if game.status == "over":
        raise GameStateError(N_("This game is over."))
    raise GameStateError(N_("This game was abandoned."))


def require_creator(game: GameRecord, user_id: int, admin: bool, refusal: str) -> None:
    """Refused (with `refusal`, a template of the catalogue) unless the user created
    the game or is a server admin."""
    if not admin and user_id != game.creator_id:
        raise NotAllowedError(refusal)


def require_seat_manager(game: GameRecord, seat: SeatRecord, user_id: int, admin: bool) -> None:
    """The seat's own player, the game's creator or an admin."""
    if not (admin or user_id in (game.creator_id, seat.controller_id)):
        raise NotAllowedError(
            N_("Only the seat's player, the game's creator or a server admin can do that.")
        )


def seat_token(seat: SeatRecord) -> int:
    """A fingerprint of who holds a seat (its player, substitute, autopilot): an offer
    of the seat is stale once it changes."""
    held = f"{seat.user_id}:{seat.substitute_id}:{int(seat.autopilot)}:{int(seat.ai)}"
    return zlib.crc32(held.encode())


@dataclass(frozen=True, slots=True)
class Handover:
    """What it takes for a user to play a seat: `accepter_id` must accept (None: it
    happens at once), and how it comes about (see `SeatNews.how`)."""

    accepter_id: int | None
    how: SeatHow


@dataclass(frozen=True, slots=True)
class SeatOffer:
    """The answer to `/mk admin substitute`: done at once (`accepter_id` None, `info`
    as it is now), or an offer posted in the thread that `accepter_id` must accept
    while the seat's fingerprint is still `token`."""

    info: GameInfo
    seat: int
    user_id: int
    by_user_id: int
    accepter_id: int | None = None
    token: int = 0


SEAT_RULE = (
    "A seat belongs to its player. Its player, whoever plays it now or the game's creator"
    " may offer it to someone, who must accept; a server admin assigns it at once; the"
    " creator asking for a seat for themselves needs the agreement of whoever plays it, unless"
    " nobody does (autopilot or vacant); its own player can always take it back."
)


def handover(
    game: GameRecord,
    seats: Sequence[SeatRecord],
    seat: SeatRecord,
    by_user_id: int,
    user_id: int,
    admin: bool,
) -> Handover:
    """Who must agree before `user_id` plays `seat`, when `by_user_id` asks (the rule
    is `SEAT_RULE`). Raises if `by_user_id` may not ask for it at all."""
    if seat.ai:
        raise SeatingError(N_("That seat is an AI player's: it has no player to replace."))
    if user_id == seat.user_id:
        # back to its own player: theirs at any time, and anyone managing it may return it
        if seat.substitute_id is None and not seat.autopilot:
            raise SeatingError(N_("That seat is already played by its own player."))
        if not (admin or by_user_id in (seat.user_id, seat.controller_id, game.creator_id)):
            raise NotAllowedError(
                N_(
                    "Only the seat's player, whoever plays it now, the game's creator or a"
                    " server admin can give a seat back to its player."
                )
            )
        return Handover(None, "own" if by_user_id == seat.user_id else "")
    if any(user_id in (s.user_id, s.substitute_id) for s in seats if s.seat != seat.seat):
        raise SeatingError(N_("That user already plays a seat in this game."))
    if user_id == seat.controller_id:
        raise SeatingError(N_("That user already plays that seat."))
    if admin:
        return Handover(None, "admin")
    if by_user_id not in (seat.user_id, seat.controller_id, game.creator_id):
        raise NotAllowedError(
            N_(
                "Only the seat's player, whoever plays it now, the game's creator or a server"
                " admin can hand a seat over."
            )
        )
    if user_id != by_user_id:
        return Handover(user_id, "accepted")
    # the creator asks for the seat for themselves: whoever plays it must agree, if anyone does
    holder = seat.controller_id
    if holder is None or seat.autopilot:
        return Handover(None, "absent")
    return Handover(holder, "agreed")


def game_info(
    games: GameRules[S, A] | Shelf[S, A, Any], game: GameRecord, seats: Sequence[SeatRecord]
) -> GameInfo:
    """What the table knows of a game without its state, its seats called by the
    labels of its own rules."""
    rules = shelf_of(games).of(game)
    config = parse_config(game)
    try:
        labels = rules.seat_labels(config)
        need = rules.seat_count(config)
    except CorruptGameError:
        raise
    except Exception as exc:
        raise corrupt(game.id, exc) from exc
    return GameInfo(
        id=game.id,
        rules=game.rules,
        status=game.status,
        config=config,
        seed=game.seed,
        creator_id=game.creator_id,
        seats=tuple(
            SeatInfo(
                seat=s.seat,
                # before the deal a seat is called by the colour it will get
                label=s.colour or (labels[s.seat] if s.seat < len(labels) else label(s)),
                user_id=s.user_id,
                substitute_id=s.substitute_id,
                team=s.team,
                autopilot=s.autopilot,
                ai=s.ai,
                skip_turn=s.skip_turn,
                name=s.name,
                away=s.away,
            )
            for s in seats
        ),
        seats_needed=need,
        reminder_seconds=game.reminder_seconds,
        guild_id=game.guild_id,
        channel_id=game.channel_id,
        thread_id=game.thread_id,
        created_at=game.created_at,
        updated_at=game.updated_at,
        language=game.language,
        away_policy=game.away_policy,
        clock_seconds=game.clock_seconds,
        clock_policy=game.clock_policy,
    )


def log_entries(seats: Sequence[SeatRecord], moves: Sequence[ActionRecord]) -> list[LogEntry]:
    by_seat = {s.seat: s for s in seats}
    out = []
    for m in moves:
        seat = by_seat.get(m.seat)
        out.append(
            LogEntry(
                m.seq,
                m.seat,
                label(seat) if seat else str(m.seat),
                m.notation,
                m.user_id,
                m.created_at,
                stories.read(m.story),
                seat.name if seat else None,
                seat.ai if seat else False,
            )
        )
    return out


def seat_user(seat: SeatRecord, user_id: int | None) -> int:
    """Who is to play a seat: `user_id`, or (None) the seat's own player."""
    if user_id is not None:
        return user_id
    if seat.user_id is None:
        raise SeatingError(N_("That seat has no player of its own: name who takes it."))
    return seat.user_id


def require_current(loaded: Loaded[S], expected_seq: int | None) -> None:
    """The game is running, at the version the player saw: a stale view hears that the
    game moved on, even if it moved on to its end."""
    if expected_seq is not None and expected_seq != loaded.seq:
        raise GameMovedOnError(loaded.game.id)
    require_status(loaded.game, "active")


def started(loaded: Loaded[S]) -> S:
    """The state of a game that has started."""
    if loaded.state is None:
        raise GameStateError(N_("This game has not started yet."))
    return loaded.state
