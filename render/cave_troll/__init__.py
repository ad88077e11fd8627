"""Cave Troll's images: pure functions from a player's view (`cave_troll.view.CaveView`)
to PNG bytes, like the Mountain King's (`render`). The same view always gives the same
bytes.

    cave_png(view, changed=..., names=..., messages=...)   the cave map
    panel_png(view, seat, names=..., messages=...)         a player's private panel
    chips_png(view, names=..., messages=...)               everyone's gold and stacks

`messages` is the texts of the language to draw in (`bot.i18n.translator_for("pl")`,
anything with gettext, ngettext, pgettext and npgettext: `render.words.Translator`),
English without it; `names` maps a seat to the player's display name (their colour's
word without it). These names draw each distinct image once (`render.cache`).
"""

from render.cache import drawn_once
from render.cave_troll import cave, panel

cave_png = drawn_once(cave.cave_png)
panel_png = drawn_once(panel.panel_png)
chips_png = drawn_once(panel.chips_png)

__all__ = ["cave_png", "chips_png", "panel_png"]
