"""What the audit checks of a transaction's postings: positive whole amounts, enrolled cards, the bank's money moved.

:func:`postings` says what is wrong with a transaction's postings and counts
the money they move; :func:`moved_money` is its fast path for a transaction
the fold took. :mod:`banker.audit.checks` runs them over every transaction.
"""

from __future__ import annotations

from collections.abc import Mapping

from banker.audit.findings import GameTotals, Problem
from banker.journal.records import BANK, POT, Posting, Transaction


def postings(tx: Transaction, names: Mapping[int, str], totals: GameTotals, problems: list[Problem], *,
             players: bool = False) -> None:
    """What is wrong with ``tx``'s postings goes into ``problems``; the bank's money into ``totals``, and the
    players' too if ``players`` (a game no fold reaches)."""
    for p in tx.postings:
        amount = p.amount
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            problems.append(Problem(tx.id, f"posting of {amount!r} is not a positive whole amount"))
            continue
        problems += [Problem(tx.id, f"names card {party}, which was never enrolled")
                     for party in (p.payer, p.payee) if party is not BANK and party not in names and party != POT]
        _count(p, totals, players)


def _count(p: Posting, totals: GameTotals, players: bool) -> None:
    """The money a posting moves: the bank's issued or taken back, and the players' if ``players``."""
    if p.payer is BANK:
        totals.issued += p.amount
    elif players:
        totals.players[p.payer] = totals.players.get(p.payer, 0) - p.amount
    if p.payee is BANK:
        totals.returned += p.amount
    elif players:
        totals.players[p.payee] = totals.players.get(p.payee, 0) + p.amount


def moved_money(tx: Transaction, names: Mapping[int, str], totals: GameTotals, problems: list[Problem]) -> None:
    """:func:`postings` of a transaction the fold took (so every card it names is enrolled), written out."""
    issued = returned = 0
    for p in tx.postings:
        amount = p.amount
        if type(amount) is not int or amount <= 0:
            postings(tx, names, totals, problems)
            return
        if p.payer is BANK:
            issued += amount
        if p.payee is BANK:
            returned += amount
    totals.issued += issued
    totals.returned += returned
