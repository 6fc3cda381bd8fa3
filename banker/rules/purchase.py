"""Buying an unsold deed from the bank, at its printed price or at an auction's winning bid."""

from __future__ import annotations

from banker.deeds import Edition
from banker.errors import Refused
from banker.ledger import BANK
from banker.rules.deal import Balances, Deal, pay, require_amount, settle
from banker.rules.estate import Estate, owner_change
from banker.rules.settings import RuleSettings


def buy(
    edition: Edition,
    estate: Estate,
    balances: Balances,
    settings: RuleSettings,
    *,
    buyer: int,
    slug: str,
    price: int | None = None,
) -> Deal:
    """``buyer`` buys the unsold deed from the bank.

    Without ``price`` at the printed price (kind ``"buy"``; also how deeds
    dealt at the start of a short game are paid); with ``price`` at that
    auction bid, any positive amount (kind ``"auction"``).
    """
    deed = edition.deed(slug)
    if estate.owner(slug) is not BANK:
        raise Refused(f"{deed.short} is owned")
    kind = "buy" if price is None else "auction"
    amount = deed.price if price is None else require_amount(price, "Bid")
    deal = Deal(
        postings=pay(buyer, BANK, amount, kind),
        changes=(owner_change(estate, slug, buyer),),
        summary=f"Bought {deed.short}",
        kind=kind,
    )
    return settle(deal, balances, settings)
