"""Every rule of the Polish rulebook has a test that quotes it.

A rule's test carries `@quotes(line, "words")` (ct_helpers): the words must stand on
that line of `seeds/cave-troll-rules-pl.txt` (emphasis marks and line breaks aside), and
every line of the rulebook that states a rule must be quoted by at least one test.
"""

from __future__ import annotations

import ast
from pathlib import Path

from ct_helpers import folded, rulebook_lines

HERE = Path(__file__).parent

# the lines of the rulebook that state a rule (the rest: titles, the credits, the
# advertisements of two other games on the last page, l.223-241)
RULE_LINES = {
    17: "the aim: gold for the rooms you control, at the end and up to 4 times in play",
    21: "the board: 4 jigsaw quarters, rooms with gold values, 4 corner entrances, the pit",
    25: "the score track",
    26: "monsters start in the pit (the Cave Troll excepted)",
    27: "adventurers start at the entrances",
    29: "round tokens in 4 colours, one per player",
    31: "artifacts: played for their gift or kept for gold",
    33: "score tokens",
    37: "setup: the board",
    38: "setup: the artifact pile shuffled face down",
    39: "setup: each player's stack of their colour shuffled face down",
    40: "setup: scores at zero",
    42: "the first player at random, then to the left",
    44: "four actions a turn",
    46: "action: draw",
    50: "action: move",
    54: "action: a monster's ability (Orc, Wraith)",
    58: "action: play an artifact",
    60: "fewer actions in the first turn",
    62: "the example turn",
    66: "drawing: at random, shown, then placed or resolved",
    68: "an adventurer drawn goes on an entrance; entrances hold any number",
    70: "a monster drawn goes into the pit; the pit holds any number",
    72: "Treasure in any room; Count the Loot! and Find an Artifact at once, then discarded",
    76: "a move: one of your adventurers or monsters to a neighbouring room or entrance",
    78: "only through doors",
    80: "from an entrance to any other entrance; the pit is not an entrance",
    82: "five to a room",
    84: "nobody enters a Troll's room",
    86: "nobody enters an opponent's Knight's room",
    88: "no adventurer in the pit",
    92: "an artifact: one action, then discarded; kept ones pay gold at the end",
    96: "the first round: 1, 2, 3, 4 actions",
    100: "counting the loot: control, ties, the turn goes on",
    104: "the last token ends the game at once",
    106: "the last count and 3 gold for ending",
    108: "artifacts kept pay their value",
    110: "most gold wins",
    116: "the Wraith",
    120: "the Cave Troll and its flight",
    124: "the Orc",
    130: "the Barbarian",
    134: "the Thief",
    138: "the Knight",
    142: "the Dwarf",
    146: "the Explorer",
    152: "Treasure",
    156: "Count the Loot!",
    160: "Find an Artifact",
    162: "discarded means out of the game",
    168: "the Helm of Mind Control",
    172: "the Chalice of Teleportation",
    176: "the Mark of El'darra",
    180: "the Wand of Speed",
    184: "the Cloak of Invisibility",
    188: "the Sword of Death",
}


def _quotes() -> list[tuple[str, str, int, str]]:
    """(file, test, line, words) of every `@quotes` in the Cave Troll tests."""
    found = []
    for path in sorted(HERE.glob("test_ct_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef):
                continue
            for deco in node.decorator_list:
                if (
                    isinstance(deco, ast.Call)
                    and isinstance(deco.func, ast.Name)
                    and deco.func.id == "quotes"
                ):
                    line, words = (ast.literal_eval(a) for a in deco.args)
                    found.append((path.name, node.name, line, words))
    return found


def test_every_quote_stands_on_its_line_of_the_rulebook() -> None:
    lines = rulebook_lines()
    wrong = [
        f"{file}::{test}: l.{line} does not say {words!r}"
        for file, test, line, words in _quotes()
        if folded(words) not in folded(lines[line - 1])
    ]
    assert not wrong, "\n".join(wrong)


def test_every_rule_line_has_a_test_that_quotes_it() -> None:
    quoted = {line for _, _, line, _ in _quotes()}
    missing = {line: what for line, what in RULE_LINES.items() if line not in quoted}
    assert not missing, missing
    assert quoted <= set(RULE_LINES), sorted(quoted - set(RULE_LINES))


def test_the_rule_lines_are_the_rulebooks_lines_of_text() -> None:
    lines = rulebook_lines()
    assert len(lines) >= 240
    assert all(lines[n - 1].strip() for n in RULE_LINES), "a rule line is blank"
    # every line with text between the setup and the artifacts' end is a rule or a title
    titles = {
        n
        for n in range(13, 190)
        if lines[n - 1].strip() and n not in RULE_LINES and len(lines[n - 1].split()) > 6
    }
    assert titles == {13}, sorted(titles)  # l.13: the game's introduction
