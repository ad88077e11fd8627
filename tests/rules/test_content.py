"""Game content: the counts the rulebook fixes, the numbers its examples give, and
broken data files failing with a message that names the file and the field."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rules.content import (
    DATA_DIR,
    ContentError,
    GainChoiceEffect,
    load_content,
    load_content_from,
)
from rules.resources import MINERALS, Clan, Resource


def test_there_are_85_trolls_30_starting_and_a_21_17_17_horde() -> None:
    trolls = load_content().trolls
    assert len(trolls) == 85
    assert sum(1 for t in trolls.values() if t.starting) == 30
    levels = Counter(t.level for t in trolls.values() if not t.starting)
    assert levels == {1: 21, 2: 17, 3: 17}


def test_each_colour_has_six_starting_trolls_of_level_one() -> None:
    content = load_content()
    for colour in content.pieces.player_colours:
        mine = [t for t in content.trolls.values() if t.colour == colour]
        assert len(mine) == 6
        assert all(t.level == 1 and t.start for t in mine)


def test_clan_carts_belong_to_the_trolls_own_clan_and_mud_has_none() -> None:
    for card in load_content().trolls.values():
        for res, clan in card.produce:
            if clan is not None:
                assert res == Resource.CART and clan == card.clan, card.id
                assert clan != Clan.MUD


def test_there_are_17_spells_five_of_them_from_the_rulebook() -> None:
    spells = load_content().spells
    assert len(spells) == len({s.id for s in spells}) == 17
    original = {s.id for s in spells if s.original}
    assert original == {
        "earth-ritual",
        "golden-mask",
        "summon-rockeater",
        "ceremony-of-exaltation",
        "dedication-ritual",
    }


def test_earth_ritual_gives_three_stone_two_iron_or_one_heartstone() -> None:
    effect = load_content().spell("earth-ritual").effect
    assert isinstance(effect, GainChoiceEffect)
    assert effect.options == [{"stone": 3}, {"iron": 2}, {"heartstone": 1}]


def test_there_are_11_workshops_two_tiles_each() -> None:
    workshops = load_content().workshops
    assert len(workshops) == 11
    assert sum(w.copies for w in workshops) == 22
    assert {w.name for w in workshops} == {
        "Cartwright",
        "Charmcrafter",
        "Coinpress",
        "Metalworks",
        "Pickforge",
        "Quartermaster",
        "Runesmithy",
        "Stonegrinder",
        "Stonemill",
        "Toolforge",
        "Wheeljack",
    }


def test_there_are_52_tunnel_tiles_of_sizes_two_to_five() -> None:
    tunnels = load_content().tunnels
    assert sum(t.count for t in tunnels) == 52
    assert {t.size for t in tunnels} == {2, 3, 4, 5}


def test_size5_tunnels_have_no_anchor() -> None:
    for tile in load_content().tunnels:
        if tile.size == 5:
            assert tile.anchors == [], tile.id


def test_tunnel_scores_match_the_rulebook_anchors() -> None:
    content = load_content()
    assert all(content.tunnel_score(2, m) == 0 for m in MINERALS)
    assert content.tunnel_score(4, Resource.STONE) == 4
    for size in (3, 4, 5):
        scores = [content.tunnel_score(size, m) for m in MINERALS]
        assert scores == sorted(scores) and scores[0] < scores[2]


def test_fixed_pieces_and_tables() -> None:
    content = load_content()
    pieces, tables = content.pieces, content.tables
    assert tables.coronation_tokens == [5, 3]
    assert len(tables.pedestal_token_values) == 15
    assert tables.leftover_set_size == 3
    assert tables.statue_values[1] == 4 and tables.statue_values[4] == 10
    assert pieces.horde_rows == [5, 4, 3]
    assert pieces.bribes_by_level == {1: 0, 2: 2, 3: 5}
    assert (pieces.retire_bribes, pieces.trade_rate, pieces.runes_to_disintegrate) == (4, 4, 3)
    assert (pieces.statues_per_clan, pieces.pedestals_per_clan, pieces.pyramid_size) == (7, 6, 10)


def test_six_great_halls_and_the_trove_scores_6_or_15() -> None:
    halls = load_content().halls
    assert len(halls) == 6
    trove = next(h for h in halls if h.name == "Trove")
    assert (trove.low, trove.high) == (6, 15)
    assert any(h.low == 0 for h in halls)  # the scoring example's hall worth 0


def test_seven_resources_three_of_them_minerals() -> None:
    resources = load_content().resources
    assert [r.id for r in resources] == [r.value for r in Resource]
    assert {r.id for r in resources if r.mineral} == {"stone", "iron", "heartstone"}


# --- broken copies of the data -------------------------------------------------------


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(DATA_DIR, target)
    return target


def _edit(directory: Path, name: str, change: Callable[[Any], None]) -> None:
    path = directory / name
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")


def test_an_unchanged_copy_loads(tmp_path: Path) -> None:
    content = load_content_from(_copy(tmp_path))
    assert len(content.trolls) == 85


def _set_trade_rate(data: Any) -> None:
    data["trade_rate"] = "four"


def _set_troll_level(data: Any) -> None:
    data["horde"][0]["level"] = 7


def _set_workshop_resource(data: Any) -> None:
    data["workshops"][0]["conversions"][0]["give"] = {"gold": 1}


def _drop_spell_name(data: Any) -> None:
    del data["spells"][2]["name"]


@pytest.mark.parametrize(
    ("name", "change", "field"),
    [
        ("pieces.json", _set_trade_rate, "trade_rate"),
        ("trolls.json", _set_troll_level, "horde.0.level"),
        ("workshops.json", _set_workshop_resource, "workshops.0.conversions.0.give"),
        ("spells.json", _drop_spell_name, "spells.2.name"),
    ],
)
def test_broken_field_raises_content_error_naming_file_and_field(
    tmp_path: Path, name: str, change: Callable[[Any], None], field: str
) -> None:
    directory = _copy(tmp_path)
    _edit(directory, name, change)
    with pytest.raises(ContentError) as info:
        load_content_from(directory)
    message = str(info.value)
    assert name in message
    assert field in message


def test_wrong_count_raises_content_error_naming_the_file(tmp_path: Path) -> None:
    directory = _copy(tmp_path)
    _edit(directory, "spells.json", lambda data: data["spells"].pop())
    with pytest.raises(ContentError, match=r"spells\.json.*17"):
        load_content_from(directory)


def test_clan_cart_of_another_clan_is_refused(tmp_path: Path) -> None:
    directory = _copy(tmp_path)

    def change(data: Any) -> None:
        fire = next(t for t in data["horde"] if t["clan"] == "fire")
        fire["produce"][0] = "ice-cart"

    _edit(directory, "trolls.json", change)
    with pytest.raises(ContentError, match=r"trolls\.json"):
        load_content_from(directory)


def test_missing_and_malformed_files_are_content_errors(tmp_path: Path) -> None:
    directory = _copy(tmp_path)
    (directory / "halls.json").unlink()
    with pytest.raises(ContentError, match=r"halls\.json.*missing"):
        load_content_from(directory)
    (directory / "halls.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(ContentError, match=r"halls\.json.*JSON"):
        load_content_from(directory)
