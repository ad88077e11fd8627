"""Casting spells. Each effect kind reads its choices from the `Cast` action's args:

    gain_choice    <bundle>            one of the listed options, e.g. `2iron`
    turn_flag      (none)              a rule change for the rest of this turn
    transmute      <n><from>><to>      e.g. `3stone>iron` (n up to the spell's max)
    awaken         <slot>              e.g. `B2`: that troll activates (and, if the
                                       spell says so, everything beneath it)
    unburden       <token@slot>...     up to the max, e.g. `coin@A1 fire-cart@B2`
    tribute        <horde slot>        e.g. `1.3`: take all its bribes
    take_pedestal  <clan>              e.g. `fire`
    exalt          <slot> <horde slot> e.g. `B2 3.1`
    dig, dedicate, move_statue         board spells, carried out with the board rules

Every spell also accepts the single argument `none`: pay the rune and ignore the whole
effect (allowed by the rules); an effect is never carried out in part.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

from rules import board
from rules.actions import (
    PYRAMID_SLOTS,
    Cast,
    Pay,
    Payment,
    format_bundle,
    parse_bundle,
    parse_dig_words,
    parse_pay_item,
)
from rules.content import (
    AwakenEffect,
    DedicateEffect,
    DigEffect,
    ExaltEffect,
    GainChoiceEffect,
    MoveStatueEffect,
    TakePedestalEffect,
    TransmuteEffect,
    TributeEffect,
    TurnFlagEffect,
    UnburdenEffect,
    load_content,
)
from rules.errors import IllegalActionError, NotationError
from rules.horde import refill, slot_at
from rules.payment import available_tokens, gain, resolve_payment, spend
from rules.pyramid import ALL_HORDE_SLOTS, activate, cascade, new_troll
from rules.resources import MINERALS, RESOURCE_BY_NAME, Resource
from rules.state import State

NONE = "none"
_Apply = Callable[[], None]


def bundle_arg(bundle: dict[str, int]) -> str:
    return format_bundle(tuple(RESOURCE_BY_NAME[r] for r, n in bundle.items() for _ in range(n)))


def cast(state: State, seat: int, action: Cast) -> None:
    """Cast a spell from the spellbook (the caller has checked turn and step)."""
    content = load_content()
    book = [s.spell for s in state.spellbook]
    if action.spell not in book:
        names = ", ".join(book)
        raise IllegalActionError(
            f"{action.spell!r} is not in the spellbook (it holds {names}).", "no_such_spell"
        )
    spell = content.spell(action.spell)
    turn = state.turn
    assert turn is not None
    extra_need, reserved, apply_effect = _prepare(state, seat, action, spell.effect, spell.name)
    pay = action.pay
    if isinstance(spell.effect, DigEffect) and action.args != (NONE,):
        pay = _split_rune(pay)[0]  # the rest of the payment is the dig's
    tokens = resolve_payment(
        state,
        seat,
        [Resource.RUNE, *extra_need],
        pay,
        what=f"casting {spell.name}",
        reserved=reserved,
    )
    spend(state, seat, tokens)
    apply_effect()
    turn.spell_cast = True
    slot = state.spellbook[book.index(action.spell)]
    slot.runes += 1
    if slot.runes >= content.pieces.runes_to_disintegrate:
        # the spell disintegrates: runes to the supply, card to the bottom, draw anew
        state.spell_deck.append(slot.spell)
        slot.spell = state.spell_deck.pop(0)
        slot.runes = 0


def _prepare(
    state: State, seat: int, action: Cast, effect: object, name: str
) -> tuple[list[Resource], list[Pay], _Apply]:
    args = action.args
    if args == (NONE,):
        return [], [], _nothing
    player = state.players[seat]
    account = state.account_of(seat)
    content = load_content()

    if isinstance(effect, GainChoiceEffect):
        options = [bundle_arg(o) for o in effect.options]
        if len(args) != 1 or args[0] not in options:
            raise _bad(name, "choose one of " + ", ".join(options))
        gained = parse_bundle(args[0])
        return [], [], lambda: gain(state, seat, gained)

    if isinstance(effect, TurnFlagEffect):
        if args:
            raise _bad(name, "it takes no choices")
        turn = state.turn
        assert turn is not None
        flag = effect.flag
        return [], [], lambda: turn.flags.append(flag) if flag not in turn.flags else None

    if isinstance(effect, TransmuteEffect):
        if len(args) != 1:
            raise _bad(name, f"write e.g. 3stone>iron (up to {effect.max})")
        give_text, sep, to = args[0].partition(">")
        try:
            give = parse_bundle(give_text)
        except NotationError:
            raise _bad(name, f"write e.g. 3stone>iron (up to {effect.max})") from None
        if (
            not sep
            or to not in RESOURCE_BY_NAME
            or len(set(give)) != 1
            or give[0] not in MINERALS
            or RESOURCE_BY_NAME[to] not in MINERALS
            or RESOURCE_BY_NAME[to] == give[0]
            or len(give) > effect.max
            or (effect.neighbours_only and not neighbour_minerals(give[0], RESOURCE_BY_NAME[to]))
        ):
            kind = "the neighbouring mineral" if effect.neighbours_only else "another mineral"
            raise _bad(name, f"change up to {effect.max} of one mineral into {kind}")
        target = RESOURCE_BY_NAME[to]
        return list(give), [], lambda: gain(state, seat, [target] * len(give))

    if isinstance(effect, AwakenEffect):
        if len(args) != 1 or args[0] not in player.pyramid:
            raise _bad(name, "name a slot of your pyramid that holds a troll")
        chosen = player.pyramid[args[0]]
        if effect.cascade:
            slot = args[0]
            return [], [], lambda: cascade(player, slot)
        return [], [], lambda: activate(chosen)

    if isinstance(effect, UnburdenEffect):
        try:
            items = [parse_pay_item(a) for a in args]
        except NotationError:
            items = []
        if not 1 <= len(items) <= effect.max or any(i.source not in PYRAMID_SLOTS for i in items):
            raise _bad(name, f"name 1 to {effect.max} resources on your trolls, e.g. coin@A1")
        _check_held(state, seat, items)

        def unburden() -> None:
            spend(state, seat, items)
            gain(state, seat, [i.resource for i in items])

        return [], items, unburden

    if isinstance(effect, TributeEffect):
        if len(args) != 1 or args[0] not in ALL_HORDE_SLOTS:
            raise _bad(name, "name a horde slot, e.g. 1.3")
        hs = slot_at(state, args[0])
        if not hs.bribes:
            raise _bad(name, f"the troll on {args[0]} holds no bribes")

        def tribute() -> None:
            for b in hs.bribes:
                account.storage[b] += 1
            hs.bribes = []

        return [], [], tribute

    if isinstance(effect, TakePedestalEffect):
        if len(args) != 1 or args[0] not in state.bag:
            left = ", ".join(sorted(set(state.bag))) or "none left"
            raise _bad(name, f"name a pedestal clan in the bag ({left})")
        clan = args[0]

        def take() -> None:
            state.bag.remove(clan)
            account.pedestals[clan] += 1

        return [], [], take

    if isinstance(effect, ExaltEffect):
        if len(args) != 2:
            raise _bad(name, "name your level-2 troll and a level-3 horde slot, e.g. B2 3.1")
        slot, horde_slot = args
        troll = player.pyramid.get(slot)
        if troll is None or content.trolls[troll.card].level != 2:
            raise _bad(name, f"{slot} does not hold a level-2 troll of yours")
        if horde_slot not in ALL_HORDE_SLOTS[9:]:
            raise _bad(name, "the new troll comes from the top row of the horde (3.1 to 3.3)")
        hs = slot_at(state, horde_slot)
        if hs.card is None or content.trolls[hs.card].level != 3:
            raise _bad(name, f"horde slot {horde_slot} holds no level-3 troll")
        new_card = hs.card

        def exalt() -> None:
            hs.bribes = []
            refill(state, horde_slot)
            player.pyramid[slot] = new_troll(new_card)
            player.recruited_levels += 1

        return [], [], exalt

    if isinstance(effect, DigEffect):
        try:
            dig = parse_dig_words(list(args))
        except NotationError as exc:
            raise _bad(name, f"describe the tunnel as for dig ({exc.message})") from None
        rune_pay, dig_pay = _split_rune(action.pay)
        dig = replace(dig, pay=dig_pay)
        # check the whole dig on a copy first, so a refused dig spends nothing
        probe = state.clone()
        spend(probe, seat, resolve_payment(probe, seat, [Resource.RUNE], rune_pay))
        board.dig(probe, seat, dig)
        return [], [], lambda: board.dig(state, seat, dig)

    if isinstance(effect, DedicateEffect):
        if len(args) != 1:
            raise _bad(name, "name the cell of one of your statues, e.g. F7")
        honor = board.dedication_value(state, seat, args[0], effect.forbidden_tiers)

        def dedicate() -> None:
            account.spell_honor += honor

        return [], [], dedicate

    if isinstance(effect, MoveStatueEffect):
        moves = [a.partition(">") for a in args]
        if not 1 <= len(moves) <= effect.moves or any(not sep for _, sep, _ in moves):
            raise _bad(name, f"give 1 to {effect.moves} moves of one statue, e.g. F7>G8 G8>H8")
        for (_, _, to), (frm, _, _) in itertools.pairwise(moves):
            if frm != to:
                raise _bad(name, "every move continues with the same statue")
        probe = state.clone()
        for frm, _, to in moves:
            board.move_statue(probe, seat, frm, to, None, free=True)

        def path() -> None:
            for frm, _, to in moves:
                board.move_statue(state, seat, frm, to, None, free=True)

        return [], [], path
    raise AssertionError(f"unknown effect {effect!r}")  # pragma: no cover


def _split_rune(pay: Payment) -> tuple[Payment, Payment]:
    """Summon Rockeater's payment: the first rune named pays the spell, the rest the dig."""
    if pay is None:
        return None, None
    for i, item in enumerate(pay):
        if item.resource == Resource.RUNE:
            rest = pay[:i] + pay[i + 1 :]
            return (item,), (rest or None)
    raise IllegalActionError("Name the rune that pays for the spell.", "wrong_payment")


def neighbour_minerals(a: Resource, b: Resource) -> bool:
    """Stone, iron and heartstone in a row: neighbours are one step apart."""
    return abs(MINERALS.index(a) - MINERALS.index(b)) == 1


def _check_held(state: State, seat: int, items: list[Pay]) -> None:
    pool = Counter(available_tokens(state, seat))
    for item in items:
        if pool[item] <= 0:
            raise IllegalActionError(
                f"Your troll on {item.source} is not holding that {item.resource.value}.",
                "not_owned",
            )
        pool[item] -= 1


def _bad(name: str, why: str) -> IllegalActionError:
    return IllegalActionError(f"{name}: {why}.", "bad_spell_choice")


def _nothing() -> None:
    return None
