"""The game-over post's summary: how many turns and days the game took, its best turn
by honor, the statues carted, and a line per player, in the game's language.

Read from what the service gives at the end: the log as the table heard it (each
action's story and when it was played) and the table's view after every turn (the
replay's frames), whose honor on the score track tells what each turn earned (tunnels
and the Dedication Ritual alike). A leaf like `texts`: plain values in, text out.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.i18n.catalogue import ENGLISH, Messages
from bot.mountain_king.stories import is_end
from bot.service.results import LogEntry, SeatInfo
from bot.texts import called_in
from rules.view import View

DAY_SECONDS = 86_400


@dataclass(frozen=True, slots=True)
class BestTurn:
    """The turn (counted from the first after the setup) that earned the most honor,
    the seat that played it and the honor it earned."""

    turn: int
    seat: int
    honor: int


def turns_ended(entries: Sequence[LogEntry]) -> list[LogEntry]:
    """The entries that ended a turn of play, in order."""
    return [e for e in entries if is_end(e.told) or e.notation == "end"]


def days_taken(entries: Sequence[LogEntry]) -> int:
    """The days from the first action to the last, a day begun counted (at least 1)."""
    if not entries:
        return 0
    seconds = (entries[-1].at - entries[0].at).total_seconds()
    return max(1, math.ceil(seconds / DAY_SECONDS))


def statues_carted(entries: Sequence[LogEntry]) -> Counter[int]:
    """How many times each seat carted a statue."""
    return Counter(
        e.seat for e in entries if isinstance(e.told, dict) and e.told.get("kind") == "move"
    )


def best_turn(frames: Sequence[View], ends: Sequence[LogEntry]) -> BestTurn | None:
    """The turn whose honor on the score track rose the most (the earliest of equals;
    None if no turn earned any). `frames`: the view after the setup, then after each
    turn; its seat is that of the turn's end in the log (the account's first seat if the
    two disagree in number)."""
    best: BestTurn | None = None
    for turn in range(1, len(frames)):
        before, after = frames[turn - 1]["scores"], frames[turn]["scores"]
        for account, (was, now) in enumerate(zip(before, after, strict=False)):
            if now - was <= 0 or (best is not None and now - was <= best.honor):
                continue
            if len(ends) == len(frames) - 1:
                seat = ends[turn - 1].seat
            else:
                players = frames[turn]["players"]
                seat = next(p["seat"] for p in players if p["account"] == account)
            best = BestTurn(turn, seat, now - was)
    return best


def summary_text(
    entries: Sequence[LogEntry],
    frames: Sequence[View],
    outcome: Mapping[str, Any],
    seats: Sequence[SeatInfo],
    messages: Messages = ENGLISH,
) -> str:
    """The summary: turns, days and statues carted; the best turn; each player's line
    (their honor, their team's in team mode, best first, and the statues they carted)."""
    m = messages
    called = {s.seat: called_in(s.label, s.name, s.ai, m) for s in seats}
    ends = turns_ended(entries)
    carted = statues_carted(entries)

    def statues(count: int) -> str:
        return m.ngettext("{count} statue carted", "{count} statues carted", count, count=count)

    days = days_taken(entries)
    lines = [
        m.gettext(
            "📜 {turns} over {days}, {statues}.",
            turns=m.ngettext("{count} turn", "{count} turns", len(ends), count=len(ends)),
            days=m.ngettext("{count} day", "{count} days", days, count=days),
            statues=statues(sum(carted.values())),
        )
    ]
    best = best_turn(frames, ends)
    if best is not None:
        lines.append(
            m.gettext(
                "Best turn: {player} in turn {turn}, {honor}.",
                player=called.get(best.seat, str(best.seat)),
                turn=best.turn,
                honor=m.ngettext("+{count} honor", "+{count} honor", best.honor, count=best.honor),
            )
        )
    totals = sorted(outcome.get("breakdown", []), key=lambda b: -int(b.get("total", 0)))
    for line in totals:
        total = int(line.get("total", 0))
        for seat in line.get("seats", []):
            lines.append(
                # TRANSLATORS: a player's line in the summary at the end of a game
                m.gettext(
                    "· {player}: {honor}, {statues}",
                    player=called.get(seat, str(seat)),
                    honor=m.ngettext("{count} honor", "{count} honor", total, count=total),
                    statues=statues(carted[seat]),
                )
            )
    return "\n".join(lines)
