"""What every rules flow shares: running a rule and committing its deal, typed numbers, result screens."""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable

from banker.frozen import replace
from banker.text.i18n import _
from banker.unit import views
from banker.unit.entry import AmountEntry
from banker.errors import AmountError, Refused
from banker.rules.deeds import UnknownDeed
from banker.unit.events import AMOUNT_KEYS, DIGITS, SUFFIXES, Key
from banker.fold.game import Game
from banker.unit.modes.base import MENU, STAY, Ctx, Mode, Reply, Then
from banker.money import format_amount, format_signed
from banker.journal.records import Card
from banker.rules import Deal
from banker.unit.screen import Screen

#: A result screen: built from the deal and the game it leads to.
DealShown = Callable[[Deal, Game], Screen]


def act(ctx: Ctx, rule, shown: DealShown, *, actor: Card | None, stay: object = None, back: Then | Mode = STAY,
        memo: str | None = None, **details) -> Reply:
    """Run ``rule`` and commit its deal; on success show ``shown(deal, game after)``.

    A refusal of the rules (not the owner, build evenly, short of funds, ...)
    is shown with the refusal tone and keeps the flow (``back``: where the
    refusal leaves the unit instead, a mode or a :class:`~banker.unit.modes.base.Then`), so the players can put the right card down and try
    again; nothing is written. ``stay`` is the mode after a success (building
    house after house); None ends the flow. ``actor`` is the card whose
    shortfall a funds refusal names.
    """
    game = ctx.game
    try:
        deal = rule(game, **details)  # a rule never refuses for funds: the fold does, in ctx.commit below
    except (Refused, AmountError) as exc:
        return ctx.refuse(views.refused(str(exc)), then=back)
    tx = game.numbered(deal.to_transaction(memo))
    return ctx.commit(tx, lambda after: shown(deal, after), mode=stay, on_refusal=back, actor=actor)


def one_player_result(card: Card, title: str | None = None) -> DealShown:
    """The screen after a deal that changed one player's money: name and change, new balance big, the summary."""

    def shown(deal: Deal, after: Game) -> Screen:
        net = deal.net(card.id)
        head = f"{card.name} {format_signed(net)}" if net else card.name
        return views.screen(head, format_amount(after.balance(card.id)), title or deal.summary, big=1)

    return shown


def two_player_result(payer: Card, payee: Card) -> DealShown:
    """The screen after a deal between two players: the summary, what changed hands, both new balances."""

    def shown(deal: Deal, after: Game) -> Screen:
        paid = -deal.net(payer.id)
        return views.screen(
            deal.summary,
            _('{name} paid {amount}', name=payer.name, amount=format_amount(paid)) if paid > 0 else _('No money moved'),
            f"- {payer.name} {format_amount(after.balance(payer.id))}",
            f"+ {payee.name} {format_amount(after.balance(payee.id))}",
        )

    return shown


def price_of(entry: AmountEntry, suffix: str, *, allow_zero: bool = False) -> int:
    """The amount typed, finished by ``M``/``K``; ``allow_zero`` accepts a typed ``0`` (a gift in a trade)."""
    if allow_zero and entry.typed and set(entry.typed) <= {"0", "."} and any(c == "0" for c in entry.typed):
        return 0
    return entry.finish(suffix)


class Flow(Mode):
    """A rules flow: ``FN`` always starts over at the FN menu; every other key goes to :meth:`press`."""

    def key(self, ctx: Ctx, key: Key) -> Reply:
        if key == Key.FN:
            return self.fn(ctx)
        return self.press(ctx, key)

    def fn(self, ctx: Ctx) -> Reply:
        return ctx.enter(MENU)

    def press(self, ctx: Ctx, key: Key) -> Reply:
        raise NotImplementedError


@dataclass(frozen=True)
class AmountFlow(Flow):
    """A flow that waits for an amount (digits, ``.``, then ``M``/``K``) and hands it to :meth:`priced`.

    ``hint`` is the refusal for any other key; ``allow_zero`` accepts a typed
    ``0`` (a gift). Subclasses are dataclasses with an ``entry`` field.
    """

    hint = _('Amount, then M or K')
    allow_zero = False

    def press(self, ctx: Ctx, key: Key) -> Reply:
        try:
            if key in AMOUNT_KEYS:
                return ctx.enter(replace(self, entry=self.entry.type(key)))
            if key not in SUFFIXES:
                raise AmountError(self.hint)
            amount = price_of(self.entry, key, allow_zero=self.allow_zero)
        except AmountError as exc:
            return ctx.refuse(views.refused(str(exc)), then=STAY)
        return self.priced(replace(self, entry=AmountEntry()), ctx, amount)

    def priced(self, cleared: AmountFlow, ctx: Ctx, amount: int) -> Reply:
        """``amount`` typed; ``cleared`` is this flow with its entry cleared."""
        raise NotImplementedError


def square_typed(ctx: Ctx, mode, key: Key, *hint: str) -> Reply | str:
    """A board square typed after ``FN`` in a flow that takes deeds itself (a deal, a house's lot): ``mode.square``
    holds the digit so far ("" just after ``FN``). The reply while typing or for a refusal (``hint``: the refusal's
    extra line), or the slug of the deed the two digits name."""
    back = replace(mode, square=None)
    if key not in DIGITS or (not mode.square and key not in "0123"):
        return ctx.refuse(views.refused(_('FN: two digits 01-39'), *hint), then=back)
    if not mode.square:
        return ctx.enter(replace(mode, square=str(key)))
    position = int(mode.square + key)
    try:
        return ctx.game.edition.at(position).slug
    except UnknownDeed:  # a square with no deed (GO, a tax, a card)
        return ctx.refuse(views.refused(_('No deed on {position}', position=f"{position:02d}"),
                                        _('Deeds: squares 01-39')), then=back)
