"""What one player may see of the game.

`view(state, viewer)` is the state as JSON with hidden things removed: the order of
every deck and of the pedestal bag (only their sizes and, for the bag, its clans remain,
since a level-3 recruit may look inside), other players' starting-troll hands and
decks, and the values of pedestal point tokens other players hold face down.
`viewer=None` is a spectator. Each board piece also says who owns it now (`owner`:
a seat, or None for a piece cut off from every gate).

The starting-troll draft is secret until everyone has kept their trolls: while it runs,
another player's pyramid is empty in the view (`"secret": true`) and another account's
storage (which the keeps fill) is empty too. `told_to` is the same rule for the stories
of past actions: what `/mk log` and "since your last turn" may tell a viewer.

The view's shape is `View` and the TypedDicts it holds: plain JSON data (dicts, lists,
strings, numbers) as `State.to_json` writes it, with the keys in the same order, so a
view serialises as it is and `view["players"][0]["pyramid"]` reads as any dict; the
types let mypy check what the images and the bot's face read of it. They cost nothing
at run time: `view` builds the dicts itself, with no check.
"""

from __future__ import annotations

from collections import Counter
from typing import Literal, TypedDict

from rules.scoring import current_scores, piece_owners
from rules.state import (
    Account,
    GameConfig,
    HordeSlot,
    Phase,
    Piece,
    Player,
    State,
    Turn,
    WorkshopMode,
)
from rules.steps import seats_to_act
from rules.story import Kept, Story, revealed_keep


class ConfigView(TypedDict):
    """The game's options (`GameConfig` as JSON)."""

    players: int
    side: Literal["winter", "autumn"] | None
    teams: bool
    workshops: WorkshopMode
    chosen_workshops: list[str]
    colours: list[str]
    edition: int


class TrollView(TypedDict):
    """A troll in a pyramid: its card and which of its produce symbols hold a resource."""

    card: str
    held: list[bool]


class PlayerView(TypedDict):
    """A seat: its pyramid (empty, with `secret`, for another player's in the secret
    draft), the size of its draft deck, and its draft hand: the cards for the viewer's
    own seat, their number for anyone else's."""

    seat: int
    colour: str
    team: int | None
    account: int
    pyramid: dict[str, TrollView]
    recruited_levels: int
    draft_deck: int
    draft_hand: list[str] | int
    secret: bool


class TokenView(TypedDict):
    """A pedestal point token; its `value` is None face down (another account's)."""

    tier: int
    clan: str
    value: int | None


class AccountView(TypedDict):
    """Storage and honor of a player, or of a team in team mode (another account's
    storage is empty in the secret draft)."""

    storage: dict[str, int]
    pedestals: dict[str, int]
    tokens: list[TokenView]
    coronation: list[int]
    tunnel_honor: int
    spell_honor: int


class HordeSlotView(TypedDict):
    """A place of the horde: its troll card (None when empty), the bribes on it and a
    level-2 place's pedestal (a clan)."""

    card: str | None
    bribes: list[str]
    pedestal: str | None


class SpellSlotView(TypedDict):
    spell: str
    runes: int


class PieceView(TypedDict):
    """A gate, tunnel or great hall on the mountain, with the seat that owns it now
    (`owner`: None when cut off from every gate; `seat` laid it)."""

    id: int
    kind: Literal["gate", "tunnel", "hall"]
    name: str
    seat: int
    cells: list[str]
    mineral: str | None
    anchor: str | None
    pedestal: str | None
    altar: str | None
    owner: int | None


class BoardView(TypedDict):
    """What lies on the mountain: pieces, statues (cell -> clan) and established
    workshops (site -> workshop id)."""

    pieces: list[PieceView]
    statues: dict[str, str]
    workshops: dict[str, str]
    next_id: int
    lost_pedestals: int


class TurnView(TypedDict):
    seat: int
    step: int
    spell_cast: bool
    workshop: str | None
    workshop_uses: int
    main_done: bool
    flags: list[str]
    undo_floor: int


class View(TypedDict):
    """What one player (or a spectator: `viewer` None) may see of the game: the state's
    JSON without its seed, the decks and the spell deck as their sizes and the pedestal
    bag as its clans, with who may act now (`to_act`) and the honor on the score track
    of each account (`scores`)."""

    config: ConfigView
    phase: Phase
    players: list[PlayerView]
    accounts: list[AccountView]
    horde: list[list[HordeSlotView]]
    decks: list[int]
    bag: dict[str, int]
    spellbook: list[SpellSlotView]
    spell_deck: int
    workshop_supply: list[str]
    coronation_left: list[int]
    pedestal_track: dict[str, int | None]
    tunnels_left: dict[str, int]
    halls_left: list[str]
    board: BoardView
    turn: TurnView | None
    gate_seat: int | None
    final_turns: int | None
    n_actions: int
    viewer: int | None
    to_act: list[int]
    scores: list[int]


def view(state: State, viewer: int | None) -> View:
    viewer_account = None if viewer is None else state.players[viewer].account
    drafting = in_secret_draft(state)
    owners = piece_owners(state)
    board = state.board
    return {
        "config": _config(state.config),
        "phase": state.phase,
        "players": [_player(p, viewer, drafting) for p in state.players],
        "accounts": [
            _account(a, mine=index == viewer_account, drafting=drafting)
            for index, a in enumerate(state.accounts)
        ],
        "horde": [[_horde_slot(s) for s in row] for row in state.horde],
        "decks": [len(deck) for deck in state.decks],
        "bag": dict(sorted(Counter(state.bag).items())),
        "spellbook": [{"spell": s.spell, "runes": s.runes} for s in state.spellbook],
        "spell_deck": len(state.spell_deck),
        "workshop_supply": list(state.workshop_supply),
        "coronation_left": list(state.coronation_left),
        "pedestal_track": dict(state.pedestal_track),
        "tunnels_left": dict(state.tunnels_left),
        "halls_left": list(state.halls_left),
        "board": {
            "pieces": [_piece(p, owners[p.id]) for p in board.pieces],
            "statues": dict(board.statues),
            "workshops": dict(board.workshops),
            "next_id": board.next_id,
            "lost_pedestals": board.lost_pedestals,
        },
        "turn": None if state.turn is None else _turn(state.turn),
        "gate_seat": state.gate_seat,
        "final_turns": state.final_turns,
        "n_actions": state.n_actions,
        "viewer": viewer,
        "to_act": seats_to_act(state),
        "scores": current_scores(state),
    }


def _config(config: GameConfig) -> ConfigView:
    return {
        "players": config.players,
        "side": config.side,
        "teams": config.teams,
        "workshops": config.workshops,
        "chosen_workshops": list(config.chosen_workshops),
        "colours": list(config.colours),
        "edition": config.edition,
    }


def _player(player: Player, viewer: int | None, drafting: bool) -> PlayerView:
    mine = player.seat == viewer
    secret = drafting and not mine
    pyramid: dict[str, TrollView] = (
        {}
        if secret
        else {s: {"card": t.card, "held": list(t.held)} for s, t in player.pyramid.items()}
    )
    return {
        "seat": player.seat,
        "colour": player.colour,
        "team": player.team,
        "account": player.account,
        "pyramid": pyramid,
        "recruited_levels": player.recruited_levels,
        "draft_deck": len(player.draft_deck),
        "draft_hand": list(player.draft_hand) if mine else len(player.draft_hand),
        "secret": secret,
    }


def _account(account: Account, *, mine: bool, drafting: bool) -> AccountView:
    return {
        "storage": {} if drafting and not mine else dict(account.storage),
        "pedestals": dict(account.pedestals),
        "tokens": [
            {"tier": t.tier, "clan": t.clan, "value": t.value if mine else None}
            for t in account.tokens
        ],
        "coronation": list(account.coronation),
        "tunnel_honor": account.tunnel_honor,
        "spell_honor": account.spell_honor,
    }


def _horde_slot(slot: HordeSlot) -> HordeSlotView:
    return {"card": slot.card, "bribes": list(slot.bribes), "pedestal": slot.pedestal}


def _piece(piece: Piece, owner: int | None) -> PieceView:
    return {
        "id": piece.id,
        "kind": piece.kind,
        "name": piece.name,
        "seat": piece.seat,
        "cells": list(piece.cells),
        "mineral": piece.mineral,
        "anchor": piece.anchor,
        "pedestal": piece.pedestal,
        "altar": piece.altar,
        "owner": owner,
    }


def _turn(turn: Turn) -> TurnView:
    return {
        "seat": turn.seat,
        "step": turn.step,
        "spell_cast": turn.spell_cast,
        "workshop": turn.workshop,
        "workshop_uses": turn.workshop_uses,
        "main_done": turn.main_done,
        "flags": list(turn.flags),
        "undo_floor": turn.undo_floor,
    }


def in_secret_draft(state: State) -> bool:
    """Whether the starting-troll draft is running (each player's keeps are theirs alone
    until everyone has kept)."""
    return state.phase == "draft"


def told_to(state: State, viewer: int | None, seat: int, story: Story) -> Story | None:
    """The story of `seat`'s past action as `viewer` (None: anyone) may hear it with the
    game at `state`: None while it is another player's keep in the running draft; a keep
    in the reveal's words once the draft is over, or to the player who kept it; any
    other story as it was told."""
    if not isinstance(story, Kept):
        return story
    if in_secret_draft(state) and seat != viewer:
        return None
    return revealed_keep(story)


def played_in_secret(story: Story) -> bool:
    """Whether the action was played in the secret draft: the draft's keeps are told
    together, as one turn of the whole table, once it is over."""
    return isinstance(story, Kept)
