"""Undo: the reversing entry that cancels a committed transaction (nothing is ever deleted)."""

from __future__ import annotations

from typing import Iterable, Mapping

from .errors import InsufficientFunds, Refused
from .ledger import BANK, Posting, Transaction, fold_balances
from .money import format_amount


def reversal_of(
    target: Transaction,
    journal: Iterable[Transaction],
    balances: Mapping[int, int],
    *,
    allow_negative: bool,
    names: Mapping[int, str] | None = None,
) -> Transaction:
    """The transaction that undoes ``target``: every posting back the other way, every change reversed.

    Refused for an opening balance, a reversal, a transaction already undone,
    or (unless negative balances are allowed) one whose undoing would take a
    balance below zero. Estate changes are reversed in order; whether they
    still fit the estate is the ledger's check when it commits.
    """
    from .rules.estate import reverse

    if target.kind == "opening":
        raise Refused("opening balances can't be undone")
    if target.reverses is not None:
        raise Refused(f"#{target.id} is an undo itself")
    for tx in journal:
        if tx.reverses == target.id:
            raise Refused(f"#{target.id} is already undone")
    postings = tuple(Posting(p.payee, p.payer, p.amount, p.kind) for p in reversed(target.postings))
    undo = Transaction("undo", postings, f"Undo #{target.id} {target.memo}"[:60], reverses=target.id,
                       changes=reverse(target.changes))
    if not allow_negative:
        after = dict(balances)
        for cid, delta in fold_balances([undo]).items():
            after[cid] = after.get(cid, 0) + delta
            if after[cid] < 0 and cid is not BANK:
                who = (names or {}).get(cid, f"card {cid}")
                raise InsufficientFunds(f"{who} short {format_amount(-after[cid])}", -after[cid])
    return undo


def undo(ledger, tx_id: int | None = None) -> Transaction:
    """Post, through the ``ledger`` port, the reversing entry of ``tx_id`` (default: the game's last transaction).

    Refused when it is an opening balance, an undo itself, already undone,
    not in the current game, when undoing it would take a balance below zero
    (negative balances off), leave a colour group unevenly built, or no
    longer fits the deeds (a later change stands on it).
    """
    from .rules.estate import apply
    from .rules.settings import RuleSettings

    journal = ledger.transactions()
    if tx_id is None:
        if not journal or journal[-1].kind == "opening":
            raise Refused("nothing to undo")
        target = journal[-1]
        if target.reverses is not None:
            raise Refused("already undone")
    else:
        target = ledger.transaction(tx_id)
        if target.game != ledger.game().id:
            raise Refused(f"#{tx_id} is in game {target.game}, not the current game")
    settings = ledger.game().settings
    reversal = reversal_of(target, journal, ledger.balances_by_id(), allow_negative=settings.allow_negative,
                           names=ledger.card_names())
    check_even_building(ledger.edition(), apply(ledger.estate(), reversal.changes),
                        RuleSettings(houses_for_hotel=settings.houses_for_hotel))
    return ledger.post(reversal)


def check_even_building(edition, estate, settings) -> None:
    """Refuse an estate in which a colour group stands unevenly built (an undo of an older build or sale)."""
    from .rules.holdings import step

    for group in {d.group for d in edition.deeds if d.kind == "street"}:
        levels = [step(estate.houses(d.slug), settings) for d in edition.group(group)]
        if max(levels) - min(levels) > 1:
            raise Refused(f"undoing it leaves {group} unevenly built")
