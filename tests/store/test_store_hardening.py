"""The ledger file against a careless builder and a player who cheats: one writer, keyed chain, anchors, snapshots."""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
from pathlib import Path

import pytest

from banker.errors import CorruptLedger, LedgerError
from banker.journal.records import ChainStart, Posting, Snapshot, Transaction
from runtime.ledger import SNAPSHOT_EVERY, SqliteLedger
from store import LedgerInUse, SqliteStore
from store.trust import UntrustedJournal
from store.keys import KEY_ENV

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def a_game(path, payments=3):
    with SqliteLedger(path, backups=False) as ledger:
        alice, bob = ledger.enrol("Alice", "A1"), ledger.enrol("Bob", "B2")
        for _ in range(payments):
            ledger.post(Transaction("transfer", (Posting(bob.id, alice.id, 100_000, "transfer"),), "Bob paid Alice"))
    return path


# -- one writer per file, whatever names it --------------------------------------------------


@pytest.mark.parametrize("other_name", ["symlink", "hardlink", "relative"])
def test_a_second_writer_is_refused_by_any_name_of_the_file(tmp_path, monkeypatch, other_name):
    path = a_game(tmp_path / "ledger.db")
    if other_name == "symlink":
        other = tmp_path / "elsewhere.db"
        other.symlink_to(path)
    elif other_name == "hardlink":
        other = tmp_path / "twin.db"
        os.link(path, other)
    else:
        monkeypatch.chdir(tmp_path)
        other = Path("ledger.db")
    with SqliteLedger(path, backups=False):
        with pytest.raises(LedgerInUse, match="in use"):
            SqliteLedger(other, backups=False)
    with SqliteLedger(other, backups=False) as next_one:  # once the first stops, the lock is free
        assert next_one.game().balances_by_name()["Alice"] == 15_300_000
    assert not list(tmp_path.glob("*.lock"))  # no lock files left lying about


# -- files -------------------------------------------------------------------------------------


def test_a_reader_never_creates_a_ledger(tmp_path):
    missing = tmp_path / "typo" / "ledger.db"
    with pytest.raises(LedgerError, match=f"there is no ledger at {missing}"):
        SqliteStore(missing, writer=False)
    assert not missing.exists() and not missing.parent.exists()


def test_every_new_folder_is_private_and_an_existing_ledger_is_tightened(tmp_path):
    path = tmp_path / "a" / "b" / "c" / "ledger.db"
    a_game(path)
    for folder in (tmp_path / "a", tmp_path / "a" / "b", tmp_path / "a" / "b" / "c"):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    os.chmod(path, 0o644)
    SqliteLedger(path, backups=False).close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_damaged_rows_in_a_sound_sqlite_file_are_a_corrupt_ledger(tmp_path):
    path = a_game(tmp_path / "ledger.db")
    conn = sqlite3.connect(path)
    conn.execute("UPDATE journal SET body = 'rubbish' WHERE seq = (SELECT max(seq) FROM journal)")
    conn.commit()
    conn.close()
    with pytest.raises(CorruptLedger, match="cannot be read"):
        SqliteLedger(path, writer=False, backups=False)
    with pytest.raises(UntrustedJournal, match="does not verify under the key"):
        SqliteLedger(path, backups=False)  # a writer checks the head first, and writes nothing


# -- the keyed chain and its anchor ------------------------------------------------------------


def test_the_key_lives_apart_from_the_ledger_and_its_backups(tmp_path):
    path = a_game(tmp_path / "ledger.db")
    with SqliteStore(path, writer=False) as store:
        ledger_id, key = store.ledger_id, store.key
    key_file = Path(os.environ[KEY_ENV]) / f"{ledger_id}.key"
    assert key_file.read_text().strip() == key.hex() and not str(key_file).startswith(str(tmp_path))
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert key.hex().encode() not in path.read_bytes()


def test_without_its_key_a_ledger_can_be_read_but_not_written_and_verify_says_why(tmp_path, monkeypatch):
    path = a_game(tmp_path / "ledger.db")
    monkeypatch.setenv(KEY_ENV, str(tmp_path / "another-machine"))
    with SqliteLedger(path, writer=False, backups=False) as reader:
        assert reader.game().balances_by_name()["Alice"] == 15_300_000
        assert any("key is not on this machine" in str(p) for p in reader.verify().problems)
    with pytest.raises(LedgerError, match="is not in .*another-machine"):
        SqliteLedger(path, backups=False)


def test_a_lost_write_ahead_log_is_found_by_the_anchor(tmp_path):
    """Commits that were only in the -wal file vanish with it; the anchor kept at the clean stop remembers them."""
    path = a_game(tmp_path / "ledger.db")
    keep = tmp_path / "before.db"
    shutil.copyfile(path, keep)  # the main file as it was (the WAL checkpointed at close)
    with SqliteLedger(path, backups=False) as ledger:
        ledger.set_setting("volume", "0")
        conn = sqlite3.connect(path)
        conn.execute("PRAGMA wal_autocheckpoint=0")
        conn.close()
    shutil.copyfile(keep, path)  # the newest commits are lost, as if the WAL file had vanished
    for suffix in ("-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    with SqliteLedger(path, writer=False, backups=False) as ledger:
        assert any("are gone" in str(p) and "last anchor" in str(p) for p in ledger.verify().problems)


def test_a_ledger_of_the_previous_release_joins_the_keyed_chain_and_old_rows_keep_their_own(tmp_path):
    path = tmp_path / "ledger.db"
    shutil.copyfile(FIXTURES / "ledger-v2.db", path)
    with SqliteLedger(path, backups=False, upgrade=True) as ledger:  # the explicit act: 'banker ledger upgrade'
        assert ledger.game().balances_by_name() == {"Alice": 19_500_000, "Bob": 20_000_000}
        records = list(ledger.store.records())
        assert isinstance(records[10], ChainStart) and records[10].rows == 10
        ledger.set_setting("volume", "2")
        assert ledger.verify().ok
    conn = sqlite3.connect(path)
    assert {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")} == {"meta", "journal"}
    conn.execute("UPDATE journal SET body = replace(body, '500000', '50000') WHERE seq = 10")
    conn.commit()
    with SqliteLedger(path, writer=False, backups=False) as ledger:
        assert "#8: edited: its hash does not match its contents and the row before it" in [
            str(p) for p in ledger.verify().problems]
    # the old chain is public: rebuilding it hides the edit from it, but not from the keyed row that binds it
    from store.codec import chain_hash

    previous = ""
    for seq, game, tx, time_, kind, body in conn.execute(
            "SELECT seq, game, tx, time, kind, body FROM journal WHERE seq <= 10 ORDER BY seq").fetchall():
        previous = chain_hash(previous, seq, game, tx, time_, kind, body)
        conn.execute("UPDATE journal SET hash = ? WHERE seq = ?", (previous, seq))
    conn.commit()
    conn.close()
    with SqliteLedger(path, writer=False, backups=False) as ledger:
        found = [str(p) for p in ledger.verify().problems]
    assert any("does not bind the rows of the earlier release" in p for p in found)


# -- opening at any age ------------------------------------------------------------------------


def test_opening_folds_only_what_follows_the_last_snapshot(tmp_path, monkeypatch):
    path = tmp_path / "ledger.db"
    with SqliteLedger(path, backups=False) as ledger:
        alice, bob = ledger.enrol("Alice", "A1"), ledger.enrol("Bob", "B2")
        for i in range(SNAPSHOT_EVERY + 20):
            payer, payee = (alice, bob) if i % 2 else (bob, alice)
            ledger.post(Transaction("transfer", (Posting(payer.id, payee.id, 1_000, "transfer"),), "paid"))
            ledger.maintain()
        balances = ledger.game().balances_by_name()
    with SqliteStore(path, writer=False) as store:
        seq, snap = store.last_snapshot()
        assert isinstance(snap, Snapshot) and store.last_seq() - seq < SNAPSHOT_EVERY
    read = []
    original = SqliteStore.records

    def counting(self, since=0):
        for record in original(self, since):
            read.append(record)
            yield record

    monkeypatch.setattr(SqliteStore, "records", counting)
    with SqliteLedger(path, writer=False, backups=False) as again:
        assert again.game().balances_by_name() == balances and again.game().transactions == SNAPSHOT_EVERY + 22
        assert again.game().last.id == SNAPSHOT_EVERY + 22
    assert len(read) < SNAPSHOT_EVERY
    monkeypatch.undo()
    with SqliteLedger(path, writer=False, backups=False) as again:
        assert again.verify().ok  # every snapshot equals the fold of the records before it
        assert [(g.id, g.transactions) for g in again.games()] == [(1, SNAPSHOT_EVERY + 22)]
        assert again.transaction(7).id == 7 and again.store.transaction(10_000) is None


def test_a_forged_snapshot_is_found_by_verify(tmp_path):

    path = tmp_path / "ledger.db"
    with SqliteLedger(path, backups=False) as ledger:
        ledger.enrol("Alice", "A1")
        snap = ledger.game().snapshot()
        cp = snap.current
        richer = type(cp)(**{**cp.__dict__, "balances": ((1, 99_000_000),)})
        ledger.store.append(type(snap)(**{**snap.__dict__, "current": richer}))  # past the ledger's own checks
    with SqliteLedger(path, writer=False, backups=False) as ledger:
        assert ledger.game().balances_by_name()["Alice"] == 99_000_000  # opening trusts the newest snapshot...
        assert any("snapshot differs" in str(p) for p in ledger.verify().problems)  # ...and verify doesn't


def test_the_first_writer_to_open_a_long_journal_without_a_snapshot_takes_one(tmp_path):
    path = tmp_path / "ledger.db"
    with SqliteStore(path, backups=False) as store:  # a long journal with no snapshot (a release-2 ledger)
        with SqliteLedger(":memory:") as scratch:
            alice, bob = scratch.enrol("Alice", "A1"), scratch.enrol("Bob", "B2")
            for record in scratch.store.records():
                store.append(record)
            for i in range(SNAPSHOT_EVERY + 5):
                payer, payee = (alice, bob) if i % 2 else (bob, alice)
                store.append(scratch.game().numbered(
                    Transaction("transfer", (Posting(payer.id, payee.id, 1_000, "transfer"),), "paid"), i))
    with SqliteStore(path, writer=False) as store:
        assert store.last_snapshot() is None
    with SqliteLedger(path, backups=False) as ledger:
        assert ledger.store.last_snapshot()[0] == ledger.store.last_seq()
