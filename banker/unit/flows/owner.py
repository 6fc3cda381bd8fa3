"""The owner's keys on a chosen deed (the owner's card on the - reader): build, sell, sell down, a building bid, mortgage."""

from __future__ import annotations

from dataclasses import dataclass

from banker.text.i18n import _
from banker.unit import views
from banker.unit.entry import AmountEntry
from banker.unit.events import DIGITS, SUFFIXES, Key
from banker.unit.modes.base import STAY, Ctx, Reply
from banker.journal.records import Card
from banker.rules import build, lift_mortgage, mortgage, rent, sell_building, sell_down
from banker.unit.screen import Screen
from banker.unit.flows.common import AmountFlow, Flow, act, one_player_result
from banker.unit.flows.building_auction import start as start_building_auction

OWNER_HELP = (_('1 build  2 sell'), _('3 sell group down'), _('4 build at a bid'), _('. mortgage / lift'))


def owner_key(deed_mode, ctx: Ctx, key: Key, owner: Card) -> Reply:
    """One key of the owner: each acts at once, and the deed (``deed_mode``) stays chosen for the next."""
    slug = deed_mode.slug
    shown = one_player_result(owner)
    keep = {"actor": owner, "stay": deed_mode, "back": deed_mode}
    if key == Key.D1:
        return act(ctx, build, shown, **keep, player=owner.id, slug=slug)
    if key == Key.D2:
        return act(ctx, sell_building, shown, **keep, player=owner.id, slug=slug)
    if key == Key.D3:
        return ctx.enter(SellDown(deed_mode, owner))
    if key == Key.D4:
        return ctx.enter(BuildingBid(deed_mode, owner))
    if key == Key.POINT:
        rule = lift_mortgage if ctx.game.estate.is_mortgaged(slug) else mortgage
        return act(ctx, rule, shown, **keep, player=owner.id, slug=slug)
    if key == Key.GO:
        return act(ctx, rent, shown, **keep, payer=owner.id, slug=slug)
    if key in SUFFIXES:
        return ctx.refuse(views.refused(_("To sell it: owner's"), _("card on +, buyer's"), _('on -, price, M/K')),
                          then=deed_mode)
    return ctx.refuse(views.refused(*OWNER_HELP), then=deed_mode)


def put_away(ctx: Ctx, slug: str) -> Reply | None:
    """Every card taken off the readers: the deed is put away, with whatever its owner's key had begun (a building
    bid, a sell-down), as docs/keypad.md says; None while a card lies there. The owner's card was on ``-`` when
    the key began, so nobody's money moves on a screen left from a card that has gone."""
    if ctx.panel.cards_down:
        return None
    return ctx.show(views.message(ctx.game.edition.deed(slug).short, _('put away')))


@dataclass(frozen=True)
class SellDown(Flow):
    """``3``: sell the group's buildings evenly down to the houses-a-lot typed (0 clears the group)."""

    back: object
    owner: Card

    def screen(self, ctx: Ctx) -> Screen:
        deed = ctx.game.edition.deed(self.back.slug)
        most = ctx.game.rules.houses_for_hotel
        return views.screen(_('Sell group down'), _('{group}: houses', group=deed.group), _('left a lot? 0-{most}', most=most), _('C: cancel'))

    def press(self, ctx: Ctx, key: Key) -> Reply:
        most = ctx.game.rules.houses_for_hotel
        if key not in DIGITS or int(key) > most:
            return ctx.refuse(views.refused(_('A digit 0-{most}', most=most)), then=STAY)
        group = ctx.game.edition.deed(self.back.slug).group
        return act(ctx, sell_down, one_player_result(self.owner), actor=self.owner, stay=self.back, back=self.back,
                   player=self.owner.id, group=group, houses=int(key))

    def cards_changed(self, ctx: Ctx) -> Reply:
        return put_away(ctx, self.back.slug) or ctx.keep(tone=None)

    def cancel(self, ctx: Ctx) -> Reply:
        return ctx.enter(self.back)


@dataclass(frozen=True)
class BuildingBid(AmountFlow):
    """``4``: the next building at the price a shortage auction set: type it, then ``M``/``K``; or ``GO``, the
    unit's timed auction of the lot's next building (a house, or the hotel)."""

    back: object = None
    owner: Card | None = None
    entry: AmountEntry = AmountEntry()
    hint = _('Bid, then M or K')

    def screen(self, ctx: Ctx) -> Screen:
        deed = ctx.game.edition.deed(self.back.slug)
        return views.screen(_('Building auction'), deed.short, _('Bid {typed} M/K', typed=self.entry.shown()),
                            _('GO: timed auction'), big=None)

    def press(self, ctx: Ctx, key: Key) -> Reply:
        """``GO`` with nothing typed: the unit runs the building's timed auction (:mod:`.building_auction`)."""
        if key == Key.GO and self.entry.empty:
            return start_building_auction(ctx, self.owner, self.back.slug)
        return super().press(ctx, key)

    def priced(self, cleared, ctx: Ctx, price: int) -> Reply:
        return act(ctx, build, one_player_result(self.owner), actor=self.owner, stay=self.back, back=self.back,
                   player=self.owner.id, slug=self.back.slug, price=price)

    def cards_changed(self, ctx: Ctx) -> Reply:
        return put_away(ctx, self.back.slug) or ctx.keep(tone=None)

    def cancel(self, ctx: Ctx) -> Reply:
        return ctx.enter(self.back)
