"""Workshops: one workshop per turn, used once per open entrance, each use its own
conversion. Which sites a player may use and how often depends on the board: a
player whose network touches the site may use it once per open entrance
(`workshop_uses`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import cache

from rules.actions import PYRAMID_SLOTS, STORE, Pay, UseWorkshop, format_bundle
from rules.content import Conversion, WorkshopInfo, load_content
from rules.errors import IllegalActionError, Named, Phrase, echo
from rules.indexed import Bundles, Chained, Indexed, Mapped, bits
from rules.mountain import any_network, board_memo, geo, own_network
from rules.payment import (
    available_tokens,
    gain,
    not_holding,
    owned_counts,
    pay_text,
    resolve_payment,
    spend,
)
from rules.resources import RESOURCE_BY_NAME, RESOURCES, Resource
from rules.state import State, Turn


@cache
def workshop_info(workshop_id: str) -> WorkshopInfo:
    """A workshop of the content (`Content.workshop`, kept at hand: the rules look
    workshops up at every use)."""
    return load_content().workshop(workshop_id)


def open_entrances(state: State, site: str) -> int:
    """The sides of a workshop site touching anyone's network."""
    g = geo(state)
    net = any_network(state)
    b = g.bit(site)
    s = g.stride
    return sum(1 for n in (b - s, b + 1, b + s, b - 1) if n >= 0 and net >> n & 1)


def workshop_uses(state: State, seat: int, site: str) -> int:
    """How many times this player may use the workshop on `site` this turn: once per
    open entrance (touching anyone's network), if their own network touches one."""
    return _uses(state, seat).get(site, 0)


def _uses(state: State, seat: int) -> dict[str, int]:
    """`workshop_uses` of every workshop site next to this player's network, worked out
    once per board."""
    return board_memo(state, ("workshop uses", seat), _work_out_uses, state, seat)


def _work_out_uses(state: State, seat: int) -> dict[str, int]:
    g = geo(state)
    near = g.spread(own_network(state, seat)) & g.sites
    return {g.names[b]: open_entrances(state, g.names[b]) for b in bits(near)}


class UseOptions(Chained[UseWorkshop]):
    """Every workshop use the player may make now (the turn's steps aside): the sites
    in order, each conversion of the site's workshop in order, and for each what it
    may take (each token it may move to storage, each bundle of any resources it may
    give, or its fixed cost), as a sequence that counts them and makes only the ones
    asked for."""

    __slots__ = ()

    def __init__(self, state: State, seat: int, counts: Counter[Resource] | None = None) -> None:
        parts: list[Indexed[UseWorkshop]] = []
        turn = state.turn
        held: list[Pay] | None = None  # what a move to storage may take, once needed
        wild_carts: int | None = None
        for site, workshop_id in sorted(state.board.workshops.items()):
            if turn is None or turn.workshop not in (None, site):
                continue
            if turn.workshop_uses >= workshop_uses(state, seat, site):
                continue
            if counts is None:
                counts = owned_counts(state, seat)
            for conv, give, get, need in conversions(workshop_id):
                if conv.move_from_troll:
                    if held is None:
                        held = sorted(
                            {
                                t
                                for t in available_tokens(state, seat, held=True)
                                if t.source != STORE
                            },
                            key=pay_text,
                        )
                    parts.append(Mapped(held, _mover(site)))
                elif conv.give_any:
                    bundles = Bundles([counts[r] for r in RESOURCES], conv.give_any)
                    parts.append(Mapped(bundles, _giver(site, get)))
                else:
                    have: dict[Resource, int] = counts
                    if conv.wild_carts_only:  # the carts it takes are wild ones only
                        if wild_carts is None:
                            wild_carts = sum(
                                1
                                for t in available_tokens(state, seat, wild_carts_only=True)
                                if t.resource == Resource.CART
                            )
                        have = {**counts, Resource.CART: wild_carts}
                    if all(have.get(r, 0) >= n for r, n in need.items()):
                        parts.append([UseWorkshop(site, give, get)])
        super().__init__(parts)


def _mover(site: str) -> Callable[[Pay], UseWorkshop]:
    return lambda tok: UseWorkshop(site, move=tok)


def _giver(site: str, get: tuple[Resource, ...]) -> Callable[[tuple[int, ...]], UseWorkshop]:
    return lambda bundle: UseWorkshop(site, tuple(RESOURCES[r] for r in bundle), get)


def conversion_bundles(conv: Conversion) -> tuple[tuple[Resource, ...], tuple[Resource, ...]]:
    give = tuple(RESOURCE_BY_NAME[r] for r, n in conv.give.items() for _ in range(n))
    get = tuple(RESOURCE_BY_NAME[r] for r, n in conv.get.items() for _ in range(n))
    return give, get


@cache
def conversions(
    workshop_id: str,
) -> tuple[tuple[Conversion, tuple[Resource, ...], tuple[Resource, ...], Counter[Resource]], ...]:
    """Each conversion of a workshop with what it gives and gets (`conversion_bundles`)
    and what it gives counted (built once per workshop)."""
    out = []
    for conv in workshop_info(workshop_id).conversions:
        give, get = conversion_bundles(conv)
        out.append((conv, give, get, Counter(give)))
    return tuple(out)


def match_conversion(workshop_id: str, action: UseWorkshop) -> Conversion:
    """The workshop conversion an action performs, or an error naming the valid ones."""
    workshop = workshop_info(workshop_id)
    for conv in workshop.conversions:
        give, get = conversion_bundles(conv)
        if conv.move_from_troll:
            if action.move is not None:
                return conv
            continue
        if action.move is not None or Counter(action.get) != Counter(get):
            continue
        if conv.give_any:
            if len(action.give) == conv.give_any:
                return conv
        elif Counter(action.give) == Counter(give):
            return conv
    raise IllegalActionError(
        "The {workshop} does not do that. {text}",
        "bad_conversion",
        workshop=Named("workshop", workshop.id, workshop.name),
        text=Named("workshop text", workshop.id, workshop.text),
    )


def describe_conversion(conv: Conversion) -> str:
    if conv.move_from_troll:
        return "move"
    give, get = conversion_bundles(conv)
    left = f"any {conv.give_any}" if conv.give_any else format_bundle(give)
    return f"{left}>{format_bundle(get)}"


def apply_conversion(
    state: State, seat: int, workshop_id: str, action: UseWorkshop, *, checked: bool = True
) -> None:
    """Carry out one use of a workshop (not the turn or access checks), checked first
    unless the caller knows it is legal."""
    conv = match_conversion(workshop_id, action)
    if conv.move_from_troll:
        assert action.move is not None
        if checked:
            _check_move(state, seat, workshop_id, action.move)
        spend(state, seat, [action.move])
        gain(state, seat, [action.move.resource])
        return
    name = workshop_info(workshop_id).name
    tokens = resolve_payment(
        state,
        seat,
        action.give,
        action.pay,
        wild_carts_only=conv.wild_carts_only,
        what=Phrase("the {workshop}", {"workshop": Named("workshop", workshop_id, name)}),
    )
    spend(state, seat, tokens)
    gain(state, seat, action.get)


def _check_move(state: State, seat: int, workshop_id: str, move: Pay) -> None:
    name = workshop_info(workshop_id).name
    if move.source not in PYRAMID_SLOTS:
        raise IllegalActionError(
            "The {workshop} moves a resource from one of your trolls, not from storage.",
            "not_from_troll",
            workshop=Named("workshop", workshop_id, name),
        )
    if Counter(available_tokens(state, seat, held=True))[move] <= 0:
        raise not_holding(move)


def use_workshop(state: State, seat: int, action: UseWorkshop, *, checked: bool = True) -> None:
    """A use within the turn: one workshop per turn, at most once per open entrance
    (`workshop_uses`); checked first unless the caller knows it is legal."""
    turn = state.turn
    assert turn is not None
    workshop_id = state.board.workshops.get(action.site)
    if workshop_id is None:
        raise IllegalActionError(
            "There is no workshop on {site}.", "no_workshop", site=echo(action.site)
        )
    if checked:
        _check_use(state, seat, action.site, turn)
    apply_conversion(state, seat, workshop_id, action, checked=checked)
    turn.workshop = action.site
    turn.workshop_uses += 1


def _check_use(state: State, seat: int, site: str, turn: Turn) -> None:
    if turn.workshop is not None and turn.workshop != site:
        raise IllegalActionError(
            "You already used the workshop on {site} this turn; only one workshop per turn.",
            "one_workshop",
            site=turn.workshop,
        )
    allowed_uses = workshop_uses(state, seat, site)
    if allowed_uses <= 0:
        raise IllegalActionError(
            "Your network does not touch an entrance of the workshop on {site}.",
            "no_access",
            site=site,
        )
    if turn.workshop_uses >= allowed_uses == 1:
        raise IllegalActionError(
            "The workshop on {site} has 1 open entrance: you have used it once.",
            "no_uses_left",
            site=site,
        )
    if turn.workshop_uses >= allowed_uses:
        # at most 4 entrances: the plural is always 2-4
        raise IllegalActionError(
            "The workshop on {site} has {count} open entrances: you have used it that many times.",
            "no_uses_left",
            site=site,
            count=allowed_uses,
        )
