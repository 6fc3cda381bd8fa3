"""The rules engine: pure functions of (edition, estate, balances, settings) that return a Deal or refuse.

Every rule takes the same four leading arguments and keyword-only details::

    deal = rent(edition, estate, balances, settings, payer=2, slug="baltic-avenue")

and returns a :class:`Deal` (postings, estate changes, a one-line summary,
a kind) or raises :class:`banker.errors.Refused` (or its
:class:`~banker.errors.InsufficientFunds`, with ``shortfall``) having
decided nothing. The caller commits ``deal.to_transaction()`` to the ledger
and ``apply(estate, deal.changes)`` to get the new estate.

Modules, by topic: ``estate`` (ownership record and reversible changes),
``deal`` (the result and the funds check), ``settings`` (house rules),
``holdings`` (questions about an estate), ``purchase``, ``rent``,
``buildings``, ``mortgages``, ``trades``, ``taxes``, ``bankruptcy``,
``worth``; ``table`` holds a whole game in memory for tests and scripts.
"""

from banker.rules.bankruptcy import bankrupt
from banker.rules.buildings import build, sell_building, sell_down
from banker.rules.deal import Deal, net_flows
from banker.rules.estate import HOTEL, Estate, EstateConflict, apply, replay, reverse
from banker.rules.mortgages import interest, lift_cost, lift_mortgage, mortgage
from banker.rules.purchase import buy
from banker.rules.rent import rent, rent_due
from banker.rules.settings import SHORT_GAME, STANDARD, RuleSettings
from banker.rules.table import Table
from banker.rules.taxes import income_tax, income_tax_due, jail_fine, luxury_tax, pass_go
from banker.rules.trades import Offer, draw_jail_card, trade, use_jail_card
from banker.rules.worth import Standing, end_game_worth, ranking, total_worth

__all__ = [
    "HOTEL", "SHORT_GAME", "STANDARD",
    "Deal", "Estate", "EstateConflict", "Offer", "RuleSettings", "Standing", "Table",
    "apply", "bankrupt", "build", "buy", "draw_jail_card", "end_game_worth",
    "income_tax", "income_tax_due", "interest", "jail_fine", "lift_cost",
    "lift_mortgage", "luxury_tax", "mortgage", "net_flows", "pass_go", "ranking",
    "rent", "rent_due", "replay", "reverse", "sell_building", "sell_down",
    "total_worth", "trade", "use_jail_card",
]
