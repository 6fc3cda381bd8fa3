"""Verify a long journal on every core: the keyed chain in one process, the records in parts, one per process.

The chain's half (each row's HMAC, gaps, the anchor: :class:`store.walks.ChainWalk`) needs no decoding and
runs in a second process over the whole file. The records' half (decoding each row and the audit's fold,
:class:`banker.audit.checks.Auditor`) is split at snapshots: this process audits the rows up to the first
split, and each other part is audited in another process from the snapshot that starts it, as opening the
ledger folds only what follows a snapshot. A part is taken in (:func:`banker.audit.checks.join`) only when that
is exactly what auditing its rows here would have done: nothing wrong on either side, the snapshot that starts
it accepted by the fold before it, and everything it took on trust from the rows before confirmed. Anything
else (a tampered row, a restore of a game held before the split) and this process audits those rows itself,
so every problem is found and named exactly as by :func:`store.walks.verify_rows`.

An append-only journal never changes its entries 1..``last``, so every process reads the same rows.
"""

from __future__ import annotations

import itertools
import os
import signal
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from banker.audit.findings import Audit, Problem
from banker.audit.checks import Auditor, Part, join, part_of
from banker.errors import CorruptLedger
from banker.journal.records import Snapshot
from cards import editions as packaged_editions

from .hot_rows import collector_paused
from .journal import Progress, Row, decode_row
from .walks import ChainWalk, ContentWalk

#: At most this many processes verify (the Pi Zero 2 has 4 cores).
MAX_PROCESSES = 4
#: The chain's cost per row against the records' (read and HMAC 2.7 us; read, decode and fold 7-8 us: measured
#: here), less a little for the worker's later start: the two processes end together.
CHAIN_WEIGHT = 0.3

#: The entry numbers of the snapshots up to entry ``?`` (through the partial index of marked rows).
SNAPSHOT_SEQS = "SELECT seq FROM journal WHERE mark IS NOT NULL AND kind = 'snapshot' AND seq <= ? ORDER BY seq"
COLUMNS = "seq, game, tx, time, kind, body, hash"  # a Row's
RowsBetween = Callable[[int, int], Iterator[Row]]  # rows with first < seq <= last, in order


def processes() -> int:
    """The cores this process may run on, at most :data:`MAX_PROCESSES`."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_PROCESSES))


def plan(last: int, snapshots: list[int], count: int) -> tuple[list[tuple[int, int]], bool]:
    """The parts after this process's own (``(snapshot's seq, last seq)`` each, in order) for ``count``
    processes, and whether the chain's process audits the first of them too: equal work for every process."""
    if count < 2:
        return [], False
    share = last * (1 + CHAIN_WEIGHT) / count
    alone = last * CHAIN_WEIGHT >= share  # the chain is a process's whole share (4 cores)
    if alone:
        sizes = [last / (count - 1)] * (count - 1)
    else:
        sizes = [share, share - last * CHAIN_WEIGHT] + [share] * (count - 2)
    cuts, total = [], 0.0
    for size in sizes[:-1]:
        total += size
        nearest = min(snapshots, key=lambda seq: abs(seq - total), default=None)
        if nearest is not None and 0 < nearest < last and (not cuts or nearest > cuts[-1]):
            cuts.append(nearest)
    return list(zip(cuts, cuts[1:] + [last])), not alone


def audit_part(rows: Iterator[tuple], first: int, last: int) -> tuple[list[Problem], list, list, int, Part]:
    """Audit entries ``first`` + 1 .. ``last`` (of ``rows``, in order; those outside are passed over) from the
    snapshot at entry ``first``: what the content walk and the auditor found (nothing is joined unless both are
    clean)."""
    content = ContentWalk()
    start = next((r for r in rows if r[0] >= first), None)
    try:
        snapshot = decode_row(Row(*start)) if start is not None and start[0] == first else None
    except CorruptLedger:
        snapshot = None
    if type(snapshot) is not Snapshot:
        return [Problem(None, f"journal entry {first} is not a snapshot")], [], [], 0, part_of(Auditor({}, None))
    auditor = Auditor(packaged_editions(), after=snapshot)
    auditor.feed(content.records(itertools.takewhile(lambda r: r[0] <= last, rows)))
    return content.problems, content.starts, content.accepted, content.count, part_of(auditor)


def _chained(rows: sqlite3.Cursor, walk: ChainWalk) -> Iterator[tuple]:
    """The rows of ``rows``, each stepped through the chain's ``walk`` too (a batch at a time): the chain's
    process reads the journal once for the chain and its part."""
    while batch := rows.fetchmany(4096):
        walk.steps(batch)
        yield from batch


def _as_worker() -> None:
    """A forked worker ends when the pool ends it (SIGTERM), whatever handler the process it came from set (the
    unit's shell stops cleanly on SIGTERM: a worker with that handler would never end)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _work(path: str, key: bytes | None, chain_start: int | None, anchor: tuple[int, str] | None, last: int,
          chain: bool, part: tuple[int, int] | None) -> tuple[Any, Any]:
    """One process's share: the chain (if ``chain``) and a part (if any), from one read of the rows."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        with collector_paused():
            walk = ChainWalk(key, chain_start, anchor) if chain else None
            if part is None:
                walk.steps(conn.execute(f"SELECT {COLUMNS} FROM journal WHERE seq <= ? ORDER BY seq", (last,)))
                return (walk.problems, walk.checked), None
            if walk is None:
                rows = iter(conn.execute(f"SELECT {COLUMNS} FROM journal WHERE seq >= ? AND seq <= ? ORDER BY seq",
                                         part))
                return None, audit_part(rows, *part)
            rows = _chained(conn.execute(f"SELECT {COLUMNS} FROM journal WHERE seq <= ? ORDER BY seq", (last,)), walk)
            found = audit_part(rows, *part)
            for _ in rows:  # the rest of the chain
                pass
            return (walk.problems, walk.checked), found
    finally:
        conn.close()


def verify_in_parts(path: str, rows_between: RowsBetween, *, key: bytes | None, chain_start: int | None,
                    anchor: tuple[int, str] | None, earlier: Iterable[Problem], last: int, snapshots: list[int],
                    progress: Progress | None = None) -> Audit:
    """:func:`store.walks.verify_rows` over entries 1..``last`` of the ledger file at ``path`` on every core
    (``snapshots``: the entry numbers of its snapshots, where the records may be split)."""
    import multiprocessing

    parts, chain_too = plan(last, snapshots, processes())
    shares: list[tuple[bool, tuple[int, int] | None]] = [(False, part) for part in parts]  # (chain?, part)
    if chain_too and shares:
        shares[0] = (True, parts[0])
    else:
        shares.insert(0, (True, None))
    editions = packaged_editions()
    with multiprocessing.get_context("fork").Pool(len(shares), initializer=_as_worker) as pool:
        results = [pool.apply_async(_work, (path, key, chain_start, anchor, last, chain, part))
                   for chain, part in shares]
        content, auditor = ContentWalk(progress), Auditor(editions)
        own = sqlite3.connect(f"file:{path}?mode=ro", uri=True)  # as the workers read: plain tuples, no layer
        try:
            with collector_paused():
                auditor.feed(content.records(own.execute(f"SELECT {COLUMNS} FROM journal WHERE seq <= ? ORDER BY seq",
                                                         (parts[0][0] if parts else last,))))
        finally:
            own.close()
        done = [result.get() for result in results]  # (chain, part) of each share
        chained = next(c for c, _ in done if c is not None)
        found = [p for _, p in done if p is not None]
        content, auditor = _taken_in(content, auditor, zip(parts, found), rows_between, last, progress)
    return content.finish(auditor.finish(), *chained, earlier=earlier)


def _taken_in(content: ContentWalk, auditor: Auditor, parts, rows_between: RowsBetween, last: int,
              progress: Progress | None) -> tuple[ContentWalk, Auditor]:
    """The fold of the first part with each worker's part (``((first, end), result)``, in order) joined on; from
    the first that doesn't join, the rest of the journal folded here (from its start, once a part was joined)."""
    for index, ((first, _end), (problems, starts, accepted, count, part)) in enumerate(parts):
        if not content.problems and not problems and join(auditor, part):
            content.starts += starts
            content.accepted += accepted
            content.count += count
            if progress is not None:
                progress(content.count)
            continue
        if index:  # a part before was taken in, and a taken-in part leaves no fold to go on from
            content, auditor, first = ContentWalk(progress), Auditor(packaged_editions()), 0
        with collector_paused():
            auditor.feed(content.records(rows_between(first, last)))
        break
    return content, auditor
