"""Trades between players (unimproved deeds, jail cards, cash) and drawing or using Get Out of Jail Free cards.

A trade is any agreed exchange between two players: each side may give
deeds, jail cards and cash. A price of 0 is allowed (a straight swap, or a
gift): the rules only say "any agreed price". A deed or a jail card must
change hands (cash alone would be a loan, which players never make), and no
deed may move while any lot of its group has buildings.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Iterable

from banker.text.i18n import _, _n
from banker.rules.deeds import Edition
from banker.errors import AmountError, Refused
from banker.journal.records import Posting
from banker.rules.deal import Deal, pay
from banker.rules.estate import Change, Estate, jail_card_change, owner_change
from banker.rules.holdings import group_is_built, require_owner
from banker.rules.mortgages import take_over_mortgages
from banker.rules.position import Position


@dataclass(frozen=True)
class Offer:
    """What one side of a trade gives: deed slugs, Get Out of Jail Free cards, cash in dollars."""

    deeds: tuple[str, ...] = ()
    jail_cards: int = 0
    cash: int = 0

    @property
    def cash_only(self) -> bool:
        """It gives no deed and no jail card (cash, or nothing)."""
        return not self.deeds and not self.jail_cards


def trade(
    game: Position,
    *,
    first: int,
    second: int,
    first_gives: Offer,
    second_gives: Offer = Offer(),
    lift_now: Iterable[str] = (),
) -> Deal:
    """``first`` and ``second`` exchange what their offers list, all at once.

    Whoever receives a mortgaged deed pays the bank its interest at once,
    and also the principal for deeds in ``lift_now`` (lifting it now).
    The fold judges funds on each player's net over the whole trade.
    """
    if first == second:
        raise Refused(_('Trade with yourself'))
    edition, estate = game.edition, game.estate
    if not _goods(first_gives) and not _goods(second_gives):
        raise Refused(_('Nothing to trade'))
    lift_now = tuple(lift_now)
    postings: list[Posting] = []
    changes: list[Change] = []
    for giver, taker, offer in ((first, second, first_gives), (second, first, second_gives)):
        _require_can_give(edition, estate, giver, offer)
        deeds = tuple(dict.fromkeys(offer.deeds))
        postings += pay(giver, taker, offer.cash, "trade")
        changes += [owner_change(estate, slug, taker) for slug in deeds]
        changes += [jail_card_change(giver, taker)] * offer.jail_cards
        mine = [s for s in lift_now if s in deeds]
        extra_postings, extra_changes = take_over_mortgages(edition, estate, taker, deeds, mine)
        postings += extra_postings
        changes += extra_changes
    _require_all_received(lift_now, first_gives, second_gives)
    return Deal(
        postings=tuple(postings),
        changes=tuple(changes),
        summary=_summary(edition, first_gives, second_gives),
        kind="trade",
    )


def draw_jail_card(game: Position, *, player: int) -> Deal:
    """``player`` drew a Get Out of Jail Free card and keeps it (no money moves)."""
    if game.estate.jail_cards_of(None) < 1:
        raise Refused(_('No jail card left'))
    return Deal((), (jail_card_change(None, player),), _("Got jail card"), "jail-card")


def use_jail_card(game: Position, *, player: int) -> Deal:
    """``player`` leaves jail with a Get Out of Jail Free card, which goes back under its deck."""
    if game.estate.jail_cards_of(player) < 1:
        raise Refused(_('No jail card'))
    return Deal((), (jail_card_change(player, None),), _("Used jail card"), "jail-card")


def _require_can_give(edition: Edition, estate: Estate, giver: int, offer: Offer) -> None:
    if not isinstance(offer.cash, int) or isinstance(offer.cash, bool) or offer.cash < 0:
        raise AmountError(_('Price must be >= 0'))
    if offer.jail_cards < 0 or offer.jail_cards > estate.jail_cards_of(giver):
        raise Refused(_('No jail card to give'))
    for slug in offer.deeds:
        deed = edition.deed(slug)
        require_owner(estate, deed, giver)
        if group_is_built(edition, estate, deed.group):
            raise Refused(_('Sell buildings first'))


def _require_all_received(lift_now: tuple[str, ...], *offers: Offer) -> None:
    received = {slug for offer in offers for slug in offer.deeds}
    for slug in lift_now:
        if slug not in received:
            raise Refused(_('Not in the trade'))


def _goods(offer: Offer) -> bool:
    return bool(offer.deeds or offer.jail_cards)


def _summary(edition: Edition, *offers: Offer) -> str:
    deeds = [slug for offer in offers for slug in dict.fromkeys(offer.deeds)]
    cards = sum(offer.jail_cards for offer in offers)
    if len(deeds) == 1 and not cards:
        return _("Traded {deed}", deed=edition.deed(deeds[0]).short)
    if not deeds:
        return _n("Traded jail card", "Traded jail cards", cards)
    if cards:
        return _("Traded {deeds}+{cards}", deeds=_n("{n} deed", "{n} deeds", len(deeds)),
                 cards=_n("card", "cards", cards))
    return _n("Traded {n} deed", "Traded {n} deeds", len(deeds))
