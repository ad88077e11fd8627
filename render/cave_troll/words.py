"""Cave Troll's words in the reader's language, for its images: the pieces and tokens,
their letters on the map, the artifacts, and the few lines the map and the panel
write. Built like `render.words` (the Mountain King's vocabulary): each word in each
use is its own message of the bot's catalogue (a context says which), marked with
`render.words.C_` and `NC_`, and every function takes the value first and the texts
of a language last, `(value, messages)`, English without them. The players' colours
are the table's words (`render.words.colour_name`).

The room ids (`A1`..`D7`, `NW NE SE SW`, `pit`) are what the commands take: they are
drawn as they are, in every language.

    >>> kind_name("troll"), kind_letter("knight"), artifact_name("eldarra")
    ('Cave Troll', 'K', "Mark of El'darra")
    >>> gold(1), gold(12), to_play("Blue", 3)
    ('1 gold', '12 gold', 'Blue to play: 3 actions left')
"""

from __future__ import annotations

from render.words import C_, ENGLISH, NC_, Counted, InContext, Translator

# TRANSLATORS: a Cave Troll piece or token named alone, as the map's key and a
# player's panel list them (the Polish rulebook's words: Barbarzyńca, Złodziej,
# Rycerz, Krasnolud, Badacz, Upiór, Jaskiniowy Troll, Ork, Skarb, Przelicz łupy!,
# Znajdź artefakt)
_KINDS: dict[str, InContext] = {
    "barbarian": C_("cave troll piece", "Barbarian"),
    "thief": C_("cave troll piece", "Thief"),
    "knight": C_("cave troll piece", "Knight"),
    "dwarf": C_("cave troll piece", "Dwarf"),
    "explorer": C_("cave troll piece", "Explorer"),
    "wraith": C_("cave troll piece", "Wraith"),
    "troll": C_("cave troll piece", "Cave Troll"),
    "orc": C_("cave troll piece", "Orc"),
    "treasure": C_("cave troll piece", "Treasure"),
    "tally": C_("cave troll piece", "Count the Loot!"),
    "find": C_("cave troll piece", "Find an Artifact"),
}
_LETTERS: dict[str, InContext] = {
    # TRANSLATORS: one capital letter on each Cave Troll piece of the map (the map's
    # key spells them out): the initial of the piece's name where it can be; the
    # eight must differ (English takes C for the Cave Troll, T being the Thief's)
    "barbarian": C_("cave troll piece letter", "B"),
    "thief": C_("cave troll piece letter", "T"),
    "knight": C_("cave troll piece letter", "K"),
    "dwarf": C_("cave troll piece letter", "D"),
    "explorer": C_("cave troll piece letter", "E"),
    "wraith": C_("cave troll piece letter", "W"),
    "troll": C_("cave troll piece letter", "C"),
    "orc": C_("cave troll piece letter", "O"),
}
# TRANSLATORS: a Cave Troll artifact's name, on a player's panel (the Polish
# rulebook's: Hełm kontroli umysłu, Kielich teleportacji, Znak El'darra, Różdżka
# szybkości, Płaszcz niewidzialności, Miecz śmierci)
_ARTIFACTS: dict[str, InContext] = {
    "helm": C_("cave troll artifact", "Helm of Mind Control"),
    "chalice": C_("cave troll artifact", "Chalice of Teleportation"),
    "eldarra": C_("cave troll artifact", "Mark of El'darra"),
    "wand": C_("cave troll artifact", "Wand of Speed"),
    "cloak": C_("cave troll artifact", "Cloak of Invisibility"),
    "sword": C_("cave troll artifact", "Sword of Death"),
}

_GOLD: Counted = NC_("cave troll", "{count} gold", "{count} gold")
# TRANSLATORS: how many tokens are left in a player's stack, beside its picture
_STACK: Counted = NC_("cave troll", "{count} in stack", "{count} in stack")
# TRANSLATORS: how many artifacts a player holds, beside their picture
_HELD: Counted = NC_("cave troll", "{count} artifact", "{count} artifacts")
# TRANSLATORS: the map's title line; {player} is a colour ("Blue") or a player's name
_TO_PLAY: Counted = NC_(
    "cave troll", "{player} to play: {count} action left", "{player} to play: {count} actions left"
)


def kind_name(kind: str, messages: Translator = ENGLISH) -> str:
    """A piece or token named alone: "Barbarian", "Cave Troll", "Count the Loot!"."""
    marked = _KINDS.get(kind)
    return messages.pgettext(*marked) if marked else kind


def kind_letter(kind: str, messages: Translator = ENGLISH) -> str:
    """The letter on a piece of the map."""
    marked = _LETTERS.get(kind)
    return messages.pgettext(*marked) if marked else "?"


def artifact_name(artifact: str, messages: Translator = ENGLISH) -> str:
    marked = _ARTIFACTS.get(artifact)
    return messages.pgettext(*marked) if marked else artifact


def gold(count: int, messages: Translator = ENGLISH) -> str:
    """ "12 gold"."""
    return messages.npgettext(*_GOLD, count, count=count)


def in_stack(count: int, messages: Translator = ENGLISH) -> str:
    """ "8 in stack": the tokens left in a player's stack."""
    return messages.npgettext(*_STACK, count, count=count)


def artifacts_held(count: int, messages: Translator = ENGLISH) -> str:
    """ "1 artifact"."""
    return messages.npgettext(*_HELD, count, count=count)


def round_label(number: int, messages: Translator = ENGLISH) -> str:
    # TRANSLATORS: the map's title: the round of the game under way
    return messages.pgettext("cave troll", "Round {number}", number=number)


def to_play(player: str, actions: int, messages: Translator = ENGLISH) -> str:
    """ "Blue to play: 3 actions left"."""
    return messages.npgettext(*_TO_PLAY, actions, player=player, count=actions)


def placing(player: str, kind: str, messages: Translator = ENGLISH) -> str:
    # TRANSLATORS: the map's title line while a token just drawn waits to be placed:
    # "Blue places: Orc" ({token} is a piece's name as the map's key gives it)
    return messages.pgettext(
        "cave troll", "{player} places: {token}", player=player, token=kind_name(kind, messages)
    )


def flight_line(room: str, player: str, messages: Translator = ENGLISH) -> str:
    # TRANSLATORS: the map's title line while a Cave Troll's flight waits for an
    # answer: {room} is the room's id on the map (B5), {player} who answers now
    return messages.pgettext(
        "cave troll", "Troll in {room}: {player} chooses who flees", room=room, player=player
    )


def game_over(winners: str, messages: Translator = ENGLISH) -> str:
    # TRANSLATORS: the map's title line at the end; {winners} is one player or
    # several joined with commas (a tie shares the victory)
    return messages.pgettext("cave troll", "Game over: {winners} won", winners=winners)


def mark_label(messages: Translator = ENGLISH) -> str:
    """The map's key for a Mark of El'darra on a room."""
    return artifact_name("eldarra", messages)


def door_label(messages: Translator = ENGLISH) -> str:
    # TRANSLATORS: the map's key: the mark of a door between two rooms
    return messages.pgettext("cave troll", "door")


def closed_label(messages: Translator = ENGLISH) -> str:
    # TRANSLATORS: the map's key: a room a Cave Troll holds, closed to everyone
    return messages.pgettext("cave troll", "Troll's room")


def score_label(messages: Translator = ENGLISH) -> str:
    # TRANSLATORS: the map's key, beside a room's tag: the player shown there would
    # gain that gold if the loot were counted now
    return messages.pgettext("cave troll", "would gain it if counted now")


def changed_label(messages: Translator = ENGLISH) -> str:
    # TRANSLATORS: the map's key: the outline of the places the last action changed
    return messages.pgettext("cave troll", "just changed")


def hand_title(player: str, messages: Translator = ENGLISH) -> str:
    # TRANSLATORS: the title of a player's private panel; {player} is a colour or a name
    return messages.pgettext("cave troll", "{player}: your hand", player=player)


def no_artifacts(messages: Translator = ENGLISH) -> str:
    # TRANSLATORS: a player's panel when they hold no artifact
    return messages.pgettext("cave troll", "No artifact in hand")


def hidden_artifacts(count: int, messages: Translator = ENGLISH) -> str:
    # TRANSLATORS: another player's panel: their artifacts are secret, only the count shows
    return messages.npgettext(
        "cave troll",
        "{count} artifact, face down",
        "{count} artifacts, face down",
        count,
        count=count,
    )


def worth(count: int, messages: Translator = ENGLISH) -> str:
    # TRANSLATORS: on an artifact of a player's panel: the gold it gives if still held
    # at the end of the game
    return messages.npgettext(
        "cave troll", "{count} gold at the end", "{count} gold at the end", count, count=count
    )


def stack_left(count: int, messages: Translator = ENGLISH) -> str:
    # TRANSLATORS: a player's panel, above what is left in their stack kind by kind
    return messages.npgettext(
        "cave troll",
        "{count} token left in your stack",
        "{count} tokens left in your stack",
        count,
        count=count,
    )
