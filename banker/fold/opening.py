"""The one way a journal is opened: the game (and the worth chart's trail) folded from the newest snapshot on.

Whoever reads the game out of a store (the unit's ledger, the table page, the
snapshot the ledger takes) comes through :func:`open_journal`: the newest
:class:`~banker.journal.records.Snapshot` up to an entry, and the records after
it, folded by :func:`banker.fold.game.apply`. A start costs the same at any age
of the ledger. The store is asked only through the two questions of the
store port (:class:`banker.ports.Store`) that :class:`Journal` names.

:func:`with_worth` gives a snapshot the chart's trail it carries (derived data,
for the page only: the fold's check of a snapshot leaves it out), carried on
from the previous snapshot's over the records since, or folded from the
game's start when the game is short.

>>> from banker.fold import acts
>>> from banker.fold.game import Game
>>> from banker.journal.records import GameSettings
>>> from cards import editions
>>> class Journal(list):
...     def last_snapshot(self, before=None): return None
...     def records(self, since=0, until=None): return iter(self[since:until])
>>> journal = Journal([acts.new_game(Game(editions=editions()), GameSettings())])
>>> opened = open_journal(journal, editions=editions(), trail=True)
>>> opened.game.id, opened.snapshot_seq, opened.trail.game
(1, 0, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol
from collections.abc import Iterator, Mapping

from banker.frozen import replace
from banker.errors import LedgerError, Refused
from banker.fold.game import Game, from_snapshot, replay
from banker.fold.history import follow_trail, worth_trail
from banker.journal.records import Record, Snapshot, Transaction
from banker.journal.worth_trail import WorthTrail
from banker.rules.deeds import Edition

#: A game with at most this many transactions gets its trail folded from its start when none can be carried on.
FROM_START_AT_MOST = 1000


class Journal(Protocol):
    """What opening asks of a store (the reading side of the store port, :class:`banker.ports.Store`)."""

    def records(self, since: int = 0, until: int | None = None) -> Iterator[Record]:
        """The records after entry ``since`` up to entry ``until`` (None: the last), in order (streamed)."""
        ...

    def last_snapshot(self, before: int | None = None) -> tuple[int, Snapshot] | None:
        """The newest :class:`Snapshot` (before entry ``before``) and its entry number, if any: a fold starts there."""
        ...


class GameJournal(Journal, Protocol):
    """A journal that also reads one game's transactions (for a trail folded from the game's start)."""

    def iter_game_transactions(self, game_id: int) -> Iterator[Transaction]:
        """The transactions of game ``game_id``, in order, read as they are needed."""
        ...


@dataclass(frozen=True)
class Opened:
    """The game a journal folds to, the entry of the snapshot it was folded from (0: none) and, when asked
    for, the current game's worth trail carried from that snapshot (None: there was none to carry)."""

    game: Game
    snapshot_seq: int
    trail: WorthTrail | None = None


def open_journal(store: Journal, *, editions: Mapping[str, Edition], until: int | None = None,
                 trail: bool = False) -> Opened:
    """The game of ``store``'s entries up to ``until`` (None: all): the newest snapshot among them, and the records
    after it. ``trail``: carry the snapshot's worth trail along too. :class:`banker.errors.Refused` if a record
    does not fold."""
    found = store.last_snapshot(before=None if until is None else until + 1)
    since = found[0] if found is not None else 0
    start = None if found is None else from_snapshot(found[1], editions=editions)
    records = store.records(since) if until is None else store.records(since, until)
    if not trail:
        return Opened(replay(records, editions=editions, start=start), since)
    game, carried = follow_trail(None if found is None else found[1].worth,
                                 start if start is not None else replay((), editions=editions), records)
    return Opened(game, since, carried)


def with_worth(store: GameJournal, snapshot: Snapshot, *, editions: Mapping[str, Edition]) -> Snapshot:
    """``snapshot`` (of the game ``store``'s records fold to) with its game's worth trail; as it is when there is
    no game, it has one, or none can be made cheaply (an edition this banker lacks, a journal that does not fold)."""
    if snapshot.current is None or snapshot.worth is not None:
        return snapshot
    try:
        trail = _trail(store, snapshot, editions)
    except (Refused, LedgerError):  # no chart to carry: the page folds the game's journal itself
        trail = None
    return snapshot if trail is None else replace(snapshot, worth=trail)


def _trail(store: GameJournal, snapshot: Snapshot, editions: Mapping[str, Edition]) -> WorthTrail | None:
    game_id = snapshot.current.game
    carried = open_journal(store, editions=editions, trail=True).trail  # None: the last snapshot had none to carry
    if carried is not None and carried.game == game_id:
        return carried
    if snapshot.current.transactions <= FROM_START_AT_MOST:
        return worth_trail(from_snapshot(snapshot, editions=editions), store.iter_game_transactions(game_id))
    return None

