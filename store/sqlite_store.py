"""The durable store: the journal of records, append-only, in one SQLite file (schema version 3).

Each record is one row, committed in its own SQLite transaction (WAL, ``synchronous=FULL``) before
:meth:`SqliteStore.append` returns, so a power cut leaves the whole record or none of it; a commit writes that one row
and nothing else (one page: one WAL frame). Each row's hash is an HMAC under the ledger's key (:mod:`store.keys`, kept
apart from the file and its backups) over the row before it, so an edited, inserted or deleted row is found by
:meth:`SqliteStore.verify`; the head is anchored outside the file at checkpoints, backups and clean stops, so a vanished
tail is found too. The store holds no rules and no game: the game is the fold of :meth:`SqliteStore.records` (from the
last :class:`~banker.journal.records.Snapshot`).

Only what must read it all (verify, export) grows with the journal: game starts, restores, snapshots and the chain's
start sit in one small partial index, a game's transactions lie between them, and a transaction is found by bisection
(numbers grow with rows).

>>> from banker.journal.records import Setting
>>> with SqliteStore(":memory:", clock=lambda: 1.0) as store:
...     store.append(Setting("volume", "3"))
...     [r.value for r in store.records()]
Setting(key='volume', value='3', time=1.0)
['3']
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import time
from contextlib import contextmanager
from collections.abc import Callable, Iterator

from banker.audit.findings import Audit, Problem
from banker.errors import CorruptLedger, LedgerError
from banker.journal.records import JournalAccepted, NewGame, PinFailure, Record, Snapshot, Transaction, transactions_in

from .backup_schedule import Backups
from .backups import INTERVAL_SECONDS, clean_stale_files
from .codec import stamped
from .upkeep import Quiet, WalUpkeep
from .journal import GameRow, Progress, Row, decode_row, entry_of_transaction, make_row, names_of, stretches
from .walks import verify_rows
from .keys import Keyring
from .verify_parts import SNAPSHOT_SEQS, verify_in_parts
from .trust import Mismatch, check_journal, needs_upgrade, refusal, refuse_downgrade, upgrade_ledger
from .lock import WriterLock, release_writer_lock, take_writer_lock
from .migrate import V1_PROBLEMS
from .schema import (MARKED, ROW_COLUMNS, connect, create, file_path, insert_row, meta, read_snapshot, schema_version,
                     tables, tighten, translate, write_transaction)


#: Journals at least this long are verified on every core: the chain and the records in parts (store/verify_parts.py).
PARALLEL_FROM = 20_000


class SqliteStore:
    """The store port over SQLite. ``path`` is a file, or ``":memory:"`` for a throw-away ledger.

    A new file is created private (0600, its folders 0700) and empty, with a new key in ``keyring`` (default: the keys
    folder, :mod:`store.keys`). A ledger of schema 1 or 2 is moved to schema 3 only by a writer asked to
    (``upgrade=True``); else :class:`~store.trust.OldLedger`, and a file of schema 1 or 2 where a keyed ledger was is
    refused (:class:`~store.trust.UntrustedJournal`). A writer checks the journal against its anchor and key first
    (:mod:`store.trust`), and refuses one that differs unless ``accept=True`` (then it writes only the
    :class:`~banker.journal.records.JournalAccepted` record, or a wrong PIN's, until that is written). ``clock`` gives
    wall-clock time (epoch seconds) for the records' stamps. ``writer=True`` takes the writer lock
    (:class:`store.lock.LedgerInUse` if a running unit has it) and may create the file; a reader takes none, cannot
    append and never creates a ledger. ``second_backup_folder``: backups go there too (:mod:`store.backup_schedule`).
    :class:`CorruptLedger`: not a banker ledger; :class:`LedgerError`: it can't be opened, or its key is missing.
        """

    def __init__(
        self,
        path: str | os.PathLike = ":memory:",
        *,
        writer: bool = True,
        clock: Callable[[], float] = time.time,
        backups: bool = True,
        backup_interval: float = INTERVAL_SECONDS,
        second_backup_folder: str | os.PathLike | None = None,
        keyring: Keyring | None = None,
        upgrade: bool = False,
        accept: bool = False,
    ) -> None:
        self.path = str(path)
        self.writer = writer
        self._clock = clock
        self._lock: WriterLock | None = None
        memory = self.path == ":memory:"
        self.keyring = None if memory else (keyring if keyring is not None else Keyring())
        self._conn = connect(self.path, create=writer)
        try:
            if writer and not memory:
                self._lock = take_writer_lock(self.path)
                tighten(self.path)
                clean_stale_files(self.path, self.keyring.folder)  # what killed copies left, at every open
            self._open(upgrade)
            self._trust(accept)
        except sqlite3.Error as exc:
            self._abandon()
            raise translate(exc, self.path, "read") from exc
        except BaseException:
            self._abandon()
            raise
        self.quiet = Quiet()  # when keys and commits last came: checkpoints and whole copies wait for quiet
        self.wal = None if memory or not writer else WalUpkeep(self._conn, self.path, self.quiet)
        self.backups: Backups | None = (Backups(self.path, interval=backup_interval, second_folder=second_backup_folder,
                                                gate=self.quiet.wait) if backups and not memory else None)
        self._anchored = self._seq
        self._new_game_backup = False  # a game began since the last backup

    # -- opening -------------------------------------------------------------------------

    def _open(self, upgrade: bool) -> None:
        if not tables(self._conn):
            if not self.writer:
                raise CorruptLedger(f"{self.path} is empty: not a banker ledger")
            ledger_id = secrets.token_hex(16)
            self.key = self._new_key(ledger_id)
            create(self._conn, ledger_id)
        version = schema_version(self._conn, self.path)
        if version < 3:
            if self.keyring is not None:
                refuse_downgrade(self.keyring, self.path, version)
            if not (upgrade and self.writer):
                raise needs_upgrade(self.path, version)
            self.key = upgrade_ledger(self._conn, self.path, version, self.keyring, clock=self._clock)
        self.ledger_id = meta(self._conn, "ledger_id") or ""
        if not self.ledger_id.isalnum():
            raise CorruptLedger(f"{self.path} has no ledger id")
        if not hasattr(self, "key"):
            self.key = self._find_key()
        last = self._conn.execute("SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1").fetchone()
        self._seq, self._head = (last[0], last[1]) if last else (0, "")
        start = self._conn.execute("SELECT seq FROM journal WHERE mark = 1 AND kind = 'chain'").fetchone()
        self.chain_start: int | None = start[0] if start else None

    def _new_key(self, ledger_id: str) -> bytes:
        return secrets.token_bytes(32) if self.keyring is None else self.keyring.new_key(ledger_id)

    def _find_key(self) -> bytes | None:
        key = None if self.keyring is None else self.keyring.key(self.ledger_id)
        if key is None and self.writer:
            where, advice = (self.keyring.folder, self.keyring.missing_key_advice(self.ledger_id)) if self.keyring \
                else ("memory", "")
            raise LedgerError(f"the key of {self.path} (ledger {self.ledger_id}) is not in {where}: without it "
                              f"nothing can be added to its journal. {advice}".rstrip())
        return key

    def _trust(self, accept: bool) -> None:
        """A writer's check of the journal against its anchor and key; the ledger's place noted in the keys folder."""
        self.distrust: Mismatch | None = None
        if not self.writer or self.keyring is None:
            return
        found = check_journal(self._conn, self.keyring, self.ledger_id, self.key, self.chain_start)
        if found is not None and not (accept and found.acceptable):
            raise refusal(self.path, found)
        self.distrust = found
        if found is None:
            self.keyring.register(self.path, self.ledger_id)

    # -- reading -------------------------------------------------------------------------

    def _query(self, sql: str, args: tuple = ()) -> list[tuple]:
        try:
            return self._conn.execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise translate(exc, self.path, "read") from exc

    def _iter_rows(self, where: str = "", args: tuple = (), *, order: str = "ORDER BY seq") -> Iterator[Row]:
        """Rows as the cursor reads them: constant memory however long the journal."""
        try:
            cursor = self._conn.execute(f"SELECT {ROW_COLUMNS} FROM journal {where} {order}", args)
            while True:
                batch = cursor.fetchmany(512)
                if not batch:
                    return
                for r in batch:
                    yield Row(*r)
        except sqlite3.Error as exc:
            raise translate(exc, self.path, "read") from exc

    def _decoded(self, rows: Iterator[Row]) -> Iterator[Record]:
        for row in rows:
            try:
                yield decode_row(row)
            except CorruptLedger as exc:
                raise CorruptLedger(f"{self.path}: {exc}") from exc

    def records(self, since: int = 0, until: int | None = None) -> Iterator[Record]:
        """Every record after entry ``since`` (0: all) up to entry ``until`` (None: the last), in order, with times."""
        where, args = ("WHERE seq > ?", (since,)) if until is None else ("WHERE seq > ? AND seq <= ?", (since, until))
        return self._decoded(self._iter_rows(where, args))

    def last_snapshot(self, before: int | None = None) -> tuple[int, Snapshot] | None:
        """The newest snapshot (before entry ``before``) and its entry number, or None: folds start from it."""
        where, args = ("", ()) if before is None else ("AND seq < ?", (before,))
        rows = self._iter_rows(f"WHERE mark = 1 AND kind = 'snapshot' {where}", args, order="ORDER BY seq DESC LIMIT 1")
        for row in rows:
            return row.seq, next(self._decoded(iter([row])))
        return None

    def last_seq(self) -> int:
        """The number of the last entry (0 when the journal is empty)."""
        return self._seq

    def is_empty(self) -> bool:
        return self._seq == 0

    def head(self) -> str:
        """The hash of the last journal row ("" when empty)."""
        return self._head

    def _marks(self) -> list[tuple[int, str, int | None, str, float]]:
        return self._query("SELECT seq, kind, game, body, time FROM journal WHERE mark = 1 ORDER BY seq")

    def _stretches(self, marks=None) -> list[tuple[int, int, int]]:
        """(game, first entry, entry after the last) for each stretch of the journal a game was current in."""
        return stretches([(seq, game) for seq, kind, game, _, _ in (marks if marks is not None else self._marks())
                          if kind in ("new-game", "restore")], self._seq)

    def game_stretches(self, game_id: int) -> list[tuple[int, int]]:
        """(first entry, entry after the last) of each stretch game ``game_id`` was current in (none: no such game)."""
        return [(first, end) for game, first, end in self._stretches() if game == game_id]

    def _tx_bounds(self, first: int, end: int) -> tuple[int, int] | None:
        """The first and last transaction numbers in entries ``first`` .. ``end - 1`` (None: there are none)."""
        low = self._query("SELECT tx FROM journal WHERE seq >= ? AND seq < ? AND tx IS NOT NULL ORDER BY seq "
                          "LIMIT 1", (first, end))
        if not low:
            return None
        last = list(self._iter_rows("WHERE seq >= ? AND seq < ? AND tx IS NOT NULL", (first, end),
                                    order="ORDER BY seq DESC LIMIT 1"))
        return low[0][0], transactions_in(next(self._decoded(iter(last))))[-1].id

    def iter_game_transactions(self, game_id: int) -> Iterator[Transaction]:
        """The transactions of game ``game_id``, in order, read as they are needed."""
        for game, first, end in self._stretches():
            if game != game_id:
                continue
            rows = self._iter_rows("WHERE seq >= ? AND seq < ? AND tx IS NOT NULL", (first, end))
            for record in self._decoded(rows):
                yield from (tx for tx in transactions_in(record) if tx.game == game_id)

    def game_transactions(self, game_id: int) -> list[Transaction]:
        """All transactions of game ``game_id``, in order (openings included)."""
        return list(self.iter_game_transactions(game_id))

    def transaction(self, tx_id: int) -> Transaction | None:
        """Transaction number ``tx_id``, wherever it is (an enrolment's or a new game's opening too); None if none."""
        best = entry_of_transaction(self._query, self._seq, tx_id)
        if best is None:
            return None
        record = next(self._decoded(self._iter_rows("WHERE seq = ?", (best,))))
        return next((tx for tx in transactions_in(record) if tx.id == tx_id), None)

    def games(self) -> list[GameRow]:
        """Every game of the ledger, oldest first, with its transaction count (read from the partial index)."""
        with self._snapshot():
            marks = self._marks()
            counts: dict[int, int] = {}
            for game, first, end in self._stretches(marks):
                bounds = self._tx_bounds(first, end)
                if bounds is not None:
                    counts[game] = counts.get(game, 0) + bounds[1] - bounds[0] + 1
        started = [next(self._decoded(iter([Row(seq, None, None, stamp, kind, body, "")])))
                   for seq, kind, _, body, stamp in marks if kind == "new-game"]
        return [GameRow(g.game, g.settings, g.time, counts.get(g.game, 0))
                for g in sorted(started, key=lambda g: g.game)]

    def card_names(self) -> dict[int, str]:
        """Every card ever enrolled (removed ones too) with its latest name."""
        return names_of(self._decoded(self._iter_rows("WHERE kind IN ('enrol', 'rename')")))

    def verify(self, progress: Progress | None = None) -> Audit:
        """Audit the whole journal in one consistent read: keyed chain, anchor, missing and cut-off rows, content.

        ``progress(rows checked)`` is called as it goes (a terminal's progress bar).
        """
        with self._snapshot():
            earlier = [Problem(tx, message) for tx, message in json.loads(meta(self._conn, V1_PROBLEMS) or "[]")]
            marks = ",".join(f"'{k}'" for k in MARKED)
            if self._query(f"SELECT count(*) FROM journal WHERE (mark IS NOT NULL) != (kind IN ({marks}))")[0][0]:
                earlier.append(Problem(None, "the index of game starts differs from the journal (edited)"))
            anchor = None if self.keyring is None else self.keyring.anchor(self.ledger_id)
            key = self.key if self.key is not None or self.keyring is None else self.keyring.key(self.ledger_id)
            last = self._query("SELECT max(seq) FROM journal")[0][0] or 0
            options = dict(key=key, chain_start=self.chain_start, anchor=anchor, earlier=earlier, progress=progress)
            if last < PARALLEL_FROM or self.path == ":memory:":
                return verify_rows(self._iter_rows(), **options)
            return verify_in_parts(str(file_path(self.path).resolve()), lambda first, end: self._iter_rows(
                "WHERE seq > ? AND seq <= ?", (first, end)), last=last,
                snapshots=[s for s, in self._query(SNAPSHOT_SEQS, (last,))], **options)

    @contextmanager
    def _snapshot(self) -> Iterator[None]:
        """Reads that see one committed state; SQLite errors as ledger errors."""
        try:
            with read_snapshot(self._conn):
                yield
        except sqlite3.Error as exc:
            raise translate(exc, self.path, "read") from exc

    # -- writing -------------------------------------------------------------------------

    def now(self) -> float:
        return float(self._clock())  # the wall-clock time a record is stamped with

    def append(self, record: Record) -> Record:
        """Write ``record`` as the journal's next entry; returns it stamped with its time, once durable.

        Raises :class:`LedgerError` (the disk is full, the file is locked) with nothing written. Writes one row and
        nothing else: checkpoints, backups and the anchor are :meth:`maintain`'s, off the commit.
        """
        if not self.writer:
            raise LedgerError(f"{self.path} is open for reading only")
        if self.distrust is not None and not isinstance(record, (JournalAccepted, PinFailure)):
            raise refusal(self.path, self.distrust)
        done = record if record.time is not None else stamped(record, self.now())
        row = make_row(self._head, self._seq + 1, done, self.key)
        try:
            with write_transaction(self._conn):
                insert_row(self._conn, row)
        except sqlite3.Error as exc:
            raise translate(exc, self.path, "write to") from exc
        self._seq, self._head = row.seq, row.hash
        if self.wal is not None:
            self.wal.after_commit()  # durable already: the clock noted (a checkpoint only past HARD_FRAMES)
        if isinstance(done, NewGame):
            self._new_game_backup = True
        elif isinstance(done, JournalAccepted):
            self.distrust = None  # the banker's word is in the chain: the journal is anchored from here on
            self.keyring.register(self.path, self.ledger_id)
        return done

    @property
    def backup_error(self) -> str | None:
        return None if self.backups is None else self.backups.error

    def kept_authority(self) -> tuple[str | None, tuple[float, ...]] | None:
        return None if self.keyring is None else self.keyring.kept_authority(self.ledger_id)  # store.keys

    def keep_authority(self, verifier: str | None, failures: tuple[float, ...]) -> None:
        if self.keyring is not None and self.writer:
            self.keyring.keep_authority(self.ledger_id, verifier, failures)

    def anchor(self) -> None:
        """Keep the head's number and hash outside the file (a vanished tail is then found by verify)."""
        if self.keyring is not None and self.writer and self._seq != self._anchored and self.distrust is None:
            self.keyring.set_anchor(self.ledger_id, self._seq, self._head)
            self._anchored = self._seq

    def maintain(self, quiet_for: float | None = None) -> None:
        """Off the commit path (the shell, after a tick's frame, says how long nothing happened: ``quiet_for``): the
        WAL checkpointed when due (:mod:`store.upkeep`); once quiet, a backup started in the background when due (a
        new game began, or the interval passed with something written), the head anchored once it is made."""
        self.quiet.seen(quiet_for)
        if self.wal is not None:
            self.wal.idle()
        if (self.backups is None or self.backups.running or not self.quiet.is_quiet()
                or not (self._new_game_backup or self.backups.due(self._seq))):
            return
        reason, self._new_game_backup = ("new-game" if self._new_game_backup else "interval"), False
        self.backups.start(reason, self._seq)
        self.anchor()

    # -- lifetime ------------------------------------------------------------------------

    def close(self) -> None:
        """Anchor the head (a clean stop), let a backup under way finish, close the file and give the lock back."""
        try:
            if self.backups is not None and self.writer:
                self.quiet.closing.set()  # a whole copy under way goes on without waiting for quiet
                self.backups.wait()
                self.maintain()  # one due at the stop is made now
                self.backups.wait()
            self.anchor()
        except LedgerError:
            pass  # the keys folder can't be written: verify will say the tail is unanchored
        finally:
            self._abandon()

    def _abandon(self) -> None:
        try:
            self._conn.close()
        finally:
            self._release()

    def _release(self) -> None:
        release_writer_lock(self._lock)
        self._lock = None

    def __enter__(self) -> SqliteStore:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
