"""`ledger verify` (exit 1) names each edited entry of a ledger: a hash column that isn't one, a row's game column
changed and the chain re-hashed with the ledger's own key, the record where an upgraded ledger's keyed chain starts
unreadable (exit 3: the ledger can't be opened)."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from store import SqliteStore
from store.codec import keyed_hash
from tests.cli.support import a_ledger, banker

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def verify(db):
    result = banker("ledger", "verify", "--db", db)
    assert "Traceback" not in result.output
    return result


def rehash(db, sql):
    """Run ``sql`` on the journal, then re-hash the whole chain with the ledger's key: only the records' audit can
    tell."""
    with SqliteStore(db, writer=False) as reader:
        key = reader.key
    conn = sqlite3.connect(db)
    conn.execute(sql)
    previous = ""
    for seq, game, tx, time, kind, body in conn.execute(
            "SELECT seq, game, tx, time, kind, body FROM journal ORDER BY seq").fetchall():
        previous = keyed_hash(key, previous, seq, game, tx, time, kind, body)
        conn.execute("UPDATE journal SET hash = ? WHERE seq = ?", (previous, seq))
    conn.commit()
    conn.close()


def test_a_hash_that_is_not_hexadecimal_is_named_and_so_is_the_entry_after_it(tmp_path):
    db = a_ledger(tmp_path)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE journal SET hash = 'not a hash' WHERE seq = 3")
    conn.commit()
    conn.close()
    result = verify(db)
    assert result.exit_code == 1
    assert "journal entry 3 edited: a column holds" in result.output


def test_an_enrolment_moved_to_another_game_is_named_even_rechained(tmp_path):
    db = a_ledger(tmp_path)
    rehash(db, "UPDATE journal SET game = 7 WHERE seq = (SELECT min(seq) FROM journal WHERE kind = 'enrol')")
    result = verify(db)
    assert result.exit_code == 1
    assert "edited: its game or transaction column differs from its contents" in result.output


def test_a_payment_moved_to_another_transaction_is_named_even_rechained(tmp_path):
    db = a_ledger(tmp_path)
    rehash(db, "UPDATE journal SET tx = tx + 50 WHERE seq = (SELECT max(seq) FROM journal WHERE kind = 'tx')")
    result = verify(db)
    assert result.exit_code == 1
    assert "edited: its game or transaction column differs from its contents" in result.output


def test_an_upgraded_ledger_whose_chain_start_is_unreadable_is_named(tmp_path):
    db = tmp_path / "ledger.db"
    shutil.copyfile(FIXTURES / "ledger-v2.db", db)
    assert banker("ledger", "upgrade", "--db", db).exit_code == 0
    assert verify(db).exit_code == 0
    conn = sqlite3.connect(db)
    conn.execute("UPDATE journal SET body = '{broken' WHERE kind = 'chain'")
    conn.commit()
    conn.close()
    result = verify(db)
    assert result.exit_code == 3  # the ledger can't be opened without it: named, never a traceback
    assert "journal entry 11 (chain) cannot be read" in result.output
