"""Who sits where and who may do what: pure helpers over a game's seats."""

from __future__ import annotations

from collections.abc import Sequence

from bot.service.errors import (
    CorruptGameError,
    GameStateError,
    NotAllowedError,
    NotInGameError,
    SeatingError,
)
from bot.service.loading import corrupt, parse_config
from bot.service.protocol import A, GameRules, S
from bot.service.results import GameInfo, LogEntry, SeatInfo, called
from bot.store import ActionRecord, GameRecord, GameStatus, SeatRecord


def seat_of_controller(seats: Sequence[SeatRecord], user_id: int) -> SeatRecord:
    """The seat this user plays now (as its player or its substitute)."""
    for seat in seats:
        if seat.controller_id == user_id:
            return seat
    raise NotInGameError()


def seat_of_member(
    seats: Sequence[SeatRecord], user_id: int, message: str = "You are not in this game."
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
    raise SeatingError(f"There is no seat {seat} in this game.")


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


def not_your_turn(seats: Sequence[SeatRecord], to_act: Sequence[int]) -> str:
    names = [called_seat(s) for s in seats if s.seat in to_act]
    if not names:
        return "It is not your turn: nobody can act in this game now."
    if len(names) == 1:
        return f"It is not your turn: {names[0]} is to play."
    return f"It is not your turn: waiting for {', '.join(names[:-1])} and {names[-1]}."


def require_status(game: GameRecord, status: GameStatus) -> None:
    if game.status == status:
        return
    if game.status == "open":
        raise GameStateError("This game has not started yet.")
    if game.status == "active":
        raise GameStateError("This game has already started.")
    if game.status == "over":
        raise GameStateError("This game is over.")
    raise GameStateError("This game was abandoned.")


def require_creator(game: GameRecord, user_id: int, admin: bool, what: str) -> None:
    if not admin and user_id != game.creator_id:
        raise NotAllowedError(f"Only the game's creator or a server admin can {what}.")


def require_seat_manager(game: GameRecord, seat: SeatRecord, user_id: int, admin: bool) -> None:
    """The seat's own player, the game's creator or an admin."""
    if not (admin or user_id in (game.creator_id, seat.controller_id)):
        raise NotAllowedError(
            "Only the seat's player, the game's creator or a server admin can do that."
        )


def game_info(rules: GameRules[S, A], game: GameRecord, seats: Sequence[SeatRecord]) -> GameInfo:
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
    )


def log_entries(seats: Sequence[SeatRecord], moves: Sequence[ActionRecord]) -> list[LogEntry]:
    labels = {s.seat: label(s) for s in seats}
    names = {s.seat: called_seat(s) for s in seats}
    return [
        LogEntry(
            m.seq,
            m.seat,
            labels.get(m.seat, str(m.seat)),
            m.notation,
            m.user_id,
            m.created_at,
            m.story,
            names.get(m.seat, str(m.seat)),
        )
        for m in moves
    ]
