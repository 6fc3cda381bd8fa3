"""Bankruptcy: a retiring player's buildings, cash, deeds and jail cards go to the creditor player or to the bank,
and the player is out of the game (a :class:`~banker.journal.records.RetiredChange` in the same deal; its undo brings
them back).

The unit cannot know whether the player could still raise the money, so it
takes the players' word: the flow asks for confirmation, then calls
:func:`bankrupt`. A negative balance (only possible with ``allow_negative``)
is left as it is: the player has retired and nothing is handed over for it.
"""

from __future__ import annotations

from collections.abc import Iterable

from banker.text.i18n import _
from banker.rules.deeds import Deed
from banker.errors import Refused
from banker.journal.records import BANK, Posting
from banker.rules.deal import Deal, pay
from banker.rules.estate import (Change, Estate, houses_change, jail_card_change, mortgaged_change, owner_change,
                                 retired_change)
from banker.rules.holdings import owned_deeds, resale_per_step, step
from banker.rules.mortgages import take_over_mortgages
from banker.rules.position import Position


def bankrupt(game: Position, *, debtor: int, creditor: int | None, lift_now: Iterable[str] = ()) -> Deal:
    """``debtor`` retires, owing ``creditor`` (a card, or ``BANK``).

    To a player: the buildings go back to the bank at half price, then all
    the cash, the deeds (mortgaged ones stay mortgaged) and the jail cards go
    to the creditor, who pays the bank the interest on each mortgaged deed
    at once, and the principal too for deeds in ``lift_now``. The fold
    refuses it if the creditor cannot pay that even with the cash received.
    The debtor hands over only what they have, so their own balance never
    goes below zero: a bankruptcy needs no exemption from the funds rule.

    To the bank: the cash goes to the bank, the buildings simply return to
    it, and every deed goes back unsold and unmortgaged, ready for auction
    (:func:`banker.rules.purchase.buy` with a ``price``); jail cards go back
    to the decks.
    """
    if debtor == creditor:
        raise Refused(_('Cannot owe yourself'))
    if debtor in game.estate.retired:
        raise Refused(_('Debtor already out'))
    if creditor in game.estate.retired:
        raise Refused(_('Creditor is out'))
    deeds = owned_deeds(game.edition, game.estate, debtor)
    if creditor is BANK:
        if tuple(lift_now):
            raise Refused(_('Bank lifts mortgages'))
        return _to_bank(game, debtor, deeds)
    return _to_player(game, debtor, creditor, deeds, lift_now)


def _to_player(
    game: Position, debtor: int, creditor: int, deeds: tuple[Deed, ...], lift_now: Iterable[str]
) -> Deal:
    estate = game.estate
    proceeds = sum(step(estate.houses(d.slug), game.rules) * resale_per_step(d) for d in deeds)
    cash = max(game.balances.get(debtor, 0) + proceeds, 0)
    slugs = [d.slug for d in deeds]
    interest_postings, lift_changes = take_over_mortgages(game.edition, estate, creditor, slugs, lift_now)
    postings: tuple[Posting, ...] = (
        *pay(BANK, debtor, proceeds, "building-sale"),
        *pay(debtor, creditor, cash, "bankruptcy"),
        *interest_postings,
    )
    changes: tuple[Change, ...] = (
        *_clear_buildings(estate, deeds),
        *(owner_change(estate, slug, creditor) for slug in slugs),
        *lift_changes,
        *_hand_over_jail_cards(estate, debtor, creditor),
        retired_change(estate, debtor, True),
    )
    return Deal(postings, changes, _("Bankrupt to player"), "bankruptcy")


def _to_bank(game: Position, debtor: int, deeds: tuple[Deed, ...]) -> Deal:
    estate = game.estate
    cash = max(game.balances.get(debtor, 0), 0)
    changes: tuple[Change, ...] = (
        *_clear_buildings(estate, deeds),
        *(mortgaged_change(estate, d.slug, False) for d in deeds if estate.is_mortgaged(d.slug)),
        *(owner_change(estate, d.slug, BANK) for d in deeds),
        *_hand_over_jail_cards(estate, debtor, None),
        retired_change(estate, debtor, True),
    )
    return Deal(pay(debtor, BANK, cash, "bankruptcy"), changes, _("Bankrupt to bank"), "bankruptcy")


def _clear_buildings(estate: Estate, deeds: tuple[Deed, ...]) -> tuple[Change, ...]:
    return tuple(houses_change(estate, d.slug, 0) for d in deeds if estate.houses(d.slug))


def _hand_over_jail_cards(estate: Estate, debtor: int, to: int | None) -> tuple[Change, ...]:
    return (jail_card_change(debtor, to),) * estate.jail_cards_of(debtor)
