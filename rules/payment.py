"""Paying for things: storage plus every resource held by your trolls.

A payment is a list of `Pay` tokens (resource, source). A player may name the sources;
otherwise `default_payment` picks them, spending what trolls hold before storage so the
emptied symbols can fill again in the next cascade:

- trolls are taken bottom row first, left to right (A1, A2, ... D1): the bottom row is
  activated by the most cascades, so freeing it pays back soonest;
- for a cart, clan carts are spent before wild carts (wild carts are worth more);
- storage is used last.

Clan carts (carts gained onto a clan's cart symbol) "may only be spent to move a
statue belonging to that clan": they never pay for anything else (edition 1 let them
pay for anything but the Cartwright). They can still be held, moved to storage, where
they become wild, and counted at the end (`held=True`).

In team mode a player pays from their own pyramid and the team storage, never from the
partner's pyramid.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import cache
from itertools import compress

from rules.actions import PYRAMID_SLOTS, STORE, Pay, Payment
from rules.content import load_content
from rules.errors import Amounts, IllegalActionError, Named, Phrase
from rules.resources import RESOURCE_BY_NAME, RESOURCES, Resource, symbol_name
from rules.state import State

ANY = None  # a requirement that any resource can satisfy
# what a payment is for, when the caller does not say
THAT = Phrase("that")


def clan_carts_pay(state: State) -> bool:
    """Whether clan carts pay like any cart (edition 1) rather than only for moving
    their clan's statues."""
    return state.config.edition < 2


def owned_counts(state: State, seat: int, *, held: bool = False) -> Counter[Resource]:
    """Every resource the player may spend on anything (storage and own trolls), or
    with `held` every resource they hold, clan carts included."""
    trolls = load_content().trolls
    counts: dict[Resource, int] = {}  # a plain dict first: Counter's missing keys are slow
    for name, n in state.account_of(seat).storage.items():
        if n:
            counts[RESOURCE_BY_NAME[name]] = n
    clan_carts = held or clan_carts_pay(state)
    get = counts.get
    for troll in state.players[seat].pyramid.values():
        for res, clan in compress(trolls[troll.card].produce, troll.held):
            if clan is None or clan_carts:
                counts[res] = get(res, 0) + 1
    return Counter(counts)


def available_tokens(
    state: State, seat: int, *, held: bool = False, wild_carts_only: bool = False
) -> list[Pay]:
    """Every token that may pay for anything, one entry per resource unit, in default
    spending order; with `held`, every token held, clan carts included (to move one to
    storage, or a statue of its clan). `wild_carts_only` leaves clan carts out even in
    edition 1 (the Cartwright)."""
    out: list[Pay] = []
    pyramid = state.players[seat].pyramid
    clan_carts: list[Pay] = []
    with_clan = held or (clan_carts_pay(state) and not wild_carts_only)
    for slot in PYRAMID_SLOTS:
        troll = pyramid.get(slot)
        if troll is None:
            continue
        for tok in compress(_troll_tokens(troll.card, slot), troll.held):
            if tok.cart_clan is None:
                out.append(tok)
            elif with_clan:
                clan_carts.append(tok)
    storage = state.account_of(seat).storage
    for name, tok in _STORE_TOKENS:
        n = storage.get(name, 0)
        if n > 0:
            out += [tok] * n
    # clan carts go first among carts: put them before everything else of their kind
    return clan_carts + out


@cache
def _troll_tokens(card: str, slot: str) -> tuple[Pay, ...]:
    """The token each produce symbol of `card` gives when held on `slot` (built once:
    tokens are immutable values)."""
    return tuple(Pay(res, slot, clan) for res, clan in load_content().trolls[card].produce)


# each resource's name in storage and its token there, in default spending order
_STORE_TOKENS: tuple[tuple[str, Pay], ...] = tuple((r.value, Pay(r, STORE)) for r in RESOURCES)


def resolve_payment(
    state: State,
    seat: int,
    need: Iterable[Resource | None],
    explicit: Payment,
    *,
    wild_carts_only: bool = False,
    what: Phrase = THAT,
    reserved: Iterable[Pay] = (),
) -> list[Pay]:
    """Check a payment against a requirement and return the exact tokens to spend.

    `need` lists one entry per resource: a `Resource`, or `ANY` for "any resource".
    `reserved` tokens are spoken for by the same action and may not pay. Raises
    `IllegalActionError` (nothing spent) when it cannot be paid.
    """
    need_list = list(need)
    pool = available_tokens(state, seat, wild_carts_only=wild_carts_only)
    for tok in reserved:
        if tok in pool:  # a reserved clan cart was never in the pool
            pool.remove(tok)
    if explicit is None:
        return _default(pool, need_list, what)
    return _check_explicit(state, seat, pool, need_list, list(explicit), wild_carts_only, what)


def spend(state: State, seat: int, tokens: Iterable[Pay]) -> None:
    """Remove already-resolved tokens from troll symbols or storage."""
    trolls = load_content().trolls
    player = state.players[seat]
    storage = state.account_of(seat).storage
    for tok in tokens:
        if tok.source == STORE:
            storage[tok.resource.value] -= 1
            continue
        troll = player.pyramid[tok.source]
        produce = trolls[troll.card].produce
        for i, held in enumerate(troll.held):
            if held and produce[i] == (tok.resource, tok.cart_clan):
                troll.held[i] = False
                break
        else:  # pragma: no cover - resolve_payment guarantees the token exists
            raise AssertionError(f"{tok} is not held")


def gain(state: State, seat: int, resources: Iterable[Resource]) -> None:
    storage = state.account_of(seat).storage
    for res in resources:
        storage[res.value] = storage.get(res.value, 0) + 1


def describe_need(need: list[Resource | None]) -> Amounts:
    """What a requirement asks for: "2 stone, 1 resource" (`ANY` is any resource)."""
    counts: Counter[str | None] = Counter(None if r is None else r.value for r in need)
    return Amounts(tuple(counts.items()))


def _default(pool: list[Pay], need: list[Resource | None], what: Phrase) -> list[Pay]:
    used = [False] * len(pool)
    chosen: list[Pay] = []
    specific = [r for r in need if r is not None]
    for res in specific:
        for i, tok in enumerate(pool):
            if not used[i] and tok.resource == res:
                used[i] = True
                chosen.append(tok)
                break
        else:
            have = sum(1 for t in pool if t.resource == res)
            raise IllegalActionError(
                "You cannot pay for {what}: it needs {need} and you have {have}.",
                "cannot_afford",
                what=what,
                need=Amounts(((res.value, specific.count(res)),)),
                have=have,
            )
    n_any = len(need) - len(specific)
    if n_any:
        # "any resource" (Golden Mask bribes): coins first, then what you have most of
        left = Counter(pool[i].resource for i in range(len(pool)) if not used[i])
        order = sorted(RESOURCES, key=lambda r: (r != Resource.COIN, -left[r]))
        for res in order:
            for i, tok in enumerate(pool):
                if n_any and not used[i] and tok.resource == res:
                    used[i] = True
                    chosen.append(tok)
                    n_any -= 1
        if n_any:
            raise IllegalActionError(
                "You cannot pay for {what}: it needs {need}.",
                "cannot_afford",
                what=what,
                need=Amounts(((None, len(need)),)),
            )
    return chosen


def _check_explicit(
    state: State,
    seat: int,
    pool_list: list[Pay],
    need: list[Resource | None],
    items: list[Pay],
    wild_only: bool,
    what: Phrase,
) -> list[Pay]:
    if len(items) != len(need):
        raise IllegalActionError(
            "{what} costs {need}: name exactly {count} resources to pay, not {named}.",
            "wrong_payment",
            what=what,
            need=describe_need(need),
            count=len(need),
            named=len(items),
        )
    wanted = Counter(r for r in need if r is not None)
    given = Counter(t.resource for t in items)
    for res, n in wanted.items():
        if given[res] < n:
            raise IllegalActionError(
                "{what} costs {need}; your payment has {given}.",
                "wrong_payment",
                what=what,
                need=describe_need(need),
                given=Amounts(((res.value, given[res]),)),
            )
    if sum(wanted.values()) == len(need) and given != wanted:
        raise IllegalActionError(
            "{what} costs exactly {need}.", "wrong_payment", what=what, need=describe_need(need)
        )
    pool = Counter(pool_list)
    for tok in items:
        if tok.cart_clan is not None and tok.source != STORE:
            if wild_only:
                raise IllegalActionError(
                    "Only wild carts may be spent here, not the {clan} cart on {slot}.",
                    "clan_cart",
                    clan=tok.cart_clan,
                    slot=tok.source,
                )
            if not clan_carts_pay(state):
                raise IllegalActionError(
                    "The {clan} cart on {slot} may only move a {Clan} statue; it cannot pay for"
                    " {what}.",
                    "clan_cart",
                    clan=tok.cart_clan,
                    Clan=Named("clan", tok.cart_clan.value, tok.cart_clan.value.capitalize()),
                    slot=tok.source,
                    what=what,
                )
        if pool[tok] <= 0:
            raise _missing(tok)
        pool[tok] -= 1
    return items


def not_holding(item: Pay) -> IllegalActionError:
    """The refusal of a resource taken from a troll that does not hold it."""
    return IllegalActionError(
        "Your troll on {slot} is not holding that {resource}.",
        "not_owned",
        slot=item.source,
        resource=item.resource,
    )


def _missing(tok: Pay) -> IllegalActionError:
    if tok.source == STORE:
        return IllegalActionError(
            "You do not have that many {resource} in storage.", "not_owned", resource=tok.resource
        )
    name = symbol_name(tok.resource, tok.cart_clan)
    return IllegalActionError(
        "Your troll on {slot} is not holding a {symbol}.",
        "not_owned",
        slot=tok.source,
        symbol=Named("symbol", name, name),
    )
