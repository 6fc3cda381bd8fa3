"""The Free Parking jackpot (a house rule): taxes and the jail fine go into a pot; who lands there takes it.

The pot is a party of its own in the postings (:data:`banker.journal.records.POT`),
so its money is in the ledger's balances and counts in every audit. When a
game has the rule (:attr:`RuleSettings.jackpot`, the seed), :func:`fund`
is where a tax or fine goes; :func:`take_pot` pays the whole pot to the
player and the bank puts the seed back in, in one deal.
"""

from __future__ import annotations

from banker.text.i18n import _
from banker.errors import Refused
from banker.money import format_amount
from banker.journal.records import BANK, POT
from banker.rules.deal import Deal, pay, require_amount
from banker.rules.position import Position


def fund(game: Position) -> int | None:
    """Where taxes and the jail fine go: the Free Parking pot when the game has one, else the bank."""
    return BANK if game.rules.jackpot is None else POT


def _seed(game: Position) -> int:
    if game.rules.jackpot is None:
        raise Refused(_('this game has no Free Parking pot'))
    return game.rules.jackpot


def take_pot(game: Position, *, player: int) -> Deal:
    """``player`` landed on Free Parking: the whole pot is theirs, and the bank seeds it again."""
    seed, pot = _seed(game), game.balances.get(POT, 0)
    if not pot:
        raise Refused(_('The pot is empty'))
    return Deal(pay(POT, player, pot, "pot") + pay(BANK, POT, seed, "pot-seed"), (),
                _("Free Parking {amount}", amount=format_amount(pot)), "pot")


def pay_pot(game: Position, *, player: int, amount: int) -> Deal:
    """``player`` pays ``amount`` into the pot (a card or a house rule that says so)."""
    _seed(game)
    return Deal(pay(player, POT, require_amount(amount), "to-pot"), (), _("Into the pot"), "to-pot")
