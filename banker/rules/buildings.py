"""Houses and hotels: building evenly on a whole unmortgaged group, selling back at half price, the bank's stock.

A lot climbs in *steps* of one house price: 1, 2, ... ``houses_for_hotel``
houses, then the hotel (which sends those houses back to the bank). In the
short game (``houses_for_hotel=3``) a lot therefore never holds a 4th house:
after 3 comes the hotel. Selling goes down the same steps at half the house
price each.

Shortage when selling a hotel: the hotel comes down to ``houses_for_hotel``
houses, which the bank must hand out. If it has too few, :func:`sell_building`
refuses ("Bank short: sell down") and :func:`sell_down` sells the whole group
down evenly in one deal to a number of houses the bank can cover (0 always
works).
"""

from __future__ import annotations

from banker.text.i18n import _
from banker.rules.deeds import Deed, Edition
from banker.errors import AmountError, Refused
from banker.journal.records import BANK
from banker.rules.deal import Deal, pay, require_amount
from banker.rules.estate import HOTEL, Estate, houses_change
from banker.rules.holdings import (
    group_has_mortgage,
    houses_at_step,
    owned_deeds,
    owns_group,
    require_owner,
    resale_per_step,
    step,
)
from banker.rules.position import Position
from banker.rules.settings import RuleSettings
from banker.text.i18n import LINE_WIDTH


def build(game: Position, *, player: int, slug: str, price: int | None = None) -> Deal:
    """``player`` buys the next building for the lot: a house, or the hotel once it has enough houses.

    Paid at the house price on the deed, or at ``price`` when a shortage
    auction set it: a price is refused unless the bank is short of what is
    built (:func:`house_shortage`, :func:`hotel_shortage`), so that no bid
    undercuts the deed when there is nothing to auction. Refused unless the
    player owns the whole group with no lot mortgaged, the lot is at the
    group's lowest step (even building), and the bank has the house or hotel.
    """
    estate = game.estate
    deed = game.edition.deed(slug)
    houses = estate.houses(slug)
    hotel = _next_is_hotel(game, deed, player)
    if hotel and estate.hotels_in_bank < 1:
        raise Refused(_('Bank has no hotels'))
    if not hotel and estate.houses_in_bank < 1:
        raise Refused(_('Bank has no houses'))
    what = "Hotel" if hotel else "House"
    if price is not None:
        (hotel_shortage if hotel else house_shortage)(game)
    amount = deed.house_cost if price is None else require_amount(price, "Bid")
    return Deal(
        postings=pay(player, BANK, amount, what.lower()),
        changes=(houses_change(estate, slug, HOTEL if hotel else houses + 1),),
        summary=_("Hotel on {deed}", deed=deed.short) if hotel else _("House on {deed}", deed=deed.short),
        kind="build",
    )


def next_is_hotel(game: Position, *, player: int, slug: str) -> bool:
    """Whether the lot's next building is the hotel; refused unless ``player`` may build on it now (the bank's
    stock aside)."""
    return _next_is_hotel(game, game.edition.deed(slug), player)


def require_house_lot(game: Position, *, player: int, slug: str) -> None:
    """Refuse unless ``player`` may put a house (not the hotel) on the lot now, whatever the bank has."""
    if _next_is_hotel(game, game.edition.deed(slug), player):
        raise Refused(_('Next is the hotel'))


def require_hotel_lot(game: Position, *, player: int, slug: str) -> None:
    """Refuse unless the lot's next building is the hotel and ``player`` may put it there now."""
    if not _next_is_hotel(game, game.edition.deed(slug), player):
        raise Refused(_('Next is a house'))


def house_lots(game: Position, player: int) -> tuple[str, ...]:
    """The slugs of ``player``'s lots that may take a house now (building evenly; not the hotel), board order."""
    lots = []
    for deed in owned_deeds(game.edition, game.estate, player):
        try:
            require_house_lot(game, player=player, slug=deed.slug)
        except Refused:
            continue
        lots.append(deed.slug)
    return tuple(lots)


def house_shortage(game: Position) -> None:
    """Refuse unless the bank is short of houses, so that a house goes to the highest bidder (the rules: when
    two or more players want more houses than the bank has, they are auctioned).

    The unit can't know what the players want, only what they may build:
    short means the bank has a house, at least two players have a lot that
    may take one now, and their lots could take more houses (up to
    ``houses_for_hotel`` each) than the bank has.
    """
    edition, estate = game.edition, game.estate
    if estate.houses_in_bank < 1:
        raise Refused(_('Bank has no houses'))
    owners = {estate.owner(deed.slug) for deed in edition.deeds if deed.is_street} - {None}
    builders = [player for player in owners if house_lots(game, player)]
    if len(builders) < 2:
        raise Refused(_('One player can build'))
    if _houses_wanted(game, builders) <= estate.houses_in_bank:
        raise Refused(_('No house shortage'))


def hotel_lots(game: Position, player: int) -> tuple[str, ...]:
    """The slugs of ``player``'s lots whose next building is the hotel (building evenly), board order."""
    lots = []
    for deed in owned_deeds(game.edition, game.estate, player):
        try:
            if _next_is_hotel(game, deed, player):
                lots.append(deed.slug)
        except Refused:
            continue
    return tuple(lots)


def hotel_shortage(game: Position) -> None:
    """Refuse unless the bank is short of hotels, so that a hotel goes to the highest bidder (the rules: hotels
    are auctioned like houses when several players want more than the bank has).

    Short means the bank has a hotel, at least two players have a lot whose
    next building is the hotel, and those lots are more than the bank's hotels.
    """
    estate = game.estate
    if estate.hotels_in_bank < 1:
        raise Refused(_('Bank has no hotels'))
    owners = {estate.owner(deed.slug) for deed in game.edition.deeds if deed.is_street} - {None}
    wanted = {player: len(hotel_lots(game, player)) for player in owners}
    if sum(1 for n in wanted.values() if n) < 2:
        raise Refused(_('One player can build'))
    if sum(wanted.values()) <= estate.hotels_in_bank:
        raise Refused(_('No hotel shortage'))


def _houses_wanted(game: Position, builders: list[int]) -> int:
    """The houses the ``builders``' lots could still take, each up to ``houses_for_hotel``."""
    edition, estate, rules = game.edition, game.estate, game.rules
    wanted = 0
    for player in builders:
        for deed in owned_deeds(edition, estate, player):
            if deed.is_street and _may_build(edition, estate, deed, player):
                houses = estate.houses(deed.slug)
                wanted += 0 if houses == HOTEL else rules.houses_for_hotel - houses
    return wanted


def sell_building(game: Position, *, player: int, slug: str) -> Deal:
    """``player`` sells the lot's top building (a house, or the hotel for its houses) back at half price.

    Refused if the lot is bare, if another lot of the group stands higher
    (even selling), or, for a hotel, if the bank lacks the houses it must
    give back (then use :func:`sell_down`).
    """
    edition, estate, rules = game.edition, game.estate, game.rules
    deed = edition.deed(slug)
    require_owner(estate, deed, player)
    houses = estate.houses(slug)
    if not houses:
        raise Refused(_('No buildings'))
    if step(houses, rules) < max(_steps(edition, estate, deed, rules)):
        raise Refused(_('Sell evenly'))
    hotel = houses == HOTEL
    if hotel and estate.houses_in_bank < rules.houses_for_hotel:
        raise Refused(_('Bank short: sell down'))
    after = rules.houses_for_hotel if hotel else houses - 1
    return Deal(
        postings=pay(BANK, player, resale_per_step(deed), "building-sale"),
        changes=(houses_change(estate, slug, after),),
        summary=_("Hotel off {deed}", deed=deed.short) if hotel else _("House off {deed}", deed=deed.short),
        kind="sell-building",
    )


def sell_down(game: Position, *, player: int, group: str, houses: int = 0) -> Deal:
    """``player`` sells the group's buildings evenly until no lot has more than ``houses`` houses.

    One deal for the whole group, at half price per step sold, so that
    hotels can come down even when the bank could not give the houses for
    a hotel-by-hotel sale; refused only if the bank cannot cover the houses
    left standing. ``houses=0`` clears the group and always works.
    """
    edition, estate, rules = game.edition, game.estate, game.rules
    lots = edition.group(group)
    if not 0 <= houses <= rules.houses_for_hotel:
        raise AmountError(_('Houses 0-{n}', n=rules.houses_for_hotel))
    for deed in lots:
        require_owner(estate, deed, player)
    changes, proceeds, houses_out = [], 0, 0
    for deed in lots:
        before = estate.houses(deed.slug)
        after = houses_at_step(min(step(before, rules), houses), rules)
        if after != before:
            changes.append(houses_change(estate, deed.slug, after))
            proceeds += (step(before, rules) - step(after, rules)) * resale_per_step(deed)
            houses_out += after - (0 if before == HOTEL else before)
    if not changes:
        raise Refused(_('Nothing to sell'))
    if houses_out > estate.houses_in_bank:
        raise Refused(_('Bank short of houses'))
    return Deal(
        postings=pay(BANK, player, proceeds, "building-sale"),
        changes=tuple(changes),
        summary=_("Sold down {group}", group=group).fitted(LINE_WIDTH),
        kind="sell-building",
    )


def _next_is_hotel(game: Position, deed: Deed, player: int) -> bool:
    """Refuse unless ``player`` may build on the lot now, the bank's stock aside; whether the next is the hotel."""
    edition, estate, rules = game.edition, game.estate, game.rules
    _require_buildable(edition, estate, deed, player)
    houses = estate.houses(deed.slug)
    if houses == HOTEL:
        raise Refused(_('Already a hotel'))
    if step(houses, rules) > min(_steps(edition, estate, deed, rules)):
        raise Refused(_('Build evenly'))
    return houses == rules.houses_for_hotel


def _may_build(edition: Edition, estate: Estate, deed: Deed, player: int) -> bool:
    try:
        _require_buildable(edition, estate, deed, player)
    except Refused:
        return False
    return True


def _require_buildable(edition: Edition, estate: Estate, deed: Deed, player: int) -> None:
    if not deed.is_street:
        raise Refused(_('Streets only'))
    require_owner(estate, deed, player)
    if not owns_group(edition, estate, player, deed.group):
        raise Refused(_('Own the whole group'))
    if group_has_mortgage(edition, estate, deed.group):
        raise Refused(_('Group has a mortgage'))


def _steps(edition: Edition, estate: Estate, deed: Deed, rules: RuleSettings) -> list[int]:
    return [step(estate.houses(d.slug), rules) for d in edition.group(deed.group)]
