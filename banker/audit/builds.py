"""What the audit checks of a building bought: at the deed's house price, or at a bid only in a real shortage.

The fold keeps opening ledgers written before the rule (a build at a bid
with the bank not short, made by ``4`` and a price): such a record still
folds, and the audit names it. New ones are refused where they are made
(:func:`banker.rules.buildings.build`).
"""

from __future__ import annotations

from banker.audit.findings import Problem
from banker.errors import Refused
from banker.fold.game import Game
from banker.money import format_amount
from banker.journal.records import HousesChange, Transaction
from banker.rules.buildings import hotel_shortage, house_shortage
from banker.rules.deeds import UnknownDeed
from banker.rules.estate import HOTEL


def building_price(tx: Transaction, game: Game) -> list[Problem]:
    """A ``build`` transaction paid other than its deed's house price while the bank (in ``game``, the position
    before it) was not short of what it built: the problem, else nothing."""
    if tx.kind != "build" or len(tx.changes) != 1 or type(tx.changes[0]) is not HousesChange:
        return []
    change = tx.changes[0]
    try:
        deed = game.edition.deed(change.slug)
    except (UnknownDeed, LookupError, Refused):
        return []
    paid = sum(p.amount for p in tx.postings)
    if paid == deed.house_cost:
        return []
    hotel = change.after == HOTEL
    try:
        (hotel_shortage if hotel else house_shortage)(game)
    except Refused as why:
        what = "a hotel" if hotel else "a house"
        return [Problem(tx.id, f"builds {what} on {deed.name} for {format_amount(paid)}, not the deed's "
                               f"{format_amount(deed.house_cost)}, with the bank not short ({why})")]
    return []
