"""Refusals in the reader's language: a refused command or button is answered
privately, in the language of the player's Discord client.

- A service refusal (`ServiceError`) carries its sentence as a catalogue template and
  its parameters: a template the catalogue translates is told in the reader's
  language.
- An engine refusal (`rules.errors.RulesError`) carries a machine `code` (and the
  cell at fault, when there is one): the common codes are told here from the code,
  in the reader's language; the others keep the engine's English sentence (`ENGLISH_ONLY`
  lists the codes that do, for now).

A leaf like `bot.texts`: plain values in, text out.
"""

from __future__ import annotations

from bot.i18n.catalogue import ENGLISH, N_, Messages
from bot.service.errors import NotYourTurnError, ServiceError
from bot.texts import called_in, listed_in
from rules.errors import RulesError

# the engine's refusals told from their code alone
BY_CODE: dict[str, str] = {
    "not_your_turn": N_("It is not your turn: wait until the bot calls you."),
    "game_over": N_("The game is over."),
    "not_playing": N_("The game has not started yet: finish placing gates and the draft first."),
    "not_drafting": N_(
        "The starting-troll draft is not open now: it begins once every gate is placed"
        " and ends when everyone has kept four trolls."
    ),
    "draft_done": N_("You have already kept your four starting trolls."),
    "pyramid_full": N_("Your pyramid is complete: you must dig instead."),
    "hall_taken": N_("That great hall has already been dedicated."),
    "in_hall": N_("Not for a statue in a great hall."),
    "on_pedestal": N_("Not for a statue on a pedestal."),
    "not_connected": N_("A new tunnel must touch your own network along an edge."),
    "no_anchor": N_("This tile has no anchor for a pedestal."),
    "undo": N_(
        "Nothing to undo: you can only take back your own actions in this turn, and not"
        " past one that revealed a card."
    ),
}
# the engine's refusals told from their code and the cell at fault
BY_CODE_AT_CELL: dict[str, str] = {
    "off_board": N_("{cell} is off the mountain."),
    "heart": N_("{cell} is the Heart of the Mountain: nothing may cover it."),
    "site": N_("{cell} is a workshop site: tunnels may not cover it."),
    "occupied": N_("{cell} is already dug."),
    "touches_opponent": N_(
        "That tunnel would touch another player's network at {cell}; only diagonal contact"
        " with another player's network is allowed."
    ),
}
# the engine's codes still told in its English sentence in every language
ENGLISH_ONLY = (
    "notation (and record)",
    "config",
    "wrong_payment",
    "not_owned",
    "not_yours",
    "cannot_afford",
    "clan_cart",
    "no_statue",
    "buried",
    "too_far",
    "tier",
    "no_pedestal",
    "wrong_shape",
    "not_tunnel",
    "no_such_slot",
    "empty_slot",
    "bad_slot",
    "no_pedestal_choice",
    "no_such_hall",
    "no_such_seat",
    "not_in_hand",
    "slot_taken",
    "no_such_point",
    "wrong_point",
    "point_taken",
    "bad_trade",
    "pedestal_tier_used",
    "no_site",
    "site_taken",
    "site_not_adjacent",
    "no_workshop_left",
    "no_tile_left",
    "no_such_tile",
    "no_such_spell",
    "not_gates",
    "bad_conversion",
    "no_workshop",
    "one_workshop",
    "no_access",
    "no_uses_left",
    "not_from_troll",
    "bad_spell_choice",
)


def refusal_text(error: Exception, messages: Messages = ENGLISH) -> str:
    """What a refused player reads, in `messages`' language where the catalogue has
    the sentence, else in the English the error was raised with."""
    if messages is ENGLISH:
        return str(error)
    if isinstance(error, ServiceError):
        if messages.lookup(error.template) is None:
            return str(error)
        params = dict(error.params)
        if isinstance(error, NotYourTurnError) and error.waiting:
            # the seats awaited, named with their colours in the reader's language
            names = [called_in(label, name, ai, messages) for label, name, ai in error.waiting]
            params.update(player=names[0], players=listed_in(names, messages))
        return messages.gettext(error.template, **{k: params[k] for k in error.params})
    if isinstance(error, RulesError):
        if error.code in BY_CODE:
            return messages.gettext(BY_CODE[error.code])
        if error.code in BY_CODE_AT_CELL and error.cell is not None:
            return messages.gettext(BY_CODE_AT_CELL[error.code], cell=error.cell)
    return str(error)
