"""Raise cash: a payment refused for a shortfall ("Bob short 890K") offers ``0``, the ways to raise the money.

Any payment the fold refuses for a player's shortfall (paying the bank or
another player on the home screen, rent, taxes, buying, building, a jail
card's price...) shows the refusal with ``0: raise cash``
(:class:`ShortOffer`); every other key does what it did on the refusal
screen before. ``0`` opens :class:`RaiseCash` for the short player: what is
still missing and the next step of :func:`banker.rules.raising.raising_plan`
(sell buildings evenly at half price, then mortgage the bare deeds), ``GO``
carrying it out, one transaction each (undone like any other with
``FN C M``). Once the money is there, ``GO`` pays: the very payment that was
refused, numbered anew. When even every step would not cover it, the screen
says so and ``GO`` leads to the bankruptcy (:class:`~banker.unit.flows.player.ConfirmBankrupt`),
owing the payment's payee (a player, or the bank).
"""

from __future__ import annotations

from dataclasses import dataclass

from banker.frozen import replace
from banker.text.i18n import _
from banker.unit import views
from banker.errors import InsufficientFunds, Refused
from banker.unit.events import Key
from banker.fold.game import Game, apply
from banker.unit.modes.base import KEEP, MENU, STAY, Ctx, Mode, Reply, Shortfall
from banker.money import format_amount
from banker.journal.records import POT, Card
from banker.rules.raising import Plan, raising_plan
from banker.unit.screen import Screen
from banker.unit.flows.common import Flow, act
from banker.unit.flows.home import HOME
from banker.unit.flows.player import ConfirmBankrupt

#: The key on a shortfall's refusal screen that opens raise cash.
RAISE_KEY = Key.D0


def short_offer(ctx: Ctx, reply: Reply) -> Reply:
    """``reply``, a funds refusal carrying its :class:`Shortfall`, as the refusal screen offering ``0``."""
    short = reply.short
    if short is None or reply.mode is MENU or short.actor.id in ctx.game.estate.retired:
        return replace(reply, short=None)
    back = ctx.panel.mode if reply.mode is KEEP else reply.mode
    shown = reply.message or views.refused(_('{name} short {amount}', name=short.actor.name, amount=format_amount(short.amount)))
    shown = replace(shown, lines=(*shown.lines[:3], _('0: raise cash')))
    offer = ShortOffer(short, back, shown, (ctx.panel.left, ctx.panel.right))
    return replace(reply, mode=offer, message=None, short=None)


@dataclass(frozen=True)
class ShortOffer(Mode):
    """The refusal screen of a shortfall with ``0: raise cash``; any other key, ``C`` or a card does what it did
    there before: it goes to ``back``, the mode the refusal left the unit in (None: the home screen)."""

    short: Shortfall
    back: Mode | None
    shown: Screen
    readers: tuple[str | None, str | None]

    def screen(self, ctx: Ctx) -> Screen:
        return self.shown

    def key(self, ctx: Ctx, key: Key) -> Reply:
        if key == RAISE_KEY:
            return ctx.enter(RaiseCash(self.short))
        return self._gone(self._target().key(self._back(ctx), key))

    def cancel(self, ctx: Ctx) -> Reply:
        return self._gone(self._target().cancel(self._back(ctx)))

    def cards_changed(self, ctx: Ctx) -> Reply:
        if self.back is not None:
            return self._gone(self.back.cards_changed(self._back(ctx)))
        p = ctx.panel
        placed = next((uid for uid in (p.left, p.right) if uid is not None and uid not in self.readers), None)
        if placed is not None:
            return self._gone(HOME.card_placed(self._back(ctx), placed))
        return Reply(mode=None, entry=KEEP, tone=None)

    def _target(self) -> Mode:
        return self.back if self.back is not None else HOME

    def _back(self, ctx: Ctx) -> Ctx:
        return replace(ctx, panel=replace(ctx.panel, mode=self.back))

    def _gone(self, reply: Reply) -> Reply:
        """A reply of the mode behind: where it keeps its mode, that mode (not the offer) goes on."""
        return replace(reply, mode=self.back) if reply.mode is KEEP else reply


@dataclass(frozen=True)
class RaiseCash(Flow):
    """Raising cash for ``short.actor``: what is missing, the next step (``GO`` takes it), then ``GO`` pays."""

    short: Shortfall

    @property
    def debtor(self) -> Card:
        return self.short.actor

    def missing(self, game: Game) -> int:
        """What the debtor still lacks to make the payment (0: it goes through now; -1: it no longer fits)."""
        try:
            apply(game, game.numbered(self.short.record))
        except InsufficientFunds as exc:
            return exc.shortfall
        except Refused:
            return -1
        return 0

    def plan(self, game: Game) -> Plan:
        return raising_plan(game, player=self.debtor.id, shortfall=self.missing(game))

    def screen(self, ctx: Ctx) -> Screen:
        return self._view(ctx.game)

    def _view(self, game: Game) -> Screen:
        """What is missing over ``game`` and the next step; or that the payment can go; or that nothing covers it."""
        name = self.debtor.name
        missing = self.missing(game)
        if missing <= 0:
            return views.screen(_('{name} has enough', name=name), _('Balance {amount}', amount=format_amount(game.balance(self.debtor.id))),
                                _('GO: pay now'), _('C: not now'))
        plan = self.plan(game)
        if not plan.covers:
            return views.screen(_('Even selling all:'), _('short {amount}', amount=format_amount(plan.still_short)),
                                _('GO: bankrupt'), _('C: not now'), error=True)
        nxt = plan.steps[0]
        return views.screen(_('{name} short {amount}', name=name, amount=format_amount(missing)), nxt.label,
                            _('GO +{amount}  C: stop', amount=format_amount(nxt.raises)), _('Can raise {amount}', amount=format_amount(plan.total)))

    def press(self, ctx: Ctx, key: Key) -> Reply:
        if key != Key.GO:
            return ctx.refuse(views.refused(_('GO: next step'), _('C: stop')), then=STAY)
        game = ctx.game
        missing = self.missing(game)
        if missing == 0:
            s = self.short
            return ctx.commit(game.numbered(s.record), s.shown, mode=s.mode, on_refusal=STAY, actor=self.debtor)
        if missing < 0:  # something else changed meanwhile (an undo, a deed sold): the payment no longer fits
            try:
                apply(game, game.numbered(self.short.record))
            except Refused as exc:
                return ctx.refuse(views.refused(str(exc)))
        plan = self.plan(game)
        if not plan.covers:
            return ctx.enter(ConfirmBankrupt(self.debtor, self._creditor(game)))
        nxt = plan.steps[0]
        return act(ctx, nxt.rule, self._after_step, actor=self.debtor, stay=self, **nxt.details(self.debtor.id))

    def _after_step(self, deal, after: Game) -> Screen:
        """After a step: this screen over the game it led to (what is still missing, the next step)."""
        return self._view(after)

    def cancel(self, ctx: Ctx) -> Reply:
        missing = self.missing(ctx.game)
        return ctx.show(views.message(_('Not paid yet'), _('{name} short {amount}', name=self.debtor.name, amount=format_amount(max(missing, 0))))
                        if missing > 0 else views.message(_('Not paid yet'), _('Nothing more changed')))

    def _creditor(self, game: Game) -> Card | None:
        """Whom the debtor owes: the payee of their payment, a player (None: the bank, or the Free Parking pot)."""
        for p in self.short.record.postings:
            if p.payer == self.debtor.id and p.payee is not None and p.payee != POT:
                card = game.card_by_id(p.payee)
                return card if card is not None and p.payee not in game.estate.retired else None
        return None

