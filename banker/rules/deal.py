"""What a rule returns: a Deal (money postings plus estate changes), and the funds check every deal passes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from banker.errors import AmountError, InsufficientFunds
from banker.records import Posting, Transaction, net_flows
from banker.rules.estate import Change
from banker.rules.position import Balances, Position
from banker.rules.settings import RuleSettings


@dataclass(frozen=True)
class Deal:
    """Everything one rule decided, to be committed whole or not at all.

    ``postings`` move money (bank = ``BANK``); ``changes`` are estate changes
    (see :mod:`banker.rules.estate`); ``summary`` fits one 21-character OLED
    line; ``kind`` names the rule (``"rent"``, ``"buy"``, ...).
    """

    postings: tuple[Posting, ...]
    changes: tuple[Change, ...]
    summary: str
    kind: str

    def to_transaction(self, memo: str | None = None) -> Transaction:
        """The transaction the ledger commits for this deal (memo defaults to the summary)."""
        return Transaction(
            kind=self.kind,
            postings=self.postings,
            memo=self.summary if memo is None else memo,
            changes=self.changes,
        )

    def net(self, party: int) -> int:
        """What ``party`` gains (negative: pays) over all the postings."""
        return net_flows(self.postings).get(party, 0)


def pay(payer: int | None, payee: int | None, amount: int, kind: str) -> tuple[Posting, ...]:
    """One posting, or none when the amount is zero (a free trade, an empty pocket)."""
    return (Posting(payer, payee, amount, kind),) if amount else ()


def require_funds(
    postings: Iterable[Posting],
    balances: Balances,
    rules: RuleSettings,
    exempt: Iterable[int] = (),
) -> None:
    """Refuse (:class:`InsufficientFunds`) if a card would end below zero.

    Each card is judged on its net over the whole deal, so money received in
    the same deal (a trade's price, a sale's proceeds) counts. ``exempt``
    cards are not checked (a bankrupt player hands over what they have).
    """
    if rules.allow_negative:
        return
    skip = set(exempt)
    for card, change in net_flows(postings).items():
        after = balances.get(card, 0) + change
        if change < 0 and after < 0 and card not in skip:
            raise InsufficientFunds("Not enough money", shortfall=-after)


def require_amount(amount: int, what: str = "Amount") -> int:
    """A positive whole number of dollars, or :class:`AmountError`."""
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise AmountError(f"{what} must be > 0")
    return amount


def settle(deal: Deal, game: Position, exempt: Iterable[int] = ()) -> Deal:
    """The deal itself once :func:`require_funds` accepts it on the game's balances and rules."""
    require_funds(deal.postings, game.balances, game.rules, exempt)
    return deal
