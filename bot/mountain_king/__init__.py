"""The Mountain King's face in the bot: every module that knows this game's rules.

- `turn` and `draft`: the commands that play (one per action, the dig's preview, the
  draft's private choice), and the turn post, ping and game-over post they owe;
- `looking`: the board, a pyramid, the market, the scores, the log, a player's status
  and help;
- `choices` (the commands' options and their labels over `rules.options`), `stories`
  (what an action did, in three voices), `words` (the game's words in a sentence),
  `texts` (its messages), `help` and `refusals`.

The table (`bot.features`, the scheduler, the courier, the service) imports none of
it: it is handed `FACE` and `FEATURES` by `bot.app`, and talks to the rules through the
service's protocol (`bot.service.mountain_king` is the adapter). docs/second-game.md
says what another game's face provides.
"""

from __future__ import annotations

from bot.client import FeatureMaker
from bot.face import GameFace
from bot.i18n.catalogue import N_
from bot.mountain_king.draft import DraftCommands
from bot.mountain_king.looking import LookingCommands
from bot.mountain_king.stories import story_text
from bot.mountain_king.turn import TurnCommands
from bot.mountain_king.words import told
from bot.service.mountain_king import MountainKingRules
from rules.errors import RulesError

FACE = GameFace(
    name=MountainKingRules.name,
    tell=story_text,
    told=told,
    title=N_("In the Hall of the Mountain King"),
    short=N_("Mountain King"),
    errors=(RulesError,),
)
# in this order their subcommands are listed under /mk, after the lobby's
FEATURES: tuple[FeatureMaker, ...] = (DraftCommands, TurnCommands, LookingCommands)
