"""Undo: the reversing entry that cancels a committed transaction (nothing is ever deleted)."""

from __future__ import annotations

from banker.text.i18n import _
from banker.errors import Refused
from banker.fold.game import Game
from banker.money import format_amount
from banker.journal.records import Posting, Transaction
from banker.rules.estate import apply, reverse
from banker.rules.holdings import step as building_step


def last_undoable(game: Game) -> Transaction | None:
    """The current game's last transaction if the keypad may undo it (not an opening, not an undo)."""
    last = game.last
    if last is None or last.kind == "opening" or last.reverses is not None:
        return None
    return last


def undo_last(game: Game) -> Transaction:
    """The reversing entry of the current game's last transaction (``FN C``, ``M``; ``banker ledger undo``)."""
    last = game.last
    if last is None or last.kind == "opening":
        raise Refused(_('nothing to undo'))
    if last.reverses is not None:
        raise Refused(_('already undone'))
    return reversal(game, last)


def reversal(game: Game, target: Transaction) -> Transaction:
    """The transaction that undoes ``target``: every posting back the other way, every change reversed.

    Refused when it is not in the current game, an opening balance, an undo
    itself, already undone, when undoing it would leave a colour group
    unevenly built, or no longer fits the deeds (a later change stands on
    it). The fold refuses it, like any transaction, if it would take a
    balance below zero (negative balances off).
    """
    if target.game != game.id:
        raise Refused(f"#{target.id} is in game {target.game}, not the current game")
    if target.kind == "opening":
        raise Refused(_("opening balances can't be undone"))
    if target.reverses is not None:
        raise Refused(_('#{id} is an undo itself', id=target.id))
    if target.id in game.undone:
        raise Refused(_('#{id} is already undone', id=target.id))
    postings = tuple(Posting(p.payee, p.payer, p.amount, p.kind) for p in reversed(target.postings))
    undo = game.numbered(Transaction("undo", postings, f"Undo #{target.id} {target.memo}"[:60], reverses=target.id,
                                     changes=reverse(target.changes)))
    check_even_building(game, apply(game.estate, undo.changes))
    return undo


def described(game: Game, tx: Transaction) -> tuple[str, str]:
    """Who paid whom in ``tx`` and how much, as two screen lines ("Bank paid Alice", "2M").

    One payment names both sides; several (a trade, a building sale) give the
    memo and what the players' cash moved in all.
    """
    if len(tx.postings) == 1:
        p = tx.postings[0]
        return _("{payer} paid {payee}", payer=game.name_of(p.payer), payee=game.name_of(p.payee)), format_amount(p.amount)
    total = sum(p.amount for p in tx.postings)
    moved = _("{n} payments, {amount}", n=len(tx.postings), amount=format_amount(total)) if total else _("no money moved")
    return tx.memo or tx.kind, moved


def check_even_building(game: Game, estate) -> None:
    """Refuse an estate in which a colour group stands unevenly built (an undo of an older build or sale)."""
    edition, rules = game.edition, game.rules
    for group in {d.group for d in edition.deeds if d.kind == "street"}:
        levels = [building_step(estate.houses(d.slug), rules) for d in edition.group(group)]
        if max(levels) - min(levels) > 1:
            raise Refused(_('undoing it leaves {group} unevenly built', group=group))
