"""Resources, clans and the tokens a player can spend.

Seven resources exist; stone, iron and heartstone are the minerals. Carts are the one
resource whose meaning depends on where it sits: a cart on a Fire, Ice or Moon cart
symbol of a troll is a clan cart, every other cart (storage, wild symbols) is wild.
"""

from __future__ import annotations

from enum import StrEnum


class Resource(StrEnum):
    STONE = "stone"
    IRON = "iron"
    HEARTSTONE = "heartstone"
    COIN = "coin"
    CART = "cart"
    HAMMER = "hammer"
    RUNE = "rune"

    @property
    def is_mineral(self) -> bool:
        return self in MINERALS


class Clan(StrEnum):
    MUD = "mud"
    FIRE = "fire"
    ICE = "ice"
    MOON = "moon"


RESOURCES: tuple[Resource, ...] = tuple(Resource)
MINERALS: tuple[Resource, ...] = (Resource.STONE, Resource.IRON, Resource.HEARTSTONE)
# Clans that have statues, pedestals and clan carts (the Mud clan has none).
STATUE_CLANS: tuple[Clan, ...] = (Clan.FIRE, Clan.ICE, Clan.MOON)

RESOURCE_BY_NAME: dict[str, Resource] = {r.value: r for r in Resource}
CLAN_BY_NAME: dict[str, Clan] = {c.value: c for c in Clan}
# a member's name as a dict gives it: much faster than `.value` or `Resource.X`, which
# go through the enum's Python-level machinery (the rules read them on every action)
NAME: dict[Resource | Clan, str] = {m: m.value for m in (*Resource, *Clan)}
COIN, HAMMER, CART, RUNE = Resource.COIN, Resource.HAMMER, Resource.CART, Resource.RUNE


def symbol_name(resource: Resource, cart_clan: Clan | None) -> str:
    """The name of a produce symbol or a spendable token: `coin`, `cart`, `fire-cart`."""
    if cart_clan is None:
        return resource.value
    return f"{cart_clan.value}-cart"


def parse_symbol(text: str) -> tuple[Resource, Clan | None]:
    """Inverse of `symbol_name`; raises KeyError on an unknown name."""
    if text.endswith("-cart"):
        clan = CLAN_BY_NAME[text[: -len("-cart")]]
        if clan not in STATUE_CLANS:
            raise KeyError(text)
        return Resource.CART, clan
    return RESOURCE_BY_NAME[text], None
