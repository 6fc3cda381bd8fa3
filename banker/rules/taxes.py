"""Fixed payments to and from the bank: the GO salary, Income Tax (flat or 10%), Luxury Tax and the jail fine."""

from __future__ import annotations

from banker.deeds import Edition
from banker.errors import Refused
from banker.ledger import BANK
from banker.rules.deal import Balances, Deal, pay, settle
from banker.rules.estate import Estate
from banker.rules.settings import RuleSettings
from banker.rules.worth import total_worth


def pass_go(
    edition: Edition,
    estate: Estate,
    balances: Balances,
    settings: RuleSettings,
    *,
    player: int,
    times: int = 1,
) -> Deal:
    """The bank pays the GO salary, ``times`` times (2: passed GO, then drew "Advance to GO")."""
    if times not in (1, 2):
        raise Refused("GO pays once or twice")
    deal = Deal(pay(BANK, player, edition.go_salary * times, "go"), (), "Passed GO", "go")
    return settle(deal, balances, settings)


def income_tax_due(
    edition: Edition, estate: Estate, balances: Balances, settings: RuleSettings, player: int, percent: bool = False
) -> int:
    """The flat Income Tax, or (``percent``) the edition's 10% of total worth, rounded down to a dollar."""
    if not percent:
        return edition.income_tax
    if not settings.income_tax_choice:
        raise Refused("10% option is off")
    return total_worth(edition, estate, balances, settings, player) * edition.income_tax_percent // 100


def income_tax(
    edition: Edition,
    estate: Estate,
    balances: Balances,
    settings: RuleSettings,
    *,
    player: int,
    percent: bool = False,
) -> Deal:
    """``player`` pays Income Tax: flat, or 10% of total worth when that option is on and chosen."""
    amount = income_tax_due(edition, estate, balances, settings, player, percent)
    deal = Deal(pay(player, BANK, amount, "income-tax"), (), "Income Tax", "income-tax")
    return settle(deal, balances, settings)


def luxury_tax(
    edition: Edition,
    estate: Estate,
    balances: Balances,
    settings: RuleSettings,
    *,
    player: int,
) -> Deal:
    """``player`` pays Luxury Tax (the edition's, or the older sets' amount set in ``settings``)."""
    amount = settings.luxury_tax or edition.luxury_tax
    deal = Deal(pay(player, BANK, amount, "luxury-tax"), (), "Luxury Tax", "luxury-tax")
    return settle(deal, balances, settings)


def jail_fine(
    edition: Edition,
    estate: Estate,
    balances: Balances,
    settings: RuleSettings,
    *,
    player: int,
) -> Deal:
    """``player`` pays the fine to leave jail."""
    deal = Deal(pay(player, BANK, edition.jail_fine, "jail-fine"), (), "Jail fine", "jail-fine")
    return settle(deal, balances, settings)
