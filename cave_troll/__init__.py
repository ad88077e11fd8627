"""A pure rules engine for Cave Troll (Tom Jolly; "Jaskinia Trolla", the Polish edition's
rules in `seeds/cave-troll-rules-pl.txt`).

A game is `(config, seed, actions)`; the state is a deterministic function of it. Use
`cave_troll.game.Game` for the checked path (play, undo, records), `legal_actions` for
every legal action of a decision, `view` for what a player may see, `describe` for the
story of an action, `default_answer` for a Troll flight nobody answers, and
`cave_troll.ai.choose_action` (the Delver) for an AI player. The map, the token mix and
the artifact pile are ours, as data in `cave_troll/data/` (docs/cave-troll.md).
"""

from cave_troll.actions import Action, Ref, format_action, parse_action
from cave_troll.defaults import default_answer
from cave_troll.errors import (
    CaveTrollError,
    ConfigError,
    GameOverError,
    IllegalActionError,
    NotationError,
    NotYourTurnError,
    RecordError,
    UndoError,
)
from cave_troll.game import Game, Move, ReplayError, game_from_record
from cave_troll.legal import legal_actions, legal_kinds
from cave_troll.scoring import Outcome, final_outcome
from cave_troll.state import CaveTrollConfig, State, make_config
from cave_troll.story import describe, told_to
from cave_troll.turns import to_act
from cave_troll.view import CaveView, view

__all__ = [
    "Action",
    "CaveTrollConfig",
    "CaveTrollError",
    "CaveView",
    "ConfigError",
    "Game",
    "GameOverError",
    "IllegalActionError",
    "Move",
    "NotYourTurnError",
    "NotationError",
    "Outcome",
    "RecordError",
    "Ref",
    "ReplayError",
    "State",
    "UndoError",
    "default_answer",
    "describe",
    "final_outcome",
    "format_action",
    "game_from_record",
    "legal_actions",
    "legal_kinds",
    "make_config",
    "parse_action",
    "to_act",
    "told_to",
    "view",
]
