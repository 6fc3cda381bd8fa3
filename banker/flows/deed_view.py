"""The deed screen: a chosen title deed, its owner, buildings, mortgage and rent, and what the next key will do."""

from __future__ import annotations

from ..deeds import Deed
from ..entry import AmountEntry
from ..records import Card
from ..money import format_amount
from ..rules import HOTEL, interest, rent_due
from ..screen import Screen
from .. import views

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
        return f"Bank, price {format_amount(deed.price)}"
    if mortgaged:
        return f"{owner_name}, mortgaged"
    if houses == HOTEL:
        return f"{owner_name}, hotel"
    if houses:
        return f"{owner_name}, {houses} house{'s' if houses > 1 else ''}"
    return owner_name


def rent_line(edition, estate, deed: Deed) -> str:
    """The rent a visitor owes now (a utility's multiplier per dice pip), or why there is none."""
    owner = estate.owner(deed.slug)
    if estate.is_mortgaged(deed.slug):
        return f"No rent. Lift {format_amount(deed.mortgage + interest(edition, deed))}"
    if deed.kind == "utility":
        held = sum(1 for d in edition.group(deed.group) if owner is not None and estate.owner(d.slug) == owner)
        return f"Rent dice x {format_amount(deed.rents[max(held, 1) - 1])}"
    if owner is None:
        rent = deed.rents[0]
    else:
        rent = rent_due(edition, estate, deed.slug)
    line = f"Rent {format_amount(rent)}"
    if deed.is_street:
        line += f", house {format_amount(deed.house_cost)}"
    return line


def hint_line(ctx: str, deed: Deed, mortgaged: bool, entry: AmountEntry, unknown_tag: bool, minus: bool) -> str:
    """What the next key does, or the number being typed."""
    if not entry.empty:
        typed = entry.shown()
        if ctx == SALE:
            return f"Bid {typed} M/K"
        if ctx == TRADE:
            return f"Price {typed} M/K"
        if deed.kind == "utility":
            return f"Dice {typed} then GO"
        return typed
    if unknown_tag:
        return "FN: tag this deed"
    if ctx == SALE:
        return "M buys, GO: auction" if minus else "Buyer -, GO: auction"
    if ctx == OWNER:
        return "1 build 2 sell ." + ("lift" if mortgaged else "mortg")
    if ctx == TRADE:
        return "GO rent, price + M/K"
    if ctx == RENT:
        return "Dice total, then GO" if deed.kind == "utility" else "GO pays the rent"
    return "Card on the - reader"


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
