"""`python -m cave_troll`: self-play, replay and legal actions from the command line.

    python -m cave_troll selfplay --players 3 --seed 1 [--ai delver | --ai delver,random,random]
        [--out game.json]
    python -m cave_troll replay game.json
    python -m cave_troll legal game.json

Errors in a record are reported as the action's index and the reason (exit status 1),
never as a traceback. A record is bounded before it is read (its size, then its JSON).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from cave_troll.errors import CaveTrollError, RecordError
from cave_troll.game import (
    MAX_RECORD_BYTES,
    SEED_MAX,
    SEED_MIN,
    Game,
    ReplayError,
    game_from_record,
    record_from_bytes,
)
from cave_troll.legal import legal_actions
from cave_troll.scoring import final_outcome
from cave_troll.selfplay import POLICY_NAMES, play_game
from cave_troll.state import make_config
from cave_troll.turns import to_act


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m cave_troll", description=(__doc__ or "").split("\n")[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("selfplay", help="play a whole game with AI players (random by default)")
    sp.add_argument("--players", type=_small_int, required=True)
    sp.add_argument("--seed", type=_seed, required=True)
    sp.add_argument("--out", type=Path, help="write the record here (default: stdout)")
    sp.add_argument(
        "--ai",
        type=_policies,
        default=("random",),
        metavar="{random,delver}[,...]",
        help="the player for every seat, or one per seat separated by commas",
    )
    rp = sub.add_parser("replay", help="replay a record and print where it ends")
    rp.add_argument("record", type=Path)
    lg = sub.add_parser("legal", help="print the legal actions of the seat awaited")
    lg.add_argument("record", type=Path)
    args = parser.parse_args(argv)
    try:
        if args.command == "selfplay":
            return _selfplay(args)
        game = _load(args.record)
        if args.command == "replay":
            json.dump(_summary(game), sys.stdout, indent=1)
            sys.stdout.write("\n")
        else:
            for seat in to_act(game.state):
                for action in legal_actions(game.state, seat):
                    print(f"{game.colour(seat)} {action}")
        return 0
    except ReplayError as exc:
        print(f"error: action {exc.index}: {_one_line(str(exc.cause))}", file=sys.stderr)
        return 1
    except CaveTrollError as exc:
        print(f"error: {_one_line(str(exc))}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"error: cannot read {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 1


def _selfplay(args: argparse.Namespace) -> int:
    config = make_config(players=args.players)
    policies: tuple[str, ...] = args.ai
    if len(policies) not in (1, config.players):
        print(
            f"error: --ai names {len(policies)} players; give one for every seat or one per"
            f" seat ({config.players})",
            file=sys.stderr,
        )
        return 2
    chosen = list(policies) if len(policies) == config.players else [policies[0]] * config.players
    game = play_game(config, args.seed, list(chosen))
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
    if len(text) > 2 or not text.isdigit():
        raise argparse.ArgumentTypeError(f"{_one_line(text, 20)!r} is not a number of players")
    return int(text)


def _seed(text: str) -> int:
    digits = text.removeprefix("-")
    if not digits.isdigit() or len(digits) > 19 or not SEED_MIN <= int(text) <= SEED_MAX:
        raise argparse.ArgumentTypeError(
            f"{_one_line(text, 20)!r} is not a seed: a whole number from {SEED_MIN} to {SEED_MAX}"
        )
    return int(text)


def _load(path: Path) -> Game:
    with path.open("rb") as file:
        data = file.read(MAX_RECORD_BYTES + 1)
    try:
        return game_from_record(record_from_bytes(data))
    except RecordError as exc:
        raise RecordError("{path}: {problem}", "record", path=path, problem=exc.message) from None


def _one_line(text: str, limit: int = 300) -> str:
    """`text` on one printable line of at most `limit` characters."""
    line = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text[: limit + 1])
    return line if len(line) <= limit else line[: limit - 3] + "..."


def _summary(game: Game) -> dict[str, Any]:
    state = game.state
    out: dict[str, Any] = {
        "actions": len(game.moves),
        "phase": state.phase,
        "to_act": [game.colour(s) for s in to_act(state)],
        "gold": {p.colour: p.gold for p in state.players},
        "state": state.to_json(),
    }
    if state.phase == "over":
        outcome = final_outcome(state)
        out["final"] = outcome.to_json()
        out["winners"] = [game.colour(s) for s in outcome.winning_seats]
    return out
