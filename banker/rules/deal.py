"""What a rule returns: a Deal (money postings plus estate changes, with a one-line summary).

A rule does not check funds: the fold (:func:`banker.fold.game.apply`) is the one
place that refuses a transaction taking a balance below zero.
"""

from __future__ import annotations

from dataclasses import dataclass

from banker.errors import AmountError
from banker.journal.records import Posting, Transaction, net_flows
from banker.rules.estate import Change


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
            memo=self.summary if memo is None else memo,  # a text (English in the journal) the screens show translated
            changes=self.changes,
        )

    def net(self, party: int) -> int:
        """What ``party`` gains (negative: pays) over all the postings."""
        return net_flows(self.postings).get(party, 0)


def pay(payer: int | None, payee: int | None, amount: int, kind: str) -> tuple[Posting, ...]:
    """One posting, or none when the amount is zero (a free trade, an empty pocket)."""
    return (Posting(payer, payee, amount, kind),) if amount else ()


def require_amount(amount: int, what: str = "Amount") -> int:
    """A positive whole number of dollars, or :class:`AmountError`."""
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise AmountError(f"{what} must be > 0")
    return amount
