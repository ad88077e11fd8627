"""Cave Troll's messages: the start, a turn post (and the Troll flight it calls to), a
ping, the end of the game, the log and a player's status. The table's messages (the
lobby, seats, reminders, votes, your games) are `bot.texts`, which these use.

A leaf like `bot.texts`: plain values in (the service's results, the owed payloads, the
rules' content, facts read from a view), text out; the rules' stories are told by
`bot.cave_troll.stories`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.cave_troll.stories import in_public, is_end, story_text
from bot.cave_troll.words import piece
from bot.i18n.catalogue import ENGLISH, Messages
from bot.service.owed import GameOver, Ping, Player, StartPost, TurnPost
from bot.service.protocol import StoryData
from bot.service.results import LogEntry
from bot.texts import (
    POST_LIMIT,
    called_in,
    calling,
    deadline_text,
    fit,
    newest_lines,
    timestamp,
    who,
)
from bot.words import listed_in
from cave_troll.content import load_content
from render.cave_troll.words import artifact_name, gold

GROUP = "cave"


def cave_command(name: str, messages: Messages = ENGLISH) -> str:
    """A Cave Troll command as the reader's client shows it: "/cave draw", "/jaskinia
    dobierz"."""
    group = messages.lookup(GROUP, "command name") or GROUP
    return f"/{group} " + (messages.lookup(name, "command name") or name)


def _cmd(name: str, messages: Messages) -> str:
    return f"`{cave_command(name, messages)}`"


@dataclass(frozen=True)
class FlightFacts:
    """A Troll flight as a post tells it: the room, the pieces there (colour, kind),
    and when the answer is due (None: no deadline known)."""

    room: str
    pieces: tuple[tuple[str, str], ...]
    deadline: datetime | None = None


# --- the start ---------------------------------------------------------------------------


def start_text(post: StartPost, messages: Messages = ENGLISH) -> str:
    """The game has begun: every seat in turn order with its person and colour, what
    a turn is and what the first player does first."""
    m = messages
    people = [p for p in post.players if p.user_id is not None and not p.ai]
    mentions = " ".join(f"<@{p.user_id}>" for p in people)
    lines = [m.gettext("{mentions} the game of Cave Troll has begun!", mentions=mentions).strip()]
    first = next((p for p in post.players if p.seat in post.to_act), post.players[0])
    start = post.players.index(first)
    order = [*post.players[start:], *post.players[:start]]
    lines.append(m.gettext("Turn order (the first player drawn at random):"))
    lines += [f"{n}. {who(p, m)}" for n, p in enumerate(order, 1)]
    text = load_content().text
    first_round = load_content().mix.first_round.get(len(order), ())
    lines.append(
        m.gettext(
            "Each turn has {actions} actions: draw a token from your stack and place it"
            " ({draw}, {place}), move a piece ({move}), use an Orc or a Wraith ({kill},"
            " {push}), play an artifact ({play}). In the first round the players have"
            " {first} actions. The richest rooms are worth the most gold whenever the loot"
            " is counted; the game ends when a player draws their last token.",
            actions=text.actions_per_turn,
            draw=_cmd("draw", m),
            place=_cmd("place", m),
            move=_cmd("move", m),
            kill=_cmd("kill", m),
            push=_cmd("push", m),
            play=_cmd("play", m),
            first=", ".join(str(n) for n in first_round),
        )
    )
    lines.append(
        m.gettext(
            "{board} shows the cave, {panel} your artifacts and stack (only to you), {help}"
            " the rules.",
            board=_cmd("board", m),
            panel=_cmd("panel", m),
            help=_cmd("help", m),
        )
    )
    if first.ai:
        lines.append(m.gettext("{player} plays first.", player=who(first, m)))
    else:
        lines.append(
            m.gettext(
                "{player}: you play first: {draw} draws your first token.",
                player=calling(first, m),
                draw=_cmd("draw", m),
            )
            + deadline_text(post.deadline, m)
        )
    return fit("\n".join(lines))


# --- a turn and a Troll flight ---------------------------------------------------------


def told(stories: Sequence[StoryData], messages: Messages = ENGLISH) -> str:
    """A turn's stories as a post tells them to the whole table (an artifact found kept
    secret): "ended their turn" only when the player did nothing else."""
    rest = [s for s in stories if not is_end(s)] or stories
    return "; ".join(story_text(in_public(s), "they", messages) for s in walks(rest))


def walks(stories: Sequence[StoryData]) -> list[StoryData]:
    """The stories with a piece's moves one after another told as one walk: "moved Blue
    Dwarf from SW to D3 → D4 → D7" (a move that did something else ends the walk)."""
    out: list[StoryData] = []
    for story in stories:
        last = out[-1] if out else None
        if (
            isinstance(story, dict)
            and isinstance(last, dict)
            and story.get("kind") == last.get("kind") == "move"
            and story.get("piece") == last.get("piece")
            and not last.get("effects")
            and last.get("path")
            and story.get("start") == last["path"][-1]
        ):
            out[-1] = {**story, "start": last["start"], "path": [*last["path"], *story["path"]]}
        else:
            out.append(story)
    return out


def flight_text(flight: FlightFacts, called: Sequence[Player], messages: Messages = ENGLISH) -> str:
    """Who answers a Troll flight now, what stands in its room, and by when."""
    m = messages
    names = ", ".join(calling(p, m) for p in called)
    pieces = listed_in([piece(c, k, m) for c, k in flight.pieces], m) or m.gettext("nothing")
    lines = [
        m.gettext(
            "🧌 A Cave Troll is in {room}! In the room: {pieces}.", room=flight.room, pieces=pieces
        ),
        m.gettext(
            "{players}: choose which of your pieces flee, one at a time with {flee}, then"
            " {stay} for the rest (they are discarded with everything left in the room).",
            players=names,
            flee=_cmd("flee", m),
            stay=_cmd("stay", m),
        ),
    ]
    if flight.deadline is not None:
        lines.append(
            m.gettext(
                "Answer {when}: after that every piece that can flee does so by itself.",
                when=timestamp(flight.deadline),
            )
        )
    return "\n".join(lines)


def turn_post_text(
    post: TurnPost,
    flight: FlightFacts | None = None,
    messages: Messages = ENGLISH,
) -> str:
    """What the turn (or a flight's answer) did, "**alice (Blue)** drew Knight; ...", then
    whoever it calls: to a Troll flight (`flight`, its room and pieces), or to play."""
    m = messages
    lines = [
        m.gettext("**{player}** {did}.", player=who(t.player, m), did=told(t.sentences, m))
        for t in post.lines
        if t.sentences
    ]
    if not post.calls:
        return fit("\n".join(lines))
    if flight is not None and post.call_phase == "flight":
        call = flight_text(flight, post.calls, m)
    else:
        names = ", ".join(calling(p, m) for p in post.calls)
        call = m.gettext(
            "{players}: it's your turn: {status} shows what you can do.",
            players=names,
            status=_cmd("status", m),
        )
        if post.next_reminder is not None:
            call += " " + m.gettext("Next reminder {when}.", when=timestamp(post.next_reminder))
        call += deadline_text(post.deadline, m)
    told_lines = fit("\n".join(lines), max(1, POST_LIMIT - len(call) - 1))
    return "\n".join([*([told_lines] if told_lines else []), fit(call)])


def ping_text(ping: Ping, flight: FlightFacts | None, messages: Messages = ENGLISH) -> str:
    """The player who must act now: to a Troll flight, or to their turn."""
    m = messages
    if flight is not None:
        return flight_text(flight, [ping.player], m)
    text = m.gettext(
        "{players}: it's your turn: {status} shows what you can do.",
        players=calling(ping.player, m),
        status=_cmd("status", m),
    )
    text += " " + m.gettext("Next reminder {when}.", when=timestamp(ping.next_reminder))
    return text + deadline_text(ping.deadline, m)


# --- the end -----------------------------------------------------------------------------


def game_over_text(
    over: GameOver,
    outcome: Mapping[str, Any],
    called: Mapping[int, str],
    record_name: str,
    messages: Messages = ENGLISH,
) -> str:
    """The winners, every player's gold and where it came from, best first, and what
    is attached."""
    m = messages
    names = [who(p, m) for p in over.winners]
    winners = listed_in(names, m) or m.gettext("Nobody")
    if len(over.winners) > 1:
        lines = [
            m.gettext("🏆 The game is over. **{winners}** share the victory!", winners=winners)
        ]
    else:
        lines = [m.gettext("🏆 The game is over. **{winners}** wins!", winners=winners)]
    breakdown = sorted(outcome.get("breakdown", []), key=lambda b: -int(b.get("total", 0)))
    for line in breakdown:
        seat = next(iter(line.get("seats", [])), None)
        lines.append(
            # TRANSLATORS: a player's line at the end of a game of Cave Troll
            m.gettext(
                "· {player}: {total} ({play} in play, {board} at the last count, {bonus} for"
                " ending the game, {artifacts} for artifacts kept)",
                player=called.get(seat, str(seat)) if seat is not None else "?",
                total=gold(int(line.get("total", 0)), m),
                play=int(line.get("play", 0)),
                board=int(line.get("board", 0)),
                bonus=int(line.get("bonus", 0)),
                artifacts=int(line.get("artifacts", 0)),
            )
        )
    lines.append(
        m.gettext(
            "Attached: the cave as the game ended, and `{record}`, the game's record (every"
            " action in order; the bot's owner can replay it to check the result).",
            record=record_name,
        )
    )
    return fit("\n".join(lines))


# --- looking -----------------------------------------------------------------------------


def log_text(entries: Sequence[LogEntry], messages: Messages = ENGLISH) -> str:
    """The last actions as told, newest last, each with its notation (what `act`
    takes)."""
    lines = [
        messages.gettext(
            "{seq}. {player} {did} · `{notation}`",
            seq=e.seq,
            player=called_in(e.label, e.name, e.ai, messages),
            did=story_text(e.told, "they", messages),
            notation=e.notation,
        )
        for e in entries
    ]
    return newest_lines(lines) or messages.gettext("No actions yet.")


def status_text(
    player: str,
    mine: Mapping[str, Any],
    kinds: Sequence[str],
    changes: Sequence[LogEntry],
    messages: Messages = ENGLISH,
) -> str:
    """A player's private status: gold, stack, artifacts, what they can do now (the
    commands), and what changed since their last turn."""
    m = messages
    held = mine.get("artifacts", [])
    artifacts = (
        listed_in([artifact_name(a, m) for a in held], m)
        if isinstance(held, list) and held
        else m.gettext("none")
    )
    lines = [
        m.gettext(
            "You are **{player}**: {gold}, {stack} tokens left in your stack; artifacts:"
            " {artifacts}.",
            player=player,
            gold=gold(int(mine.get("gold", 0)), m),
            stack=int(mine.get("stack", 0)),
            artifacts=artifacts,
        )
    ]
    can = ", ".join(_cmd(k, m) for k in kinds)
    lines.append(
        m.gettext("You can now: {actions}", actions=can)
        if can
        else m.gettext("You can now: nothing — it is not your move.")
    )
    changed = "\n".join(
        m.gettext(
            "• {player} {did}",
            player=called_in(e.label, e.name, e.ai, m),
            did=story_text(e.told, "they", m),
        )
        for e in changes[-15:]
    )
    lines.append(
        m.gettext(
            "Since your last turn:\n{changes}", changes=changed or "• " + m.gettext("nothing yet")
        )
    )
    return fit("\n".join(lines))
