"""What the bot says when asked: `/mk help` (an overview and one text per topic), the
captions and score lines of the looking commands, and the refusal of `/mk new` in a
channel where the bot lacks permissions.

Like `bot.texts` it is a leaf: plain values in, text out. The numbers in the scoring
help are read from the game's content, so the help never disagrees with the engine.

The help is in the message catalogue (`bot.i18n`): each text here is its English
original, marked `N_`, and `help_text(topic, messages)` gives it in the reader's
language.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.i18n.catalogue import ENGLISH, N_, Messages
from bot.words import listed_in
from rules.content import load_content

# the minerals in the order the scoring help lists their values
MINERALS = ("stone", "iron", "heartstone")
# Discord refuses a message longer than 2000 characters
HELP_LIMIT = 1900
LOOKING_LIMIT = 1900


# --- /mk help ------------------------------------------------------------------------

# TRANSLATORS: in every help text, write the commands and options as the players' client
# shows them: the translations of "command name" and "option name" (/mk stays /mk)
HELP_OVERVIEW = N_("""\
**How to play In the Hall of the Mountain King here**
**Start.** `/mk new players:4` in a text channel opens a game in its own thread. Players \
press **Join** (the creator may **Add AI player**), then the creator presses **Start**. \
Before the first turn each player places a gate (`/mk gate`, one after another in turn \
order), then everyone keeps four starting trolls (`/mk draft`, privately, all at once).
**Your turn, in four steps** (the bot pings you when it is yours):
1. Spells and workshops, if you like: `/mk cast`, `/mk use`.
2. Recruit a troll or dig a tunnel, required if you can: `/mk recruit`, `/mk dig`.
3. A great hall, if you like: `/mk hall`.
4. Move statues with carts, if you like: `/mk move`.
Trade any 4 resources for 1 at any point of your turn (`/mk trade`). `/mk undo` takes back \
your last action, `/mk end` ends your turn. `/mk status` shows your resources, what you \
can do now and what changed since your last turn; `/mk act` takes any action in notation.
**The end.** The first player to complete their pyramid of 10 trolls takes the 5-honor \
coronation token, the second the 3-honor one (with 2 players only the 3 is used). After \
that last token the round is finished and everyone plays two more turns; final scoring \
follows and the most honor wins.
**Looking.** `/mk board`, `/mk pyramid`, `/mk market` and `/mk scores` answer only you; \
add `share:True` to post the picture for the table. `/mk log` lists the moves.
**Reading the images.** Each cell's colour is its tier, darker outside and yellow toward \
the Heart; statues score more the deeper they stand. Tunnels carry their owner's letter \
and a mineral badge; a white frame marks what changed last turn. `/mk help topic:images` \
has the whole legend.
More with `/mk help topic:`: gates, the draft, each step, scoring, notation, images.""")

HELP_DRAFT = N_("""\
**The draft: your starting trolls.** Your pyramid (the rulebook calls it the \
*trollsmoot*) is the stack of troll cards that makes your resources: four slots on the \
bottom row (A1 A2 A3 A4), then B1-B3, C1-C2 and D1 on top. Each troll you recruit later \
stands above and between two trolls of the row beneath.
Once every gate is placed, `/mk draft` (private; everyone drafts at once) shows the two \
starting trolls in your hand. **Keeping** one puts it in an empty bottom slot of your \
choice and gives you its one-time starting resources (into your storage) at once; the \
other stays in your hand and you draw the next card. Four keeps fill A1 to A4.
**Where matters.** A recruited troll activates the two trolls beneath it, and they the \
two beneath each of them, down to the bottom row (a *cascade*). A2 and A3 sit under two \
slots of the row above, A1 and A4 under one, so the inner slots activate more often: \
put there the trolls whose produce you want most.
Starting trolls hold nothing at first: an activated troll gains each resource of its \
produce row that it is not holding. Spend from your trolls before your storage, so that \
they fill again at the next cascade.
Turn-order bonus: the 2nd and 3rd players also get the starting resources of the troll \
left in their hand, the 4th and 5th also those of the last, unseen card. In team mode \
nobody gets the bonus and starting resources go to the team's storage.""")

HELP_GATES = N_("""\
**Gates.** Setting up begins with the gates: each player places a gate on a free start \
point (`/mk gate`, one player after another in turn order; the autocomplete lists the free \
points), and after the last gate everyone drafts starting trolls (`/mk draft`). Start \
points are the framed boxes along the board's edge: the point's name on top (W1, A2 ...), \
the player counts it serves below (4/5). With 2 players any two points that share a \
number will do: the first gate picks it. In a team game the second partner's gate goes \
next to the first's.
Your gate starts your network. Every tunnel you dig must touch your network along an \
edge, and may never touch an opponent's network along an edge (corners are fine), so a \
close neighbour means a fight for room. The gate counts as a tunnel for statue moves and \
scoring.""")

HELP_STEPS: dict[str, str] = {
    "1": N_(
        "**Step 1: spells and workshops** (both optional, in either order). Cast one spell"
        " from the spellbook by paying a rune onto it (`/mk cast`); the third rune on a spell"
        " uses it up and a new one is drawn. Use one workshop your network touches (`/mk use`),"
        " once for each of its open entrances: an entrance is open when any player's network"
        " covers the cell beside it. What a workshop makes goes to your storage."
    ),
    "2": N_(
        "**Step 2: recruit or dig** (required if you can). **Recruit** a troll from the"
        " horde (`/mk recruit`): level 1 is free, level 2 costs a coin on each of the 2 trolls"
        " beneath it, level 3 a coin on each of the 5 beneath it; a level-2 troll brings its"
        " pedestal, a level-3 troll lets you pick one from the bag (or none). It stands above"
        " two of your trolls and starts a cascade. Or **dig** a tunnel (`/mk dig`): pay its"
        " size in one mineral plus a hammer per rubble cell it covers, score its honor at once,"
        " take the buried resources under it, and optionally put a pedestal on its anchor and"
        " establish workshops on empty sites beside it. It must touch your network and never"
        " an opponent's along an edge. The bot shows a private preview before you confirm."
    ),
    "3": N_(
        "**Step 3: a great hall** (optional, one per turn). Lay a hall exactly over"
        " tunnels of your own network (`/mk hall`), never over gates, workshops or other halls."
        " Covered pedestals leave the game (you keep their tokens); statues stay where they"
        " stood. At the end a hall scores its low value, or its high value with a statue on"
        " its altar."
    ),
    "4": N_(
        "**Step 4: move statues** (optional). Each cart you spend moves one unearthed"
        " statue of your network to another cell of its tunnel or into an adjacent tunnel"
        " (`/mk move`); your gate and great halls count as tunnels, workshops do not. A clan"
        " cart (fire, ice, moon) moves only statues of its clan; carts in storage are wild."
    ),
    "trade": N_(
        "**Trading.** At any point of your own turn, spend any 4 resources to take 1"
        " resource of your choice from the supply (`/mk trade`), as often as you like. Not in"
        " someone else's turn and not during the draft."
    ),
    "end": N_(
        "**Ending your turn and undo.** `/mk end` ends your turn and the bot pings the"
        " next player. Before that, `/mk undo` takes back your last action, again and again,"
        " but not past one that revealed a card: a keep, a recruit, or the third rune on a"
        " spell."
    ),
}

# the numbers come from the game's content (`_scoring_help`)
HELP_SCORING = N_("""\
**Scoring.** During play a tunnel scores when you dig it, by its size and mineral \
(stone/iron/heartstone): {tunnels}; size {nothing} scores nothing. Some \
spells score too. The header of the board shows each player's honor so far.
**The end.** The first player to recruit their 10th troll takes the {first}-honor \
coronation token, the next the {second}-honor one (with 2 players only the {second} is \
used). Taking that last token ends the game after the current round plus two more turns \
for everyone.
**Final scoring adds:**
• coronation tokens ({first} and {second});
• pedestal tokens, taken face down when you placed a pedestal;
• leftover resources: each set of {set_size} identical resources, storage \
and trolls together, scores 1 (after the best 4-for-1 trades);
• great halls: the low value, or the high value with a statue on the altar;
• statues in your network by tier, from the outside in: {statues}; double on a \
pedestal of their own clan. Only one statue per tunnel scores, and statues in a hall \
score only through its altar.
The most honor wins. A tie goes to the player whose recruited trolls have the lower sum \
of levels, then to the later in turn order. In team mode partners share one score.""")
# TRANSLATORS: "size 4 4/6/9": the honor of a 4-cell tunnel of stone, iron, heartstone
TUNNEL_SCORES = N_("size {size} {scores}")


def _scoring_help(messages: Messages) -> str:
    tables = load_content().tables
    sizes = sorted(tables.tunnel_scores)
    tunnels = "; ".join(
        messages.gettext(
            TUNNEL_SCORES,
            size=size,
            scores="/".join(str(tables.tunnel_scores[size][m]) for m in MINERALS),
        )
        for size in sizes
        if any(tables.tunnel_scores[size].values())
    )
    nothing = [str(size) for size in sizes if not any(tables.tunnel_scores[size].values())]
    first, second = tables.coronation_tokens
    return messages.gettext(
        HELP_SCORING,
        tunnels=tunnels,
        nothing=listed_in(nothing, messages),
        first=first,
        second=second,
        set_size=tables.leftover_set_size,
        statues=", ".join(str(v) for v in tables.statue_values),
    )


# each example is checked to parse (tests/bot/test_bot_help.py)
NOTATION_EXAMPLES: tuple[tuple[str, str], ...] = (
    ("gate W1", N_("place your gate on start point W1")),
    ("keep blue-3 A2", N_("draft: keep starting troll blue-3 in slot A2")),
    ("cast earth-ritual 2iron", N_("cast Earth Ritual, choosing 2 iron")),
    ("use S3 heartstone>cart", N_("one use of the workshop on site S3")),
    ("trade stone+2coin+rune>iron", N_("4 resources for 1 iron")),
    ("recruit 2.3 B1", N_("the troll on horde slot 2.3 (row 2, 3rd) into slot B1")),
    ("recruit 3.1 C1 fire", N_("a level-3 troll, taking a fire pedestal from the bag")),
    ("recruit 3.1 C1", N_("the same troll, declining a pedestal")),
    ("dig T4 F7+G7*+H7+G8 iron", N_("a T4 tunnel on those cells, anchor on G7, paid in iron")),
    (
        "dig I3 F7+G7*+H7 stone pedestal fire workshop G6=toolforge",
        N_("... with a fire pedestal on the anchor, establishing a Toolforge on G6"),
    ),
    ("hall trove F7+G7*+H7+F8+G8+H8", N_("the Trove over your tunnels, altar on G7")),
    ("move F7>G8", N_("one cart moves the statue on F7 to G8")),
    ("move F7>G8 pay fire-cart@B1", N_("... paying with the fire cart held by troll B1")),
    ("end", N_("end your turn")),
)
# TRANSLATORS: the notation is typed in English: keep its words (cells, resources) as they are
NOTATION_INTRO = N_(
    "**Notation for `/mk act`.** One action per command, words separated by single"
    " spaces; the autocomplete lists the legal actions as you type. Cells are a column"
    " letter and a row number (F7, rows counted from the top). A tile lists its cells in"
    " reading order (row by row, left to right) with its anchor, or a hall's altar, marked"
    " `*`. Resources: stone, iron, heartstone, coin, cart, hammer, rune; several are joined"
    " with `+` in that order, counts first (`stone+2coin+rune`)."
)
NOTATION_PAY = N_(
    "Add `pay` to say where each spent resource comes from (`coin@A1`, `rune@store`);"
    " without it your trolls pay first, bottom row first, then your storage."
)


def _notation_help(messages: Messages) -> str:
    """The notation's rules and examples; the examples stay as typed, in English."""
    examples = [
        f"`{example}`: {messages.gettext(meaning)}" for example, meaning in NOTATION_EXAMPLES
    ]
    return "\n".join([messages.gettext(NOTATION_INTRO), *examples, messages.gettext(NOTATION_PAY)])


HELP_IMAGES = N_("""\
**Reading the images.** The legend below explains every mark of the board; it is drawn \
by the board's own code.
**The board.** Cells are coloured by tier, 1 to 5 from the edge inward: dark gray, gray, \
brown, orange, yellow around the red Heart (H), where nobody digs. Inner tiers score \
more. Coordinates run along every edge: columns A, B, C... and rows 1, 2, 3... from the \
top. A tunnel shows its owner's letter and its mineral (S stone, I iron, H heartstone); \
a dot is an anchor without a pedestal, a square with F, I or M a pedestal of that clan. \
A statue shows its clan letter; in a black circle it is still buried. A ring of rocks is \
rubble (a hammer per cell), a small icon a buried resource. `site` is an empty workshop \
site, a plate with a short name an established workshop. A box like W8 over 5 is a start \
point (its name, the player counts it serves). A hatched area is a great hall; its altar \
shows what it scores without and with a statue on it. ? marks a tunnel cut off from \
every gate. White frames show what the last turn changed. Above the board, one chip per \
player with honor and name; ▶ points at the player to act.
**A pyramid.** The player's trolls in their slots, A1-A4 at the bottom up to D1; a \
troll's resources are drawn solid when it holds them and hollow when it does not; \
"room for a recruit" marks an open slot. Below: storage, pedestals, pedestal tokens \
(face down to everyone else), coronation tokens and honor.
**The market.** The horde by level with the bribes on each troll, the level-2 \
pedestals and what the pedestal bag holds, the spellbook with the runes on each spell, \
the workshops still to establish, and the tunnels and great halls left.""")

# each topic's message, as written (English): the whole text, or for the topics built of
# several messages (`_BUILT`) the first; `help_text` gives a topic in a reader's language
HELP_SOURCES: dict[str, str] = {
    "gates": HELP_GATES,
    "draft": HELP_DRAFT,
    **HELP_STEPS,
    "scoring": HELP_SCORING,
    "notation": NOTATION_INTRO,
    "images": HELP_IMAGES,
}
# the topics made of several messages, or filled with numbers
_BUILT = {"scoring": _scoring_help, "notation": _notation_help}
# the topics `/mk help` offers, in order: (value, name shown)
HELP_TOPICS: tuple[tuple[str, str], ...] = (
    ("gates", "gates"),
    ("draft", "the draft (starting trolls)"),
    ("1", "step 1: spells and workshops"),
    ("2", "step 2: recruit or dig"),
    ("3", "step 3: great hall"),
    ("4", "step 4: move statues"),
    ("trade", "trading"),
    ("end", "ending your turn and undo"),
    ("scoring", "scoring and the end of the game"),
    ("notation", "notation for /mk act"),
    ("images", "reading the images (legend)"),
)


def help_text(topic: str | None, messages: Messages = ENGLISH) -> str:
    """The help on one topic in the reader's language; without one, the overview."""
    if topic in _BUILT:
        return _BUILT[topic](messages)
    return messages.gettext(HELP_SOURCES.get(topic or "", HELP_OVERVIEW))


# every topic in English, as `/mk help topic:` answers an English client
HELP: dict[str, str] = {topic: help_text(topic) for topic in HELP_SOURCES}


# --- looking commands ----------------------------------------------------------------

SHARED = N_("Posted for the table below.")
NO_SEAT_YOU = N_("You have no seat in this game: name the player whose pyramid you want.")
NO_SEAT = N_("{name} has no seat in this game.")


def moment(phase: str, actions: int, messages: Messages = ENGLISH) -> str:
    """Where the game stands, for a caption: "after 57 actions"."""
    if phase == "draft":
        return messages.gettext("during the draft")
    if phase == "gates":
        return messages.gettext("while the gates are placed")
    if phase == "over":
        return messages.gettext("at the end")
    return messages.ngettext(
        "after {count} action", "after {count} actions", actions, count=actions
    )


def caption(
    game_id: int,
    subject: str,
    when: str,
    waiting: Sequence[str],
    *,
    drafting: bool = False,
    messages: Messages = ENGLISH,
) -> str:
    """The line above a looking command's image: "Game #3 · the mountain · after 57
    actions · alice (Blue) to play"."""
    m = messages
    parts = [m.gettext("Game #{game}", game=game_id), subject, when]
    if waiting:
        players = listed_in(waiting, m)
        if drafting:
            parts.append(m.gettext("{players} still drafting", players=players))
        else:
            parts.append(m.gettext("{players} to play", players=players))
    return " · ".join(parts)[:LOOKING_LIMIT]


def scores_lines(honor: Iterable[tuple[Sequence[str], int]], messages: Messages = ENGLISH) -> str:
    """Honor on the track, most first, one line per score (a team shares one)."""
    ranked = sorted(honor, key=lambda entry: -entry[1])
    return "\n".join(
        # TRANSLATORS: a line of /mk scores: "alice (Blue): 12 honor"
        messages.ngettext(
            "{names}: {count} honor",
            "{names}: {count} honor",
            points,
            names=" & ".join(names),
            count=points,
        )
        for names, points in ranked
    )
