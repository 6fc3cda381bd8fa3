"""Raising cash: what a player short of money can sell back or mortgage, step by step, and whether it is enough.

When the fold refuses a payment for a shortfall ("Bob short 890K"), the
player may raise the money from the bank before paying, as the rules allow,
in order of what it costs them:

1. mortgage the deeds whose group is bare already, the smallest mortgage
   first (it costs the 10% interest when lifted later);
2. sell buildings back at half the house price (it costs the other half),
   evenly (a lot of a group never stands two steps below another: the
   highest lot of the group sells first), the groups with the cheapest
   houses first; a hotel whose houses the bank cannot give back is sold
   down with its group (:func:`~banker.rules.buildings.sell_down`) to the
   most houses the bank can cover;
3. then mortgage the deeds those sales left unimproved (a deed can be
   mortgaged only once its whole group is bare), the smallest first.

:func:`raising_plan` lists every step in that order, each with what it
raises and the rule that carries it out, so the player can take them one
at a time (one transaction each) and stop as soon as the shortfall is
covered. Each step is the rule's own deal, worked out on the estate the
steps before it leave, so the amounts and the order are exactly what the
rules will do. Pure: nothing here is committed.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Mapping

from banker.frozen import replace
from banker.text.i18n import _
from banker.rules.deeds import Deed, Edition
from banker.errors import Refused
from banker.money import format_amount
from banker.rules.buildings import sell_building, sell_down
from banker.rules.deal import Deal
from banker.rules.estate import Estate, apply
from banker.rules.holdings import group_is_built, owned_deeds, resale_per_step, step
from banker.rules.mortgages import mortgage
from banker.rules.position import Position
from banker.rules.settings import RuleSettings

#: The kinds of step.
SELL, SELL_DOWN, MORTGAGE = "sell", "sell-down", "mortgage"


@dataclass(frozen=True)
class RaiseStep:
    """One way to raise cash: ``action`` (:data:`SELL` one building off the lot ``target``, :data:`SELL_DOWN` the
    group ``target`` to ``houses`` a lot, :data:`MORTGAGE` the deed ``target``), what it ``raises``, and a
    ``label`` for the screen (at most 21 characters)."""

    action: str
    target: str
    raises: int
    label: str
    houses: int = 0

    @property
    def rule(self):
        """The rule that carries the step out (called with :meth:`details`)."""
        return {SELL: sell_building, SELL_DOWN: sell_down, MORTGAGE: mortgage}[self.action]

    def details(self, player: int) -> dict[str, object]:
        """The rule's keyword arguments for ``player``."""
        if self.action == SELL_DOWN:
            return {"player": player, "group": self.target, "houses": self.houses}
        return {"player": player, "slug": self.target}

    def deal(self, game: Position, player: int) -> Deal:
        """The step's deal on ``game`` (refused as its rule refuses)."""
        return self.rule(game, **self.details(player))


@dataclass(frozen=True)
class Plan:
    """Every step ``player`` can take to raise cash, in order, against a ``shortfall``."""

    player: int
    shortfall: int
    steps: tuple[RaiseStep, ...]

    @property
    def total(self) -> int:
        """What all the steps raise together."""
        return sum(s.raises for s in self.steps)

    @property
    def covers(self) -> bool:
        """Whether taking every step raises the shortfall."""
        return self.total >= self.shortfall

    @property
    def needed(self) -> tuple[RaiseStep, ...]:
        """The first steps, up to the one that covers the shortfall (all of them when nothing covers it)."""
        raised = 0
        for i, s in enumerate(self.steps):
            raised += s.raises
            if raised >= self.shortfall:
                return self.steps[: i + 1]
        return self.steps

    @property
    def still_short(self) -> int:
        """What would still be missing after every step (0 when the plan covers the shortfall)."""
        return max(self.shortfall - self.total, 0)


@dataclass(frozen=True)
class _Board:
    """The position as the steps leave it (only the estate changes: the rules read the rest)."""

    edition: Edition
    estate: Estate
    balances: Mapping[int, int]
    rules: RuleSettings


def raising_plan(game: Position, *, player: int, shortfall: int) -> Plan:
    """The steps by which ``player`` can raise ``shortfall`` dollars: bare deeds' mortgages, building sales, then the
    mortgages those sales make possible.

    Refused if the player is out of the game. A shortfall of 0 or less
    still lists every step (the player may raise cash anyway).
    """
    if player in game.estate.retired:
        raise Refused(_('The player is out already'))
    board = _Board(game.edition, game.estate, game.balances, game.rules)
    steps = _mortgages(board, player)  # the cheapest money: 10% to lift later, against half a building's price
    first = {s.target for s in steps}
    while (sale := _next_sale(board, player)) is not None:
        s, deal = sale
        steps.append(s)
        board = replace(board, estate=apply(board.estate, deal.changes))
    steps += [s for s in _mortgages(board, player) if s.target not in first]
    return Plan(player, shortfall, tuple(steps))


def _next_sale(board: _Board, player: int) -> tuple[RaiseStep, Deal] | None:
    """The next building to sell: in the group with the cheapest houses, off its highest lot (even selling)."""
    edition, estate, rules = board.edition, board.estate, board.rules
    built = {d.group for d in owned_deeds(edition, estate, player) if estate.houses(d.slug)}
    firsts = [edition.group(group)[0] for group in built]
    for first in sorted(firsts, key=lambda d: (resale_per_step(d), edition.deeds.index(d))):
        lots = [d for d in edition.group(first.group) if estate.owner(d.slug) == player]
        top = max(lots, key=lambda d: (step(estate.houses(d.slug), rules), edition.deeds.index(d)))
        found = _sale_off(board, player, top)
        if found is not None:
            return found
    return None


def _sale_off(board: _Board, player: int, lot: Deed) -> tuple[RaiseStep, Deal] | None:
    """Selling the top building off ``lot``: alone if the rules allow, else its group sold down as far as needed."""
    try:
        deal = sell_building(board, player=player, slug=lot.slug)
        return RaiseStep(SELL, lot.slug, deal.net(player), deal.summary), deal
    except Refused:
        pass
    for houses in range(board.rules.houses_for_hotel, -1, -1):  # the bank is short of houses: the most it can cover
        try:
            deal = sell_down(board, player=player, group=lot.group, houses=houses)
        except Refused:
            continue
        return RaiseStep(SELL_DOWN, lot.group, deal.net(player), _("{group} down to {n}", group=lot.group, n=houses), houses), deal
    return None


def _mortgages(board: _Board, player: int) -> list[RaiseStep]:
    """The deeds that can be mortgaged on ``board`` (their whole group bare), the smallest mortgage first."""
    edition, estate = board.edition, board.estate
    deeds = [d for d in owned_deeds(edition, estate, player)
             if not estate.is_mortgaged(d.slug) and not group_is_built(edition, estate, d.group)]
    deeds.sort(key=lambda d: (d.mortgage, edition.deeds.index(d)))
    return [RaiseStep(MORTGAGE, d.slug, d.mortgage, _("Mortgage {deed}", deed=d.short)) for d in deeds if d.mortgage > 0]


def describe(plan: Plan) -> tuple[str, ...]:
    """The plan in lines of text ("House off Boardwalk +1M"), for a report or a test's failure message."""
    return tuple(f"{s.label} +{format_amount(s.raises)}" for s in plan.steps)
