"""Mortgages: borrowing the mortgage value from the bank, lifting it with 10% interest, and mortgaged deeds changing hands."""

from __future__ import annotations

from collections.abc import Iterable

from banker.text.i18n import _
from banker.rules.deeds import Deed, Edition
from banker.errors import Refused
from banker.journal.records import BANK, Posting
from banker.rules.deal import Deal, pay
from banker.rules.estate import Change, Estate, mortgaged_change
from banker.rules.holdings import group_is_built, require_owner
from banker.rules.position import Position


def interest(edition: Edition, deed: Deed) -> int:
    """The edition's interest (10%) on the deed's mortgage, rounded UP to ``interest_round_to`` (10K)."""
    step = edition.interest_round_to
    raw_in_steps = -(-deed.mortgage * edition.interest_percent // (100 * step))
    return raw_in_steps * step


def lift_cost(edition: Edition, deed: Deed) -> int:
    """What lifting the mortgage costs: the mortgage value plus interest."""
    return deed.mortgage + interest(edition, deed)


def mortgage(game: Position, *, player: int, slug: str) -> Deal:
    """The bank lends ``player`` the deed's mortgage value; refused with buildings anywhere in its group."""
    edition, estate = game.edition, game.estate
    deed = edition.deed(slug)
    require_owner(estate, deed, player)
    if estate.is_mortgaged(slug):
        raise Refused(_('Already mortgaged'))
    if group_is_built(edition, estate, deed.group):
        raise Refused(_('Sell buildings first'))
    return Deal(
        postings=pay(BANK, player, deed.mortgage, "mortgage"),
        changes=(mortgaged_change(estate, slug, True),),
        summary=_("Mortgaged {deed}", deed=deed.short),
        kind="mortgage",
    )


def lift_mortgage(game: Position, *, player: int, slug: str) -> Deal:
    """``player`` repays the mortgage plus interest (two postings: principal and interest)."""
    edition, estate = game.edition, game.estate
    deed = edition.deed(slug)
    require_owner(estate, deed, player)
    if not estate.is_mortgaged(slug):
        raise Refused(_('Not mortgaged'))
    return Deal(
        postings=(
            *pay(player, BANK, deed.mortgage, "lift-mortgage"),
            *pay(player, BANK, interest(edition, deed), "interest"),
        ),
        changes=(mortgaged_change(estate, slug, False),),
        summary=_("Lifted {deed}", deed=deed.short),
        kind="lift-mortgage",
    )


def take_over_mortgages(
    edition: Edition,
    estate: Estate,
    receiver: int,
    slugs: Iterable[str],
    lift_now: Iterable[str] = (),
) -> tuple[tuple[Posting, ...], tuple[Change, ...]]:
    """What a player owes on receiving deeds from another player (trade or bankruptcy).

    For each mortgaged deed among ``slugs``, the receiver pays the interest
    at once; for those also in ``lift_now``, the principal too, and the
    mortgage is lifted. ``estate`` is the one before the deeds move.
    Refused if ``lift_now`` names a deed not received or not mortgaged.
    """
    received = list(slugs)
    lift = set(lift_now)
    for slug in lift:
        if slug not in received or not estate.is_mortgaged(slug):
            raise Refused(_('Not mortgaged'))
    postings: list[Posting] = []
    changes: list[Change] = []
    for slug in received:
        if not estate.is_mortgaged(slug):
            continue
        deed = edition.deed(slug)
        postings += pay(receiver, BANK, interest(edition, deed), "interest")
        if slug in lift:
            postings += pay(receiver, BANK, deed.mortgage, "lift-mortgage")
            changes.append(mortgaged_change(estate, slug, False))
    return tuple(postings), tuple(changes)
