"""A game in Polish at a table of a Polish and a Spanish player, through the real
discord.py bot: the game's public posts are in the game's language (chosen with
`/mk new language:`, stored with the game, changed with `/mk settings`), each player's
private answers and refusals in their own client's language.

And a pseudo-locale run: a test-only language that marks every piece of text the
catalogue gives (⟦...⟧) plays the setup and some turns; every public post and every
private answer of the texts routed through the catalogue must then be built of marked
pieces and the values filled into them (names, mentions, timestamps, cells, commands,
numbers). English written inline, past the catalogue, shows up unmarked and fails.
"""

from __future__ import annotations

import gettext
import random
import re
from pathlib import Path
from typing import Any

import pytest
from bot_harness import (
    button_id,
    buttons_on,
    draft_all,
    open_game,
    place_gates,
    running_bot,
    speaking,
)

import bot.i18n.catalogue
from bot.i18n.catalogue import Messages
from bot.refusals import BY_CODE, refusal_text
from bot.texts import LANGUAGE_NAMES
from rules.errors import IllegalActionError
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


async def test_a_polish_game_with_a_polish_and_a_spanish_player(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with running_bot(tmp_path / "db.sqlite3") as (env, bot):
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        ola = guild.add_member(env.create_user("ola"))
        lucia = guild.add_member(env.create_user("lucia"))
        speaking(monkeypatch, {ola.id: "pl", lucia.id: "es-ES"})
        thread, game_id = await open_game(env, [ola, lucia], channel, language="pl")
        info = await bot.service.info(game_id)
        assert info.language == "pl"
        assert thread.name == f"Król Gór #{game_id}"
        # the setup: gates in turn order, then the draft, each answer in its reader's
        # language
        await place_gates(bot, [ola, lucia], thread, game_id)
        await draft_all([ola], thread, kept="Zachowałeś swoje cztery początkowe trolle.")
        await draft_all([lucia], thread, kept="Te has quedado tus cuatro trols iniciales.")
        by_seat = {s.seat: (ola if s.user_id == ola.id else lucia) for s in info.seats}
        done = {ola.id: "Zrobione: ", lucia.id: "Hecho: "}
        refused = {ola.id: "To nie twoja tura", lucia.id: "No es tu turno"}
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
            assert result.response.content.startswith(done[player.id]), result.response.content
            sent += 1
            assert sent < 3000
        assert sent > 20
        # every public post is Polish: the lobby, the start, the calls, the turn posts,
        # the pings and the end, with the Polish lobby buttons
        posts = [m.content for m in thread.history()]
        everything = "\n".join(posts)
        for words in POLISH:
            assert words in everything, words
        for words in ENGLISH_FRAMES:
            assert words not in everything, words
        assert "gra #" in posts[0] and "język: Polski" in posts[0]
        final = thread.history()[-1].content
        assert final.startswith("🏆 Gra się zakończyła.") and "Królem Gór" in final
        assert "W załączniku: karta punktacji" in final
        # /mk status and /mk settings answer each player in their own language
        status_pl = await ola.slash(thread, "mk status")
        assert "Skład:" in status_pl.response.content
        assert "Wpisy gry są w języku: Polski" in status_pl.response.content
        status_es = await lucia.slash(thread, "mk status")
        assert "Almacén:" in status_es.response.content
        assert "Los mensajes de la partida están en Polski" in status_es.response.content
        assert not env.errors


async def test_the_language_defaults_to_the_servers_and_the_creator_changes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with running_bot(tmp_path / "db.sqlite3") as (env, bot):
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        ana = guild.add_member(env.create_user("ana"))
        ola = guild.add_member(env.create_user("ola"))
        speaking(monkeypatch, {ana.id: "es-419", ola.id: "pl"})

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
        shown = await ola.slash(thread, "mk settings")
        assert "Wpisy gry są w języku: Español" in shown.response.content
        refused = await ola.slash(thread, "mk settings", language="pl")
        assert "Only the game's creator" in refused.response.content  # still English
        assert (await bot.service.info(game_id)).language == "es"
        changed = await ana.slash(thread, "mk settings", language="pl")
        assert "Desde ahora los mensajes de la partida están en Polski" in (
            changed.response.content
        )
        assert (await bot.service.info(game_id)).language == "pl"
        await ola.click(thread.history()[0], custom_id=button_id(thread.history()[0], "join"))
        lobby = thread.history()[0]
        assert "język: Polski" in lobby.content, "the lobby is redrawn in the new language"
        assert not env.errors


def test_engine_refusals_are_told_from_their_code() -> None:
    pl = bot.i18n.catalogue.translator_for("pl")
    error = IllegalActionError("That tunnel would touch Blue's network at F7; ...", "x")
    assert refusal_text(error, pl) == error.message, "an untranslated code stays English"
    at = IllegalActionError("F7 is the Heart of the Mountain.", "heart", "F7")
    assert refusal_text(at, pl) == "F7 to Serce Góry: nic nie może go przykryć."
    for code in BY_CODE:
        told = refusal_text(IllegalActionError("English.", code), pl)
        assert told != "English." and told.strip(), code
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
        r"\b[A-M]\d{1,2}\b",  # cells
        r"#?\d+",
    )
]
COMMAND_CONTEXTS = {
    "command name",
    "command description",
    "option name",
    "option description",
}


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

    def lookup(self, message: str, context: str | None = None) -> str | None:
        # the commands keep their English names (a marked name is no valid name)
        return None if context in COMMAND_CONTEXTS or context == "choice" else message


def unmarked(text: str, names: list[str]) -> list[str]:
    """The words of a text that no catalogue text gave and no filled value explains
    (the rules' stories of a turn, "**alice (Blue)** dug ...", are taken out first)."""
    lines = []
    for line in text.splitlines():
        story = re.fullmatch(r"(• )?(\*\*.*?\*\*) (.*)\.", line)
        if story and "⟦" not in story.group(3):
            line = story.group(2)
        elif line.lstrip("⟧").startswith("• ") and "⟦" not in line:
            line = ""  # a line of the log (/mk status): who did what, told by the rules
        lines.append(line)
    rest = MARKED.sub(" ", "\n".join(lines))
    for pattern in FILLED:
        rest = pattern.sub(" ", rest)
    for name in names:
        rest = rest.replace(name, " ")
    return re.findall(r"[^\W\d_]{2,}", rest)


async def test_a_pseudo_locale_game_shows_no_text_past_the_catalogue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Covers the texts routed through the catalogue: the lobby and its buttons, the
    start post, the calls, turn posts (their frame: what a turn did is the rules'
    English), pings, the end, the private answers to actions and refusals, /mk status
    and /mk settings. Not covered yet: the draft message's troll descriptions, the
    looking commands' captions, /mk games, /mk notify and the digest."""
    pseudo = Pseudo()
    monkeypatch.setattr(
        bot.i18n.catalogue,
        "_messages",
        lambda language: pseudo if language == "pl" else bot.i18n.catalogue.ENGLISH,
    )
    async with running_bot(tmp_path / "db.sqlite3") as (env, bot_):
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        ola = guild.add_member(env.create_user("ola"))
        ala = guild.add_member(env.create_user("ala"))
        speaking(monkeypatch, {ola.id: "pl", ala.id: "pl"})
        thread, game_id = await open_game(env, [ola, ala], channel, language="pl")
        names = ["ola", "ala", "/mk", *LANGUAGE_NAMES.values()]
        await place_gates(bot_, [ola, ala], thread, game_id)
        await draft_all([ola, ala], thread, kept="⟦You have kept your four starting trolls.⟧")
        info = await bot_.service.info(game_id)
        by_seat = {s.seat: (ola if s.user_id == ola.id else ala) for s in info.seats}
        private: list[str] = []
        rng = random.Random(2)
        for n in range(30):
            state = (await bot_.service.load(game_id)).state
            assert state is not None and state.phase == "play"
            seat = seats_to_act(state)[0]
            if n % 10 == 0:
                wrong = await by_seat[1 - seat].slash(thread, "mk end")
                private.append(wrong.response.content)
            action = str(random_action(state, seat, rng))
            result = await by_seat[seat].slash(thread, "mk act", action=action)
            reply = result.response.content
            # what the action did is the rules' English: the frame around it is marked
            assert re.fullmatch(r"⟦Done: you ⟧.+⟦\.⟧( ⟦Your turn is over\.⟧)?", reply, re.DOTALL), (
                reply
            )
        for command in ("mk status", "mk settings"):
            private.append((await ola.slash(thread, command)).response.content)
        public = [m.content for m in thread.history()]
        assert len(public) > 5
        lobby = thread.history()[0]
        labels = [label for _, label in buttons_on(lobby)]
        found = {
            text[:80]: words
            for text in [*public, *private, *labels]
            if (words := unmarked(text, names))
        }
        assert not found, found
        assert not env.errors


def test_the_pseudo_locale_check_finds_inline_english() -> None:
    assert unmarked("⟦Turn order: ⟧1. ola Seats: <@1>", ["ola"]) == ["Seats"]
    assert unmarked("**⟦Blue⟧** dug a tunnel on F7.\n⟦Next reminder ⟧<t:1:R>⟦.⟧", []) == []
