"""Sample Cave Troll positions for images: a fresh game, seeded self-played games cut
in the middle and at the end, the first Troll flight of a seeded game, and a crowded
cave set up by hand (six pieces in the smallest room, a Treasure, a Mark of El'darra,
a Troll's room, a full entrance and pit, a cloaked piece). Used by the image tests
(tests/render/test_ct_images.py) and by `scripts/update_ct_images.py`, which writes
the reference images (`images`) and the README's (`docs/images/cave-troll-*.png`).
"""

from __future__ import annotations

from cave_troll.game import Game
from cave_troll.selfplay import play_game
from cave_troll.state import Mark, Piece, State, Treasure, Turn, make_config
from cave_troll.view import CaveView, view
from render.cave_troll import cave_png, chips_png, panel_png
from render.words import Translator

SAMPLE_NAMES = {0: "alice", 1: "Bartholomew the Magnificent", 2: "Delver AI", 3: "dora"}


def fresh(players: int, viewer: int | None = 0, seed: int = 1) -> CaveView:
    return view(Game.new(players=players, seed=seed).state, viewer)


def played(players: int, seed: int, fraction: float, viewer: int | None = 0) -> CaveView:
    """A random self-played game of `players` from `seed`, after `fraction` of its
    actions (1.0: at its end)."""
    game = play_game(make_config(players=players), seed)
    cut = round(len(game.moves) * fraction)
    state = Game.replay_trusted(game.config, game.seed, game.moves[:cut]).state
    return view(state, viewer)


def in_flight(players: int = 3, seed: int = 23) -> CaveView:
    """The first Troll flight of a random self-played game, as the player to answer
    sees it."""
    found: list[State] = []

    def keep(state: State, seat: int, action: object, fx: object) -> None:
        if state.flight is not None and not found:
            found.append(state.clone())

    play_game(make_config(players=players), seed, on_action=keep)
    state = found[0]
    assert state.flight is not None
    return view(state, state.flight.queue[0])


# (colour's seat, kind, place) of the crowded cave
_CROWD = [
    *((0, k, "A3") for k in ("barbarian", "dwarf")),
    *((1, k, "A3") for k in ("knight", "explorer")),
    (2, "thief", "A3"),
    (3, "orc", "A3"),
    *((s, "explorer", "NW") for s in (0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0)),
    *((s, k, "pit") for s in range(4) for k in ("orc", "wraith")),
    (0, "knight", "A7"),
    (0, "explorer", "A7"),
    (2, "barbarian", "A7"),
    (1, "dwarf", "B5"),
    (1, "thief", "B5"),
    (3, "explorer", "B5"),
    (3, "troll", "C4"),
    (2, "wraith", "C7"),
    (2, "dwarf", "C7"),
    (3, "knight", "D6"),
    (1, "explorer", "SE"),
    (3, "thief", "SW"),
]


def crowded(viewer: int | None = 0) -> CaveView:
    """Four players' cave set up by hand: six pieces in A3 (the smallest room) with a
    Treasure, thirteen on NW, eight monsters in the pit, a Mark of El'darra on B3, a
    Troll's room (C4), a cloaked Explorer in A7 and green's Troll flight from C7's
    neighbour B5 pending."""
    game = Game.new(players=4, seed=5)
    state = game.state
    state.pieces = [Piece(i + 1, seat, kind, at) for i, (seat, kind, at) in enumerate(_CROWD)]
    state.treasures = [Treasure(100, 2, "A3"), Treasure(101, 0, "A7")]
    state.marks = [Mark("B3", 1)]
    state.turns = 9
    state.turn = Turn(
        0, 2, cloaked=[next(p.id for p in state.pieces if p.at == "A7" and p.kind == "explorer")]
    )
    state.players[0].artifacts = ["helm", "cloak", "sword"]
    state.players[1].artifacts = ["wand"]
    for k, player in enumerate(state.players):
        player.gold = (7, 12, 4, 9)[k]
        del player.stack[: 6 + k]
    return view(state, viewer)


def images(languages: dict[str, Translator] | None = None) -> dict[str, bytes]:
    """The reference images (tests/render/reference/cave-troll/<name>.png; each other
    language passed in adds its map and panel, `<language>-<name>`)."""
    crowd = crowded()
    flight = in_flight()
    middle = played(2, 4, 0.5)
    out = {
        "crowded": cave_png(crowd, changed=("A3", "NW"), names=SAMPLE_NAMES),
        "flight": cave_png(flight),
        "two-middle": cave_png(middle),
        "panel": panel_png(crowd, 0, names=SAMPLE_NAMES),
        "chips": chips_png(flight),
    }
    for language, m in (languages or {}).items():
        out[f"{language}-crowded"] = cave_png(crowd, changed=("A3",), messages=m)
        out[f"{language}-panel"] = panel_png(crowd, 0, messages=m)
    return out
