"""Big ledgers for the benchmarks: built through the unit's own write path, cached per code version, copied to write.

:func:`ledger_file` builds a ledger of N transactions
through the public write path (``runtime.ledger.open_ledger`` and
``Ledger.post``, and ``Ledger.maintain`` every :data:`UPKEEP_EVERY`
transactions as the shell calls it when idle: the same records, chain and
snapshots a unit writes),
with the SQLite file unsynchronised while it is built, and caches it under
``/tmp/banker-bench-cache/<code version>/``: the version is a hash of the
sources that decide what a ledger file holds, so a change of the store or
the core builds a fresh one. Their keys and anchors (store/keys.py) are
kept in ``keys`` beside them, never in the user's keys folder;
:func:`ledger_copy` gives a copy its own.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from collections.abc import Iterator, Sequence

from common import CACHE, KEY_ENV, ROOT, use_keys

#: Transactions between two calls of the ledger's upkeep while building (a unit's idle moments between plays).
UPKEEP_EVERY = 50

#: Players of the benchmark ledgers' games.
PLAYERS = (("Alice", "04A1B2C3"), ("Bob", "04B2C3D4"), ("Cleo", "04C3D4E5"), ("Dan", "04D4E5F6"))


def code_version() -> str:
    """A hash of the tree's place and of the sources that decide what a ledger file holds (the core, the store,
    the write path): two trees never share a cached ledger (a newer store would move an older one's files on)."""
    digest = hashlib.sha256(str(ROOT).encode())
    for folder in ("banker", "store", "cards"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and path.suffix in {".py", ".toml", ".csv"}:
                digest.update(path.relative_to(ROOT).as_posix().encode())
                digest.update(path.read_bytes())
    for name in ("runtime/ledger.py", "benchmarks/ledgers.py"):
        path = ROOT / name
        if path.exists():
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def open_for_building(path: Path):
    """A writable ledger at ``path`` without backups, its file unsynchronised (a build, not a game)."""
    from runtime.ledger import open_ledger

    try:
        ledger = open_ledger(path, backups=False)
    except TypeError:  # a store without the option
        ledger = open_ledger(path)
    conn = _connection_of(ledger.store)
    if conn is not None:
        conn.execute("PRAGMA synchronous=OFF")
    return ledger


def _connection_of(store) -> sqlite3.Connection | None:
    for name in ("_conn", "conn", "connection"):
        conn = getattr(store, name, None)
        if isinstance(conn, sqlite3.Connection):
            return conn
    return None


def transfer(i: int, ids: Sequence[int]):
    """The ``i``-th benchmark transaction: payments that go back and forth between pairs of players, every tenth
    a GO salary (balances never run out, however long the game)."""
    from banker.journal.records import BANK, Posting, Transaction

    if i % 10 == 9:
        return Transaction("go", (Posting(BANK, ids[(i // 10) % len(ids)], 2_000_000, "go"),), "GO")
    pairs = [(a, b) for a in ids for b in ids if a < b]
    a, b = pairs[(i // 2) % len(pairs)]
    payer, payee = (a, b) if i % 2 == 0 else (b, a)
    return Transaction("transfer", (Posting(payer, payee, 1_000 + ((i // 2) % 97) * 1_000, "transfer"),), "bench")


def build_ledger(path: Path, transactions: int, *, games: int = 1) -> None:
    """A ledger at ``path``: the players, then ``transactions`` spread evenly over ``games`` games, the last current."""
    with open_for_building(path) as ledger:
        upkeep = getattr(ledger, "maintain", None)  # what the unit's shell does when idle: snapshots when due
        ids = [ledger.enrol(name, uid).id for name, uid in PLAYERS]
        per_game = transactions // games
        done = 0
        for g in range(games):
            if g:
                ledger.new_game()
            count = per_game if g < games - 1 else transactions - done
            for i in range(count):
                ledger.post(transfer(done + i, ids))
                if upkeep is not None and (done + i) % UPKEEP_EVERY == UPKEEP_EVERY - 1:
                    upkeep()
            done += count


def cache_folder() -> Path:
    """This code version's cache of built ledgers, with the keys folder of their keys and anchors.

    Ledgers opened from here on keep their keys there: a cached ledger's
    key is found, and a copy's anchor (:func:`ledger_copy`) never moves the
    cached ledger's.
    """
    folder = CACHE / code_version()
    use_keys(folder / "keys")
    return folder


@contextmanager
def keys_in(folder: Path) -> Iterator[None]:
    """Ledgers opened meanwhile (here and in child processes) keep their keys and anchors in ``folder``."""
    before = os.environ.get(KEY_ENV)
    os.environ[KEY_ENV] = str(folder)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(KEY_ENV, None)
        else:
            os.environ[KEY_ENV] = before


def ledger_file(transactions: int, *, games: int = 1, progress: bool = False) -> Path:
    """The cached ledger of ``transactions`` in ``games`` games (built on first use; copy it before writing)."""
    folder = cache_folder()
    path = folder / f"ledger-{transactions}-{games}.db"
    stamp = path.with_suffix(".stamp")
    if not path.exists() or not stamp.exists() or stamp.read_text() != _stamp_of(path):
        path.unlink(missing_ok=True)  # missing, or changed since it was built: build it again
        with tempfile.TemporaryDirectory(dir=folder) as work:
            scratch = Path(work) / "ledger.db"
            started = time.perf_counter()
            build_ledger(scratch, transactions, games=games)
            _checkpoint(scratch)
            os.replace(scratch, path)
            stamp.write_text(_stamp_of(path))
            if progress:
                print(f"   (built {path.name} in {time.perf_counter() - started:.1f} s)", file=sys.stderr, flush=True)
    return path


def _stamp_of(path: Path) -> str:
    """The size and modification time of ``path``: a cached ledger that was written to since is not used."""
    if not path.exists():
        return ""
    info = path.stat()
    return f"{info.st_size} {info.st_mtime_ns}"


def _checkpoint(path: Path) -> None:
    """Fold the write-ahead log into the file, so the file alone is the ledger (a copy needs no -wal)."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    for suffix in ("-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)


@contextmanager
def ledger_copy(transactions: int, *, games: int = 1, progress: bool = False) -> Iterator[Path]:
    """A private copy of the cached ledger (for a benchmark that writes), in a folder removed afterwards."""
    source = ledger_file(transactions, games=games, progress=progress)
    with tempfile.TemporaryDirectory(prefix="banker-bench-") as folder:
        target = Path(folder) / "ledger.db"
        shutil.copyfile(source, target)
        os.chmod(target, 0o600)
        os.chmod(folder, 0o700)
        keys = Path(folder) / "keys"
        shutil.copytree(source.parent / "keys", keys)  # the copy's own key and anchor: the cache's stay as built
        os.chmod(keys, 0o700)
        with keys_in(keys):
            yield target


def open_ledger_read(path: Path):
    """The ledger at ``path`` opened as ``banker`` opens it for a read-only command."""
    from runtime.ledger import open_ledger

    return open_ledger(path, writer=False)


def open_for_commits(path: Path, *, backups: bool = False):
    """The ledger at ``path`` opened as the unit opens it (a writer, fully synchronous); ``backups`` as asked."""
    from runtime.ledger import open_ledger

    if backups:
        return open_ledger(path)
    try:
        return open_ledger(path, backups=False)
    except TypeError:
        return open_ledger(path)


cache_folder()  # from here on, every ledger a benchmark opens keeps its key beside the cached ledgers

