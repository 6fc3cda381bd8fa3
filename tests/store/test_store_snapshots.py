"""Snapshots: the ledger gives them their worth trail, each store writes what it is given, and both keep the same."""

from __future__ import annotations

from dataclasses import replace

import pytest

from banker.fold.game import replay
from banker.fold.history import worth_trail
from banker.fold.opening import open_journal
from banker.journal.records import Posting, Snapshot, Transaction
from cards import editions
from firmware_sim.memory_store import MemoryStore
from runtime.ledger import SNAPSHOT_EVERY, Ledger
from store import SqliteStore
from store.codec import encode


def clock() -> float:
    return 1_700_000_000.0  # both ledgers played at the same moment


def play(ledger: Ledger, transfers: int) -> None:
    """Two players' transfers, the upkeep run after each as the shell runs it when idle."""
    if not ledger.game().cards:
        ledger.enrol("Alice", "A1")
        ledger.enrol("Bob", "B2")
    alice, bob = (card.id for card in ledger.game().cards)
    for i in range(transfers):
        payer, payee = (alice, bob) if i % 2 else (bob, alice)
        ledger.post(Transaction("transfer", (Posting(payer, payee, 1_000 + i, "transfer"),), "paid"))
        ledger.maintain()


@pytest.fixture
def sqlite_store(tmp_path):
    store = SqliteStore(tmp_path / "ledger.db", backups=False, clock=clock)
    store._conn.execute("PRAGMA synchronous=OFF")  # a test's ledger: no need to wait for the disk
    return store


def test_both_stores_keep_the_same_snapshots_of_the_same_game(sqlite_store):
    with Ledger(MemoryStore(clock=clock)) as fake, Ledger(sqlite_store) as real:
        for ledger in (fake, real):
            play(ledger, 2 * SNAPSHOT_EVERY + 10)  # two snapshots: the second carries the first's trail on
        snapshots = [[r for r in ledger.store.records() if isinstance(r, Snapshot)] for ledger in (fake, real)]
    assert len(snapshots[0]) == 2 and snapshots[0] == snapshots[1]
    assert [encode(s) for s in snapshots[0]] == [encode(s) for s in snapshots[1]]  # byte for byte
    assert all(s.worth is not None and s.worth.game == 1 for s in snapshots[0])


def test_the_trail_a_snapshot_carries_is_the_game_folded_from_its_start(sqlite_store):
    with Ledger(sqlite_store) as ledger:
        play(ledger, 2 * SNAPSHOT_EVERY + 10)
        seq, snapshot = ledger.store.last_snapshot()
        before = replay(ledger.store.records(0, seq - 1), editions=ledger.editions)
        assert snapshot.worth == worth_trail(before, ledger.store.game_transactions(1))


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_a_store_writes_a_snapshot_as_it_is_given(kind, sqlite_store):
    store = MemoryStore(clock=clock) if kind == "memory" else sqlite_store
    with Ledger(store) as ledger:
        play(ledger, 3)
        bare = ledger.game().snapshot()  # no trail: the store must not add one
        ledger.commit(bare)
        seq, kept = ledger.store.last_snapshot()
        assert seq == ledger.store.last_seq() and kept == replace(bare, time=clock()) and kept.worth is None


def test_opening_up_to_an_entry_is_the_fold_of_the_journal_up_to_it(sqlite_store):
    with Ledger(sqlite_store) as ledger:
        play(ledger, SNAPSHOT_EVERY + 30)
        store = ledger.store
        snapshot_seq = store.last_snapshot()[0]
        records = list(store.records())
        for until in (snapshot_seq - 1, snapshot_seq, snapshot_seq + 7, len(records)):
            opened = open_journal(store, editions=editions(), until=until)
            assert opened.game == replay(records[:until], editions=editions())
            assert opened.snapshot_seq == (snapshot_seq if until >= snapshot_seq else 0)
        assert open_journal(store, editions=editions()).game == ledger.game()



def test_after_a_snapshot_of_an_earlier_release_the_next_one_gets_the_whole_trail(sqlite_store, monkeypatch):
    import runtime.ledger

    with Ledger(sqlite_store) as ledger:
        monkeypatch.setattr(runtime.ledger, "with_worth", lambda _store, snapshot, editions: snapshot)
        play(ledger, SNAPSHOT_EVERY)  # a snapshot as an earlier release wrote it: no trail
        assert ledger.store.last_snapshot()[1].worth is None
        monkeypatch.undo()
        play(ledger, SNAPSHOT_EVERY)
        seq, snapshot = ledger.store.last_snapshot()
        before = replay(ledger.store.records(0, seq - 1), editions=ledger.editions)
        assert snapshot.worth is not None and snapshot.worth == worth_trail(before, ledger.store.game_transactions(1))
