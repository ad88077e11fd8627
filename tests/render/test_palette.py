"""The palette stays readable for colour-blind players: every player colour differs
from every tier colour and the Heart, and from every other player colour, for normal
vision and for simulated deuteranopia, protanopia and tritanopia (Machado et al. 2009,
severity 1.0; render/vision.py).

Distances are CIEDE2000 (ΔE00), the CIE's current colour-difference formula: unlike
CIE76 it does not overstate differences between saturated colours, which is where a
palette for dichromats has to work. A ΔE00 of about 1-2 is just noticeable for large
patches seen side by side; a board cell is small (about 22 px when Discord shows the
board 400 px wide on a phone) and a tunnel must be told from its rock at a glance, and
small fields need several times the difference large ones do. So we ask for 20 between
a tunnel's colour and any rock it may lie on, and 15 between two players (who also
differ by their letters on every mark).
"""

from __future__ import annotations

import pytest

from render import theme
from render.vision import VISIONS, Vision, ciede2000, delta_e, lab, seen_delta_e, simulate

PLAYER_VS_TIER = 20.0
PLAYER_VS_PLAYER = 15.0

BACKGROUNDS = {**{f"tier {k}": v for k, v in theme.TIER.items()}, "the Heart": theme.HEART}


@pytest.mark.parametrize("vision", VISIONS)
def test_player_colours_stand_out_from_every_tier(vision: Vision) -> None:
    close = [
        f"{player} vs {name}: {seen_delta_e(rgb, bg, vision):.1f}"
        for player, rgb in theme.PLAYER.items()
        for name, bg in BACKGROUNDS.items()
        if seen_delta_e(rgb, bg, vision) < PLAYER_VS_TIER
    ]
    assert not close, f"{vision}: ΔE00 under {PLAYER_VS_TIER}: {', '.join(close)}"


@pytest.mark.parametrize("vision", VISIONS)
def test_player_colours_differ_from_each_other(vision: Vision) -> None:
    players = list(theme.PLAYER.items())
    close = [
        f"{a} vs {b}: {seen_delta_e(ra, rb, vision):.1f}"
        for i, (a, ra) in enumerate(players)
        for b, rb in players[i + 1 :]
        if seen_delta_e(ra, rb, vision) < PLAYER_VS_PLAYER
    ]
    assert not close, f"{vision}: ΔE00 under {PLAYER_VS_PLAYER}: {', '.join(close)}"


def test_ciede2000_matches_the_published_test_data() -> None:
    # Sharma, Wu and Dalal (2005), table 1: pairs 1, 7, 17 and 34
    pairs = [
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
    ]
    for first, second, expected in pairs:
        assert ciede2000(first, second) == pytest.approx(expected, abs=1e-4)
        assert ciede2000(second, first) == pytest.approx(expected, abs=1e-4)


def test_simulation_keeps_greys_and_confuses_what_it_should() -> None:
    for vision in VISIONS:
        for grey in ((0, 0, 0), (128, 128, 128), (255, 255, 255)):
            assert max(abs(a - b) for a, b in zip(simulate(grey, vision), grey, strict=True)) <= 1
    red, green = (200, 60, 40), (110, 120, 40)
    assert delta_e(red, green) > 20
    assert seen_delta_e(red, green, "deuteranopia") < delta_e(red, green) / 2
    assert lab((255, 255, 255))[0] == pytest.approx(100, abs=0.01)
