"""What every rules flow shares: the game's rule settings, running a rule and committing its deal, typed numbers, result screens."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from .. import views
from ..entry import AmountEntry
from ..errors import AmountError, InsufficientFunds, Refused
from ..events import Effect
from ..ledger import Card
from ..modes import FnMenu, Mode
from ..money import format_amount, format_signed
from ..rules import Deal, RuleSettings, end_game_worth, total_worth
from ..screen import Screen

if TYPE_CHECKING:
    from ..unit import Unit

Shown = Callable[[Deal], Screen]


def rule_settings(ledger) -> RuleSettings:
    """The rules engine's settings for the ledger's current game."""
    s = ledger.game().settings
    return RuleSettings(
        allow_negative=s.allow_negative,
        houses_for_hotel=s.houses_for_hotel,
        income_tax_choice=s.income_tax_choice,
        luxury_tax=s.luxury_tax,
    )


def is_short_game(ledger) -> bool:
    """A short game is a game whose hotels need 3 houses (``banker game new --short-game``)."""
    return ledger.game().settings.houses_for_hotel == 3


def deal_of(ledger, rule, **details) -> Deal:
    """What ``rule`` decides on the ledger's current game (raises if it refuses)."""
    return rule(ledger.edition(), ledger.estate(), ledger.balances_by_id(), rule_settings(ledger), **details)


def act(
    unit: "Unit",
    rule,
    shown: Shown,
    *,
    actor: Card | None,
    stay: bool = False,
    memo: str | None = None,
    **details,
) -> list[Effect]:
    """Run ``rule`` and commit its deal; on success show ``shown(deal)``.

    A refusal of the rules (not the owner, build evenly, short of funds, ...)
    is shown with the refusal tone and keeps the mode, so the players can put
    the right card down and try again; nothing is posted. ``stay`` keeps the
    mode after a success too (building house after house); otherwise the flow
    ends. ``actor`` is the card whose shortfall a funds refusal names.
    """
    ledger = unit.ledger
    try:
        deal = deal_of(ledger, rule, **details)
    except InsufficientFunds as exc:
        if actor is None:
            return unit.refuse(views.refused(str(exc)), keep_mode=True)
        return unit.refuse(views.short_of_funds(actor, exc.shortfall, ledger.balance(actor.id)), keep_mode=True)
    except (Refused, AmountError) as exc:
        return unit.refuse(views.refused(str(exc)), keep_mode=True)
    if not stay:
        unit.leave()
    return unit.commit(deal.to_transaction(memo), lambda: shown(deal))


def one_player_result(unit: "Unit", card: Card, title: str | None = None) -> Shown:
    """The screen after a deal that changed one player's money: name and change, new balance big, the summary."""

    def shown(deal: Deal) -> Screen:
        net = deal.net(card.id)
        head = f"{card.name} {format_signed(net)}" if net else card.name
        return views.screen(head, format_amount(unit.ledger.balance(card.id)), title or deal.summary, big=1)

    return shown


def two_player_result(unit: "Unit", payer: Card, payee: Card) -> Shown:
    """The screen after a deal between two players: the summary, what changed hands, both new balances."""

    def shown(deal: Deal) -> Screen:
        paid = -deal.net(payer.id)
        bal = unit.ledger.balance
        return views.screen(
            deal.summary,
            f"{payer.name} paid {format_amount(paid)}" if paid > 0 else "No money moved",
            f"- {payer.name} {format_amount(bal(payer.id))}",
            f"+ {payee.name} {format_amount(bal(payee.id))}",
        )

    return shown


def price_of(entry: AmountEntry, suffix: str, *, allow_zero: bool = False) -> int:
    """The amount typed, finished by ``M``/``K``; ``allow_zero`` accepts a typed ``0`` (a gift in a trade)."""
    if allow_zero and entry.typed and set(entry.typed) <= {"0", "."} and any(c == "0" for c in entry.typed):
        return 0
    return entry.finish(suffix)


def names(ledger) -> dict[int, str]:
    """Every card id ever enrolled with its name (a retired card keeps its name)."""
    every = getattr(ledger, "card_names", None)
    return {**(every() if every else {}), **{c.id: c.name for c in ledger.cards()}}


def worth_of(ledger, card_id: int) -> int:
    """The player's total worth: cash + printed price of every deed + buildings at cost."""
    return total_worth(ledger.edition(), ledger.estate(), ledger.balances_by_id(), rule_settings(ledger), card_id)


def end_worth_of(ledger, card_id: int) -> int:
    """The short and time-limit game's valuation (a mortgaged deed counts half its price)."""
    return end_game_worth(ledger.edition(), ledger.estate(), ledger.balances_by_id(), rule_settings(ledger), card_id)


def in_game(ledger) -> list[Card]:
    """The players still playing: money left, or a deed (a bankrupt player has neither)."""
    estate = ledger.estate()
    return [c for c in ledger.cards() if ledger.balance(c.id) > 0 or estate.deeds_of(c.id)]


def bankruptcies(ledger) -> int:
    """How many bankruptcies the current game has seen (undone ones not counted)."""
    journal = ledger.transactions()
    undone = {tx.reverses for tx in journal if tx.reverses is not None}
    return sum(1 for tx in journal if tx.kind == "bankruptcy" and tx.id not in undone)


def card_moved(unit: "Unit") -> list[Effect]:
    """A flow for given cards ends when a card comes or goes: nothing is changed."""
    unit.leave()
    return unit.refuse(views.cancelled("A card moved"))


class Flow(Mode):
    """A rules flow: ``FN`` always starts over at the FN menu; every other key goes to :meth:`press`."""

    def key(self, unit: "Unit", key: str) -> list[Effect]:
        if key == "FN":
            return self.fn(unit)
        return self.press(unit, key)

    def fn(self, unit: "Unit") -> list[Effect]:
        return unit.enter(FnMenu())

    def press(self, unit: "Unit", key: str) -> list[Effect]:
        raise NotImplementedError


class AmountFlow(Flow):
    """A flow that waits for an amount (digits, ``.``, then ``M``/``K``) and hands it to :meth:`priced`.

    ``hint`` is the refusal for any other key; ``allow_zero`` accepts a typed
    ``0`` (a gift).
    """

    hint = "Amount, then M or K"
    allow_zero = False
    entry: AmountEntry = AmountEntry()

    def press(self, unit: "Unit", key: str) -> list[Effect]:
        try:
            if key.isdigit() or key == ".":
                self.entry = self.entry.type(key)
                return [unit.tone("key")]
            if key not in ("M", "K"):
                raise AmountError(self.hint)
            amount = price_of(self.entry, key, allow_zero=self.allow_zero)
        except AmountError as exc:
            return unit.refuse(views.refused(str(exc)), keep_mode=True)
        self.entry = AmountEntry()
        return self.priced(unit, amount)

    def priced(self, unit: "Unit", amount: int) -> list[Effect]:
        raise NotImplementedError
