"""`python -m rules`: self-play, replay and legal moves from the command line.

    python -m rules selfplay --players 4 [--teams] [--side winter] --seed 1 [--out game.json]
        [--ai heuristic | --ai heuristic,random,random,random]
    python -m rules replay game.json
    python -m rules legal game.json

Errors in a record are reported as the action's index and the reason (exit status 1),
never as a traceback. Records are bounded before they are read: a file larger than
`MAX_RECORD_BYTES` is refused from its size alone, and its bytes must be UTF-8 JSON no
deeper than `MAX_RECORD_DEPTH` with numbers of at most 20 characters.
"""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

from rules import steps
from rules.errors import RecordError, RulesError
from rules.game import (
    MAX_RECORD_BYTES,
    SEED_MAX,
    SEED_MIN,
    Game,
    ReplayError,
    game_from_record,
    record_from_bytes,
    record_too_large,
)
from rules.legal import legal_actions
from rules.scoring import final_outcome
from rules.selfplay import POLICY_NAMES, play_game, play_random_game
from rules.state import make_config


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sp = sub.add_parser(
        "selfplay", help="play a whole game with AI players (random legal actions by default)"
    )
    sp.add_argument("--players", type=_small_int, required=True)
    sp.add_argument("--teams", action="store_true")
    sp.add_argument("--side", choices=("winter", "autumn"))
    sp.add_argument("--workshops", choices=("random", "unique"), default="random")
    sp.add_argument("--seed", type=_seed, required=True)
    sp.add_argument("--out", type=Path, help="write the record here (default: stdout)")
    sp.add_argument(
        "--ai",
        type=_policies,
        default=("random",),
        metavar="{random,heuristic}[,...]",
        help="the player for every seat, or one per seat separated by commas (default: random)",
    )
    rp = sub.add_parser("replay", help="replay a record and print the resulting state")
    rp.add_argument("record", type=Path)
    lg = sub.add_parser("legal", help="print the legal actions of the player to move")
    lg.add_argument("record", type=Path)
    args = parser.parse_args(argv)

    try:
        if args.command == "selfplay":
            return _selfplay(args)
        game = _load(args.record)
        if args.command == "replay":
            _print_json(_replay_summary(game))
        else:
            for seat in steps.seats_to_act(game.state):
                for action in legal_actions(game.state, seat):
                    print(f"{game.colour(seat)} {action}")
        return 0
    except ReplayError as exc:
        print(f"error: action {exc.index}: {_one_line(str(exc.cause))}", file=sys.stderr)
        return 1
    except RulesError as exc:
        print(f"error: {_one_line(str(exc))}", file=sys.stderr)
        return 1
    except OSError as exc:
        name = exc.filename if exc.filename is not None else ""
        reason = exc.strerror or type(exc).__name__
        print(f"error: {_one_line(f'cannot use {name}: {reason}')}", file=sys.stderr)
        return 1


def _selfplay(args: argparse.Namespace) -> int:
    config = make_config(
        players=args.players, teams=args.teams, side=args.side, workshops=args.workshops
    )
    policies: tuple[str, ...] = args.ai
    if len(policies) not in (1, config.players):
        print(
            f"error: --ai names {len(policies)} players; give one for every seat or one per"
            f" seat ({config.players})",
            file=sys.stderr,
        )
        return 2
    if set(policies) == {"random"}:
        game = play_random_game(config, args.seed)
    else:
        game = play_game(config, args.seed, list(policies * (config.players // len(policies))))
    text = game.record_json()
    if args.out is not None:
        args.out.write_text(text + "\n", encoding="utf-8")
    else:
        print(text)
    return 0


def _policies(text: str) -> tuple[str, ...]:
    names = tuple(text.split(","))
    for name in names:
        if name not in POLICY_NAMES:
            raise argparse.ArgumentTypeError(
                f"{_one_line(name, 20)!r} is not a player; choose from {', '.join(POLICY_NAMES)}"
            )
    return names


def _small_int(text: str) -> int:
    if len(text) > 3 or not text.isdigit():
        raise argparse.ArgumentTypeError(f"{_one_line(text, 20)!r} is not a number of players")
    return int(text)


def _seed(text: str) -> int:
    digits = text.removeprefix("-")
    if not digits.isdigit() or len(digits) > 19 or not SEED_MIN <= int(text) <= SEED_MAX:
        raise argparse.ArgumentTypeError(
            f"{_one_line(text, 20)!r} is not a seed: give a whole number from {SEED_MIN}"
            f" to {SEED_MAX}"
        )
    return int(text)


def _load(path: Path) -> Game:
    return game_from_record(_read_record(path))


def _read_record(path: Path) -> Any:
    """The record's JSON, refused by its size before a byte is read and never read
    past `MAX_RECORD_BYTES` + 1 (a pipe or device cannot claim a small size and then
    send gigabytes)."""
    with path.open("rb") as file:
        size = _regular_file_size(file.fileno())
        if size is not None and size > MAX_RECORD_BYTES:
            raise RecordError(f"{path}: {record_too_large(size)}")
        data = file.read(MAX_RECORD_BYTES + 1)
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(f"{path}: {record_too_large()}")
    try:
        return record_from_bytes(data)
    except RulesError as exc:
        raise RecordError(f"{path}: {exc.message}") from None


def _regular_file_size(fd: int) -> int | None:
    info = os.fstat(fd)
    return info.st_size if stat.S_ISREG(info.st_mode) else None


def _one_line(text: str, limit: int = 300) -> str:
    """`text` on one printable line of at most `limit` characters (a record's own text
    may hold newlines, control characters or lone surrogates)."""
    line = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text[: limit + 1])
    return line if len(line) <= limit else line[: limit - 3] + "..."


def _replay_summary(game: Game) -> dict[str, Any]:
    state = game.state
    out: dict[str, Any] = {
        "actions": len(game.moves),
        "phase": state.phase,
        "to_act": [game.colour(s) for s in steps.seats_to_act(state)],
        "scores": {
            " + ".join(game.colour(p.seat) for p in state.players if p.account == i): (
                a.tunnel_honor + a.spell_honor
            )
            for i, a in enumerate(state.accounts)
        },
        "state": state.to_json(),
    }
    if state.phase == "over":
        outcome = final_outcome(state)
        out["final"] = outcome.to_json()
        out["winner"] = [game.colour(s) for s in outcome.winning_seats]
    return out


def _print_json(data: Any) -> None:
    json.dump(data, sys.stdout, indent=1)
    sys.stdout.write("\n")
