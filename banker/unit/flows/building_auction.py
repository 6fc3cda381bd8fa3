"""A house or a hotel auctioned in a building shortage: the timed auction of one building, then the winner's lot.

When the bank is short of houses (:func:`banker.rules.buildings.house_shortage`)
or of hotels (:func:`banker.rules.buildings.hotel_shortage`), the owner's ``4``
on a lot, then ``GO`` (nothing typed), opens the auction of the lot's next
building: a house, or the hotel when the lot has its houses. The lot shown is
where the opener would build. Bids are as in any timed auction (:mod:`.auction`:
a card on a reader, an amount and ``M``/``K``, or ``GO``), but only by a player
with a lot that may take that building now (building evenly). At zero the
winner gets it at the bid on a lot of theirs: one ``build`` transaction at that
price (:func:`banker.rules.build`; a hotel sends its lot's houses back to the
bank), undone like any other. A winner with several such lots first chooses
one (:class:`BuildingLot`: a deed's tag, ``FN`` and its square, or ``M`` for
the lot shown when it is theirs); ``C`` there gives the building up, nothing
written. docs/keypad.md, "Auctions".
"""

from __future__ import annotations

from dataclasses import dataclass

from banker.frozen import replace
from banker.text.i18n import _
from banker.unit import views
from banker.errors import Refused
from banker.unit.events import Key, LiveState
from banker.unit.modes.base import END, STAY, Ctx, Reply
from banker.money import format_amount
from banker.journal.records import Card
from banker.rules import build
from banker.rules.buildings import (
    hotel_lots,
    hotel_shortage,
    house_lots,
    house_shortage,
    next_is_hotel,
    require_hotel_lot,
    require_house_lot,
)
from banker.unit.screen import Screen
from banker.unit.flows.auction import Auction, seconds_left
from banker.unit.flows.common import Flow, act, square_typed


def start(ctx: Ctx, owner: Card, slug: str) -> Reply:
    """``4 GO`` on ``owner``'s lot: the auction of its next building opens (a house, or the hotel), if the bank is
    short of it and the lot may take it."""
    game = ctx.game
    try:
        hotel = next_is_hotel(game, player=owner.id, slug=slug)
    except Refused as exc:
        return ctx.refuse(views.refused(str(exc), _('No house auction')), then=STAY)
    try:
        (hotel_shortage if hotel else house_shortage)(game)
    except Refused as exc:
        return ctx.refuse(views.refused(str(exc), _('No hotel auction') if hotel else _('No house auction')), then=STAY)
    seconds = ctx.panel.auction_seconds
    return ctx.enter(BuildingAuction(slug, ends_at=ctx.panel.now + seconds, left=seconds_left(seconds, 0.0), hotel=hotel))


@dataclass(frozen=True)
class BuildingAuction(Auction):
    """The timed auction of one building from the bank (a house, or with ``hotel`` a hotel); ``slug`` is the lot
    its opener would build on."""

    hotel: bool = False

    def title(self, ctx: Ctx) -> str:
        return self.what(ctx)

    def what(self, ctx: Ctx) -> str:
        short = ctx.game.edition.deed(self.slug).short
        return _('A hotel ({deed})', deed=short) if self.hotel else _('A house ({deed})', deed=short)

    def lot(self, ctx: Ctx) -> tuple[str, int]:
        deed = ctx.game.edition.deed(self.slug)
        return (_('A hotel ({deed})', deed=deed.name) if self.hotel else _('A house ({deed})', deed=deed.name)), deed.house_cost

    def lots(self, game, player: int) -> tuple[str, ...]:
        """``player``'s lots that may take the building sold now, board order."""
        return (hotel_lots if self.hotel else house_lots)(game, player)

    def barred(self, ctx: Ctx, card: Card) -> tuple[str, ...]:
        if self.lots(ctx.game, card.id):
            return ()
        return (_('{name}: no lot may', name=card.name), _('take a hotel now') if self.hotel else _('take a house now'))

    def sale(self, game, card: Card, amount: int):
        return build(game, player=card.id, slug=self.lots(game, card.id)[0], price=amount)

    def sell(self, ctx: Ctx, winner: Card) -> Reply:
        """At zero: the building on the winner's one lot that may take it, or the winner chooses the lot."""
        lots = self.lots(ctx.game, winner.id)
        if len(lots) == 1:
            return BuildingLot(self, winner, lots).place(ctx, lots[0], back=None)
        if not lots:
            return self.told(ctx, ctx.refuse(views.refused(_("{name} can't build", name=winner.name), _('Nothing sold'))), winner)
        # Translators: the table page's words (a browser shows them: no line of the OLED)
        text = _('{name} won at {amount}: choosing the lot', name=winner.name, amount=format_amount(self.high))
        return Reply(mode=BuildingLot(self, winner, lots), tone="success",
                     effects=(LiveState(self._live(ctx, "sold", text=text)),))


@dataclass(frozen=True)
class BuildingLot(Flow):
    """The winner of ``auction`` (``winner``) chooses which of ``lots`` takes the building; ``square``: the digits
    typed after ``FN`` (None: not typing one)."""

    auction: BuildingAuction
    winner: Card
    lots: tuple[str, ...]
    square: str | None = None
    keeps_awake = True

    def screen(self, ctx: Ctx) -> Screen:
        shown = self.auction.slug
        where = _('Lot? FN {square}_ 01-39', square=self.square) if self.square is not None else _('Lot? Tag, FN+square')
        take = (_('M: {deed}', deed=_short(ctx, shown)),) if shown in self.lots else ()
        return views.screen(_('{name} won {amount}', name=self.winner.name, amount=format_amount(self.auction.high)), where, *take,
                            _('C: give it up'))

    def press(self, ctx: Ctx, key: Key) -> Reply:
        if self.square is not None:
            return self._square_key(ctx, key)
        if key == Key.M and self.auction.slug in self.lots:
            return self.place(ctx, self.auction.slug)
        what = _("The hotel's lot: tag") if self.auction.hotel else _("The house's lot: tag")
        return ctx.refuse(views.refused(what, _('or FN + its square'), _('C: give it up')), then=STAY)

    def fn(self, ctx: Ctx) -> Reply:
        """``FN`` starts a board square (never the FN menu: the house waits for its lot)."""
        return ctx.enter(replace(self, square=""))

    def _square_key(self, ctx: Ctx, key: Key) -> Reply:
        typed = square_typed(ctx, self, key)
        return typed if isinstance(typed, Reply) else replace(self, square=None).place(ctx, typed)

    def deed_tapped(self, ctx: Ctx, slug: str) -> Reply:
        """A deed's tag: the building goes on that lot, if it is one of the winner's that may take it."""
        return self.place(ctx, slug)

    def place(self, ctx: Ctx, slug: str, *, back: object = STAY) -> Reply:
        """The building on ``slug`` at the winning bid: one record; a lot that can't take it is refused (the choice
        stays; ``back=None``: the auction ends there)."""
        winner, auction = self.winner, self.auction
        if slug not in self.lots:
            try:
                (require_hotel_lot if auction.hotel else require_house_lot)(ctx.game, player=winner.id, slug=slug)
                why = _('Not one of the lots')
            except Refused as exc:
                why = str(exc)
            return ctx.refuse(views.refused(why, _('{name}: another lot', name=winner.name)), then=replace(self, square=None))
        price = format_amount(auction.high)

        def shown(deal, after) -> Screen:
            built = _('Hotel on {deed}', deed=_short(ctx, slug)) if auction.hotel else _('House on {deed}', deed=_short(ctx, slug))
            return views.screen(built, price,
                                _('{name} now {amount}', name=winner.name, amount=format_amount(after.balance(winner.id))), big=1)

        then = replace(self, square=None) if back is STAY else END
        reply = act(ctx, build, shown, actor=winner, back=then, player=winner.id, slug=slug, price=auction.high)
        return auction.told(ctx, reply, winner) if reply.record is not None or then is END else reply

    def cancel(self, ctx: Ctx) -> Reply:
        """``C`` clears a square being typed, then gives the building up: nothing is written."""
        if self.square is not None:
            return ctx.enter(replace(self, square=None))
        name, hotel = self.winner.name, self.auction.hotel
        # Translators: the table page's words (a browser shows them: no line of the OLED)
        page = (_('{name} gave the hotel up', name=name) if hotel else
                # Translators: the table page's words (a browser shows them: no line of the OLED)
                _('{name} gave the house up', name=name))
        return Reply(mode=None, message=views.message(_('Hotel not taken') if hotel else _('House not taken'),
                                                      _('{name} gave it up', name=name), _('Nothing written')),
                     effects=(LiveState(self.auction._live(ctx, "cancelled", text=page)),))


def _short(ctx: Ctx, slug: str) -> str:
    return ctx.game.edition.deed(slug).short
