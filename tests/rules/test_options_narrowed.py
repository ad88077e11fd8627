"""Autocomplete's dig options make only the placements they can offer: once a tile is
typed, the placements of the other tiles are not made (`dig_choices(shape=...)`), and
once cells are typed, only the placements written so are kept; what each option offers
is what it offers from every placement (`consistent` over all of them), in the same
order, whatever else is typed (agreeing or not)."""

from __future__ import annotations

import random
from functools import cache

from rules import options
from rules.game import Game
from rules.legal import dig_choices
from rules.options import DIG, Asking, DigPlace, consistent
from rules.selfplay import random_action
from rules.state import State
from rules.steps import seats_to_act


@cache
def _rich_positions(count: int = 3) -> list[tuple[State, int]]:
    """`count` positions of a random 3-player game, some turns apart, where the seat to
    act may dig placements of several tiles (worked out once; nothing changes them)."""
    rng = random.Random(3)
    game = Game.new(players=3, seed=3)
    out: list[tuple[State, int]] = []
    for n in range(600):
        state = game.state
        seat = seats_to_act(state)[0]
        if n % 9 == 0 and len({c.placement.shape for c in dig_choices(state, seat)}) > 2:
            out.append((state.clone(), seat))
            if len(out) == count:
                return out
        game.play(seat, random_action(state, seat, rng))
    raise AssertionError(f"only {len(out)} positions with digs of several tiles")


def _same(a: list[DigPlace], b: list[DigPlace]) -> bool:
    return [(p.choice, p.cells) for p in a] == [(p.choice, p.cells) for p in b]


def test_the_digs_of_one_tile_are_those_of_every_tile_of_that_shape() -> None:
    for state, seat in _rich_positions():
        every = list(dig_choices(state, seat))
        for shape in dict.fromkeys(c.placement.shape for c in every):
            mine = list(dig_choices(state, seat, shape=shape))
            assert mine == [c for c in every if c.placement.shape == shape]
        assert list(dig_choices(state, seat, shape="no such tile")) == []


def test_each_dig_option_offers_what_it_offers_from_every_placement() -> None:
    rng = random.Random(1)
    checked = 0
    for state, seat in _rich_positions()[:2]:
        every = list(dig_choices(state, seat))
        places = [DigPlace(state, seat, c) for c in every]
        picked = rng.sample(every, 2)
        other = next(c for c in every if c.placement.shape != picked[0].placement.shape)
        for choice in picked:
            place = DigPlace(state, seat, choice)
            typed_sets: list[dict[str, str]] = [
                {"tile": place.placement.shape},
                {"tile": place.placement.shape, "cells": place.cells},
                {"tile": place.placement.shape, "cells": place.cells, "mineral": "stone"},
                # cells of another tile, and a later option that agrees with nothing
                {"tile": place.placement.shape, "cells": DigPlace(state, seat, other).cells},
                {"tile": place.placement.shape, "cells": place.cells, "workshop": "X9=none"},
                {"tile": "no such tile", "cells": place.cells, "pedestal": "red"},
                {"cells": place.cells},
                {"tile": place.placement.shape, "cells": "not+cells*"},
            ]
            for typed in typed_sets:
                for option in DIG:
                    asking = Asking(state, seat, "dig", typed)
                    got = options.dig_places(asking, option)
                    # what `dig_places` gives, worked out from every placement
                    everywhere = consistent(asking, option, DIG, places)
                    assert _same(got, everywhere), (typed, option)
                    checked += 1
    assert checked == 2 * 2 * 8 * len(DIG)
