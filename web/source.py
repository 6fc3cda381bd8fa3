"""Where the table page reads the game: a second, read-only store on the ledger file, or a running unit's snapshots.

Either way the page never blocks the unit. :class:`FileSource` opens its
own read-only :class:`store.SqliteStore` on the ledger file (in the server's
thread: SQLite's WAL lets a reader read while the unit appends, and the
reader takes no lock) and folds each new record into its own
:class:`~banker.game.Game` with :func:`banker.game.apply`, exactly as the
unit does. It serves ``banker web`` beside a running unit and a unit's own
page alike. :class:`SnapshotSource` is for a ledger with no file (a game
in memory): it reads the immutable game the unit's :class:`runtime.ledger.Ledger`
holds; its journal starts with the page.

``poll()`` returns the states to publish, one per commit seen (at most
:data:`MAX_STATES_PER_POLL`, the newest, when many came at once).
"""

from __future__ import annotations

import os
from pathlib import Path

from banker.errors import CorruptLedger, Refused
from banker.game import Game, apply
from banker.records import GameRestored, NewGame, Transaction, transactions_in

from .view import EntryCache, WorthHistory, state

#: A burst of commits seen in one poll publishes only its last states.
MAX_STATES_PER_POLL = 10


class _Folded:
    """A game, its journal (the current game's transactions, in order) and its worth history."""

    def __init__(self) -> None:
        self.game: Game | None = None
        self.journal: list[Transaction] = []
        self.history = WorthHistory()
        self.entries = EntryCache()
        self.seq = 0

    def reset(self, game: Game, journal: list[Transaction]) -> None:
        self.game, self.journal = game, list(journal)
        self.history = WorthHistory.of(game, self.journal)

    def add(self, game: Game, txs: tuple[Transaction, ...]) -> None:
        new = [tx for tx in txs if tx.game == game.id]
        self.game = game
        self.journal.extend(new)
        self.history.extend(game, new)

    def state(self) -> dict:
        return state(self.game, self.journal, self.history, seq=self.seq, entries=self.entries)


class FileSource(_Folded):
    """The ledger file at ``path``, read by a store of its own; ``editions`` the deed sets (default: the packaged ones).

    Create it, and call every method, in one thread (the server's).
    """

    def __init__(self, path: str | os.PathLike, *, editions=None) -> None:
        super().__init__()
        self.path = Path(path).expanduser()
        self.editions = editions
        self.store = None
        self._inode: int | None = None

    def open(self) -> dict:
        """Open the file and fold its journal; the state now. :class:`banker.errors.LedgerError` if it can't."""
        from runtime.ledger import Ledger
        from store import SqliteStore

        if not self.path.exists():
            raise CorruptLedger(f"there is no ledger at {self.path}")
        self.close()
        self.store = SqliteStore(self.path, writer=False, backups=False)
        self._inode = os.stat(self.path).st_ino
        reader = Ledger(self.store, editions=self.editions)  # folds from the last snapshot, as the unit does
        self.editions = reader.editions
        game = reader.game()
        self.seq = self.store.last_seq()
        self.reset(game, self.store.game_transactions(game.id) if game.id else [])
        return self.state()

    def poll(self) -> list[dict]:
        """The states after each record appended since the last poll (none: nothing new)."""
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

    def __init__(self, ledger) -> None:
        super().__init__()
        self.ledger = ledger

    def open(self) -> dict:
        game = self.ledger.game()
        try:  # a MemoryStore answers from any thread; an SQLite connection of the unit's thread refuses
            journal = self.ledger.store.game_transactions(game.id) if game.id else []
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
