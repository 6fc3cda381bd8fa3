"""Verify on every core finds exactly what verify in one process finds: honest and tampered ledgers, both ways."""

from __future__ import annotations

import shutil
import sqlite3
from dataclasses import replace

import pytest

import runtime.ledger
import store.sqlite_store
import store.verify_parts
from banker.journal.records import Posting, Transaction
from runtime.ledger import SqliteLedger
from store import SqliteStore
from store.codec import encode, keyed_hash
from store.journal import Row, decode_row


def a_ledger(path, *, restored: bool):
    """Three games (the first restored at the end if ``restored``), a snapshot every 12 entries: undos, some
    across a snapshot."""
    patch = pytest.MonkeyPatch()
    patch.setattr(runtime.ledger, "SNAPSHOT_EVERY", 12)
    try:
        with SqliteLedger(path, backups=False) as ledger:
            for game in range(3):
                if game:
                    ledger.new_game()
                cards = list(ledger.game().cards) or [ledger.enrol(name, f"A{i}B2C3") for i, name in
                                                      enumerate(("Alice", "Bob", "Cleo"))]
                for i in range(60):
                    payer, payee = cards[i % 3], cards[(i + 1) % 3]
                    posted = ledger.post(Transaction("transfer", (Posting(payer.id, payee.id, 1_000 + i, "transfer"),),
                                                     "paid"))
                    if i % 17 == 5:
                        ledger.maintain()  # a snapshot may fall between the payment and its undo
                        ledger.undo(posted.id)
                    ledger.maintain()
            if restored:
                ledger.restore_game(1)  # a game held before a later part's snapshot: that part is audited here again
            for _ in range(30 if restored else 0):
                ledger.post(Transaction("transfer", (Posting(cards[0].id, cards[1].id, 500, "transfer"),), "paid"))
                ledger.maintain()
    finally:
        patch.undo()
    return path


@pytest.fixture(scope="module")
def honest(tmp_path_factory):
    return a_ledger(tmp_path_factory.mktemp("parts") / "ledger.db", restored=False)


@pytest.fixture(scope="module")
def restored(tmp_path_factory):
    return a_ledger(tmp_path_factory.mktemp("parts") / "ledger.db", restored=True)


def audit_of(path, processes: int | None, monkeypatch):
    """``verify`` in one process (``processes`` None) or in parts over that many processes."""
    monkeypatch.setattr(store.sqlite_store, "PARALLEL_FROM", 10**9 if processes is None else 0)
    monkeypatch.setattr(store.verify_parts, "processes", lambda: processes or 1)
    with SqliteStore(path, writer=False) as reader:
        audit = reader.verify()
    monkeypatch.undo()
    games = {gid: (m.issued, m.returned, dict(sorted(m.players.items()))) for gid, m in audit.games.items()}
    return [str(p) for p in audit.problems], games, audit.transactions, audit.notices


def joins(monkeypatch) -> list[bool]:
    """Whether each part was taken in (True) or audited again here."""
    taken, original = [], store.verify_parts.join

    def spy(auditor, part):
        taken.append(original(auditor, part))
        return taken[-1]
    monkeypatch.setattr(store.verify_parts, "join", spy)
    return taken


@pytest.mark.parametrize("processes", [2, 3, 4])
def test_an_honest_ledger_is_verified_in_parts_with_the_same_figures(honest, processes, monkeypatch):
    serial = audit_of(honest, None, monkeypatch)
    taken = joins(monkeypatch)
    assert audit_of(honest, processes, monkeypatch) == serial
    assert serial[0] == [] and serial[2] > 180
    assert taken == [True] * (processes - 1)  # every part was taken in, none audited again


@pytest.mark.parametrize("processes", [2, 3, 4])
def test_a_part_that_brings_back_an_earlier_game_is_audited_again_here(restored, processes, monkeypatch):
    serial = audit_of(restored, None, monkeypatch)
    taken = joins(monkeypatch)
    assert audit_of(restored, processes, monkeypatch) == serial
    assert serial[0] == [] and serial[2] > 200
    assert taken[-1] is False and taken[:-1] == [True] * (len(taken) - 1)


def rechain(path, change):
    """Rewrite records with ``change(row, record)`` (None: delete the row) and re-hash the chain with the ledger's own
    key: what only the key's holder can do, so only the records' audit can tell."""
    with SqliteStore(path, writer=False) as reader:
        key = reader.key
    conn = sqlite3.connect(path)
    rows = [Row(*r) for r in conn.execute("SELECT seq, game, tx, time, kind, body, hash FROM journal ORDER BY seq")]
    previous = ""
    for row in rows:
        record = change(row, decode_row(row))
        if record is None:
            conn.execute("DELETE FROM journal WHERE seq = ?", (row.seq,))
            continue
        body = encode(record)[1]
        digest = keyed_hash(key, previous, row.seq, row.game, row.tx, row.time, row.kind, body)
        conn.execute("UPDATE journal SET body = ?, hash = ? WHERE seq = ?", (body, digest, row.seq))
        previous = digest
    conn.commit()
    conn.close()


def richer(tx_id):
    def change(row, record):
        if row.tx == tx_id:
            return replace(record, postings=(Posting(None, record.postings[0].payee, 5_000_000, "go"),))
        return record
    return change


def overdrawn(tx_id):
    def change(row, record):
        if row.tx == tx_id:
            p = record.postings[0]
            return replace(record, postings=(replace(p, amount=90_000_000),))
        return record
    return change


def undone_twice(tx_id, earlier):
    """Undo ``tx_id`` made to undo ``earlier`` (already undone at the start of the journal) again."""
    def change(row, record):
        return replace(record, reverses=earlier) if row.tx == tx_id else record
    return change


def dropped(tx_id):
    return lambda row, record: None if row.tx == tx_id else record


TAMPERING = {
    "edited body, late": ("sql", "UPDATE journal SET body = replace(body, '\"paid\"', '\"PAID\"') WHERE tx = 150"),
    "edited time, early": ("sql", "UPDATE journal SET time = time + 1 WHERE tx = 10"),
    "deleted row, late": ("sql", "DELETE FROM journal WHERE tx = 160"),
    "deleted snapshot": ("sql", "DELETE FROM journal WHERE seq = (SELECT min(seq) FROM journal WHERE seq > 100 "
                                "AND kind = 'snapshot')"),
    "broken row, late": ("sql", "UPDATE journal SET body = '{broken' WHERE tx = 170"),
    "money from nowhere, late": ("rechain", richer(140)),
    "money from nowhere, early": ("rechain", richer(12)),
    "overdrawn, late": ("rechain", overdrawn(180)),
    "missing transaction, rechained": ("rechain", dropped(130)),
    "undone twice": ("rechain", undone_twice(198, 9)),  # #10 undid #9; #198 is the last undo
}


@pytest.mark.parametrize("processes", [2, 4])
@pytest.mark.parametrize("name", list(TAMPERING))
def test_a_tampered_ledger_is_named_the_same_in_parts(honest, tmp_path, name, processes, monkeypatch):
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
    assert audit_of(path, processes, monkeypatch) == serial


def test_verify_in_parts_ends_its_processes_whatever_the_process_does_on_sigterm(honest, monkeypatch):
    """The unit's shell stops cleanly on SIGTERM; the workers forked from it must still end when verify ends."""
    import signal

    previous = signal.signal(signal.SIGTERM, lambda *_: None)
    try:
        assert audit_of(honest, 3, monkeypatch)[0] == []
    finally:
        signal.signal(signal.SIGTERM, previous)
