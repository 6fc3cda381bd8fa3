"""The durable journal: commits survive reopening, old games are kept, bad files are refused."""

import os
import stat

import pytest

from banker.errors import Refused

from banker.errors import CorruptLedger, LedgerError
from banker.journal.records import BANK, net_flows, GameSettings, Posting, Transaction
from runtime.ledger import SqliteLedger


def pay(ledger, payer, payee, amount):
    return ledger.post(Transaction("transfer", (Posting(payer, payee, amount, "transfer"),)))


def test_what_is_committed_is_there_after_reopening(tmp_path):
    path = tmp_path / "games" / "ledger.db"
    with SqliteLedger(path) as ledger:
        a, b = ledger.enrol("Alice", "A1"), ledger.enrol("Bob", "B2")
        tx = pay(ledger, b.id, a.id, 2_500_000)
        assert tx.id and tx.game == 1 and tx.time
    with SqliteLedger(path) as ledger:
        assert ledger.game().balances_by_name() == {"Alice": 17_500_000, "Bob": 12_500_000}
        ledger.check()


def test_balances_are_the_fold_of_the_journal(ledger):
    a, b = ledger.enrol("Alice", "A1"), ledger.enrol("Bob", "B2")
    pay(ledger, b.id, a.id, 1_000)
    pay(ledger, BANK, b.id, 7)
    assert net_flows(p for tx in ledger.transactions() for p in tx.postings) == {a.id: 15_001_000, b.id: 14_999_007}


def test_a_transaction_of_several_postings_is_posted_whole(ledger):
    a, b = ledger.enrol("Alice", "A1"), ledger.enrol("Bob", "B2")
    ledger.post(Transaction("deal", (Posting(a.id, BANK, 1, "x"), Posting(BANK, b.id, 2, "y"))))
    assert ledger.game().balances_by_name() == {"Alice": 14_999_999, "Bob": 15_000_002}


def test_a_failed_commit_leaves_nothing(tmp_path):
    import sqlite3

    path = tmp_path / "ledger.db"
    with SqliteLedger(path) as ledger:
        a = ledger.enrol("Alice", "A1")
        ledger.store._conn.execute("PRAGMA busy_timeout = 20")
        other = sqlite3.connect(path)
        other.execute("BEGIN EXCLUSIVE")
        with pytest.raises(LedgerError, match="locked"):
            pay(ledger, BANK, a.id, 5)
        other.rollback()
        other.close()
        assert ledger.game().balances_by_name() == {"Alice": 15_000_000}
        ledger.check()


def test_new_files_are_private(tmp_path):
    path = tmp_path / "private" / "ledger.db"
    SqliteLedger(path).close()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(path.parent).st_mode) == 0o700


def test_a_file_that_is_not_a_ledger_is_refused_clearly(tmp_path):
    path = tmp_path / "junk.db"
    path.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(CorruptLedger, match="corrupt or not a banker ledger"):
        SqliteLedger(path)


def test_another_sqlite_database_is_not_taken_for_a_ledger(tmp_path):
    import sqlite3

    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (x)")
    conn.commit()
    conn.close()
    with pytest.raises(CorruptLedger, match="not a banker ledger"):
        SqliteLedger(path)


def test_an_unusable_folder_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(LedgerError, match="cannot create"):
        SqliteLedger(blocker / "ledger.db")


def test_enrolment_refusals(ledger):
    ledger.enrol("Alice", "A1")
    with pytest.raises(Refused, match="already enrolled"):
        ledger.enrol("alice", "A2")
    with pytest.raises(Refused, match="already Alice's"):
        ledger.enrol("Bob", "a1")
    with pytest.raises(Refused, match="not a card UID"):
        ledger.enrol("Bob", "xyz")


def test_new_game_archives_the_old_one_and_restores_it(ledger):
    a = ledger.enrol("Alice", "A1")
    pay(ledger, BANK, a.id, 3_000_000)
    first = ledger.game().id
    second = ledger.new_game(GameSettings(start_balance=20_000_000, go_salary=4_000_000))
    assert second.id != first and second.settings.go_salary == 4_000_000
    assert ledger.game().balances_by_name() == {"Alice": 20_000_000}
    assert [g.id for g in ledger.games()] == [first, second.id]
    ledger.restore_game(first)
    assert ledger.game().balances_by_name() == {"Alice": 18_000_000}
    with pytest.raises(Refused, match="no game 99"):
        ledger.restore_game(99)


def test_rename_and_remove_keep_the_journal(ledger):
    a = ledger.enrol("Alice", "A1")
    ledger.rename("Alice", "Alicia")
    assert ledger.game().card_by_uid("A1").name == "Alicia"
    ledger.remove("Alicia")
    assert ledger.game().cards == ()
    assert ledger.game().names[a.id] == "Alicia"
    assert len(ledger.transactions()) == 1


