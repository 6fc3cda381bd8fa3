"""The player menu (``FN GO``): taxes, the jail fine and jail cards, passing GO twice, bankruptcy, worth, a whole
deal between the two cards (``7``, :mod:`banker.unit.flows.trade`), and with the Free Parking house rule the pot (``6``:
paid into from ``-``, taken on ``+``).

The cards on the readers say who: the card on ``-`` pays (taxes, fine) or
acts (uses a jail card, goes bankrupt), the card on ``+`` receives (GO
twice, a jail card drawn, the creditor). With no card the menu is the game
menu (:mod:`banker.unit.flows.game_menu`).
"""

from __future__ import annotations

from dataclasses import dataclass

from banker.text.i18n import _
from banker.unit import views
from banker.unit.entry import AmountEntry
from banker.unit.events import Key
from banker.fold.game import Game
from banker.unit.modes.base import STAY, Ctx, Reply, card_moved
from banker.money import format_amount, format_signed
from banker.journal.records import BANK, Card, Posting, Transaction
from banker.rules import Offer, bankrupt, draw_jail_card, income_tax, jail_fine, luxury_tax, trade, use_jail_card
from banker.unit.screen import Screen
from banker.rules.standings import end_worth_of, game_over_line, worth_of
from banker.unit.flows.common import AmountFlow, Flow, act, one_player_result, two_player_result
from banker.unit.flows.game_menu import GameMenu
from banker.unit.flows.game_options import PayPot, take_pot
from banker.unit.flows.trade import start_deal


@dataclass(frozen=True)
class PlayerMenu(Flow):
    """``FN GO``: one key picks the action for the cards on the readers."""

    def screen(self, ctx: Ctx) -> Screen:
        plus, minus = ctx.cards_on_readers()
        pot = ctx.game.pot is not None
        if minus is not None:
            to = _('to {name}', name=plus.name) if plus is not None and plus != minus else _('to bank')
            if pot and plus is None:
                return views.screen(_('- {name}: 1 Income', name=minus.name), _('2 Luxury  3 Jail fine'), _('4 Jail card  6 To pot'),
                                    _('5 Bankrupt  0 Worth'))
            return views.screen(_('- {name}: 1 Income', name=minus.name), _('2 Luxury  3 Jail fine'),
                                _('4 Jail card 0 Worth') if plus is None else _('4 Buy jail cd 7 Deal'),
                                _('5 Bankrupt {to}', to=to))
        if plus is not None:
            return views.screen(f"+ {plus.name}", _('GO: passed GO twice'), _('4 Drew a jail card'),
                                _('0 Worth  6 Take pot') if pot else _('0 Worth'))
        return GameMenu().screen(ctx)

    def press(self, ctx: Ctx, key: Key) -> Reply:
        plus, minus = ctx.cards_on_readers()
        if minus is not None:
            return self._minus_key(ctx, key, plus, minus)
        if plus is not None:
            return self._plus_key(ctx, key, plus)
        return GameMenu().key(ctx, key)

    def _minus_key(self, ctx: Ctx, key: Key, plus: Card | None, minus: Card) -> Reply:
        if plus is not None and plus.id == minus.id:
            return ctx.refuse(views.same_card(), then=STAY)
        if key in (Key.D1, Key.D2, Key.D3):
            return _pay_bank(ctx, key, minus)
        if key == Key.D5:
            out = next((c for c in (minus, plus) if c is not None and c.id in ctx.game.estate.retired), None)
            if out is not None:  # a player already out is neither offered as the creditor nor goes bankrupt again
                return ctx.refuse(views.retired(out), then=STAY)
            return ctx.enter(ConfirmBankrupt(minus, plus))
        reply = _minus_alone_key(ctx, key, minus) if plus is None else _pair_key(ctx, key, plus, minus)
        if reply is not None:
            return reply
        if key == Key.GO:
            return ctx.refuse(views.refused(_('GO twice: the card'), _('on + alone')), then=STAY)
        last = _('5 Bankrupt 0 Worth') if plus is None else _('5 Bankrupt 7 Deal')
        return ctx.refuse(views.refused(_('1 Income 2 Luxury'), _('3 Jail fine 4 Jail cd'), last), then=STAY)

    def _plus_key(self, ctx: Ctx, key: Key, plus: Card) -> Reply:
        if key == Key.GO:
            return go_twice(ctx, plus)
        if key == Key.D4:
            return act(ctx, draw_jail_card, one_player_result(plus, _('Got jail card')), actor=plus, player=plus.id)
        if key == Key.D0:
            return show_worth(ctx, plus)
        if key == Key.D6 and ctx.game.pot is not None:
            return take_pot(ctx, plus)
        return ctx.refuse(views.refused(_('GO: passed GO twice'), _('4 Drew a jail card'), _('0 Worth')), then=STAY)


def _pay_bank(ctx: Ctx, key: Key, minus: Card) -> Reply:
    """1 Income Tax (or the choice of how, where the rules give one), 2 Luxury Tax, 3 the jail fine: to the bank."""
    shown = one_player_result(minus)
    if key == Key.D1 and ctx.game.rules.income_tax_choice:
        return ctx.enter(TaxChoice(minus))
    pays = {Key.D1: income_tax, Key.D2: luxury_tax, Key.D3: jail_fine}[key]
    return act(ctx, pays, shown, actor=minus, player=minus.id)


def _minus_alone_key(ctx: Ctx, key: Key, minus: Card) -> Reply | None:
    """The keys of the - card alone: 4 use a jail card, 0 its worth, 6 pay into the pot (when there is one)."""
    if key == Key.D4:
        return act(ctx, use_jail_card, one_player_result(minus), actor=minus, player=minus.id)
    if key == Key.D0:
        return show_worth(ctx, minus)
    if key == Key.D6 and ctx.game.pot is not None:
        return ctx.enter(PayPot(payer=minus))
    return None


def _pair_key(ctx: Ctx, key: Key, plus: Card, minus: Card) -> Reply | None:
    """The keys of a + and a - card: 4 the - player buys the + player's jail card, 7 a deal between them."""
    if key == Key.D4:
        return ctx.enter(JailCardSale(seller=plus, buyer=minus))
    if key == Key.D7:
        return start_deal(ctx, first=plus, second=minus)
    return None


def go_twice(ctx: Ctx, card: Card) -> Reply:
    """Passed GO, then drew "Advance to GO": the bank pays the GO salary twice."""
    amount = 2 * ctx.game.settings.go_salary
    tx = ctx.game.numbered(Transaction("go", (Posting(BANK, card.id, amount, "go"),), "Passed GO twice"))

    def shown(after: Game) -> Screen:
        return views.screen(f"{card.name} {format_signed(amount)}", format_amount(after.balance(card.id)),
                            _('Passed GO twice'), big=1)

    return ctx.commit(tx, shown)


def show_worth(ctx: Ctx, card: Card) -> Reply:
    """The player's total worth (what 10% Income Tax counts) and the end-of-game value."""
    game = ctx.game
    return ctx.show(views.screen(
        _('{name} worth', name=card.name),
        format_amount(worth_of(game, card.id)),
        _('Cash {amount}', amount=format_amount(game.balance(card.id))),
        _('End value {amount}', amount=format_amount(end_worth_of(game, card.id))),
        big=1,
    ))


@dataclass(frozen=True)
class TaxChoice(Flow):
    """Income Tax with the older 10% option on: the player chooses before the worth is counted."""

    player: Card

    def screen(self, ctx: Ctx) -> Screen:
        flat = ctx.game.edition.income_tax
        return views.screen(_('{name}: Income Tax', name=self.player.name), _('1 pays {amount}', amount=format_amount(flat)),
                            _('2 pays {rate} of worth', rate="10%"), _('(choose, then count)'))

    def cards_changed(self, ctx: Ctx) -> Reply:
        return card_moved(ctx)

    def press(self, ctx: Ctx, key: Key) -> Reply:
        if key not in (Key.D1, Key.D2):
            return ctx.refuse(views.refused(_('1 flat  2 10%')), then=STAY)
        return act(ctx, income_tax, one_player_result(self.player), actor=self.player,
                   player=self.player.id, percent=key == Key.D2)


@dataclass(frozen=True)
class JailCardSale(AmountFlow):
    """The ``-`` card buys a Get Out of Jail Free card from the ``+`` card: the price, then ``M``/``K``."""

    seller: Card | None = None
    buyer: Card | None = None
    entry: AmountEntry = AmountEntry()
    hint = _('Price, then M or K')
    allow_zero = True

    def screen(self, ctx: Ctx) -> Screen:
        return views.screen(_('{name} buys jail', name=self.buyer.name), _('card from {name}', name=self.seller.name),
                            _('Price {typed}', typed=self.entry.shown()), _('then M/K (0 M: free)'))

    def cards_changed(self, ctx: Ctx) -> Reply:
        return card_moved(ctx)

    def priced(self, cleared, ctx: Ctx, price: int) -> Reply:
        return act(ctx, trade, two_player_result(self.buyer, self.seller), actor=self.buyer, back=cleared,
                   first=self.seller.id, second=self.buyer.id, first_gives=Offer(jail_cards=1),
                   second_gives=Offer(cash=price))


@dataclass(frozen=True)
class ConfirmBankrupt(Flow):
    """``5``: the ``-`` player retires, owing the ``+`` player (or the bank); ``M`` confirms.

    Owing a player who inherits mortgaged deeds, ``.`` confirms too and has
    the creditor lift those mortgages at once (the principal with the 10%
    interest), instead of later at the principal plus 10% more.
    """

    debtor: Card
    creditor: Card | None

    def _to(self) -> str:
        return _('the bank') if self.creditor is None else self.creditor.name

    def _mortgaged(self, ctx: Ctx) -> tuple[str, ...]:
        estate = ctx.game.estate
        return tuple(slug for slug in estate.deeds_of(self.debtor.id) if estate.is_mortgaged(slug))

    def screen(self, ctx: Ctx) -> Screen:
        if self.creditor is not None and self._mortgaged(ctx):
            return views.screen(_('{name} bankrupt?', name=self.debtor.name), _('All goes to {to}', to=self._to()),
                                _('M: yes  .: and lift'), _('C: no'))
        return views.screen(_('{name} bankrupt?', name=self.debtor.name), _('All goes to {to}', to=self._to()), _('M: yes  C: no'))

    def cards_changed(self, ctx: Ctx) -> Reply:
        return card_moved(ctx)

    def press(self, ctx: Ctx, key: Key) -> Reply:
        lift = key == Key.POINT and self.creditor is not None and self._mortgaged(ctx)
        if key != Key.M and not lift:
            return ctx.refuse(views.refused(_('M: bankrupt'), _('C: not bankrupt')), then=STAY)

        def shown(deal, after: Game) -> Screen:
            over = game_over_line(after)
            then = over or (_('Auction the deeds') if self.creditor is None else "")
            return views.screen(_('{name} retires', name=self.debtor.name), _('All to {to}', to=self._to()), *([then] if then else []),
                                *([_('FN GO 0: ranking')] if over else []))

        return act(ctx, bankrupt, shown, actor=self.creditor, memo=f"{self.debtor.name} bankrupt to {self._to()}",
                   debtor=self.debtor.id, creditor=BANK if self.creditor is None else self.creditor.id,
                   lift_now=self._mortgaged(ctx) if lift else ())
