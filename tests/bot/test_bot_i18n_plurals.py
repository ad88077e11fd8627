"""Counts said right in Polish and Spanish: `python -m bot.catalogue check` refuses a
catalogue whose counted messages say every count with one word (Polish "1 kamienia, 2
kamienia, 5 kamienia") and passes on ours; a player's storage, the trades and workshop
uses told to the table, and what a payment costs are written with each resource's
plural forms (Polish: 1 kamień, 2 kamienie, 5 kamieni, 22 kamienie; the object of a
verb in the accusative: 1 monetę, 1 runę)."""

from __future__ import annotations

import doctest
import re
import shutil
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

import bot.i18n.catalogue
import bot.i18n.plurals
from bot.catalogue import _write, main
from bot.i18n import translator_for
from bot.i18n.catalogue import TRANSLATED, po_path, read_catalog
from bot.i18n.plurals import uninflected
from bot.mountain_king.refusals import refusal_text
from bot.mountain_king.stories import story_text
from bot.mountain_king.texts import status_text
from rules.errors import Phrase, RulesError
from rules.game import Game
from rules.payment import resolve_payment
from rules.resources import RESOURCES, Resource

COUNTS = (1, 2, 5, 22)
# each resource counted in Polish, by count: as the subject or after a colon ("Skład:
# 22 kamienie"), and as the object of a verb ("wymienia 1 monetę na 1 runę")
POLISH: dict[Resource, tuple[str, str, str, str]] = {
    Resource.STONE: ("1 kamień", "2 kamienie", "5 kamieni", "22 kamienie"),
    Resource.IRON: ("1 żelazo", "2 żelaza", "5 żelaz", "22 żelaza"),
    Resource.HEARTSTONE: ("1 klejnot", "2 klejnoty", "5 klejnotów", "22 klejnoty"),
    Resource.COIN: ("1 moneta", "2 monety", "5 monet", "22 monety"),
    Resource.CART: ("1 wózek", "2 wózki", "5 wózków", "22 wózki"),
    Resource.HAMMER: ("1 młot", "2 młoty", "5 młotów", "22 młoty"),
    Resource.RUNE: ("1 runa", "2 runy", "5 run", "22 runy"),
}
POLISH_OBJECT: dict[Resource, tuple[str, str, str, str]] = {
    **POLISH,
    Resource.COIN: ("1 monetę", "2 monety", "5 monet", "22 monety"),
    Resource.RUNE: ("1 runę", "2 runy", "5 run", "22 runy"),
}
# Spanish, 1 and 2, as the Spanish rulebook counts ("2 hierros", "1 roca ígnea")
SPANISH: dict[Resource, tuple[str, str]] = {
    Resource.STONE: ("1 piedra", "2 piedras"),
    Resource.IRON: ("1 hierro", "2 hierros"),
    Resource.HEARTSTONE: ("1 roca ígnea", "2 rocas ígneas"),
    Resource.COIN: ("1 moneda", "2 monedas"),
    Resource.CART: ("1 carretilla", "2 carretillas"),
    Resource.HAMMER: ("1 martillo", "2 martillos"),
    Resource.RUNE: ("1 runa", "2 runas"),
}
ALIKE = "plural forms all alike"


def test_every_resource_has_its_forms_here() -> None:
    assert set(POLISH) == set(POLISH_OBJECT) == set(SPANISH) == set(RESOURCES)


# --- the check ---------------------------------------------------------------------


def _catalogues_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Our catalogues copied to a temporary locale folder, which the tool then reads."""
    locale = tmp_path / "locale"
    for language in TRANSLATED:
        target = locale / language / "LC_MESSAGES"
        target.mkdir(parents=True)
        shutil.copy(po_path(language), target)
    monkeypatch.setattr(bot.i18n.catalogue, "LOCALE_DIR", locale)


def _one_word(language: str, context: str | None, singular: str) -> None:
    """Every plural form of a counted message of the (copied) catalogue made its first."""
    catalog = read_catalog(po_path(language), language)
    message = catalog.get(singular, context=context)
    assert message is not None and isinstance(message.string, tuple)
    first = message.string[0]
    message.string = (first,) * catalog.num_plurals
    _write(catalog, po_path(language))


@pytest.mark.parametrize("language", TRANSLATED)
def test_our_counted_messages_say_their_counts_in_several_ways(language: str) -> None:
    catalog = read_catalog(po_path(language), language)
    assert catalog.num_plurals > 1
    assert sum(1 for m in catalog if m.id and m.pluralizable) >= 30
    assert uninflected(catalog) == []


def test_the_check_fails_on_polish_counts_of_one_word_and_names_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _catalogues_in(tmp_path, monkeypatch)
    assert main(["check"]) in (0, 1)
    assert ALIKE not in capsys.readouterr().out, "our catalogues say counts right"
    _one_word("pl", "amount", "{count} stone")
    _one_word("pl", "amount, as an object", "{count} iron")
    assert main(["check"]) == 1
    faults = [line for line in capsys.readouterr().out.splitlines() if ALIKE in line]
    assert faults == [
        f"pl: {ALIKE}: [amount] '{{count}} stone': '{{count}} kamień'",
        f"pl: {ALIKE}: [amount, as an object] '{{count}} iron': '{{count}} żelazo'",
    ]


def test_the_check_fails_on_spanish_counts_of_one_word(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _catalogues_in(tmp_path, monkeypatch)
    _one_word("es", None, "{count} player")
    names = uninflected(read_catalog(po_path("es"), "es"))
    assert names == ["'{count} player': '{count} jugador'"]
    assert uninflected(read_catalog(po_path("pl"), "pl")) == []


def test_only_a_language_with_several_plural_forms_is_held_to_it() -> None:
    """A language with one plural form says every count alike by right; a counted
    message lacking a form is untranslated (the check's other fault), not alike."""
    counted = ("{count} game", "{count} games")
    one = Catalog(locale="ja")
    one.add(counted, ("{count} ゲーム",))
    assert one.num_plurals == 1 and uninflected(one) == []
    polish = Catalog(locale="pl")
    polish.add(counted, ("{count} gra", "", ""))
    polish.add(("{count} coin", "{count} coins"), ("{count} moneta", "{count} monety", ""))
    assert uninflected(polish) == []


def test_the_example_in_the_docstring_holds() -> None:
    failures, tried = doctest.testmod(bot.i18n.plurals)
    assert tried and not failures


# --- the forms in the bot's sentences ------------------------------------------------


@pytest.mark.parametrize("resource", RESOURCES)
def test_polish_storage_counts_each_resource(resource: Resource) -> None:
    pl = translator_for("pl")
    for n, said in zip(COUNTS, POLISH[resource], strict=True):
        text = status_text("Niebieski", {resource.value: n}, [], [], pl)
        assert f"Skład: {said}." in text, text


@pytest.mark.parametrize("resource", RESOURCES)
def test_polish_trades_count_what_is_given_and_taken_in_the_accusative(
    resource: Resource,
) -> None:
    pl = translator_for("pl")
    other = Resource.HAMMER if resource != Resource.HAMMER else Resource.CART
    taken = POLISH_OBJECT[other][0]
    for n, said in zip(COUNTS, POLISH_OBJECT[resource], strict=True):
        trade = {"kind": "trade", "give": [resource.value] * n, "get": other.value}
        assert story_text(trade, "they", pl) == f"wymienia {said} na {taken}"
        assert story_text(trade, "you", pl) == f"wymieniono {said} na {taken}"
        assert story_text(trade, "ask", pl) == f"wymienić {said} na {taken}"
    got = {"kind": "trade", "give": [other.value] * 4, "get": resource.value}
    given = POLISH_OBJECT[other][1].replace("2", "4", 1)
    assert story_text(got, "they", pl) == f"wymienia {given} na {POLISH_OBJECT[resource][0]}"


@pytest.mark.parametrize("resource", RESOURCES)
def test_polish_workshop_uses_count_in_the_accusative(resource: Resource) -> None:
    pl = translator_for("pl")
    for n, said in zip(COUNTS, POLISH_OBJECT[resource], strict=True):
        used = {
            "kind": "use",
            "site": "F6",
            "workshop": "stonemill",
            "give": [resource.value] * n,
            "get": [resource.value] * n,
        }
        assert story_text(used, "they", pl) == (
            f"używa warsztatu Kamieniarz na F6: {said} za {said}"
        )
    moved = {"kind": "use", "site": "F6", "workshop": "quartermaster", "move": resource.value}
    assert f"by przenieść {POLISH_OBJECT[resource][0]} do swojego składu" in story_text(
        moved, "they", pl
    )


def _cost_refusal(need: list[Resource | None]) -> RulesError:
    """The engine's refusal of a payment nobody can make: a player of a new game owns
    nothing yet."""
    game = Game.new(players=2, seed=1)
    with pytest.raises(RulesError) as refused:
        resolve_payment(game.state, 0, need, None, what=Phrase("the trade"))
    return refused.value


@pytest.mark.parametrize("resource", RESOURCES)
def test_polish_costs_count_each_resource(resource: Resource) -> None:
    pl = translator_for("pl")
    for n, said in zip(COUNTS, POLISH[resource], strict=True):
        text = refusal_text(_cost_refusal([resource] * n), pl)
        assert text == f"Wymiana z rezerwami: nie możesz zapłacić — koszt to {said}, a masz 0."


def test_polish_costs_count_any_resources() -> None:
    pl = translator_for("pl")
    for n, said in zip(COUNTS, ("1 zasób", "2 zasoby", "5 zasobów", "22 zasoby"), strict=True):
        text = refusal_text(_cost_refusal([None] * n), pl)
        assert text == f"Wymiana z rezerwami: nie możesz zapłacić — koszt to {said}."


@pytest.mark.parametrize(
    ("n", "said"),
    [(3, "3 kamienie"), (12, "12 kamieni"), (25, "25 kamieni"), (104, "104 kamienie")],
)
def test_polish_picks_the_form_by_the_count_s_last_digits(n: int, said: str) -> None:
    pl = translator_for("pl")
    assert f"Skład: {said}." in status_text("Niebieski", {"stone": n}, [], [], pl)
    assert f"koszt to {said}," in refusal_text(_cost_refusal([Resource.STONE] * n), pl)


@pytest.mark.parametrize("resource", RESOURCES)
def test_spanish_counts_one_and_two_of_each_resource(resource: Resource) -> None:
    es = translator_for("es")
    other = Resource.HAMMER if resource != Resource.HAMMER else Resource.CART
    taken = SPANISH[other][0]
    for n, said in zip(COUNTS[:2], SPANISH[resource], strict=True):
        storage = status_text("Azul", {resource.value: n}, [], [], es)
        assert f"Almacén: {said}." in storage, storage
        trade = {"kind": "trade", "give": [resource.value] * n, "get": other.value}
        assert story_text(trade, "they", es) == f"intercambió {said} por {taken}"
        assert story_text(trade, "you", es) == f"intercambiaste {said} por {taken}"
        cost = refusal_text(_cost_refusal([resource] * n), es)
        assert cost == f"No puedes pagar el intercambio con la reserva: cuesta {said} y tienes 0."


def _polish_form(n: int) -> int:
    """Which of Polish's three plural forms a count takes (the catalogue's rule)."""
    if n == 1:
        return 0
    return 1 if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else 2


def test_the_catalogue_s_own_texts_count_stone_and_iron_as_polish_does() -> None:
    """The texts that write a number of stone or iron out (the workshops' and spells'
    texts, the help's examples) say "1 kamień", "2 kamienie", "1 żelazo", not the
    rulebook's "1 kamienia", "2 kamienia", "1 żelaza"."""
    forms = {"kamie": ("kamień", "kamienie", "kamieni"), "żela": ("żelazo", "żelaza", "żelaz")}
    said = re.compile(r"\b(\d+) ((kamie|żela)\w*)")
    seen, wrong = 0, []
    for message in read_catalog(po_path("pl"), "pl"):
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for string in [s for s in strings if isinstance(s, str)]:
            for count, word, stem in said.findall(string):
                seen += 1
                if word != forms[stem][_polish_form(int(count))]:
                    wrong.append(string)
    assert seen >= 8, "the workshops' and spells' texts were read"
    assert not wrong, wrong
