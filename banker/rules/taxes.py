"""Fixed payments to and from the bank: the GO salary, Income Tax (flat or 10%), Luxury Tax and the jail fine
(taxes and the fine into the Free Parking pot instead, when the game has that house rule)."""

from __future__ import annotations

from banker.text.i18n import _
from banker.errors import Refused
from banker.journal.records import BANK
from banker.rules.deal import Deal, pay
from banker.rules.jackpot import fund
from banker.rules.position import Position
from banker.rules.worth import total_worth


def pass_go(game: Position, *, player: int, times: int = 1) -> Deal:
    """The bank pays the GO salary, ``times`` times (2: passed GO, then drew "Advance to GO")."""
    if times not in (1, 2):
        raise Refused(_('GO pays once or twice'))
    return Deal(pay(BANK, player, game.edition.go_salary * times, "go"), (), _("Passed GO"), "go")


def income_tax_due(game: Position, player: int, percent: bool = False) -> int:
    """The flat Income Tax, or (``percent``) the edition's 10% of total worth, rounded down to a dollar."""
    edition = game.edition
    if not percent:
        return edition.income_tax
    if not game.rules.income_tax_choice:
        raise Refused(_('{rate} option is off', rate="10%"))
    return total_worth(game, player) * edition.income_tax_percent // 100


def income_tax(game: Position, *, player: int, percent: bool = False) -> Deal:
    """``player`` pays Income Tax: flat, or 10% of total worth when that option is on and chosen."""
    amount = income_tax_due(game, player, percent)
    return Deal(pay(player, fund(game), amount, "income-tax"), (), _("Income Tax"), "income-tax")


def luxury_tax(game: Position, *, player: int) -> Deal:
    """``player`` pays Luxury Tax (the edition's, or the older sets' amount set in the game's rules)."""
    amount = game.rules.luxury_tax or game.edition.luxury_tax
    return Deal(pay(player, fund(game), amount, "luxury-tax"), (), _("Luxury Tax"), "luxury-tax")


def jail_fine(game: Position, *, player: int) -> Deal:
    """``player`` pays the fine to leave jail."""
    return Deal(pay(player, fund(game), game.edition.jail_fine, "jail-fine"), (), _("Jail fine"), "jail-fine")
