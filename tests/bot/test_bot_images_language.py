"""The images of a game in the game's language, through real discord.py: a Polish game
played to the end by a player on a Polish client and one on a Spanish client draws
every turn post's board and pyramid, the dig preview, the draft's pyramid, the score
sheet and the replay in Polish; /mk board, /mk pyramid, /mk market and /mk scores show
the Polish images to the Spanish player too; /mk help topic:images gives each reader
the legend in their own language."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from bot_harness import draft_all, open_game, place_gates, running_bot, table_speaking

import render
from bot.i18n import translator_for
from rules.actions import Dig
from rules.legal import legal_actions
from rules.selfplay import random_action
from rules.steps import seats_to_act

# the draft's last answer in each reader's language
KEPT = {"pl": "Twoje cztery początkowe trolle są zachowane.", "es": "Te has quedado tus cuatro"}


def _spy(drawn: list[tuple[str, str]], name: str, draw: Callable[..., bytes]) -> Any:
    """`draw`, noting the language of each image it is asked for."""

    def noted(*args: Any, **kwargs: Any) -> bytes:
        drawn.append((name, kwargs["messages"].language))
        return draw(*args, **kwargs)

    return noted


async def _first(response: Any) -> bytes:
    data: bytes = await response.attachments[0].read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return data


async def test_a_polish_games_images_are_polish_whoever_looks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[tuple[str, str]] = []
    for module, name in [
        ("bot.mountain_king.turn", "board_png"),
        ("bot.mountain_king.turn", "pyramid_png"),
        ("bot.mountain_king.turn", "score_png"),
        ("bot.mountain_king.draft", "pyramid_png"),
    ]:
        monkeypatch.setattr(f"{module}.{name}", _spy(drawn, name, getattr(render, name)))
    pl, es, en = translator_for("pl"), translator_for("es"), translator_for("en")
    async with running_bot(tmp_path / "db.sqlite3") as (env, bot):
        channel, (ola, lucia) = table_speaking(env, monkeypatch, {"ola": "pl", "lucia": "es-ES"})
        thread, game_id = await open_game(env, [ola, lucia], channel, language="pl")
        await place_gates(bot, [ola, lucia], thread, game_id)
        await draft_all([ola], thread, kept=KEPT["pl"])
        await draft_all([lucia], thread, kept=KEPT["es"])
        info = await bot.service.info(game_id)
        by_seat = {s.seat: (ola if s.user_id == ola.id else lucia) for s in info.seats}
        rng = random.Random(7)
        previewed = False
        while (state := (await bot.service.load(game_id)).state) and state.phase != "over":
            seat = seats_to_act(state)[0]
            player = by_seat[seat]
            digs = [a for a in legal_actions(state, seat, "dig") if isinstance(a, Dig)]
            plain = [d for d in digs if d.pedestal is None and not d.workshops]
            if not previewed and plain:
                # the private preview of a dig, asked by the Spanish or the Polish player
                _, tile, cells, mineral = str(plain[0]).split()[:4]
                preview = await player.slash(
                    thread, "mk dig", tile=tile, cells=cells, mineral=mineral
                )
                assert [a.filename for a in preview.response.attachments] == ["dig-preview.png"]
                previewed = True
            action = random_action(state, seat, rng)
            assert (await player.slash(thread, "mk act", action=str(action))).acknowledged
        assert previewed
        kinds = {name for name, _ in drawn}
        assert kinds == {"board_png", "pyramid_png", "score_png"}, kinds
        assert {language for _, language in drawn} == {"pl"}, "every image of the game"

        # looking: the Spanish player sees the game's Polish images
        view = await bot.service.view(game_id, lucia.id)
        names = {s.seat: s.name for s in info.seats if s.name}
        seat = info.seat_of(lucia.id)
        assert view.state is not None and view.outcome is not None and seat is not None
        board = await _first((await lucia.slash(thread, "mk board")).response)
        assert board == render.board_png(view.state, names=names, messages=pl)
        assert board != render.board_png(view.state, names=names, messages=en)
        pyramid = await _first((await lucia.slash(thread, "mk pyramid")).response)
        assert pyramid == render.pyramid_png(view.state, seat.seat, names=names, messages=pl)
        market = await _first((await lucia.slash(thread, "mk market")).response)
        assert market == render.market_png(view.state, messages=pl)
        sheet = await _first((await lucia.slash(thread, "mk scores")).response)
        assert sheet == render.score_png(view.state, view.outcome, names=names, messages=pl)

        # help is the reader's: each gets the legend in their client's language
        for player, language in ((lucia, es), (ola, pl)):
            helped = await player.slash(thread, "mk help", topic="images")
            assert await _first(helped.response) == render.legend_png(language)
        assert render.legend_png(es) != render.legend_png(pl)
        assert not env.errors
