"""Where the table page reads the game: a second, read-only store on the ledger file, or a running unit's snapshots.

Either way the page never blocks the unit. :class:`FileSource` opens its
own read-only :class:`store.SqliteStore` on the ledger file (in the server's
thread: SQLite's WAL lets a reader read while the unit appends, and the
reader takes no lock) and folds each new record into its own
:class:`~banker.fold.game.Game` with :func:`banker.fold.game.apply`, exactly as the
unit does. It serves ``banker web`` beside a running unit and a unit's own
page alike. Opening folds only from the last snapshot, whatever the
ledger's size (:func:`banker.fold.opening.open_journal`, as the unit's
ledger opens it): the worth chart's trail is the one that snapshot carries
(:func:`banker.fold.opening.with_worth`, given it by the ledger that took
it), followed from there, and the journal's tail is read backwards from the
end; a snapshot of an earlier release, with no trail,
has the game's journal folded from its start instead (``progress`` is told
how far). :class:`SnapshotSource` is for a ledger with no file (a game in
memory): it reads the immutable game the unit's :class:`runtime.ledger.Ledger`
holds; its journal starts with the page.

``poll()`` returns the states to publish, one per commit seen (at most
:data:`MAX_STATES_PER_POLL`, the newest, when many came at once).
"""

from __future__ import annotations

import os
from collections import deque
from itertools import islice
from pathlib import Path
from collections.abc import Callable

from banker.errors import CorruptLedger, Refused
from banker.fold.game import Game, apply
from banker.fold.history import worth_point, worth_trail
from banker.fold.opening import open_journal
from banker.journal.records import MAX_PLAYERS, GameRestored, NewGame, Transaction, transactions_in
from banker.journal.worth_trail import WorthTrail

from .view import JOURNAL_TAIL, EntryCache, WorthHistory, state, stick_view

#: A burst of commits seen in one poll publishes only its last states.
MAX_STATES_PER_POLL = 10
#: Journal entries read at a time, backwards from the end, for the journal's tail.
TAIL_WINDOW = 64

#: ``progress(done, total)`` of a long fold at start-up (an old ledger's game read from its start).
Progress = Callable[[int, int], None]


class _Folded:
    """A game, its journal's tail (the current game's newest transactions, in order) and its worth trail."""

    def __init__(self, language: str | None = None) -> None:
        self.language = language  # the config's [unit] language: the page's while the game has chosen none
        self.game: Game | None = None
        self.journal: deque[Transaction] = deque(maxlen=JOURNAL_TAIL)
        self.trail = WorthTrail(0)
        self.entries = EntryCache()
        self.seq = 0
        self.dealt = False
        self._history: WorthHistory | None = None

    def reset(self, game: Game, journal, trail: WorthTrail | None = None, dealt: bool | None = None) -> None:
        """The game now, its newest transactions, its trail (None: folded here from ``journal``, the whole game's);
        ``dealt``: its deeds were dealt at its start (None: a deal among ``journal``'s transactions)."""
        journal = list(journal)
        self.game = game
        self.journal = deque((tx for tx in journal if tx.game == game.id), maxlen=JOURNAL_TAIL)
        self.dealt = dealt if dealt is not None else any(tx.kind == "deal" for tx in self.journal)
        self.trail = trail if trail is not None else worth_trail(game, journal)
        self._history = None

    def add(self, game: Game, txs: tuple[Transaction, ...]) -> None:
        new = [tx for tx in txs if tx.game == game.id]
        self.game = game
        self.journal.extend(new)
        trail = self.trail
        if new and not trail.broken and trail.game == game.id and (new[-1].id or 0) > trail.last_tx:
            self.trail, self._history = trail.added(worth_point(game, new[-1].id)), None

    def history(self) -> WorthHistory:
        """The trail as the page's chart reads it."""
        if self._history is None:
            trail = self.trail
            self._history = WorthHistory(game_id=trail.game, last_tx=trail.last_tx, broken=trail.broken,
                                         points=[(p.tx, None, dict(p.worths)) for p in trail.points])
        return self._history

    def state(self) -> dict:
        return state(self.game, list(self.journal), self.history(), seq=self.seq, entries=self.entries,
                     language=self.language,
                     dealt=self.dealt)


class FileSource(_Folded):
    """The ledger file at ``path``, read by a store of its own; ``editions`` the deed sets (default: the packaged ones).

    Create it, and call every method, in one thread (the server's).
    """

    def __init__(self, path: str | os.PathLike, *, editions=None, language: str | None = None) -> None:
        super().__init__(language)
        self.path = Path(path).expanduser()
        self.editions = editions
        self.store = None
        self._inode: int | None = None
        self._stick = None  # the backup stick's problem the page last showed

    def open(self, progress: Progress | None = None) -> dict:
        """Open the file and fold its journal from the last snapshot; the state now. :class:`banker.errors.LedgerError`
        if it can't. ``progress(done, total)``: how far a fold of the whole game has gone (an old ledger's)."""
        from cards import editions as packaged_editions
        from store import SqliteStore

        if not self.path.exists():
            raise CorruptLedger(f"there is no ledger at {self.path}")
        self.close()
        self.store = SqliteStore(self.path, writer=False, backups=False)
        self._inode = os.stat(self.path).st_ino
        self.editions = self.editions if self.editions is not None else packaged_editions()
        self.seq = self.store.last_seq()
        try:  # as the unit opens it (runtime.ledger.Ledger), carrying the snapshot's worth trail along
            opened = open_journal(self.store, editions=self.editions, until=self.seq, trail=True)
        except Refused as exc:
            raise CorruptLedger(f"{self.path}: the journal does not replay ({exc})") from exc
        game, trail = opened.game, opened.trail
        if not game.id:
            self.reset(game, [], WorthTrail(0))
            return self.state()
        tail = journal_tail(self.store, game.id, self.seq)
        self.reset(game, tail, trail if trail is not None and trail.game == game.id else self._folded_trail(game, progress))
        if game.is_short_game and not self.dealt and len(tail) >= JOURNAL_TAIL:  # the start is older than the tail
            self.dealt = dealt_at_start(self.store, game.id)
        return self.state()

    def _folded_trail(self, game: Game, progress: Progress | None) -> WorthTrail:
        """The trail of ``game`` folded from its journal's start: a snapshot of an earlier release had none, or
        the game was brought back since (``progress(done, total)`` as it goes)."""
        told = None if progress is None else (lambda done: progress(done, game.transactions))
        return worth_trail(game, self.store.iter_game_transactions(game.id), told)

    def state(self) -> dict:
        """The state, with the unit's backup stick's problem (``stick``: its cause and what to do; None: all well)."""
        whole = super().state()
        self._stick = self._stick_now()
        whole["stick"] = stick_view(self._stick, whole["language"])
        return whole

    def poll(self) -> list[dict]:
        """The states after each record appended since the last poll (none: nothing new), or the state once more when
        the backup stick's problem changed (the writer's :func:`store.backup_schedule.read_stick_state`)."""
        states = self._poll()
        if not states and self.store is not None and self._stick_now() != self._stick:
            states = [self.state()]
        return states

    def _stick_now(self):
        from store.backup_schedule import read_stick_state

        return read_stick_state(self.path)

    def _poll(self) -> list[dict]:
        if self._replaced():
            return [self.open()]  # a backup was brought back: read it afresh
        records = list(self.store.records(self.seq))
        if not records:
            return []
        states = []
        for index, record in enumerate(records):
            if isinstance(record, GameRestored):
                return [self.open()]  # an archived game is back: read its journal afresh
            try:
                game = apply(self.game, record)
            except Refused:
                return [self.open()]  # the journal changed under us: read it afresh
            self.seq += 1
            if isinstance(record, NewGame):
                self.reset(game, list(record.openings))
            else:
                self.add(game, transactions_in(record))
            if index >= len(records) - MAX_STATES_PER_POLL:
                states.append(self.state())
        return states


    def _replaced(self) -> bool:
        try:
            return os.stat(self.path).st_ino != self._inode
        except FileNotFoundError:
            return False

    def close(self) -> None:
        if self.store is not None:
            self.store.close()
            self.store = None


class SnapshotSource(_Folded):
    """The game a :class:`runtime.ledger.Ledger` holds now (an immutable value, read from any thread)."""

    def __init__(self, ledger, language: str | None = None) -> None:
        super().__init__(language)
        self.ledger = ledger

    def open(self, progress: Progress | None = None) -> dict:
        game = self.ledger.game()
        try:  # a MemoryStore answers from any thread; an SQLite connection of the unit's thread refuses
            journal = list(self.ledger.store.iter_game_transactions(game.id)) if game.id else []
        except Exception:
            journal = [game.last] if game.last is not None else []
        self.seq = 1
        self.reset(game, journal)
        return self.state()

    def poll(self) -> list[dict]:
        game = self.ledger.game()
        if game is self.game:
            return []
        before = self.game
        self.seq += 1
        if before is None or game.id != before.id or game.started != before.started:
            self.reset(game, [game.last] if game.last is not None else [])
        elif game.last is not None and (before.last is None or game.last.id != before.last.id):
            self.add(game, (game.last,))
        else:
            self.game = game
        return [self.state()]

    def close(self) -> None:
        pass


def dealt_at_start(store, game_id: int) -> bool:
    """Whether game ``game_id``'s deeds were dealt at its start (the short game's deal, among its openings)."""
    openings = islice(store.iter_game_transactions(game_id), MAX_PLAYERS + 2)  # the players', the pot's, the deal
    return any(tx.kind == "deal" for tx in openings)


def journal_tail(store, game_id: int, until: int, count: int = JOURNAL_TAIL) -> list[Transaction]:
    """The last ``count`` transactions of game ``game_id`` in entries up to ``until`` (where it is current).

    Read backwards from ``until`` a window at a time, and only as far as
    needed: the tail is whole once ``count`` are found, or at the game's
    :class:`~banker.journal.records.NewGame`. Only a game that was brought back
    (a :class:`~banker.journal.records.GameRestored` on the way) needs the map of
    which game was current where (:meth:`store.SqliteStore.game_stretches`,
    which reads every snapshot's mark: a cost that grows with the ledger).
    """
    found: list[Transaction] = []  # newest first
    high = until
    while high >= 1:
        low = max(1, high - TAIL_WINDOW + 1)
        for record in reversed(list(store.records(low - 1, high))):
            found.extend(tx for tx in reversed(transactions_in(record)) if tx.game == game_id)
            if isinstance(record, NewGame) and record.game == game_id:
                return found[:count][::-1]
            if isinstance(record, NewGame | GameRestored):
                return _tail_by_stretches(store, game_id, until, count)
            if len(found) >= count:
                return found[:count][::-1]
        high = low - 1
    return _tail_by_stretches(store, game_id, until, count)


def _tail_by_stretches(store, game_id: int, until: int, count: int) -> list[Transaction]:
    """:func:`journal_tail` over each stretch of the journal that ``game_id`` was current in, the newest first."""
    found: list[Transaction] = []
    for first, end in reversed(store.game_stretches(game_id)):
        high = min(end - 1, until)
        while high >= first and len(found) < count:
            low = max(first, high - TAIL_WINDOW + 1)
            found[:0] = [tx for record in store.records(low - 1, high) for tx in transactions_in(record)
                         if tx.game == game_id]
            high = low - 1
        if len(found) >= count:
            break
    return found[-count:]
