"""The deed flow: a title deed chosen by its tag or ``FN`` + square; then one key buys, auctions, charges rent or trades it.

Which key does what depends on the cards on the readers when it is pressed
(see :func:`banker.unit.flows.deed_view.context`); the owner's keys (build, sell,
mortgage) are in :mod:`banker.unit.flows.owner`. The deed stays chosen until
``C``, another deed, or every card is taken off the readers after one lay
there.
"""

from __future__ import annotations

from dataclasses import dataclass

from banker.frozen import replace
from banker.unit import views
from banker.text.i18n import _
from banker.fold.acts import deed_tag
from banker.unit.entry import AmountEntry
from banker.errors import AmountError, Refused
from banker.unit.events import AMOUNT_KEYS, SUFFIXES, Key
from banker.unit.modes.base import MENU, STAY, Ctx, Reply, card_moved
from banker.money import format_amount
from banker.journal.records import Card
from banker.rules import Offer, buy, interest, rent, trade
from banker.unit.screen import Screen
from banker.unit.flows.auction import start as start_auction
from banker.unit.flows.common import Flow, act, one_player_result, price_of, two_player_result
from banker.unit.flows.deed_view import OWNER, RENT, SALE, TRADE, context, deed_screen
from banker.unit.flows.owner import owner_key


@dataclass(frozen=True)
class DeedMode(Flow):
    """A chosen deed. Digits and ``.`` type a bid, a price or the dice total; ``M``/``K``/``GO`` act (``GO`` on an
    unsold deed starts its timed auction).

    ``cards_seen``: a player's card lay on a reader while the deed was chosen
    (taking every card away then puts the deed away). ``tag_of``: the deed was chosen by a tag written on
    another board for the deed on its square there (its short name, said on a fifth line).
    """

    slug: str
    entry: AmountEntry = AmountEntry()
    cards_seen: bool = False
    tag_of: str | None = None

    # -- what is on the table ----------------------------------------------------------

    def _where(self, ctx: Ctx) -> tuple[str, Card | None, Card | None]:
        plus, minus = ctx.cards_on_readers()
        return context(ctx.game.estate.owner(self.slug), plus, minus), plus, minus

    def screen(self, ctx: Ctx) -> Screen:
        game = ctx.game
        where, _plus, minus = self._where(ctx)
        owner = game.estate.owner(self.slug)
        owner_name = None if owner is None else game.name_of(owner)
        shown = deed_screen(game.edition, game.estate, game.edition.deed(self.slug), owner_name, where, self.entry,
                            ctx.unknown_uid() is not None, minus is not None)
        if self.tag_of is None:
            return shown
        return replace(shown, lines=(*shown.lines, views.fitted(_('Tag of {deed}', deed=self.tag_of))))

    # -- keys --------------------------------------------------------------------------

    def press(self, ctx: Ctx, key: Key) -> Reply:
        where, plus, minus = self._where(ctx)
        if where == OWNER:
            return owner_key(replace(self, entry=AmountEntry()), ctx, key, minus)
        if (key in AMOUNT_KEYS) and where in (RENT, TRADE) and not self._typing_for(ctx, where, key):
            return self.refuse(ctx, _('{deed} not yours', deed=ctx.game.edition.deed(self.slug).short), _('GO pays the rent'))
        if key in AMOUNT_KEYS:
            try:
                return ctx.enter(replace(self, entry=self.entry.type(key)))
            except AmountError as exc:
                return ctx.refuse(views.refused(str(exc)), then=STAY)
        if key in SUFFIXES:
            return self._money_key(ctx, key, where, plus, minus)
        if key == Key.GO:
            if where == SALE and not self.entry.empty:  # a dice total typed: no rent on an unsold deed (keypad.md)
                return self.refuse(ctx, _('{deed} is unsold', deed=ctx.game.edition.deed(self.slug).short),
                                   _('Buyer -, GO: auction'))
            if where == SALE:  # an unsold deed: the unit runs its auction (banker.unit.flows.auction)
                return start_auction(ctx, self.slug)
            return self._rent(ctx, minus)
        return ctx.refuse(views.refused(_('{key}: no use here', key=key)), then=STAY)

    def _typing_for(self, ctx: Ctx, where: str, key: Key) -> bool:
        """Whether a digit or point types something here: a trade's price, or a utility's dice total."""
        if where == TRADE:
            return True
        return ctx.game.edition.deed(self.slug).kind == "utility" and key != Key.POINT

    @property
    def cleared(self) -> DeedMode:
        return replace(self, entry=AmountEntry())

    def refuse(self, ctx: Ctx, *lines: str) -> Reply:
        """Refuse with ``lines``; the deed stays chosen and the typed number is dropped."""
        return ctx.refuse(views.refused(*lines), then=self.cleared)

    def _money_key(self, ctx: Ctx, key: Key, where: str, plus: Card | None, minus: Card | None) -> Reply:
        if where == SALE:
            return self._buy(ctx, key, minus)
        if where == TRADE:
            return self._sell(ctx, key, plus, minus)
        if where == RENT:
            return self.refuse(ctx, _('GO pays the rent;'), _("to buy it: owner's"), _('card on +, buyer -'))
        return self.refuse(ctx, _("A player's card"), _('on the - reader'))

    def _buy(self, ctx: Ctx, key: Key, minus: Card | None) -> Reply:
        """M or K on a deed for sale: the - player buys it at the printed price (M alone) or at the bid typed."""
        deed = ctx.game.edition.deed(self.slug)
        if minus is None:
            return self.refuse(ctx, _("Buyer's card on"), _('the - reader'))
        if self.entry.empty and key == Key.K:
            return self.refuse(ctx, _('Type the bid, then'), _('M or K (M alone:'), _('the printed price)'))
        try:
            price = None if self.entry.empty else self.entry.finish(key)
        except AmountError as exc:
            return self.refuse(ctx, str(exc))
        title = _('Bought {deed}', deed=deed.short) if price is None else _('Auction {deed}', deed=deed.short)
        return act(ctx, buy, one_player_result(minus, title), actor=minus, back=self.cleared,
                   buyer=minus.id, slug=self.slug, price=price)

    def _sell(self, ctx: Ctx, key: Key, plus: Card | None, minus: Card | None) -> Reply:
        """M or K after a price on an owned deed: the + player sells it to the - player (asked first whether the
        buyer lifts a mortgage now)."""
        if self.entry.empty:
            return self.refuse(ctx, _('Type the price,'), _('then M or K'), _('(0 M: a gift)'))
        try:
            price = price_of(self.entry, key, allow_zero=True)
        except AmountError as exc:
            return self.refuse(ctx, str(exc))
        if ctx.game.estate.is_mortgaged(self.slug):
            return ctx.enter(LiftChoice(self.slug, seller=plus, buyer=minus, price=price))
        return sell_deed(ctx, self.slug, plus, minus, price, lift=False, back=self.cleared)

    def _rent(self, ctx: Ctx, minus: Card | None) -> Reply:
        if minus is None:
            return self.refuse(ctx, _("Payer's card on"), _('the - reader'))
        typed = self.entry.typed
        dice = int(typed) if typed.isdigit() else None
        owner = ctx.game.card_by_id(ctx.game.estate.owner(self.slug))
        shown = two_player_result(minus, owner) if owner is not None else one_player_result(minus)
        return act(ctx, rent, shown, actor=minus, back=self.cleared, payer=minus.id, slug=self.slug, dice=dice)

    def fn(self, ctx: Ctx) -> Reply:
        """``FN``: tag this deed with the unknown card lying on a reader, else the FN menu."""
        uid = ctx.unknown_uid()
        if uid is None:
            return ctx.enter(MENU)
        return TagDeed(self.slug, uid).run(ctx)

    def cards_changed(self, ctx: Ctx) -> Reply:
        """Every card taken off the readers after one lay there: the deed is put away."""
        plus, minus = ctx.cards_on_readers()
        if not ctx.panel.cards_down and self.cards_seen:
            return ctx.show(views.message(ctx.game.edition.deed(self.slug).short, _('put away')))
        if (plus is not None or minus is not None) and not self.cards_seen:
            return replace(ctx.keep(), mode=replace(self, cards_seen=True))
        return ctx.keep()

    def cancel(self, ctx: Ctx) -> Reply:
        """``C`` clears a typed number first, then puts the deed away."""
        if not self.entry.empty:
            return ctx.enter(self.cleared)
        return super().cancel(ctx)


@dataclass(frozen=True)
class LiftChoice(Flow):
    """A mortgaged deed changes hands: the buyer pays the 10% now (``M``) or lifts the mortgage too (``.``)."""

    slug: str
    seller: Card
    buyer: Card
    price: int

    def screen(self, ctx: Ctx) -> Screen:
        edition = ctx.game.edition
        deed = edition.deed(self.slug)
        fee = interest(edition, deed)
        return views.screen(
            _('Mortgaged: {name}', name=self.buyer.name),
            _('M: pays 10% {amount}', amount=format_amount(fee)),
            _('.: lifts it {amount}', amount=format_amount(fee + deed.mortgage)),
            _('then {amount} to {name}', amount=format_amount(self.price), name=self.seller.name),
        )

    def cards_changed(self, ctx: Ctx) -> Reply:
        return card_moved(ctx)

    def press(self, ctx: Ctx, key: Key) -> Reply:
        if key not in (Key.M, Key.POINT):
            return ctx.refuse(views.refused(_('M: keep mortgaged'), _('.: lift it now'), _('C: cancel')), then=STAY)
        return sell_deed(ctx, self.slug, self.seller, self.buyer, self.price, lift=key == Key.POINT)


def sell_deed(ctx: Ctx, slug: str, seller: Card, buyer: Card, price: int, *, lift: bool, back: object = None) -> Reply:
    """The buyer (on -) pays the seller (on +) the agreed price for the deed, all in one trade."""
    from banker.unit.modes.base import KEEP

    return act(ctx, trade, two_player_result(buyer, seller), actor=buyer, back=KEEP if back is None else back,
               first=seller.id, second=buyer.id, first_gives=Offer(deeds=(slug,)),
               second_gives=Offer(cash=price), lift_now=(slug,) if lift else ())


@dataclass(frozen=True)
class TagDeed:
    """The act of enrolling ``uid`` as the RFID tag of the deed ``slug``."""

    slug: str
    uid: str

    def run(self, ctx: Ctx) -> Reply:
        try:
            record = deed_tag(ctx.game, self.slug, self.uid)
        except Refused as exc:
            return ctx.refuse(views.refused(str(exc)))
        short = ctx.game.edition.deed(self.slug).short
        return ctx.commit(record, lambda after: views.message(_('Tag enrolled'), short, _('Tap it to choose it')))
