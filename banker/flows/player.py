"""The player menu (``FN GO``): taxes, the jail fine and jail cards, passing GO twice, bankruptcy, worth.

The cards on the readers say who: the card on ``-`` pays (taxes, fine) or
acts (uses a jail card, goes bankrupt), the card on ``+`` receives (GO
twice, a jail card drawn, the creditor). With no card the menu is the game
menu (:mod:`banker.flows.game`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import views
from ..events import Effect
from ..ledger import BANK, Card, Posting, Transaction
from ..money import format_amount, format_signed
from ..rules import (
    Offer,
    bankrupt,
    draw_jail_card,
    income_tax,
    jail_fine,
    luxury_tax,
    trade,
    use_jail_card,
)
from ..screen import Screen
from .common import (
    AmountFlow,
    Flow,
    act,
    card_moved,
    end_worth_of,
    one_player_result,
    rule_settings,
    two_player_result,
    worth_of,
)
from .game import GameMenu, game_over_line

if TYPE_CHECKING:
    from ..unit import Unit


class PlayerMenu(Flow):
    """``FN GO``: one key picks the action for the cards on the readers."""

    def screen(self, unit: "Unit") -> Screen:
        plus, minus = unit.cards_on_readers()
        if minus is not None:
            to = f"to {plus.name}" if plus is not None and plus != minus else "to bank"
            return views.screen(f"- {minus.name}: 1 Income", "2 Luxury  3 Jail fine",
                                "4 Jail card 0 Worth" if plus is None else "4 Buy jail card",
                                f"5 Bankrupt {to}")
        if plus is not None:
            return views.screen(f"+ {plus.name}", "GO: passed GO twice", "4 Drew a jail card", "0 Worth")
        return GameMenu().screen(unit)

    def press(self, unit: "Unit", key: str) -> list[Effect]:
        plus, minus = unit.cards_on_readers()
        if minus is not None:
            return self._minus_key(unit, key, plus, minus)
        if plus is not None:
            return self._plus_key(unit, key, plus)
        menu = GameMenu()
        unit.enter(menu)
        return menu.key(unit, key)

    def _minus_key(self, unit: "Unit", key: str, plus: Card | None, minus: Card) -> list[Effect]:
        if plus is not None and plus.id == minus.id:
            return unit.refuse(views.same_card(), keep_mode=True)
        shown = one_player_result(unit, minus)
        if key == "1":
            if rule_settings(unit.ledger).income_tax_choice:
                return unit.enter(TaxChoice(minus))
            return act(unit, income_tax, shown, actor=minus, player=minus.id)
        if key == "2":
            return act(unit, luxury_tax, shown, actor=minus, player=minus.id)
        if key == "3":
            return act(unit, jail_fine, shown, actor=minus, player=minus.id)
        if key == "4" and plus is None:
            return act(unit, use_jail_card, shown, actor=minus, player=minus.id)
        if key == "4":
            return unit.enter(JailCardSale(seller=plus, buyer=minus))
        if key == "5":
            return unit.enter(ConfirmBankrupt(minus, plus))
        if key == "0" and plus is None:
            return show_worth(unit, minus)
        if key == "GO":
            return unit.refuse(views.refused("GO twice: the card", "on + alone"), keep_mode=True)
        return unit.refuse(views.refused("1 Income 2 Luxury", "3 Jail fine 4 Jail cd", "5 Bankrupt 0 Worth"),
                           keep_mode=True)

    def _plus_key(self, unit: "Unit", key: str, plus: Card) -> list[Effect]:
        if key == "GO":
            return go_twice(unit, plus)
        if key == "4":
            return act(unit, draw_jail_card, one_player_result(unit, plus, "Got jail card"), actor=plus,
                       player=plus.id)
        if key == "0":
            return show_worth(unit, plus)
        return unit.refuse(views.refused("GO: passed GO twice", "4 Drew a jail card", "0 Worth"), keep_mode=True)


def go_twice(unit: "Unit", card: Card) -> list[Effect]:
    """Passed GO, then drew "Advance to GO": the bank pays the GO salary twice."""
    unit.leave()
    amount = 2 * unit.ledger.game().settings.go_salary
    tx = Transaction("go", (Posting(BANK, card.id, amount, "go"),), "Passed GO twice")

    def shown() -> Screen:
        return views.screen(f"{card.name} {format_signed(amount)}", format_amount(unit.ledger.balance(card.id)),
                            "Passed GO twice", big=1)

    return unit.commit(tx, shown)


def show_worth(unit: "Unit", card: Card) -> list[Effect]:
    """The player's total worth (what 10% Income Tax counts) and the end-of-game value."""
    unit.leave()
    ledger = unit.ledger
    return unit.show(views.screen(
        f"{card.name} worth",
        format_amount(worth_of(ledger, card.id)),
        f"Cash {format_amount(ledger.balance(card.id))}",
        f"End value {format_amount(end_worth_of(ledger, card.id))}",
        big=1,
    ))


class TaxChoice(Flow):
    """Income Tax with the older 10% option on: the player chooses before the worth is counted."""

    def __init__(self, player: Card) -> None:
        self.player = player

    def screen(self, unit: "Unit") -> Screen:
        flat = unit.ledger.edition().income_tax
        return views.screen(f"{self.player.name}: Income Tax", f"1 pays {format_amount(flat)}",
                            "2 pays 10% of worth", "(choose, then count)")

    def cards_changed(self, unit: "Unit") -> list[Effect]:
        return card_moved(unit)

    def press(self, unit: "Unit", key: str) -> list[Effect]:
        if key not in ("1", "2"):
            return unit.refuse(views.refused("1 flat  2 10%"), keep_mode=True)
        return act(unit, income_tax, one_player_result(unit, self.player), actor=self.player,
                   player=self.player.id, percent=key == "2")


class JailCardSale(AmountFlow):
    """The ``-`` card buys a Get Out of Jail Free card from the ``+`` card: the price, then ``M``/``K``."""

    hint = "Price, then M or K"
    allow_zero = True

    def __init__(self, *, seller: Card, buyer: Card) -> None:
        self.seller, self.buyer = seller, buyer

    def screen(self, unit: "Unit") -> Screen:
        return views.screen(f"{self.buyer.name} buys jail", f"card from {self.seller.name}",
                            f"Price {self.entry.shown()}", "then M/K (0 M: free)")

    def cards_changed(self, unit: "Unit") -> list[Effect]:
        return card_moved(unit)

    def priced(self, unit: "Unit", price: int) -> list[Effect]:
        return act(unit, trade, two_player_result(unit, self.buyer, self.seller), actor=self.buyer,
                   first=self.seller.id, second=self.buyer.id, first_gives=Offer(jail_cards=1),
                   second_gives=Offer(cash=price))


class ConfirmBankrupt(Flow):
    """``5``: the ``-`` player retires, owing the ``+`` player (or the bank); ``M`` confirms.

    Owing a player who inherits mortgaged deeds, ``.`` confirms too and has
    the creditor lift those mortgages at once (the principal with the 10%
    interest), instead of later at the principal plus 10% more.
    """

    def __init__(self, debtor: Card, creditor: Card | None) -> None:
        self.debtor, self.creditor = debtor, creditor

    def _to(self) -> str:
        return "the bank" if self.creditor is None else self.creditor.name

    def _mortgaged(self, unit: "Unit") -> tuple[str, ...]:
        estate = unit.ledger.estate()
        return tuple(slug for slug in estate.deeds_of(self.debtor.id) if estate.is_mortgaged(slug))

    def screen(self, unit: "Unit") -> Screen:
        if self.creditor is not None and self._mortgaged(unit):
            return views.screen(f"{self.debtor.name} bankrupt?", f"All goes to {self._to()}",
                                "M: yes  .: and lift", "C: no")
        return views.screen(f"{self.debtor.name} bankrupt?", f"All goes to {self._to()}", "M: yes  C: no")

    def cards_changed(self, unit: "Unit") -> list[Effect]:
        return card_moved(unit)

    def press(self, unit: "Unit", key: str) -> list[Effect]:
        lift = key == "." and self.creditor is not None and self._mortgaged(unit)
        if key != "M" and not lift:
            return unit.refuse(views.refused("M: bankrupt", "C: not bankrupt"), keep_mode=True)

        def shown(deal) -> Screen:
            over = game_over_line(unit.ledger)
            after = over or ("Auction the deeds" if self.creditor is None else "")
            return views.screen(f"{self.debtor.name} retires", f"All to {self._to()}", *([after] if after else []),
                                *(["FN GO 0: ranking"] if over else []))

        return act(unit, bankrupt, shown, actor=self.creditor, memo=f"{self.debtor.name} bankrupt to {self._to()}",
                   debtor=self.debtor.id, creditor=BANK if self.creditor is None else self.creditor.id,
                   lift_now=self._mortgaged(unit) if lift else ())
