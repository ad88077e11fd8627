"""The images in the game's language: every image drawn in English, Polish and
Spanish, and in a long pseudo-language, keeps each text inside the box it was given
(measured through the drawing helpers' record, render.draw.recording), never under
the smallest size; in the three real languages no word of the catalogue is cut; in the
pseudo-language every word drawn came from the catalogue; the fonts draw every letter
the catalogues use; each language's letters for players and clans differ."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import cache

import pytest

from bot.i18n import translator_for
from bot.i18n.catalogue import TRANSLATED, po_path, read_catalog
from render import board_png, legend_png, market_png, pyramid_png, score_png
from render.board import static_board
from render.draw import ELLIPSIS, MIN_SIZE, Drawn, font, recording
from render.legend import legend_image
from render.samples import dig_preview, positions, sample_game
from render.words import Translator, clan_letter, player_letter
from rules.resources import STATUE_CLANS

LANGUAGES = ("en", "pl", "es")
# names as players have them: short, long (cut with an ellipsis) and non-Latin
NAMES = {
    0: "ola",
    1: "Bartholomew the Magnificent",
    2: "Łucja Żółkiewska-Brzęczyszczykiewicz",
    3: "Ñandú",
    4: "WWWWWWWWWWWWWWWWWWWW",
}
# names of no Latin letter, for the pseudo-language (any Latin word is then the code's)
GREEK = {0: "Αλφα", 1: "Βήτα Γάμμα Δέλτα Έψιλον", 2: "Ζήτα", 3: "Ηταθ", 4: "Ιώτα"}
# where the messages drawn on images come from: the images' code and the game's content
IMAGE_SOURCES = ("render/", "rules/")
TOLERANCE = 1  # px: a drawn text's position is rounded to the pixel grid


# --- a long pseudo-language ------------------------------------------------------------

FIELD = re.compile(r"(\{\w*\})")
ACCENTED = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "áƀçďéƒĝĥíĵķĺɱñóƥʠŕšťúʋŵχýžÁɃÇĎÉƑĜĤÍĴĶĹⱮÑÓƤɊŔŠŤÚƲŴΧÝŽ",
)


class Pseudo:
    """Every message with each Latin letter accented and a third longer (longer than
    Polish or Spanish), its fields filled in; it keeps every text it gave out."""

    def __init__(self) -> None:
        self.given: set[str] = set()

    def gettext(self, message: str, /, **params: object) -> str:
        pieces = [p if FIELD.fullmatch(p) else _stretched(p) for p in FIELD.split(message) if p]
        text = "".join(pieces).format(**params) if params else "".join(pieces)
        self.given.add(text)
        return text

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        return self.gettext(singular if n == 1 else plural, **params)

    def pgettext(self, context: str, message: str, /, **params: object) -> str:
        return self.gettext(message, **params)

    def npgettext(
        self, context: str, singular: str, plural: str, n: int, /, **params: object
    ) -> str:
        return self.ngettext(singular, plural, n, **params)


def _stretched(text: str) -> str:
    return text.translate(ACCENTED) + "~" * (len(text) // 3)


# --- every image, drawn in a language ------------------------------------------------


def _every_image(messages: Translator, names: dict[int, str]) -> Iterator[str]:
    """Draws every kind of image in several positions (whole board, close-up and
    preview, a pyramid at each point, the market, the score sheets of a game and of a
    team game, the legend); yields a name for each."""
    game = sample_game(players=4, seed=11)
    for pos in positions(game):
        board_png(pos.view, highlight=pos.highlight, names=names, messages=messages)
        yield f"board {pos.name}"
        board_png(pos.view, highlight=pos.highlight, focus=True, names=names, messages=messages)
        yield f"close-up {pos.name}"
        for seat in range(4):
            pyramid_png(pos.view, seat, names=names, messages=messages)
        yield f"pyramids {pos.name}"
        market_png(pos.view, messages=messages)
        yield f"market {pos.name}"
    view, legal, illegal = dig_preview(game, len(game.moves) // 2)
    board_png(view, preview=illegal, messages=messages)
    board_png(view, preview=legal, focus=True, messages=messages)
    yield "previews"
    five = positions(sample_game(players=5, seed=3))
    board_png(five[1].view, names=names, messages=messages)
    board_png(five[1].view, messages=messages)  # the colours' words in the chips
    yield "five players"
    board_png(positions(sample_game(players=3, seed=2))[1].view, messages=messages)
    yield "autumn"
    for config, seats in (((4, 11, False), names), ((4, 5, True), names), ((4, 5, True), {})):
        played = sample_game(players=config[0], seed=config[1], teams=config[2])
        outcome = played.outcome
        assert outcome is not None
        score_png(positions(played)[-1].view, outcome.to_json(), names=seats, messages=messages)
    yield "score sheets"
    legend_image(messages)
    yield "legend"


@cache
def _drawn(language: str) -> tuple[list[Drawn], Translator, dict[int, str]]:
    messages: Translator = Pseudo() if language == "pseudo" else translator_for(language)
    names = GREEK if language == "pseudo" else NAMES
    static_board.cache_clear()  # the empty mountain is drawn again, and recorded
    with recording() as drawn:
        for _ in _every_image(messages, names):
            pass
    return drawn, messages, names


def _outside(drawn: Drawn) -> bool:
    assert drawn.box is not None
    ink, box = drawn.ink, drawn.box
    return any(ink[k] < box[k] - TOLERANCE for k in (0, 1)) or any(
        ink[k] > box[k] + TOLERANCE for k in (2, 3)
    )


@pytest.mark.parametrize("language", [*LANGUAGES, "pseudo"])
def test_every_text_stays_inside_its_box(language: str) -> None:
    drawn, _, _ = _drawn(language)
    boxed = [d for d in drawn if d.box is not None]
    assert len(boxed) > 500, "the images were drawn and recorded"
    outside = [f"{d.shown!r} {d.ink} not in {d.box}" for d in boxed if _outside(d)]
    assert not outside, f"{len(outside)} texts overflow their box: " + "; ".join(outside[:8])
    small = {f"{d.shown!r} at {d.size}px" for d in boxed if d.size < MIN_SIZE}
    assert not small, "under the smallest size: " + "; ".join(sorted(small)[:8])


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_word_of_the_catalogue_is_cut(language: str) -> None:
    """Only a player's name is ever cut with an ellipsis: every other text fits whole,
    if need be smaller or on more lines."""
    drawn, _, names = _drawn(language)
    cut = {
        d.text
        for d in drawn
        if d.shown.endswith(ELLIPSIS) and not d.text.endswith(ELLIPSIS)
        if not any(name in d.text for name in names.values())
    }
    assert not cut, f"{language}: cut: {sorted(cut)}"
    assert any(d.shown.endswith(ELLIPSIS) for d in drawn), "a long name is cut"


def test_the_pseudo_language_stretches_the_texts() -> None:
    """The long pseudo-language really makes the images fit longer words: texts are
    shrunk and wrapped to stay in their boxes."""
    english, _, _ = _drawn("en")
    pseudo, _, _ = _drawn("pseudo")
    assert sum(d.size for d in pseudo) < sum(d.size for d in english)


# what the code may write itself: cells, start points and tile names (a capital and
# digits: "F7", "W8", "T4"), the resource letters on the marks, numbers and signs
CODES = re.compile(r"\b[A-Z]\d*\b|\d+|[^\w\s]|_")


def test_every_word_drawn_comes_from_the_catalogue() -> None:
    """In the pseudo-language, take out of each drawn text every text the catalogue
    gave and the names: no Latin word may be left (English written inline would be)."""
    drawn, pseudo, names = _drawn("pseudo")
    assert isinstance(pseudo, Pseudo)
    given = sorted(pseudo.given, key=len, reverse=True)
    left, unboxed = set(), set()
    for d in drawn:
        text = d.text
        for piece in [*given, *names.values()]:
            text = text.replace(piece, " ")
        if re.search(r"[A-Za-z]{2,}|[a-z]", CODES.sub(" ", text)):
            left.add(d.text)
        if d.box is None and any(piece in d.text for piece in given):
            unboxed.add(d.text)
    assert not unboxed, f"catalogue texts drawn without a box to fit: {sorted(unboxed)}"
    assert not left, f"words past the catalogue: {sorted(left)}"


def _ink(style: str, char: str) -> bytes:
    mask = font(40, style).getmask(char)
    return bytes(mask) + bytes(str(mask.size), "ascii")


@pytest.mark.parametrize("style", ["regular", "bold", "condensed"])
def test_the_fonts_draw_every_letter_of_the_catalogues(style: str) -> None:
    """No tofu: each letter of the Polish and Spanish translations (ąćęłńóśźż,
    áéíóúñ¿¡ and the rest) has its own glyph in every font the images use, unlike the
    box a missing one gets, and an accented letter differs from its plain one."""
    missing = _ink(style, "\uffff")  # no font has this: its "missing" glyph
    letters = set("ąćęłńóśźżĄĆĘŁŃÓŚŹŻáéíóúüñÁÉÍÓÚÜÑ¿¡«»„”–—…·×★▶")
    for language in TRANSLATED:
        for message in read_catalog(po_path(language), language):
            if not any(path.startswith(IMAGE_SOURCES) for path, _ in message.locations):
                continue  # a message of the bot's posts (they may hold emoji)
            found = message.string
            strings = found if isinstance(found, tuple | list) else [found]
            letters |= {ch for s in strings for ch in s if not ch.isascii() and ch.isprintable()}
    tofu = sorted(ch for ch in letters if _ink(style, ch) == missing)
    assert not tofu, f"{style}: no glyph for {tofu}"
    for accented, plain in zip("ąćęłńóśźżáéíóúñ", "acelnoszzaeioun", strict=True):
        assert _ink(style, accented) != _ink(style, plain), accented


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_players_and_clans_letter_differs(language: str) -> None:
    m = translator_for(language)
    players = [player_letter(c, m) for c in ("blue", "orange", "green", "magenta", "white")]
    clans = [clan_letter(c.value, m) for c in STATUE_CLANS]
    assert len(set(players)) == 5 and all(len(p) == 1 and p.isupper() for p in players)
    assert len(set(clans)) == 3 and all(len(c) == 1 and c.isupper() for c in clans)


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize(
    "draw",
    [
        lambda m: board_png(positions(sample_game(seed=11))[-1].view, messages=m),
        lambda m: legend_png(m),
    ],
)
def test_an_image_in_another_language_differs(
    language: str, draw: Callable[[Translator], bytes]
) -> None:
    assert draw(translator_for(language)) != draw(translator_for("en"))
