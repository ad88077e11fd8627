"""A refusal told inside another sentence, in the reader's language: after a colon it
begins in lower case (unless it begins with a name or a field), and in brackets it also
drops its full stop."""

from __future__ import annotations

from helpers import drafted_game

from bot.i18n import ENGLISH, translator_for
from bot.mountain_king.refusals import refusal_clause, refusal_text
from bot.mountain_king.texts import dig_refused
from rules.errors import IllegalActionError, RulesError, echo
from rules.steps import seats_to_act


def test_a_refusal_after_a_colon_begins_in_lower_case_in_every_language() -> None:
    pl, es = translator_for("pl"), translator_for("es")
    tile = IllegalActionError("There is no tunnel tile {shape}.", "no_such_tile", shape=echo("X"))
    assert dig_refused(refusal_clause(tile)) == (
        "That tunnel is not allowed: there is no tunnel tile 'X'."
    )
    assert refusal_clause(tile, pl) == "nie ma kafelka tunelu 'X'."
    assert refusal_text(tile, pl) == "Nie ma kafelka tunelu 'X'."
    # a sentence that begins with a field or a cell keeps its first letter
    dug = IllegalActionError("{cell} is already dug.", "occupied", "F7")
    assert refusal_clause(dug) == "F7 is already dug."
    assert refusal_clause(dug, es) == "F7 ya está excavado."
    # the Polish sentence begins with a word ("Pole F7 ..."): that is lowered
    assert refusal_clause(dug, pl) == "pole F7 jest już wykopane."
    assert refusal_clause(dug, ENGLISH) == refusal_text(dug)


def test_a_refusal_inside_a_spells_refusal_is_in_lower_case_without_its_full_stop() -> None:
    game = drafted_game()
    seat = seats_to_act(game.state)[0]
    game.state.spellbook[0].spell = "summon-rockeater"
    try:
        game.play(seat, "cast summon-rockeater I2 A1+A1")
    except RulesError as error:
        refused = error
    else:  # pragma: no cover
        raise AssertionError("the cast was allowed")
    assert str(refused) == (
        "Summon Rockeater: describe the tunnel as for dig (expected: dig <tile> <cells,"
        " anchor marked *> <mineral> [pedestal <clan>] [workshop <site>=<name>])."
    )
    said = refusal_text(refused, translator_for("pl"))
    assert "dig (oczekiwano: dig <tile>" in said and said.endswith(">]).") and "]..)" not in said
