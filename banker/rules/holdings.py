"""Questions the rules ask of an estate: whose deed, whole group, buildings, mortgages, building steps and costs."""

from __future__ import annotations

from banker.text.i18n import _
from banker.rules.deeds import Deed, Edition
from banker.errors import Refused
from banker.rules.estate import HOTEL, Estate
from banker.rules.settings import RuleSettings


def require_owner(estate: Estate, deed: Deed, player: int) -> None:
    """Refuse unless ``player`` owns the deed."""
    if estate.owner(deed.slug) != player:
        raise Refused(_('{deed} not yours', deed=deed.short))


def owns_group(edition: Edition, estate: Estate, player: int | None, group: str) -> bool:
    """Whether ``player`` owns every deed of the group (mortgaged or not)."""
    return player is not None and all(estate.owner(d.slug) == player for d in edition.group(group))


def group_is_built(edition: Edition, estate: Estate, group: str) -> bool:
    """Whether any lot of the group has a house or hotel."""
    return any(estate.houses(d.slug) for d in edition.group(group))


def group_has_mortgage(edition: Edition, estate: Estate, group: str) -> bool:
    return any(estate.is_mortgaged(d.slug) for d in edition.group(group))


def owned_deeds(edition: Edition, estate: Estate, player: int) -> tuple[Deed, ...]:
    """The player's deeds in board order (the sold deeds looked through, not the board's)."""
    return edition.in_board_order(slug for slug, owner in estate.owners.items() if owner == player)


def step(houses: int, rules: RuleSettings) -> int:
    """How many house prices the buildings on a lot cost: the houses, or a hotel as ``houses_for_hotel`` + 1."""
    return rules.houses_for_hotel + 1 if houses == HOTEL else houses


def houses_at_step(level: int, rules: RuleSettings) -> int:
    """The ``houses`` value (0-4, ``HOTEL``) for a building step: the inverse of :func:`step`."""
    return HOTEL if level > rules.houses_for_hotel else level


def buildings_cost(deed: Deed, estate: Estate, rules: RuleSettings) -> int:
    """What the buildings on the lot cost to build (a hotel including the houses turned in)."""
    return step(estate.houses(deed.slug), rules) * deed.house_cost


def resale_per_step(deed: Deed) -> int:
    """What the bank pays for one house (or for the hotel step): half the house price."""
    return deed.house_cost // 2
