"""Spell effects, one entry each: what a `Cast` may name for the effect (its legal
arguments, `choices`) and how a cast is checked and carried out (`prepare`).

    gain_choice    <bundle>            one of the listed options, e.g. `2iron`
    turn_flag      (none)              a rule change for the rest of this turn
    transmute      <n><from>><to>      e.g. `3stone>iron` (n up to the spell's max)
    awaken         <slot>              e.g. `B2`: that troll activates (and, if the
                                       spell says so, everything beneath it)
    unburden       <token@slot>...     up to the max, e.g. `coin@A1 fire-cart@B2`
    tribute        <horde slot>        e.g. `1.3`: take all its bribes
    take_pedestal  <clan>              e.g. `fire`
    exalt          <slot> <horde slot> e.g. `B2 3.1`
    dig            <dig words>         a tunnel as for `dig`, carried out by its rules
    dedicate       <cell>              a statue of yours, e.g. `F7`
    move_statue    <from>><to>...      free moves of one statue, e.g. `F7>G8 G8>H8`

Each effect class of `rules.content` has one `EffectRule` in `EFFECT_RULES` (registered
with `@rule_for`), so a new effect is one entry here. `rules.spells.cast` pays the rune
and carries out what `prepare` checked; `rules.legal` lists what `choices` yields.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any, Generic, TypeVar

from rules import statues, tunnels
from rules.actions import (
    PYRAMID_SLOTS,
    Cast,
    Dig,
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
from rules.errors import (
    IllegalActionError,
    Listed,
    Named,
    NotationError,
    Phrase,
    RulesError,
    echo,
)
from rules.horde import refill, slot_at
from rules.indexed import Indexed, Mapped
from rules.payment import available_tokens, gain, not_holding, resolve_payment, spend
from rules.pyramid import ALL_HORDE_SLOTS, activate, cascade, new_troll
from rules.resources import MINERALS, RESOURCE_BY_NAME, Clan, Resource
from rules.state import State

E = TypeVar("E")


@dataclass(frozen=True, slots=True)
class Prepared:
    """A checked effect: what it costs beyond the rune, the tokens the rune may not be
    paid with (they are the effect's), and how to carry it out."""

    need: list[Resource]
    reserved: list[Pay]
    apply: Callable[[], None]


class EffectRule(Generic[E]):
    """The rule of one effect kind."""

    def choices(
        self, state: State, seat: int, effect: E, counts: dict[Resource, int]
    ) -> Iterator[tuple[str, ...]]:
        """The legal arguments of a cast now, in a stable order (`none` aside)."""
        raise NotImplementedError

    def options(
        self, state: State, seat: int, effect: E, counts: dict[Resource, int]
    ) -> Indexed[tuple[str, ...]]:
        """The arguments of `choices` as a sequence (so a random one is picked by its
        index); an effect with many overrides it to make only the ones asked for."""
        return list(self.choices(state, seat, effect, counts))

    def prepare(self, state: State, seat: int, action: Cast, effect: E, name: str) -> Prepared:
        """Check the cast's arguments (raising the refusal); change nothing yet."""
        raise NotImplementedError


EFFECT_RULES: dict[type, EffectRule[Any]] = {}


def rule_for(effect_type: type[E]) -> Callable[[type[EffectRule[E]]], type[EffectRule[E]]]:
    """Register a rule class as the one for `effect_type`."""

    def register(cls: type[EffectRule[E]]) -> type[EffectRule[E]]:
        EFFECT_RULES[effect_type] = cls()
        return cls

    return register


def effect_rule(effect: object) -> EffectRule[Any]:
    return EFFECT_RULES[type(effect)]


# --- resources and trolls ------------------------------------------------------------------


@rule_for(GainChoiceEffect)
class GainChoice(EffectRule[GainChoiceEffect]):
    def choices(
        self, state: State, seat: int, effect: GainChoiceEffect, counts: dict[Resource, int]
    ) -> Iterator[tuple[str, ...]]:
        for option in effect.options:
            yield (bundle_arg(option),)

    def prepare(
        self, state: State, seat: int, action: Cast, effect: GainChoiceEffect, name: str
    ) -> Prepared:
        args = action.args
        options = [bundle_arg(o) for o in effect.options]
        if len(args) != 1 or args[0] not in options:
            raise _bad(
                action,
                name,
                Phrase("choose one of {options}", {"options": Listed(tuple(options), ",")}),
            )
        gained = parse_bundle(args[0])
        return Prepared([], [], lambda: gain(state, seat, gained))


@rule_for(TurnFlagEffect)
class TurnFlag(EffectRule[TurnFlagEffect]):
    def choices(
        self, state: State, seat: int, effect: TurnFlagEffect, counts: dict[Resource, int]
    ) -> Iterator[tuple[str, ...]]:
        turn = state.turn
        if turn is not None and effect.flag not in turn.flags:
            yield ()

    def prepare(
        self, state: State, seat: int, action: Cast, effect: TurnFlagEffect, name: str
    ) -> Prepared:
        if action.args:
            raise _bad(action, name, Phrase("it takes no choices"))
        turn = state.turn
        assert turn is not None
        flag = effect.flag
        return Prepared([], [], lambda: turn.flags.append(flag) if flag not in turn.flags else None)


@rule_for(TransmuteEffect)
class Transmute(EffectRule[TransmuteEffect]):
    def choices(
        self, state: State, seat: int, effect: TransmuteEffect, counts: dict[Resource, int]
    ) -> Iterator[tuple[str, ...]]:
        for src in MINERALS:
            for dst in MINERALS:
                if src == dst or (effect.neighbours_only and not neighbour_minerals(src, dst)):
                    continue
                for n in range(1, min(effect.max, counts[src]) + 1):
                    yield (f"{n if n > 1 else ''}{src.value}>{dst.value}",)

    def prepare(
        self, state: State, seat: int, action: Cast, effect: TransmuteEffect, name: str
    ) -> Prepared:
        args = action.args
        if len(args) != 1:
            raise _bad(
                action, name, Phrase("write e.g. 3stone>iron (up to {max})", {"max": effect.max})
            )
        give_text, sep, to = args[0].partition(">")
        try:
            give = parse_bundle(give_text)
        except NotationError:
            raise _bad(
                action, name, Phrase("write e.g. 3stone>iron (up to {max})", {"max": effect.max})
            ) from None
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
            if effect.neighbours_only:
                why = Phrase(
                    "change up to {max} of one mineral into the neighbouring mineral",
                    {"max": effect.max},
                )
            else:
                why = Phrase(
                    "change up to {max} of one mineral into another mineral", {"max": effect.max}
                )
            raise _bad(action, name, why)
        target = RESOURCE_BY_NAME[to]
        return Prepared(list(give), [], lambda: gain(state, seat, [target] * len(give)))


@rule_for(AwakenEffect)
class Awaken(EffectRule[AwakenEffect]):
    def choices(
        self, state: State, seat: int, effect: AwakenEffect, counts: dict[Resource, int]
    ) -> Iterator[tuple[str, ...]]:
        for slot in sorted(state.players[seat].pyramid):
            yield (slot,)

    def prepare(
        self, state: State, seat: int, action: Cast, effect: AwakenEffect, name: str
    ) -> Prepared:
        args = action.args
        player = state.players[seat]
        if len(args) != 1 or args[0] not in player.pyramid:
            raise _bad(action, name, Phrase("name a slot of your pyramid that holds a troll"))
        chosen = player.pyramid[args[0]]
        if effect.cascade:
            slot = args[0]
            return Prepared([], [], lambda: cascade(player, slot))
        return Prepared([], [], lambda: activate(chosen))


@rule_for(UnburdenEffect)
class Unburden(EffectRule[UnburdenEffect]):
    def choices(
        self, state: State, seat: int, effect: UnburdenEffect, counts: dict[Resource, int]
    ) -> Iterator[tuple[str, ...]]:
        held = sorted(
            (str(t), t.resource == Resource.RUNE)
            for t in available_tokens(state, seat, held=True)
            if t.source != "store"
        )
        runes = counts[Resource.RUNE]
        seen: set[tuple[str, ...]] = set()
        for size in range(min(effect.max, len(held)), 0, -1):
            for combo in combinations(held, size):
                # a rune must remain to pay for the spell itself
                if runes - sum(rune for _, rune in combo) < 1:
                    continue
                text = tuple(word for word, _ in combo)
                if text not in seen:
                    seen.add(text)
                    yield text
            if seen:
                break

    def prepare(
        self, state: State, seat: int, action: Cast, effect: UnburdenEffect, name: str
    ) -> Prepared:
        try:
            items = [parse_pay_item(a) for a in action.args]
        except NotationError:
            items = []
        if not 1 <= len(items) <= effect.max or any(i.source not in PYRAMID_SLOTS for i in items):
            raise _bad(
                action,
                name,
                Phrase(
                    "name 1 to {max} resources on your trolls, e.g. coin@A1", {"max": effect.max}
                ),
            )
        _check_held(state, seat, items)

        def unburden() -> None:
            spend(state, seat, items)
            gain(state, seat, [i.resource for i in items])

        return Prepared([], items, unburden)


# --- the horde -----------------------------------------------------------------------------


@rule_for(TributeEffect)
class Tribute(EffectRule[TributeEffect]):
    def choices(
        self, state: State, seat: int, effect: TributeEffect, counts: dict[Resource, int]
    ) -> Iterator[tuple[str, ...]]:
        for hs in ALL_HORDE_SLOTS:
            if slot_at(state, hs).bribes:
                yield (hs,)

    def prepare(
        self, state: State, seat: int, action: Cast, effect: TributeEffect, name: str
    ) -> Prepared:
        args = action.args
        if len(args) != 1 or args[0] not in ALL_HORDE_SLOTS:
            raise _bad(action, name, Phrase("name a horde slot, e.g. 1.3"))
        hs = slot_at(state, args[0])
        if not hs.bribes:
            raise _bad(
                action, name, Phrase("the troll on {horde} holds no bribes", {"horde": args[0]})
            )
        account = state.account_of(seat)

        def tribute() -> None:
            for b in hs.bribes:
                account.storage[b] += 1
            hs.bribes = []

        return Prepared([], [], tribute)


@rule_for(TakePedestalEffect)
class TakePedestal(EffectRule[TakePedestalEffect]):
    def choices(
        self, state: State, seat: int, effect: TakePedestalEffect, counts: dict[Resource, int]
    ) -> Iterator[tuple[str, ...]]:
        for clan in sorted(set(state.bag)):
            yield (clan,)

    def prepare(
        self, state: State, seat: int, action: Cast, effect: TakePedestalEffect, name: str
    ) -> Prepared:
        args = action.args
        if len(args) != 1 or args[0] not in state.bag:
            left = tuple(Clan(c) for c in sorted(set(state.bag)))
            if not left:
                raise _bad(action, name, Phrase("the bag holds no pedestal any more"))
            raise _bad(
                action,
                name,
                Phrase("name a pedestal clan in the bag ({clans})", {"clans": Listed(left, ",")}),
            )
        clan = args[0]
        account = state.account_of(seat)

        def take() -> None:
            state.bag.remove(clan)
            account.pedestals[clan] += 1

        return Prepared([], [], take)


@rule_for(ExaltEffect)
class Exalt(EffectRule[ExaltEffect]):
    def choices(
        self, state: State, seat: int, effect: ExaltEffect, counts: dict[Resource, int]
    ) -> Iterator[tuple[str, ...]]:
        content = load_content()
        player = state.players[seat]
        for slot in sorted(player.pyramid):
            if content.trolls[player.pyramid[slot].card].level != 2:
                continue
            for hs in ALL_HORDE_SLOTS[9:]:
                card = slot_at(state, hs).card
                if card is not None and content.trolls[card].level == 3:
                    yield (slot, hs)

    def prepare(
        self, state: State, seat: int, action: Cast, effect: ExaltEffect, name: str
    ) -> Prepared:
        args = action.args
        content = load_content()
        player = state.players[seat]
        if len(args) != 2:
            raise _bad(
                action,
                name,
                Phrase("name your level-2 troll and a level-3 horde slot, e.g. B2 3.1"),
            )
        slot, horde_slot = args
        troll = player.pyramid.get(slot)
        if troll is None or content.trolls[troll.card].level != 2:
            raise _bad(
                action,
                name,
                Phrase("{slot} does not hold a level-2 troll of yours", {"slot": echo(slot)}),
            )
        if horde_slot not in ALL_HORDE_SLOTS[9:]:
            raise _bad(
                action,
                name,
                Phrase("the new troll comes from the top row of the horde (3.1 to 3.3)"),
            )
        hs = slot_at(state, horde_slot)
        if hs.card is None or content.trolls[hs.card].level != 3:
            raise _bad(
                action,
                name,
                Phrase("horde slot {horde} holds no level-3 troll", {"horde": horde_slot}),
            )
        new_card = hs.card

        def exalt() -> None:
            hs.bribes = []
            refill(state, horde_slot)
            player.pyramid[slot] = new_troll(new_card)
            player.recruited_levels += 1

        return Prepared([], [], exalt)


# --- the board: carried out by the rules of tunnels and statues ----------------------------


@rule_for(DigEffect)
class DigTunnel(EffectRule[DigEffect]):
    def choices(
        self, state: State, seat: int, effect: DigEffect, counts: dict[Resource, int]
    ) -> Iterator[tuple[str, ...]]:
        for dig in tunnels.dig_actions(state, seat):
            yield tuple(dig.words())

    def options(
        self, state: State, seat: int, effect: DigEffect, counts: dict[Resource, int]
    ) -> Indexed[tuple[str, ...]]:
        return Mapped(tunnels.all_digs(state, seat), _dig_words)

    def prepare(
        self, state: State, seat: int, action: Cast, effect: DigEffect, name: str
    ) -> Prepared:
        try:
            dig = parse_dig_words(list(action.args))
        except NotationError as exc:
            raise _bad(
                action,
                name,
                Phrase("describe the tunnel as for dig ({reason})", {"reason": refused(exc)}),
            ) from None
        rune_pay, dig_pay = split_rune(action.pay)
        dig = replace(dig, pay=dig_pay)
        # check the whole dig on a copy first, so a refused dig spends nothing
        probe = state.clone()
        spend(probe, seat, resolve_payment(probe, seat, [Resource.RUNE], rune_pay))
        tunnels.dig(probe, seat, dig)
        return Prepared([], [], lambda: tunnels.dig(state, seat, dig))


@rule_for(DedicateEffect)
class Dedicate(EffectRule[DedicateEffect]):
    def choices(
        self, state: State, seat: int, effect: DedicateEffect, counts: dict[Resource, int]
    ) -> Iterator[tuple[str, ...]]:
        for cell in statues.movable_statues(state, seat):
            try:
                statues.dedication_value(state, seat, cell, effect.forbidden_tiers)
            except RulesError:
                continue
            yield (cell,)

    def prepare(
        self, state: State, seat: int, action: Cast, effect: DedicateEffect, name: str
    ) -> Prepared:
        args = action.args
        if len(args) != 1:
            raise _bad(action, name, Phrase("name the cell of one of your statues, e.g. F7"))
        honor = statues.dedication_value(state, seat, args[0], effect.forbidden_tiers)
        account = state.account_of(seat)

        def dedicate() -> None:
            account.spell_honor += honor

        return Prepared([], [], dedicate)


@rule_for(MoveStatueEffect)
class StatuePath(EffectRule[MoveStatueEffect]):
    def choices(
        self, state: State, seat: int, effect: MoveStatueEffect, counts: dict[Resource, int]
    ) -> Iterator[tuple[str, ...]]:
        """Free statue moves (Mountain Path): one statue, 1 to `effect.moves` steps."""
        return iter(self.options(state, seat, effect, counts))

    def options(
        self, state: State, seat: int, effect: MoveStatueEffect, counts: dict[Resource, int]
    ) -> Indexed[tuple[str, ...]]:
        return statues.StatueWalks(state, seat, effect.moves)

    def prepare(
        self, state: State, seat: int, action: Cast, effect: MoveStatueEffect, name: str
    ) -> Prepared:
        moves = [a.partition(">") for a in action.args]
        if not 1 <= len(moves) <= effect.moves or any(not sep for _, sep, _ in moves):
            raise _bad(
                action,
                name,
                Phrase(
                    "give 1 to {moves} moves of one statue, e.g. F7>G8 G8>H8",
                    {"moves": effect.moves},
                ),
            )
        for (_, _, to), (frm, _, _) in itertools.pairwise(moves):
            if frm != to:
                raise _bad(action, name, Phrase("every move continues with the same statue"))
        probe = state.clone()
        for frm, _, to in moves:
            statues.move_statue(probe, seat, frm, to, None, free=True)

        def path() -> None:
            for frm, _, to in moves:
                statues.move_statue(state, seat, frm, to, None, free=True)

        return Prepared([], [], path)


# --- helpers -------------------------------------------------------------------------------


def _dig_words(dig: Dig) -> tuple[str, ...]:
    return tuple(dig.words())


def bundle_arg(bundle: dict[str, int]) -> str:
    return format_bundle(tuple(RESOURCE_BY_NAME[r] for r, n in bundle.items() for _ in range(n)))


def neighbour_minerals(a: Resource, b: Resource) -> bool:
    """Stone, iron and heartstone in a row: neighbours are one step apart."""
    return abs(MINERALS.index(a) - MINERALS.index(b)) == 1


def split_rune(pay: Payment) -> tuple[Payment, Payment]:
    """Summon Rockeater's payment: the first rune named pays the spell, the rest the dig."""
    if pay is None:
        return None, None
    for i, item in enumerate(pay):
        if item.resource == Resource.RUNE:
            rest = pay[:i] + pay[i + 1 :]
            return (item,), (rest or None)
    raise IllegalActionError("Name the rune that pays for the spell.", "wrong_payment")


def _check_held(state: State, seat: int, items: list[Pay]) -> None:
    pool = Counter(available_tokens(state, seat, held=True))
    for item in items:
        if pool[item] <= 0:
            raise not_holding(item)
        pool[item] -= 1


def _bad(action: Cast, name: str, why: Phrase) -> IllegalActionError:
    """A spell's choices refused: "Earth Ritual: choose one of 3stone, 2iron, heartstone"."""
    return IllegalActionError(
        "{spell}: {why}.",
        "bad_spell_choice",
        spell=Named("spell", action.spell, name),
        why=why,
    )


def refused(error: RulesError) -> Phrase:
    """A refusal told inside another sentence (a refused dig inside a spell's: "describe
    the tunnel as for dig (there is no tunnel tile 'X9')")."""
    return Phrase(error.template, error.params, inner=True)
