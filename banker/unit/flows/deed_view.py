"""The deed screen: a chosen title deed, its owner, buildings, mortgage and rent, and what the next key will do."""

from __future__ import annotations

from banker.text.i18n import _, _n
from banker.rules.deeds import Deed
from banker.unit.entry import AmountEntry
from banker.journal.records import Card
from banker.money import format_amount
from banker.rules import HOTEL, interest, rent_due
from banker.unit.screen import Screen
from banker.unit import views

#: What a key does on a chosen deed depends on the cards on the readers (see :func:`context`).
SALE, OWNER, TRADE, RENT, NO_CARD = "sale", "owner", "trade", "rent", "no-card"


def context(owner: int | None, plus: Card | None, minus: Card | None) -> str:
    """Which keys act: ``sale`` (unsold), ``owner`` (the owner's card on -), ``trade`` (owner on +, buyer on -),
    ``rent`` (another player's card on -), ``no-card``."""
    if owner is None:
        return SALE
    if minus is not None and minus.id == owner:
        return OWNER
    if minus is not None and plus is not None and plus.id == owner:
        return TRADE
    if minus is not None:
        return RENT
    return NO_CARD


def status_line(deed: Deed, owner_name: str | None, houses: int, mortgaged: bool) -> str:
    """Who owns the deed and what stands on it: ``Bank, price 4M``, ``Alice, 2 houses``, ``Alice, mortgaged``."""
    if owner_name is None:
        return _('Bank, price {amount}', amount=format_amount(deed.price))
    if mortgaged:
        return _('{name}, mortgaged', name=owner_name)
    if houses == HOTEL:
        return _('{name}, hotel', name=owner_name)
    if houses:
        return _n('{name}, {n} house', '{name}, {n} houses', houses, name=owner_name)
    return owner_name


def rent_line(edition, estate, deed: Deed) -> str:
    """The rent a visitor owes now (a utility's multiplier per dice pip), or why there is none."""
    owner = estate.owner(deed.slug)
    if estate.is_mortgaged(deed.slug):
        return _('No rent. Lift {amount}', amount=format_amount(deed.mortgage + interest(edition, deed)))
    if deed.kind == "utility":
        held = sum(1 for d in edition.group(deed.group) if owner is not None and estate.owner(d.slug) == owner)
        return _('Rent dice x {amount}', amount=format_amount(deed.rents[max(held, 1) - 1]))
    if owner is None:
        rent = deed.rents[0]
    else:
        rent = rent_due(edition, estate, deed.slug)
    if deed.is_street:
        return _('Rent {amount}, house {cost}', amount=format_amount(rent), cost=format_amount(deed.house_cost))
    return _('Rent {amount}', amount=format_amount(rent))


def hint_line(ctx: str, deed: Deed, mortgaged: bool, entry: AmountEntry, unknown_tag: bool, minus: bool) -> str:
    """What the next key does, or the number being typed."""
    if not entry.empty:
        return _typed_hint(ctx, deed, entry.shown())
    if unknown_tag:
        return _('FN: tag this deed')
    if ctx == SALE:
        return _('M buys, GO: auction') if minus else _('Buyer -, GO: auction')
    if ctx == OWNER:
        return _('1 build 2 sell .lift') if mortgaged else _('1 build 2 sell .mortg')
    if ctx == TRADE:
        return _('GO rent, price + M/K')
    if ctx == RENT:
        return _('Dice total, then GO') if deed.kind == "utility" else _('GO pays the rent')
    return _('Card on the - reader')


def _typed_hint(ctx: str, deed: Deed, typed: str) -> str:
    """The number being typed, with what it is: a bid, a price, a utility's dice."""
    if ctx == SALE:
        return _('Bid {typed} M/K', typed=typed)
    if ctx == TRADE:
        return _('Price {typed} M/K', typed=typed)
    if deed.kind == "utility":
        return _('Dice {typed} then GO', typed=typed)
    return typed


def deed_screen(edition, estate, deed: Deed, owner_name: str | None, ctx: str, entry: AmountEntry,
                unknown_tag: bool, minus: bool) -> Screen:
    """The four lines shown while a deed is chosen."""
    mortgaged = estate.is_mortgaged(deed.slug)
    return views.screen(
        f"{deed.position:02d} {deed.short}",
        status_line(deed, owner_name, estate.houses(deed.slug), mortgaged),
        rent_line(edition, estate, deed),
        hint_line(ctx, deed, mortgaged, entry, unknown_tag, minus),
    )
