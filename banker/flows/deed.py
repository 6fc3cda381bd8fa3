"""The deed flow: a title deed chosen by its tag or ``FN`` + square; then one key buys, bids, charges rent or trades it.

Which key does what depends on the cards on the readers when it is pressed
(see :func:`banker.flows.deed_view.context`); the owner's keys (build, sell,
mortgage) are in :mod:`banker.flows.owner`. The deed stays chosen until
``C``, another deed, or every card is taken off the readers after one lay
there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import views
from ..entry import AmountEntry
from ..errors import AmountError, LedgerError, Refused
from ..events import Effect
from ..ledger import Card
from ..modes import FnMenu, PinEntry
from ..money import format_amount
from ..rules import Offer, buy, interest, rent, trade
from ..screen import Screen
from .common import Flow, act, card_moved, names, one_player_result, price_of, two_player_result
from .deed_view import OWNER, RENT, SALE, TRADE, context, deed_screen

if TYPE_CHECKING:
    from ..unit import Unit


class DeedMode(Flow):
    """A chosen deed. Digits and ``.`` type a bid, a price or the dice total; ``M``/``K``/``GO`` act."""

    def __init__(self, slug: str, *, cards_seen: bool = False) -> None:
        self.slug = slug
        self.entry = AmountEntry()
        self.cards_seen = cards_seen

    # -- what is on the table ----------------------------------------------------------

    def _state(self, unit: "Unit") -> tuple[str, Card | None, Card | None]:
        plus, minus = unit.cards_on_readers()
        if plus is not None or minus is not None:
            self.cards_seen = True
        return context(unit.ledger.estate().owner(self.slug), plus, minus), plus, minus

    def _unknown_uid(self, unit: "Unit") -> str | None:
        p = unit.panel
        return next((uid for uid in (p.left, p.right) if uid is not None and unit.ledger_card(uid) is None), None)

    def _owner_card(self, unit: "Unit") -> Card | None:
        owner = unit.ledger.estate().owner(self.slug)
        return next((c for c in unit.ledger.cards() if c.id == owner), None)

    def screen(self, unit: "Unit") -> Screen:
        ledger = unit.ledger
        edition, estate = ledger.edition(), ledger.estate()
        ctx, _, minus = self._state(unit)
        owner = estate.owner(self.slug)
        owner_name = None if owner is None else names(ledger).get(owner, f"card {owner}")
        return deed_screen(edition, estate, edition.deed(self.slug), owner_name, ctx, self.entry,
                           self._unknown_uid(unit) is not None, minus is not None)

    # -- keys --------------------------------------------------------------------------

    def press(self, unit: "Unit", key: str) -> list[Effect]:
        ctx, plus, minus = self._state(unit)
        if ctx == OWNER:
            from .owner import owner_key

            self.entry = AmountEntry()
            return owner_key(self, unit, key, minus)
        if (key.isdigit() or key == ".") and ctx in (RENT, TRADE) and not self._typing_for(unit, ctx, key):
            short = unit.ledger.edition().deed(self.slug).short
            return self.refuse(unit, f"{short} not yours", "GO pays the rent")
        if key.isdigit() or key == ".":
            try:
                self.entry = self.entry.type(key)
            except AmountError as exc:
                return unit.refuse(views.refused(str(exc)), keep_mode=True)
            return [unit.tone("key")]
        if key in ("M", "K"):
            return self._money_key(unit, key, ctx, plus, minus)
        if key == "GO":
            return self._rent(unit, minus)
        return unit.refuse(views.refused(f"{key}: no use here"), keep_mode=True)

    def _typing_for(self, unit: "Unit", ctx: str, key: str) -> bool:
        """Whether a digit or point types something here: a trade's price, or a utility's dice total."""
        if ctx == TRADE:
            return True
        return unit.ledger.edition().deed(self.slug).kind == "utility" and key != "."

    def refuse(self, unit: "Unit", *lines: str) -> list[Effect]:
        """Refuse with ``lines``; the deed stays chosen and the typed number is dropped."""
        self.entry = AmountEntry()
        return unit.refuse(views.refused(*lines), keep_mode=True)

    def _money_key(self, unit: "Unit", key: str, ctx: str, plus: Card | None, minus: Card | None) -> list[Effect]:
        deed = unit.ledger.edition().deed(self.slug)
        if ctx == SALE:
            if minus is None:
                return self.refuse(unit, "Buyer's card on", "the - reader")
            if self.entry.empty and key == "K":
                return self.refuse(unit, "Type the bid, then", "M or K (M alone:", "the printed price)")
            try:
                price = None if self.entry.empty else self.entry.finish(key)
            except AmountError as exc:
                return self.refuse(unit, str(exc))
            self.entry = AmountEntry()
            title = f"Bought {deed.short}" if price is None else f"Auction {deed.short}"
            return act(unit, buy, one_player_result(unit, minus, title), actor=minus,
                       buyer=minus.id, slug=self.slug, price=price)
        if ctx == TRADE:
            if self.entry.empty:
                return self.refuse(unit, "Type the price,", "then M or K", "(0 M: a gift)")
            try:
                price = price_of(self.entry, key, allow_zero=True)
            except AmountError as exc:
                return self.refuse(unit, str(exc))
            self.entry = AmountEntry()
            if unit.ledger.estate().is_mortgaged(self.slug):
                return unit.enter(LiftChoice(self.slug, seller=plus, buyer=minus, price=price))
            return sell_deed(unit, self.slug, plus, minus, price, lift=False)
        if ctx == RENT:
            return self.refuse(unit, "GO pays the rent;", "to buy it: owner's", "card on +, buyer -")
        return self.refuse(unit, "A player's card", "on the - reader")

    def _rent(self, unit: "Unit", minus: Card | None) -> list[Effect]:
        if minus is None:
            return self.refuse(unit, "Payer's card on", "the - reader")
        typed = self.entry.typed
        dice = int(typed) if typed.isdigit() else None
        owner = self._owner_card(unit)
        shown = two_player_result(unit, minus, owner) if owner is not None else one_player_result(unit, minus)
        self.entry = AmountEntry()
        return act(unit, rent, shown, actor=minus, payer=minus.id, slug=self.slug, dice=dice)

    def fn(self, unit: "Unit") -> list[Effect]:
        """``FN``: tag this deed with the unknown card lying on a reader, else the FN menu."""
        uid = self._unknown_uid(unit)
        if uid is None:
            return unit.enter(FnMenu())
        if unit.pin_is_set():
            return unit.enter(PinEntry("authorise", then=lambda: tag_deed(unit, self.slug, uid)))
        return tag_deed(unit, self.slug, uid)

    def cards_changed(self, unit: "Unit") -> list[Effect]:
        """Every card taken off the readers after one lay there: the deed is put away."""
        plus_uid, minus_uid = unit.panel.left, unit.panel.right
        if plus_uid is None and minus_uid is None and self.cards_seen:
            unit.leave()
            return unit.show(views.message(unit.ledger.edition().deed(self.slug).short, "put away"))
        self._state(unit)
        return [unit.tone("key")]

    def cancel(self, unit: "Unit") -> list[Effect]:
        """``C`` clears a typed number first, then puts the deed away."""
        if not self.entry.empty:
            self.entry = AmountEntry()
            return [unit.tone("key")]
        return super().cancel(unit)


class LiftChoice(Flow):
    """A mortgaged deed changes hands: the buyer pays the 10% now (``M``) or lifts the mortgage too (``.``)."""

    def __init__(self, slug: str, *, seller: Card, buyer: Card, price: int) -> None:
        self.slug, self.seller, self.buyer, self.price = slug, seller, buyer, price

    def screen(self, unit: "Unit") -> Screen:
        deed = unit.ledger.edition().deed(self.slug)
        fee = interest(unit.ledger.edition(), deed)
        return views.screen(
            f"Mortgaged: {self.buyer.name}",
            f"M: pays 10% {format_amount(fee)}",
            f".: lifts it {format_amount(fee + deed.mortgage)}",
            f"then {format_amount(self.price)} to {self.seller.name}",
        )

    def cards_changed(self, unit: "Unit") -> list[Effect]:
        return card_moved(unit)

    def press(self, unit: "Unit", key: str) -> list[Effect]:
        if key not in ("M", "."):
            return unit.refuse(views.refused("M: keep mortgaged", ".: lift it now", "C: cancel"), keep_mode=True)
        return sell_deed(unit, self.slug, self.seller, self.buyer, self.price, lift=key == ".")


def sell_deed(unit: "Unit", slug: str, seller: Card, buyer: Card, price: int, *, lift: bool) -> list[Effect]:
    """The buyer (on -) pays the seller (on +) the agreed price for the deed, all in one trade."""
    return act(unit, trade, two_player_result(unit, buyer, seller), actor=buyer,
               first=seller.id, second=buyer.id, first_gives=Offer(deeds=(slug,)),
               second_gives=Offer(cash=price), lift_now=(slug,) if lift else ())


def tag_deed(unit: "Unit", slug: str, uid: str) -> list[Effect]:
    """Enrol ``uid`` as the RFID tag of the deed ``slug``."""
    unit.leave()
    try:
        unit.ledger.enrol_deed(slug, uid)
    except Refused as exc:
        return unit.refuse(views.refused(str(exc)))
    except LedgerError as exc:
        return unit.refuse(views.not_saved(str(exc)))
    deed = unit.ledger.edition().deed(slug)
    return unit.show(views.message("Tag enrolled", deed.short, "Tap it to choose it"), "success")

