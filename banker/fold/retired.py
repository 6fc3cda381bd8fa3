"""A retired player is out: after a bankruptcy their card is refused in every transaction (pays, receives, buys,
trades, is a bankruptcy's creditor), until an undo of that bankruptcy brings them back.

The fold (:func:`banker.fold.game.apply`) asks :func:`refuse_retired` of each
transaction while anyone is retired, before its funds rule; a player retired
both before and after the transaction may not take part in it (the undo that
brings them back does; the bankruptcy that retires them found them playing).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from banker.text.i18n import _
from banker.errors import Refused
from banker.journal.records import JailCardChange, OwnerChange, RetiredChange, Transaction

if TYPE_CHECKING:
    from banker.fold.state import Game


class PlayerRetired(Refused):
    """A transaction named a player who is out of the game."""


def refuse_retired(game: Game, tx: Transaction) -> None:
    """Refuse ``tx`` if it names a player retired before and after it as a party, a deed's new owner or a jail
    card's new holder."""
    out = game.estate.retired - {c.player for c in tx.changes if type(c) is RetiredChange}
    parties = [p.payer for p in tx.postings] + [p.payee for p in tx.postings]
    parties += [c.after for c in tx.changes if type(c) in (OwnerChange, JailCardChange)]
    for party in parties:
        if party in out:  # only players retire: never the bank (None) nor the pot (0)
            raise PlayerRetired(_('{name} is bankrupt', name=game.name_of(party)))
