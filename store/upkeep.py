"""Writes kept off the key's path: the WAL checkpointed while the unit is quiet, a backup's whole copy made in steps.

SQLite's automatic checkpoint runs inside the commit that fills the write-ahead log past 1,000 pages: about once
in 667 payments a key press waited for a thousand pages written into the ledger and two more fsyncs. The writer's
connection turns it off (``wal_autocheckpoint=0``, :func:`store.schema.connect`) and :class:`WalUpkeep` does it
instead, PASSIVE (never waiting for a reader), from the store's upkeep:

- when the unit is quiet (:class:`Quiet`: no key, card or commit for :data:`IDLE_AFTER` seconds) and the log holds
  :data:`IDLE_FRAMES` frames or more: small and often, each checkpoint a few milliseconds of the card's time;
- at :data:`CEILING_FRAMES`, whether quiet or not: a unit never left alone still checkpoints, at the next clock
  tick's upkeep (after its frame, between two keys, never inside a commit);
- at :data:`HARD_FRAMES`, right after the commit that reached it, still inside :meth:`~store.SqliteStore.append`
  but after the row is durable: only a writer whose upkeep never runs (a long script) gets there.

The log's length is read from the WAL index (the ``-shm`` file's header, ``mxFrame``): no I/O, no lock. A
checkpoint is SQLite's own, crash-safe at every write; what it changes is only when it runs. A clean close still
checkpoints and removes the log (SQLite does when the last connection closes).

A whole copy of the ledger (the first :data:`~store.backups.KEEP` backups, or one that can't be brought forward)
was SQLite's online backup of every page, then one fsync of the whole file: at 100,000 payments 4.2 MB on the card
at once, and a key behind it. :func:`copy_in_steps` instead lays out an empty ledger of the same schema and brings
it forward :data:`ROWS_PER_STEP` rows at a time (the journal is append-only, so each step is the rows after the
copy's last), each step flushed on its own, and before each step waits for the unit to be quiet
(:meth:`Quiet.wait`): a key or a commit pauses it, at most one step's flush in its way. The copy is a temporary
``.partial`` file until it reaches the head, then fsynced and renamed into place, as before.
"""

from __future__ import annotations

import os
import sqlite3
import struct
import threading
import time
from collections.abc import Callable
from pathlib import Path

#: Seconds without a key, card or commit before the unit counts as quiet (as runtime.collector.IDLE_AFTER).
IDLE_AFTER = 2.0
#: WAL frames (1 KiB pages) from which a quiet unit checkpoints.
IDLE_FRAMES = 64
#: WAL frames from which the upkeep checkpoints whether the unit is quiet or not (SQLite's own default: 1,000).
CEILING_FRAMES = 4000
#: WAL frames from which a commit checkpoints right after it is durable (no upkeep ran: a script, the CLI).
HARD_FRAMES = 8000
#: Journal rows copied per step of a whole copy (about 40 KB at 100,000 payments in 4.2 MB).
ROWS_PER_STEP = 1000
#: Commits between two readings of the WAL index by the commit path.
CHECK_EVERY = 64


class Quiet:
    """When the unit was last busy (a key, a card, a commit), on ``clock``; background writes wait for quiet."""

    def __init__(self, after: float = IDLE_AFTER, clock: Callable[[], float] = time.monotonic) -> None:
        self.after, self.clock = after, clock
        self.last = clock()
        self.watched = False  # until a shell says when keys come (a script, the CLI: every moment is quiet)
        self.closing = threading.Event()  # set at the store's close: a copy under way finishes without waiting

    def busy(self) -> None:
        self.last = self.clock()

    def seen(self, quiet_for: float | None) -> None:
        """The shell's word: nothing has happened for ``quiet_for`` seconds (0: a key just now). None: no shell
        watches (a script, the CLI): every moment is quiet."""
        self.watched = quiet_for is not None
        if quiet_for is None:
            return
        self.last = self.clock() - max(0.0, quiet_for)  # the shell's clock may be simulated: its word stands

    def is_quiet(self) -> bool:
        return not self.watched or self.closing.is_set() or self.clock() - self.last >= self.after

    def wait(self) -> None:
        """Return once the unit is quiet (or the store is closing)."""
        while self.watched and not self.closing.is_set():
            left = self.after - (self.clock() - self.last)
            if left <= 0:
                return
            self.closing.wait(min(left, 0.1))


def wal_frames(path: str) -> int | None:
    """The frames of the ledger's write-ahead log not yet in the ledger (the WAL index's ``mxFrame`` less its
    ``nBackfill``), or None if it can't be read."""
    try:
        with open(f"{path}-shm", "rb") as shm:
            header = shm.read(100)
    except OSError:
        return None
    if len(header) < 100:
        return None
    return max(0, struct.unpack_from("=I", header, 16)[0] - struct.unpack_from("=I", header, 96)[0])


class WalUpkeep:
    """The checkpoints of the writer's connection ``conn`` to the ledger at ``path`` (see the module)."""

    def __init__(self, conn: sqlite3.Connection, path: str, quiet: Quiet) -> None:
        self.conn, self.path, self.quiet = conn, path, quiet
        self.commits = 0
        self.done: list[tuple[str, int]] = []  # (why, frames) of each checkpoint made: tests and benchmarks

    def frames(self) -> int:
        found = wal_frames(self.path)
        return self.commits if found is None else found

    def after_commit(self) -> None:
        """On the commit path, after the row is durable: the clock noted, and the log's length now and then."""
        self.quiet.busy()
        self.commits += 1
        if self.commits % CHECK_EVERY == 0 and self.frames() >= HARD_FRAMES:
            self.checkpoint("hard")

    def idle(self) -> None:
        """From the store's upkeep (after a tick's frame): checkpoint when quiet and due, or past the ceiling."""
        frames = self.frames()
        if frames >= CEILING_FRAMES:
            self.checkpoint("ceiling")
        elif frames >= IDLE_FRAMES and self.quiet.is_quiet():
            self.checkpoint("idle")

    def checkpoint(self, why: str) -> tuple[int, int, int]:
        """A PASSIVE checkpoint: (busy, frames in the log, frames copied into the ledger)."""
        busy, log, moved = self.conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        self.done.append((why, log))
        if moved == log:
            self.commits = 0
        return busy, log, moved


def _lay_out(conn: sqlite3.Connection) -> None:
    """In the empty ``main``: the live ledger's page size, marks and schema (tables, then indexes)."""
    conn.execute(f"PRAGMA main.page_size={conn.execute('PRAGMA live.page_size').fetchone()[0]}")
    for pragma in ("application_id", "user_version"):
        conn.execute(f"PRAGMA main.{pragma}={int(conn.execute(f'PRAGMA live.{pragma}').fetchone()[0])}")
    found = conn.execute("SELECT type, sql FROM live.sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE "
                         "'sqlite_%' ORDER BY type = 'index', rowid").fetchall()
    conn.execute("BEGIN")
    for _, sql in found:
        conn.execute(sql)
    conn.execute("COMMIT")


def _step(conn: sqlite3.Connection) -> int:
    """One step: the live journal's next rows after the copy's last, and its ``meta``; the rows copied."""
    conn.execute("BEGIN")
    try:
        last, head = conn.execute("SELECT seq, hash FROM main.journal ORDER BY seq DESC LIMIT 1").fetchone() or (0, "")
        if last and conn.execute("SELECT hash FROM live.journal WHERE seq = ?", (last,)).fetchone() != (head,):
            raise sqlite3.DatabaseError("the ledger's journal changed under its copy (restored?)")
        copied = conn.execute("INSERT INTO main.journal SELECT * FROM live.journal WHERE seq > ? ORDER BY seq "
                              "LIMIT ?", (last, ROWS_PER_STEP)).rowcount
        conn.execute("DELETE FROM main.meta")
        conn.execute("INSERT INTO main.meta SELECT * FROM live.meta")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return copied


def copy_in_steps(ledger: Path, temp: Path, gate: Callable[[], None]) -> None:
    """Fill the new empty file ``temp`` with the ledger's journal and meta in steps, each flushed, ``gate()``
    before each (it waits for quiet). The caller fsyncs and renames it (:func:`store.backups.copy_database`)."""
    from .rotation import uri

    conn = sqlite3.connect(uri(temp, "rw"), uri=True, isolation_level=None, timeout=5.0)
    fd = os.open(temp, os.O_RDONLY)
    try:
        conn.execute("PRAGMA journal_mode=DELETE")
        conn.execute("PRAGMA synchronous=OFF")  # a partial file until renamed: each step flushed below instead
        conn.execute("ATTACH DATABASE ? AS live", (uri(ledger, "ro"),))
        _lay_out(conn)
        while True:
            gate()
            copied = _step(conn)
            os.fsync(fd)  # this step's pages on the card now, while quiet, not all at the end
            if copied < ROWS_PER_STEP:
                break
        conn.execute("DETACH DATABASE live")
    finally:
        os.close(fd)
        conn.close()


def copy_whole(source: str | os.PathLike | sqlite3.Connection, temp: Path, pages: int) -> None:
    """SQLite's online backup of every page of ``source`` (a path, or a connection) into ``temp``, ``pages`` a step."""
    own = not isinstance(source, sqlite3.Connection)
    src = sqlite3.connect(f"file:{Path(source).resolve()}?mode=ro", uri=True) if own else source
    try:
        copy = sqlite3.connect(temp)
        try:
            src.backup(copy, pages=pages)
            copy.execute("PRAGMA journal_mode=DELETE")
        finally:
            copy.close()
    finally:
        if own:
            src.close()


def steps_fit(ledger: str | os.PathLike) -> bool:
    """The ledger can be copied in steps: a journal of this schema (an earlier one is copied whole by SQLite)."""
    from .schema import SCHEMA_VERSION
    from .rotation import uri

    try:
        conn = sqlite3.connect(uri(Path(ledger).expanduser(), "ro"), uri=True)
        try:
            found = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        return False
    return found == (str(SCHEMA_VERSION),)
