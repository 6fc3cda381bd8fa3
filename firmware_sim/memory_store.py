"""A store that keeps its journal in memory and can be told to fail: the fake of ``store.SqliteStore``.

Records are kept as the rows the SQLite store would write (the same
encoding and keyed hash chain, under a key of its own), so what goes in
comes back decoded, exactly as from the file. There is no file, no lock, no
anchor and no backups. As the outside
world, a test makes the "disk" fail::

    >>> from banker.journal.records import Setting
    >>> store = MemoryStore(clock=lambda: 5.0)
    >>> store.fail_next("the disk is full")
    >>> store.append(Setting("volume", "1"))
    Traceback (most recent call last):
    ...
    banker.errors.LedgerError: the disk is full
    >>> store.append(Setting("volume", "1"))
    Setting(key='volume', value='1', time=5.0)
    >>> store.last_seq(), len(store.appends), len(store.failures)
    (1, 1, 1)
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterator

from banker.audit.findings import Audit
from banker.errors import LedgerError
from banker.journal.records import Record, Snapshot, Transaction, transactions_in
from store.codec import stamped
from store.journal import GameRow, Row, decode_row, game_rows, make_row, names_of, stretches, transactions_of
from store.walks import verify_rows


class MemoryStore:
    """The store port in memory. ``clock`` stamps the records (epoch seconds).

    ``appends`` lists the records written, ``failures`` the reasons of the
    appends refused (both for tests to read).
    """

    path = ":memory:"
    writer = True
    #: It makes no backups, so none fails.
    backup_error: str | None = None

    def __init__(self, *, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self.key = secrets.token_bytes(32)
        self.ledger_id = secrets.token_hex(16)
        self._kept: tuple[str | None, tuple[float, ...]] | None = None
        #: Why writing is refused (the SQLite store's open-time check); never, for the fake.
        self.distrust = None
        self._rows: list[Row] = []
        self._fail_next: str | None = None
        self._fail_always: str | None = None
        self.appends: list[Record] = []
        self.failures: list[str] = []

    # -- the outside world ---------------------------------------------------------------

    def fail_next(self, reason: str = "the disk is full") -> None:
        """The next append raises :class:`LedgerError` (``reason``) and writes nothing."""
        self._fail_next = reason

    def fail_always(self, reason: str = "the disk is full") -> None:
        """Every append raises :class:`LedgerError` (``reason``) until :meth:`heal`."""
        self._fail_always = reason

    def heal(self) -> None:
        """Appends work again."""
        self._fail_next = self._fail_always = None

    # -- writing -------------------------------------------------------------------------

    def kept_authority(self) -> tuple[str | None, tuple[float, ...]] | None:
        """What :meth:`keep_authority` kept (a real store keeps it beside the anchor, outside the file)."""
        return self._kept

    def keep_authority(self, verifier: str | None, failures: tuple[float, ...]) -> None:
        self._kept = (verifier, tuple(failures))

    def now(self) -> float:
        """The time a record is stamped with (the clock given)."""
        return float(self._clock())

    def append(self, record: Record) -> Record:
        """Keep ``record`` as the next entry; returns it stamped with its time (:class:`LedgerError`: told to fail)."""
        reason = self._fail_next or self._fail_always
        if reason is not None:
            self._fail_next = None
            self.failures.append(reason)
            raise LedgerError(reason)
        done = record if record.time is not None else stamped(record, self.now())
        row = make_row(self.head(), self.last_seq() + 1, done, self.key)
        self._rows.append(row)
        self.appends.append(done)
        return done

    # -- reading -------------------------------------------------------------------------

    def records(self, since: int = 0, until: int | None = None) -> Iterator[Record]:
        """Every record after entry ``since`` (0: all) up to entry ``until`` (None: the last), in order."""
        return (decode_row(row) for row in self._rows[max(since, 0):until])

    def last_snapshot(self, before: int | None = None) -> tuple[int, Snapshot] | None:
        """The newest snapshot (before entry ``before``) and its entry number, or None."""
        for row in reversed(self._rows[:None if before is None else max(before - 1, 0)]):
            if row.kind == "snapshot":
                return row.seq, decode_row(row)
        return None

    def game_stretches(self, game_id: int) -> list[tuple[int, int]]:
        """(first entry, entry after the last) of each stretch game ``game_id`` was current in (none: no such game)."""
        starts = [(row.seq, row.game) for row in self._rows if row.kind in ("new-game", "restore")]
        return [(first, end) for game, first, end in stretches(starts, self.last_seq()) if game == game_id]

    def iter_game_transactions(self, game_id: int) -> Iterator[Transaction]:
        return iter(self.game_transactions(game_id))

    def anchor(self) -> None:
        pass

    def maintain(self) -> None:
        pass

    def last_seq(self) -> int:
        return len(self._rows)

    def is_empty(self) -> bool:
        return not self._rows

    def head(self) -> str:
        return self._rows[-1].hash if self._rows else ""

    def game_transactions(self, game_id: int) -> list[Transaction]:
        return transactions_of(self.records(), game_id)

    def transaction(self, tx_id: int) -> Transaction | None:
        return next((tx for r in self.records() for tx in transactions_in(r) if tx.id == tx_id), None)

    def games(self) -> list[GameRow]:
        return game_rows(self.records())

    def card_names(self) -> dict[int, str]:
        return names_of(self.records())

    def verify(self, progress=None) -> Audit:
        """The same audit as the SQLite store's, over the rows kept here."""
        return verify_rows(self._rows, key=self.key, progress=progress)

    # -- lifetime ------------------------------------------------------------------------

    def close(self) -> None:
        pass

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
