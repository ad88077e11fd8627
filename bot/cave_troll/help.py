"""`/cave help`: an overview of Cave Troll at this table and one text per topic, in the
reader's language (each text its English original, marked `N_`).

A leaf: plain values in, text out. The numbers (actions a turn, the artifacts' gold,
the bonus for ending) are read from the game's content, so the help never disagrees
with the engine.
"""

from __future__ import annotations

from bot.i18n.catalogue import ENGLISH, N_, Messages
from cave_troll.content import ARTIFACTS, load_content
from render.cave_troll.words import artifact_name

# TRANSLATORS: in every help text, write the commands and options as the players' client
# shows them: the translations of "command name" and "option name"
HELP_OVERVIEW = N_("""\
**How to play Cave Troll here** (Jaskinia Trolla, Tom Jolly)
**Start.** `/mk new game:cave-troll players:3` in a text channel opens a game in its own \
thread; players press **Join**, the creator presses **Start**. The first player is drawn \
at random.
**Your turn: {actions} actions**, each one of: draw a token from your stack (`/cave draw`, \
then `/cave place` for an adventurer on an entrance, a Cave Troll or a Treasure in a room; \
a monster goes into the pit by itself), move one of your pieces through a door \
(`/cave move`), use a monster (`/cave kill` with an Orc, `/cave push` with a Wraith), or \
play an artifact (`/cave play`). `/cave end` ends your turn early.
**Gold.** When the loot is counted, whoever has the most adventurers in a room gains its \
gold (a tie: nobody). The game ends at once when a player draws their last token.
**Looking.** `/cave board` shows the cave (add `share:True` for the table), `/cave panel` \
your artifacts and stack (only you), `/cave status` what you can do now, `/cave log` the \
moves. `/cave act` takes any action in notation.
More with `/cave help topic:`: the Troll, artifacts, scoring, notation.""")

HELP_TROLL = N_("""\
**The Cave Troll.** A Cave Troll you draw goes into any room (a Knight's too), never an \
entrance or the pit. Then, from the player on your left round to you, each player with \
pieces in that room chooses which of them flee through a door: `/cave flee piece: to:` \
for each, then `/cave stay` for the rest. Everything left in the room is discarded, \
Treasure and a Mark of El'darra too, and nobody enters a Troll's room again (but a \
cloaked adventurer). The bot calls each player in turn; who does not answer by the \
deadline has every piece that can flee fled for them, each to the richest room it may \
enter.""")

HELP_ARTIFACTS = N_("""\
**Artifacts.** "Find an Artifact" gives you the top artifact of the pile, in secret \
(`/cave panel` shows yours). Play one on your turn for one action with `/cave play \
artifact: target: to:` (autocomplete lists the legal ones), or keep it for its gold at \
the end:
{artifacts}
The Helm moves an opponent's piece up to three steps (`to:` is its path, `A4>A1`); the \
Chalice sends each of your adventurers from one place anywhere (`/cave send` each); the \
Mark of El'darra closes an empty room, which scores for you; the Wand counts the loot of \
one room; the Cloak lets one adventurer move two steps and into Troll and Knight rooms \
this turn; the Sword discards every Orc in a room where you have an adventurer.""")

HELP_SCORING = N_("""\
**Counting the loot.** When a "Count the Loot!" is drawn, and once more at the end, each \
room gives its gold to the player with the most adventurers there (a Barbarian counts \
two; monsters none; a tie gives nobody anything). Each Dwarf in a room doubles its value \
whoever controls it; each Treasure adds 4, not doubled. A Mark of El'darra's room scores \
for its player. Whoever draws their last token ends the game at once and gains \
{bonus} gold; artifacts still held pay their gold. The most gold wins; a tie shares the \
victory.""")

HELP_NOTATION = N_("""\
**Notation** (what `/cave act` takes). Places: the rooms A1 to D7, the entrances NW NE \
SE SW, the pit. Your piece: `knight@A1`; another's with its colour: `blue-knight@A1`; \
the cloaked one: `explorer*@A1`.
`draw` · `place NW` · `move knight@A1 A4` · `move explorer*@A1 A4>A7` · \
`push blue-explorer@A3 A2` · `kill blue-explorer@A3` · `play helm blue-orc@A7 A4>A1` · \
`play chalice A1` then `send explorer@A1 C3` · `play eldarra A5` · `play wand A5` · \
`play sword A5` · `play cloak explorer@A1` · `flee knight@A5 A4` · `stay` · `end`""")

HELP_TOPICS = (
    ("troll", N_("The Cave Troll and its flight")),
    ("artifacts", N_("Artifacts")),
    ("scoring", N_("Counting the loot")),
    ("notation", N_("Notation")),
)
HELP_LIMIT = 1900


def help_text(topic: str | None, messages: Messages = ENGLISH) -> str:
    """The overview, or one topic, in the reader's language."""
    m = messages
    text = load_content().text
    if topic == "troll":
        out = m.gettext(HELP_TROLL)
    elif topic == "artifacts":
        lines = [
            m.ngettext(
                "• {artifact}: {count} gold if kept",
                "• {artifact}: {count} gold if kept",
                text.artifact(a).gold,
                artifact=artifact_name(a, m),
                count=text.artifact(a).gold,
            )
            for a in ARTIFACTS
        ]
        out = m.gettext(HELP_ARTIFACTS, artifacts="\n".join(lines))
    elif topic == "scoring":
        out = m.gettext(HELP_SCORING, bonus=text.end_bonus)
    elif topic == "notation":
        out = m.gettext(HELP_NOTATION)
    else:
        out = m.gettext(HELP_OVERVIEW, actions=text.actions_per_turn)
    return out[:HELP_LIMIT]
