"""Buying an unsold deed from the bank, at its printed price or at an auction's winning bid."""

from __future__ import annotations

from banker.text.i18n import _
from banker.errors import Refused
from banker.journal.records import BANK
from banker.rules.deal import Deal, pay, require_amount
from banker.rules.estate import owner_change
from banker.rules.position import Position


def buy(game: Position, *, buyer: int, slug: str, price: int | None = None) -> Deal:
    """``buyer`` buys the unsold deed from the bank.

    Without ``price`` at the printed price (kind ``"buy"``; also how deeds
    dealt at the start of a short game are paid); with ``price`` at that
    auction bid, any positive amount (kind ``"auction"``).
    """
    estate = game.estate
    deed = game.edition.deed(slug)
    if estate.owner(slug) is not BANK:
        raise Refused(_('{deed} is owned', deed=deed.short))
    kind = "buy" if price is None else "auction"
    amount = deed.price if price is None else require_amount(price, "Bid")
    return Deal(
        postings=pay(buyer, BANK, amount, kind),
        changes=(owner_change(estate, slug, buyer),),
        summary=_("Bought {deed}", deed=deed.short),
        kind=kind,
    )
