"""A game in Polish at a table of a Polish and a Spanish player, through the real
discord.py bot: the game's public posts are in the game's language (chosen with
`/mk new language:`, stored with the game, changed with `/mk admin what:settings`), each player's
private answers and refusals in their own client's language, and their direct
messages in the language they last used.

And a pseudo-locale run: a test-only language that marks every piece of text the
catalogue gives (⟦...⟧) plays a whole game with everything a table meets on the way
(refusals, dig previews, undo, reminders in the thread and by DM, the table's vote, a
substitute and their return, autopilot, the daily digest, autocomplete, every looking
command and help topic); every piece of text the fake Discord receives, public or
private, must then be built of marked pieces and the values filled into them (names,
mentions, timestamps, cells, notation, numbers). English written past the catalogue
shows up unmarked and fails.
"""

from __future__ import annotations

import gettext
import random
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from bot_harness import (
    TableOf,
    button_id,
    buttons_on,
    draft_all,
    open_game,
    place_gates,
    run_duties,
    running_bot,
    scheduler,
    speaking,
    table_speaking,
)

import bot.i18n.catalogue
from bot.i18n.catalogue import ENGLISH, Messages
from bot.mountain_king.help import HELP_TOPICS
from bot.mountain_king.refusals import refusal_text
from bot.texts import LANGUAGE_NAMES
from rules.actions import Dig, EndTurn, format_cells
from rules.errors import IllegalActionError
from rules.legal import legal_actions
from rules.selfplay import random_action
from rules.steps import seats_to_act

POLISH = ("gra się rozpoczęła", "Kolejność tur", "twoja tura", "Następne przypomnienie")
ENGLISH_FRAMES = (
    "the game has begun",
    "Turn order",
    "it's your turn",
    "Next reminder",
    "The game is over",
    "places the first gate",
    "place your gate",
)
# a turn post's line: the player in bold, then what they did
STORY_LINE = re.compile(r"(?:• )?\*\*(.+?)\*\* (.+)\.")
# how each kind of story begins, told to the Polish table
POLISH_TOLD = re.compile(
    r"(zachowuje|umieszcza swoje wrota|werbuje|kopie tunel|kończy turę|rzuca czar|"
    r"używa warsztatu|wymienia|poświęca wielką grotę|przesuwa posąg)"
)
# what the English stories say: none is left in a Polish post
ENGLISH_TOLD = re.compile(
    r"\b(kept|placed|recruited|dug|ended|cast|used|traded|dedicated|moved|established)\b"
)
# the private answer to an action, in each reader's language: the frame and the verb
DONE = {
    "pl": re.compile(
        r"Zrobione: (zachowano|umieszczono|zwerbowano|wykopano|zakończono|rzucono|użyto|"
        r"wymieniono|poświęcono|przesunięto) "
    ),
    "es": re.compile(
        r"Hecho: (te quedaste|colocaste|reclutaste|cavaste|terminaste|lanzaste|usaste|"
        r"intercambiaste|inauguraste|moviste) "
    ),
}


async def test_a_polish_game_with_a_polish_and_a_spanish_player(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with running_bot(tmp_path / "db.sqlite3") as (env, bot):
        channel, (ola, lucia) = table_speaking(env, monkeypatch, {"ola": "pl", "lucia": "es-ES"})
        thread, game_id = await open_game(env, [ola, lucia], channel, language="pl")
        info = await bot.service.info(game_id)
        assert info.language == "pl"
        assert thread.name == f"Król Gór #{game_id}"
        # the setup: gates in turn order, then the draft, each answer in its reader's
        # language
        await place_gates(bot, [ola, lucia], thread, game_id)
        await draft_all([ola], thread, kept="Twoje cztery początkowe trolle są zachowane.")
        await draft_all([lucia], thread, kept="Te has quedado tus cuatro trols iniciales.")
        by_seat = {s.seat: (ola if s.user_id == ola.id else lucia) for s in info.seats}
        language = {ola.id: "pl", lucia.id: "es"}
        refused = {ola.id: "To nie twoja tura", lucia.id: "No es tu turno"}
        verbs: dict[str, set[str]] = {"pl": set(), "es": set()}
        rng = random.Random(5)
        sent = 0
        while True:
            state = (await bot.service.load(game_id)).state
            assert state is not None
            if state.phase == "over":
                break
            seat = seats_to_act(state)[0]
            player, other = by_seat[seat], by_seat[1 - seat]
            if sent % 40 == 0:
                # a move out of turn is refused in the refused player's language
                wrong = await other.slash(thread, "mk end")
                assert wrong.response.content.startswith(refused[other.id]), wrong.response.content
            result = await player.slash(
                thread, "mk act", action=str(random_action(state, seat, rng))
            )
            assert result.acknowledged
            # what the action did, told privately in the player's own language
            reply = result.response.content
            done = DONE[language[player.id]].match(reply)
            assert done, reply
            assert not ENGLISH_TOLD.search(reply), reply
            verbs[language[player.id]].add(done.group(1))
            sent += 1
            assert sent < 3000
        assert sent > 20
        # each told several kinds of action: recruits, digs, ends at least
        assert {"zwerbowano", "wykopano", "zakończono"} <= verbs["pl"], verbs["pl"]
        assert {"reclutaste", "cavaste", "terminaste"} <= verbs["es"], verbs["es"]
        # every public post is Polish: the lobby, the start, the calls, the turn posts
        # (every line of what a player did), the pings and the end, with the Polish
        # lobby buttons
        posts = [m.content for m in thread.history()]
        everything = "\n".join(posts)
        for words in POLISH:
            assert words in everything, words
        for words in ENGLISH_FRAMES:
            assert words not in everything, words
        told = [m.group(2) for line in everything.splitlines() if (m := STORY_LINE.fullmatch(line))]
        assert len(told) > 10
        for line in told:
            assert POLISH_TOLD.match(line), line
            assert not ENGLISH_TOLD.search(line), line
        kinds = {m.group(1) for line in told if (m := POLISH_TOLD.match(line))}
        assert {"werbuje", "kopie tunel", "zachowuje"} <= kinds, kinds
        assert "gra #" in posts[0] and "język: Polski" in posts[0]
        final = thread.history()[-1].content
        assert final.startswith("🏆 Gra się zakończyła.") and "Królem Gór" in final
        assert "W załączniku: karta punktacji" in final
        # /mk status and /mk settings answer each player in their own language, the
        # changes since the last turn told in it too
        status_pl = await ola.slash(thread, "mk status")
        assert "Skład:" in status_pl.response.content
        assert "Wpisy gry są w języku: Polski" in status_pl.response.content
        status_es = await lucia.slash(thread, "mk status")
        assert "Almacén:" in status_es.response.content
        assert "Los mensajes de la partida están en Polski" in status_es.response.content
        log_es = (await lucia.slash(thread, "mk log")).response.content
        assert "terminó su turno" in log_es and "ended their turn" not in log_es
        assert not env.errors


async def test_the_language_defaults_to_the_servers_and_the_creator_changes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with running_bot(tmp_path / "db.sqlite3") as (env, bot):
        channel, (ana, ola) = table_speaking(env, monkeypatch, {"ana": "es-419", "ola": "pl"})

        # a Spanish server: its preferred locale picks the game's language
        def on_a_spanish_server(interaction: Any) -> str:
            return "es"

        monkeypatch.setattr("bot.features.lobby.server_language", on_a_spanish_server)
        await ana.slash(channel, "mk new", players=2)
        thread = channel.threads[-1]
        game_id = int(thread.name.rsplit("#", 1)[1])
        assert thread.name.startswith("Rey de la Montaña #")
        assert (await bot.service.info(game_id)).language == "es"
        lobby = thread.history()[0]
        assert "idioma: Español" in lobby.content
        labels = [label for _, label in buttons_on(lobby)]
        assert labels == ["Unirse", "Salir", "Añadir IA", "Empezar"]
        # only the creator (or a server admin) changes it; anyone may look
        shown = await ola.slash(thread, "mk admin", what="settings")
        assert "Wpisy gry są w języku: Español" in shown.response.content
        refused = await ola.slash(thread, "mk admin", what="settings", language="pl")
        assert refused.response.content == (
            "Tylko twórca gry albo administrator serwera może zmienić język gry."
        )
        assert (await bot.service.info(game_id)).language == "es"
        changed = await ana.slash(thread, "mk admin", what="settings", language="pl")
        assert "Desde ahora los mensajes de la partida están en Polski" in (
            changed.response.content
        )
        assert (await bot.service.info(game_id)).language == "pl"
        await ola.click(thread.history()[0], custom_id=button_id(thread.history()[0], "join"))
        lobby = thread.history()[0]
        assert "język: Polski" in lobby.content, "the lobby is redrawn in the new language"
        assert not env.errors


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def test_a_players_direct_messages_come_in_the_language_they_last_used(
    table_of: TableOf, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An English game: Ola's reminders and daily digest reach her by DM in Polish
    (her client's language), then in Spanish once she uses a Spanish client; the
    thread's reminders stay in the game's English."""
    clock = Clock()
    async with table_of("ola", "ben", clock=clock) as (env, bot, channel, (ola, ben)):
        ola_user = ola.user
        locales = {ola.id: "pl"}
        speaking(monkeypatch, locales)
        await ola.slash(channel, "mk notify", dm=True, digest=True, timezone="Europe/Warsaw")
        thread, game_id = await open_game(env, [ola, ben], channel)
        assert (await bot.service.info(game_id)).language == "en"
        await _gates_until(bot, game_id, thread, {ola.id: ola, ben.id: ben}, ola.id)
        clock.now += timedelta(hours=13)
        assert await scheduler(bot).send_reminders() == 1
        dm = ola_user.dm_channel.history()[-1]
        assert dm.content.startswith(f"<@{ola.id}>, gra #{game_id} (Król Gór) czeka na ciebie")
        assert [label for _, label in buttons_on(dm)] == ["Wycisz w tej turze"]
        # Ola opens the game on a Spanish client: her next messages come in Spanish
        locales[ola.id] = "es-ES"
        await ola.slash(thread, "mk admin", what="settings")
        clock.now += timedelta(hours=13)
        assert await scheduler(bot).send_reminders() == 1
        dm = ola_user.dm_channel.history()[-1]
        assert dm.content.startswith(f"<@{ola.id}>, la partida #{game_id}"), dm.content
        # the daily digest of the games awaiting her move, in Spanish too
        clock.now += timedelta(days=1)
        assert await scheduler(bot).send_digests() == 1
        digest = ola_user.dm_channel.history()[-1].content
        assert digest.startswith("Te toca en 1 partida: "), digest
        assert "`/mk avisos resumen:False`" in digest
        # Ben's reminder, in the thread, stays in the game's English
        await ola.slash(thread, "mk gate", point=await _first_gate(bot, game_id))
        clock.now += timedelta(hours=13)
        assert await scheduler(bot).send_reminders() == 1
        assert thread.history()[-1].content.startswith(
            f"<@{ben.id}>, game #{game_id} of Mountain King is waiting"
        )
        assert not env.errors


async def _first_gate(bot: Any, game_id: int) -> str:
    state = (await bot.service.load(game_id)).state
    assert state is not None and state.phase == "gates"
    return str(legal_actions(state, seats_to_act(state)[0], "gate")[0]).split()[1]


async def _gates_until(
    bot: Any, game_id: int, thread: Any, players: dict[int, Any], user_id: int
) -> None:
    """Place gates in turn order until `user_id` is the one to place theirs."""
    while True:
        info = await bot.service.info(game_id)
        state = (await bot.service.load(game_id)).state
        assert state is not None and state.phase == "gates"
        controller = info.seats[seats_to_act(state)[0]].controller_id
        if controller == user_id:
            return
        assert controller is not None
        placed = await players[controller].slash(
            thread, "mk gate", point=await _first_gate(bot, game_id)
        )
        assert placed.acknowledged


def test_engine_refusals_are_told_from_their_template() -> None:
    pl = bot.i18n.catalogue.translator_for("pl")
    # a template the catalogue lacks stays English (a refusal stays readable)
    unknown = IllegalActionError("Nothing like {cell} here.", "x", "F7")
    assert refusal_text(unknown, pl) == "Nothing like F7 here."
    at = IllegalActionError(
        "{cell} is the Heart of the Mountain: nothing may cover it.", "heart", "F7"
    )
    assert refusal_text(at, pl) == "F7 to Serce Góry: nic nie może go przykryć."
    assert set(LANGUAGE_NAMES) == set(bot.i18n.catalogue.LANGUAGES)


# --- the pseudo-locale ----------------------------------------------------------------

FIELD = re.compile(r"(\{\w*\})")
MARKED = re.compile(r"⟦[^⟧]*⟧")
# what may stand unmarked: values filled into the texts
FILLED = [
    re.compile(p)
    for p in (
        r"<@!?\d+>",
        r"<#\d+>",
        r"<t:\d+:\w>",
        r"`[^`]*`",
        r"https?://\S+",
        r"\b[a-z]+-\d+\b",  # starting troll cards (blue-3)
        r"\b[A-Q]\d{1,2}\b",  # cells, slots and start points
        r"#?\d+",
    )
]
COMMAND_CONTEXTS = {
    "command name",
    "command description",
    "option name",
    "option description",
}
KEPT = "⟦You have kept your four starting trolls.⟧"


def _marked(template: str, params: dict[str, object]) -> str:
    pieces = [p if FIELD.fullmatch(p) else f"⟦{p}⟧" for p in FIELD.split(template) if p]
    text = "".join(pieces)
    return text.format(**params) if params else text


class Pseudo(Messages):
    """Every catalogue text marked ⟦like this⟧ (the values filled in are not)."""

    def __init__(self) -> None:
        super().__init__("pl", gettext.NullTranslations())

    def gettext(self, message: str, /, **params: object) -> str:
        return _marked(message, params)

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        return _marked(singular if n == 1 else plural, params)

    def pgettext(self, context: str, message: str, /, **params: object) -> str:
        return _marked(message, params)

    def npgettext(
        self, context: str, singular: str, plural: str, n: int, /, **params: object
    ) -> str:
        return _marked(singular if n == 1 else plural, params)

    def lookup(self, message: str, context: str | None = None) -> str | None:
        # the commands keep their English names (a marked name is no valid name)
        return None if context in COMMAND_CONTEXTS or context == "choice" else message


# a value filled between the backticks of a template: "⟦cast ⟧X⟦ (`⟧3coin⟦`)⟧"
IN_BACKTICKS = re.compile(r"`⟧[^⟦⟧`]*⟦`")


def unmarked(text: str, names: list[str]) -> list[str]:
    """The words of a text that no catalogue text gave and no filled value explains."""
    rest = MARKED.sub(" ", IN_BACKTICKS.sub("``", text))
    for pattern in FILLED:
        rest = pattern.sub(" ", rest)
    for name in names:
        rest = rest.replace(name, " ")
    return re.findall(r"[^\W\d_]{2,}", rest)


def texts_sent(requests: list[Any]) -> Iterator[str]:
    """Every piece of text the bot sent Discord: messages (channel, thread and DM) and
    their edits, interaction answers and follow-ups, button labels, thread names and
    autocomplete choices. The synced commands are left out (their translations are the
    commands' own test)."""

    def walk(value: object) -> Iterator[str]:
        if isinstance(value, dict):
            for key, item in value.items():
                if key in ("content", "label", "placeholder", "title", "description"):
                    if isinstance(item, str):
                        yield item
                elif key == "choices" and isinstance(item, list):
                    # a choice named by its value is notation (what the option takes)
                    yield from (
                        c["name"] for c in item if isinstance(c, dict) and c["name"] != c["value"]
                    )
                else:
                    yield from walk(item)
        elif isinstance(value, list):
            for item in value:
                yield from walk(item)

    for request in requests:
        if request.method == "PUT" and request.path.endswith("/commands"):
            continue
        if request.path.endswith("/threads") and isinstance(request.json, dict):
            yield str(request.json.get("name", ""))
        yield from walk(request.json)


# the options of each command autocomplete is asked for, once per kind of action
AUTOCOMPLETE = {
    "gate": [("mk gate", "point")],
    "recruit": [("mk recruit", "troll"), ("mk recruit", "slot"), ("mk recruit", "pedestal")],
    "dig": [("mk dig", "tile"), ("mk dig", "cells"), ("mk dig", "mineral")],
    "cast": [("mk cast", "spell")],
    "use": [("mk use", "site")],
    "hall": [("mk hall", "hall")],
    "move": [("mk move", "statue")],
}


async def test_a_whole_pseudo_locale_game_shows_no_text_past_the_catalogue(
    table_of: TableOf, monkeypatch: pytest.MonkeyPatch
) -> None:
    pseudo = Pseudo()
    monkeypatch.setattr(
        bot.i18n.catalogue,
        "_messages",
        lambda language: pseudo if language == "pl" else ENGLISH,
    )
    clock = Clock()
    table = table_of("ola", "ala", "ela", clock=clock)
    async with table as (env, bot_, channel, (ola, ala, ela)):
        ola_user = ola.user
        speaking(monkeypatch, {u.id: "pl" for u in (ola, ala, ela)})
        users = {u.id: u for u in (ola, ala, ela)}
        # Ola wants her reminders and a daily digest by DM
        await ola.slash(channel, "mk notify", dm=True, digest=True, timezone="Europe/Warsaw")
        await ola.slash(channel, "mk games")
        thread, game_id = await open_game(env, [ola, ala], channel, language="pl")
        await ola.autocomplete(thread, "mk act", "action", "")
        await place_gates(bot_, [ola, ala], thread, game_id)
        await draft_all([ola, ala], thread, kept=KEPT)
        asked: set[str] = set()
        seen: set[str] = set()
        rng = random.Random(2)
        n = 0
        while True:
            state = (await bot_.service.load(game_id)).state
            assert state is not None
            if state.phase == "over":
                break
            seat = seats_to_act(state)[0]
            info = await bot_.service.info(game_id)
            controller = info.seats[seat].controller_id
            assert controller is not None
            player = users[controller]
            others = [s.controller_id for s in info.seats if s.seat != seat]
            other = users[others[0]] if others and others[0] in users else ela
            action = random_action(state, seat, rng)
            kind = str(action).split()[0]
            if kind not in asked:
                asked.add(kind)
                for command, option in AUTOCOMPLETE.get(kind, []):
                    await player.autocomplete(thread, command, option, "")
            if n % 25 == 0:
                await other.slash(thread, "mk end")  # refused: not their turn
            if n > 5 and "moments" not in seen:
                seen.add("moments")
                await _the_table_meets_its_moments(bot_, game_id, thread, clock, users, ola_user)
                continue
            if n == 30:
                await _looking_around(thread, player, other)
            if player is ola and "moments" in seen and "digest" not in seen:
                # the daily digest: Ola's move awaits, by DM
                seen.add("digest")
                clock.now += timedelta(days=1)
                assert await scheduler(bot_).send_digests() == 1
            if isinstance(action, Dig) and len(action.workshops) <= 1 and "dig" not in seen:
                seen.add("dig")
                await _dig_with_a_preview(thread, player, action)
            elif not isinstance(action, EndTurn) and "undo" not in seen and kind != "keep":
                seen.add("undo")
                await player.slash(thread, "mk act", action=str(action))
                undone = await player.slash(thread, "mk undo")
                assert "⟦Undone: your last action (you ⟧" in undone.response.content
            else:
                result = await player.slash(thread, "mk act", action=str(action))
                assert result.response.content.startswith("⟦Done: you ⟧"), result.response.content
            n += 1
            assert n < 3000
        # the end: the score sheet, the log, everyone's games
        await ola.slash(thread, "mk scores")
        await ala.slash(thread, "mk log")
        await ala.slash(channel, "mk games")
        texts = list(texts_sent(env.http_requests))
        everything = "\n".join(texts)
        for moment in (
            "⟦Done: you ⟧",
            "⟦Undone: your last action (you ⟧",
            " has missed several reminders.",
            "⟦Decided: the AI plays this turn",
            " is waiting for you (",
            "⟦Your move in ",
            " accepted ",
            " takes ",
            "⟦The AI plays ⟧",
            "⟦🏆 The game is over. **⟧",
            "⟦dig ⟧",
        ):
            assert moment in everything, moment
        names = ["ola", "ala", "ela", "/mk", "Europe/Warsaw", *LANGUAGE_NAMES.values()]
        found = {text[:80]: words for text in texts if (words := unmarked(text, names))}
        assert not found, "\n".join(f"{k!r}: {v}" for k, v in found.items())
        assert not env.errors


async def _dig_with_a_preview(thread: Any, player: Any, dig: Dig) -> None:
    """`/mk dig` with its options: the private preview asks (in the ask voice), Cancel
    drops it, a second preview is confirmed."""
    options: dict[str, str] = {
        "tile": dig.shape,
        "cells": format_cells(dig.cells, dig.anchor),
        "mineral": dig.mineral.value,
    }
    if dig.pedestal is not None:
        options["pedestal"] = dig.pedestal.value
    if dig.workshops:
        site, workshop = dig.workshops[0]
        options["workshop"] = f"{site}={workshop}"
    preview = await player.slash(thread, "mk dig", **options)
    assert "⟦dig ⟧" in preview.response.content, preview.response.content
    cancel = await player.click(preview.response.message, label="⟦Cancel⟧")
    assert cancel.acknowledged
    preview = await player.slash(thread, "mk dig", **options)
    confirmed = await player.click(preview.response.message, label="⟦Confirm⟧")
    assert confirmed.acknowledged


async def _the_table_meets_its_moments(
    bot: Any, game_id: int, thread: Any, clock: Clock, users: dict[int, Any], ola_user: Any
) -> None:
    """Reminders (in the thread, or by DM for Ola), the table's vote about an absent
    player, a muted reminder, autopilot on and off, and a substitute who takes a seat
    and hands it back to its player."""
    info = await bot.service.info(game_id)
    ola, ala, ela = users.values()
    ola_seat = next(s for s in info.seats if s.user_id == ola.id)
    ala_seat = next(s for s in info.seats if s.user_id == ala.id)
    state = (await bot.service.load(game_id)).state
    awaited = info.seats[seats_to_act(state)[0]].user_id
    duties = scheduler(bot)
    # three missed reminders: by DM to Ola, in the thread to Ala; then the vote
    for _ in range(3):
        clock.now += timedelta(hours=13)
        assert await duties.send_reminders() == 1
    if awaited == ola.id:
        assert ola_user.dm_channel.history(), "Ola's reminders come by DM"
    vote = next(
        m for m in reversed(thread.history()) if buttons_on(m) and "vskip" in str(buttons_on(m))
    )
    voter = ala if awaited == ola.id else ola
    await voter.click(vote, custom_id=button_id(vote, "vskip"))
    await run_duties(bot)
    # the next turn: a reminder muted from its button, in the thread
    await ola.slash(thread, "mk notify", dm=False)
    clock.now += timedelta(hours=13)
    assert await duties.send_reminders() == 1
    reminder = thread.history()[-1]
    state = (await bot.service.load(game_id)).state
    muter = users[info.seats[seats_to_act(state)[0]].user_id]
    await muter.click(reminder, custom_id=button_id(reminder, "mute"))
    await ola.slash(thread, "mk notify", dm=True)
    # autopilot on and off for Ola's seat; Ela substitutes for Ala, then Ala returns
    await ola.slash(thread, "mk admin", what="autopilot-on", seat=ola_seat.label)
    await ola.slash(thread, "mk admin", what="autopilot-off", seat=ola_seat.label)
    await run_duties(bot)
    await ola.slash(thread, "mk admin", what="substitute", seat=ala_seat.label, substitute=ela)
    offer = next(m for m in reversed(thread.history()) if buttons_on(m))
    accepted = await ela.click(offer, custom_id=button_id(offer, "seatok"))
    assert accepted.acknowledged
    await ela.slash(thread, "mk status")
    back = await ala.slash(thread, "mk admin", what="return")
    assert back.acknowledged


async def _looking_around(thread: Any, player: Any, other: Any) -> None:
    """Every looking command, shared or not, and every help topic."""
    for command, options in (
        ("mk status", {}),
        ("mk log", {}),
        ("mk board", {}),
        ("mk board", {"share": True}),
        ("mk pyramid", {}),
        ("mk market", {"share": True}),
        ("mk scores", {}),
        ("mk games", {}),
        ("mk admin", {"what": "settings"}),
        ("mk notify", {"quiet_from": 22, "quiet_to": 7}),
        ("mk help", {}),
    ):
        await player.slash(thread, command, **options)
    await other.slash(thread, "mk pyramid", player=player)
    for topic, _ in HELP_TOPICS:
        await other.slash(thread, "mk help", topic=topic)


def test_the_pseudo_locale_check_finds_inline_english() -> None:
    assert unmarked("⟦Turn order: ⟧1. ola Seats: <@1>", ["ola"]) == ["Seats"]
    assert unmarked("⟦**⟧ola⟦** ⟧⟦dug ⟧F7⟦.⟧\n⟦Next reminder ⟧<t:1:R>⟦.⟧", ["ola"]) == []
    assert unmarked("⟦cast ⟧⟦Golden Rain⟧⟦ (`⟧3coin⟦`)⟧", []) == []
    assert unmarked("⟦**⟧ola⟦** ⟧dug a tunnel on F7⟦.⟧", ["ola"]) == ["dug", "tunnel", "on"]
    requests = [
        type("R", (), {"method": "POST", "path": "/interactions/1/t/callback", "json": j})()
        for j in (
            {"type": 8, "data": {"choices": [{"name": "end", "value": "end"}]}},
            {"type": 4, "data": {"content": "Hello", "components": [{"label": "Join"}]}},
        )
    ]
    assert list(texts_sent(requests)) == ["Hello", "Join"]
