"""Timed auctions run by the unit: an unsold deed bid for with the players' cards, sold when the countdown ends.

Started with ``GO`` on an unsold deed's screen (a deed the lander declined,
or one the bank took back in a bankruptcy: docs/keypad.md, "Auctions"). A
bidder puts their card on a reader and types an amount then ``M``/``K``, or
presses ``GO`` to raise the high bid by :data:`RAISE`. The unit refuses a
bid that isn't higher than the last, that the bidder couldn't pay, or by a
player out of the game, and each bid starts the countdown again
(``Panel.auction_seconds``, the ``[auction] seconds`` setting). The last
seconds tick, then "going once", "going twice"; at zero the deed is sold
to the high bidder: one transaction of kind ``auction``
(:func:`banker.rules.buy` with the price), undone like any other. No bid:
nothing is sold. ``C`` cancels (nothing written).

Time comes only from the events: the step hands every tick to
:meth:`Auction.tick` (``t``), so a keypad script tests it with ``wait``.
While it runs the table page sees it through :meth:`Auction.live`
(a :class:`banker.unit.events.LiveState`, docs/web.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from banker.frozen import replace
from banker.text.i18n import _, joined
from banker.unit import views
from banker.unit.entry import AmountEntry
from banker.errors import AmountError, InsufficientFunds, Refused
from banker.unit.events import AMOUNT_KEYS, SUFFIXES, Key, LiveState, Tone
from banker.fold.game import apply
from banker.unit.modes.base import END, KEEP, Ctx, Reply
from banker.money import format_amount
from banker.journal.records import Card
from banker.rules import buy
from banker.unit.screen import Screen
from banker.unit.flows.common import Flow, act

#: ``GO``'s quick raise: the high bid plus this (the first bid: this).
RAISE = 100_000
#: Seconds a refused bid's screen stays before the countdown shows again.
NOTICE_SECONDS = 2.0
#: Whole seconds left when the unit says "going once", "going twice"; the seconds before tick.
GOING_ONCE, GOING_TWICE, TICKING = 2, 1, 5
#: What the unit calls at each of the last seconds.
CALLS = {GOING_ONCE: "going once", GOING_TWICE: "going twice"}


def seconds_left(ends_at: float, t: float) -> int:
    """The whole seconds the countdown shows at ``t`` (rounded up: 0 only at the end)."""
    return max(0, math.ceil(round(ends_at - t, 6)))


def start(ctx: Ctx, slug: str) -> Reply:
    """``GO`` on an unsold deed: its auction opens, the countdown running from now."""
    seconds = ctx.panel.auction_seconds
    return ctx.enter(Auction(slug, ends_at=ctx.panel.now + seconds, left=seconds_left(seconds, 0.0)))


@dataclass(frozen=True)
class Auction(Flow):
    """The auction of the unsold deed ``slug``: the ``high`` bid by card id ``bidder`` (None: no bid yet), the
    countdown ending at ``ends_at`` (the events' clock), ``left`` the whole seconds shown; ``notice`` a refused
    bid's screen, shown until ``notice_until``."""

    slug: str
    ends_at: float
    left: int
    high: int = 0
    bidder: int | None = None
    entry: AmountEntry = AmountEntry()
    notice: Screen | None = None
    notice_until: float = 0.0

    # -- what it shows -----------------------------------------------------------------------

    def screen(self, ctx: Ctx) -> Screen:
        """No bid yet: four small lines with the keys; then the high bid large, and one line under it (the
        bidder and the seconds, the call, or the amount being typed)."""
        if self.notice is not None:
            return self.notice
        game = ctx.game
        title = self.title(ctx)
        card = _one_card(ctx)
        who = card.name if isinstance(card, Card) else _('Bid')
        call = CALLS.get(self.left)
        if not self.entry.empty:
            status = _('{name}: {typed} M/K, {seconds} s', name=who, typed=self.entry.shown(), seconds=self.left)
        elif call is not None:
            status = (_('Going once! {seconds} s', seconds=self.left) if self.left == GOING_ONCE
                      else _('Going twice! {seconds} s', seconds=self.left))
        elif self.bidder is not None:
            status = _('{name} high, {seconds} s', name=game.name_of(self.bidder), seconds=self.left)
        else:
            keys = (_('{name}: bid M/K', name=who), _('or GO: {amount}', amount=format_amount(RAISE))) if isinstance(card, Card) else (
                _('Card on a reader,'), _('bid M/K or GO'))
            return views.screen(title, _('No bid, {seconds} s left', seconds=self.left), *keys)
        # Translators: No bid: a big line (10 characters)
        return views.screen(title, format_amount(self.high) if self.bidder is not None else _('No bid'), status, big=1)

    def title(self, ctx: Ctx) -> str:
        """The screen's first line: what is sold."""
        return _('Auction {deed}', deed=ctx.game.edition.deed(self.slug).short)

    def what(self, ctx: Ctx) -> str:
        """What is sold, in the closing messages."""
        return ctx.game.edition.deed(self.slug).short

    def lot(self, ctx: Ctx) -> tuple[str, int]:
        """What the table page names the lot, and the price printed for it."""
        deed = ctx.game.edition.deed(self.slug)
        return deed.name, deed.price

    def live(self, ctx: Ctx) -> dict:
        """The table page's view of the auction while it runs (docs/web.md, ``kind: auction``)."""
        return self._live(ctx, "open", call=CALLS.get(self.left))

    def _live(self, ctx: Ctx, state: str, *, call: str | None = None, text: str | None = None) -> dict:
        game = ctx.game
        deed = game.edition.deed(self.slug)
        high = self.high if self.bidder is not None else None
        lot, price = self.lot(ctx)
        return {"kind": "auction", "state": state, "lot": lot, "short": deed.short, "slug": deed.slug,
                "square": deed.position, "group": deed.group, "price": price,
                "price_text": format_amount(price), "high": high,
                "high_text": None if high is None else format_amount(high),
                "bidder": None if self.bidder is None else game.name_of(self.bidder),
                "seconds": self.left, "call": call, "text": text}

    # -- keys --------------------------------------------------------------------------------

    def press(self, ctx: Ctx, key: Key) -> Reply:
        if key in AMOUNT_KEYS:
            try:
                return ctx.enter(replace(self, entry=self.entry.type(key), notice=None))
            except AmountError as exc:
                return self._refuse(ctx, str(exc))
        bidder = _one_card(ctx)
        if not isinstance(bidder, Card):
            return self._refuse(ctx, *bidder)
        if key in SUFFIXES:
            try:
                amount = self.entry.finish(key)
            except AmountError as exc:
                return self._refuse(ctx, str(exc))
            return self.bid(ctx, bidder, amount)
        if key == Key.GO:
            return self.bid(ctx, bidder, self.high + RAISE if self.bidder is not None else RAISE)
        return self._refuse(ctx, _('Bid: amount, M/K'), _('or GO (+{amount})', amount=format_amount(RAISE)), _('C: cancel'))

    def bid(self, ctx: Ctx, card: Card, amount: int) -> Reply:
        """``card`` bids ``amount``: refused unless it is higher and the bidder could pay it; else the countdown
        starts again."""
        game = ctx.game
        if card.id in game.estate.retired:
            return self._refuse(ctx, _('{name} is out', name=card.name), _('of the game: no bid'))
        barred = self.barred(ctx, card)
        if barred:
            return self._refuse(ctx, *barred)
        if self.bidder is not None and amount <= self.high:
            return self._refuse(ctx, _('Bid above {amount}', amount=format_amount(self.high)),
                                _('{name} bid {amount}', name=game.name_of(self.bidder), amount=format_amount(self.high)))
        try:  # the fold is the one place that refuses a balance below zero: the sale as it would be now
            apply(game, game.numbered(self.sale(game, card, amount).to_transaction()))
        except InsufficientFunds as exc:
            return self._refuse(ctx, *ctx.short_of_funds(exc, card).lines[1:])
        except Refused as exc:
            return self._refuse(ctx, str(exc))
        seconds = ctx.panel.auction_seconds
        return ctx.enter(replace(self, high=amount, bidder=card.id, entry=AmountEntry(), notice=None,
                                 ends_at=ctx.panel.now + seconds, left=seconds_left(seconds, 0.0)))

    def barred(self, ctx: Ctx, card: Card) -> tuple[str, ...]:
        """Why ``card`` may not bid at all (no line: it may)."""
        return ()

    def sale(self, game, card: Card, amount: int):
        """The deal the sale to ``card`` at ``amount`` would be now (refused as the rules refuse it)."""
        return buy(game, buyer=card.id, slug=self.slug, price=amount)

    def _refuse(self, ctx: Ctx, *lines: str) -> Reply:
        """A refused bid: its screen for a moment, the refusal tone; the countdown runs on."""
        return Reply(mode=replace(self, entry=AmountEntry(), notice=views.refused(*lines),
                                  notice_until=ctx.panel.now + NOTICE_SECONDS), tone="refusal")

    def fn(self, ctx: Ctx) -> Reply:
        return self._refuse(ctx, _('An auction is on'), _('C cancels it'))

    def deed_tapped(self, ctx: Ctx, slug: str) -> Reply:
        """Another deed's tag while the auction runs: refused (``C`` first)."""
        return self._refuse(ctx, _('An auction is on'), _('C cancels it'))

    def cancel(self, ctx: Ctx) -> Reply:
        """``C`` clears an amount being typed first, then cancels the auction: nothing is sold."""
        if not self.entry.empty:
            return ctx.enter(replace(self, entry=AmountEntry(), notice=None))
        return Reply(mode=None, message=views.message(_('Auction cancelled'), self.what(ctx), _('Nothing sold')),
                     effects=(LiveState(self._live(ctx, "cancelled", text=_('Auction cancelled'))),))

    # -- time ----------------------------------------------------------------------------------

    def tick(self, ctx: Ctx, t: float) -> Reply | None:
        """Time passed: the seconds shown, the last seconds' tones and calls, and at zero the sale."""
        left = seconds_left(self.ends_at, t)
        if left == 0:
            return self._close(ctx)
        after, tone = self, None
        if self.notice is not None and t >= self.notice_until:
            after = replace(after, notice=None)
        if left < self.left:
            after, tone = replace(after, left=left), _tone(left)
            if left in CALLS:
                after = replace(after, notice=None)
        if after == self:
            return None
        return Reply(mode=after, entry=KEEP, tone=tone)

    def _close(self, ctx: Ctx) -> Reply:
        if self.bidder is None:
            return Reply(mode=None, message=views.message(_('No bid'), self.what(ctx), _('Nothing sold')),
                         # Translators: the table page's words (a browser shows them: no line of the OLED)
                         effects=(LiveState(self._live(ctx, "no-bid", text=_('No bid: nothing sold'))),))
        return self.sell(ctx, ctx.game.card_by_id(self.bidder))

    def sell(self, ctx: Ctx, winner: Card) -> Reply:
        """The countdown ended with ``winner``'s high bid: the sale, one record."""
        game = ctx.game
        deed = game.edition.deed(self.slug)
        price = format_amount(self.high)

        def shown(deal, after) -> Screen:
            return views.screen(_('Sold to {name}', name=winner.name), price,
                                f"{deed.short}, {winner.name} {format_amount(after.balance(winner.id))}", big=1)

        reply = act(ctx, buy, shown, actor=winner, back=END, buyer=winner.id, slug=self.slug, price=self.high)
        return self.told(ctx, reply, winner)

    def told(self, ctx: Ctx, reply: Reply, winner: Card) -> Reply:
        """``reply`` (the sale's record, or its refusal) with the page told how the auction ended."""
        # Translators: the table page's words (a browser shows them: no line of the OLED)
        done = self._live(ctx, "sold", text=_('Sold to {name} for {amount}', name=winner.name,
                                                amount=format_amount(self.high)))
        if reply.record is None:
            # Translators: the table page's words (a browser shows them: no line of the OLED)
            done = self._live(ctx, "refused", text=_('Not sold: {why}', why=joined(*reply.message.lines, width=0)))
        return replace(reply, effects=reply.effects + (LiveState(done),))


def _tone(left: int) -> Tone | None:
    """The tone as the countdown reaches ``left`` whole seconds."""
    if left == GOING_TWICE:
        return "going-twice"
    if left == GOING_ONCE:
        return "going-once"
    return "tick" if left <= TICKING else None


def _one_card(ctx: Ctx) -> Card | tuple[str, ...]:
    """The bidder: the one known card on a reader, or why there is none."""
    uids = [uid for uid in (ctx.panel.right, ctx.panel.left) if uid is not None]
    if not uids:
        return (_("Bidder's card on"), _('a reader, then bid'))
    if len(uids) > 1:
        return (_("One bidder's card"), _('at a time'))
    card = ctx.card(uids[0])
    if card is None:
        return (_('Unknown card'), _("Not a player's"))
    return card
