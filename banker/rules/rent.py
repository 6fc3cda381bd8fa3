"""Rent: what landing on another player's street, railroad or utility costs, and who is paid."""

from __future__ import annotations

from banker.text.i18n import _
from banker.rules.deeds import Deed, Edition
from banker.errors import AmountError, Refused
from banker.journal.records import BANK
from banker.rules.deal import Deal, pay
from banker.rules.estate import Estate
from banker.rules.holdings import owns_group
from banker.rules.position import Position


def rent_due(edition: Edition, estate: Estate, slug: str, dice: int | None = None) -> int:
    """The rent a visitor owes on the deed as the estate stands; 0 if unsold or mortgaged.

    Streets: the unimproved rent, doubled when the owner holds the whole
    colour group (mortgaged lots included), else the rent for its houses or
    hotel. Railroads: by how many railroads the owner holds (mortgaged ones
    count). Utilities: the dice total (2-12) times the multiplier for one or
    both owned; :class:`AmountError` without a valid ``dice``.
    """
    deed = edition.deed(slug)
    owner = estate.owner(slug)
    if owner is BANK or estate.is_mortgaged(slug):
        return 0
    if deed.kind == "street":
        return _street_rent(edition, estate, deed, owner)
    held = sum(1 for d in edition.group(deed.group) if estate.owner(d.slug) == owner)
    if deed.kind == "railroad":
        return deed.rents[held - 1]
    return _dice_total(dice) * deed.rents[held - 1]


def rent(game: Position, *, payer: int, slug: str, dice: int | None = None) -> Deal:
    """``payer`` landed on the deed and pays its owner the rent (``dice``: the roll, for a utility)."""
    edition, estate = game.edition, game.estate
    deed = edition.deed(slug)
    owner = estate.owner(slug)
    if owner is BANK:
        raise Refused(_('{deed} is unsold', deed=deed.short))
    if owner == payer:
        raise Refused(_('You own {deed}', deed=deed.short))
    if estate.is_mortgaged(slug):
        raise Refused(_('Mortgaged: no rent'))
    amount = rent_due(edition, estate, slug, dice)
    return Deal(
        postings=pay(payer, owner, amount, "rent"),
        changes=(),
        summary=_("Rent {deed}", deed=deed.short),
        kind="rent",
    )


def _street_rent(edition: Edition, estate: Estate, deed: Deed, owner: int) -> int:
    houses = estate.houses(deed.slug)
    if houses:
        return deed.rents[houses]
    doubled = owns_group(edition, estate, owner, deed.group)
    return deed.rents[0] * (2 if doubled else 1)


def _dice_total(dice: int | None) -> int:
    if not isinstance(dice, int) or isinstance(dice, bool) or not 2 <= dice <= 12:
        raise AmountError(_('Dice total 2-12'))
    return dice
