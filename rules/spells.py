"""Casting spells: a rune from the caster pays for the spell and goes onto its card
(the third rune disintegrates it), and its effect is carried out whole.

What each effect kind reads from the `Cast` action's args, and how it is checked and
carried out, is its entry in `rules.spell_effects`. Every spell also accepts the single
argument `none`: pay the rune and ignore the whole effect (allowed by the rules); an
effect is never carried out in part.
"""

from __future__ import annotations

from functools import cache

from rules.actions import Cast
from rules.content import DigEffect, SpellInfo, load_content
from rules.errors import IllegalActionError, Listed, Named, Phrase, echo
from rules.payment import resolve_payment, spend
from rules.resources import Resource
from rules.spell_effects import Prepared, effect_rule, split_rune
from rules.state import State

NONE = "none"


def cast(state: State, seat: int, action: Cast) -> None:
    """Cast a spell from the spellbook (the caller has checked turn and step, and
    records that the turn's spell is cast)."""
    content = load_content()
    book = [s.spell for s in state.spellbook]
    if action.spell not in book:
        raise IllegalActionError(
            "{spell} is not in the spellbook (it holds {book}).",
            "no_such_spell",
            spell=echo(action.spell),
            book=Listed(tuple(book), ","),
        )
    spell = spell_info(action.spell)
    if action.args == (NONE,):
        effect = Prepared([], [], _nothing)
    else:
        effect = effect_rule(spell.effect).prepare(state, seat, action, spell.effect, spell.name)
    pay = action.pay
    if isinstance(spell.effect, DigEffect) and action.args != (NONE,):
        pay = split_rune(pay)[0]  # the rest of the payment is the dig's
    tokens = resolve_payment(
        state,
        seat,
        [Resource.RUNE, *effect.need],
        pay,
        what=Phrase("casting {spell}", {"spell": Named("spell", spell.id, spell.name)}),
        reserved=effect.reserved,
    )
    spend(state, seat, tokens)
    effect.apply()
    slot = state.spellbook[book.index(action.spell)]
    slot.runes += 1
    if slot.runes >= content.pieces.runes_to_disintegrate:
        # the spell disintegrates: runes to the supply, card to the bottom, draw anew
        state.spell_deck.append(slot.spell)
        slot.spell = state.spell_deck.pop(0)
        slot.runes = 0


@cache
def spell_info(spell_id: str) -> SpellInfo:
    """A spell of the content (`Content.spell`, kept at hand: the rules look spells up
    at every cast)."""
    return load_content().spell(spell_id)


def _nothing() -> None:
    return None
