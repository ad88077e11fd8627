"""Hypothesis strategies for actions: well-formed values of every kind, with names
drawn both from the real content (so the engine's deeper checks are reached) and
from random text."""

from __future__ import annotations

from hypothesis import strategies as st

from rules.actions import (
    PYRAMID_ROWS,
    PYRAMID_SLOTS,
    Cast,
    DedicateHall,
    Dig,
    EndTurn,
    Keep,
    MoveStatue,
    Pay,
    PlaceGate,
    Recruit,
    Trade,
    UseWorkshop,
)
from rules.content import load_content
from rules.grid import COLUMNS
from rules.pyramid import ALL_HORDE_SLOTS
from rules.resources import MINERALS, RESOURCES, STATUE_CLANS, Resource

_content = load_content()

names = st.from_regex(r"[a-z][a-z0-9-]{0,12}", fullmatch=True).filter(
    lambda s: s not in ("pay", "move")
)
resources = st.sampled_from(RESOURCES)
sources = st.sampled_from((*PYRAMID_SLOTS, "store"))


@st.composite
def pays(draw: st.DrawFn) -> Pay:
    res = draw(resources)
    source = draw(sources)
    clan = None
    if res == Resource.CART and source != "store":
        clan = draw(st.sampled_from((None, *STATUE_CLANS)))
    return Pay(res, source, clan)


payments = st.none() | st.lists(pays(), min_size=1, max_size=6).map(tuple)
bundles = st.lists(resources, min_size=1, max_size=6).map(tuple)


real_names = st.sampled_from(
    sorted(
        {s.id for s in _content.spells}
        | {t.id for t in _content.tunnels}
        | {h.id for h in _content.halls}
        | set(_content.trolls)
        | {p.id for b in _content.boards for p in b.start_points}
    )
)
cells = st.builds(
    lambda c, r: f"{c}{r}", st.sampled_from(COLUMNS[:18]), st.integers(min_value=1, max_value=18)
)
cell_lists = st.lists(cells, min_size=1, max_size=6, unique=True).map(tuple)


@st.composite
def digs(draw: st.DrawFn) -> Dig:
    cs = draw(cell_lists)
    anchor = draw(st.none() | st.sampled_from(cs))
    sites = draw(
        st.lists(
            st.tuples(cells, st.sampled_from([w.id for w in _content.workshops])),
            max_size=2,
            unique_by=lambda t: t[0],
        )
    )
    return Dig(
        draw(real_names | names),
        cs,
        anchor,
        draw(st.sampled_from(MINERALS)),
        draw(st.none() | st.sampled_from(STATUE_CLANS)),
        tuple(sites),
        draw(payments),
    )


@st.composite
def halls(draw: st.DrawFn) -> DedicateHall:
    cs = draw(cell_lists)
    return DedicateHall(draw(real_names | names), cs, draw(st.none() | st.sampled_from(cs)))


moves = st.builds(MoveStatue, cells, cells, st.none() | pays().map(lambda p: (p,)))


any_action = st.one_of(
    digs(),
    halls(),
    moves,
    st.builds(Keep, names, st.sampled_from(PYRAMID_ROWS[0])),
    st.builds(PlaceGate, names),
    st.builds(
        Cast,
        names,
        st.lists(
            st.from_regex(r"[A-Za-z0-9][A-Za-z0-9.>+-]{0,10}", fullmatch=True).filter(
                lambda s: s not in ("pay",)
            ),
            max_size=3,
        ).map(tuple),
        payments,
    ),
    st.builds(UseWorkshop, names, bundles, bundles, st.none(), payments),
    st.builds(
        UseWorkshop,
        names,
        st.just(()),
        st.just(()),
        pays().filter(lambda p: p.source != "store"),
        st.none(),
    ),
    st.builds(Trade, st.lists(resources, min_size=4, max_size=4).map(tuple), resources, payments),
    st.builds(
        Recruit,
        st.sampled_from(ALL_HORDE_SLOTS),
        st.sampled_from(PYRAMID_SLOTS),
        st.none() | st.sampled_from(STATUE_CLANS),
        payments,
    ),
    st.just(EndTurn()),
)
