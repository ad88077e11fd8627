"""A pure rules engine for In the Hall of the Mountain King.

A game is `(config, seed, actions)`; the state is a deterministic function of it. Use
`rules.game.Game` for the checked path (play, undo, records), `rules.legal` for legal
actions and `rules.view.view` for what a player may see.
"""

from rules.actions import Action, format_action, parse_action
from rules.errors import (
    ConfigError,
    GameOverError,
    IllegalActionError,
    NotationError,
    NotYourTurnError,
    RulesError,
    UndoError,
)
from rules.game import Game, Move, ReplayError, game_from_record
from rules.legal import legal_actions, legal_kinds
from rules.scoring import final_outcome
from rules.state import GameConfig, State, make_config
from rules.view import view

__all__ = [
    "Action",
    "ConfigError",
    "Game",
    "GameConfig",
    "GameOverError",
    "IllegalActionError",
    "Move",
    "NotYourTurnError",
    "NotationError",
    "ReplayError",
    "RulesError",
    "State",
    "UndoError",
    "final_outcome",
    "format_action",
    "game_from_record",
    "legal_actions",
    "legal_kinds",
    "make_config",
    "parse_action",
    "view",
]
