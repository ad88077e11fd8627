"""Every autocomplete suggestion of every option of every turn command is held against
the engine, through real discord.py (SimCord), in a whole 2-player game and a whole
4-player team game played with slash commands (random legal actions: they reach odd
corners of the rules more often than the AI does, and quicker).

At sampled positions, for the player to act: each command's first option is asked for
its suggestions; each suggestion is completed (the later options filled with their own
first suggestion, optional ones left out when the action is legal without them) and
the completed command must be a legal action now, judged by the engine on a copy of
the position. One suggestion is then kept and the next option asked with it filled, and
so on to the last option. The first option offers something whenever an action of the
command's kind is legal, a required option offers something once the options before
it hold suggestions, and the players not to act get no suggestion at all. A dig chosen
this way is also sent as `/mk dig`: its preview offers Confirm and the game stays as it
was.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from bot_harness import buttons_of, open_game, running_table
from discord import app_commands

from bot.client import MountainBot
from bot.mountain_king.choices import Legal
from bot.offers import MAX_CHOICES, MAX_TEXT
from rules.actions import Recruit, format_cells, parse_action
from rules.engine import apply
from rules.errors import RulesError
from rules.legal import (
    KINDS,
    dig_choices,
    dig_pedestals,
    dig_workshops,
    iter_legal_actions,
    kind_available,
)
from rules.selfplay import random_action
from rules.state import State
from rules.steps import seats_to_act

Filled = dict[str, str]

# each turn command: the kind of action it plays and the notation it sends (as in
# bot/features)
COMMANDS: dict[str, tuple[str | None, Callable[[Filled], str]]] = {
    "act": (None, lambda o: o["action"]),
    "gate": ("gate", lambda o: f"gate {o['point']}"),
    "recruit": (
        "recruit",
        lambda o: f"recruit {o['troll']} {o['slot']}" + _opt(" ", o.get("pedestal")),
    ),
    "dig": (
        "dig",
        lambda o: (
            f"dig {o['tile']} {o['cells']} {o['mineral']}"
            + _opt(" pedestal ", o.get("pedestal"))
            + _opt(" workshop ", o.get("workshop"))
        ),
    ),
    "cast": ("cast", lambda o: f"cast {o['spell']}" + _opt(" ", o.get("choice"))),
    "use": ("use", lambda o: f"use {o['site']} {o['conversion']}"),
    "trade": ("trade", lambda o: f"trade {o['give']}>{o['get']}"),
    "hall": ("hall", lambda o: f"hall {o['hall']} {o['cells']}"),
    "move": ("move", lambda o: f"move {o['statue']}>{o['to']}"),
}


def _opt(prefix: str, value: str | None) -> str:
    return "" if value is None else prefix + value


@dataclass(frozen=True)
class Option:
    name: str
    required: bool
    autocomplete: bool
    choices: tuple[str, ...]  # fixed choices (options without autocomplete)


@dataclass
class Audit:
    """What one game's audits looked at."""

    positions: int = 0
    suggestions: int = 0
    asked: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    previews: int = 0
    offered: Counter[str] = field(default_factory=Counter)  # suggestions per command option
    options: list[str] = field(default_factory=list)  # every command option ("dig cells")
    quiet: int = 0  # answers to players not to act


def command_options(bot: MountainBot) -> dict[str, list[Option]]:
    """The options of each turn command, as registered with Discord; fails if a
    command with a `Legal` option is missing from `COMMANDS`."""
    group = bot.tree.get_command("mk")
    assert isinstance(group, app_commands.Group)
    out: dict[str, list[Option]] = {}
    for command in group.walk_commands():
        if not isinstance(command, app_commands.Command):
            continue
        legal = [
            p for p in command.parameters if isinstance(command._params[p.name]._annotation, Legal)
        ]
        if legal:
            assert command.name in COMMANDS, f"/mk {command.name} is not held against the engine"
        if command.name in COMMANDS:
            out[command.name] = [
                Option(p.name, p.required, p.autocomplete, tuple(str(c.value) for c in p.choices))
                for p in command.parameters
            ]
    assert set(out) == set(COMMANDS)
    return out


def refusal(state: State, seat: int, notation: str) -> str | None:
    """None if the action is legal now (tried on a copy), else the engine's sentence."""
    try:
        apply(state.clone(), seat, parse_action(notation))
    except RulesError as exc:
        return str(exc)
    return None


class Auditor:
    """Asks the bot for suggestions as a player would, and judges them."""

    def __init__(
        self, bot: MountainBot, thread: Any, game_id: int, options: dict[str, list[Option]]
    ) -> None:
        self.bot = bot
        self.thread = thread
        self.game_id = game_id
        self.options = options
        self.audit = Audit(options=[f"{c} {o.name}" for c, opts in options.items() for o in opts])
        self.answers: dict[tuple[str, str, frozenset[tuple[str, str]]], list[dict[str, Any]]] = {}

    async def suggest(
        self, actor: Any, command: str, option: Option, filled: Filled
    ) -> list[dict[str, Any]]:
        """What the option offers `actor` with `filled` (asked once per position)."""
        if not option.autocomplete:
            return [{"name": c, "value": c} for c in option.choices]
        key = (command, option.name, frozenset(filled.items()))
        if key in self.answers:
            return self.answers[key]
        self.audit.asked += 1
        got = await actor.autocomplete(self.thread, f"mk {command}", option.name, "", **filled)
        self.answers[key] = got
        values = [c["value"] for c in got]
        assert len(got) <= MAX_CHOICES, (command, option.name, len(got))
        assert len(set(values)) == len(values), (command, option.name, values)
        for choice in got:
            assert 0 < len(choice["name"]) <= MAX_TEXT, choice
            assert 0 < len(choice["value"]) <= MAX_TEXT, choice
        return got

    async def complete(
        self, actor: Any, state: State, seat: int, command: str, level: int, filled: Filled
    ) -> str | None:
        """A legal notation completing `filled` from the options at `level` on with their
        first suggestion (an optional one left out when that is legal), or None."""
        options = self.options[command]
        build = COMMANDS[command][1]
        if level == len(options):
            notation = build(filled)
            return notation if refusal(state, seat, notation) is None else None
        option = options[level]
        if not option.required:
            done = await self.complete(actor, state, seat, command, level + 1, filled)
            if done is not None:
                return done
        got = await self.suggest(actor, command, option, filled)
        if not got:
            return None
        more = {**filled, option.name: got[0]["value"]}
        return await self.complete(actor, state, seat, command, level + 1, more)

    async def position(
        self, actor: Any, others: list[Any], state: State, seat: int, rng: random.Random
    ) -> None:
        """Every command's suggestions at this position, for `actor` (to act) and for
        one of `others` (not to act)."""
        self.audit.positions += 1
        self.answers.clear()
        asked: list[tuple[str, Option, Filled]] = []
        for command, options in self.options.items():
            kind = COMMANDS[command][0]
            kinds = KINDS if kind is None else (kind,)
            any_legal = any(kind_available(state, seat, k) for k in kinds)
            if command == "act":  # the kinds of action open at audited positions
                self.audit.kinds.update(k for k in KINDS if kind_available(state, seat, k))
            filled: Filled = {}
            for level, option in enumerate(options):
                got = await self.suggest(actor, command, option, filled)
                if option.autocomplete:
                    asked.append((command, option, dict(filled)))
                where = f"/mk {command} {option.name} with {filled}"
                if level == 0:
                    assert bool(got) == any_legal, f"{where}: {got} but legal: {any_legal}"
                elif option.required:
                    assert got, f"{where}: nothing offered"
                for choice in got:
                    self.audit.suggestions += 1
                    self.audit.offered[f"{command} {option.name}"] += 1
                    more = {**filled, option.name: choice["value"]}
                    done = await self.complete(actor, state, seat, command, level + 1, more)
                    assert done is not None, (
                        f"{where}: {choice} completes to no legal action"
                        f" (e.g. {COMMANDS[command][1](self._first(more, options))!r}:"
                        f" {self._why(state, seat, command, more, options)})"
                    )
                if not got:
                    break
                filled[option.name] = descend(state, seat, command, option.name, filled, got, rng)
            if command == "dig" and set(filled) >= {"tile", "cells", "mineral"}:
                await self.preview(actor, filled)
        # a player not to act: each command's first option and a few later ones
        if not others:  # everyone is still drafting
            return
        other = others[self.audit.positions % len(others)]
        later = [a for a in asked if a[2]]
        firsts = [a for a in asked if not a[2]]
        for command, option, filled in firsts + rng.sample(later, min(2, len(later))):
            got = await other.autocomplete(self.thread, f"mk {command}", option.name, "", **filled)
            assert got == [], f"/mk {command} {option.name} offers {got} to a player not to act"
            self.audit.quiet += 1

    async def preview(self, actor: Any, filled: Filled) -> None:
        """The dig the suggestions chose, sent for real: a preview with Confirm, and
        the game unchanged."""
        before = len(await self.bot.service.history.log(self.game_id))
        result = await actor.slash(self.thread, "mk dig", **filled)
        assert result.acknowledged
        labels = [b.get("label") for b in buttons_of(result.response)]
        notation = COMMANDS["dig"][1](filled)
        assert "Confirm" in labels, f"{notation}: {result.response.content}"
        assert len(await self.bot.service.history.log(self.game_id)) == before
        self.audit.previews += 1

    @staticmethod
    def _first(filled: Filled, options: list[Option]) -> Filled:
        return {o.name: filled.get(o.name, "?") for o in options if o.required} | filled

    def _why(
        self, state: State, seat: int, command: str, filled: Filled, options: list[Option]
    ) -> str | None:
        if all(o.name in filled for o in options if o.required):
            return refusal(state, seat, COMMANDS[command][1](filled))
        return "a later option offers nothing"


# for the commands with optional options, the options of a legal action (to steer the
# audit toward suggestions after which an optional option has something to offer)
OPTIONS_OF: dict[str, Callable[[Any], dict[str, str | None]]] = {
    "recruit": lambda a: {
        "troll": a.horde,
        "slot": a.slot,
        "pedestal": None if a.pedestal is None else a.pedestal.value,
    },
    "dig": lambda a: {
        "tile": a.shape,
        "cells": format_cells(a.cells, a.anchor),
        "mineral": a.mineral.value,
        "pedestal": None if a.pedestal is None else a.pedestal.value,
        "workshop": "=".join(a.workshops[0]) if len(a.workshops) == 1 else None,
    },
}


def descend(
    state: State,
    seat: int,
    command: str,
    option: str,
    filled: Filled,
    got: list[dict[str, Any]],
    rng: random.Random,
) -> str:
    """The suggestion to fill in before asking the next option: one after which a
    workshop, else a pedestal, may be added when there is one (those options are
    rarely open), else any."""
    values = [c["value"] for c in got]
    fields = OPTIONS_OF.get(command)
    if fields is None:
        return rng.choice(values)
    rich: dict[str, set[str]] = {"workshop": set(), "pedestal": set()}
    for action in islice(iter_legal_actions(state, seat, command), 5000):
        have = fields(action)
        if all(have[k] == v for k, v in filled.items()):
            for extra, found in rich.items():
                if have.get(extra) is not None:
                    found.add(str(have[option]))
    for found in rich.values():
        if any(v in found for v in values):
            return rng.choice([v for v in values if v in found])
    return rng.choice(values)


async def play_and_audit(
    tmp_path: Path, names: list[str], *, teams: bool, seed: int, every: float
) -> Audit:
    """A whole game of random legal actions sent with `/mk act` (gates with `/mk gate`),
    audited at about `every` of the positions, at the first one where each rarer kind
    of action is open and where a rarely open optional option is (until it offers
    something)."""
    rng = random.Random(seed)
    table = running_table(tmp_path / "db.sqlite3", *names, seed=seed)
    async with table as (env, bot, channel, players):
        options = {"teams": True} if teams else {}
        thread, game_id = await open_game(env, players, channel, **options)
        info = await bot.service.info(game_id)
        by_user = {p.id: p for p in players}
        by_seat = {s.seat: by_user[s.user_id] for s in info.seats if s.user_id is not None}
        auditor = Auditor(bot, thread, game_id, command_options(bot))
        actions = 0
        tries: Counter[str] = Counter()
        while True:
            state = (await bot.service.load(game_id)).state
            assert state is not None
            if state.phase == "over":
                return auditor.audit
            seat = seats_to_act(state)[0]
            actor = by_seat[seat]
            if _worth_auditing(state, seat, auditor.audit, tries, rng, every):
                others = [p for s, p in by_seat.items() if s not in seats_to_act(state)]
                await auditor.position(actor, others, state, seat, rng)
            action = random_action(state, seat, rng)
            if state.phase == "gates":
                result = await actor.slash(thread, "mk gate", point=str(action).split()[1])
            else:
                result = await actor.slash(thread, "mk act", action=str(action))
            assert result.acknowledged
            actions += 1
            assert actions < 2000


RARE = ("keep", "gate", "cast", "use", "hall", "move")
# optional options rarely open, and how to tell that they are (at most 8 tries each)
OPTIONAL: dict[str, Callable[[State, int], bool]] = {
    "recruit pedestal": lambda state, seat: any(
        isinstance(a, Recruit) and a.pedestal is not None
        for a in iter_legal_actions(state, seat, "recruit")
    ),
    "dig pedestal": lambda state, seat: any(
        dig_pedestals(state, seat, c.placement) for c in dig_choices(state, seat)
    ),
    "dig workshop": lambda state, seat: any(
        dig_workshops(state, c.placement) for c in dig_choices(state, seat)
    ),
}


def _worth_auditing(
    state: State, seat: int, audit: Audit, tries: Counter[str], rng: random.Random, every: float
) -> bool:
    if any(audit.kinds[k] < 1 and kind_available(state, seat, k) for k in RARE):
        return True
    for name, is_open in OPTIONAL.items():
        if not audit.offered[name] and tries[name] < 8 and is_open(state, seat):
            tries[name] += 1
            return True
    return rng.random() < every


async def _run(tmp_path: Path, names: list[str], *, teams: bool, seed: int) -> Audit:
    start = time.perf_counter()
    audit = await play_and_audit(tmp_path, names, teams=teams, seed=seed, every=0.02)
    took = time.perf_counter() - start
    print(f"{len(names)} players: {audit} in {took:.1f} s")
    for kind in ("keep", "gate", "recruit", "dig", "trade", "cast", "use", "hall", "move"):
        assert audit.kinds[kind] >= 1, f"no audited position could {kind}: {audit.kinds}"
    assert audit.previews >= 1 and audit.quiet > 0
    never = [o for o in audit.options if not audit.offered[o]]
    assert not never, f"never offered anything, so never checked: {never}"
    return audit


async def test_every_suggestion_is_legal_in_a_two_player_game(tmp_path: Path) -> None:
    await _run(tmp_path, ["alice", "bob"], teams=False, seed=13)


async def test_every_suggestion_is_legal_in_a_four_player_team_game(tmp_path: Path) -> None:
    await _run(tmp_path, ["ann", "ben", "cat", "dan"], teams=True, seed=12)
