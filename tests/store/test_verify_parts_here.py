"""Verify in parts with the workers' shares run in this process: what each worker finds, and the plan of the parts.

tests/store/test_verify_parts.py runs the parts in forked processes, as the unit does; the pool ends those with
SIGTERM (verify_parts._as_worker makes sure it can), so nothing they ran is measured. Here the same shares run in
this process, through a pool with the multiprocessing Pool's calls, and must find what verify in one process finds.
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import signal
import sqlite3

import pytest

import store.verify_parts
from store.verify_parts import audit_part, plan
from tests.store.test_verify_parts import TAMPERING, a_ledger, audit_of, rechain


class _Done:
    def __init__(self, value):
        self.value = value

    def get(self):
        return self.value


class InlinePool:
    """multiprocessing's Pool, its work done in this process at apply_async (the initializer too)."""

    def __init__(self, count, initializer=None):
        self.count = count
        if initializer is not None:
            initializer()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def apply_async(self, function, args):
        return _Done(function(*args))


class InlineContext:
    Pool = InlinePool


@pytest.fixture
def inline(monkeypatch):
    """Verify's processes run here; SIGTERM's handler (the worker's initializer sets it) put back after. (audit_of
    undoes monkeypatch: a test sets get_context again before each audit in parts.)"""
    previous = signal.getsignal(signal.SIGTERM)
    monkeypatch.setattr(multiprocessing, "get_context", lambda method: InlineContext)
    yield
    signal.signal(signal.SIGTERM, previous)


@pytest.fixture(scope="module")
def honest(tmp_path_factory):
    return a_ledger(tmp_path_factory.mktemp("here") / "ledger.db", restored=False)


@pytest.fixture(scope="module")
def restored(tmp_path_factory):
    return a_ledger(tmp_path_factory.mktemp("here") / "ledger.db", restored=True)


@pytest.mark.parametrize("processes", [1, 2, 3, 4])  # 1: the chain alone in a worker, the records here
def test_the_shares_run_here_give_the_figures_of_one_process(honest, restored, processes, inline, monkeypatch):
    for ledger in (honest, restored):
        serial = audit_of(ledger, None, monkeypatch)
        monkeypatch.setattr(multiprocessing, "get_context", lambda method: InlineContext)
        assert audit_of(ledger, processes, monkeypatch) == serial
        assert serial[0] == []


@pytest.mark.parametrize("processes", [1, 2, 4])
@pytest.mark.parametrize("name", list(TAMPERING))
def test_a_tampered_ledger_is_named_the_same_by_the_shares_run_here(honest, tmp_path, name, processes, inline,
                                                                   monkeypatch):
    path = tmp_path / "ledger.db"
    shutil.copy(honest, path)
    how, what = TAMPERING[name]
    if how == "sql":
        conn = sqlite3.connect(path)
        conn.execute(what)
        conn.commit()
        conn.close()
    else:
        rechain(path, what)
    serial = audit_of(path, None, monkeypatch)
    assert serial[0], "the tampering is found"
    monkeypatch.setattr(multiprocessing, "get_context", lambda method: InlineContext)
    assert audit_of(path, processes, monkeypatch) == serial


def test_a_part_that_does_not_start_at_a_snapshot_is_named(honest):
    conn = sqlite3.connect(honest)
    try:
        rows = iter(conn.execute("SELECT seq, game, tx, time, kind, body, hash FROM journal WHERE seq >= 2 "
                                 "ORDER BY seq"))
        problems, *_ = audit_part(rows, 2, 20)
        empty, *_ = audit_part(iter(()), 5, 20)
    finally:
        conn.close()
    assert [str(p) for p in problems] == ["journal entry 2 is not a snapshot"]
    assert [str(p) for p in empty] == ["journal entry 5 is not a snapshot"]


def test_a_part_whose_snapshot_row_is_broken_is_named(honest, tmp_path):
    path = tmp_path / "ledger.db"
    shutil.copy(honest, path)
    conn = sqlite3.connect(path)
    try:
        seq = conn.execute("SELECT min(seq) FROM journal WHERE kind = 'snapshot'").fetchone()[0]
        conn.execute("UPDATE journal SET body = '{broken' WHERE seq = ?", (seq,))
        conn.commit()
        rows = iter(conn.execute("SELECT seq, game, tx, time, kind, body, hash FROM journal ORDER BY seq"))
        problems, *_ = audit_part(rows, seq, seq + 10)
    finally:
        conn.close()
    assert [str(p) for p in problems] == [f"journal entry {seq} is not a snapshot"]


def test_one_process_makes_no_parts_and_a_journal_with_no_snapshot_is_not_split():
    assert plan(1000, [100, 500], 1) == ([], False)
    assert plan(1000, [], 3) == ([], True)  # nowhere to split: the chain's process audits nothing more
    assert plan(1000, [0, 1000], 2) == ([], True)  # a cut only strictly inside the journal


def test_the_chain_s_process_takes_the_first_part_too_unless_the_chain_is_a_whole_share():
    snapshots = list(range(12, 1200, 12))
    parts, chain_too = plan(1200, snapshots, 4)
    assert chain_too is True and len(parts) == 3 and parts[-1][1] == 1200  # 4 cores: the chain (0.3) < a share
    assert parts[0][1] - parts[0][0] < 100  # ... so the chain's process audits a small part too
    parts, chain_too = plan(1200, snapshots, 5)  # more than MAX_PROCESSES: the chain is a process's whole share
    assert (parts, chain_too) == ([(300, 600), (600, 900), (900, 1200)], False)  # and this one: 0-300
    for parts, _ in (plan(1200, snapshots, n) for n in (2, 3, 4, 5)):
        assert [a for a, _ in parts] == sorted({a for a, _ in parts}) and all(a < b for a, b in parts)


def test_the_cores_counted_are_those_the_process_may_run_on(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(16)))
    assert store.verify_parts.processes() == store.verify_parts.MAX_PROCESSES
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    assert store.verify_parts.processes() == 1
    monkeypatch.delattr(os, "sched_getaffinity")  # not Linux: the machine's count
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert store.verify_parts.processes() == 1
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert store.verify_parts.processes() == 2


def test_a_long_ledger_is_verified_in_parts_by_ledger_verify(honest, tmp_path, inline, monkeypatch):
    """The store's verify takes the parts' way from PARALLEL_FROM entries on, and names a late edit."""
    import store.sqlite_store
    from store import SqliteStore

    path = tmp_path / "ledger.db"
    shutil.copy(honest, path)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE journal SET body = replace(body, '\"paid\"', '\"PAID\"') WHERE tx = 150")
    conn.commit()
    conn.close()
    monkeypatch.setattr(store.sqlite_store, "PARALLEL_FROM", 0)
    monkeypatch.setattr(store.verify_parts, "processes", lambda: 3)
    seen = []
    with SqliteStore(path, writer=False) as reader:
        audit = reader.verify(progress=seen.append)
    assert any("edited" in str(p) for p in audit.problems)
    assert seen and seen == sorted(seen)
