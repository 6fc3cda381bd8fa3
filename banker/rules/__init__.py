"""The rules engine: pure functions of a game position that return a Deal or refuse.

Every rule takes one positional argument, the game, and keyword-only
details::

    deal = rent(game, payer=2, slug="baltic-avenue")

The game is any :class:`Position`: an object with four attributes, which the
rules only read::

    game.edition    banker.rules.deeds.Edition       the deed set
    game.estate     banker.rules.estate.Estate  deeds, buildings, mortgages, jail cards
    game.balances   Mapping[int, int]           cash by card id, in dollars
    game.rules      RuleSettings                the house rules

The unit's :class:`banker.fold.game.Game` is one; so is the rules tests' ``Table``.
The worth functions take the game too: ``total_worth(game, player)``,
``end_game_worth(game, player)``, ``ranking(game, players)``.

A rule returns a :class:`Deal` (postings, estate changes, a one-line
summary, a kind) or raises :class:`banker.errors.Refused` having decided
nothing. The caller commits ``deal.to_transaction()`` to the ledger; the
fold (:func:`banker.fold.game.apply`) is the one place that checks funds and
refuses a transaction a payer cannot cover (:class:`~banker.errors.InsufficientFunds`,
with ``shortfall``).

Modules, by topic: ``position`` (what the rules read of a game), ``estate``
(ownership record and reversible changes), ``deal`` (the result),
``settings`` (house rules), ``holdings`` (questions about an estate),
``purchase``, ``rent``, ``buildings``, ``mortgages``, ``trades``,
``taxes``, ``bankruptcy``, ``worth``.
:func:`net_flows` is :func:`banker.journal.records.net_flows`, re-exported.
"""

from banker.journal.records import net_flows
from banker.rules.bankruptcy import bankrupt
from banker.rules.buildings import build, sell_building, sell_down
from banker.rules.deal import Deal
from banker.rules.estate import HOTEL, Estate, EstateConflict, apply, replay, reverse
from banker.rules.mortgages import interest, lift_cost, lift_mortgage, mortgage
from banker.rules.position import Position
from banker.rules.purchase import buy
from banker.rules.rent import rent, rent_due
from banker.rules.settings import SHORT_GAME, STANDARD, RuleSettings
from banker.rules.taxes import income_tax, income_tax_due, jail_fine, luxury_tax, pass_go
from banker.rules.trades import Offer, draw_jail_card, trade, use_jail_card
from banker.rules.worth import Standing, end_game_worth, ranking, total_worth

__all__ = [
    "HOTEL", "SHORT_GAME", "STANDARD",
    "Deal", "Estate", "EstateConflict", "Offer", "Position", "RuleSettings", "Standing",
    "apply", "bankrupt", "build", "buy", "draw_jail_card", "end_game_worth",
    "income_tax", "income_tax_due", "interest", "jail_fine", "lift_cost",
    "lift_mortgage", "luxury_tax", "mortgage", "net_flows", "pass_go", "ranking",
    "rent", "rent_due", "replay", "reverse", "sell_building", "sell_down",
    "total_worth", "trade", "use_jail_card",
]
