"""The worth chart's trail each snapshot carries, added as the store writes it, so the table page folds from there.

The trail (:class:`banker.journal.worth_trail.WorthTrail`) is derived data, for the
page's chart only: the fold's check of a snapshot leaves it out. It is
carried on from the previous snapshot's over the records since
(:func:`banker.fold.history.follow_trail`: at most a snapshot's interval of
them), or folded from the game's start when the game is short (the first
snapshot, a game brought back). A ledger of an earlier release, whose
snapshots have none, gets one at its next game (or at once if the game is
short); until then the page folds the game's journal itself.
"""

from __future__ import annotations

from dataclasses import replace

from banker.errors import LedgerError, Refused
from banker.fold.game import from_snapshot, replay
from banker.fold.history import follow_trail, worth_trail
from banker.journal.records import Snapshot
from banker.journal.worth_trail import WorthTrail

from .editions import all_editions

#: A game with at most this many transactions gets its trail folded from its start when none can be carried on.
FROM_START_AT_MOST = 1000


def with_worth(store, snapshot: Snapshot) -> Snapshot:
    """``snapshot`` with its game's worth trail (as it is when there is no game, or no trail can be made cheaply)."""
    if snapshot.current is None or snapshot.worth is not None:
        return snapshot
    try:
        trail = _trail(store, snapshot)
    except (Refused, LedgerError):  # an edition this banker lacks, a journal that does not fold: no chart to carry
        trail = None
    return snapshot if trail is None else replace(snapshot, worth=trail)


def _trail(store, snapshot: Snapshot) -> WorthTrail | None:
    game_id = snapshot.current.game
    editions = all_editions()
    found = store.last_snapshot()
    if found is None or found[1].worth is not None or found[1].current is None:
        start = replay((), editions=editions) if found is None else from_snapshot(found[1], editions=editions)
        _game, trail = follow_trail(None if found is None else found[1].worth, start,
                                    store.records(0 if found is None else found[0]))
        if trail is not None and trail.game == game_id:
            return trail
    if snapshot.current.transactions <= FROM_START_AT_MOST:
        return worth_trail(from_snapshot(snapshot, editions=editions), store.iter_game_transactions(game_id))
    return None
