"""Hypothesis strategies for Cave Troll actions: well-formed values of every kind, with
places, kinds and colours from the real content, so the engine's deeper checks are
reached."""

from __future__ import annotations

from hypothesis import strategies as st

from cave_troll.actions import (
    Action,
    Draw,
    EndTurn,
    Flee,
    Kill,
    Move,
    Place,
    PlayChalice,
    PlayCloak,
    PlayEldarra,
    PlayHelm,
    PlaySword,
    PlayWand,
    Push,
    Ref,
    Send,
    Stay,
)
from cave_troll.board import load_board
from cave_troll.content import PIECE_KINDS, load_content

_board = load_board()
places = st.sampled_from(_board.locations)
rooms = st.sampled_from(_board.rooms)
kinds = st.sampled_from(PIECE_KINDS)
colours = st.sampled_from(load_content().mix.colours)

own = st.builds(Ref, kinds, places, st.booleans(), st.none())
anyones = st.builds(Ref, kinds, places, st.booleans(), colours)


def _paths(longest: int) -> st.SearchStrategy[tuple[str, ...]]:
    return st.lists(places, min_size=1, max_size=longest).map(tuple)


any_action: st.SearchStrategy[Action] = st.one_of(
    st.just(Draw()),
    st.just(Stay()),
    st.just(EndTurn()),
    st.builds(Place, places),
    st.builds(Move, own, _paths(2)),
    st.builds(Push, anyones, places),
    st.builds(Kill, anyones),
    st.builds(PlayHelm, anyones, _paths(3)),
    st.builds(PlayChalice, places),
    st.builds(Send, own, places),
    st.builds(PlayEldarra, rooms),
    st.builds(PlayWand, rooms),
    st.builds(PlayCloak, own),
    st.builds(PlaySword, rooms),
    st.builds(Flee, own, places),
)
