"""Show the sum (a game setting for children): each payment's arithmetic, and the new balance asked first.

With :attr:`~banker.journal.records.GameSettings.sums` ``"show"``, the screen after
a payment is its sum for each player whose money changed (``15M - 4M =
11M``); with ``"ask"``, the player first types the new balance (an amount,
then ``M``/``K``). A wrong answer is a friendly hint; the second goes
through with the answer shown, as does ``FN`` ("show me"); ``C`` cancels
the payment. The step (:func:`banker.unit.step.step`) routes every reply that
commits a transaction here (:func:`with_sums`), one place for every flow.
"""

from __future__ import annotations

from dataclasses import dataclass

from banker.frozen import replace
from banker.text.i18n import _
from banker.unit import views
from banker.unit.entry import AmountEntry
from banker.errors import AmountError
from banker.unit.events import AMOUNT_KEYS, SUFFIXES, Key
from banker.fold.game import Game
from banker.money import format_amount
from banker.journal.records import Transaction, net_flows
from banker.unit.screen import Screen
from banker.unit.modes.base import Ctx, Mode, Reply

#: Wrong answers before the payment goes through with the answer shown.
TRIES = 2


@dataclass(frozen=True)
class Sum:
    """One player's sum: ``name``'s ``before`` balance, the ``change`` (negative: paid), the balance ``after``."""

    name: str
    before: int
    change: int

    @property
    def after(self) -> int:
        return self.before + self.change

    def text(self, answer: str | None = None) -> str:
        sign = "-" if self.change < 0 else "+"
        result = format_amount(self.after) if answer is None else answer
        return f"{format_amount(self.before)} {sign} {format_amount(abs(self.change))} = {result}"

    def line(self, answer: str | None = None) -> str:
        """``Bob 15M - 2M = 13M``; without the spaces, then without the name, when that is too long for a line."""
        text = self.text(answer)
        tight = text.replace(" ", "")
        for candidate in (f"{self.name} {text}", f"{self.name} {tight}", text):
            if len(candidate) <= views.LINE_WIDTH:
                return candidate
        return tight


def sums_of(game: Game, tx: Transaction) -> list[Sum]:
    """The sums of the players whose money ``tx`` changes, payers first."""
    flows = [(change, card) for card, change in net_flows(tx.postings).items() if change and card in game.names]
    return [Sum(game.name_of(card), game.balance(card), change) for change, card in sorted(flows)]


def with_sums(game: Game, reply: Reply) -> Reply:
    """``reply`` (which commits a transaction) with its sum shown, or asked first; unchanged if nobody's money moves
    or it undoes an entry (the sums are for the table's payments)."""
    tx = reply.record
    sums = sums_of(game, tx) if type(tx) is Transaction and tx.reverses is None else []
    if not sums:
        return reply
    title = tx.memo or (reply.message.lines[0] if reply.message is not None and reply.message.lines else "")
    shown = replace(reply, message=_sum_screen(title, sums))
    if game.settings.sums != "ask":
        return shown
    return Reply(mode=AskSum(shown, sums[0], title))


def _sum_screen(title: str, sums: list[Sum]) -> Screen:
    return views.screen(title, *(s.line() for s in sums[:3]))


@dataclass(frozen=True)
class AskSum(Mode):
    """The payment ``then`` waits for ``sum``'s new balance to be typed; ``tries`` wrong answers so far."""

    then: Reply
    sum: Sum
    title: str
    entry: AmountEntry = AmountEntry()
    tries: int = 0

    def screen(self, ctx: Ctx) -> Screen:
        typed = f"{self.entry.shown()}_" if not self.entry.empty else "?"
        return views.screen(self.title, self.sum.line(typed), _('{name}: new balance?', name=self.sum.name),
                            _('then M/K  FN: show me'))

    def key(self, ctx: Ctx, key: Key) -> Reply:
        if key == Key.FN:
            return self._through(_("{name}: it's {amount}", name=self.sum.name, amount=format_amount(self.sum.after)))
        try:
            if key in AMOUNT_KEYS:
                return Reply(mode=replace(self, entry=self.entry.type(key)))
            if key not in SUFFIXES:
                raise AmountError(_('Type the balance, M/K'))
            answer = self.entry.finish(key)
        except AmountError as exc:
            return ctx.refuse(views.refused(str(exc)), then=replace(self, entry=AmountEntry()))
        if answer == self.sum.after:
            return self._through(_('Right!'))
        if self.tries + 1 >= TRIES:
            return self._through(_("It's {amount}", amount=format_amount(self.sum.after)))
        hint = "less" if answer > self.sum.after else "more"  # a friendly hint: the key's tick, not the refusal's buzz
        return ctx.show(views.screen(_('Not quite!'), _("It's less than that") if hint == "less" else _("It's more than that"), self.sum.line("?"), _('Try again')),
                        mode=replace(self, entry=AmountEntry(), tries=self.tries + 1))

    def _through(self, head: str) -> Reply:
        """The payment goes through, its sums shown under ``head``."""
        shown = self.then.message
        lines = (head, *(shown.lines if shown is not None else ()))[:4]
        return replace(self.then, message=views.screen(*lines))
