"""Cave Troll's face in the bot: every module that knows this game's rules, under its
own command group, `/cave`.

- `turn`: the commands that play (one per action, the Troll flight's `flee` and `stay`,
  `act`, `undo`, `end`) and the messages a game of Cave Troll owes its thread (the
  start, turn posts with the cave, a Troll flight's call, pings, the end, the private
  answer);
- `looking`: the cave, your panel, the log, your status and help;
- `choices` (the commands' options and their labels over the legal actions),
  `stories` (what an action did, in three voices), `words` (the game's words in a
  sentence, the rules' refusals told with them), `texts` (its messages), `alt` (what
  each image shows), `help`.

The table imports none of it: it is handed `FACE` and `FEATURES` by `bot.app`, and
talks to the rules through the service's protocol (`bot.service.cave_troll` is the
adapter). docs/second-game.md says what a game's face provides.
"""

from __future__ import annotations

from bot.cave_troll.looking import LookingCommands
from bot.cave_troll.stories import story_text
from bot.cave_troll.texts import GROUP
from bot.cave_troll.turn import TurnCommands
from bot.cave_troll.words import told
from bot.client import FeatureMaker
from bot.face import GameFace
from bot.i18n.catalogue import N_
from bot.service.cave_troll import CaveTrollRules
from cave_troll.errors import CaveTrollError

FACE = GameFace(
    name=CaveTrollRules.name,
    tell=story_text,
    told=told,
    title=N_("Cave Troll"),
    errors=(CaveTrollError,),
    group=GROUP,
    group_description=N_("Play Cave Troll"),
)
# in this order their subcommands are listed under /cave
FEATURES: tuple[FeatureMaker, ...] = (TurnCommands, LookingCommands)
